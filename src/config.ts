import { z } from 'zod';
import { DATABASE_DEFAULTS, type OpenOptions } from './db/client.ts';
import { DEFAULT_STREAM_LIMITS, type StreamLimits } from './events/streams.ts';
import type { S3StorageOptions } from './storage/s3.ts';
import { DEFAULT_WORKER_POOL, type WorkerPoolOptions } from './workers/pool.ts';
import { DEFAULT_PARSE_BUDGET_MS } from './domain/content/model/budgets.ts';
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from './lib/webhook-settings.ts';

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

/** The database when `DATABASE_URL` is unset: a SQLite file under the working directory. */
export const DEFAULT_DATABASE_URL = 'file:./data/docs-gateway.db';

/** Every environment variable docs-gateway reads, validated once at start. */
const Environment = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^(file:|postgres(ql)?:\/\/)/, 'must start with file: (SQLite) or postgresql:// (PostgreSQL)')
    .default(DEFAULT_DATABASE_URL),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(DATABASE_DEFAULTS.poolSize),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(1).default(DATABASE_DEFAULTS.connectTimeoutMs),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(1).default(DATABASE_DEFAULTS.statementTimeoutMs),
  DATABASE_LOCK_TIMEOUT_MS: z.coerce.number().int().min(1).default(DATABASE_DEFAULTS.lockTimeoutMs),
  FILES_DIR: z.string().min(1).default('./data/files'),
  FILES_STORAGE: z.enum(['disk', 's3'], { error: 'must be disk or s3' }).default('disk'),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name: 3 to 63 lowercase letters, digits, dots or hyphens')
    .optional(),
  S3_PREFIX: z
    .string()
    .regex(/^([\w.-]+\/)*$/, 'must be empty or folders ending with /, e.g. docs-gateway/')
    .default(''),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: z.url().optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .default('false')
    .transform((value) => value === 'true' || value === '1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
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
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(0).max(36500).default(365),
  RESPONSE_CACHE_MB: z.coerce.number().min(0).max(65536).default(64),
  CONTENT_CACHE_MB: z.coerce.number().min(0).max(65536).default(64),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(DEFAULT_RATE_LIMITS.perMinute),
  RATE_LIMIT_FAILED_AUTH_PER_MINUTE: z.coerce.number().int().min(0).default(DEFAULT_RATE_LIMITS.failedAuthenticationsPerMinute),
  FETCH_PRIVATE_ADDRESSES: z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .default('false')
    .transform((value) => value === 'true' || value === '1'),
  WEBHOOK_RETRY_SCHEDULE_SECONDS: z
    .string()
    .default(DEFAULT_WEBHOOK_SETTINGS.retryScheduleMs.map((ms) => ms / 1000).join(','))
    .transform((value, context) => {
      const waits = value.trim() === '' ? [] : value.split(',').map((part) => Number(part.trim()));
      if (waits.some((wait) => !Number.isFinite(wait) || wait <= 0) || waits.length > 50) {
        context.addIssue({ code: 'custom', message: 'must be up to 50 positive numbers of seconds, comma-separated (e.g. 5,300,1800)' });
        return z.NEVER;
      }
      return waits.map((wait) => Math.round(wait * 1000));
    }),
  WEBHOOK_TIMEOUT_SECONDS: z.coerce
    .number()
    .positive()
    .max(300)
    .default(DEFAULT_WEBHOOK_SETTINGS.timeoutMs / 1000),
  WEBHOOK_DISABLE_AFTER_SECONDS: z.coerce
    .number()
    .positive()
    .default(DEFAULT_WEBHOOK_SETTINGS.disableAfterMs / 1000),
  WEBHOOK_SECRET_OVERLAP_SECONDS: z.coerce
    .number()
    .min(0)
    .default(DEFAULT_WEBHOOK_SETTINGS.secretOverlapMs / 1000),
  WEBHOOK_SWEEP_INTERVAL_SECONDS: z.coerce
    .number()
    .positive()
    .max(3600)
    .default(DEFAULT_WEBHOOK_SETTINGS.sweepIntervalMs / 1000),
  OPENAPI_FETCH_TIMEOUT_MS: z.coerce.number().int().min(1).default(20_000),
  OPENAPI_FETCH_MAX_MB: z.coerce.number().positive().max(1024).default(10),
  GIT_CACHE_DIR: z.string().min(1).default('./data/git'),
  GIT_MAX_REPO_MB: z.coerce.number().positive().max(65536).default(100),
  GIT_MAX_FILE_MB: z.coerce.number().positive().max(1024).default(10),
  GIT_MAX_PAGES: z.coerce.number().int().min(1).default(5000),
  GIT_TIMEOUT_MS: z.coerce.number().int().min(1).default(60_000),
  GIT_CREDENTIALS_KEY: z
    .string()
    .regex(/^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, 'must be 32 bytes as 64 hex digits or base64 (openssl rand -base64 32)')
    .optional(),
  GIT_POLL_INTERVAL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(300),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  REDIS_PREFIX: z
    .string()
    .regex(/^[\w.:-]{1,64}$/, 'must be 1 to 64 letters, digits, _ . : or -')
    .default('docs-gateway'),
  SUBSCRIPTIONS_PER_TOKEN: z.coerce.number().int().min(0).max(10_000).default(DEFAULT_STREAM_LIMITS.maxPerToken),
  SUBSCRIPTIONS_PER_USER: z.coerce.number().int().min(0).max(100_000).default(DEFAULT_STREAM_LIMITS.maxPerUser),
  SUBSCRIPTIONS_PER_ADDRESS: z.coerce.number().int().min(0).max(1_000_000).default(DEFAULT_STREAM_LIMITS.maxPerAddress),
  SUBSCRIPTION_IDLE_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 3600)
    .default(DEFAULT_STREAM_LIMITS.idleMs / 1000),
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
  WORKER_THREADS: z.coerce.number().int().min(1).max(256).default(DEFAULT_WORKER_POOL.threads),
  WORKER_MEMORY_MB: z.coerce.number().int().min(128).max(65536).default(DEFAULT_WORKER_POOL.memoryMb),
  PAGE_PARSE_BUDGET_MS: z.coerce.number().int().min(100).max(600_000).default(DEFAULT_PARSE_BUDGET_MS),
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
  SAML_REDIRECT_ORIGINS: z
    .string()
    .default('')
    .transform((value, context) => {
      const parsed = value.trim() === '*' ? { error: '"*" is not allowed: name each origin a sign-in may hand its token to' } : parseCorsOrigins(value);
      if (typeof parsed === 'object' && 'error' in parsed) {
        context.addIssue({ code: 'custom', message: parsed.error });
        return z.NEVER;
      }
      return parsed as string[];
    }),
});

export interface Config {
  databaseUrl: string;
  /** PostgreSQL pool size and waits: for a connection, a statement, a lock (src/db/client.ts). */
  database: Required<Pick<OpenOptions, 'poolSize' | 'connectTimeoutMs' | 'statementTimeoutMs' | 'lockTimeoutMs'>>;
  /** Where uploaded files are stored on local disk (src/storage/files.ts), and the copy command's source. */
  filesDir: string;
  /** Where files are kept: that folder, or an S3-compatible bucket (src/storage/s3.ts). */
  fileStorage: { kind: 'disk'; dir: string } | ({ kind: 's3' } & S3StorageOptions);
  port: number;
  host: string;
  logLevel: string;
  /** pino JSON lines, or the same made readable (pretty); unset: pretty in a terminal, JSON otherwise. */
  logFormat: 'json' | 'pretty' | undefined;
  /** A manifest of GraphQL documents by hash, and whether only those run. */
  persistedOperations: { file: string; only: boolean } | undefined;
  purgeIntervalMs: number;
  /** How long audit events are kept, in days; 0 keeps them for ever. */
  auditRetentionDays: number;
  /** Memory for cached read responses, in bytes; 0 turns the cache off. */
  responseCacheBytes: number;
  /** Memory for page trees of revisions kept between requests, in bytes; 0 keeps none. */
  pageTreeCacheBytes: number;
  /** Origins whose pages may call the APIs (src/http/cors.ts). */
  corsOrigins: CorsOrigins;
  /** Origins a SAML sign-in may hand its new token to, in the fragment of its `redirect` (src/domain/saml/sign-in.ts); empty: none. */
  samlRedirectOrigins: string[];
  /** Requests per minute per client, failed authentications per address, and where they are counted (src/http/rate-limit.ts). */
  rateLimits: RateLimits;
  /** Live updates: Redis when set (else PostgreSQL LISTEN/NOTIFY, or in process on SQLite), the streams a token, a user and an address may hold, and how long one may stay silent. */
  events: {
    redisUrl?: string | undefined;
    redisPrefix?: string | undefined;
    limits: Pick<StreamLimits, 'maxPerToken' | 'maxPerUser' | 'maxPerAddress' | 'idleMs'>;
  };
  /** Fetches made for users (website import, file URLs) may reach private and loopback addresses: local development only. */
  fetchPrivateAddresses: boolean;
  /** Bounds of fetching an OpenAPI spec's source (src/domain/openapi/processing.ts). */
  openApiFetch: { timeoutMs: number; maxBytes: number };
  /** Git sync: where clone caches are kept, and what a repository may hold (src/domain/git/). */
  gitSync: {
    cacheDir: string;
    limits: { maxRepoBytes: number; maxFileBytes: number; maxPages: number; timeoutMs: number };
    credentialsKey?: Buffer;
    pollIntervalMs: number;
  };
  /** How webhooks are delivered: retries, time limit, disabling, secret overlap, sweep interval (src/domain/webhooks/delivery.ts). */
  webhooks: WebhookSettings;
  /** What one GraphQL request may ask for (src/graphql/limits.ts). */
  graphqlLimits: GraphQLLimits;
  /** The threads of the worker pool and the memory of each (src/workers/pool.ts). */
  workerPool: Pick<WorkerPoolOptions, 'threads' | 'memoryMb'>;
  /** The most reading or writing one large page body may take on the worker pool (src/domain/content/bodies.ts). */
  parseBudgetMs: number;
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
  if (values.FILES_STORAGE === 's3' && !values.S3_BUCKET) {
    throw new Error('Invalid configuration:\nS3_BUCKET: needed with FILES_STORAGE=s3, the bucket that keeps the files');
  }
  if (Boolean(values.S3_ACCESS_KEY_ID) !== Boolean(values.S3_SECRET_ACCESS_KEY)) {
    throw new Error('Invalid configuration:\nS3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY: give both, or neither (the AWS SDK then finds credentials itself)');
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
    fileStorage:
      values.FILES_STORAGE === 's3'
        ? {
            kind: 's3',
            bucket: values.S3_BUCKET!,
            prefix: values.S3_PREFIX,
            region: values.S3_REGION,
            endpoint: values.S3_ENDPOINT,
            forcePathStyle: values.S3_FORCE_PATH_STYLE,
            credentials: values.S3_ACCESS_KEY_ID ? { accessKeyId: values.S3_ACCESS_KEY_ID, secretAccessKey: values.S3_SECRET_ACCESS_KEY! } : undefined,
          }
        : { kind: 'disk', dir: values.FILES_DIR },
    port,
    host: values.HOST,
    logLevel: values.LOG_LEVEL,
    logFormat: values.LOG_FORMAT,
    persistedOperations: values.PERSISTED_OPERATIONS_FILE ? { file: values.PERSISTED_OPERATIONS_FILE, only: values.PERSISTED_OPERATIONS_ONLY } : undefined,
    purgeIntervalMs: values.PURGE_INTERVAL_SECONDS * 1000,
    auditRetentionDays: values.AUDIT_RETENTION_DAYS,
    responseCacheBytes: Math.round(values.RESPONSE_CACHE_MB * 1024 * 1024),
    pageTreeCacheBytes: Math.round(values.CONTENT_CACHE_MB * 1024 * 1024),
    corsOrigins: values.CORS_ORIGINS,
    samlRedirectOrigins: values.SAML_REDIRECT_ORIGINS,
    fetchPrivateAddresses: values.FETCH_PRIVATE_ADDRESSES,
    webhooks: {
      retryScheduleMs: values.WEBHOOK_RETRY_SCHEDULE_SECONDS,
      timeoutMs: Math.round(values.WEBHOOK_TIMEOUT_SECONDS * 1000),
      disableAfterMs: Math.round(values.WEBHOOK_DISABLE_AFTER_SECONDS * 1000),
      secretOverlapMs: Math.round(values.WEBHOOK_SECRET_OVERLAP_SECONDS * 1000),
      sweepIntervalMs: Math.round(values.WEBHOOK_SWEEP_INTERVAL_SECONDS * 1000),
    },
    openApiFetch: { timeoutMs: values.OPENAPI_FETCH_TIMEOUT_MS, maxBytes: Math.round(values.OPENAPI_FETCH_MAX_MB * 1024 * 1024) },
    gitSync: {
      cacheDir: values.GIT_CACHE_DIR,
      limits: {
        maxRepoBytes: Math.round(values.GIT_MAX_REPO_MB * 1024 * 1024),
        maxFileBytes: Math.round(values.GIT_MAX_FILE_MB * 1024 * 1024),
        maxPages: values.GIT_MAX_PAGES,
        timeoutMs: values.GIT_TIMEOUT_MS,
      },
      ...(values.GIT_CREDENTIALS_KEY
        ? { credentialsKey: Buffer.from(values.GIT_CREDENTIALS_KEY, values.GIT_CREDENTIALS_KEY.length === 64 ? 'hex' : 'base64') }
        : {}),
      pollIntervalMs: values.GIT_POLL_INTERVAL_SECONDS * 1000,
    },
    rateLimits: {
      perMinute: values.RATE_LIMIT_PER_MINUTE,
      failedAuthenticationsPerMinute: values.RATE_LIMIT_FAILED_AUTH_PER_MINUTE,
      redisUrl: values.REDIS_URL,
      redisPrefix: values.REDIS_PREFIX,
    },
    events: {
      redisUrl: values.REDIS_URL,
      redisPrefix: values.REDIS_PREFIX,
      limits: {
        maxPerToken: values.SUBSCRIPTIONS_PER_TOKEN,
        maxPerUser: values.SUBSCRIPTIONS_PER_USER,
        maxPerAddress: values.SUBSCRIPTIONS_PER_ADDRESS,
        idleMs: values.SUBSCRIPTION_IDLE_SECONDS * 1000,
      },
    },
    graphqlLimits: {
      maxCost: values.GRAPHQL_MAX_COST,
      maxDepth: values.GRAPHQL_MAX_DEPTH,
      maxAliases: values.GRAPHQL_MAX_ALIASES,
      maxDirectives: values.GRAPHQL_MAX_DIRECTIVES,
      maxTokens: values.GRAPHQL_MAX_TOKENS,
      timeoutMs: values.GRAPHQL_TIMEOUT_MS,
      maxResponseBytes: Math.round(values.GRAPHQL_MAX_RESPONSE_MB * 1024 * 1024),
    },
    workerPool: { threads: values.WORKER_THREADS, memoryMb: values.WORKER_MEMORY_MB },
    parseBudgetMs: values.PAGE_PARSE_BUDGET_MS,
    urls: { api, app: (values.APP_URL ?? `${api}/app`).replace(/\/$/, '') },
    command: values.DOCS_GATEWAY_COMMAND,
  };
}
