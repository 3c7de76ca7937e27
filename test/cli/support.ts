import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect } from 'vitest';
import { testDatabaseUrl } from '../support/worker-database.ts';

/**
 * Real `docs-gateway` processes for the command-line tests (bin/docs-gateway.js,
 * running the bundle test/support/global-setup.ts built, as `npx docs-gateway`
 * does) on the run's database. Other tools depend on the exact flags and JSON
 * output. One file per command, so that both workers share them.
 */

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = path.join(ROOT, 'bin', 'docs-gateway.js');
/** The bundle itself, as the container image runs it (`node dist/cli/docs-gateway.mjs`). */
export const BUNDLE = path.join(ROOT, 'dist', 'cli', 'docs-gateway.mjs');
// Servers load the demo data under forced garbage collection: allow for slow machines.
export const CLI_TEST_TIMEOUT = 180_000;

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Where the children keep uploaded files (the demo's among them): never the working directory. */
export const FILES_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-cli-files-'));
// Made once per worker (its files share this module: vitest.config.ts), removed when the worker ends.
process.once('exit', () => fs.rmSync(FILES_DIR, { recursive: true, force: true }));

/** The environment of a child: ours without the variables docs-gateway reads, plus `env`. */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env, FILES_DIR };
  for (const name of [
    'DATABASE_URL',
    'PORT',
    'HOST',
    'PUBLIC_URL',
    'APP_URL',
    'LOG_LEVEL',
    'PURGE_INTERVAL_SECONDS',
    'RESPONSE_CACHE_MB',
    'CONTENT_CACHE_MB',
    'CORS_ORIGINS',
    'RATE_LIMIT_PER_MINUTE',
    'RATE_LIMIT_FAILED_AUTH_PER_MINUTE',
    'REDIS_URL',
    'REDIS_PREFIX',
    'FETCH_PRIVATE_ADDRESSES',
    'LOG_FORMAT',
    'DOCS_GATEWAY_COMMAND',
  ]) {
    delete base[name];
  }
  return { ...base, ...env };
}

/**
 * Node options that collect garbage all along and at exit (test/support/force-gc.mjs):
 * a database handle left to the collector instead of being closed shows up there.
 */
export const FORCED_GC = ['--expose-gc', '--import', path.join(ROOT, 'test', 'support', 'force-gc.mjs')];

export function cli(args: string[], env: Record<string, string> = {}, { forcedGc = false } = {}): Promise<Run> {
  return runProcess(process.execPath, [...(forcedGc ? FORCED_GC : []), BIN, ...args], childEnv({ DATABASE_URL: testDatabaseUrl(), ...env }));
}

/** Runs `command` in the checkout (or `cwd`) with `env` and collects what it printed. */
export function runProcess(command: string, args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** The single JSON line a `--json` command prints. */
export function jsonLine(run: Run): Record<string, any> {
  expect(run.code, `exit code; stderr: ${run.stderr}`).toBe(0);
  const lines = run.stdout.split('\n').filter((line) => line.trim() !== '');
  expect(lines, `stdout: ${run.stdout}`).toHaveLength(1);
  expect(run.stdout.endsWith('\n')).toBe(true);
  return JSON.parse(lines[0]!);
}

export function expectFailure(run: Run, stderr: RegExp) {
  expect(run.code, `stdout: ${run.stdout}`).not.toBe(0);
  expect(run.code).not.toBeNull();
  expect(run.stderr).toMatch(stderr);
  expect(run.stdout.trim()).toBe('');
}

/**
 * `docs-gateway serve` children of one file: started with `start`, killed (SIGKILL)
 * after each test if still running, their temporary directory removed.
 */
export function serveChildren() {
  let servers: ChildProcess[] = [];
  let dir: string | undefined;
  afterEach(async () => {
    for (const server of servers) {
      if (server.exitCode !== null || server.signalCode !== null) continue;
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGKILL');
      await exited;
    }
    servers = [];
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  /** A temporary directory for this test's database file, removed after it. */
  const temporaryDirectory = () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-serve-'));
    return dir;
  };

  /**
   * Starts `serve` on the SQLite `file`. Under forced garbage collection unless
   * `forcedGc` is false: a test of what a person sees at a terminal opts out,
   * those of exit codes and closed databases keep it.
   */
  function start(entryPoint: string, args: string[], file: string, env: Record<string, string> = {}, { forcedGc = true } = {}) {
    const child = spawn(process.execPath, [...(forcedGc ? FORCED_GC : []), entryPoint, 'serve', ...args], {
      cwd: ROOT,
      env: childEnv({ DATABASE_URL: `file:${file}`, HOST: '127.0.0.1', LOG_LEVEL: 'warn', PORT: '1', ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    servers.push(child);
    const output = { stdout: '', stderr: '' };
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk));
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    return { child, output, exit };
  }
  return { start, temporaryDirectory };
}

/** The GraphiQL page, as a browser asks for it. */
export async function graphiqlPage(base: string): Promise<string> {
  const response = await fetch(`${base}/graphql`, { headers: { accept: 'text/html' } });
  expect(response.status).toBe(200);
  return response.text();
}

/** Waits until the server has printed `pattern` (its start-up is done when it prints its addresses), or fails with its output if it exits first. */
export async function printed(child: ChildProcess, output: { stdout: string; stderr: string }, pattern: RegExp): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!pattern.test(output.stdout)) {
    if (child.exitCode !== null) throw new Error(`serve exited early (${child.exitCode}):\n${output.stdout}\n${output.stderr}`);
    if (Date.now() > deadline) throw new Error(`serve did not print ${pattern}:\n${output.stdout}\n${output.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The lines a server printed in the pretty format, without their times. */
export function prettyLines(stdout: string): string[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.replace(/^\[[\d:.]+\] /, ''));
}

/** Waits until the server answers `/`, or fails with its output if it exits or never answers. */
export async function listening(base: string, child: ChildProcess, output: { stdout: string; stderr: string }): Promise<Response> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`serve exited early (${child.exitCode}):\n${output.stdout}\n${output.stderr}`);
    if (Date.now() > deadline) throw new Error(`serve did not listen at ${base}:\n${output.stdout}\n${output.stderr}`);
    const root = await fetch(`${base}/`).catch(() => undefined);
    if (root) return root;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
