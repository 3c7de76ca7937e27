import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { providerOf, sqliteFilePath } from '../db/client.ts';
import { lockDatabase } from '../db/instance-lock.ts';
import { MIGRATIONS_TABLE, migrationFiles } from '../db/migrate.ts';
import { localDiskKeys } from '../storage/files.ts';

/**
 * Backup and restore of the embedded deployment: one SQLite file and its
 * folder of files. A backup is a folder:
 *
 *   <dir>/backup.json          what it holds and when it was taken
 *   <dir>/docs-gateway.db      the database, a consistent snapshot
 *   <dir>/files/<aa>/<sha256>  the files (when they are on local disk)
 *
 * The snapshot is `VACUUM INTO`: one read transaction of its own, so the copy
 * is the database as of one instant while the server goes on writing (in WAL
 * mode a reader blocks no writer). SQLite's page-by-page backup API restarts
 * whenever another connection writes, which under a steady write load may never
 * finish. Files are copied after the snapshot: a file is stored before the
 * write that names it commits, so every file the snapshot names is there by then
 * (files stored later are copied too, harmlessly).
 */

export const BACKUP_DATABASE = 'docs-gateway.db';
export const BACKUP_MANIFEST = 'backup.json';

export interface BackupManifest {
  format: 'docs-gateway-backup/1';
  takenAt: string;
  /** The last migration the database had: a restore onto an older server is refused. */
  lastMigration: string | null;
  database: { bytes: number };
  files: { count: number; bytes: number; included: boolean };
}

export class BackupError extends Error {
  override name = 'BackupError';
}

function sqliteFileOf(databaseUrl: string, command: string): string {
  if (providerOf(databaseUrl) !== 'sqlite') {
    throw new BackupError(
      `${command} copies the embedded SQLite database; for PostgreSQL use pg_dump and pg_restore (docs/operations.md, "Backup and restore")`,
    );
  }
  const file = sqliteFilePath(databaseUrl);
  if (file === '' || file === ':memory:') throw new BackupError(`${command} needs a database file, not an in-memory database`);
  return path.resolve(file);
}

/** Refuses a target that holds anything: a backup never mixes with another. */
function emptyFolder(dir: string) {
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) throw new BackupError(`${dir} is not empty: back up into a new or empty folder`);
  fs.mkdirSync(dir, { recursive: true });
}

async function copyFiles(from: string, to: string): Promise<{ count: number; bytes: number }> {
  let count = 0;
  let bytes = 0;
  for await (const key of localDiskKeys(from)) {
    const relative = path.join(key.slice(0, 2), key);
    const target = path.join(to, relative);
    // Content-addressed: a file already there holds the same bytes.
    if (!fs.existsSync(target)) {
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      await fs.promises.copyFile(path.join(from, relative), `${target}.tmp`);
      await fs.promises.rename(`${target}.tmp`, target);
    }
    count += 1;
    bytes += (await fs.promises.stat(target)).size;
  }
  return { count, bytes };
}

function lastMigrationOf(file: string): string | null {
  const database = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    const row = database.prepare(`SELECT name FROM "${MIGRATIONS_TABLE}" ORDER BY name DESC LIMIT 1`).get() as { name: string } | undefined;
    return row?.name ?? null;
  } catch {
    return null;
  } finally {
    database.close();
  }
}

/** Takes a backup of a SQLite database (running or not) and, when `filesDir` is given, its files. */
export async function takeBackup(options: { databaseUrl: string; filesDir: string | null; into: string; now?: Date }): Promise<BackupManifest> {
  const source = sqliteFileOf(options.databaseUrl, 'backup');
  if (!fs.existsSync(source)) throw new BackupError(`there is no database at ${source}`);
  const into = path.resolve(options.into);
  emptyFolder(into);
  const target = path.join(into, BACKUP_DATABASE);
  const database = new BetterSqlite3(source, { fileMustExist: true, timeout: 10_000 });
  try {
    database.prepare('VACUUM INTO ?').run(target);
  } finally {
    database.close();
  }
  const files = options.filesDir ? await copyFiles(options.filesDir, path.join(into, 'files')) : { count: 0, bytes: 0 };
  const manifest: BackupManifest = {
    format: 'docs-gateway-backup/1',
    takenAt: (options.now ?? new Date()).toISOString(),
    lastMigration: lastMigrationOf(target),
    database: { bytes: fs.statSync(target).size },
    files: { ...files, included: options.filesDir !== null },
  };
  fs.writeFileSync(path.join(into, BACKUP_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/**
 * Puts a backup back: the database file replaced whole (its write-ahead log
 * with it), the files added to `filesDir`. The server must be stopped: the
 * database's instance lock is taken for the duration, so a running server
 * makes this fail before anything changes. A database that holds data is
 * replaced only with `force`.
 */
export async function restoreBackup(options: { databaseUrl: string; filesDir: string | null; from: string; force: boolean }): Promise<BackupManifest> {
  const target = sqliteFileOf(options.databaseUrl, 'restore');
  const from = path.resolve(options.from);
  const manifestFile = path.join(from, BACKUP_MANIFEST);
  if (!fs.existsSync(manifestFile) || !fs.existsSync(path.join(from, BACKUP_DATABASE))) {
    throw new BackupError(`${from} is not a docs-gateway backup (no ${BACKUP_MANIFEST} and ${BACKUP_DATABASE})`);
  }
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as BackupManifest;
  if (manifest.format !== 'docs-gateway-backup/1') throw new BackupError(`${from} holds a backup of another format (${String(manifest.format)})`);
  const known = new Set(migrationFiles('sqlite').map((migration) => migration.name));
  if (manifest.lastMigration && !known.has(manifest.lastMigration)) {
    throw new BackupError(
      `the backup was taken by a newer docs-gateway (its database has migration ${manifest.lastMigration}): restore it with that version or later`,
    );
  }
  const lock = lockDatabase(`file:${target}`);
  try {
    if (fs.existsSync(target) && fs.statSync(target).size > 0 && !options.force) {
      throw new BackupError(`${target} exists: restoring replaces it, say so with --force`);
    }
    if (options.filesDir && manifest.files.included) await copyFiles(path.join(from, 'files'), options.filesDir);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const incoming = `${target}.restoring`;
    fs.copyFileSync(path.join(from, BACKUP_DATABASE), incoming);
    // The old database's log and shared memory belong to the file being replaced.
    for (const suffix of ['-wal', '-shm', '-journal']) fs.rmSync(`${target}${suffix}`, { force: true });
    fs.renameSync(incoming, target);
  } finally {
    lock.release();
  }
  return manifest;
}
