import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import type { UmzugStorage } from 'umzug';
import { type Provider, providerOf, sqliteFilePath } from './client.ts';
import { pgDriver } from './pg-driver.ts';

/**
 * Applies the versioned SQL files of prisma/migrations/<provider>/ in name order,
 * each in its own transaction together with its row in the bookkeeping table.
 * Instances starting at once on one database serialize on a lock: a PostgreSQL
 * advisory lock, or SQLite's write lock (BEGIN IMMEDIATE) held for the whole run.
 */

export const migrationsRoot = fileURLToPath(new URL('../../prisma/migrations/', import.meta.url));
export const MIGRATIONS_TABLE = '_docs_gateway_migrations';
// Any constant works; it only has to be the same for every instance.
const POSTGRES_LOCK_KEY = 7_263_514_021;

interface Connection {
  /** Runs a script of one or more statements. */
  exec(sql: string): Promise<void>;
  executedNames(): Promise<string[]>;
  record(name: string): Promise<void>;
  /** Runs `work` in a transaction. */
  transaction(work: () => Promise<void>): Promise<void>;
}

export interface MigrationResult {
  applied: string[];
}

export function migrationFiles(provider: Provider): Array<{ name: string; file: string }> {
  const dir = path.join(migrationsRoot, provider);
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => ({ name: entry.name, file: path.join(dir, entry.name, 'migration.sql') }))
    .filter((migration) => fs.existsSync(migration.file))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export interface MigrationOptions {
  log?: (message: string) => void;
  /** Stop after this migration (tests of a migration on existing data). */
  upTo?: string;
}

export async function runMigrations(url: string, options: MigrationOptions = {}): Promise<MigrationResult> {
  const provider = providerOf(url);
  return provider === 'sqlite' ? migrateSqlite(url, options) : migratePostgres(url, options);
}

async function applyPending(connection: Connection, provider: Provider, { log = () => {}, upTo }: MigrationOptions) {
  const files = migrationFiles(provider);
  const executed = new Set(await connection.executedNames());
  // Up to date, as on every start but the first after an upgrade: Umzug (and the CLI it loads, ~0.3 s) stays unloaded.
  if (!upTo && files.every(({ name }) => executed.has(name))) return { applied: [] };
  const { Umzug } = await import('umzug');
  const storage: UmzugStorage = {
    executed: () => connection.executedNames(),
    // Recorded inside the migration's own transaction, see `up` below.
    logMigration: async () => {},
    unlogMigration: async () => {
      throw new Error('Migrations are forward-only');
    },
  };
  const umzug = new Umzug({
    migrations: files.map(({ name, file }) => ({
      name,
      path: file,
      up: () =>
        connection.transaction(async () => {
          await connection.exec(fs.readFileSync(file, 'utf8'));
          await connection.record(name);
        }),
    })),
    storage,
    logger: undefined,
  });
  const applied = await umzug.up(upTo ? { to: upTo } : {});
  for (const migration of applied) log(`applied migration ${migration.name}`);
  return { applied: applied.map((migration) => migration.name) };
}

async function migratePostgres(url: string, options: MigrationOptions): Promise<MigrationResult> {
  const client = new (pgDriver().Client)({ connectionString: url });
  await client.connect();
  try {
    await client.query(`SELECT pg_advisory_lock(${POSTGRES_LOCK_KEY})`);
    await client.query(`CREATE TABLE IF NOT EXISTS "${MIGRATIONS_TABLE}" (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
    return await applyPending(
      {
        exec: async (sql) => void (await client.query(sql)),
        executedNames: async () => (await client.query<{ name: string }>(`SELECT name FROM "${MIGRATIONS_TABLE}" ORDER BY name`)).rows.map((row) => row.name),
        record: async (name) => void (await client.query(`INSERT INTO "${MIGRATIONS_TABLE}" (name) VALUES ($1)`, [name])),
        transaction: async (work) => {
          await client.query('BEGIN');
          try {
            await work();
            await client.query('COMMIT');
          } catch (error) {
            await client.query('ROLLBACK');
            throw error;
          }
        },
      },
      'postgresql',
      options,
    );
  } finally {
    await client.query(`SELECT pg_advisory_unlock(${POSTGRES_LOCK_KEY})`).catch(() => {});
    await client.end();
  }
}

/**
 * better-sqlite3 waits for a lock by blocking its thread, so two runs in one
 * process would wait on each other forever: runs on one file take turns here,
 * and SQLite's lock serializes separate processes.
 */
const sqliteRuns = new Map<string, Promise<unknown>>();

function migrateSqlite(url: string, options: MigrationOptions): Promise<MigrationResult> {
  const key = path.resolve(sqliteFilePath(url));
  const run = (sqliteRuns.get(key) ?? Promise.resolve()).catch(() => {}).then(() => migrateSqliteFile(url, options));
  sqliteRuns.set(key, run);
  return run;
}

async function migrateSqliteFile(url: string, options: MigrationOptions): Promise<MigrationResult> {
  const file = sqliteFilePath(url);
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new BetterSqlite3(file, { timeout: 30_000 });
  try {
    sqlite.pragma('journal_mode = WAL');
    // SQLite migrations rebuild tables (create, copy, drop, rename). With foreign
    // keys enforced, dropping the old table would cascade into its children, and
    // the pragma cannot change inside a transaction: turn them off around the run
    // and check them once before committing.
    sqlite.pragma('foreign_keys = OFF');
    // The write lock of this outer transaction keeps other instances waiting until we are done;
    // each migration then runs in a savepoint so that a failure undoes only what it did.
    sqlite.exec('BEGIN IMMEDIATE');
    try {
      sqlite.exec(`CREATE TABLE IF NOT EXISTS "${MIGRATIONS_TABLE}" (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)`);
      const result = await applyPending(
        {
          exec: async (sql) => void sqlite.exec(sql),
          executedNames: async () =>
            sqlite
              .prepare<[], { name: string }>(`SELECT name FROM "${MIGRATIONS_TABLE}" ORDER BY name`)
              .all()
              .map((row) => row.name),
          record: async (name) => void sqlite.prepare(`INSERT INTO "${MIGRATIONS_TABLE}" (name) VALUES (?)`).run(name),
          transaction: async (work) => {
            sqlite.exec('SAVEPOINT migration');
            try {
              await work();
              sqlite.exec('RELEASE migration');
            } catch (error) {
              sqlite.exec('ROLLBACK TO migration');
              throw error;
            }
          },
        },
        'sqlite',
        options,
      );
      const violations = sqlite.pragma('foreign_key_check') as unknown[];
      if (violations.length > 0) throw new Error(`Migration left ${violations.length} foreign key violations`);
      sqlite.exec('COMMIT');
      return result;
    } catch (error) {
      if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
      throw error;
    }
  } finally {
    sqlite.close();
  }
}
