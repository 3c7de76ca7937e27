import { describe, expect, it } from 'vitest';
import { migrationFiles, runMigrations } from '../../src/db/migrate.ts';
import { createTestApp } from '../support/app.ts';
import { closeWhenFileEnds } from '../support/cleanup.ts';
import { emptyDatabase } from '../support/databases.ts';

/** Probes for orchestrators: no token, no rate limit, the database's state in /readyz. */

describe('health probes', () => {
  it('answer without a token: /healthz while the process serves, /readyz with the database ready', async () => {
    const t = await createTestApp({ rateLimits: { perMinute: 2, failedAuthenticationsPerMinute: 2 } });
    for (let probe = 0; probe < 5; probe++) {
      expect((await t.call('GET', '/healthz')).json()).toEqual({ status: 'ok' });
      const ready = await t.call('GET', '/readyz');
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ready', database: t.database.provider, migrations: migrationFiles(t.database.provider).length });
    }
  });

  it('/readyz answers 503 naming the migrations a database still lacks', async () => {
    const database = await emptyDatabase();
    closeWhenFileEnds(() => database.drop());
    const names = migrationFiles(database.provider).map((migration) => migration.name);
    await runMigrations(database.url, { upTo: names[names.length - 2]! });
    const t = await createTestApp({ databaseUrl: database.url });
    const ready = await t.call('GET', '/readyz');
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', reason: `migrations not applied: ${names.at(-1)} (run docs-gateway migrate)` });
    await runMigrations(database.url);
    expect((await t.call('GET', '/readyz')).statusCode).toBe(200);
  });
});
