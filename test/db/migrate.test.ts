import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { providerOf } from '../../src/db/client.ts';
import { migrationFiles, runMigrations } from '../../src/db/migrate.ts';

/** A fresh, empty database of the run's provider, and a way to read the bookkeeping table. */
async function emptyDatabase() {
  const runUrl = inject('databaseUrl');
  if (providerOf(runUrl) === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-migrate-'));
    const url = `file:${path.join(dir, 'fresh.db')}`;
    return {
      url,
      provider: 'sqlite' as const,
      applied: async () => {
        const db = new BetterSqlite3(path.join(dir, 'fresh.db'));
        const rows = db.prepare('SELECT name FROM _docs_gateway_migrations ORDER BY name').all() as Array<{ name: string }>;
        db.close();
        return rows.map((row) => row.name);
      },
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `docs_gateway_migrate_${Date.now().toString(36)}`;
  const admin = new URL(runUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
  const url = new URL(runUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    provider: 'postgresql' as const,
    applied: async () => {
      const db = new pg.Client({ connectionString: url.toString() });
      await db.connect();
      const { rows } = await db.query<{ name: string }>('SELECT name FROM _docs_gateway_migrations ORDER BY name');
      await db.end();
      return rows.map((row) => row.name);
    },
    drop: async () => {
      const c = new pg.Client({ connectionString: admin.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

describe('migrations', () => {
  it('apply once when several instances start together, and are a no-op afterwards', async () => {
    const database = await emptyDatabase();
    try {
      const expected = migrationFiles(database.provider).map((migration) => migration.name);
      expect(expected.length).toBeGreaterThan(0);
      const results = await Promise.all([1, 2, 3, 4].map(() => runMigrations(database.url)));
      // Exactly one instance applied each migration; the others found nothing to do.
      expect(results.flatMap((result) => result.applied).sort()).toEqual(expected);
      expect(await database.applied()).toEqual(expected);
      expect((await runMigrations(database.url)).applied).toEqual([]);
    } finally {
      await database.drop();
    }
  });
});

describe('each migration', () => {
  it('keeps existing rows: a table rebuild on SQLite never cascades into its children', async () => {
    const database = await emptyDatabase();
    try {
      const [first, ...rest] = migrationFiles(database.provider).map((migration) => migration.name);
      await runMigrations(database.url, { upTo: first! });
      const { openDatabase } = await import('../../src/db/client.ts');
      const opened = openDatabase(database.url);
      const now = new Date();
      // Rows written with the first migration's columns only.
      await opened.db.$executeRawUnsafe(
        `INSERT INTO organizations (id, title, "createdAt", "updatedAt", type, plan, "mergeRules", sso, ai, "inviteLinks") VALUES ('org_keep', 'Kept', $1, $1, 'business', 'free', '{"type":"none"}', false, false, true)`.replace(/\$1/g, database.provider === 'sqlite' ? `'${now.toISOString()}'` : `'${now.toISOString()}'::timestamp`),
      );
      await opened.db.user.create({ data: { id: 'usr_keep', email: 'keep@example.test', displayName: 'Keep', searchText: 'keep' } });
      await opened.db.member.create({ data: { organizationId: 'org_keep', userId: 'usr_keep', role: 'admin' } });
      await opened.close();

      const result = await runMigrations(database.url);
      expect(result.applied).toEqual(rest);
      const reopened = openDatabase(database.url);
      expect(await reopened.db.member.count({ where: { organizationId: 'org_keep' } })).toBe(1);
      const organization = await reopened.db.organization.findUnique({ where: { id: 'org_keep' } });
      expect(organization?.visitorClaimsSecret).toMatch(/^[0-9a-f]{32,}$/);
      await reopened.close();
    } finally {
      await database.drop();
    }
  });
});
