import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Database } from '../db/index.ts';
import type { GenerationBump } from '../db/generation-feed.ts';
import { COMPRESSION, compressed, requestedEncoding } from './compression.ts';
import { PUBLISHED_TEXT_PATH } from '../rest/published-text.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when this request's response may be cached, and under which key. */
    responseCacheKey: string | null;
    /** The announcement clock when this request began (null: the generation feed was not live). */
    responseCacheTick: number | null;
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
 * Finer: an answer of a route that reads one space (ONE_SPACE_ROUTES), which
 * noted reading that space and no other (ctx.spaceReads), depends only on the
 * space's scope (`s:<space>`: its row and content), its organization's own
 * rows (`o:<organization>`: members, teams, grants, collections...) and its
 * user, not on the whole organization: a write in another space of the
 * organization leaves it cached. Those scopes are checked against the bumps
 * this process has heard (the generation feed, as the viewer cache uses it):
 * an answer is served while none of its scopes was bumped since its request
 * began, at no statement either.
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
  /** Instead of `generation`: the scopes it depends on, and the announcement clock when its request began. */
  fine?: { scopes: string[]; tick: number };
  /** Organizations read without being a member, each with its generation then. */
  foreign: Array<[scope: string, version: string]>;
  /** The body compressed, per encoding a client has asked for. */
  encoded?: Partial<Record<'br' | 'gzip', Buffer>>;
}

export function registerResponseCache(app: FastifyInstance, options: { maxBytes: number; database: Database }) {
  app.decorateRequest('responseCacheKey', null);
  app.decorateRequest('responseCacheTick', null);
  if (options.maxBytes <= 0) return;
  const entries = new LRUCache<string, Entry>({
    maxSize: options.maxBytes,
    sizeCalculation: (entry, key) =>
      entry.body.length +
      key.length +
      entry.generation.length +
      (entry.fine?.scopes.join('').length ?? 0) +
      (entry.encoded?.br?.length ?? 0) +
      (entry.encoded?.gzip?.length ?? 0),
  });

  const bumps = bumpClock();
  const unsubscribe = options.database.generations.subscribe(bumps.heard);
  app.addHook('onClose', async () => unsubscribe());
  const feedLive = () => options.database.generations.live;

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
    const fresh =
      hit &&
      (hit.fine
        ? feedLive() && bumps.unchangedSince(hit.fine.scopes, hit.fine.tick)
        : hit.generation === request.ctx!.viewer!.generation && (await foreignUnchanged(hit.foreign)));
    if (hit && fresh) {
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
    request.responseCacheTick = feedLive() ? bumps.now() : null;
    request.ctx!.foreignScopes = new Map();
    request.ctx!.spaceReads = new Map();
    request.ctx!.standIns = new Set();
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const key = request.responseCacheKey;
    // Text, or the bytes of a GraphQL answer written straight from its compiled plan (src/http/graphql.ts).
    if (key === null || reply.statusCode !== 200 || !(typeof payload === 'string' || Buffer.isBuffer(payload))) return payload;
    if (request.ctx!.standIns?.size) return payload;
    if (request.url.startsWith('/graphql') && payload.includes('"errors":[')) return payload;
    const ctx = request.ctx!;
    const foreign = await Promise.all(
      [...(ctx.foreignScopes ?? new Map<string, Promise<string>>()).entries()].map(async ([scope, version]) => [scope, await version] as [string, string]),
    );
    const contentType = String(reply.getHeader('content-type') ?? 'application/json');
    const fine = request.responseCacheTick !== null && foreign.length === 0 ? oneSpaceScopes(request) : null;
    const entry: Entry = {
      body: typeof payload === 'string' ? Buffer.from(payload) : payload,
      contentType,
      generation: ctx.viewer!.generation!,
      foreign,
      ...(fine ? { fine: { scopes: fine, tick: request.responseCacheTick! } } : {}),
    };
    if (entry.body.length + key.length <= options.maxBytes) entries.set(key, entry);
    reply.header('x-cache', 'miss');
    return payload;
  });
}

/**
 * REST reads of one space whose every read of the database is of that space's
 * rows and content, its organization's own rows (members, teams, grants,
 * collections, custom fields) or users: Fastify's patterns. Not here (so
 * depending on the whole organization): reads that can show other spaces
 * (page documents and links, which resolve references; search), and anything
 * not checked yet.
 */
const ONE_SPACE_ROUTES = new Set([
  '/v1/spaces/:spaceId',
  '/v1/spaces/:spaceId/content',
  '/v1/spaces/:spaceId/content/pages',
  '/v1/spaces/:spaceId/change-requests',
  '/v1/spaces/:spaceId/change-requests/:changeRequestId',
  '/v1/spaces/:spaceId/comments',
  '/v1/spaces/:spaceId/comments/:commentId',
  '/v1/spaces/:spaceId/comments/:commentId/replies',
  '/v1/spaces/:spaceId/custom-fields',
]);

/** The scopes of an answer that read one space only (ONE_SPACE_ROUTES), or null: it depends on its organizations as a whole. */
function oneSpaceScopes(request: FastifyRequest): string[] | null {
  if (request.method !== 'GET' || !ONE_SPACE_ROUTES.has(request.routeOptions.url ?? '')) return null;
  const spaceId = (request.params as Record<string, string | undefined>).spaceId;
  const reads = request.ctx!.spaceReads;
  if (!spaceId || reads?.size !== 1) return null;
  const organizationId = reads.get(spaceId);
  if (organizationId === undefined) return null;
  return [request.ctx!.viewer!.user.id, `s:${spaceId}`, `o:${organizationId}`];
}

/**
 * When each scope was last bumped, on a clock of this process's own that moves
 * with every announcement the generation feed delivers. A scope forgotten (the
 * least recently bumped go first) or a reset counts as bumped then (`floor`).
 */
function bumpClock(maxScopes = 200_000) {
  let tick = 0;
  let floor = 0;
  const last = new LRUCache<string, number>({
    max: maxScopes,
    dispose: (bumpedAt, _scope, reason) => {
      if (reason === 'evict') floor = Math.max(floor, bumpedAt);
    },
  });
  return {
    now: () => tick,
    heard: (announced: readonly GenerationBump[]) => {
      tick++;
      for (const { scope } of announced) {
        if (scope === '*') {
          floor = tick;
          last.clear();
        } else last.set(scope, tick);
      }
    },
    /** Whether none of the scopes was bumped after `since`. */
    unchangedSince: (scopes: readonly string[], since: number) => since >= floor && scopes.every((scope) => (last.get(scope) ?? floor) <= since),
  };
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
