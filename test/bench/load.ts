// Load comes from a separate process (the autocannon CLI), so the client's CPU
// is never the server's, and its JSON report is read back.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { BENCH_DIR } from './processes.ts';

const AUTOCANNON = path.join(BENCH_DIR, 'node_modules', 'autocannon', 'autocannon.js');

export interface Request {
  method?: 'GET' | 'POST' | 'PATCH';
  path: string;
  headers?: Record<string, string>;
  /** JSON body, the same for every request. */
  body?: unknown;
}

export interface LoadResult {
  requestsPerSecond: number;
  latencyP50: number;
  latencyP99: number;
  /** Responses that were not 2xx, and socket errors/timeouts. */
  failures: number;
  bytesPerRequest: number;
}

export async function runLoad(baseUrl: string, request: Request, options: { seconds: number; connections: number }): Promise<LoadResult> {
  const args = [
    AUTOCANNON,
    '--json',
    '--connections',
    String(options.connections),
    '--duration',
    String(options.seconds),
    '--timeout',
    '30',
    '--method',
    request.method ?? 'GET',
  ];
  for (const [name, value] of Object.entries(request.headers ?? {})) args.push('--headers', `${name}=${value}`);
  if (request.body !== undefined) {
    args.push('--headers', 'content-type=application/json', '--body', JSON.stringify(request.body));
  }
  args.push(baseUrl + request.path);
  const { stdout } = await promisify(execFile)(process.execPath, args, { maxBuffer: 16 * 1024 * 1024, timeout: (options.seconds + 60) * 1000 });
  const report = JSON.parse(stdout) as {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    throughput: { total: number };
    non2xx: number;
    errors: number;
    timeouts: number;
    '2xx': number;
  };
  const ok = report['2xx'];
  return {
    requestsPerSecond: ok / options.seconds,
    latencyP50: report.latency.p50,
    latencyP99: report.latency.p99,
    failures: report.non2xx + report.errors + report.timeouts,
    bytesPerRequest: report.requests.total ? Math.round(report.throughput.total / report.requests.total) : 0,
  };
}

export interface MixResult extends LoadResult {
  /** Share of the reads the response cache served, or NaN without a cache. */
  hitRate: number;
}

/** S6: many different requests, every `writeEvery`-th one a write, from autocannon in a process of its own (mix.mjs). */
export async function runMix(
  baseUrl: string,
  mix: { reads: Request[]; writes: Request[]; writeEvery: number },
  options: { seconds: number; connections: number },
): Promise<MixResult> {
  const planFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-mix-')), 'plan.json');
  fs.writeFileSync(planFile, JSON.stringify({ url: baseUrl, ...mix, ...options }));
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(BENCH_DIR, 'mix.mjs'), planFile], {
      cwd: BENCH_DIR,
      maxBuffer: 16 * 1024 * 1024,
      timeout: (options.seconds + 60) * 1000,
    });
    const report = JSON.parse(stdout) as {
      ok: number;
      failures: number;
      p50: number;
      p99: number;
      bytes: number;
      total: number;
      hits: number;
      misses: number;
      uncached: number;
    };
    return {
      requestsPerSecond: report.ok / options.seconds,
      latencyP50: report.p50,
      latencyP99: report.p99,
      failures: report.failures,
      bytesPerRequest: report.total ? Math.round(report.bytes / report.total) : 0,
      // Of every read: one answered without x-cache (not cacheable) was not served from the cache either. NaN without a cache.
      hitRate: report.hits + report.misses ? report.hits / (report.hits + report.misses + report.uncached) : Number.NaN,
    };
  } finally {
    fs.rmSync(path.dirname(planFile), { recursive: true, force: true });
  }
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
