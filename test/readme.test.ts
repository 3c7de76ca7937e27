import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../prisma/seed/demo.ts';
import { operationTable, withOperationTable } from '../src/rest/operation-table.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { localDiskStorage } from '../src/storage/files.ts';
import { issueApiToken } from '../src/domain/users/provisioning.ts';
import { TEST_URLS, createTestApp, type TestApp } from './support/app.ts';
import { closeWhenFileEnds } from './support/cleanup.ts';
import { emptyDatabase } from './support/databases.ts';
import { expectData } from './support/graphql.ts';

/**
 * Every GraphQL document of the README runs as written, on the demo data of
 * `npm start` (a database of its own), within the default limits.
 */

const README = fs.readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const documents = [...README.matchAll(/```graphql\n([\s\S]*?)```/g)].map((match) => match[1]!);

let t: TestApp;
let token: string;
let database: Awaited<ReturnType<typeof emptyDatabase>>;
beforeAll(async () => {
  database = await emptyDatabase();
  // Registered first, so it runs after the app on it is closed.
  closeWhenFileEnds(() => database.drop());
  await runMigrations(database.url);
  t = await createTestApp({ databaseUrl: database.url });
  expect(await seedDemo(t.database, TEST_URLS, localDiskStorage(fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-readme-files-'))))).toBe(true);
  const alice = await t.database.db.user.findUniqueOrThrow({ where: { email: 'alice@acme.test' } });
  token = await issueApiToken(t.database.db, alice.id, 'readme test');
});

describe('the README', () => {
  it('holds the current table of operations (npm run readme:operations)', () => {
    expect(README).toContain(operationTable());
    expect(withOperationTable(README)).toBe(README);
  });

  it('has GraphQL examples', () => {
    expect(documents.length).toBeGreaterThanOrEqual(3);
  });

  it.each(documents.map((document, index) => [index + 1, document]))('GraphQL example %i runs on the demo data', async (_index, document) => {
    const portal = await t.database.db.site.findFirstOrThrow({ where: { title: 'Acme Developer Portal' } });
    const variables = document.includes('$siteId') ? { siteId: portal.id } : {};
    const data = expectData(await t.graphql(token, document, variables));
    expect(JSON.stringify(data).length).toBeGreaterThan(50);
  });
});
