import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when this request's response may be cached, and under which key. */
    responseCacheKey: string | null;
  }
}

/**
 * Responses of reads, kept in memory per user and served again while the data
 * has not changed.
 *
 * Every write to a table bumps one counter in the database, `data_generation`,
 * by a trigger (prisma/migrations): no write path can forget to. The statement
 * that authenticates a request also reads the counter, so a cached response is
 * served only if it was computed at the current generation — never stale after
 * a write, whichever instance made it, at no extra SQL statement. The price is
 * coarseness: any write anywhere invalidates every entry.
 *
 * Cached: REST GETs and GraphQL queries, answered 200 without errors. Not
 * cached: writes, requests carrying a visitor token (it expires by the clock,
 * not by a write) and GraphQL documents that mention a mutation or subscription.
 */
export function registerResponseCache(app: FastifyInstance, options: { maxBytes: number }) {
  app.decorateRequest('responseCacheKey', null);
  if (options.maxBytes <= 0) return;
  // Bodies are kept encoded: a hit writes the bytes without re-encoding them.
  const entries = new LRUCache<string, { body: Buffer; contentType: string }>({
    maxSize: options.maxBytes,
    sizeCalculation: (entry, key) => entry.body.length + key.length,
  });

  app.addHook('preHandler', async (request, reply) => {
    const key = cacheKey(request);
    if (key === null) return;
    const hit = entries.get(key);
    if (hit) return reply.header('content-type', hit.contentType).header('x-cache', 'hit').send(hit.body);
    request.responseCacheKey = key;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const key = request.responseCacheKey;
    if (key === null || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    if (request.url.startsWith('/graphql') && payload.includes('"errors":[')) return payload;
    const contentType = String(reply.getHeader('content-type') ?? 'application/json');
    const body = Buffer.from(payload);
    if (body.length + key.length <= options.maxBytes) entries.set(key, { body, contentType });
    reply.header('x-cache', 'miss');
    return payload;
  });
}

function cacheKey(request: FastifyRequest): string | null {
  const viewer = request.ctx?.viewer;
  if (!viewer?.generation) return null;
  const scope = `${viewer.user.id}\u0000${viewer.generation}\u0000${request.method}\u0000${request.url}`;
  if (request.url.startsWith('/v1/')) {
    if (request.method !== 'GET' || request.headers['x-visitor-token'] !== undefined) return null;
    return scope;
  }
  if (request.url.startsWith('/graphql') && (request.method === 'POST' || request.method === 'GET')) {
    const body = request.method === 'POST' ? JSON.stringify(request.body ?? null) : '';
    const document = request.method === 'POST' ? body : request.url;
    if (/\b(mutation|subscription|visitorToken)\b/.test(document)) return null;
    return `${scope}\u0000${request.headers.accept ?? ''}\u0000${body}`;
  }
  return null;
}
