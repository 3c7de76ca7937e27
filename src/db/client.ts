import fs from 'node:fs';
import path from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlDriverAdapter, SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { PrismaClient as PostgresClient } from './generated/postgresql/client.ts';
import { PrismaClient as SqliteClient } from './generated/sqlite/client.ts';

/**
 * The Prisma client type the domain layer is written against. Both generated
 * clients come from the same models file (prisma/models.prisma), so the SQLite
 * client is structurally the same; the PostgreSQL one is the reference type.
 */
export type Db = PostgresClient;
export type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];
export type Provider = 'sqlite' | 'postgresql';

export interface Database {
  db: Db;
  provider: Provider;
  url: string;
  /** SQL statements sent to the database since start; read by tests and the benchmark. */
  statementCount(): number;
  /**
   * One read on the driver itself, without the Prisma client's per-query work:
   * for the statement every request runs (authentication). Placeholders are
   * `$1`, `$2`… in order; values come back as the driver gives them.
   */
  readRows<T>(sql: string, params: unknown[]): Promise<T[]>;
  /** PostgreSQL: connections of the pool, open, idle, and requests waiting for one (metrics). */
  poolStats?(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

export function providerOf(url: string): Provider {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return 'postgresql';
  if (url.startsWith('file:')) return 'sqlite';
  throw new Error(`DATABASE_URL must start with file: (SQLite) or postgresql:// (PostgreSQL), got "${url}"`);
}

/** Path of a SQLite database file from its `file:` URL, relative to the working directory. */
export function sqliteFilePath(url: string): string {
  return url.slice('file:'.length).split('?')[0]!;
}

export interface OpenOptions {
  /** Sees every SQL statement with its arguments (the benchmark explains the listings' plans). */
  onStatement?: (sql: string, args: unknown[]) => void;
  /** PostgreSQL connections kept open at most. */
  poolSize?: number;
  /** How long to wait for a PostgreSQL connection before the request fails (503). */
  connectTimeoutMs?: number;
  /** How long one statement may run (the server cancels it) or wait for an answer (a stalled server). */
  statementTimeoutMs?: number;
  /** PostgreSQL: how long a statement may wait for a lock another transaction holds before it fails (503). */
  lockTimeoutMs?: number;
}

export const DATABASE_DEFAULTS = { poolSize: 10, connectTimeoutMs: 5_000, statementTimeoutMs: 15_000, lockTimeoutMs: 3_000 } as const;

export function openDatabase(url: string, options: OpenOptions = {}): Database {
  const provider = providerOf(url);
  let statements = 0;
  const seen = (sql: string, args: unknown[]) => {
    statements++;
    if (process.env.DEBUG_SQL) console.log(sql);
    options.onStatement?.(sql, args);
  };
  // PostgreSQL: one pool for Prisma and the direct reads. Every wait is bounded, so
  // a database that stops answering fails requests (503) instead of hanging them.
  const { poolSize, connectTimeoutMs, statementTimeoutMs, lockTimeoutMs } = { ...DATABASE_DEFAULTS, ...options };
  const pool =
    provider === 'postgresql'
      ? new pg.Pool({
          connectionString: url,
          max: poolSize,
          connectionTimeoutMillis: connectTimeoutMs,
          // The server cancels a statement running longer; the client stops waiting
          // for one that gets no answer at all (a frozen server or network) shortly after.
          statement_timeout: statementTimeoutMs,
          // A statement waiting behind another transaction's lock fails sooner than one that works.
          lock_timeout: lockTimeoutMs,
          query_timeout: statementTimeoutMs + 1_000,
          idle_in_transaction_session_timeout: statementTimeoutMs * 2,
          keepAlive: true,
        })
      : undefined;
  // An idle connection the server ends (restart, administrator) is dropped by the
  // pool and the next query opens another; unheard, the error would end the process.
  pool?.on('error', () => {});
  const counting = countStatements(pool ? new PrismaPg(pool) : sqliteAdapter(url), (query) => seen(query.sql, query.args));
  const direct = pool ? poolReader(pool) : sqliteReader(url);
  const db = provider === 'sqlite' ? (new SqliteClient({ adapter: counting }) as unknown as Db) : new PostgresClient({ adapter: counting });
  return {
    db,
    provider,
    url,
    statementCount: () => statements,
    ...(pool ? { poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }) } : {}),
    readRows: async <T>(sql: string, params: unknown[]) => {
      seen(sql, params);
      return direct ? ((await direct.read(sql, params)) as T[]) : db.$queryRawUnsafe<T[]>(sql, ...params);
    },
    close: async () => {
      direct?.close();
      await db.$disconnect();
      await pool?.end().catch(() => {});
    },
  };
}

interface DirectReader {
  read(sql: string, params: unknown[]): Promise<unknown[]> | unknown[];
  close(): void;
}

function poolReader(pool: pg.Pool): DirectReader {
  return { read: async (sql, params) => (await pool.query(sql, params)).rows, close: () => {} };
}

/** A read-only connection of its own (WAL: it never waits on the writer), with its statements prepared once. */
function sqliteReader(url: string): DirectReader | undefined {
  const file = sqliteFilePath(url);
  if (file === ':memory:') return undefined;
  let connection: BetterSqlite3.Database | undefined;
  const prepared = new Map<string, BetterSqlite3.Statement>();
  return {
    read(sql, params) {
      connection ??= new BetterSqlite3(file, { readonly: true, timeout: 5000 });
      let statement = prepared.get(sql);
      if (!statement) {
        statement = connection.prepare(sql.replace(/\$\d+/g, '?'));
        prepared.set(sql, statement);
      }
      return statement.all(...params);
    },
    close: () => connection?.close(),
  };
}

function sqliteAdapter(url: string): SqlDriverAdapterFactory {
  const file = sqliteFilePath(url);
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  return new PrismaBetterSqlite3({ url: file }, { timestampFormat: 'iso8601' });
}

/** SQLITE_MAX_VARIABLE_NUMBER of the SQLite that better-sqlite3 bundles. */
const SQLITE_MAX_VARIABLES = 32_766;

/**
 * Wraps an adapter factory so that every SQL statement it runs is counted, and
 * so that Prisma knows SQLite's real parameter limit: it splits a statement with
 * more parameters than the adapter's `maxBindValues` (999 unless told), so a
 * level of 1,000 ids in a tree would cost two statements.
 */
function countStatements(factory: SqlDriverAdapterFactory, onStatement: (query: { sql: string; args: unknown[] }) => void): SqlDriverAdapterFactory {
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(object, key, receiver) {
        const value = Reflect.get(object, key, receiver);
        if (key === 'queryRaw' || key === 'executeRaw' || key === 'executeScript') {
          return (...args: unknown[]) => {
            const query = args[0] as { sql?: string; args?: unknown[] } | string;
            onStatement(typeof query === 'string' ? { sql: query, args: [] } : { sql: query.sql ?? '', args: query.args ?? [] });
            return (value as (...a: unknown[]) => unknown).apply(object, args);
          };
        }
        if (key === 'getConnectionInfo' && factory.provider === 'sqlite') {
          return () => ({ maxBindValues: SQLITE_MAX_VARIABLES, supportsRelationJoins: false });
        }
        if (key === 'startTransaction') {
          return async (...args: unknown[]) => wrap(await (value as (...a: unknown[]) => Promise<object>).apply(object, args));
        }
        return typeof value === 'function' ? value.bind(object) : value;
      },
    });
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => wrap((await factory.connect()) as SqlDriverAdapter),
  };
}
