import type { FastifyInstance } from 'fastify';
import { seedDemo, sourceDemoSpecFromServer } from '../../prisma/seed/demo.ts';
import { loadConfig } from '../config.ts';
import { openDatabase, runMigrations } from '../db/index.ts';
import { lockDatabase } from '../db/instance-lock.ts';
import { issueApiToken } from '../domain/users/provisioning.ts';
import { loadPersistedOperations } from '../graphql/persisted-operations.ts';
import { buildApp } from '../http/app.ts';
import { createLogger, defaultLogFormat, logDestination } from '../http/logging.ts';
import { type BackgroundWork, startBackgroundWork } from '../jobs/background.ts';
import { openFileStorage } from '../storage/index.ts';
import { closeWorkerPool, configureWorkerPool } from '../workers/pool.ts';
import { configureParseBudget } from '../domain/content/bodies.ts';
import { commandOnDatabase } from './hints.ts';

/** `docs-gateway serve`: the HTTP server, with its background work, until a signal stops it. */

export { describeError } from './errors.ts';

/** The start-up's line for the migrations it applied: how many, from the first to the last. */
export function appliedMigrations(names: string[]): string {
  if (names.length === 1) return `applied migration ${names[0]}`;
  return `applied ${names.length} migrations (${names[0]} … ${names.at(-1)})`;
}

/**
 * Listens without Fastify's own "Server listening at" lines (one per address
 * of every interface): `serve` prints the addresses to open itself, after the
 * rest of its start-up. Nothing else logs meanwhile: no request is served yet,
 * and background work starts afterwards.
 */
async function listenQuietly(server: FastifyInstance, options: { port: number; host: string }): Promise<void> {
  const level = server.log.level;
  if (['trace', 'debug', 'info'].includes(level)) server.log.level = 'warn';
  try {
    await server.listen(options);
  } finally {
    server.log.level = level;
  }
}

/** Whether only this machine can reach an address: the GraphiQL page may then carry the demo token. */
function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Every interface, of IPv4 (`0.0.0.0`) or of both (`::`). */
function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '';
}

/**
 * The host of an address one can open for what the server listens on: a
 * wildcard is reached on this machine at its loopback address, and an IPv6
 * address goes in brackets.
 */
export function openableHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

export async function serve(options: { port?: number; demo?: boolean }) {
  const config = loadConfig(process.env, options.port === undefined ? {} : { port: options.port });
  // One format for every line the server prints, its own start-up included.
  const logs = logDestination(config.logFormat ?? defaultLogFormat());
  // Where it listens, the demo token and hints are printed whatever LOG_LEVEL hides, unless it is silent.
  const startup = createLogger(config.logLevel === 'silent' ? 'silent' : 'info', logs);
  const log = (message: string) => startup.info(message);
  // SQLite serves one instance: a second server on the same file stops here, before migrating.
  const lock = lockDatabase(config.databaseUrl);
  let database: ReturnType<typeof openDatabase> | undefined;
  const fileStorage = openFileStorage(config);
  let app: FastifyInstance | undefined;
  let background: BackgroundWork | undefined;
  // Everything opened is closed on the way out, also when starting fails:
  // a database handle left to the garbage collector can abort the process.
  const close = async () => {
    // No new periodic jobs; the queue stops with the app, after the requests in flight.
    await background?.stop();
    if (app) {
      // Requests in flight finish; a keep-alive connection idle after its last
      // answer is closed then, not after its keep-alive timeout (72 s).
      const idle = setInterval(() => app?.server.closeIdleConnections(), 100);
      try {
        await app.close();
      } finally {
        clearInterval(idle);
      }
    }
    // Its threads end once the jobs and requests that used them have.
    await closeWorkerPool();
    await database?.close();
    fileStorage.close?.();
    lock.release();
  };
  configureWorkerPool(config.workerPool);
  configureParseBudget(config.parseBudgetMs);
  try {
    // One line for them all: a new database gets every migration at once.
    const { applied } = await runMigrations(config.databaseUrl);
    if (applied.length > 0) log(appliedMigrations(applied));
    database = openDatabase(config.databaseUrl, config.database);
    let demoToken: string | undefined;
    if (options.demo) {
      const empty = (await database.db.organization.count()) === 0;
      if (empty && (await seedDemo(database, config.urls, fileStorage, { deferSpec: true }))) log('loaded the demo data');
      const alice = await database.db.user.findUnique({ where: { email: 'alice@acme.test' } });
      if (alice) demoToken = await issueApiToken(database.db, alice.id, 'npm start');
    }
    const server = await buildApp({
      database,
      urls: config.urls,
      logLevel: config.logLevel,
      logStream: logs,
      ...(config.persistedOperations ? { persistedOperations: loadPersistedOperations(config.persistedOperations.file, config.persistedOperations.only) } : {}),
      responseCacheBytes: config.responseCacheBytes,
      pageTreeCacheBytes: config.pageTreeCacheBytes,
      corsOrigins: config.corsOrigins,
      samlRedirectOrigins: config.samlRedirectOrigins,
      rateLimits: config.rateLimits,
      events: config.events,
      fetchPrivateAddresses: config.fetchPrivateAddresses,
      openApiFetch: config.openApiFetch,
      gitSync: config.gitSync,
      auditRetentionDays: config.auditRetentionDays,
      webhooks: config.webhooks,
      graphqlLimits: config.graphqlLimits,
      fileStorage,
      // Only a page no one else can reach may carry a token.
      ...(demoToken && isLoopback(config.host) ? { graphiqlToken: demoToken } : {}),
    });
    app = server;

    let closing = false;
    const shutdown = async (signal: string) => {
      if (closing) return;
      closing = true;
      server.log.info({ signal }, 'shutting down');
      await close();
      process.exit(0);
    };
    process.on('SIGTERM', () => void shutdown('SIGTERM'));
    process.on('SIGINT', () => void shutdown('SIGINT'));

    await listenQuietly(server, { port: config.port, host: config.host });
    background = startBackgroundWork({
      queue: server.jobs,
      log: server.log,
      purgeIntervalMs: config.purgeIntervalMs,
      webhookSweepIntervalMs: config.webhooks.sweepIntervalMs,
      gitPollIntervalMs: config.gitSync.pollIntervalMs,
    });
    const address = server.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    // An address to open, on this machine when it listens on every interface.
    const base = `http://${openableHost(config.host)}:${port}`;
    if (options.demo) {
      try {
        if (await sourceDemoSpecFromServer(database, config.urls, base, server.jobs)) log(`the demo OpenAPI spec was fetched from ${base}/v1/openapi.json`);
      } catch (error) {
        server.log.warn({ err: error }, 'could not source the demo OpenAPI spec from this server');
      }
    }
    // Where to go and the token, last: what a person looks for after the start.
    if (isWildcard(config.host)) log(`listening on every interface (${config.host || '0.0.0.0'}), port ${port}; on this machine:`);
    log(`REST     ${base}/v1`);
    log(`GraphiQL ${base}/graphql`);
    if (demoToken) log(`token    ${demoToken}   (alice@acme.test, admin of the demo organizations)`);
    else if (!options.demo && ((await database.db.organization.count()) === 0 || (await database.db.user.count()) === 0)) {
      // Pasted into another terminal, the command must reach this database, not the default one.
      log(
        `no organization or user yet: create them and a token with  ${commandOnDatabase(config.command, config.databaseUrl)} bootstrap --org <title> --email <email>`,
      );
    }
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}
