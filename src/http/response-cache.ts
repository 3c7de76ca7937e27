import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Database } from '../db/index.ts';
import { COMPRESSION, compressed, requestedEncoding } from './compression.ts';
import { PUBLISHED_TEXT_PATH } from '../rest/published-text.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when this request's response may be cached, and under which key. */
    responseCacheKey: string | null;
  }
}

/**
 * Responses of reads, kept in memory per user and served again while the data
 * they were made of has not changed.
 *
 * Every write bumps the data generation of the scopes its rows belong to — the
 * organization, and for users the user — by database triggers
 * (prisma/generation-triggers.ts): no write path can forget to. The statement
 * that authenticates a request also reads the generations of the user and of
 * each of its organizations, so an answer is served only while all of them are
 * what they were when it was computed, at no extra SQL statement. A write in one
 * organization leaves the answers of every other organization's members cached.
 * An answer that read an organization the user is not a member of (a visitor of
 * its published site) also remembers that organization's generation, read before
 * its data; serving it again costs one statement to check it.
 *
 * An answer that @fastify/compress would compress is compressed once per
 * encoding a client asks for and kept so, rather than again at every hit.
 *
 * Cached: REST GETs and GraphQL queries, answered 200 without errors. Not
 * cached: writes, requests carrying a visitor token (it expires by the clock,
 * not by a write) and GraphQL documents that mention a mutation or subscription.
 */
interface Entry {
  /** Kept encoded: a hit writes the bytes without re-encoding them. */
  body: Buffer;
  contentType: string;
  /** The viewer's generations when it was computed. */
  generation: string;
  /** Organizations read without being a member, each with its generation then. */
  foreign: Array<[scope: string, version: string]>;
  /** The body compressed, per encoding a client has asked for. */
  encoded?: Partial<Record<'br' | 'gzip', Buffer>>;
}

export function registerResponseCache(app: FastifyInstance, options: { maxBytes: number; database: Database }) {
  app.decorateRequest('responseCacheKey', null);
  if (options.maxBytes <= 0) return;
  const entries = new LRUCache<string, Entry>({
    maxSize: options.maxBytes,
    sizeCalculation: (entry, key) =>
      entry.body.length + key.length + entry.generation.length + (entry.encoded?.br?.length ?? 0) + (entry.encoded?.gzip?.length ?? 0),
  });

  /** Whether the organizations an answer read as a visitor are still at their generations. */
  async function foreignUnchanged(foreign: Entry['foreign']): Promise<boolean> {
    if (foreign.length === 0) return true;
    const rows = await options.database.readRows<{ scope: string; version: unknown }>(
      `SELECT "scope", "version" FROM "data_generations" WHERE "scope" IN (${foreign.map((_, i) => `$${i + 1}`).join(', ')})`,
      foreign.map(([scope]) => scope),
    );
    const now = new Map(rows.map((row) => [row.scope, String(row.version)]));
    return foreign.every(([scope, version]) => (now.get(scope) ?? '0') === version);
  }

  app.addHook('preHandler', async (request, reply) => {
    const key = cacheKey(request);
    if (key === null) return;
    const hit = entries.get(key);
    if (hit && hit.generation === request.ctx!.viewer!.generation && (await foreignUnchanged(hit.foreign))) {
      reply.header('content-type', hit.contentType).header('x-cache', 'hit');
      const encoding = hit.body.length >= COMPRESSION.threshold ? requestedEncoding(request, hit.contentType) : undefined;
      if (!encoding) return reply.send(hit.body);
      let body = hit.encoded?.[encoding];
      if (!body) {
        body = await compressed(hit.body, encoding);
        // A new object, so that the cache counts the compressed bytes too; not over a newer answer stored meanwhile.
        if (entries.peek(key) === hit) entries.set(key, { ...hit, encoded: { ...hit.encoded, [encoding]: body } });
      }
      // @fastify/compress leaves an answer that names its encoding as it is.
      const vary = reply.getHeader('vary');
      reply.header('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
      return reply.header('content-encoding', encoding).header('content-length', body.length).send(body);
    }
    request.responseCacheKey = key;
    request.ctx!.foreignScopes = new Map();
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const key = request.responseCacheKey;
    // Text, or the bytes of a GraphQL answer written straight from its compiled plan (src/http/graphql.ts).
    if (key === null || reply.statusCode !== 200 || !(typeof payload === 'string' || Buffer.isBuffer(payload))) return payload;
    if (request.url.startsWith('/graphql') && payload.includes('"errors":[')) return payload;
    const ctx = request.ctx!;
    const foreign = await Promise.all(
      [...(ctx.foreignScopes ?? new Map<string, Promise<string>>()).entries()].map(async ([scope, version]) => [scope, await version] as [string, string]),
    );
    const contentType = String(reply.getHeader('content-type') ?? 'application/json');
    const entry: Entry = { body: typeof payload === 'string' ? Buffer.from(payload) : payload, contentType, generation: ctx.viewer!.generation!, foreign };
    if (entry.body.length + key.length <= options.maxBytes) entries.set(key, entry);
    reply.header('x-cache', 'miss');
    return payload;
  });
}

function cacheKey(request: FastifyRequest): string | null {
  const viewer = request.ctx?.viewer;
  if (!viewer?.generation) return null;
  const scope = `${viewer.user.id}\u0000${request.method}\u0000${request.url}`;
  if (request.url.startsWith('/v1/')) {
    // A published site's text answers with its own ETag and 304s, which a replayed answer would lose.
    if (PUBLISHED_TEXT_PATH.test(request.url)) return null;
    const query = request.query as Record<string, unknown> | undefined;
    if (request.method !== 'GET' || request.headers['x-visitor-token'] !== undefined || query?.visitorToken !== undefined) return null;
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
