import type { AuditFacts } from '../audit/record.ts';
import { z } from 'zod';
import type { RequestContext } from '../../context.ts';
import type { Prisma } from '../../db/index.ts';
import { conflict, invalid, notFound } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { type Ordering, type Page, pageParams, pageRequestOf } from '../../lib/pagination.ts';
import { parseInput, queryBool } from '../../lib/validation.ts';
import { type PageTree, loadPageTree, pageAtPath } from '../content/tree.ts';
import { loader } from '../loaders.ts';
import { type ChildListing, countsBy, listChildren, mapPage } from '../shared/pages.ts';
import { spaceRecords } from '../spaces/service.ts';
import { inTransaction, serializeOn } from '../transaction.ts';
import { sectionPublishedUrl, siteSpacePublishedUrl } from './presenter.ts';
import { type SiteRecord, manageableSite, sectionRecords, siteRecords, siteSpaceRecords, visibleSite } from './records.ts';

/**
 * Redirects of a site (the official site-redirect operations): a source path,
 * relative to the site ("/old/page", or "/old/*" and "/old*" for every path that
 * starts so), to a section, a site space, a page of a site space or an external
 * URL. Members who see the site read them; admins change them. Moving or
 * renaming a page of a space's live content records one from its old path on
 * every site showing the space (recordMovedPages). URL resolution asks
 * siteRedirectFor for the path a reader asked for.
 */

export type SiteRedirectRecord = Prisma.SiteRedirectModel;

/** The official SiteRedirectSourcePath. */
const SOURCE_PATTERN = /^\/(?!\*)(?!.*\*.+)(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+(?:\/(?:[A-Za-z0-9\-._~+]|%[0-9A-Fa-f]{2})+)*(?:\/\*|\*)?$/;
const source = z
  .string()
  .max(512)
  .regex(SOURCE_PATTERN, 'must be a path starting with "/" of URL-safe segments, optionally ending with "*" (e.g. /old/page or /old/*)');
const id = z.string().min(1).max(100);
const url = z
  .string()
  .max(2048)
  .url()
  .regex(/^https?:\/\//i, 'must be an http or https URL');

const destination = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('site-section'), siteSectionId: id }),
  z.strictObject({ kind: z.literal('site-space'), siteSpaceId: id }),
  z.strictObject({ kind: z.literal('site-page'), siteSpaceId: id, pageId: id }),
  z.strictObject({ kind: z.literal('external'), url }),
]);
/** As input, a destination may also be a page named by its space and its path there. */
const inputDestination = z.discriminatedUnion('kind', [
  ...destination.options,
  z.strictObject({ kind: z.literal('path'), spaceId: id, path: z.string().min(1).max(512) }),
]);

export type RedirectDestination = z.infer<typeof destination>;
type InputDestination = z.infer<typeof inputDestination>;

export const CreateSiteRedirectInput = z.strictObject({
  source,
  destination: inputDestination,
  captureWildcard: z.boolean().optional(),
  draft: z.boolean().optional(),
  permanent: z.boolean().optional(),
});

export const UpdateSiteRedirectInput = z.strictObject({
  source: source.optional(),
  destination: destination.optional(),
  captureWildcard: z.boolean().optional(),
  draft: z.boolean().optional(),
  permanent: z.boolean().optional(),
});

const bulkEntry = z.union([
  z.strictObject({ source, intent: z.literal('publish') }),
  z.strictObject({
    source,
    intent: z.enum(['live', 'draft']).optional(),
    captureWildcard: z.boolean().optional(),
    permanent: z.boolean().optional(),
    destination: inputDestination.nullable(),
  }),
]);
export const BulkUpsertSiteRedirectsInput = z.strictObject({ redirects: z.array(bulkEntry).min(1).max(500) });

export const SITE_REDIRECT_ORDERS = ['createdAt', 'updatedAt', 'source'] as const;
export const ListSiteRedirectsQuery = z.object({
  ...pageParams,
  search: z.string().min(1).max(512).optional(),
  draft: queryBool().optional(),
  orderBy: z.enum(SITE_REDIRECT_ORDERS).optional(),
});

export const SiteRedirectBySourceQuery = z.object({ source, shareKey: z.string().min(1).max(256).optional() });

export interface SiteRedirectJSON {
  object: 'site-redirect';
  id: string;
  source: string;
  draft: boolean;
  captureWildcard: boolean;
  permanent: boolean;
  destination: RedirectDestination;
  createdAt: string;
  updatedAt?: string;
}

export function presentSiteRedirect(row: SiteRedirectRecord): SiteRedirectJSON {
  return {
    object: 'site-redirect',
    id: row.id,
    source: row.source,
    draft: row.draft,
    captureWildcard: row.captureWildcard,
    permanent: row.permanent,
    destination: row.destination as RedirectDestination,
    createdAt: row.createdAt.toISOString(),
    ...(row.edited ? { updatedAt: row.updatedAt.toISOString() } : {}),
  };
}

const orderings: Record<(typeof SITE_REDIRECT_ORDERS)[number], Ordering<SiteRedirectRecord>> = {
  createdAt: {
    name: 'site-redirects-created',
    keys: [
      { field: 'createdAt', direction: 'desc', type: 'date', value: (row) => row.createdAt },
      { field: 'id', direction: 'desc', type: 'string', value: (row) => row.id },
    ],
  },
  updatedAt: {
    name: 'site-redirects-updated',
    keys: [
      { field: 'updatedAt', direction: 'desc', type: 'date', value: (row) => row.updatedAt },
      { field: 'id', direction: 'desc', type: 'string', value: (row) => row.id },
    ],
  },
  source: {
    name: 'site-redirects-source',
    keys: [
      { field: 'source', direction: 'asc', type: 'string', value: (row) => row.source },
      { field: 'id', direction: 'asc', type: 'string', value: (row) => row.id },
    ],
  },
};

interface RedirectFilter {
  draft: boolean;
  search?: string | undefined;
  orderBy: (typeof SITE_REDIRECT_ORDERS)[number];
}

const filterWhere = (filter: RedirectFilter) => ({ draft: filter.draft, ...(filter.search ? { source: { contains: filter.search } } : {}) });

const redirectsOfSite: ChildListing<SiteRedirectRecord, RedirectFilter> = {
  name: 'site-redirects',
  ordering: (filter) => orderings[filter.orderBy],
  parentOf: (row) => row.siteId,
  findMany: (ctx, siteIds, filter, args) =>
    ctx.db.siteRedirect.findMany({ ...args, where: { AND: [{ siteId: { in: siteIds }, ...filterWhere(filter) }, args.where] } }),
  count: async (ctx, siteIds, filter) =>
    countsBy(
      await ctx.db.siteRedirect.groupBy({ by: ['siteId'], where: { siteId: { in: siteIds }, ...filterWhere(filter) }, _count: { _all: true } }),
      'siteId',
    ),
};

/** Redirects of a site: live ones unless `draft`, newest first unless `orderBy`, those whose source contains `search`. */
export async function listSiteRedirects(ctx: RequestContext, organizationId: string, siteId: string, query: unknown): Promise<Page<SiteRedirectJSON>> {
  await visibleSite(ctx, organizationId, siteId);
  const params = parseInput(ListSiteRedirectsQuery, query, 'query');
  const filter = { draft: params.draft ?? false, search: params.search, orderBy: params.orderBy ?? 'createdAt' };
  return mapPage(await listChildren(ctx, redirectsOfSite, siteId, filter, pageRequestOf(params)), presentSiteRedirect);
}

async function redirectOfSite(ctx: RequestContext, siteId: string, redirectId: string) {
  const row = await ctx.db.siteRedirect.findFirst({ where: { id: redirectId, siteId } });
  if (!row) throw notFound('Site redirect', redirectId);
  return row;
}

/** The page tree of a space's live content. */
async function liveTree(ctx: RequestContext, spaceId: string): Promise<PageTree | null> {
  const space = await loader(ctx, spaceRecords).load(spaceId);
  return space && !space.deletedAt ? loadPageTree(ctx, space.revisionId) : null;
}

/** Checks that a destination names something of this site; a path destination becomes the page it names. */
async function checkedDestination(ctx: RequestContext, siteId: string, input: InputDestination, field: string): Promise<RedirectDestination> {
  switch (input.kind) {
    case 'site-section': {
      const section = await loader(ctx, sectionRecords).load(input.siteSectionId);
      if (!section || section.siteId !== siteId) throw invalid(`${field}.siteSectionId: section "${input.siteSectionId}" is not a section of this site`);
      return input;
    }
    case 'site-space': {
      const siteSpace = await loader(ctx, siteSpaceRecords).load(input.siteSpaceId);
      if (!siteSpace || siteSpace.siteId !== siteId) throw invalid(`${field}.siteSpaceId: site space "${input.siteSpaceId}" is not a site space of this site`);
      return input;
    }
    case 'site-page': {
      const siteSpace = await loader(ctx, siteSpaceRecords).load(input.siteSpaceId);
      if (!siteSpace || siteSpace.siteId !== siteId) throw invalid(`${field}.siteSpaceId: site space "${input.siteSpaceId}" is not a site space of this site`);
      const tree = await liveTree(ctx, siteSpace.spaceId);
      if (!tree?.pages.has(input.pageId)) throw invalid(`${field}.pageId: page "${input.pageId}" is not a page of the site space's content`);
      return input;
    }
    case 'path': {
      const siteSpace = await ctx.db.siteSpace.findFirst({ where: { siteId, spaceId: input.spaceId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
      if (!siteSpace) throw invalid(`${field}.spaceId: space "${input.spaceId}" is not shown on this site`);
      const tree = await liveTree(ctx, input.spaceId);
      const page = tree ? pageAtPath(tree, input.path) : undefined;
      if (!page) throw invalid(`${field}.path: no page at "${input.path}" in the space's content`);
      return { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: page.pageId };
    }
    case 'external':
      return input;
  }
}

const json = (value: RedirectDestination) => value as unknown as Prisma.InputJsonValue;

async function assertFreeSource(tx: RequestContext, siteId: string, draft: boolean, source: string, self: string | null, field: string) {
  const taken = await tx.db.siteRedirect.findFirst({ where: { siteId, draft, source, ...(self ? { id: { not: self } } : {}) }, select: { id: true } });
  if (taken) throw conflict(`${field}: a ${draft ? 'draft' : 'live'} redirect from "${source}" already exists (${taken.id})`);
}

export async function createSiteRedirect(ctx: RequestContext, organizationId: string, siteId: string, body: unknown) {
  await visibleSite(ctx, organizationId, siteId);
  const input = parseInput(CreateSiteRedirectInput, body);
  await manageableSite(ctx, organizationId, siteId, "change this site's redirects");
  const destination = await checkedDestination(ctx, siteId, input.destination, 'destination');
  const now = ctx.clock.now();
  const row = await inTransaction(
    ctx,
    (created: { id: string }) => ({ action: 'site_redirect.create', organizationId, target: { type: 'site-redirect', id: created.id } }),
    async (tx) => {
      await serializeOn(tx.db, tx.provider, `site:${siteId}`);
      const draft = input.draft ?? false;
      await assertFreeSource(tx, siteId, draft, input.source, null, 'source');
      return tx.db.siteRedirect.create({
        data: {
          id: newId('siteRedirect'),
          siteId,
          source: input.source,
          draft,
          captureWildcard: input.captureWildcard ?? false,
          permanent: input.permanent ?? false,
          destination: json(destination),
          createdAt: now,
          updatedAt: now,
        },
      });
    },
  );
  return presentSiteRedirect(row);
}

export async function updateSiteRedirect(ctx: RequestContext, organizationId: string, siteId: string, redirectId: string, body: unknown) {
  await visibleSite(ctx, organizationId, siteId);
  const input = parseInput(UpdateSiteRedirectInput, body);
  await manageableSite(ctx, organizationId, siteId, "change this site's redirects");
  const current = await redirectOfSite(ctx, siteId, redirectId);
  const destination = input.destination ? await checkedDestination(ctx, siteId, input.destination, 'destination') : undefined;
  const row = await inTransaction(ctx, { action: 'site_redirect.update', organizationId, target: { type: 'site-redirect', id: redirectId } }, async (tx) => {
    await serializeOn(tx.db, tx.provider, `site:${siteId}`);
    const draft = input.draft ?? current.draft;
    const source = input.source ?? current.source;
    await assertFreeSource(tx, siteId, draft, source, redirectId, input.source !== undefined ? 'source' : 'draft');
    return tx.db.siteRedirect.update({
      where: { id: redirectId },
      data: {
        source,
        draft,
        captureWildcard: input.captureWildcard,
        permanent: input.permanent,
        ...(destination ? { destination: json(destination) } : {}),
        updatedAt: tx.clock.now(),
        edited: true,
      },
    });
  });
  return presentSiteRedirect(row);
}

/** 205 when it was deleted, 204 when there was none (the official statuses). */
export async function deleteSiteRedirect(ctx: RequestContext, organizationId: string, siteId: string, redirectId: string): Promise<204 | 205> {
  await manageableSite(ctx, organizationId, siteId, "change this site's redirects");
  const audit: AuditFacts = { action: 'site_redirect.delete', organizationId, target: { type: 'site-redirect', id: redirectId } };
  // Nothing deleted, nothing recorded.
  const { count } = await inTransaction(
    ctx,
    (result: { count: number }) => (result.count ? audit : []),
    (tx) => tx.db.siteRedirect.deleteMany({ where: { id: redirectId, siteId } }),
  );
  return count ? 205 : 204;
}

type BulkResult =
  | { status: 'created' | 'updated' | 'deleted' | 'published'; source: string; draft: boolean; id: string }
  | { status: 'error'; source: string; draft: boolean; error: string };

/**
 * Creates, updates, deletes (a null destination) or publishes (a draft becomes
 * the live one) redirects by source, in one transaction: one result per entry,
 * an `error` one for a redirect to delete or publish that does not exist. An
 * invalid entry refuses the whole batch (400 naming it).
 */
export async function bulkUpsertSiteRedirects(ctx: RequestContext, organizationId: string, siteId: string, body: unknown) {
  await visibleSite(ctx, organizationId, siteId);
  const input = parseInput(BulkUpsertSiteRedirectsInput, body);
  await manageableSite(ctx, organizationId, siteId, "change this site's redirects");
  const destinations = await Promise.all(
    input.redirects.map((entry, index) =>
      'destination' in entry && entry.destination ? checkedDestination(ctx, siteId, entry.destination, `redirects.${index}.destination`) : null,
    ),
  );
  const audit: AuditFacts = {
    action: 'site_redirect.bulk_upsert',
    organizationId,
    target: { type: 'site', id: siteId },
    payload: { count: input.redirects.length },
  };
  const results = await inTransaction(ctx, audit, async (tx) => {
    await serializeOn(tx.db, tx.provider, `site:${siteId}`);
    const now = tx.clock.now();
    const out: BulkResult[] = [];
    for (const [index, entry] of input.redirects.entries()) {
      if (entry.intent === 'publish') {
        const draft = await tx.db.siteRedirect.findUnique({ where: { siteId_draft_source: { siteId, draft: true, source: entry.source } } });
        if (!draft) {
          out.push({ status: 'error', source: entry.source, draft: true, error: `no draft redirect from "${entry.source}" to publish` });
          continue;
        }
        await tx.db.siteRedirect.deleteMany({ where: { siteId, draft: false, source: entry.source } });
        await tx.db.siteRedirect.update({ where: { id: draft.id }, data: { draft: false, updatedAt: now, edited: true } });
        out.push({ status: 'published', source: entry.source, draft: false, id: draft.id });
        continue;
      }
      const draft = entry.intent === 'draft';
      const existing = await tx.db.siteRedirect.findUnique({ where: { siteId_draft_source: { siteId, draft, source: entry.source } } });
      const destination = destinations[index];
      if (!destination) {
        if (!existing)
          out.push({ status: 'error', source: entry.source, draft, error: `no ${draft ? 'draft' : 'live'} redirect from "${entry.source}" to delete` });
        else {
          await tx.db.siteRedirect.delete({ where: { id: existing.id } });
          out.push({ status: 'deleted', source: entry.source, draft, id: existing.id });
        }
        continue;
      }
      if (existing) {
        await tx.db.siteRedirect.update({
          where: { id: existing.id },
          data: { destination: json(destination), captureWildcard: entry.captureWildcard, permanent: entry.permanent, updatedAt: now, edited: true },
        });
        out.push({ status: 'updated', source: entry.source, draft, id: existing.id });
      } else {
        const created = await tx.db.siteRedirect.create({
          data: {
            id: newId('siteRedirect'),
            siteId,
            source: entry.source,
            draft,
            captureWildcard: entry.captureWildcard ?? false,
            permanent: entry.permanent ?? false,
            destination: json(destination),
            createdAt: now,
            updatedAt: now,
          },
        });
        out.push({ status: 'created', source: entry.source, draft, id: created.id });
      }
    }
    return out;
  });
  return { results };
}

/** A site-relative path as redirects name it: a leading "/", no trailing one, no query or fragment. */
export function sitePathOf(path: string): string {
  const bare = path.replace(/[?#].*$/, '').replace(/\/+$/, '');
  return bare.startsWith('/') ? bare || '/' : `/${bare}`;
}

/**
 * The live redirect of a site for a site-relative path: an exact source first,
 * else the longest wildcard source ("/old/*", "/old*") that the path starts
 * with. One statement, whatever the number of redirects.
 */
async function matchingRedirect(ctx: RequestContext, siteId: string, path: string): Promise<{ row: SiteRedirectRecord; rest: string } | null> {
  const wildcards: string[] = [];
  for (let end = path.length; end >= 1; end--) wildcards.push(`${path.slice(0, end)}*`);
  const rows = await ctx.db.siteRedirect.findMany({ where: { siteId, draft: false, source: { in: [path, ...wildcards] } } });
  const exact = rows.find((row) => row.source === path);
  if (exact) return { row: exact, rest: '' };
  const longest = rows.sort((a, b) => b.source.length - a.source.length)[0];
  return longest ? { row: longest, rest: path.slice(longest.source.length - 1) } : null;
}

/** The published address a destination names, or null when what it names is gone. */
async function destinationUrl(ctx: RequestContext, site: SiteRecord, destination: RedirectDestination): Promise<string | null> {
  if (destination.kind === 'external') return destination.url;
  if (destination.kind === 'site-section') {
    const section = await loader(ctx, sectionRecords).load(destination.siteSectionId);
    return section && section.siteId === site.id ? sectionPublishedUrl(site, section, ctx.urls) : null;
  }
  const siteSpace = await loader(ctx, siteSpaceRecords).load(destination.siteSpaceId);
  if (!siteSpace || siteSpace.siteId !== site.id) return null;
  const section = siteSpace.sectionId ? await loader(ctx, sectionRecords).load(siteSpace.sectionId) : null;
  const base = siteSpacePublishedUrl(site, section?.path ?? null, siteSpace, ctx.urls);
  if (destination.kind === 'site-space') return base;
  const tree = await liveTree(ctx, siteSpace.spaceId);
  const pagePath = tree?.paths.get(destination.pageId);
  if (pagePath === undefined) return null;
  return pagePath ? `${base}/${pagePath}` : base;
}

export interface SiteRedirectMatch {
  redirect: SiteRedirectJSON;
  /** Where the reader goes: an absolute URL (the published address of what the destination names). */
  target: string;
  /** 308 for a permanent redirect, else 307. */
  status: 307 | 308;
}

/**
 * Where a site sends a reader who asks for `path` (site-relative: "/old/page"; a
 * missing leading "/", a trailing one, a query or fragment are ignored), or null
 * when no live redirect matches or what it names is gone. It does not check who
 * asks: URL resolution calls it once it has decided the reader may see the site.
 */
export async function siteRedirectFor(ctx: RequestContext, siteId: string, path: string): Promise<SiteRedirectMatch | null> {
  const site = await loader(ctx, siteRecords).load(siteId);
  if (!site) return null;
  const match = await matchingRedirect(ctx, siteId, sitePathOf(path));
  if (!match) return null;
  const base = await destinationUrl(ctx, site, match.row.destination as RedirectDestination);
  if (base === null) return null;
  const target = match.row.captureWildcard && match.rest ? `${base.replace(/\/+$/, '')}${match.rest.startsWith('/') ? '' : '/'}${match.rest}` : base;
  return { redirect: presentSiteRedirect(match.row), target, status: match.row.permanent ? 308 : 307 };
}

/** `getSiteRedirectBySource`: the live redirect for a source path and its target, for members who see the site. */
export async function getSiteRedirectBySource(ctx: RequestContext, organizationId: string, siteId: string, query: unknown) {
  await visibleSite(ctx, organizationId, siteId);
  const params = parseInput(SiteRedirectBySourceQuery, query, 'query');
  const found = await siteRedirectFor(ctx, siteId, params.source);
  if (!found) throw notFound('Site redirect', params.source);
  return { redirect: found.redirect, target: found.target };
}

/**
 * Records, for every site showing a space, a redirect from the old path of each
 * page of its live content that moved or was renamed (`before` -> `after`: the
 * trees of the old and new live revisions) to the page, and drops the redirects
 * from the paths pages now have. Runs in the transaction that changes the live revision.
 */
export async function recordMovedPages(tx: RequestContext, spaceId: string, before: PageTree, after: PageTree): Promise<void> {
  const moved: Array<{ pageId: string; from: string; to: string }> = [];
  for (const [pageId, from] of before.paths) {
    const to = after.paths.get(pageId);
    if (to !== undefined && to !== from && from) moved.push({ pageId, from, to });
  }
  if (!moved.length) return;
  const siteSpaces = await tx.db.siteSpace.findMany({ where: { spaceId }, include: { section: { select: { path: true } } } });
  if (!siteSpaces.length) return;
  const now = tx.clock.now();
  for (const siteSpace of siteSpaces) {
    const prefix = ['', siteSpace.section?.path, siteSpace.path].filter((part) => part !== undefined && part !== null).join('/');
    const sourceOf = (pagePath: string) => `${prefix}/${pagePath}`;
    // A page back at a path it had: the redirect from there would hide it.
    await tx.db.siteRedirect.deleteMany({ where: { siteId: siteSpace.siteId, draft: false, source: { in: moved.map((page) => sourceOf(page.to)) } } });
    for (const page of moved) {
      const from = sourceOf(page.from);
      if (!SOURCE_PATTERN.test(from) || from.length > 512) continue;
      const destination = json({ kind: 'site-page', siteSpaceId: siteSpace.id, pageId: page.pageId });
      await tx.db.siteRedirect.upsert({
        where: { siteId_draft_source: { siteId: siteSpace.siteId, draft: false, source: from } },
        create: { id: newId('siteRedirect'), siteId: siteSpace.siteId, source: from, destination, createdAt: now, updatedAt: now },
        update: { destination, captureWildcard: false, updatedAt: now, edited: true },
      });
    }
  }
}
