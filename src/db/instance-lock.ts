import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { providerOf, sqliteFilePath } from './client.ts';

/**
 * SQLite is for one server: `docs-gateway serve` holds `<database>.lock` for as
 * long as it runs, and a second one on the same file stops at start.
 *
 * The lock is SQLite's own file lock on a small database of its own, taken in
 * exclusive locking mode by a write and never given back while the connection
 * is open: an advisory lock the operating system drops when the process ends,
 * however it ends (kill -9 included), so no stale lock outlives its holder, as
 * a file holding a process id would.
 */

export interface InstanceLock {
  release(): void;
}

export class DatabaseInUse extends Error {
  constructor(file: string) {
    super(`another docs-gateway serve is using ${file}: SQLite serves one instance (several need PostgreSQL)`);
    this.name = 'DatabaseInUse';
  }
}

/** Takes the lock of a SQLite database (nothing to take for PostgreSQL or an in-memory database), or throws DatabaseInUse. */
export function lockDatabase(url: string): InstanceLock {
  if (providerOf(url) !== 'sqlite') return { release: () => {} };
  const file = sqliteFilePath(url);
  if (file === '' || file === ':memory:') return { release: () => {} };
  const lockFile = `${path.resolve(file)}.lock`;
  fs.mkdirSync(path.dirname(lockFile), { recursive: true });
  // No busy timeout: a lock held is an answer, not something to wait for.
  const connection = new BetterSqlite3(lockFile, { timeout: 0 });
  try {
    connection.pragma('locking_mode = EXCLUSIVE');
    // No journal file beside it: the one write only takes the lock.
    connection.pragma('journal_mode = MEMORY');
    connection.exec('CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL, since TEXT NOT NULL)');
    connection.transaction(() => {
      connection.exec('DELETE FROM holder');
      connection.prepare('INSERT INTO holder (pid, since) VALUES (?, ?)').run(process.pid, new Date().toISOString());
    })();
  } catch (error) {
    connection.close();
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') throw new DatabaseInUse(file);
    throw error;
  }
  return { release: () => connection.close() };
}
