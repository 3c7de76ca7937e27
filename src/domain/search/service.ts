import { z } from 'zod';
import type { RequestContext } from '../../context.ts';
import { Prisma } from '../../db/index.ts';
import { offsetPage } from '../../lib/pagination.ts';
import { parseInput, queryInt } from '../../lib/validation.ts';
import { pageAppUrl } from '../content/presenter.ts';
import { loadPageTree } from '../content/tree.ts';
import { authorize } from '../access.ts';
import { visibleOrganization } from '../organizations/service.ts';
import { visibleSpace } from '../spaces/service.ts';

/**
 * Full-text search over the pages of each space's live content, with the
 * database's own engine behind one interface: SQLite's FTS5 (bm25) or
 * PostgreSQL's tsvector with a GIN index (ts_rank). A page is indexed as its
 * sections - the text before the first heading, then each heading's text - so
 * that results point at the section that matched, with an excerpt.
 */

export const SearchQuery = z.object({
  query: z.string().min(1).max(512),
  page: z.string().min(1).max(200).optional(),
  limit: queryInt(1, 100).optional(),
});

/** Words of a query (letters and digits), each matched as a prefix; everything else is ignored. */
export function wordsOf(query: string): string[] {
  return (query.normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 16);
}

export interface Hit {
  spaceId: string;
  pageId: string;
  sectionId: string;
  pageTitle: string;
  title: string;
  path: string;
  excerpt: string;
  score: number;
}

/** The best-ranked sections of these spaces matching every word of the query, best first, each with an excerpt. */
async function searchSections(ctx: RequestContext, spaceIds: string[], words: string[], limit: number): Promise<Hit[]> {
  return withExcerpts(ctx, await matchingSections(ctx, spaceIds, words, limit));
}

const EXCERPT_WORDS = 30;
const firstWords = (text: string) => {
  const words = text.split(/\s+/).filter(Boolean);
  return words.length > EXCERPT_WORDS ? `${words.slice(0, EXCERPT_WORDS).join(' ')}\u2026` : words.join(' ');
};

/**
 * Every hit with an excerpt. A section matched by its title alone has no excerpt of its body's
 * words: its body's beginning is taken, and for a section with no body (the part before a page's
 * first heading, when the page begins with one) the beginning of the page's first section that
 * has one (one statement for all such hits), else the page's title.
 */
async function withExcerpts(ctx: RequestContext, hits: Array<Hit & { body: string }>): Promise<Hit[]> {
  const bare = hits.filter((hit) => !hit.excerpt.trim() && !hit.body.trim());
  const firstBodies = new Map<string, string>();
  if (bare.length) {
    const rows = await ctx.db.$queryRaw<Array<{ spaceId: string; pageId: string; body: string }>>(Prisma.sql`
      SELECT "spaceId", "pageId", "body" FROM "search_sections"
      WHERE "pageId" IN (${Prisma.join([...new Set(bare.map((hit) => hit.pageId))])}) AND "body" <> ''
      ORDER BY "position"`);
    for (const row of rows) if (!firstBodies.has(`${row.spaceId}/${row.pageId}`)) firstBodies.set(`${row.spaceId}/${row.pageId}`, row.body);
  }
  return hits.map((hit) => withExcerpt(hit, firstBodies.get(`${hit.spaceId}/${hit.pageId}`)));
}

/** A hit with its excerpt as withExcerpts makes it, given the first body of its page (when its own is empty). */
export function withExcerpt({ body, ...hit }: Hit & { body: string }, firstBody: string | null | undefined): Hit {
  return { ...hit, excerpt: hit.excerpt.trim() ? hit.excerpt : firstWords(body) || firstWords(firstBody ?? '') || hit.pageTitle };
}

async function matchingSections(ctx: RequestContext, spaceIds: string[], words: string[], limit: number): Promise<Array<Hit & { body: string }>> {
  if (!spaceIds.length || !words.length) return [];
  if (ctx.provider === 'sqlite') {
    const match = words.map((word) => `"${word}"*`).join(' ');
    const rows = await ctx.db.$queryRaw<Array<Omit<Hit, 'score'> & { body: string; rank: number }>>(Prisma.sql`
      SELECT "spaceId", "pageId", "sectionId", "pageTitle", "title", "path", "body",
        snippet("search_sections", 2, '', '', char(8230), 24) AS "excerpt", bm25("search_sections", 8.0, 4.0, 1.0) AS "rank"
      FROM "search_sections"
      WHERE "search_sections" MATCH ${match} AND "spaceId" IN (${Prisma.join(spaceIds)})
      ORDER BY "rank" LIMIT ${limit}`);
    return rows.map(({ rank, ...row }) => ({ ...row, score: Math.max(0, -Number(rank)) }));
  }
  const tsquery = words.map((word) => `${word}:*`).join(' & ');
  const rows = await ctx.db.$queryRaw<Array<Omit<Hit, 'score'> & { body: string; rank: number }>>(Prisma.sql`
    SELECT s."spaceId", s."pageId", s."sectionId", s."pageTitle", s."title", s."path", s."body",
      ts_headline('simple', s."body", q, 'StartSel="",StopSel="",MaxWords=30,MinWords=12,ShortWord=2') AS "excerpt",
      ts_rank(s."document", q) AS "rank"
    FROM "search_sections" s, to_tsquery('simple', ${tsquery}) q
    WHERE s."document" @@ q AND s."spaceId" = ANY(${spaceIds})
    ORDER BY "rank" DESC, s."pageId", s."position" LIMIT ${limit}`);
  return rows.map(({ rank, ...row }) => ({ ...row, score: Number(rank) }));
}

/** Sections grouped by page, pages in the order of their best section; descriptions and ancestors from each space's live tree. */
async function pagesOf(hits: Hit[], ctx: RequestContext, revisionOfSpace: Map<string, string>) {
  const spaceIds = [...new Set(hits.map((hit) => hit.spaceId))];
  const trees = new Map(await Promise.all(spaceIds.map(async (id) => [id, await loadPageTree(ctx, revisionOfSpace.get(id)!)] as const)));
  const pages = new Map<string, { hit: Hit; sections: Hit[] }>();
  for (const hit of hits) {
    const key = `${hit.spaceId}/${hit.pageId}`;
    const page = pages.get(key);
    if (page) page.sections.push(hit);
    else pages.set(key, { hit, sections: [hit] });
  }
  return [...pages.values()].map(({ hit, sections }, index) => {
    const options = { urls: ctx.urls, spaceId: hit.spaceId, metadata: false };
    const pageUrl = pageAppUrl(options, hit.pageId);
    const tree = trees.get(hit.spaceId)!;
    const ancestors: Array<{ title: string }> = [];
    for (let parent = tree.pages.get(hit.pageId)?.parentId; parent; parent = tree.pages.get(parent)?.parentId) {
      ancestors.unshift({ title: tree.pages.get(parent)!.title });
    }
    return {
      spaceId: hit.spaceId,
      result: {
        id: hit.pageId,
        title: hit.pageTitle,
        description: tree.pages.get(hit.pageId)?.description ?? '',
        path: hit.path,
        score: hit.score,
        rank: index + 1,
        ancestors,
        resultType: sections.some((section) => section.sectionId === '') ? 'page' : 'section',
        sections: sections.map((section) => ({
          id: section.sectionId || hit.pageId,
          title: section.title,
          path: section.sectionId ? `${hit.path}#${section.sectionId}` : hit.path,
          score: section.score,
          resultType: section.sectionId ? 'section' : 'page',
          body: section.excerpt,
          urls: { app: section.sectionId ? `${pageUrl}#${section.sectionId}` : pageUrl },
        })),
        urls: { app: pageUrl },
      },
    };
  });
}

/** Most sections read for one search: enough for 100 pages of ranked results with their sections. */
export const MAX_HITS = 1000;

export async function searchSpace(ctx: RequestContext, spaceId: string, query: unknown) {
  const { space } = await visibleSpace(ctx, spaceId);
  const params = parseInput(SearchQuery, query, 'query');
  const hits = await searchSections(ctx, [spaceId], wordsOf(params.query), MAX_HITS);
  const pages = await pagesOf(hits, ctx, new Map([[spaceId, space.revisionId]]));
  return offsetPage(
    pages.map((page) => page.result),
    params.page,
    params.limit ?? 20,
    `search:${params.query}`,
  );
}

/** Pages of every space of an organization its member can read, grouped by space (guests are refused). */
export async function searchOrganization(ctx: RequestContext, organizationId: string, query: unknown) {
  const { access } = await visibleOrganization(ctx, organizationId);
  const params = parseInput(SearchQuery, query, 'query');
  // Guests see no content, and are refused organization-wide listings like the others.
  authorize(access.role !== null, "search this organization's content");
  const spaces = await ctx.db.space.findMany({ where: { organizationId, deletedAt: null }, select: { id: true, title: true, revisionId: true } });
  return searchSpacesBySpace(ctx, spaces, params);
}

/**
 * Pages of these spaces' live content matching a query, grouped by space (the official
 * SearchSpaceResult), best first; `shown` leaves out the pages a reader is not shown.
 */
export async function searchSpacesBySpace(
  ctx: RequestContext,
  spaces: Array<{ id: string; title: string; revisionId: string }>,
  params: { query: string; page?: string | undefined; limit?: number | undefined },
  shown: (hit: { spaceId: string; pageId: string }) => Promise<boolean> | boolean = () => true,
) {
  const found = await searchSections(
    ctx,
    spaces.map((space) => space.id),
    wordsOf(params.query),
    MAX_HITS,
  );
  return spaceResultsOf(ctx, spaces, found, params, shown);
}

/** searchSpacesBySpace's answer from the hits (best first) found in these spaces. */
export async function spaceResultsOf(
  ctx: RequestContext,
  spaces: Array<{ id: string; title: string; revisionId: string }>,
  found: Hit[],
  params: { query: string; page?: string | undefined; limit?: number | undefined },
  shown: (hit: { spaceId: string; pageId: string }) => Promise<boolean> | boolean = () => true,
) {
  const allowed = await Promise.all(found.map((hit) => shown(hit)));
  const hits = found.filter((_hit, index) => allowed[index]);
  const titles = new Map(spaces.map((space) => [space.id, space.title]));
  const bySpace = new Map<string, { type: 'space'; id: string; title: string; score: number; pages: unknown[] }>();
  for (const { spaceId, result } of await pagesOf(hits, ctx, new Map(spaces.map((space) => [space.id, space.revisionId])))) {
    const space = bySpace.get(spaceId) ?? { type: 'space' as const, id: spaceId, title: titles.get(spaceId) ?? '', score: result.score, pages: [] };
    space.pages.push(result);
    bySpace.set(spaceId, space);
  }
  return offsetPage([...bySpace.values()], params.page, params.limit ?? 20, `search:${params.query}`);
}

/** The best sections of these spaces (a published site's) for a query: a page's best section first, at most `limit` pages. */
export async function searchSpacesOfSite(
  ctx: RequestContext,
  spaceIds: string[],
  query: string,
  limit: number,
  shown: (hit: { spaceId: string; pageId: string }) => boolean = () => true,
) {
  const hits = await searchSections(ctx, spaceIds, wordsOf(query), MAX_HITS);
  const best = new Map<string, Hit>();
  // Pages the reader is not shown are left out before the best `limit` are taken, not after.
  for (const hit of hits) if (!best.has(`${hit.spaceId}/${hit.pageId}`) && shown(hit)) best.set(`${hit.spaceId}/${hit.pageId}`, hit);
  return [...best.values()].slice(0, limit).map((hit) => ({ spaceId: hit.spaceId, pageId: hit.pageId, section: hit.sectionId, excerpt: hit.excerpt }));
}
