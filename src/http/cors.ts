import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CorsOrigins } from '../config.ts';

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
