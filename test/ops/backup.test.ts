import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { lockDatabase } from '../../src/db/instance-lock.ts';
import { runMigrations } from '../../src/db/migrate.ts';
import { restoreBackup, takeBackup } from '../../src/ops/backup.ts';
import { localDiskStorage } from '../../src/storage/files.ts';
import { CLI_TEST_TIMEOUT, cli, jsonLine } from '../cli/support.ts';
import { createTestApp } from '../support/app.ts';
import { closeWhenFileEnds } from '../support/cleanup.ts';
import { buildTeam } from '../support/factories.ts';
import { scratchDatabase } from '../support/scratch-database.ts';

/**
 * `docs-gateway backup` and `restore` for the embedded deployment (a SQLite
 * file and FILES_DIR). These run on SQLite whatever database the suite runs on:
 * PostgreSQL has pg_dump, which the command points to.
 */

/** A 1 x 1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

function temporaryDirectory(purpose: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `docs-gateway-${purpose}-`));
  closeWhenFileEnds(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('docs-gateway backup and restore', () => {
  it(
    'backs up a SQLite database while it is written to; the restored copy answers the same reads, files included',
    async () => {
      const original = await scratchDatabase('file:', 'backup');
      closeWhenFileEnds(original.drop);
      await runMigrations(original.url);
      const filesDir = temporaryDirectory('backup-files');
      const t = await createTestApp({ databaseUrl: original.url, fileStorage: localDiskStorage(filesDir) });
      const team = await buildTeam(t.database);
      const call = async (app: typeof t, method: string, url: string, body?: unknown) => {
        const response = await app.call(method, url, { token: team.admin.token, ...(body === undefined ? {} : { body }) });
        expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
        return response.json();
      };

      // Content with a file, merged into a space.
      const space = await call(t, 'POST', `/v1/orgs/${team.organization.id}/spaces`, { title: 'Handbook' });
      const changeRequest = await call(t, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'First' });
      await call(t, 'POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content?compat=false`, {
        changes: [
          { operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hello.\n\n![Pixel](./pixel.png)\n' } },
          { operation: 'insert_files', files: [{ name: 'pixel.png', contentType: 'image/png', base64: PNG.toString('base64') }] },
        ],
      });
      await call(t, 'POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);

      // Write load: spaces created one after the other while the backup runs in another process.
      const created: string[] = [];
      let stop = false;
      const load = (async () => {
        for (let n = 0; !stop; n += 1) created.push((await call(t, 'POST', `/v1/orgs/${team.organization.id}/spaces`, { title: `Load ${n}` })).id);
      })();
      await expect.poll(() => created.length, { timeout: 60_000 }).toBeGreaterThanOrEqual(3);
      const createdBefore = created.length;
      const backupDir = temporaryDirectory('backup');
      const backup = await cli(['backup', backupDir, '--json'], { DATABASE_URL: original.url, FILES_DIR: filesDir });
      const createdDuring = created.length - createdBefore;
      stop = true;
      await load;
      const manifest = jsonLine(backup);
      expect(manifest).toMatchObject({ format: 'docs-gateway-backup/1', files: { count: 1, bytes: PNG.length, included: true } });
      expect(manifest.lastMigration).toMatch(/^\d{14}_/);
      expect(fs.readdirSync(backupDir).sort()).toEqual(['backup.json', 'docs-gateway.db', 'files']);
      // The writes went on meanwhile (the backup blocked no one).
      expect(createdDuring, 'spaces created while the backup ran').toBeGreaterThan(0);

      // Restored into another database file and FILES_DIR, then served.
      const restoredDir = temporaryDirectory('restored');
      const restoredUrl = `file:${path.join(restoredDir, 'docs-gateway.db')}`;
      const restoredFiles = path.join(restoredDir, 'files');
      const restore = await cli(['restore', backupDir], { DATABASE_URL: restoredUrl, FILES_DIR: restoredFiles });
      expect(restore.code, restore.stderr).toBe(0);
      expect(restore.stdout).toMatch(/^restored the backup of .* with 1 files\n$/);
      const integrity = new BetterSqlite3(path.join(restoredDir, 'docs-gateway.db'), { readonly: true });
      expect(integrity.pragma('integrity_check', { simple: true })).toBe('ok');
      integrity.close();
      const r = await createTestApp({ databaseUrl: restoredUrl, fileStorage: localDiskStorage(restoredFiles) });

      // Every space created before the backup started is there, and nothing that was not created; each reads the same.
      const listed = async (app: typeof t) =>
        (await call(app, 'GET', `/v1/orgs/${team.organization.id}/spaces?limit=1000`)).items.map((item: { id: string }) => item.id) as string[];
      const [before, after] = [await listed(r), await listed(t)];
      expect(before).toEqual(expect.arrayContaining([space.id, ...created.slice(0, createdBefore)]));
      expect(after).toEqual(expect.arrayContaining(before));
      for (const id of before) expect(await call(r, 'GET', `/v1/spaces/${id}`)).toEqual(await call(t, 'GET', `/v1/spaces/${id}`));
      const pages = await call(r, 'GET', `/v1/spaces/${space.id}/content/pages`);
      expect(pages).toEqual(await call(t, 'GET', `/v1/spaces/${space.id}/content/pages`));
      const [file] = (await call(r, 'GET', `/v1/spaces/${space.id}/content/files`)).items;
      const download = await r.call('GET', new URL(file.downloadURL).pathname, {});
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.equals(PNG)).toBe(true);
    },
    CLI_TEST_TIMEOUT,
  );

  it('refuses what would lose or mix data: a folder not empty, a database that exists without --force, a server running, PostgreSQL', async () => {
    const original = await scratchDatabase('file:', 'backup');
    closeWhenFileEnds(original.drop);
    await runMigrations(original.url);
    const backupDir = temporaryDirectory('backup');
    const manifest = await takeBackup({ databaseUrl: original.url, filesDir: null, into: backupDir });
    expect(manifest.files).toEqual({ count: 0, bytes: 0, included: false });
    await expect(takeBackup({ databaseUrl: original.url, filesDir: null, into: backupDir })).rejects.toThrow(
      `${backupDir} is not empty: back up into a new or empty folder`,
    );

    // Restoring over the database it came from: it exists, so only with force; not while a server holds it.
    const file = path.resolve(original.url.slice('file:'.length));
    const restore = (force: boolean, from = backupDir) => restoreBackup({ databaseUrl: original.url, filesDir: null, from, force });
    await expect(restore(false)).rejects.toThrow(`${file} exists: restoring replaces it, say so with --force`);
    const lock = lockDatabase(original.url);
    try {
      await expect(restore(true)).rejects.toThrow(/another docs-gateway serve is using/);
    } finally {
      lock.release();
    }
    await expect(restore(true)).resolves.toMatchObject({ format: 'docs-gateway-backup/1' });
    await expect(restore(true, temporaryDirectory('empty'))).rejects.toThrow(/is not a docs-gateway backup/);

    // A backup of a newer server (a migration this one does not know) is not restored.
    const newer = temporaryDirectory('newer');
    fs.cpSync(backupDir, newer, { recursive: true });
    fs.writeFileSync(path.join(newer, 'backup.json'), JSON.stringify({ ...manifest, lastMigration: '99991231000000_future' }));
    await expect(restore(true, newer)).rejects.toThrow(/taken by a newer docs-gateway/);

    await expect(takeBackup({ databaseUrl: 'postgresql://postgres@127.0.0.1:5432/postgres', filesDir: null, into: temporaryDirectory('pg') })).rejects.toThrow(
      /for PostgreSQL use pg_dump and pg_restore \(docs\/operations\.md/,
    );
  });
});
