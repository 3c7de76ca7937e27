import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { RequestContext } from '../../context.ts';
import { DomainError, invalid } from '../../errors.ts';
import type { Claims } from '../../lib/conditions.ts';
import { conditionHolds } from '../../lib/conditions.ts';
import { sameSecret } from '../../lib/tokens.ts';
import { parseInput, queryBool } from '../../lib/validation.ts';
import { type PageRow, type PageState, type PageTree, loadPageTree, pageAtPath, pageStateOf, pageTrees, treeOf } from '../content/tree.ts';
import { loader } from '../loaders.ts';
import { preparedRead, recordOf, reviveRecord, shapeOf, slot, sqlOf } from '../reads.ts';
import { sectionPublishedUrl, siteSpacePublishedUrl } from './presenter.ts';
import { PREVIEW_PARAMETER } from './preview.ts';
import { pageShownTo, visitorClaims } from './published.ts';
import type { SiteRecord } from './records.ts';
import { type RedirectDestination, sitePathOf } from './redirects.ts';
import { issueSiteToken, verifiedPreview } from './site-tokens.ts';

/**
 * URL resolution (the official `urls` group): which published content a URL a
 * reader opened shows — site, section, site space, space and page path — and a
 * site token (`apiToken`) to read it with. A URL is a site's published address
 * (`<APP_URL>/sites/<siteId>`, or its custom hostname), then its basename, a
 * share key (share-link sites; or `?shareKey=`), a section path, a site space
 * path and a page path; a level left out is the default one. What an anonymous
 * visitor (or the visitor of `visitor.jwtToken`) may not see answers 404, as
 * what does not exist does; with `redirectOnError`, a visitor of a visitor-auth
 * site without a valid token is sent to the site's `fallbackURL` (when set) and a
 * page path that does not resolve to the closest page above it (or the site
 * space). A preview address (`?preview=`, getSitePublishingPreviewById) opens
 * the site published or not, as the visitor its token names (`preview: true`).
 */

const url = z.string().min(1).max(2048);

/** `POST /v1/urls/published` (official resolvePublishedContentByUrl). */
export const ResolveUrlInput = z.object({
  url,
  redirectOnError: z.boolean().optional(),
  visitor: z
    .object({
      type: z.enum(['human', 'agent']).optional(),
      jwtToken: z.string().min(1).max(8192).optional(),
      unsignedClaims: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
});

/** `GET /v1/urls/published` (official getPublishedContentByUrl). */
export const ResolveUrlQuery = z.object({
  url,
  visitorAuthToken: z.string().min(1).max(8192).optional(),
  redirectOnError: queryBool().optional(),
});

/** The official PublishedContentRedirect (to other content of the site, or to where a visitor signs in). */
export interface PublishedContentRedirectJSON {
  target: 'application' | 'content';
  redirect: string;
}

export type PublishedSiteContentLookupJSON = PublishedSiteContentJSON | PublishedContentRedirectJSON;

/** The official PublishedSiteContent. */
export interface PublishedSiteContentJSON {
  site: string;
  siteSection?: string;
  siteSpace: string;
  space: string;
  pathname: string;
  basePath: string;
  siteBasePath: string;
  apiToken: string;
  organization: string;
  shareKey?: string;
  complete: boolean;
  contextId?: string;
  canonicalUrl: string;
  preview: boolean;
}

interface Lookup {
  url: string;
  visitorToken?: string | undefined;
  unsignedClaims?: Record<string, unknown> | undefined;
  redirectOnError: boolean;
}

const nothingAt = (address: string) => new DomainError(404, `url: no published content at "${address}" for this visitor`);

export function resolvePublishedUrl(ctx: RequestContext, body: unknown): Promise<PublishedSiteContentLookupJSON> {
  const input = parseInput(ResolveUrlInput, body, 'body');
  return lookUp(ctx, {
    url: input.url,
    visitorToken: input.visitor?.jwtToken,
    unsignedClaims: input.visitor?.unsignedClaims,
    redirectOnError: input.redirectOnError ?? false,
  });
}

export function getPublishedUrl(ctx: RequestContext, query: unknown): Promise<PublishedSiteContentLookupJSON> {
  const input = parseInput(ResolveUrlQuery, query, 'query');
  return lookUp(ctx, { url: input.url, visitorToken: input.visitorAuthToken, redirectOnError: input.redirectOnError ?? false });
}

/** The path segments of an address, decoded; a malformed escape is the client's. */
function segmentsOf(pathname: string): string[] {
  try {
    return pathname
      .split('/')
      .filter(Boolean)
      .map((segment) => decodeURIComponent(segment));
  } catch {
    throw invalid('url: its path has a malformed percent-encoding');
  }
}

/** Where the site of an address is found: by id under the application's `/sites/`, else by the custom hostname. */
function siteKeyOf(ctx: RequestContext, address: URL): { siteId: string | null; hostname: string | null; consumed: number; segments: string[] } | null {
  const segments = segmentsOf(address.pathname);
  const app = new URL(ctx.urls.app);
  const appSegments = segmentsOf(app.pathname);
  const underApp =
    address.host === app.host &&
    appSegments.every((segment, index) => segments[index] === segment) &&
    segments[appSegments.length] === 'sites' &&
    segments[appSegments.length + 1] !== undefined;
  if (underApp) return { siteId: segments[appSegments.length + 1]!, hostname: null, consumed: appSegments.length + 2, segments };
  if (!address.hostname) return null;
  return { siteId: null, hostname: address.hostname.toLowerCase(), consumed: 0, segments };
}

interface StructureEntry {
  id: string;
  path: string;
  isDefault: boolean;
  condition: string | null;
  position: string;
}

interface SiteSpaceEntry extends StructureEntry {
  sectionId: string | null;
  spaceId: string;
  revisionId: string;
  deleted: boolean;
}

interface RedirectRow {
  source: string;
  captureWildcard: boolean;
  permanent: boolean;
  destination: RedirectDestination;
}

/** What the lookup statement answers: the site and everything resolving a URL of it needs. */
interface LookupAnswer {
  site: Record<string, unknown>;
  visitorClaimsSecret: string;
  sections: StructureEntry[];
  siteSpaces: SiteSpaceEntry[];
  shareKeys: string[];
  redirects: RedirectRow[];
  /** The revisions whose pages were read (null when the URL names no page). */
  pageRevisions: string[] | null;
  /** Their pages: those of the live revisions of the site spaces the URL may pick that this instance does not keep. */
  pages: Array<
    Omit<PageRow, 'pageId' | 'parentId' | 'position' | 'versionId'> & {
      entry: Pick<PageRow, 'pageId' | 'parentId' | 'position' | 'versionId'> & { revisionId: string };
    }
  > | null;
}

interface LookupValues extends Record<string, unknown> {
  siteId: string | null;
  hostname: string | null;
  /** Every redirect source that could match the address (exact and wildcard, for each place the site's base may end). */
  redirectSources: string[];
  /** Revisions whose trees this instance keeps: their pages are not read again. */
  keptRevisions: string[];
  /** 1 when the address goes past the site's address (a page may be named), else 0. */
  withPages: number;
  /** The address's path segments: the sections and site spaces they name may be picked. */
  segments: string[];
}

/**
 * The whole lookup in one statement (src/domain/reads.ts): the site by id or
 * hostname, its organization's visitor key, its sections, its site spaces with
 * their spaces' live revisions, its active share keys, the live redirects whose
 * source could match, and the page trees this instance does not keep of the
 * revisions of the site spaces the URL may pick (the default ones, those its
 * segments name). A renderer asking for a URL and each of its prefixes pays one
 * statement each.
 */
const readLookup = preparedRead<LookupAnswer, LookupValues>((ctx) => {
  const { json } = sqlOf(ctx);
  const entry = (alias: string) =>
    [
      ['id', sql.ref(`${alias}.id`)],
      ['path', sql.ref(`${alias}.path`)],
      ['isDefault', json.boolean(sql.ref(`${alias}.isDefault`))],
      ['condition', sql.ref(`${alias}.condition`)],
      ['position', sql.ref(`${alias}.position`)],
    ] as const;
  const sections = sql`(SELECT ${json.arrayAgg(json.object(entry('sc')), sql.ref('sc.id'))} FROM "site_sections" AS sc WHERE sc."siteId" = st."id")`;
  const siteSpaces = sql`(SELECT ${json.arrayAgg(
    json.object([
      ...entry('ss'),
      ['sectionId', sql.ref('ss.sectionId')],
      ['spaceId', sql.ref('ss.spaceId')],
      ['revisionId', sql.ref('sp.revisionId')],
      ['deleted', json.boolean(sql`sp."deletedAt" IS NOT NULL`)],
    ]),
    sql.ref('ss.id'),
  )} FROM "site_spaces" AS ss JOIN "spaces" AS sp ON sp."id" = ss."spaceId" WHERE ss."siteId" = st."id")`;
  const shareKeys = sql`(SELECT ${json.arrayAgg(sql.ref('sl.key'), sql.ref('sl.key'))} FROM "share_links" AS sl WHERE sl."siteId" = st."id" AND sl."active" = ${sql.lit(true)})`;
  const redirects = sql`(SELECT ${json.arrayAgg(
    json.object([
      ['source', sql.ref('rd.source')],
      ['captureWildcard', json.boolean(sql.ref('rd.captureWildcard'))],
      ['permanent', json.boolean(sql.ref('rd.permanent'))],
      ['destination', json.jsonColumn(sql.ref('rd.destination'))],
    ]),
    sql.ref('rd.source'),
  )} FROM "site_redirects" AS rd WHERE rd."siteId" = st."id" AND rd."draft" = ${sql.lit(false)} AND ${json.inList(sql.ref('rd.source'), slot('redirectSources'))})`;
  const version = recordOf(ctx, 'page_versions', 'v');
  const versionColumns = version.shape.columns.filter((column) => column.name !== 'pageId');
  const pageObject = json.object([
    ['entry', json.object(['revisionId', 'pageId', 'parentId', 'position', 'versionId'].map((name) => [name, sql.ref(`e.${name}`)] as const))],
    ...versionColumns.map(({ name, kind }) => {
      const column = sql.ref(`v.${name}`);
      const value = kind === 'date' ? json.isoDate(column) : kind === 'boolean' ? json.boolean(column) : kind === 'json' ? json.jsonColumn(column) : column;
      return [name, value] as const;
    }),
  ]);
  // The live revisions of the site spaces a URL may pick (the default ones, and those its segments name),
  // unless kept here: a site space picked otherwise (its default hidden by a condition) is read apart.
  const picked = sql`FROM "site_spaces" AS ls JOIN "spaces" AS lp ON lp."id" = ls."spaceId" LEFT JOIN "site_sections" AS lsc ON lsc."id" = ls."sectionId"
    WHERE ls."siteId" = st."id" AND lp."deletedAt" IS NULL
    AND (ls."isDefault" = ${sql.lit(true)} OR ${json.inList(sql.ref('ls.path'), slot('segments'))})
    AND (ls."sectionId" IS NULL OR lsc."isDefault" = ${sql.lit(true)} OR ${json.inList(sql.ref('lsc.path'), slot('segments'))})
    AND NOT ${json.inList(sql.ref('lp.revisionId'), slot('keptRevisions'))}`;
  const pageRevisions = sql`CASE WHEN ${slot('withPages')} = 1 THEN (SELECT ${json.arrayAgg(sql.ref('lp.revisionId'), sql.ref('lp.revisionId'))} ${picked}) ELSE ${json.null} END`;
  const pages = sql`CASE WHEN ${slot('withPages')} = 1 THEN (SELECT ${json.arrayAgg(pageObject, sql`e."revisionId", e."pageId"`)}
    FROM "revision_pages" AS e JOIN "page_versions" AS v ON v."id" = e."versionId"
    WHERE e."revisionId" IN (SELECT lp."revisionId" ${picked})) ELSE ${json.null} END`;
  return sql`SELECT ${json.text(
    json.object([
      ['site', recordOf(ctx, 'sites', 'st').object],
      ['visitorClaimsSecret', sql.ref('o.visitorClaimsSecret')],
      ['sections', sections],
      ['siteSpaces', siteSpaces],
      ['shareKeys', shareKeys],
      ['redirects', redirects],
      ['pageRevisions', pageRevisions],
      ['pages', pages],
    ]),
  )} FROM "sites" AS st JOIN "organizations" AS o ON o."id" = st."organizationId"
  WHERE st."id" = ${slot('siteId')} OR st."hostname" = ${slot('hostname')}`;
});

/** The live revisions of each site's spaces at its last lookup here, by site id or hostname: the trees kept of them are not read again. */
const revisionsOfSites = new LRUCache<string, string[]>({ max: 10_000 });

/** The redirect sources that can match a site-relative path: itself, and every wildcard source it starts with. */
function sourcesFor(path: string): string[] {
  const sources = [path];
  for (let end = path.length; end >= 1; end--) sources.push(`${path.slice(0, end)}*`);
  return sources;
}

/** The live redirect for a site path among the rows read: an exact source first, else the longest wildcard one. */
function redirectMatching(rows: RedirectRow[], path: string): { row: RedirectRow; rest: string } | null {
  const exact = rows.find((row) => row.source === path);
  if (exact) return { row: exact, rest: '' };
  const longest = rows
    .filter((row) => row.source.endsWith('*') && path.startsWith(row.source.slice(0, -1)))
    .sort((a, b) => b.source.length - a.source.length)[0];
  return longest ? { row: longest, rest: path.slice(longest.source.length - 1) } : null;
}

/** Picks the entry a segment names, else the default one: [entry, whether the segment named it]. */
function pick<Entry extends { path: string; isDefault: boolean; position: string }>(
  entries: Entry[],
  segment: string | undefined,
): [Entry | undefined, boolean] {
  const named = segment === undefined ? undefined : entries.find((entry) => entry.path === segment);
  if (named) return [named, true];
  const ordered = [...entries].sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
  return [ordered.find((entry) => entry.isDefault) ?? ordered[0], false];
}

async function lookUp(ctx: RequestContext, lookup: Lookup): Promise<PublishedSiteContentLookupJSON> {
  let address: URL;
  try {
    address = new URL(lookup.url);
  } catch {
    throw invalid('url: must be an absolute URL (https://host/path)');
  }
  if (address.protocol !== 'http:' && address.protocol !== 'https:') throw invalid('url: must be an http or https URL');
  const key = siteKeyOf(ctx, address);
  if (!key) throw nothingAt(lookup.url);
  const { segments } = key;
  let next = key.consumed;

  // One statement: the site, its structure, the redirects that may apply and the page trees not kept here.
  const siteKey = key.siteId ?? `host:${key.hostname}`;
  const cache = ctx.pageTreeCache;
  const keptRevisions = (revisionsOfSites.get(siteKey) ?? []).filter((revisionId) => cache?.has(revisionId));
  const redirectSources = [0, 1, 2].flatMap((skipped) => sourcesFor(sitePathOf(`/${segments.slice(next + skipped).join('/')}`)));
  const answer = await readLookup(ctx, {
    siteId: key.siteId,
    hostname: key.hostname,
    redirectSources: [...new Set(redirectSources)],
    keptRevisions,
    withPages: segments.length > next ? 1 : 0,
    segments: segments.slice(next),
  });
  if (!answer) throw nothingAt(lookup.url);
  const site = reviveRecord<SiteRecord>(shapeOf(ctx, 'sites'), answer.site);
  const liveRevisions = [...new Set(answer.siteSpaces.filter((entry) => !entry.deleted).map((entry) => entry.revisionId))];
  revisionsOfSites.set(siteKey, liveRevisions);
  const trees = new Map<string, PageTree>();
  if (answer.pages && answer.pageRevisions) {
    const shape = shapeOf(ctx, 'page_versions');
    const byRevision = new Map<string, PageState[]>(answer.pageRevisions.map((revisionId) => [revisionId, []]));
    for (const { entry, ...version } of answer.pages) {
      const { revisionId, ...place } = entry;
      byRevision.get(revisionId)?.push(pageStateOf({ ...reviveRecord<Omit<PageRow, keyof typeof place>>(shape, version), ...place }));
    }
    for (const [revisionId, states] of byRevision) {
      const tree = treeOf(revisionId, states);
      trees.set(revisionId, tree);
      cache?.set(revisionId, tree);
      loader(ctx, pageTrees).prime(revisionId, tree);
    }
  }
  // A tree kept when the statement was built, evicted since, is read again.
  const treeOfRevision = async (revisionId: string) =>
    trees.get(revisionId) ?? (cache?.get(revisionId) as PageTree | undefined) ?? loadPageTree(ctx, revisionId);

  // A preview address (getSitePublishingPreviewById) opens the site as its token says, published or not.
  const previewToken = address.searchParams.get(PREVIEW_PARAMETER);
  const preview = previewToken ? await verifiedPreview(ctx, site, previewToken) : null;
  if (!site.published && !preview) throw nothingAt(lookup.url);

  if (site.basename) {
    if (segments[next] !== site.basename) throw nothingAt(lookup.url);
    next++;
  }

  // A share-link site: its key in the path (the segment after the site's address) or as ?shareKey=.
  let shareKey: string | undefined;
  if (site.visibility === 'share-link') {
    const matches = (candidate: string | null | undefined) => !!candidate && answer.shareKeys.some((known) => sameSecret(known, candidate));
    const inQuery = address.searchParams.get('shareKey');
    if (segments[next] !== undefined && matches(segments[next])) {
      shareKey = segments[next]!;
      next++;
    } else if (matches(inQuery)) shareKey = inQuery!;
    else if (!preview) throw nothingAt(lookup.url);
  }
  const siteBase = next;
  // The address below the site's base, as its redirects name their sources.
  const sitePath = sitePathOf(`/${segments.slice(siteBase).join('/')}`);

  // The visitor: the claims of its token (signed with the site's or the organization's key), and unsigned ones apart.
  let signed: Claims | null = preview ? preview.visitor.claims : null;
  // The content token of a preview expires with the preview address.
  let notAfter: number | undefined = preview?.exp;
  if (lookup.visitorToken && !preview) {
    signed = await visitorClaims(site, answer.visitorClaimsSecret, lookup.visitorToken, ctx.clock.now());
    if (signed && typeof signed.exp === 'number') notAfter = signed.exp;
  }
  if (site.visibility === 'visitor-auth' && !signed && !preview) {
    // Without a valid visitor token, the reader goes where the site's authentication says (redirectOnError).
    if (lookup.redirectOnError && site.visitorAuthFallbackUrl) return { target: 'application', redirect: site.visitorAuthFallbackUrl };
    throw nothingAt(lookup.url);
  }
  const claims: Claims = { ...(signed ?? {}), ...(lookup.unsignedClaims ? { unsigned: lookup.unsignedClaims } : {}) };
  const shown = (entry: { condition: string | null }) => conditionHolds(entry.condition, claims);

  // Section, then site space: the one a segment names, else the default.
  const sections = answer.sections.filter(shown);
  let section: StructureEntry | undefined;
  let named = true;
  if (answer.sections.length > 0) {
    const [found, byPath] = pick(sections, segments[next]);
    if (!found) throw nothingAt(lookup.url);
    section = found;
    if (byPath) next++;
    else if (sections.length > 1) named = false;
  }
  const inScope = answer.siteSpaces.filter((entry) => entry.sectionId === (section?.id ?? null) && shown(entry) && !entry.deleted);
  const [siteSpace, byPath] = pick(inScope, segments[next]);
  if (!siteSpace) throw nothingAt(lookup.url);
  if (byPath) next++;
  else if (inScope.length > 1) named = false;

  const canonicalBase = siteSpacePublishedUrl(site, section?.path ?? null, siteSpace as never, ctx.urls);
  // The page path: a page there the visitor is shown (adaptive content), or the site space's root.
  const pathname = segments.slice(next).join('/');
  if (pathname) {
    const tree = await treeOfRevision(siteSpace.revisionId);
    const visible = (path: string) => {
      const page = pageAtPath(tree, path);
      return !!page && page.type !== 'link' && pageShownTo({ site, member: false, claims })(tree, page);
    };
    if (!visible(pathname)) {
      const match = redirectMatching(answer.redirects, sitePath);
      const moved = match ? await redirectTarget(ctx, site, answer, treeOfRevision, match) : null;
      if (moved) return { target: 'content', redirect: moved };
      if (!lookup.redirectOnError) throw nothingAt(lookup.url);
      // redirectOnError: the closest page above that the visitor is shown, else the site space's root.
      const parts = pathname.split('/');
      for (let length = parts.length - 1; length > 0; length--) {
        const above = parts.slice(0, length).join('/');
        if (visible(above)) return { target: 'content', redirect: `${canonicalBase}/${above}` };
      }
      return { target: 'content', redirect: canonicalBase };
    }
  }

  const prefix = (count: number) => `/${segments.slice(0, count).map(encodeURIComponent).join('/')}${count > 0 ? '/' : ''}`;
  const apiToken = await issueSiteToken(
    ctx,
    site,
    {
      organization: site.organizationId,
      site: site.id,
      siteSpace: siteSpace.id,
      space: siteSpace.spaceId,
      ...(section ? { siteSection: section.id } : {}),
      ...(shareKey ? { shareKey } : {}),
      visitor: { claims },
      ...(preview ? { preview: true } : {}),
    },
    notAfter,
  );
  return {
    site: site.id,
    ...(section ? { siteSection: section.id } : {}),
    siteSpace: siteSpace.id,
    space: siteSpace.spaceId,
    pathname,
    basePath: prefix(next),
    siteBasePath: prefix(siteBase),
    apiToken,
    organization: site.organizationId,
    ...(shareKey ? { shareKey } : {}),
    complete: named,
    // For a visitor with claims: changes when they do (renderers key their caches with it).
    ...(signed ? { contextId: createHash('sha256').update(JSON.stringify(claims)).digest('base64url').slice(0, 22) } : {}),
    canonicalUrl: pathname ? `${canonicalBase}/${pathname}` : canonicalBase,
    preview: preview !== null,
  };
}

/** The published address a matched redirect sends the reader to, from the structure read; null when what it names is gone. */
async function redirectTarget(
  ctx: RequestContext,
  site: SiteRecord,
  answer: LookupAnswer,
  treeOfRevision: (revisionId: string) => Promise<PageTree>,
  match: { row: RedirectRow; rest: string },
): Promise<string | null> {
  const destination = match.row.destination;
  let base: string | null = null;
  if (destination.kind === 'external') base = destination.url;
  else if (destination.kind === 'site-section') {
    const section = answer.sections.find((entry) => entry.id === destination.siteSectionId);
    base = section ? sectionPublishedUrl(site, section as never, ctx.urls) : null;
  } else {
    const siteSpace = answer.siteSpaces.find((entry) => entry.id === destination.siteSpaceId);
    if (!siteSpace) return null;
    const sectionPath = siteSpace.sectionId ? (answer.sections.find((entry) => entry.id === siteSpace.sectionId)?.path ?? null) : null;
    base = siteSpacePublishedUrl(site, sectionPath, siteSpace as never, ctx.urls);
    if (destination.kind === 'site-page') {
      if (siteSpace.deleted) return null;
      const pagePath = (await treeOfRevision(siteSpace.revisionId)).paths.get(destination.pageId);
      if (pagePath === undefined) return null;
      if (pagePath) base = `${base}/${pagePath}`;
    }
  }
  if (base === null) return null;
  const { rest } = match;
  return match.row.captureWildcard && rest ? `${base.replace(/\/+$/, '')}${rest.startsWith('/') ? '' : '/'}${rest}` : base;
}
