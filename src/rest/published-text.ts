import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PublicUrls } from '../config.ts';
import { notFound } from '../errors.ts';
import { llmsFull, llmsIndex, pageMarkdown, publishedPageAt, publishedText } from '../domain/sites/llms.ts';
import { withVisitorToken } from '../domain/sites/published.ts';

/** Where a published site's text lives for API clients and assistants. */
export const PUBLISHED_TEXT_PATH = /^\/v1\/orgs\/[^/]+\/sites\/[^/]+\/published\/./;

/**
 * A published site as text (src/domain/sites/llms.ts): `…/published/llms.txt`,
 * `…/published/llms-full.txt` and `…/published/<page address>.md`. A token is
 * optional here: without one the reader is a visitor of the site, as an
 * assistant fetching a public site's `llms.txt` is; share keys and visitor tokens
 * open what they open in `…/published`. Answers carry an ETag (304 when it
 * matches) and are compressed like any answer.
 */
export function registerPublishedText(app: FastifyInstance, { urls }: { urls: PublicUrls }) {
  app.get<{ Params: { organizationId: string; siteId: string; '*': string } }>('/v1/orgs/:organizationId/sites/:siteId/published/*', async (request, reply) => {
    const { organizationId, siteId, '*': address } = request.params;
    const ctx = request.ctx!;
    const text = await publishedText(
      ctx,
      organizationId,
      siteId,
      withVisitorToken(request.query as Record<string, unknown>, request.headers['x-visitor-token'] as string | undefined),
    );
    const base = `${urls.api}/v1/orgs/${organizationId}/sites/${siteId}/published`;
    if (address === 'llms.txt') return send(request, reply, 'text/plain; charset=utf-8', llmsIndex(text, base));
    if (address === 'llms-full.txt') return send(request, reply, 'text/plain; charset=utf-8', await llmsFull(ctx, text, base));
    if (address.endsWith('.md'))
      return send(request, reply, 'text/markdown; charset=utf-8', await pageMarkdown(ctx, publishedPageAt(text, address.slice(0, -3))));
    throw notFound('Published address', address);
  });
}

function send(request: FastifyRequest, reply: FastifyReply, contentType: string, body: string) {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  reply.header('etag', etag).header('cache-control', 'private, no-cache').header('vary', 'Authorization, X-Visitor-Token');
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  return reply.type(contentType).send(body);
}
