// S6's load, run as a process of its own by load.ts: autocannon cycling through
// many different requests — reads spread over the tenants and their members,
// and every `writeEvery`-th request a write — counting the answers the
// response cache served (x-cache: hit) of all the reads: a read answered
// without the header was not served from the cache either. Reads its plan from
// the file named by its argument, prints one JSON line.
import fs from 'node:fs';
import autocannon from 'autocannon';

const plan = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
let sent = 0;
let hits = 0;
let misses = 0;
let uncached = 0;
const pick = (list) => list[Math.floor(Math.random() * list.length)];
const asRequest = (request) => ({
  method: request.method ?? 'GET',
  path: request.path,
  headers: { host: new URL(plan.url).host, ...request.headers, ...(request.body !== undefined ? { 'content-type': 'application/json' } : {}) },
  ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
});

const result = await autocannon({
  url: plan.url,
  connections: plan.connections,
  duration: plan.seconds,
  timeout: 30,
  requests: [
    {
      // The context is the connection's: its next request is set up once this one is answered.
      setupRequest: (_request, context) => {
        sent++;
        context.write = plan.writes.length > 0 && sent % plan.writeEvery === 0;
        return asRequest(context.write ? pick(plan.writes) : pick(plan.reads));
      },
      onResponse: (_status, _body, context, headers) => {
        if (context.write) return;
        if (headers['x-cache'] === 'hit') hits++;
        else if (headers['x-cache'] === 'miss') misses++;
        else uncached++;
      },
    },
  ],
});
console.log(
  JSON.stringify({
    ok: result['2xx'],
    failures: result.non2xx + result.errors + result.timeouts,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytes: result.throughput.total,
    total: result.requests.total,
    hits,
    misses,
    uncached,
  }),
);
