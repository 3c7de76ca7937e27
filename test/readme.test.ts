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
 * Every GraphQL document of the README and of docs/*.md runs as written, on
 * the demo data of `npm start` (a database of its own), within the default
 * limits: an example keeps being checked wherever it lives.
 */

const ROOT = new URL('../', import.meta.url);
const README = fs.readFileSync(new URL('README.md', ROOT), 'utf8');
const DOCS = fs
  .readdirSync(new URL('docs/', ROOT))
  .filter((name) => name.endsWith('.md'))
  .sort()
  .map((name) => `docs/${name}`);

const examples = ['README.md', ...DOCS].flatMap((file) =>
  [...fs.readFileSync(new URL(file, ROOT), 'utf8').matchAll(/```graphql\n([\s\S]*?)```/g)].map((match, index) => ({
    name: `${file} #${index + 1}`,
    file,
    document: match[1]!,
  })),
);

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

describe('the README and docs/', () => {
  it('hold the current table of operations in the README (npm run readme:operations)', () => {
    expect(README).toContain(operationTable());
    expect(withOperationTable(README)).toBe(README);
  });

  it('have GraphQL examples, in the README and in docs/', () => {
    expect(examples.filter((example) => example.file === 'README.md').length).toBeGreaterThanOrEqual(1);
    expect(examples.filter((example) => example.file !== 'README.md').length).toBeGreaterThanOrEqual(3);
  });

  it.each(examples.map((example) => [example.name, example.document]))('GraphQL example %s runs on the demo data', async (_name, document) => {
    const portal = await t.database.db.site.findFirstOrThrow({ where: { title: 'Acme Developer Portal' } });
    const variables = document.includes('$siteId') ? { siteId: portal.id } : {};
    const data = expectData(await t.graphql(token, document, variables));
    expect(JSON.stringify(data).length).toBeGreaterThan(50);
  });
});
