// `npm run bench:profile [-- --database sqlite|postgresql] [-- --scenario S3] [-- --requests 100]`:
// runs one scenario's request in-process against docs-gateway without the
// response cache, on the quick benchmark data set, under the V8 profiler, and
// prints the time per request, the SQL statements it executes and where the
// CPU went: Prisma, GraphQL execution, docs-gateway's own code, garbage
// collection, the rest. The benchmark (`npm run bench`) reports the same split.
import inspector from 'node:inspector/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../../src/app.ts';
import { openDatabase } from '../../src/db/index.ts';
import { type Sizes, prepareDataSet } from './dataset.ts';
import { BENCH_DIR } from './processes.ts';
import { SCENARIO_REQUESTS } from './scenarios.ts';

const { values: flags } = parseArgs({
  options: { database: { type: 'string', default: 'postgresql' }, scenario: { type: 'string', default: 'S3' }, requests: { type: 'string', default: '100' } },
});
const QUICK: Sizes = { sites: 10, largeSpaces: 10_000, largeMembers: 1_000 };
const url =
  flags.database === 'sqlite' ? `file:${path.join(BENCH_DIR, 'data', 'bench_quick.db')}` : 'postgresql://postgres@127.0.0.1:5432/docs_gateway_bench_quick';

const data = await prepareDataSet(url, QUICK, console.log);
const database = openDatabase(url);
const app = await buildApp({ database, urls: { api: 'http://bench.test', app: 'http://bench.test/app' }, logLevel: 'silent' });
const request = SCENARIO_REQUESTS[flags.scenario!]!(data);
const send = () =>
  app.inject({ method: request.method as 'GET', url: request.path, headers: { authorization: `Bearer ${data.token}`, 'content-type': 'application/json' }, ...(request.body ? { payload: JSON.stringify(request.body) } : {}) });

for (let i = 0; i < 20; i++) await send();
const first = await send();
if (first.statusCode !== 200 || first.body.includes('"errors"')) throw new Error(`${first.statusCode} ${first.body.slice(0, 300)}`);
const statementsBefore = database.statementCount();
await send();
const statements = database.statementCount() - statementsBefore;

// Time first, without the profiler: the median of batches of requests.
const count = Number(flags.requests);
const batches: number[] = [];
for (let batch = 0; batch < 7; batch++) {
  const started = performance.now();
  for (let i = 0; i < count / 5; i++) await send();
  batches.push((performance.now() - started) / (count / 5));
}
const perRequest = batches.sort((a, b) => a - b)[3]!;

const session = new inspector.Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
await session.post('Profiler.start');
for (let i = 0; i < count; i++) await send();
const { profile } = await session.post('Profiler.stop');
session.disconnect();

console.log(`${flags.scenario} on ${flags.database}: ${perRequest.toFixed(1)} ms per request (median of 7 batches), ${statements} statements, ${(first.body.length / 1024).toFixed(1)} KB`);
console.log(cpuSplit(profile));
if (process.env.PROFILE_TOP) console.log(topFunctions(profile, Number(process.env.PROFILE_TOP)));
await app.close();
await database.close();

type Profile = inspector.Profiler.Profile;

/** Self time of the profile's samples by where their function lives. */
export function cpuSplit(profile: Profile): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  for (const id of profile.samples ?? []) {
    const frame = byId.get(id)!.callFrame;
    const category = categoryOf(frame.url, frame.functionName);
    totals.set(category, (totals.get(category) ?? 0) + 1);
  }
  const all = [...totals.values()].reduce((sum, n) => sum + n, 0);
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([category, n]) => `  ${category.padEnd(24)} ${((100 * n) / all).toFixed(1).padStart(5)}%`)
    .join('\n');
}

function categoryOf(url: string, name: string): string {
  if (name === '(garbage collector)') return 'garbage collection';
  if (name === '(idle)' || name === '(program)') return name;
  if (/@prisma|src\/db\/generated|prisma-client/.test(url)) return 'Prisma';
  if (/better-sqlite3|node_modules\/pg/.test(url)) return 'database driver';
  if (/node_modules\/(graphql|@graphql-tools|graphql-yoga|@graphql-yoga|@envelop|@pothos|dataloader)/.test(url)) return 'GraphQL';
  if (/node_modules\/(fastify|light-my-request|find-my-way|avvio|pino)/.test(url)) return 'Fastify';
  if (url.includes('/src/')) return 'docs-gateway';
  if (url.startsWith('node:') || url === '') return 'Node.js';
  return 'other';
}

/** The functions with the most self time (PROFILE_TOP=n). */
function topFunctions(profile: Profile, n: number): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  for (const id of profile.samples ?? []) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const key = `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '').replace(/^.*\/src\//, 'src/')}:${lineNumber}`;
    totals.set(key, (totals.get(key) ?? 0) + 1);
  }
  const all = profile.samples?.length ?? 1;
  return [...totals.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([key, k]) => `  ${((100 * k) / all).toFixed(1).padStart(5)}% ${key}`).join('\n');
}
