import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Security headers on every answer (@fastify/helmet): JSON answers may not be
 * framed, sniffed or run as a page (`default-src 'none'`); resources are
 * `cross-origin` readable, since docs frontends on other origins embed file
 * `downloadURL`s. GraphiQL, a page with scripts and workers of its own,
 * gets the policy of its own below.
 */
export async function registerSecurityHeaders(app: FastifyInstance) {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
    },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
}

/**
 * The GraphiQL page: scripts and editor workers from this server only (none
 * inline); its styles are partly inline; it talks to this server only.
 */
export const GRAPHIQL_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "worker-src 'self'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');
