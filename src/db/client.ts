import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import type { SqlDriverAdapter, SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import {
  GENERATIONS_CHANNEL,
  type GenerationFeed,
  type PostgresGenerationFeed,
  type SqliteGenerationFeed,
  postgresGenerationFeed,
  sqliteGenerationFeed,
} from './generation-feed.ts';
import { PrismaClient as PostgresClient } from './generated/postgresql/client.ts';
import { PrismaClient as SqliteClient } from './generated/sqlite/client.ts';
import { pgDriver, prismaPgAdapter } from './pg-driver.ts';

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
  /**
   * The text of the first column of the first row (null without a row), on the
   * driver itself: the statements of compiled reads (src/graphql/compiled/),
   * which answer one JSON text. PostgreSQL prepares each named statement once
   * per connection.
   */
  readText(statement: { sql: string; parameters: readonly unknown[]; name?: string }): Promise<string | null>;
  /** PostgreSQL: connections of the pool, open, idle, and requests waiting for one (metrics). */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** Committed bumps of data generations, as they happen (src/db/generation-feed.ts). */
  generations: GenerationFeed;
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
    // '%s': the text of a statement holds strftime's own % patterns.
    if (process.env.DEBUG_SQL)
      console.log(
        '%s %s',
        sql,
        process.env.DEBUG_SQL === 'args' ? JSON.stringify(args, (_key, value) => (typeof value === 'bigint' ? String(value) : value)) : '',
      );
    options.onStatement?.(sql, args);
  };
  // PostgreSQL: one pool for Prisma and the direct reads. Every wait is bounded, so
  // a database that stops answering fails requests (503) instead of hanging them.
  const { poolSize, connectTimeoutMs, statementTimeoutMs, lockTimeoutMs } = { ...DATABASE_DEFAULTS, ...options };
  const pool =
    provider === 'postgresql'
      ? new (pgDriver().Pool)({
          ...sessionOptions(url),
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
  const direct = pool ? poolReader(pool) : sqliteReader(url);
  const generations = pool
    ? postgresGenerationFeed(url, {
        connectTimeoutMs,
        notify: (payload) => {
          const sql = 'SELECT pg_notify($1, $2)';
          seen(sql, [GENERATIONS_CHANNEL, payload]);
          return pool.query(sql, [GENERATIONS_CHANNEL, payload]);
        },
      })
    : sqliteGenerationFeed(direct?.dataVersion);
  const counting = countStatements(
    pool ? new (prismaPgAdapter())(pool, { statementNameGenerator: preparedName }) : sqliteAdapter(url),
    (query) => seen(query.sql, query.args),
    generations,
  );
  const db = provider === 'sqlite' ? (new SqliteClient({ adapter: counting }) as unknown as Db) : new PostgresClient({ adapter: counting });
  return {
    db,
    provider,
    url,
    statementCount: () => statements,
    generations,
    ...(pool ? { poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }) } : {}),
    readRows: async <T>(sql: string, params: unknown[]) => {
      seen(sql, params);
      return direct ? ((await direct.read(sql, params)) as T[]) : db.$queryRawUnsafe<T[]>(sql, ...params);
    },
    readText: async ({ sql, parameters, name }) => {
      seen(sql, parameters as unknown[]);
      if (!direct) {
        const rows = await db.$queryRawUnsafe<Array<Record<string, unknown>>>(sql, ...parameters);
        const first = rows[0];
        return first ? (Object.values(first)[0] as string | null) : null;
      }
      return direct.readText(sql, parameters, name);
    },
    close: async () => {
      await generations.close();
      direct?.close();
      await db.$disconnect();
      await pool?.end().catch(() => {});
    },
  };
}

interface DirectReader {
  read(sql: string, params: unknown[]): Promise<unknown[]> | unknown[];
  readText(sql: string, params: readonly unknown[], name?: string): Promise<string | null> | string | null;
  /** SQLite: the file's change counter as this connection sees it (moves with other connections' commits). */
  dataVersion?: () => number;
  close(): void;
}

/**
 * Every statement is prepared (Prisma's and the compiled reads alike) and its plan kept: PostgreSQL
 * would otherwise plan a compiled read again at each execution whenever the plan for its values
 * looks cheaper than the generic one, and planning a read with access subqueries (grants, the
 * collections above) costs more than running it (a space by id: 0.6 ms a read, 0.18 ms with its
 * plan kept). Options the database URL gives come first; node-postgres would let them replace
 * the setting, so they leave the URL.
 */
function sessionOptions(url: string): { connectionString: string; options: string } {
  const keep = '-c plan_cache_mode=force_generic_plan';
  const connection = new URL(url);
  const given = connection.searchParams.get('options');
  // Any other URL is passed as it is written.
  if (given === null) return { connectionString: url, options: keep };
  connection.searchParams.delete('options');
  return { connectionString: connection.toString(), options: `${given} ${keep}` };
}

function poolReader(pool: pg.Pool): DirectReader {
  return {
    read: async (sql, params) => (await pool.query(sql, params)).rows,
    readText: async (sql, params, name) => {
      const result = await pool.query({ text: sql, values: params as unknown[], rowMode: 'array', ...(name ? { name } : {}) });
      return (result.rows[0]?.[0] as string | undefined) ?? null;
    },
    close: () => {},
  };
}

/** A read-only connection of its own (WAL: it never waits on the writer), with its statements prepared once. */
function sqliteReader(url: string): DirectReader | undefined {
  const file = sqliteFilePath(url);
  if (file === ':memory:') return undefined;
  let connection: BetterSqlite3.Database | undefined;
  let dataVersion: BetterSqlite3.Statement | undefined;
  const prepared = new Map<string, BetterSqlite3.Statement>();
  const open = () => {
    if (!connection) {
      connection = new BetterSqlite3(file, { readonly: true, timeout: 5000 });
      // Page tokens of compiled reads (src/db/sql.ts): SQLite has no base64.
      connection.function('docs_gateway_base64url', { deterministic: true }, (text: unknown) => Buffer.from(String(text)).toString('base64url'));
    }
    return connection;
  };
  const textStatements = new Map<string, BetterSqlite3.Statement>();
  return {
    dataVersion: () => {
      dataVersion ??= open().prepare('PRAGMA data_version').pluck();
      return dataVersion.get() as number;
    },
    read(sql, params) {
      let statement = prepared.get(sql);
      if (!statement) {
        statement = open().prepare(sql.replace(/\$\d+/g, '?'));
        prepared.set(sql, statement);
      }
      return statement.all(...params);
    },
    readText(sql, params) {
      let statement = textStatements.get(sql);
      if (!statement) {
        statement = open().prepare(sql).pluck();
        // Statements of compiled reads are many shapes of few documents: keep a bounded number.
        if (textStatements.size >= 500) textStatements.delete(textStatements.keys().next().value!);
        textStatements.set(sql, statement);
      }
      return (statement.get(...params) as string | undefined) ?? null;
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
 * PostgreSQL plans a named statement once per connection instead of at every
 * execution. Statements with many parameters (a list of ids of any length) are
 * left unnamed: each length would be another statement kept on every connection;
 * so are those without any (BEGIN, COMMIT), which need no plan.
 */
function preparedName(query: { sql: string; args: unknown[] }): string {
  if (query.args.length === 0 || query.args.length > 32) return undefined as unknown as string;
  return `p_${createHash('sha1').update(query.sql).digest('base64url')}`;
}

/** Statements that may write: what a COMMIT, or a write outside a transaction, makes final. */
const WRITE = /^\s*(INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|TRUNCATE)\b/i;

/**
 * Wraps an adapter factory so that every SQL statement it runs is counted, that
 * the generation feed learns when writes are committed (src/db/generation-feed.ts),
 * and so that Prisma knows SQLite's real parameter limit: it splits a statement with
 * more parameters than the adapter's `maxBindValues` (999 unless told), so a
 * level of 1,000 ids in a tree would cost two statements.
 */
function countStatements(
  factory: SqlDriverAdapterFactory,
  onStatement: (query: { sql: string; args: unknown[] }) => void,
  feed: GenerationFeed,
): SqlDriverAdapterFactory {
  const sqliteFeed = factory.provider === 'sqlite' ? (feed as SqliteGenerationFeed) : undefined;
  const postgresFeed = factory.provider === 'postgres' ? (feed as PostgresGenerationFeed) : undefined;
  const wrap = <T extends object>(target: T, inTransaction: boolean): T =>
    new Proxy(target, {
      get(object, key, receiver) {
        const value = Reflect.get(object, key, receiver);
        if (key === 'queryRaw' || key === 'executeRaw' || key === 'executeScript') {
          return async (...args: unknown[]) => {
            const query = args[0] as { sql?: string; args?: unknown[] } | string;
            const sql = typeof query === 'string' ? query : (query.sql ?? '');
            onStatement({ sql, args: typeof query === 'string' ? [] : (query.args ?? []) });
            const run = () => (value as (...a: unknown[]) => unknown).apply(object, args);
            if (postgresFeed) {
              const result = await run();
              if (inTransaction ? /^\s*COMMIT\b/i.test(sql) : WRITE.test(sql)) postgresFeed.committed();
              return result;
            }
            if (inTransaction || !sqliteFeed) return run();
            // A statement of its own commits (or fails) as it returns: its bumps are known.
            try {
              const result = await run();
              sqliteFeed.ended(true);
              return result;
            } catch (error) {
              sqliteFeed.ended(false);
              throw error;
            }
          };
        }
        if (key === 'getConnectionInfo' && factory.provider === 'sqlite') {
          return () => ({ maxBindValues: SQLITE_MAX_VARIABLES, supportsRelationJoins: false });
        }
        if (key === 'startTransaction') {
          return async (...args: unknown[]) => wrap(await (value as (...a: unknown[]) => Promise<object>).apply(object, args), true);
        }
        // Prisma sends COMMIT (or ROLLBACK) before it calls these.
        if (inTransaction && sqliteFeed && (key === 'commit' || key === 'rollback')) {
          return async () => {
            await (value as () => Promise<void>).apply(object);
            sqliteFeed.ended(key === 'commit');
          };
        }
        return typeof value === 'function' ? value.bind(object) : value;
      },
    });
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => {
      const adapter = (await factory.connect()) as SqlDriverAdapter & { client?: BetterSqlite3.Database };
      if (sqliteFeed && adapter.client) sqliteFeed.attach(adapter.client);
      return wrap(adapter, false);
    },
  };
}
