// Where a scenario's time goes. `npm run bench:profile [-- --database sqlite|postgresql]
// [-- --scenario S3] [-- --requests 100]` runs one scenario's request in-process
// against docs-gateway without the response cache, on the quick benchmark data
// set, under the V8 profiler, and prints the time per request, the SQL
// statements it executes and where the CPU went: Prisma, GraphQL execution,
// docs-gateway's own code, garbage collection, the rest (PROFILE_TOP=n adds the
// n functions with most self time; PROFILE_OUT=file.cpuprofile keeps the profile). The benchmark (`npm run bench`) reports the
// same split for each scenario.
import fs from 'node:fs';
import inspector from 'node:inspector/promises';
import v8 from 'node:v8';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../../src/http/app.ts';
import { openDatabase } from '../../src/db/index.ts';
import { type DataSet, type Sizes, prepareDataSet } from './dataset.ts';
import { BENCH_DIR } from './processes.ts';
import { SCENARIO_REQUESTS } from './scenarios.ts';

export interface ScenarioProfile {
  scenario: string;
  database: string;
  /** Median over batches, in-process, without the profiler running. */
  msPerRequest: number;
  /** Bytes the JavaScript heap allocated per request (what the garbage collector then has to free). */
  allocatedPerRequest: number;
  statements: number;
  kilobytes: number;
  /** Share of the CPU samples by where their function lives, in percent. */
  split: Record<string, number>;
  profile: inspector.Profiler.Profile;
}

/**
 * Runs a scenario's request in-process against docs-gateway without the response
 * cache: times batches of requests, counts the statements one executes, then
 * profiles `requests` more.
 */
export async function profileScenario(url: string, data: DataSet, scenario: string, requests = 100): Promise<ScenarioProfile> {
  const database = openDatabase(url);
  // Configured as `npm start` runs it, but without the response cache.
  const app = await buildApp({
    database,
    urls: { api: 'http://bench.test', app: 'http://bench.test/app' },
    logLevel: 'silent',
    pageTreeCacheBytes: 64 * 1024 * 1024,
    // As the benchmark's servers run (RATE_LIMIT_PER_MINUTE=0): thousands of requests a minute would be answered 429.
    rateLimits: { perMinute: 0, failedAuthenticationsPerMinute: 0 },
  });
  try {
    const request = SCENARIO_REQUESTS[scenario]!(data);
    const send = () =>
      app.inject({
        method: (request.method ?? 'GET') as 'GET',
        url: request.path,
        headers: { authorization: `Bearer ${data.token}`, 'content-type': 'application/json' },
        ...(request.body ? { payload: JSON.stringify(request.body) } : {}),
      });
    for (let i = 0; i < 20; i++) await send();
    const first = await send();
    if (first.statusCode !== 200 || first.body.includes('"errors"')) throw new Error(`${first.statusCode} ${first.body.slice(0, 300)}`);
    const statementsBefore = database.statementCount();
    await send();
    const statements = database.statementCount() - statementsBefore;

    const batches: number[] = [];
    for (let batch = 0; batch < 7; batch++) {
      const started = performance.now();
      for (let i = 0; i < requests / 5; i++) await send();
      batches.push((performance.now() - started) / (requests / 5));
    }

    const allocatedPerRequest = (await allocatedBytes(() => sendMany(send, requests))) / requests;

    const session = new inspector.Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
    for (let i = 0; i < requests; i++) await send();
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    return {
      scenario,
      database: database.provider,
      msPerRequest: batches.sort((x, y) => x - y)[3]!,
      allocatedPerRequest,
      statements,
      kilobytes: first.body.length / 1024,
      split: cpuSplit(profile),
      profile,
    };
  } finally {
    await app.close();
    await database.close();
  }
}

async function sendMany(send: () => Promise<unknown>, count: number) {
  for (let i = 0; i < count; i++) await send();
}

/**
 * Bytes allocated on the JavaScript heap while `work` runs: what each garbage
 * collection found in use before it ran, less what the previous one left, plus
 * what was allocated since the last one (v8.GCProfiler).
 */
async function allocatedBytes(work: () => Promise<void>): Promise<number> {
  const used = () => v8.getHeapStatistics().used_heap_size;
  const profiler = new v8.GCProfiler();
  const start = used();
  profiler.start();
  await work();
  const end = used();
  const { statistics } = profiler.stop() ?? { statistics: [] };
  let allocated = 0;
  let previous = start;
  for (const gc of statistics) {
    allocated += gc.beforeGC.heapStatistics.usedHeapSize - previous;
    previous = gc.afterGC.heapStatistics.usedHeapSize;
  }
  return allocated + end - previous;
}

/** The split as text lines, largest first. */
export function formatSplit(split: Record<string, number>): string {
  return Object.entries(split)
    .sort((a, b) => b[1] - a[1])
    .map(([category, share]) => `  ${category.padEnd(24)} ${share.toFixed(1).padStart(5)}%`)
    .join('\n');
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const { values: flags } = parseArgs({
    options: { database: { type: 'string', default: 'postgresql' }, scenario: { type: 'string', default: 'S3' }, requests: { type: 'string', default: '100' } },
  });
  const QUICK: Sizes = { sites: 10, largeSpaces: 10_000, largeMembers: 1_000 };
  const url =
    flags.database === 'sqlite' ? `file:${path.join(BENCH_DIR, 'data', 'bench_quick.db')}` : 'postgresql://postgres@127.0.0.1:5432/docs_gateway_bench_quick';
  const data = await prepareDataSet(url, QUICK, console.log);
  const result = await profileScenario(url, data, flags.scenario!, Number(flags.requests));
  console.log(
    `${result.scenario} on ${result.database}: ${result.msPerRequest.toFixed(1)} ms per request (median of 7 batches), ${result.statements} statements, ${result.kilobytes.toFixed(1)} KB, ${(result.allocatedPerRequest / 1048576).toFixed(2)} MB allocated per request`,
  );
  console.log(formatSplit(result.split));
  if (process.env.PROFILE_TOP) console.log(topFunctions(result.profile, Number(process.env.PROFILE_TOP)));
  // For Chrome's DevTools or a script that walks the call tree.
  if (process.env.PROFILE_OUT) fs.writeFileSync(process.env.PROFILE_OUT, JSON.stringify(result.profile));
}

type Profile = inspector.Profiler.Profile;

/** Self time of the profile's samples by where their function lives, in percent. */
export function cpuSplit(profile: Profile): Record<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  for (const id of profile.samples ?? []) {
    const frame = byId.get(id)!.callFrame;
    const category = categoryOf(frame.url, frame.functionName);
    totals.set(category, (totals.get(category) ?? 0) + 1);
  }
  const all = [...totals.values()].reduce((sum, n) => sum + n, 0) || 1;
  return Object.fromEntries([...totals.entries()].map(([category, n]) => [category, (100 * n) / all]));
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
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([key, k]) => `  ${((100 * k) / all).toFixed(1).padStart(5)}% ${key}`)
    .join('\n');
}
