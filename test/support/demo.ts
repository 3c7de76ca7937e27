import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { seedDemo } from '../../prisma/seed/demo.ts';
import { runMigrations } from '../../src/db/migrate.ts';
import { issueApiToken } from '../../src/domain/users/provisioning.ts';
import { localDiskStorage } from '../../src/storage/files.ts';
import { TEST_URLS, createTestApp, type TestApp } from './app.ts';
import { closeWhenFileEnds } from './cleanup.ts';
import { emptyDatabase } from './databases.ts';

/**
 * The server on the demo data of `npm start`, in a database of its own (dropped
 * when the file ends), and a token for one of the demo users (alice@acme.test
 * by default): for tests that read the README's examples and the demo site.
 */
export async function createDemoApp(): Promise<{ t: TestApp; tokenOf(email?: string): Promise<string> }> {
  const database = await emptyDatabase();
  // Registered first, so it runs after the app on it is closed.
  closeWhenFileEnds(() => database.drop());
  await runMigrations(database.url);
  const t = await createTestApp({ databaseUrl: database.url });
  expect(await seedDemo(t.database, TEST_URLS, localDiskStorage(fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-demo-files-'))))).toBe(true);
  const tokenOf = async (email = 'alice@acme.test') => {
    const user = await t.database.db.user.findUniqueOrThrow({ where: { email } });
    return issueApiToken(t.database.db, user.id, 'demo test');
  };
  return { t, tokenOf };
}
