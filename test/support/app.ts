import { DEFAULT_GIT_SETTINGS } from '../../src/domain/git/jobs.ts';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { type AppOptions, buildApp } from '../../src/http/app.ts';
import { OPENAPI_PATH } from '../../src/rest/plugin.ts';
import type { PublicUrls } from '../../src/config.ts';
import { type Database, openDatabase } from '../../src/db/index.ts';
import type { OpenOptions } from '../../src/db/client.ts';
import type { Clock } from '../../src/lib/clock.ts';
import { type FileStorage, localDiskStorage } from '../../src/storage/files.ts';
import { closeWhenFileEnds, temporaryDirectory } from './cleanup.ts';
import { testDatabaseUrl } from './worker-database.ts';
// The server loads its GraphQL layer on the first /graphql request (src/http/graphql.ts); from the
// sources that is seconds of transforms and the schema's build, which would count against the
// first GraphQL test of each file: loaded here, with the file, as before.
import '../../src/graphql/yoga.ts';

/** A clock tests can move. */
export class TestClock implements Clock {
  private offsetMs = 0;
  now() {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number) {
    this.offsetMs += ms;
  }
}

/** The GIT_CREDENTIALS_KEY of test servers. */
export const TEST_GIT_CREDENTIALS_KEY = Buffer.alloc(32, 7);

export const TEST_URLS: PublicUrls = { api: 'http://docs-gateway.test', app: 'http://app.docs-gateway.test' };

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  clock: TestClock;
  /** A REST or GraphQL call through Fastify's HTTP injection. */
  call(method: string, url: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<LightMyRequestResponse>;
  graphql<T = any>(
    token: string,
    query: string,
    variables?: Record<string, unknown>,
  ): Promise<{ status: number; data: T; errors?: Array<{ message: string; extensions?: { code?: number } }> }>;
  /** Starts listening on a loopback port (for clients that use fetch), if not yet, and returns the base URL. */
  listen(): Promise<string>;
  /** SQL statements run by this app's database connection so far. */
  statements(): number;
}

export type TestAppOptions = Partial<Omit<AppOptions, 'database' | 'clock'>> & {
  /** Another database than the run's (test/support/databases.ts). */
  databaseUrl?: string;
  /** Sees every SQL statement the app runs. */
  onStatement?: (sql: string, args: unknown[]) => void;
  /** Pool size and timeouts of the database connection. */
  databaseOptions?: Omit<OpenOptions, 'onStatement'>;
};

/**
 * One file storage per database, as the instances of a deployment share one
 * FILES_DIR: a job one app queues may run in another app on the same database.
 */
const storages = new Map<string, FileStorage>();
function sharedStorage(databaseUrl: string): FileStorage {
  let storage = storages.get(databaseUrl);
  if (!storage) {
    storages.set(databaseUrl, (storage = localDiskStorage(temporaryDirectory('docs-gateway-files-'))));
    // Files share their worker's modules (vitest.config.ts): the next file makes its own.
    closeWhenFileEnds(() => storages.delete(databaseUrl));
  }
  return storage;
}

/** The real server on the run's database; closed after the test file. `options` change its configuration. */
export async function createTestApp({ databaseUrl, onStatement, databaseOptions, ...options }: TestAppOptions = {}): Promise<TestApp> {
  const database = openDatabase(databaseUrl ?? testDatabaseUrl(), { ...databaseOptions, ...(onStatement ? { onStatement } : {}) });
  const clock = new TestClock();
  // The response cache is on, as in production: every read after a write in
  // the suite also proves that the write invalidated it.
  const app = await buildApp({
    database,
    urls: TEST_URLS,
    clock,
    logLevel: 'silent',
    responseCacheBytes: 16 * 1024 * 1024,
    pageTreeCacheBytes: 16 * 1024 * 1024,
    // Off unless a test turns them on (test/http/rate-limit.test.ts): suites send many requests from one address.
    rateLimits: { perMinute: 0, failedAuthenticationsPerMinute: 0 },
    // Tests serve the websites they import on 127.0.0.1.
    fetchPrivateAddresses: true,
    fileStorage: sharedStorage(databaseUrl ?? testDatabaseUrl()),
    // A fixed key for bound repositories' credentials (GIT_CREDENTIALS_KEY).
    gitSync: { ...DEFAULT_GIT_SETTINGS, credentialsKey: TEST_GIT_CREDENTIALS_KEY },
    ...options,
  });
  closeWhenFileEnds(async () => {
    await app.close();
    await database.close();
  });
  // Every successful REST answer a test receives matches the response schema of
  // its operation, formats included (test/support/contract.ts): which operation
  // answered is remembered by request id.
  const operationOf = new Map<string, string>();
  app.addHook('onSend', async (request, _reply, payload) => {
    const route = request.routeOptions.url;
    if (route?.startsWith('/v1/') && route !== OPENAPI_PATH) operationOf.set(request.id, route.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{pagePath}'));
    return payload;
  });
  const call: TestApp['call'] = async (method, url, options = {}) => {
    const response = await app.inject({
      method: method as never,
      url,
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...options.headers,
      },
      ...(options.body !== undefined ? { payload: JSON.stringify(options.body) } : {}),
    });
    const id = String(response.headers['x-request-id']);
    const operation = operationOf.get(id);
    operationOf.delete(id);
    const plain = response.headers['content-encoding'] === undefined;
    if (
      operation &&
      plain &&
      method.toUpperCase() !== 'HEAD' &&
      response.statusCode < 300 &&
      String(response.headers['content-type']).startsWith('application/json')
    ) {
      const { expectMatchesSchema } = await import('./contract.ts');
      expectMatchesSchema(method.toUpperCase(), operation, response.statusCode, response.json());
    }
    return response;
  };
  return {
    app,
    database,
    clock,
    call,
    async graphql(token, query, variables) {
      const response = await call('POST', '/graphql', { token, body: { query, variables } });
      const body = response.json();
      return { status: response.statusCode, data: body.data, errors: body.errors };
    },
    async listen() {
      if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
      return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    },
    statements: () => database.statementCount(),
  };
}
