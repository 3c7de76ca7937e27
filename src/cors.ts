import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';

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

/** Response headers a script of another origin may read. */
const EXPOSED_HEADERS = ['location', 'x-cache', 'retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

/**
 * Registers CORS before authentication: preflights (OPTIONS, which browsers
 * send without the `Authorization` header) are answered here and never reach it.
 */
export async function registerCors(app: FastifyInstance, origins: CorsOrigins) {
  await app.register(cors, {
    hook: 'onRequest',
    delegator: (request, callback) =>
      callback(null, {
        origin: exposesSecrets(request) ? false : origins === '*' ? '*' : origins,
        methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
        exposedHeaders: EXPOSED_HEADERS,
        credentials: false,
        // Browsers cache a preflight for at most this long (Chromium caps it at 2 h).
        maxAge: 7200,
      }),
  });
}

/**
 * The GraphiQL page may embed the demo token: no other origin may read it, so a
 * website open in the same browser cannot lift the token from a local server.
 */
function exposesSecrets(request: FastifyRequest): boolean {
  return request.method === 'GET' && request.url.split('?')[0] === '/graphql' && (request.headers.accept ?? '').includes('text/html');
}

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
