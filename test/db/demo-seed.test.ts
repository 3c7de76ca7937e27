import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN_EMAIL, DEMO_FILES, demoSpecText, seedDemoThroughServices } from '../../prisma/seed/demo-services.ts';
import { seedDemo } from '../../prisma/seed/demo.ts';
import { captureDemo } from '../../prisma/seed/snapshot.ts';
import { type Database, openDatabase, runMigrations } from '../../src/db/index.ts';
import { issueApiToken } from '../../src/domain/users/provisioning.ts';
import { type FileStorage, localDiskStorage } from '../../src/storage/files.ts';
import { TEST_URLS, createTestApp } from '../support/app.ts';
import { closeWhenFileEnds } from '../support/cleanup.ts';
import { scratchDatabase } from '../support/scratch-database.ts';
import { testDatabaseUrl } from '../support/worker-database.ts';

/**
 * The demo is loaded in bulk from prisma/seed/demo-snapshot.json; the domain
 * services (prisma/seed/demo-services.ts) are the reference. Both load into
 * fresh databases and every table is compared, after mapping generated ids to
 * labels by first appearance and timestamps to whether there is one: Prisma's
 * tables, the full-text search rows (SQLite FTS5 / PostgreSQL tsvector: their
 * index is the database's own work from these rows) and the audit log. Not
 * compared: the secrets (random in both, checked fresh below), the versions of
 * the data generations (their scopes are: a version counts the writes that
 * touched a scope, fewer in bulk) and the migrations' bookkeeping table
 * (written before either seed).
 */

interface Seeded {
  url: string;
  database: Database;
  storage: FileStorage;
  statements: number;
  milliseconds: number;
}

async function seeded(seed: (database: Database, storage: FileStorage) => Promise<unknown>): Promise<Seeded> {
  const scratch = await scratchDatabase(testDatabaseUrl(), 'demo');
  closeWhenFileEnds(scratch.drop);
  await runMigrations(scratch.url);
  const filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-demo-seed-'));
  closeWhenFileEnds(() => fs.rmSync(filesDir, { recursive: true, force: true }));
  const database = openDatabase(scratch.url);
  closeWhenFileEnds(() => database.close());
  const storage = localDiskStorage(filesDir);
  const before = database.statementCount();
  const started = performance.now();
  await seed(database, storage);
  return { url: scratch.url, database, storage, statements: database.statementCount() - before, milliseconds: performance.now() - started };
}

const capture = (database: Database) => captureDemo(database, { specText: demoSpecText(TEST_URLS), dates: 'mask' });

describe('the demo data loaded in bulk', () => {
  let services: Seeded;
  let bulk: Seeded;
  beforeAll(async () => {
    services = await seeded((database, storage) => seedDemoThroughServices(database, TEST_URLS, storage));
    bulk = await seeded(async (database, storage) => expect(await seedDemo(database, TEST_URLS, storage)).toBe(true));
  });

  it('writes the rows the domain services write, in every table', async () => {
    const [reference, loaded] = await Promise.all([capture(services.database), capture(bulk.database)]);
    expect(reference.tables.map(({ table }) => table)).toContain('search_sections');
    expect(reference.tables.map(({ table }) => table)).toContain('audit_events');
    expect(reference.tables.map(({ table }) => table)).toContain('openapi_spec_versions');
    const rows = (snapshot: typeof reference) => Object.fromEntries(snapshot.tables.map(({ table, rows }) => [table, rows.map((row) => JSON.stringify(row))]));
    const [expected, actual] = [rows(reference), rows(loaded)];
    expect(Object.keys(actual)).toEqual(Object.keys(expected));
    for (const table of Object.keys(expected)) expect(actual[table], `${table}: the demo snapshot is stale? npm run -s demo:snapshot`).toEqual(expected[table]);
  });

  it('writes fresh ids, secrets and timestamps, and keeps the demo files', async () => {
    const [reference, loaded] = await Promise.all([
      services.database.db.organization.findMany({ orderBy: { createdAt: 'asc' } }),
      bulk.database.db.organization.findMany({ orderBy: { createdAt: 'asc' } }),
    ]);
    expect(loaded.map((org) => org.title)).toEqual(['Acme Docs', 'Globex Engineering', 'Initech Community']);
    expect(loaded.map((org) => org.title)).toEqual(reference.map((org) => org.title));
    for (const [index, org] of loaded.entries()) {
      expect(org.id).toMatch(/^org_[0-9A-Za-z]{18}$/);
      expect(org.id).not.toBe(reference[index]!.id);
      expect(org.visitorClaimsSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(org.visitorClaimsSecret).not.toBe(reference[index]!.visitorClaimsSecret);
    }
    const secrets = (await bulk.database.db.site.findMany()).map((site) => site.visitorAuthSecret);
    expect(new Set(secrets).size).toBe(4);
    // Timestamps end at the load, a millisecond apart in the services' order.
    expect(loaded[0]!.createdAt.getTime()).toBeLessThan(loaded[2]!.createdAt.getTime());
    expect(Date.now() - loaded[2]!.createdAt.getTime()).toBeLessThan(60_000);
    for (const file of DEMO_FILES) {
      const version = await bulk.database.db.fileVersion.findFirstOrThrow({ where: { name: file.name } });
      expect((await bulk.storage.get(version.sha256))?.toString('base64')).toBe(file.base64);
    }
  });

  it('serves the demo: the admin sees both organizations, search finds the guide, the spec has its first version', async () => {
    const t = await createTestApp({ databaseUrl: bulk.url, fileStorage: bulk.storage });
    const alice = await bulk.database.db.user.findUniqueOrThrow({ where: { email: DEMO_ADMIN_EMAIL } });
    const token = await issueApiToken(bulk.database.db, alice.id, 'test');
    const orgs = await t.call('GET', '/v1/orgs', { token });
    expect(orgs.statusCode).toBe(200);
    const items = orgs.json().items as Array<{ id: string; title: string }>;
    expect(items.map((org) => org.title).sort()).toEqual(['Acme Docs', 'Globex Engineering']);
    const acme = items.find((org) => org.title === 'Acme Docs')!;
    const search = await t.call('GET', `/v1/orgs/${acme.id}/search?query=quickstart`, { token });
    expect(search.statusCode).toBe(200);
    expect(JSON.stringify(search.json())).toContain('Quickstart');
    const specs = await t.call('GET', `/v1/orgs/${acme.id}/openapi`, { token });
    expect(specs.statusCode).toBe(200);
    expect(specs.json().items).toEqual([expect.objectContaining({ slug: 'docs-gateway-api' })]);
  });
});

describe('the bulk load, deferring the spec as npm start does', () => {
  it('takes one transaction of under 60 statements and leaves the spec unprocessed', async () => {
    const deferred = await seeded(async (database, storage) => expect(await seedDemo(database, TEST_URLS, storage, { deferSpec: true })).toBe(true));
    expect(deferred.statements).toBeLessThan(60);
    const spec = await deferred.database.db.openApiSpec.findFirstOrThrow({ where: { slug: 'docs-gateway-api' } });
    expect(spec.lastVersionId).toBeNull();
    expect(spec.sourceText).toBe(demoSpecText(TEST_URLS));
    // Seeding again does nothing.
    expect(await seedDemo(deferred.database, TEST_URLS, deferred.storage)).toBe(false);
  });
});
