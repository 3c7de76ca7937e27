// Systems under test run as child processes, started and stopped by process id
// with bounded waits, so that a crashed or hung peer never hangs the benchmark.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const BENCH_DIR = path.dirname(new URL(import.meta.url).pathname);
export const REPO_DIR = path.resolve(BENCH_DIR, '../..');

export interface RunningSystem {
  name: string;
  pid: number;
  port: number;
  url: string;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const child of running) child.kill('SIGKILL');
    process.exit(130);
  });
}
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface StartOptions {
  name: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** Answers true once the system serves requests. */
  ready(url: string): Promise<boolean>;
  /** For systems that take their port as an argument rather than from PORT. */
  portArgument?: string;
  timeoutMs?: number;
}

/** Starts `node <args>` on a free port (PORT in its environment) and waits until it is ready. */
export async function startSystem(options: StartOptions): Promise<RunningSystem> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const logFile = path.join(BENCH_DIR, 'data', `${options.name}.log`);
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.openSync(logFile, 'w');
  const args = options.portArgument ? [...options.args, options.portArgument, String(port)] : options.args;
  const child = spawn(process.execPath, args, {
    cwd: options.cwd ?? REPO_DIR,
    env: { ...process.env, NODE_ENV: 'production', ...options.env, PORT: String(port) },
    stdio: ['ignore', log, log],
  });
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    running.delete(child);
    fs.closeSync(log);
  };
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    if (await options.ready(url).catch(() => false)) {
      return { name: options.name, pid: child.pid!, port, url, stop };
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  const tail = fs.readFileSync(logFile, 'utf8').split('\n').slice(-20).join('\n');
  throw new Error(`${options.name} did not start (log ${logFile}):\n${tail}`);
}

/** Resident memory of a process in MB: `VmRSS` now, or `VmHWM`, its peak since the last reset. */
export function memoryOf(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
  return Math.round(kb / 102.4) / 10;
}

/** Resets a process's peak resident memory, so the next `VmHWM` covers what follows. */
export function resetPeakMemory(pid: number): void {
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

export async function httpOk(url: string, init?: RequestInit): Promise<boolean> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(2000) });
  await response.arrayBuffer();
  return response.ok;
}
