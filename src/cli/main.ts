import { Command, InvalidArgumentError } from 'commander';
import type { FastifyInstance } from 'fastify';
import { seedDemo, sourceDemoSpecFromServer } from '../../prisma/seed/demo.ts';
import { buildApp } from '../http/app.ts';
import { loadConfig } from '../config.ts';
import { loadPersistedOperations } from '../graphql/persisted-operations.ts';
import { createLogger, defaultLogFormat, logDestination } from '../http/logging.ts';
import { openDatabase, runMigrations } from '../db/index.ts';
import { bootstrap, createUserWithToken, issueApiToken } from '../domain/users/provisioning.ts';
import { translateConstraintError } from '../domain/transaction.ts';
import { DomainError } from '../errors.ts';
import { type BackgroundWork, startBackgroundWork } from '../jobs/background.ts';
import { localDiskStorage } from '../storage/files.ts';
import packageJson from '../../package.json' with { type: 'json' };

/** The `docs-gateway` command line. Other tools depend on its exact flags and JSON output. */

const program = new Command('docs-gateway')
  .description('API server for hosted documentation (REST /v1 and GraphQL)')
  .version(packageJson.version, '-v, --version', 'print the version');

const port = (value: string) => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535) throw new InvalidArgumentError('must be a port number');
  return parsed;
};

/** Whether only this machine can reach an address: the GraphiQL page may then carry the demo token. */
function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Opens the configured database with its migrations applied, runs `work`, and closes it. */
async function withDatabase<T>(work: (database: ReturnType<typeof openDatabase>) => Promise<T>): Promise<T> {
  const config = loadConfig();
  await runMigrations(config.databaseUrl);
  const database = openDatabase(config.databaseUrl, config.database);
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

program
  .command('serve')
  .description('Serve REST /v1 and GraphQL /graphql (applies pending migrations first)')
  .option('--port <port>', 'port to listen on (default: $PORT or 4000)', port)
  .option('--demo', 'load the demo data into an empty database and print a token for it')
  .action(async (options: { port?: number; demo?: boolean }) => {
    const config = loadConfig(process.env, options.port === undefined ? {} : { port: options.port });
    // One format for every line the server prints, its own start-up included.
    const logs = logDestination(config.logFormat ?? defaultLogFormat());
    // Where it listens and the demo token are printed whatever LOG_LEVEL hides, unless it is silent.
    const startup = createLogger(config.logLevel === 'silent' ? 'silent' : 'info', logs);
    const log = (message: string) => startup.info(message);
    await runMigrations(config.databaseUrl, { log });
    const database = openDatabase(config.databaseUrl, config.database);
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
      await database.close();
    };
    try {
      let demoToken: string | undefined;
      if (options.demo) {
        const empty = (await database.db.organization.count()) === 0;
        if (empty && (await seedDemo(database, config.urls, localDiskStorage(config.filesDir)))) log('loaded the demo data');
        const alice = await database.db.user.findUnique({ where: { email: 'alice@acme.test' } });
        if (alice) demoToken = await issueApiToken(database.db, alice.id, 'npm start');
      }
      const server = await buildApp({
        database,
        urls: config.urls,
        logLevel: config.logLevel,
        logStream: logs,
        ...(config.persistedOperations
          ? { persistedOperations: loadPersistedOperations(config.persistedOperations.file, config.persistedOperations.only) }
          : {}),
        responseCacheBytes: config.responseCacheBytes,
        pageTreeCacheBytes: config.pageTreeCacheBytes,
        corsOrigins: config.corsOrigins,
        rateLimits: config.rateLimits,
        fetchPrivateAddresses: config.fetchPrivateAddresses,
        openApiFetch: config.openApiFetch,
        graphqlLimits: config.graphqlLimits,
        fileStorage: localDiskStorage(config.filesDir),
        // Only a page no one else can reach may carry a token.
        ...(demoToken && isLoopback(config.host) ? { graphiqlToken: demoToken } : {}),
      });
      app = server;
      background = startBackgroundWork({ queue: server.jobs, log: server.log, purgeIntervalMs: config.purgeIntervalMs });

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

      await server.listen({ port: config.port, host: config.host });
      const address = server.server.address();
      const base = typeof address === 'object' && address ? `http://${config.host}:${address.port}` : config.urls.api;
      log(`REST     ${base}/v1`);
      log(`GraphiQL ${base}/graphql`);
      if (demoToken) log(`token    ${demoToken}   (alice@acme.test, admin of the demo organizations)`);
      if (options.demo) {
        // Its own address, as this machine reaches it whatever interface it binds.
        const self = /^(0\.0\.0\.0|::)$/.test(config.host) ? base.replace(config.host, '127.0.0.1') : base;
        try {
          if (await sourceDemoSpecFromServer(database, config.urls, self, server.jobs)) log(`the demo OpenAPI spec is fetched from ${self}/v1/openapi.json`);
        } catch (error) {
          server.log.warn({ err: error }, 'could not source the demo OpenAPI spec from this server');
        }
      }
    } catch (error) {
      await close().catch(() => {});
      throw error;
    }
  });

program
  .command('bootstrap')
  .description('Ensure an organization, an admin user with this email, and print a new token for it')
  .requiredOption('--org <title>', 'organization title')
  .requiredOption('--email <email>', 'email of the admin user')
  .option('--json', 'print one JSON line')
  .action(async (options: { org: string; email: string; json?: boolean }) => {
    const result = await withDatabase((database) => bootstrap(database, options));
    console.log(options.json ? JSON.stringify(result) : `organization ${result.organizationId}\nuser ${result.userId}\ntoken ${result.token}`);
  });

const users = program.command('users').description('Manage users');
users
  .command('create')
  .description('Create a user (or reuse one with this email) with a role in an organization, and print a token')
  .requiredOption('--email <email>', 'email of the user')
  .requiredOption('--org <organizationId>', 'organization id')
  .requiredOption('--role <role>', 'admin, create, review, edit, comment, read or guest')
  .option('--json', 'print one JSON line')
  .action(async (options: { email: string; org: string; role: string; json?: boolean }) => {
    const result = await withDatabase((database) => createUserWithToken(database, options));
    console.log(options.json ? JSON.stringify(result) : `user ${result.userId}\ntoken ${result.token}`);
  });

program
  .command('seed')
  .description('Load data sets')
  .option('--demo', 'the demo organizations, members, collections, spaces and custom fields')
  .action(async (options: { demo?: boolean }) => {
    if (!options.demo) throw new InvalidArgumentError('choose a data set: --demo');
    const config = loadConfig();
    const loaded = await withDatabase((database) => seedDemo(database, config.urls, localDiskStorage(config.filesDir)));
    console.log(loaded ? 'loaded the demo data' : 'the demo data is already loaded');
  });

program
  .command('migrate')
  .description('Apply pending database migrations')
  .action(async () => {
    const { applied } = await runMigrations(loadConfig().databaseUrl, { log: (message) => console.log(message) });
    if (applied.length === 0) console.log('the database is up to date');
  });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  const reported = translateConstraintError(error);
  console.error(
    `docs-gateway: ${reported instanceof DomainError ? reported.message : reported instanceof Error ? reported.message.trim().split('\n').at(-1) : String(reported)}`,
  );
  process.exit(1);
}
