import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { closeWhenFileEnds } from './cleanup.ts';
import { providerOf } from '../../src/db/client.ts';
import { emptyDatabase } from './databases.ts';
import { freePort, withoutRedis } from './network.ts';
import { testDatabaseUrl } from './worker-database.ts';

/**
 * Real `docs-gateway serve` processes on a database of their own, for tests that
 * kill one (`kill -9`) and start another on the same data. Everything started is
 * killed and dropped when the file ends.
 */

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'docs-gateway.js');

export interface ServerProcesses {
  url: string;
  port: number;
  base: string;
  /** The organization and admin token made by `bootstrap`. */
  admin: { organizationId: string; token: string };
  /** A JSON request with the admin's token. */
  call(method: string, route: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** Starts `serve` and waits until it is ready. */
  serve(): Promise<ChildProcess>;
}

/** A server process ended with the file (or sooner): killed, and waited for, before its database goes. */
async function ended(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** A new database (a SQLite file in a temporary directory, or a PostgreSQL database) with a bootstrapped organization. */
export async function serverProcesses(name: string, settings: Record<string, string> = {}): Promise<ServerProcesses> {
  // Closed when the file ends in reverse order: the servers started later, then the database.
  let url: string;
  if (providerOf(testDatabaseUrl()) === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `docs-gateway-${name}-`));
    url = `file:${path.join(dir, `${name}.db`)}`;
    closeWhenFileEnds(() => fs.rmSync(dir, { recursive: true, force: true }));
  } else {
    const database = await emptyDatabase();
    url = database.url;
    closeWhenFileEnds(() => database.drop());
  }
  const port = await freePort();
  const env = {
    ...withoutRedis(),
    DATABASE_URL: url,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '0',
    FILES_DIR: path.join(os.tmpdir(), `docs-gateway-${name}-files`),
    ...settings,
  };
  const admin = JSON.parse(
    execFileSync(process.execPath, [BIN, 'bootstrap', '--org', name, '--email', `${name}@example.test`, '--json'], { cwd: ROOT, env })
      .toString()
      .trim(),
  ) as { organizationId: string; token: string };
  const base = `http://127.0.0.1:${port}`;
  const headers = { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' };
  return {
    url,
    port,
    base,
    admin,
    async call(method, route, body) {
      const response = await fetch(`${base}${route}`, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
      return { status: response.status, body: await response.json().catch(() => null) };
    },
    async serve() {
      const child = spawn(process.execPath, [BIN, 'serve'], { cwd: ROOT, env, stdio: 'ignore' });
      closeWhenFileEnds(() => ended(child));
      for (let attempt = 0; attempt < 600; attempt++) {
        if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}`);
        if ((await fetch(`${base}/readyz`).catch(() => null))?.ok) return child;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('serve did not become ready');
    },
  };
}
