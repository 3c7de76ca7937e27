import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/index.ts';
import { CLI_TEST_TIMEOUT, cli, expectFailure, FILES_DIR, jsonLine } from './support.ts';

/** `migrate` and `seed`, and the database handles every command closes. */

describe('docs-gateway migrate and seed', () => {
  it(
    'migrate exits 0 on an up-to-date database and migrates a new one',
    async () => {
      const upToDate = await cli(['migrate']);
      expect(upToDate.code, upToDate.stderr).toBe(0);
      expect(upToDate.stdout).toMatch(/up to date/);

      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-cli-'));
      try {
        const url = `file:${path.join(dir, 'fresh.db')}`;
        const fresh = await cli(['migrate'], { DATABASE_URL: url });
        expect(fresh.code, fresh.stderr).toBe(0);
        expect(fresh.stdout).toMatch(/applied migration /);
        const again = await cli(['migrate'], { DATABASE_URL: url });
        expect(again.code, again.stderr).toBe(0);
        expect(again.stdout).toMatch(/up to date/);
        // The migrated database is usable by the CLI.
        const result = jsonLine(await cli(['bootstrap', '--org', 'Fresh', '--email', 'fresh@example.test', '--json'], { DATABASE_URL: url }));
        expect(result.organizationId).toMatch(/^org_/);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    CLI_TEST_TIMEOUT,
  );

  it(
    'seed --demo loads the demo data once, into a database of its own, and closes it (forced garbage collection)',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-seed-'));
      const file = path.join(dir, 'seed.db');
      const env = { DATABASE_URL: `file:${file}` };
      const seed = async (args: string[]) => {
        const run = await cli(args, env, { forcedGc: true });
        expect(fs.existsSync(`${file}-wal`), `${args.join(' ')} left the write-ahead log open`).toBe(false);
        return run;
      };
      try {
        const first = await seed(['seed', '--demo']);
        expect(first.code, first.stderr).toBe(0);
        expect(first.stdout.trim()).toBe('loaded the demo data');

        const database = openDatabase(env.DATABASE_URL);
        try {
          const { db } = database;
          const acme = await db.organization.findUnique({ where: { hostname: 'acme-docs' } });
          expect(acme).toMatchObject({ title: 'Acme Docs' });
          for (const hostname of ['globex', 'initech']) expect(await db.organization.findUnique({ where: { hostname } })).not.toBeNull();
          expect(await db.customField.count({ where: { organizationId: acme!.id } })).toBeGreaterThan(0);
          expect(await db.space.count({ where: { organizationId: acme!.id } })).toBeGreaterThan(0);
          // The guide's files, their bytes in FILES_DIR under their digest.
          const files = await db.fileVersion.findMany({ where: { space: { organizationId: acme!.id } } });
          expect(files.map((row) => row.name).sort()).toEqual(['content-flow.svg', 'style-guide.txt']);
          for (const row of files) expect(fs.readdirSync(FILES_DIR, { recursive: true }).join('\n')).toContain(row.sha256);
          const alice = await db.user.findUnique({ where: { email: 'alice@acme.test' } });
          expect(await db.member.findUnique({ where: { organizationId_userId: { organizationId: acme!.id, userId: alice!.id } } })).toMatchObject({
            role: 'admin',
          });
          const counts = async () => ({
            organizations: await db.organization.count(),
            spaces: await db.space.count(),
            fields: await db.customField.count(),
            acmeTitled: await db.organization.count({ where: { title: 'Acme Docs' } }),
          });
          const before = await counts();
          expect(before.acmeTitled).toBe(1);

          const second = await cli(['seed', '--demo'], env);
          expect(second.code, second.stderr).toBe(0);
          expect(second.stdout.trim()).toBe('the demo data is already loaded');
          expect(await counts()).toEqual(before);
        } finally {
          await database.close();
        }

        expectFailure(await seed(['seed']), /--demo/);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    CLI_TEST_TIMEOUT,
  );
});

describe('database handles', () => {
  // SQLite deletes a database's write-ahead log when its last connection closes
  // cleanly: a -wal file left behind means a handle was left open.
  it(
    'every command closes what it opens, also when it fails: exit codes under forced garbage collection',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-handles-'));
      try {
        const file = path.join(dir, 'handles.db');
        const env = { DATABASE_URL: `file:${file}` };
        const run = async (args: string[]) => {
          const result = await cli(args, env, { forcedGc: true });
          expect(fs.existsSync(`${file}-wal`), `${args.join(' ')} left the write-ahead log open`).toBe(false);
          return result;
        };

        const migrated = await run(['migrate']);
        expect(migrated.code, migrated.stderr).toBe(0);
        const admin = jsonLine(await run(['bootstrap', '--org', 'Handles', '--email', 'handles@example.test', '--json']));
        jsonLine(await run(['users', 'create', '--email', 'reader@example.test', '--org', admin.organizationId, '--role', 'read', '--json']));
        // seed --demo: in the test above, on a database of its own.
        expectFailure(await run(['users', 'create', '--email', 'x@example.test', '--org', 'org_missing', '--role', 'read', '--json']), /org_missing/);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    CLI_TEST_TIMEOUT,
  );
});
