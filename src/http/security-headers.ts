import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Security headers on every answer, as helmet writes them: JSON answers may not
 * be framed, sniffed or run as a page (`default-src 'none'`); resources are
 * `cross-origin` readable, since docs frontends on other origins embed file
 * `downloadURL`s. GraphiQL, a page with scripts and workers of its own,
 * gets the policy of its own below.
 *
 * They are the same for every answer: helmet runs once, at start, and each
 * answer gets the headers it wrote (helmet per request rebuilt them and
 * parsed the policy every time).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = headersWrittenBy(
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
    },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginEmbedderPolicy: false,
  }),
);

export function registerSecurityHeaders(app: FastifyInstance) {
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    done();
  });
}

/** The headers a middleware sets on a response. */
function headersWrittenBy(middleware: (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void) {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string | number) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  middleware({} as IncomingMessage, response as unknown as ServerResponse, (error) => {
    if (error) throw error;
  });
  return Object.freeze(headers);
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
