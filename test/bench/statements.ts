// What a request costs the database, counted rather than guessed: the server
// runs in this process (Fastify inject) over a statement-counting connection,
// and the listings' statements are explained by the database itself.
import Sqlite from 'better-sqlite3';
import pg from 'pg';
import { buildApp } from '../../src/http/app.ts';
import type { FastifyInstance } from 'fastify';
import { type Database, openDatabase, providerOf } from '../../src/db/index.ts';
import { type OpenOptions, sqliteFilePath } from '../../src/db/client.ts';
import { BENCH_URLS } from './dataset.ts';
import type { Request } from './load.ts';

export interface StatementCount {
  /** The request executed (response cache empty). */
  executed: number;
  /** The same request again, answered by the response cache. */
  cached: number;
  status: number;
  bytes: number;
}

/** The server in this process on `url`, closed after `work`. */
async function inProcess<T>(url: string, options: OpenOptions, work: (app: FastifyInstance, database: Database) => Promise<T>): Promise<T> {
  const database = openDatabase(url, options);
  const app = await buildApp({ database, urls: BENCH_URLS, logLevel: 'warn', responseCacheBytes: 64 * 1024 * 1024 });
  try {
    return await work(app, database);
  } finally {
    await app.close();
    await database.close();
  }
}

export function countStatements(url: string, requests: Record<string, Request>): Promise<Record<string, StatementCount>> {
  return inProcess(url, {}, async (app, database) => {
    const counts: Record<string, StatementCount> = {};
    // The viewer behind a token is read once and kept (src/domain/users/viewer-cache.ts): once the
    // database's announcements are heard, each token makes one request before its requests are counted.
    for (let waited = 0; !database.generations.live && waited < 100; waited++) await new Promise((resolve) => setTimeout(resolve, 50));
    for (const [name, request] of Object.entries(requests)) {
      await app.inject({ method: 'GET', url: '/v1/user', headers: request.headers });
      const send = async () => {
        const before = database.statementCount();
        const response = await app.inject({
          method: request.method ?? 'GET',
          url: request.path,
          headers: request.headers,
          ...(request.body === undefined ? {} : { payload: request.body as object }),
        });
        return { statements: database.statementCount() - before, status: response.statusCode, bytes: response.rawPayload.length };
      };
      const executed = await send();
      const cached = await send();
      counts[name] = { executed: executed.statements, cached: cached.statements, status: executed.status, bytes: executed.bytes };
    }
    return counts;
  });
}

/** The database's own plan for every statement a request runs. */
export async function explainRequest(url: string, request: Request): Promise<string[]> {
  const statements: Array<{ sql: string; args: unknown[] }> = [];
  await inProcess(url, { onStatement: (sql, args) => statements.push({ sql, args }) }, (app) =>
    app.inject({ method: request.method ?? 'GET', url: request.path, headers: request.headers }),
  );
  const plans: string[] = [];
  if (providerOf(url) === 'postgresql') {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      for (const { sql, args } of statements) {
        const result = await client.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) ${sql}`, args);
        plans.push(`${sql}\n${result.rows.map((row) => `  ${row['QUERY PLAN']}`).join('\n')}`);
      }
    } finally {
      await client.end();
    }
  } else {
    const sqlite = new Sqlite(sqliteFilePath(url), { readonly: true });
    try {
      for (const { sql, args } of statements) {
        const values = args.map((value) => (typeof value === 'boolean' ? Number(value) : value instanceof Date ? value.toISOString() : value));
        const rows = sqlite.prepare(`EXPLAIN QUERY PLAN ${sql.replace(/\$\d+/g, '?')}`).all(...values) as Array<{ detail: string }>;
        plans.push(`${sql}\n${rows.map((row) => `  ${row.detail}`).join('\n')}`);
      }
    } finally {
      sqlite.close();
    }
  }
  return plans;
}
