import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { expect } from 'vitest';
import { seedDemo } from '../../prisma/seed/demo.ts';
import { providerOf, sqliteFilePath } from '../../src/db/client.ts';
import { openDatabase } from '../../src/db/index.ts';
import { runMigrations } from '../../src/db/migrate.ts';
import { issueApiToken } from '../../src/domain/users/provisioning.ts';
import { type FileStorage, localDiskStorage } from '../../src/storage/files.ts';
import { TEST_URLS, createTestApp, type TestApp } from './app.ts';
import { closeWhenFileEnds } from './cleanup.ts';
import { testDatabaseUrl } from './worker-database.ts';

/**
 * The demo data of `npm start`, for tests that read the README's examples and
 * the demo site. Seeding it takes about a second (its spec is processed), so each worker seeds it once, into
 * a template beside its own database (dropped with the run's, by
 * test/support/global-setup.ts), and every file gets a copy of its own to
 * write in. test/cli/serve.test.ts and test/cli/database.test.ts seed it from
 * an empty database the way `npm start` and `seed --demo` do.
 */

interface DemoTemplate {
  url: string;
  /** Where the demo's files are kept: copies read them there (their bytes never change, their names are their digests). */
  filesDir: string;
}

let template: Promise<DemoTemplate> | undefined;

function demoTemplate(): Promise<DemoTemplate> {
  template ??= seedTemplate().catch((error: unknown) => {
    template = undefined;
    throw error;
  });
  return template;
}

async function seedTemplate(): Promise<DemoTemplate> {
  const worker = testDatabaseUrl();
  const url = providerOf(worker) === 'sqlite' ? worker.replace(/\.db$/, '_demo.db') : postgresUrl(worker, `${databaseName(worker)}_demo`);
  if (providerOf(url) === 'sqlite') fs.rmSync(sqliteFilePath(url), { force: true });
  else
    await admin(worker, async (client) => {
      await client.query(`DROP DATABASE IF EXISTS "${databaseName(url)}" WITH (FORCE)`);
      await client.query(`CREATE DATABASE "${databaseName(url)}"`);
    });
  await runMigrations(url);
  const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-demo-files-'));
  // The template serves every file of this worker (isolate: false): its files go when the worker does.
  process.once('exit', () => fs.rmSync(filesDir, { recursive: true, force: true }));
  const database = openDatabase(url);
  try {
    expect(await seedDemo(database, TEST_URLS, localDiskStorage(filesDir))).toBe(true);
  } finally {
    // Closed: a SQLite file is then whole without its write-ahead log, and PostgreSQL copies a template no one is connected to.
    await database.close();
  }
  return { url, filesDir };
}

/** A new database holding the demo data, dropped when the file ends, and the demo's files. */
export async function demoDatabase(): Promise<{ url: string; filesDir: string; storage: FileStorage }> {
  const { url: templateUrl, filesDir } = await demoTemplate();
  let url: string;
  if (providerOf(templateUrl) === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-demo-'));
    url = `file:${path.join(dir, 'demo.db')}`;
    fs.copyFileSync(sqliteFilePath(templateUrl), sqliteFilePath(url));
    closeWhenFileEnds(() => fs.rmSync(dir, { recursive: true, force: true }));
  } else {
    // Short: PostgreSQL cuts names at 63 characters, and the template's is long already.
    const name = `${databaseName(templateUrl)}_${Math.random().toString(36).slice(2, 10)}`;
    url = postgresUrl(templateUrl, name);
    await admin(templateUrl, (client) => client.query(`CREATE DATABASE "${name}" TEMPLATE "${databaseName(templateUrl)}"`));
    closeWhenFileEnds(() => admin(templateUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)));
  }
  return { url, filesDir, storage: localDiskStorage(filesDir) };
}

/**
 * The server on a copy of the demo data of `npm start` (dropped when the file
 * ends), and a token for one of the demo users (alice@acme.test by default).
 */
export async function createDemoApp(): Promise<{ t: TestApp; tokenOf(email?: string): Promise<string> }> {
  // Made first, so that its database is dropped after the app on it is closed.
  const database = await demoDatabase();
  const t = await createTestApp({ databaseUrl: database.url, fileStorage: database.storage });
  const tokenOf = async (email = 'alice@acme.test') => {
    const user = await t.database.db.user.findUniqueOrThrow({ where: { email } });
    return issueApiToken(t.database.db, user.id, 'demo test');
  };
  return { t, tokenOf };
}

const databaseName = (url: string) => decodeURIComponent(new URL(url).pathname.slice(1));

function postgresUrl(server: string, name: string): string {
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T>(server: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: postgresUrl(server, 'postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
