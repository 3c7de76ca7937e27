import { sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { RequestContext } from '../../context.ts';
import { invalid, notFound } from '../../errors.ts';
import { queryInt, parseInput } from '../../lib/validation.ts';
import { type PageRow, type PageState, loadPageTree, pageStateOf, pageTrees, treeOf } from '../content/tree.ts';
import { loader } from '../loaders.ts';
import { preparedRead, recordOf, reviveRecord, shapeOf, slot, sqlOf } from '../reads.ts';
import { type Hit, MAX_HITS, spaceResultsOf, withExcerpt, wordsOf } from '../search/service.ts';
import { type SiteHeadAnswer, pageShownTo, primeSiteHead, shownTo, siteAudience, siteHeadColumns } from './published.ts';

/**
 * `searchSiteContent`: the full-text index of the live content of the spaces a
 * site shows, under the reader's rules: members search every site space; a
 * visitor of a published site only those shown to it, and only the pages its
 * claims show. The scope picks the site spaces (the official SiteSearchScope).
 */

const id = z.string().min(1).max(100);
const siteSpaceIds = z.array(id).min(1).max(100);

export const SiteSearchInput = z.union([
  z.strictObject({
    query: z.string().min(1).max(512),
    scope: z.union([
      z.strictObject({ mode: z.literal('default'), currentSiteSpace: id.optional(), restrictTo: z.enum(['currentSiteSpace', 'otherSiteSpaces']).optional() }),
      z.strictObject({ mode: z.literal('specific'), siteSpaceIds }),
      z.strictObject({ mode: z.literal('all') }),
    ]),
  }),
  z.strictObject({ query: z.string().min(1).max(512), mode: z.literal('specific').optional(), siteSpaceIds }),
  z.strictObject({ query: z.string().min(1).max(512), mode: z.literal('current'), siteSpaceId: id }),
  z.strictObject({ query: z.string().min(1).max(512), mode: z.literal('all') }),
]);

export const SiteSearchQuery = z.object({ page: z.string().min(1).max(200).optional(), limit: queryInt(1, 100).optional() });

interface SearchAnswer extends SiteHeadAnswer {
  sections: Array<{ id: string; condition: string | null }>;
  siteSpaces: Array<{
    id: string;
    sectionId: string | null;
    isDefault: boolean;
    condition: string | null;
    space: { id: string; title: string; revisionId: string; deleted: boolean };
  }>;
  /** The best sections of each live space of the site matching the query, best first overall. */
  hits: Array<Omit<Hit, 'excerpt' | 'score'> & { rank: number; body: string; excerpt: string | null; firstBody: string | null }>;
  /** The revisions whose trees are read below (those of spaces with hits, unless kept here). */
  pageRevisions: string[] | null;
  pages: Array<
    Omit<PageRow, 'pageId' | 'parentId' | 'position' | 'versionId'> & {
      entry: Pick<PageRow, 'pageId' | 'parentId' | 'position' | 'versionId'> & { revisionId: string };
    }
  > | null;
}

interface SearchValues extends Record<string, unknown> {
  siteId: string;
  /** The query as the database's engine takes it (wordsOf, each word a prefix). */
  match: string;
  keptRevisions: string[];
}

/**
 * A site, its sections and site spaces (conditions evaluated after, in JS), the hits of the
 * query in every live space the site shows (at most MAX_HITS per space: whichever of them the
 * scope picks, its best MAX_HITS are among them), and the page trees of the spaces hit, unless
 * kept here: one statement (src/domain/reads.ts). `withWords` false: no search (a query without
 * words finds nothing).
 */
const searchStatement = (withWords: boolean) =>
  preparedRead<SearchAnswer, SearchValues>((ctx) => {
    const { json } = sqlOf(ctx);
    const sqlite = ctx.provider === 'sqlite';
    const candidates = sql`SELECT cs."spaceId" FROM "site_spaces" AS cs JOIN "spaces" AS cp ON cp."id" = cs."spaceId"
      WHERE cs."siteId" = ${slot('siteId')} AND cp."deletedAt" IS NULL`;
    const matched = !withWords
      ? sql`SELECT "spaceId", "pageId", "sectionId", "pageTitle", "title", "path", "body", "position", "body" AS "excerpt", 0 AS "rank" FROM "search_sections" WHERE 1 = 0`
      : sqlite
        ? sql`SELECT "spaceId", "pageId", "sectionId", "pageTitle", "title", "path", "body", "position",
          snippet("search_sections", 2, '', '', char(8230), 24) AS "excerpt", bm25("search_sections", 8.0, 4.0, 1.0) AS "rank"
          FROM "search_sections" WHERE "search_sections" MATCH ${slot('match')} AND "spaceId" IN (${candidates})`
        : sql`SELECT s."spaceId", s."pageId", s."sectionId", s."pageTitle", s."title", s."path", s."body", s."position",
          ts_headline('simple', s."body", q, 'StartSel="",StopSel="",MaxWords=30,MinWords=12,ShortWord=2') AS "excerpt",
          ts_rank(s."document", q) AS "rank"
          FROM "search_sections" s, to_tsquery('simple', ${slot('match')}) q WHERE s."document" @@ q AND s."spaceId" IN (${candidates})`;
    // Best first: bm25 is lower for better matches, ts_rank higher.
    const best = (alias: string) =>
      sql`${sql.ref(`${alias}.rank`)} ${sql.raw(sqlite ? 'ASC' : 'DESC')}, ${sql.ref(`${alias}.pageId`)}, ${sql.ref(`${alias}.position`)}`;
    const hit = json.object([
      ...(['spaceId', 'pageId', 'sectionId', 'pageTitle', 'title', 'path', 'body', 'excerpt', 'rank'] as const).map(
        (name) => [name, sql.ref(`h.${name}`)] as const,
      ),
      ['firstBody', sql.ref('fb.body')],
    ]);
    const version = recordOf(ctx, 'page_versions', 'v');
    const pageObject = json.object([
      ['entry', json.object(['revisionId', 'pageId', 'parentId', 'position', 'versionId'].map((name) => [name, sql.ref(`e.${name}`)] as const))],
      ...version.shape.columns
        .filter((column) => column.name !== 'pageId')
        .map(({ name, kind }) => {
          const column = sql.ref(`v.${name}`);
          const value = kind === 'date' ? json.isoDate(column) : kind === 'boolean' ? json.boolean(column) : kind === 'json' ? json.jsonColumn(column) : column;
          return [name, value] as const;
        }),
    ]);
    const treeRevisions = sql`SELECT DISTINCT tp."revisionId" FROM "spaces" AS tp
      WHERE tp."id" IN (SELECT "spaceId" FROM "ranked" WHERE "n" <= ${sql.lit(MAX_HITS)}) AND NOT ${json.inList(sql.ref('tp.revisionId'), slot('keptRevisions'))}`;
    return sql`WITH "matched" AS MATERIALIZED (${matched}),
      "ranked" AS (SELECT m.*, ROW_NUMBER() OVER (PARTITION BY m."spaceId" ORDER BY ${best('m')}) AS "n" FROM "matched" AS m),
      "firstBodies" AS (SELECT f."spaceId", f."pageId", f."body", ROW_NUMBER() OVER (PARTITION BY f."spaceId", f."pageId" ORDER BY f."position") AS "n"
        FROM "search_sections" AS f
        WHERE f."body" <> '' AND f."pageId" IN (SELECT b."pageId" FROM "matched" AS b WHERE trim(b."body") = ''))
    SELECT ${json.text(
      json.object([
        ...siteHeadColumns(ctx),
        [
          'sections',
          sql`(SELECT ${json.arrayAgg(
            json.object([
              ['id', sql.ref('sc.id')],
              ['condition', sql.ref('sc.condition')],
            ]),
            sql.ref('sc.id'),
          )} FROM "site_sections" AS sc WHERE sc."siteId" = st."id")`,
        ],
        [
          'siteSpaces',
          sql`(SELECT ${json.arrayAgg(
            json.object([
              ['id', sql.ref('ss.id')],
              ['sectionId', sql.ref('ss.sectionId')],
              ['isDefault', json.boolean(sql.ref('ss.isDefault'))],
              ['condition', sql.ref('ss.condition')],
              [
                'space',
                json.object([
                  ['id', sql.ref('sp.id')],
                  ['title', sql.ref('sp.title')],
                  ['revisionId', sql.ref('sp.revisionId')],
                  ['deleted', json.boolean(sql`sp."deletedAt" IS NOT NULL`)],
                ]),
              ],
            ]),
            sql.ref('ss.id'),
          )} FROM "site_spaces" AS ss JOIN "spaces" AS sp ON sp."id" = ss."spaceId" WHERE ss."siteId" = st."id")`,
        ],
        [
          'hits',
          sql`(SELECT ${json.arrayAgg(hit, best('h'))} FROM "ranked" AS h
            LEFT JOIN "firstBodies" AS fb ON fb."spaceId" = h."spaceId" AND fb."pageId" = h."pageId" AND fb."n" = 1 AND trim(h."body") = ''
            WHERE h."n" <= ${sql.lit(MAX_HITS)})`,
        ],
        ['pageRevisions', sql`(SELECT ${json.arrayAgg(sql.ref('r.revisionId'), sql.ref('r.revisionId'))} FROM (${treeRevisions}) AS r)`],
        [
          'pages',
          sql`(SELECT ${json.arrayAgg(pageObject, sql`e."revisionId", e."pageId"`)}
            FROM "revision_pages" AS e JOIN "page_versions" AS v ON v."id" = e."versionId" WHERE e."revisionId" IN (${treeRevisions}))`,
        ],
      ]),
    )} FROM "sites" AS st JOIN "organizations" AS o ON o."id" = st."organizationId" WHERE st."id" = ${slot('siteId')}`;
  });

const searchWithWords = searchStatement(true);
const searchWithoutWords = searchStatement(false);

/** The live revisions of each site's spaces at its last search here: the trees kept of them are not read again. */
const revisionsOfSites = new LRUCache<string, string[]>({ max: 10_000 });

/** The query as the database's full-text engine takes it: every word, each as a prefix. */
function matchOf(ctx: RequestContext, words: string[]): string {
  return ctx.provider === 'sqlite' ? words.map((word) => `"${word}"*`).join(' ') : words.map((word) => `${word}:*`).join(' & ');
}

export async function searchSiteContent(ctx: RequestContext, organizationId: string, siteId: string, query: unknown, body: unknown) {
  const params = parseInput(SiteSearchQuery, query, 'query');
  // The body is validated once the site is known to be the reader's (a stranger's bad body is a 404, not a 400):
  // its query is searched for already, in the statement that reads the site.
  const rawQuery = (body as { query?: unknown } | null)?.query;
  const words = wordsOf(typeof rawQuery === 'string' ? rawQuery : '');
  const cache = ctx.pageTreeCache;
  const keptRevisions = (revisionsOfSites.get(siteId) ?? []).filter((revisionId) => cache?.has(revisionId));
  const answer = await (words.length ? searchWithWords : searchWithoutWords)(ctx, { siteId, match: matchOf(ctx, words), keptRevisions });
  if (!answer) throw notFound('Site', siteId);
  primeSiteHead(ctx, answer);
  revisionsOfSites.set(siteId, [...new Set(answer.siteSpaces.filter((entry) => !entry.space.deleted).map((entry) => entry.space.revisionId))]);
  if (answer.pages && answer.pageRevisions) {
    const shape = shapeOf(ctx, 'page_versions');
    const byRevision = new Map<string, PageState[]>(answer.pageRevisions.map((revisionId) => [revisionId, []]));
    for (const { entry, ...version } of answer.pages) {
      const { revisionId, ...place } = entry;
      byRevision.get(revisionId)?.push(pageStateOf({ ...reviveRecord<Omit<PageRow, keyof typeof place>>(shape, version), ...place }));
    }
    for (const [revisionId, states] of byRevision) {
      const tree = treeOf(revisionId, states);
      cache?.set(revisionId, tree);
      loader(ctx, pageTrees).prime(revisionId, tree);
    }
  }

  const audience = await siteAudience(ctx, siteId, {}, answer.shareKeys);
  if (audience.site.organizationId !== organizationId) throw notFound('Site', siteId);
  const input = parseInput(SiteSearchInput, body);
  const shown = shownTo(audience);
  const hidden = new Set(answer.sections.filter((section) => !shown(section)).map((section) => section.id));
  const visible = answer.siteSpaces.filter(
    (siteSpace) => shown(siteSpace) && !(siteSpace.sectionId && hidden.has(siteSpace.sectionId)) && !siteSpace.space.deleted,
  );
  const byId = new Map(visible.map((siteSpace) => [siteSpace.id, siteSpace]));
  const named = (ids: string[], field: string) =>
    ids.map((siteSpaceId, index) => {
      const siteSpace = byId.get(siteSpaceId);
      if (!siteSpace)
        throw invalid(`${field}${ids.length > 1 || field.endsWith('s') ? `.${index}` : ''}: site space "${siteSpaceId}" is not a site space of this site`);
      return siteSpace;
    });
  const defaults = visible.filter((siteSpace) => siteSpace.isDefault);
  let chosen: typeof visible;
  if ('scope' in input) {
    const scope = input.scope;
    if (scope.mode === 'all') chosen = visible;
    else if (scope.mode === 'specific') chosen = named(scope.siteSpaceIds, 'scope.siteSpaceIds');
    else {
      if (scope.restrictTo && !scope.currentSiteSpace) throw invalid('scope.restrictTo: needs currentSiteSpace');
      const current = scope.currentSiteSpace ? named([scope.currentSiteSpace], 'scope.currentSiteSpace')[0]! : null;
      if (scope.restrictTo === 'currentSiteSpace') chosen = [current!];
      else if (scope.restrictTo === 'otherSiteSpaces') chosen = defaults.filter((siteSpace) => siteSpace.id !== current!.id);
      else chosen = current && !defaults.includes(current) ? [current, ...defaults] : defaults;
    }
  } else if (input.mode === 'all') chosen = visible;
  else if (input.mode === 'current') {
    const current = named([input.siteSpaceId], 'siteSpaceId')[0]!;
    chosen = defaults.includes(current) ? defaults : [current, ...defaults];
  } else chosen = named(input.siteSpaceIds, 'siteSpaceIds');

  const spaces = [...new Map(chosen.map((siteSpace) => [siteSpace.space.id, siteSpace.space])).values()];
  const chosenIds = new Set(spaces.map((space) => space.id));
  const found = answer.hits
    .filter((hit) => chosenIds.has(hit.spaceId))
    .slice(0, MAX_HITS)
    .map(({ rank, firstBody, excerpt, ...hit }) =>
      withExcerpt({ ...hit, excerpt: excerpt ?? '', score: ctx.provider === 'sqlite' ? Math.max(0, -Number(rank)) : Number(rank) }, firstBody),
    );
  const pageShown = pageShownTo(audience);
  const revisionOf = new Map(spaces.map((space) => [space.id, space.revisionId]));
  return spaceResultsOf(ctx, spaces, found, { query: input.query, page: params.page, limit: params.limit }, async (hit) => {
    if (audience.claims === null) return true;
    const tree = await loadPageTree(ctx, revisionOf.get(hit.spaceId)!);
    const page = tree.pages.get(hit.pageId);
    return !!page && pageShown(tree, page);
  });
}
