import fs from 'node:fs';
import path from 'node:path';
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlDriverAdapter, SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
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
}

export function openDatabase(url: string, options: OpenOptions = {}): Database {
  const provider = providerOf(url);
  let statements = 0;
  const counting = countStatements(
    provider === 'sqlite' ? sqliteAdapter(url) : new PrismaPg({ connectionString: url, max: 10 }),
    (query) => {
      statements++;
      if (process.env.DEBUG_SQL) console.log(query.sql);
      options.onStatement?.(query.sql, query.args);
    },
  );
  const db =
    provider === 'sqlite'
      ? (new SqliteClient({ adapter: counting }) as unknown as Db)
      : new PostgresClient({ adapter: counting });
  return {
    db,
    provider,
    url,
    statementCount: () => statements,
    close: () => db.$disconnect(),
  };
}

function sqliteAdapter(url: string): SqlDriverAdapterFactory {
  const file = sqliteFilePath(url);
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  return new PrismaBetterSQLite3({ url: file }, { timestampFormat: 'iso8601' });
}

/** Wraps an adapter factory so that every SQL statement it runs is counted. */
function countStatements(
  factory: SqlDriverAdapterFactory,
  onStatement: (query: { sql: string; args: unknown[] }) => void,
): SqlDriverAdapterFactory {
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
        if (key === 'startTransaction') {
          return async (...args: unknown[]) =>
            wrap(await (value as (...a: unknown[]) => Promise<object>).apply(object, args));
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
