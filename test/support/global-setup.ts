import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { ensureBuilt } from '../../bin/build.js';
import { runMigrations } from '../../src/db/migrate.ts';

/**
 * Every test run gets a database of its own, migrated like production: a SQLite
 * file by default, or a new PostgreSQL database on the server of DATABASE_URL
 * when it is a postgresql:// URL. It is dropped when the run ends.
 */
export default async function setup(project: TestProject) {
  // The `docs-gateway` command runs the bundle (bin/docs-gateway.js), as users run it: built
  // once here, when a source changed since the last build, not by each process a test starts.
  await ensureBuilt();
  const serverUrl = process.env.DATABASE_URL ?? '';
  const name = `docs_gateway_test_${process.pid}_${Date.now().toString(36)}`;
  let url: string;
  let drop: () => Promise<void>;
  if (serverUrl.startsWith('postgres')) {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    const target = new URL(serverUrl);
    target.pathname = `/${name}`;
    url = target.toString();
    drop = async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      // With the copies its workers made (test/support/worker-database.ts).
      const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname = $1 OR datname LIKE $2', [name, `${name}\\_w%`]);
      for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      await client.end();
    };
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-test-'));
    url = `file:${path.join(dir, `${name}.db`)}`;
    drop = async () => fs.rmSync(dir, { recursive: true, force: true });
  }
  await runMigrations(url);
  project.provide('databaseUrl', url);
  return drop;
}

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}
