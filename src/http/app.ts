import { randomUUID } from 'node:crypto';
import { http } from '../lib/node-http.ts';
import type { Socket } from 'node:net';
import compress from '@fastify/compress';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { PublicUrls } from '../config.ts';
import { type GitSyncSettings, type RequestContext, createContext } from '../context.ts';
import type { Database } from '../db/index.ts';
import { createViewerCache } from '../domain/users/viewer-cache.ts';
import { DomainError, TooManyRequests, forbidden, invalid, unauthenticated, unavailable } from '../errors.ts';
import { authenticateSiteToken, looksLikeSiteToken } from '../domain/sites/site-tokens.ts';
import { PUBLISHED_URL_PATH } from '../rest/routes/urls.ts';
import type { CorsOrigins, GraphQLLimits, RateLimits } from '../config.ts';
import { graphqlPlugin } from './graphql.ts';
import type { CompiledReadsMode } from '../graphql/compiled/plugin.ts';
import { type Clock, systemClock } from '../lib/clock.ts';
import { registerCors } from './cors.ts';
import { createPageTreeCache } from '../domain/content/tree.ts';
import { DATABASE_UNAVAILABLE_MESSAGE, RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/unavailable.ts';
import { assertCleanInput } from '../lib/text-input.ts';
import { registerHealth } from './health.ts';
import { LOGGER_OPTIONS, OneRecordPerRequest, requestIdOf } from './logging.ts';
import { registerAppLinks } from './app-links.ts';
import type { PersistedOperations } from '../graphql/persisted-operations.ts';
import { registerPages } from './pages.ts';
import { registerSecurityHeaders } from './security-headers.ts';
import { bearerToken, hashApiToken } from '../lib/tokens.ts';
import { type EventBus, openEventBus } from '../events/bus.ts';
import { type StreamLimits, DEFAULT_STREAM_LIMITS, createEventStreams } from '../events/streams.ts';
import { registerRateLimits } from './rate-limit.ts';
import { DEFAULT_RATE_LIMITS } from '../config.ts';
import { registerResponseCache } from './response-cache.ts';
import { COMPRESSION } from './compression.ts';
import { registerFileDownloads } from '../rest/files.ts';
import { publishedMcpPlugin } from '../rest/published-mcp.ts';
import { PUBLISHED_TEXT_PATH, registerPublishedText } from '../rest/published-text.ts';
import { OPENAPI_PATH, restPlugin } from '../rest/plugin.ts';
import { SAML_SIGN_IN_PATH, samlSignInPlugin } from '../rest/saml-sign-in.ts';
import { GIT_HOOK_PATH, gitHooksPlugin } from '../rest/git-hooks.ts';
import type { FileStorage } from '../storage/files.ts';
import { type JobQueue, jobSender } from '../jobs/queue.ts';
import { openJobQueue } from '../jobs/open-queue.ts';
import type { WebhookSettings } from '../lib/webhook-settings.ts';
import { METRICS_PATH, registerMetrics } from './metrics.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request context of an authenticated request (REST and GraphQL). */
    ctx: RequestContext | null;
  }
  interface FastifyInstance {
    /** The background job queue this app sends to (src/jobs/). */
    jobs: JobQueue;
    /** The event bus committed writes announce their events on (src/events/bus.ts). */
    events: EventBus;
  }
}

export interface AppOptions {
  database: Database;
  urls: PublicUrls;
  clock?: Clock;
  logLevel?: string;
  /** Where log lines go (tests read them); standard output when absent. */
  logStream?: { write(line: string): void };
  /** Prefills GraphiQL's Authorization header (the demo token of `npm start`). */
  graphiqlToken?: string;
  /** Memory for cached read responses in bytes (src/http/response-cache.ts); 0 or absent: no cache. */
  responseCacheBytes?: number;
  /** Memory for page trees of revisions kept between requests, in bytes (src/domain/content/tree.ts); 0 or absent: none kept. */
  pageTreeCacheBytes?: number;
  /** Origins whose pages may call the APIs (src/http/cors.ts); any origin when absent. */
  corsOrigins?: CorsOrigins;
  /** Requests per minute per client and failed authentications per address (src/http/rate-limit.ts); the defaults when absent. */
  rateLimits?: RateLimits;
  /** What one GraphQL request may ask for (src/graphql/limits.ts); the defaults when absent. */
  graphqlLimits?: GraphQLLimits;
  /** Where uploaded files are kept; without it, uploads are refused. */
  fileStorage?: FileStorage;
  /** Website imports may fetch private and loopback addresses (tests serving sites on 127.0.0.1). */
  fetchPrivateAddresses?: boolean;
  /** Bounds of fetching OpenAPI spec sources (OPENAPI_FETCH_TIMEOUT_MS, OPENAPI_FETCH_MAX_MB); 20 s and 10 MB when absent. */
  openApiFetch?: { timeoutMs: number; maxBytes: number };
  /** Git sync's clone caches and limits (GIT_CACHE_DIR, GIT_MAX_*); the defaults of src/domain/git/jobs.ts when absent. */
  gitSync?: GitSyncSettings;
  /** How long audit events are kept, in days (0: for ever); the retention job reads it. */
  auditRetentionDays?: number;
  /** How webhooks are delivered (WEBHOOK_*); src/lib/webhook-settings.ts's defaults when absent. */
  webhooks?: WebhookSettings;
  /** GraphQL documents registered by hash (src/graphql/persisted-operations.ts); none when absent. */
  persistedOperations?: PersistedOperations;
  /** The job queue; by default one on the app's database (src/jobs/), stopped with the app. */
  jobs?: JobQueue;
  /** Queries answered by one SQL statement per root field (src/graphql/compiled/): on unless off; `verify` also executes them and compares (tests). */
  compiledReads?: CompiledReadsMode;
  /**
   * Live updates (src/events/): through Redis when `redisUrl` is set, else
   * PostgreSQL LISTEN/NOTIFY or in process; streams per token and how far one
   * may fall behind.
   */
  events?: { redisUrl?: string | undefined; redisPrefix?: string | undefined; limits?: Partial<StreamLimits> | undefined };
  /** Origins a SAML sign-in may hand its token to (SAML_REDIRECT_ORIGINS, src/domain/saml/sign-in.ts); none when absent. */
  samlRedirectOrigins?: readonly string[];
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { database, urls } = options;
  const clock = options.clock ?? systemClock;
  const pageTreeCache = createPageTreeCache(options.pageTreeCacheBytes ?? 0);
  const app = Fastify({
    logger: {
      ...LOGGER_OPTIONS,
      level: options.logLevel ?? 'info',
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    // Each request's id: the caller's x-request-id when it is a sane token, else a new UUID;
    // on every log line (reqId) and answered in x-request-id.
    requestIdHeader: false,
    genReqId: requestIdOf,
    // Ids travel in paths; keep the router strict and fast.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PATH_PARAMETER_LENGTH },
    // The router's own refusals (a path that does not decode, a parameter too
    // long), which never reach the error handler, in the one error shape too.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      const { status, message } = routerError(error);
      reply.code(status).send({ error: { code: status, message } });
    },
    // Requests that arrive while the server shuts down are refused below, in our shape.
    return503OnClosing: false,
    // One record per request, when it completes, instead of Fastify's two.
    logController: new OneRecordPerRequest(),
    // Requests Node's parser refuses before Fastify sees them (headers too large, malformed, too slow).
    clientErrorHandler: answerClientError,
  });

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  // Live updates: committed writes announce events on the bus; subscribers' streams hear them.
  const bus: EventBus = await openEventBus({ database, redisUrl: options.events?.redisUrl, redisPrefix: options.events?.redisPrefix, log: app.log });
  const streams = createEventStreams(bus, { ...DEFAULT_STREAM_LIMITS, ...options.events?.limits }, { generations: database.generations });
  app.decorate('events', bus);
  // Last, after the requests and jobs that publish: the bus closes with the database.
  app.addHook('onClose', () => bus.close());

  // From the start of app.close() on, newcomers (on keep-alive connections, or
  // pipelined) are answered 503 with Retry-After, before any work; the requests
  // already in flight finish.
  let closing = false;
  let inFlight = 0;
  app.addHook('preClose', async () => {
    closing = true;
    // Streams end after the requests in flight, so that the events of their writes reach them
    // first; the server stops listening meanwhile, and its close waits for both.
    void (async () => {
      for (const deadline = Date.now() + DRAIN_WAIT_MS; inFlight > 0 && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 20));
      await streams.drain();
    })().catch((error: Error) => app.log.warn({ err: { message: error.message } }, 'live streams could not be drained'));
  });
  // Requests in flight, each counted out once: answered, abandoned, or turned into a stream (the drain ends those).
  const counted = new WeakSet<FastifyRequest>();
  app.addHook('onRequest', async (request) => {
    counted.add(request);
    inFlight++;
  });
  const countOut = async (request: FastifyRequest) => {
    if (counted.delete(request)) inFlight--;
  };
  app.addHook('onResponse', countOut);
  app.addHook('onRequestAbort', countOut);
  // A subscription asked for without `Accept: text/event-stream` streams too: out once it does.
  app.addHook('onSend', async (request, reply, payload) => {
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/event-stream')) {
      await countOut(request);
      // A stream ended by the shutdown leaves its connection idle after the server's one sweep of
      // idle connections: end it, or the close waits for the client's keep-alive to lapse.
      reply.raw.once('finish', () => {
        if (closing) request.raw.socket?.end();
      });
    }
    return payload;
  });
  app.addHook('onRequest', async () => {
    if (closing) throw unavailable(SHUTTING_DOWN_MESSAGE);
  });
  // br or gzip above 1 KB, as the client accepts (GraphiQL's page is compressed once, src/graphql/yoga.ts).
  await app.register(compress, { global: true, threshold: COMPRESSION.threshold, encodings: COMPRESSION.encodings });
  const metrics = registerMetrics(app, database, streams);

  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    if (body === '') return done(null, undefined);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body as string);
    } catch {
      return done(invalid('body: is not valid JSON'), undefined);
    }
    try {
      assertCleanInput(parsed, 'body');
      done(null, parsed);
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  registerSecurityHeaders(app);
  // Before authentication: preflights carry no token.
  await registerCors(app, options.corsOrigins ?? '*');

  // Before authentication too: a client over its budget costs no token lookup.
  const rateLimits = await registerRateLimits(app, options.rateLimits ?? DEFAULT_RATE_LIMITS);

  // Background jobs queued by requests run with a context of their own (no viewer).
  const jobContext = () =>
    createContext({
      database,
      viewer: null,
      clock,
      urls,
      storage: options.fileStorage,
      pageTreeCache,
      fetchPrivateAddresses: options.fetchPrivateAddresses,
      openApiFetch: options.openApiFetch,
      gitSync: options.gitSync,
      webhooks: options.webhooks,
      events: bus,
      auditRetentionDays: options.auditRetentionDays,
    });
  const jobQueue = options.jobs ?? openJobQueue(database, { log: app.log, context: jobContext });
  const jobs = jobSender(jobQueue);
  app.decorate('jobs', jobQueue);
  // After the requests in flight: jobs running finish (bounded) before the database closes under them.
  app.addHook('onClose', () => jobQueue.stop());

  const viewers = createViewerCache(database);
  app.addHook('onClose', async () => viewers.close());
  // Caches are read only once they know of every write this instance made (a client's previous request, a job).
  app.addHook('onRequest', async () => database.generations.barrier());
  app.decorateRequest('ctx', null);
  app.addHook('onRequest', async (request, reply) => {
    const policy = tokenPolicy(request);
    if (policy === 'none') return;
    const token = policy === 'anonymous' ? undefined : bearerToken(request.headers.authorization);
    // A site token (a JWT a URL lookup answered) reads one published site over REST: no viewer, an allow-list.
    const siteToken = token !== undefined && looksLikeSiteToken(token);
    if (siteToken && !request.url.startsWith('/v1/')) {
      throw forbidden('Authorization: a site token reads its published site over REST (/v1) only: use an API token here');
    }
    const viewer = token && !siteToken ? await viewers.viewerForToken(token) : null;
    if (!viewer && !siteToken && policy !== 'anonymous' && !(policy === 'optional' && request.headers.authorization === undefined)) {
      // Each failure spends the address's stricter budget: guessing tokens ends in 429s.
      const limited = await rateLimits.failedAuthentication(request);
      if (limited) throw limited;
      throw token ? unauthenticated('The API token is not valid') : unauthenticated();
    }
    request.ctx = createContext({
      database,
      viewer,
      clock,
      urls,
      storage: options.fileStorage,
      pageTreeCache,
      fetchPrivateAddresses: options.fetchPrivateAddresses,
      openApiFetch: options.openApiFetch,
      gitSync: options.gitSync,
      jobs,
      webhooks: options.webhooks,
      events: bus,
    });
    request.ctx.streams = streams;
    if (siteToken) {
      try {
        await authenticateSiteToken(request.ctx, token!);
      } catch (error) {
        const limited = await rateLimits.failedAuthentication(request);
        throw limited ?? error;
      }
    }
    // Who and from where, for the audit log of the writes this request makes.
    request.ctx.origin = {
      source: 'api',
      address: request.ip,
      userAgent: request.headers['user-agent'],
      requestId: String(request.id),
    };
    // The response closing before it finished: the client went away (or the connection was cut).
    const gone = new AbortController();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) gone.abort();
    });
    request.ctx.clientGone = gone.signal;
    request.ctx.abortConnection = () => {
      if (!reply.raw.writableFinished) reply.raw.destroy();
    };
    // Asked again for each event of a live stream, and when its user changes: from the viewer cache, which
    // every instance keeps exact (the streams hear the announcements of changes before an event they precede).
    if (token && viewer) request.ctx.credentials = { key: hashApiToken(token), address: request.ip, viewer: () => viewers.viewerForToken(token) };
  });

  // Path and query values are text the databases can store, as bodies are (src/lib/text-input.ts).
  app.addHook('preValidation', async (request) => {
    assertCleanInput(request.params, 'path');
    assertCleanInput(request.query, 'query');
  });

  app.setErrorHandler((error, request, reply) => {
    const { status, message } = httpError(error);
    if (status === 503) {
      request.log.warn({ err: { message: (error as Error).message } }, 'unavailable');
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
    } else if (status >= 500) request.log.error(error);
    if (error instanceof TooManyRequests) reply.header('retry-after', String(error.retryAfterSeconds));
    if (request.url.startsWith('/graphql')) {
      return reply.code(status).send({ errors: [{ message, extensions: { code: status } }] });
    }
    return reply.code(status).send({ error: { code: status, message } });
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    // A path that exists with other methods only: 405, and Allow names them.
    const allowed = ROUTED_METHODS.filter((method) => app.findRoute({ method, url: path }) !== null);
    if (allowed.length > 0 && !allowed.includes(request.method as (typeof ROUTED_METHODS)[number])) {
      const message = `No operation ${request.method} ${path}: it answers ${allowed.join(', ')}`;
      return reply
        .code(405)
        .header('allow', allowed.join(', '))
        .send({ error: { code: 405, message } });
    }
    return reply.code(404).send({ error: { code: 404, message: `No operation ${request.method} ${path}` } });
  });

  registerResponseCache(app, { maxBytes: options.responseCacheBytes ?? 0, database });
  registerHealth(app, database);

  await registerPages(app, urls);
  registerAppLinks(app, { database, urls });
  await app.register(restPlugin, { publicUrl: urls.api });
  registerFileDownloads(app, { database, storage: options.fileStorage });
  registerPublishedText(app, { urls });
  await app.register(samlSignInPlugin, { redirectOrigins: options.samlRedirectOrigins ?? [] });
  await app.register(gitHooksPlugin);
  await app.register(publishedMcpPlugin, { urls, countMessages: rateLimits.extraRequests });
  await app.register(graphqlPlugin, {
    graphiqlToken: options.graphiqlToken,
    limits: options.graphqlLimits,
    metrics,
    persistedOperations: options.persistedOperations,
    compiledReads: { mode: options.compiledReads ?? 'on', database, urls },
  });
  return app;
}

/**
 * Whether a request needs a token: REST and GraphQL do; a published site's text may be read without one (as a visitor);
 * SAML sign-in's addresses read none (the browser signing in has none yet, and a request context without a viewer).
 */
function tokenPolicy(request: FastifyRequest): 'required' | 'optional' | 'anonymous' | 'none' {
  // Browsers send preflights without credentials; they read no data.
  if (request.method === 'OPTIONS') return 'none';
  const path = request.url.split('?')[0]!;
  if (path === OPENAPI_PATH || path === METRICS_PATH) return 'none';
  const reads = request.method === 'GET' || request.method === 'HEAD';
  if ((reads || (request.method === 'POST' && path.replace(/\/+$/, '').endsWith('/mcp'))) && PUBLISHED_TEXT_PATH.test(path)) return 'optional';
  if (SAML_SIGN_IN_PATH.test(path)) return 'anonymous';
  if (request.method === 'POST' && GIT_HOOK_PATH.test(path)) return 'anonymous';
  // A reader's browser, or a renderer before it holds a token, resolves a URL of a published site.
  if ((reads || request.method === 'POST') && path.replace(/\/+$/, '') === PUBLISHED_URL_PATH) return 'optional';
  if (path.startsWith('/v1/')) return 'required';
  if (path === '/graphql') {
    // The GraphiQL page itself is public; every query it sends carries a token.
    const wantsPage = request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');
    return wantsPage ? 'none' : 'required';
  }
  return 'none';
}

const MAX_PATH_PARAMETER_LENGTH = 200;

/** How long a shutdown waits for the requests in flight before it ends the live streams. */
const DRAIN_WAIT_MS = 10_000;

/** The methods a path may have routes for (OPTIONS answers every path: CORS preflights, src/http/cors.ts). */
const ROUTED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export const SHUTTING_DOWN_MESSAGE = 'The server is shutting down: try again shortly (another instance, or this one restarted, will answer)';

/**
 * Answers a request Node's HTTP parser refused, before it became a request
 * (Fastify's `clientErrorHandler`): in the one error shape, with a request id
 * of its own, and the connection closed (its bytes cannot be trusted further).
 */
function answerClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket) {
  // A connection reset or already gone: nothing to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, message } = clientError(error.code);
  const id = randomUUID();
  this.log.info({ reqId: id, code: error.code, status }, 'refused by the HTTP parser');
  if (socket.writable) {
    const body = JSON.stringify({ error: { code: status, message } });
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${id}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy();
}

function clientError(code: string | undefined): { status: number; message: string } {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return {
      status: 431,
      message: `The request line and headers are larger than ${http.maxHeaderSize / 1024} KiB together: shorten the query (or send it as a body) or the headers`,
    };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, message: 'The request was not received in time' };
  return { status: 400, message: 'The request is not valid HTTP' };
}

/** The router's refusals, without echoing the path (it may be the client's 70,000 characters). */
function routerError(error: { code?: string }): { status: number; message: string } {
  if (error.code === 'FST_ERR_BAD_URL') return { status: 400, message: 'path: is not a valid URL (malformed percent-encoding, or bytes that are not UTF-8)' };
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH')
    return { status: 414, message: `path: a path parameter is longer than ${MAX_PATH_PARAMETER_LENGTH} characters` };
  return { status: 500, message: 'Internal server error' };
}

/** The status and message a client sees for an error: domain errors and client mistakes as they are, the rest masked. */
function httpError(error: unknown): { status: number; message: string } {
  if (error instanceof DomainError) return { status: error.status, message: error.message };
  if (isDatabaseUnavailable(error)) return { status: 503, message: DATABASE_UNAVAILABLE_MESSAGE };
  const fastifyError = error as { statusCode?: number; message?: string };
  if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    return { status: fastifyError.statusCode, message: fastifyError.message ?? 'Bad request' };
  }
  return { status: 500, message: 'Internal server error' };
}
