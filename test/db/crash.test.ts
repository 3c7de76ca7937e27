import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { providerOf, sqliteFilePath } from '../../src/db/client.ts';
import { emptyDatabase } from '../support/databases.ts';
import { freePort } from '../support/network.ts';
import { testDatabaseUrl } from '../support/worker-database.ts';

/**
 * `kill -9` of a real server process during a mixed write load, then a restart
 * on the same database: every write the server acknowledged is there, no
 * content batch is half applied, and (SQLite) the database file passes its
 * integrity check.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'docs-gateway.js');
const provider = providerOf(testDatabaseUrl());

async function databaseUrl(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (provider === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-crash-'));
    return { url: `file:${path.join(dir, 'crash.db')}`, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  return emptyDatabase();
}

const env = (url: string, port: number) => ({
  ...process.env,
  DATABASE_URL: url,
  PORT: String(port),
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_MINUTE: '0',
  FILES_DIR: path.join(os.tmpdir(), 'docs-gateway-crash-files'),
});

async function serve(url: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BIN, 'serve'], { cwd: ROOT, env: env(url, port), stdio: 'ignore' });
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}`);
    if ((await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.ok) return child;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('serve did not become ready');
}

const children: ChildProcess[] = [];
const databases: Array<{ drop: () => Promise<void> }> = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const database of databases) await database.drop().catch(() => {});
});

describe('a server killed during writes', () => {
  it('keeps every acknowledged write and no half-applied batch after kill -9 and a restart', async () => {
    const database = await databaseUrl();
    databases.push(database);
    const port = await freePort();
    const admin = JSON.parse(
      execFileSync(process.execPath, [BIN, 'bootstrap', '--org', 'Crash', '--email', 'crash@example.test', '--json'], {
        cwd: ROOT,
        env: env(database.url, port),
      })
        .toString()
        .trim(),
    ) as { organizationId: string; token: string };
    const base = `http://127.0.0.1:${port}`;
    const headers = { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' };
    const call = async (method: string, route: string, body?: unknown) => {
      const response = await fetch(`${base}${route}`, { method, headers, ...(body ? { body: JSON.stringify(body) } : {}) });
      return { status: response.status, body: (await response.json().catch(() => null)) as any };
    };

    let server = await serve(database.url, port);
    children.push(server);
    const space = (await call('POST', `/v1/orgs/${admin.organizationId}/spaces`, { title: 'Target' })).body;
    const changeRequest = (await call('POST', `/v1/spaces/${space.id}/change-requests`, {})).body;

    const createdSpaces: string[] = [];
    const appliedBatches: number[] = [];
    let stop = false;
    const writer = async (worker: number) => {
      for (let round = 0; !stop; round++) {
        try {
          const created = await call('POST', `/v1/orgs/${admin.organizationId}/spaces`, { title: `Space ${worker}.${round}` });
          if (created.status === 201) createdSpaces.push(created.body.id);
          const batch = worker * 1000 + round;
          const edited = await call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
            changes: [
              { operation: 'insert_page', title: `Batch ${batch} first`, document: { markdown: 'one\n' } },
              { operation: 'insert_page', title: `Batch ${batch} second`, document: { markdown: 'two\n' } },
            ],
          });
          if (edited.status === 200) appliedBatches.push(batch);
        } catch {
          return; // The server is gone.
        }
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    server.kill('SIGKILL');
    stop = true;
    await Promise.all(writers);
    expect(createdSpaces.length).toBeGreaterThan(0);
    expect(appliedBatches.length).toBeGreaterThan(0);

    if (provider === 'sqlite') {
      const file = new BetterSqlite3(sqliteFilePath(database.url));
      expect(file.pragma('integrity_check', { simple: true })).toBe('ok');
      file.close();
    }

    server = await serve(database.url, port);
    children.push(server);
    for (const id of createdSpaces) expect((await call('GET', `/v1/spaces/${id}`)).status, id).toBe(200);
    const pages = (await call('GET', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content/pages`)).body.pages as Array<{ title: string }>;
    const titles = new Set(pages.map((page) => page.title));
    for (const batch of appliedBatches) {
      expect(titles.has(`Batch ${batch} first`) && titles.has(`Batch ${batch} second`), `batch ${batch}`).toBe(true);
    }
    // Any batch present at all is present whole (unacknowledged ones included).
    for (const title of titles) {
      const batch = /^Batch (\d+) (first|second)$/.exec(title)?.[1];
      if (batch) expect(titles.has(`Batch ${batch} first`) && titles.has(`Batch ${batch} second`), `batch ${batch}`).toBe(true);
    }
    server.kill('SIGTERM');
  }, 180_000);
});
