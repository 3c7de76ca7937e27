import fs from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { providerOf, sqliteFilePath } from '../../src/db/client.ts';

/**
 * The database of this vitest worker: a copy of the run's migrated database
 * (test/support/global-setup.ts), made when the worker's first file starts, so that
 * files in parallel workers neither wait on each other's locks nor see each
 * other's writes in the statements and generations they count. Files of one
 * worker run one after another and share it, as they shared the run's before.
 */
export function testDatabaseUrl(): string {
  const url = process.env[WORKER_DATABASE_URL];
  if (!url) throw new Error('test/support/setup.ts makes the worker database before any file runs');
  return url;
}

const WORKER_DATABASE_URL = 'DOCS_GATEWAY_WORKER_DATABASE_URL';

/** Called by test/support/setup.ts at the start of every file: the first one in a worker copies the run's database. */
export async function prepareWorkerDatabase(): Promise<void> {
  if (process.env[WORKER_DATABASE_URL]) return;
  const runUrl = inject('databaseUrl');
  const workerUrl = workerDatabaseUrl(runUrl, process.env.VITEST_POOL_ID ?? '1');
  if (providerOf(runUrl) === 'sqlite') {
    const target = sqliteFilePath(workerUrl);
    // A worker process that vitest replaced keeps its number: its successor takes over its copy.
    if (!fs.existsSync(target)) fs.copyFileSync(sqliteFilePath(runUrl), target);
  } else {
    await copyPostgresDatabase(runUrl, workerUrl);
  }
  process.env[WORKER_DATABASE_URL] = workerUrl;
}

/** `<run database>_w<pool id>`, beside the run's: global-setup drops them with it. */
export function workerDatabaseUrl(runUrl: string, poolId: string): string {
  if (providerOf(runUrl) === 'sqlite') return runUrl.replace(/\.db$/, `_w${poolId}.db`);
  const url = new URL(runUrl);
  url.pathname = `${url.pathname}_w${poolId}`;
  return url.toString();
}

async function copyPostgresDatabase(runUrl: string, workerUrl: string) {
  const template = decodeURIComponent(new URL(runUrl).pathname.slice(1));
  const name = decodeURIComponent(new URL(workerUrl).pathname.slice(1));
  const admin = new URL(runUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return;
    // The template must have no other session: another worker copying it at the same moment is one.
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
        return;
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === '42P04') return; // made by the worker this one replaced, in the meantime
        if (code !== '55006' || attempt >= 100) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 100));
      }
    }
  } finally {
    await client.end();
  }
}
