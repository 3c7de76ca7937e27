import { z } from 'zod';
import { type CorsOrigins, parseCorsOrigins } from './cors.ts';

/** Every environment variable docs-gateway reads, validated once at start. */
const Environment = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^(file:|postgres(ql)?:\/\/)/, 'must start with file: (SQLite) or postgresql:// (PostgreSQL)')
    .default('file:./data/docs-gateway.db'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_URL: z.url().optional(),
  APP_URL: z.url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PURGE_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(3600),
  RESPONSE_CACHE_MB: z.coerce.number().min(0).max(65536).default(64),
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
  port: number;
  host: string;
  logLevel: string;
  purgeIntervalMs: number;
  /** Memory for cached read responses, in bytes; 0 turns the cache off. */
  responseCacheBytes: number;
  /** Origins whose pages may call the APIs (src/cors.ts). */
  corsOrigins: CorsOrigins;
  urls: PublicUrls;
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
  const port = overrides.port ?? values.PORT;
  const api = (values.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
  return {
    databaseUrl: values.DATABASE_URL,
    port,
    host: values.HOST,
    logLevel: values.LOG_LEVEL,
    purgeIntervalMs: values.PURGE_INTERVAL_SECONDS * 1000,
    responseCacheBytes: Math.round(values.RESPONSE_CACHE_MB * 1024 * 1024),
    corsOrigins: values.CORS_ORIGINS,
    urls: { api, app: (values.APP_URL ?? `${api}/app`).replace(/\/$/, '') },
  };
}
