import { describe, expect, it } from 'vitest';
import { migrationFiles, runMigrations } from '../../src/db/migrate.ts';
import { emptyDatabase } from '../support/databases.ts';

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
        `INSERT INTO organizations (id, title, "createdAt", "updatedAt", type, plan, "mergeRules", sso, ai, "inviteLinks") VALUES ('org_keep', 'Kept', $1, $1, 'business', 'free', '{"type":"none"}', false, false, true)`.replace(
          /\$1/g,
          database.provider === 'sqlite' ? `'${now.toISOString()}'` : `'${now.toISOString()}'::timestamp`,
        ),
      );
      await opened.db.user.create({ data: { id: 'usr_keep', email: 'keep@example.test', displayName: 'Keep', searchText: 'keep' } });
      await opened.db.$executeRawUnsafe(`INSERT INTO members ("organizationId", "userId", role) VALUES ('org_keep', 'usr_keep', 'admin')`);
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
