import { z } from 'zod';
import { DATABASE_DEFAULTS, type OpenOptions } from './db/client.ts';
import { DEFAULT_STREAM_LIMITS, type StreamLimits } from './events/streams.ts';

/** Requests per minute per client and failed authentications per address (src/http/rate-limit.ts). */
export interface RateLimits {
  perMinute: number;
  failedAuthenticationsPerMinute: number;
  redisUrl?: string | undefined;
  /** Prefix of the Redis keys (tests isolate their runs with it). */
  redisPrefix?: string | undefined;
}

export const DEFAULT_RATE_LIMITS: RateLimits = { perMinute: 6000, failedAuthenticationsPerMinute: 60 };

/** What one GraphQL request may ask for (src/graphql/limits.ts). */
export interface GraphQLLimits {
  maxTokens: number;
  maxDepth: number;
  maxAliases: number;
  maxDirectives: number;
  maxCost: number;
  /** Execution stops after this long; the answer is an error. */
  timeoutMs: number;
  /** Answers larger than this are replaced by an error. */
  maxResponseBytes: number;
}

export const DEFAULT_GRAPHQL_LIMITS: GraphQLLimits = {
  maxTokens: 5_000,
  maxDepth: 20,
  maxAliases: 30,
  maxDirectives: 30,
  maxCost: 250_000,
  timeoutMs: 15_000,
  maxResponseBytes: 32 * 1024 * 1024,
};

/**
 * Which web pages of other origins may call the APIs: any (`'*'`), or the listed
 * origins only (an empty list: none).
 *
 * Credentials are never allowed: docs-gateway reads tokens from the
 * `Authorization` and `X-Visitor-Token` headers, never from cookies, so a page
 * of another origin can act only with a token it was given, and allowing any
 * origin exposes nothing a caller does not already hold.
 */
export type CorsOrigins = '*' | string[];

/** `CORS_ORIGINS`: `*`, or a comma-separated list of origins such as `https://docs.example.com`. */
export function parseCorsOrigins(value: string): CorsOrigins | { error: string } {
  const trimmed = value.trim();
  if (trimmed === '*') return '*';
  const origins: string[] = [];
  for (const item of trimmed
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    let url: URL;
    try {
      url = new URL(item);
    } catch {
      return { error: `"${item}" is not an origin (scheme://host[:port])` };
    }
    if (url.origin === 'null' || url.origin !== item.replace(/\/$/, '')) {
      return { error: `"${item}" is not an origin (scheme://host[:port], without a path)` };
    }
    origins.push(url.origin);
  }
  return origins;
}

/** Every environment variable docs-gateway reads, validated once at start. */
const Environment = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^(file:|postgres(ql)?:\/\/)/, 'must start with file: (SQLite) or postgresql:// (PostgreSQL)')
    .default('file:./data/docs-gateway.db'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(DATABASE_DEFAULTS.poolSize),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(1).default(DATABASE_DEFAULTS.connectTimeoutMs),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(1).default(DATABASE_DEFAULTS.statementTimeoutMs),
  DATABASE_LOCK_TIMEOUT_MS: z.coerce.number().int().min(1).default(DATABASE_DEFAULTS.lockTimeoutMs),
  FILES_DIR: z.string().min(1).default('./data/files'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_URL: z.url().optional(),
  APP_URL: z.url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PERSISTED_OPERATIONS_FILE: z.string().min(1).optional(),
  PERSISTED_OPERATIONS_ONLY: z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .default('false')
    .transform((value) => value === 'true' || value === '1'),
  LOG_FORMAT: z.enum(['json', 'pretty'], { error: 'must be json or pretty' }).optional(),
  PURGE_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(3600),
  RESPONSE_CACHE_MB: z.coerce.number().min(0).max(65536).default(64),
  CONTENT_CACHE_MB: z.coerce.number().min(0).max(65536).default(64),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(DEFAULT_RATE_LIMITS.perMinute),
  RATE_LIMIT_FAILED_AUTH_PER_MINUTE: z.coerce.number().int().min(0).default(DEFAULT_RATE_LIMITS.failedAuthenticationsPerMinute),
  FETCH_PRIVATE_ADDRESSES: z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .default('false')
    .transform((value) => value === 'true' || value === '1'),
  OPENAPI_FETCH_TIMEOUT_MS: z.coerce.number().int().min(1).default(20_000),
  OPENAPI_FETCH_MAX_MB: z.coerce.number().positive().max(1024).default(10),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  REDIS_PREFIX: z
    .string()
    .regex(/^[\w.:-]{1,64}$/, 'must be 1 to 64 letters, digits, _ . : or -')
    .default('docs-gateway'),
  SUBSCRIPTIONS_PER_TOKEN: z.coerce.number().int().min(0).max(10_000).default(DEFAULT_STREAM_LIMITS.maxPerToken),
  GRAPHQL_MAX_COST: z.coerce.number().int().min(1).default(DEFAULT_GRAPHQL_LIMITS.maxCost),
  GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(1).default(DEFAULT_GRAPHQL_LIMITS.maxDepth),
  GRAPHQL_MAX_ALIASES: z.coerce.number().int().min(0).default(DEFAULT_GRAPHQL_LIMITS.maxAliases),
  GRAPHQL_MAX_DIRECTIVES: z.coerce.number().int().min(0).default(DEFAULT_GRAPHQL_LIMITS.maxDirectives),
  GRAPHQL_MAX_TOKENS: z.coerce.number().int().min(1).default(DEFAULT_GRAPHQL_LIMITS.maxTokens),
  GRAPHQL_TIMEOUT_MS: z.coerce.number().int().min(1).default(DEFAULT_GRAPHQL_LIMITS.timeoutMs),
  GRAPHQL_MAX_RESPONSE_MB: z.coerce
    .number()
    .positive()
    .default(DEFAULT_GRAPHQL_LIMITS.maxResponseBytes / 1024 / 1024),
  DOCS_GATEWAY_COMMAND: z.string().trim().min(1).default('npx docs-gateway'),
  CORS_ORIGINS: z
    .string()
    .default('*')
    .transform((value, context) => {
      const parsed = parseCorsOrigins(value);
      if (typeof parsed === 'object' && 'error' in parsed) {
        context.addIssue({ code: 'custom', message: parsed.error });
        return z.NEVER;
      }
      return parsed;
    }),
});

export interface Config {
  databaseUrl: string;
  /** PostgreSQL pool size and waits: for a connection, a statement, a lock (src/db/client.ts). */
  database: Required<Pick<OpenOptions, 'poolSize' | 'connectTimeoutMs' | 'statementTimeoutMs' | 'lockTimeoutMs'>>;
  /** Where uploaded files are stored (src/storage/files.ts). */
  filesDir: string;
  port: number;
  host: string;
  logLevel: string;
  /** pino JSON lines, or the same made readable (pretty); unset: pretty in a terminal, JSON otherwise. */
  logFormat: 'json' | 'pretty' | undefined;
  /** A manifest of GraphQL documents by hash, and whether only those run. */
  persistedOperations: { file: string; only: boolean } | undefined;
  purgeIntervalMs: number;
  /** Memory for cached read responses, in bytes; 0 turns the cache off. */
  responseCacheBytes: number;
  /** Memory for page trees of revisions kept between requests, in bytes; 0 keeps none. */
  pageTreeCacheBytes: number;
  /** Origins whose pages may call the APIs (src/http/cors.ts). */
  corsOrigins: CorsOrigins;
  /** Requests per minute per client, failed authentications per address, and where they are counted (src/http/rate-limit.ts). */
  rateLimits: RateLimits;
  /** Live updates: Redis when set (else PostgreSQL LISTEN/NOTIFY, or in process on SQLite), and the streams one token may hold. */
  events: { redisUrl?: string | undefined; redisPrefix?: string | undefined; limits: Pick<StreamLimits, 'maxPerToken'> };
  /** Fetches made for users (website import, file URLs) may reach private and loopback addresses: local development only. */
  fetchPrivateAddresses: boolean;
  /** Bounds of fetching an OpenAPI spec's source (src/domain/openapi/processing.ts). */
  openApiFetch: { timeoutMs: number; maxBytes: number };
  /** What one GraphQL request may ask for (src/graphql/limits.ts). */
  graphqlLimits: GraphQLLimits;
  urls: PublicUrls;
  /** How the server's hints name this command: `npx docs-gateway` in a checkout; the container image sets its own. */
  command: string;
}

/** Addresses written into `urls` of every object. */
export interface PublicUrls {
  /** Base of this API, e.g. https://docs.example.com (the `/v1` paths are appended). */
  api: string;
  /** Base of the web application the `app` addresses point to. */
  app: string;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: { port?: number } = {}): Config {
  const parsed = Environment.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${problems}`);
  }
  const values = parsed.data;
  if (values.PERSISTED_OPERATIONS_ONLY && !values.PERSISTED_OPERATIONS_FILE) {
    throw new Error('Invalid configuration:\nPERSISTED_OPERATIONS_ONLY: needs PERSISTED_OPERATIONS_FILE, the documents it allows');
  }
  const port = overrides.port ?? values.PORT;
  const api = (values.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
  return {
    databaseUrl: values.DATABASE_URL,
    database: {
      poolSize: values.DATABASE_POOL_SIZE,
      connectTimeoutMs: values.DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: values.DATABASE_STATEMENT_TIMEOUT_MS,
      lockTimeoutMs: values.DATABASE_LOCK_TIMEOUT_MS,
    },
    filesDir: values.FILES_DIR,
    port,
    host: values.HOST,
    logLevel: values.LOG_LEVEL,
    logFormat: values.LOG_FORMAT,
    persistedOperations: values.PERSISTED_OPERATIONS_FILE ? { file: values.PERSISTED_OPERATIONS_FILE, only: values.PERSISTED_OPERATIONS_ONLY } : undefined,
    purgeIntervalMs: values.PURGE_INTERVAL_SECONDS * 1000,
    responseCacheBytes: Math.round(values.RESPONSE_CACHE_MB * 1024 * 1024),
    pageTreeCacheBytes: Math.round(values.CONTENT_CACHE_MB * 1024 * 1024),
    corsOrigins: values.CORS_ORIGINS,
    fetchPrivateAddresses: values.FETCH_PRIVATE_ADDRESSES,
    openApiFetch: { timeoutMs: values.OPENAPI_FETCH_TIMEOUT_MS, maxBytes: Math.round(values.OPENAPI_FETCH_MAX_MB * 1024 * 1024) },
    rateLimits: {
      perMinute: values.RATE_LIMIT_PER_MINUTE,
      failedAuthenticationsPerMinute: values.RATE_LIMIT_FAILED_AUTH_PER_MINUTE,
      redisUrl: values.REDIS_URL,
      redisPrefix: values.REDIS_PREFIX,
    },
    events: { redisUrl: values.REDIS_URL, redisPrefix: values.REDIS_PREFIX, limits: { maxPerToken: values.SUBSCRIPTIONS_PER_TOKEN } },
    graphqlLimits: {
      maxCost: values.GRAPHQL_MAX_COST,
      maxDepth: values.GRAPHQL_MAX_DEPTH,
      maxAliases: values.GRAPHQL_MAX_ALIASES,
      maxDirectives: values.GRAPHQL_MAX_DIRECTIVES,
      maxTokens: values.GRAPHQL_MAX_TOKENS,
      timeoutMs: values.GRAPHQL_TIMEOUT_MS,
      maxResponseBytes: Math.round(values.GRAPHQL_MAX_RESPONSE_MB * 1024 * 1024),
    },
    urls: { api, app: (values.APP_URL ?? `${api}/app`).replace(/\/$/, '') },
    command: values.DOCS_GATEWAY_COMMAND,
  };
}
