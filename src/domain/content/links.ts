import { z } from 'zod';
import type { RequestContext } from '../../context.ts';
import { Prisma } from '../../db/index.ts';
import { notFound } from '../../errors.ts';
import { offsetPage } from '../../lib/pagination.ts';
import { queryInt } from '../../lib/validation.ts';
import { defineLoader, loader } from '../loaders.ts';
import type { JSONDocument } from './model/nodes.ts';
import { documentRefs } from './model/text.ts';
import { type PageState, type PageTree, loadPageTree, pageTrees } from './tree.ts';

/**
 * Links between content: extracted from a page body once, when the body is
 * stored (a document never changes), and resolved against a revision when read:
 * a link to a page or file the revision lacks is `broken`, a link into this
 * application is `in-app`, anything else `ok`.
 */

export const LINK_STATUSES = ['ok', 'broken', 'in-app'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

export const LinksQuery = z.object({
  status: z.enum(LINK_STATUSES).optional(),
  page: z.string().min(1).max(200).optional(),
  limit: queryInt(1, 1000).optional(),
});
export const BacklinksQuery = LinksQuery.omit({ status: true });

export interface ExtractedLink {
  kind: 'page' | 'file' | 'url';
  target: string;
}

/** The page, file and URL links of a body, in order (anchors in the page and relative paths are not links to content). */
export function extractLinks(document: JSONDocument): ExtractedLink[] {
  const links: ExtractedLink[] = [];
  for (const ref of documentRefs(document)) {
    if (ref.kind === 'page' || (ref.kind === 'anchor' && typeof ref.page === 'string')) links.push({ kind: 'page', target: String(ref.page) });
    else if (ref.kind === 'file') links.push({ kind: 'file', target: String(ref.file) });
    else if (ref.kind === 'url' && /^(https?|mailto):/i.test(String(ref.url))) links.push({ kind: 'url', target: String(ref.url) });
  }
  return links;
}

/** Stores the links of bodies being stored, from their structures (idempotent, as storing bodies is). */
export async function storeDocumentLinks(tx: RequestContext, documents: Map<string, JSONDocument>): Promise<void> {
  await storeExtractedLinks(tx, new Map([...documents].map(([documentId, document]) => [documentId, extractLinks(document)])));
}

/** Stores links already extracted from bodies being stored (idempotent: a body that has its links keeps them). */
export async function storeExtractedLinks(tx: RequestContext, documents: Map<string, ExtractedLink[]>): Promise<void> {
  const rows = [...documents].flatMap(([documentId, links]) => links.map((link, position) => ({ documentId, position, ...link })));
  if (!rows.length) return;
  const existing = new Set(
    (await tx.db.documentLink.findMany({ where: { documentId: { in: [...documents.keys()] } }, select: { documentId: true } })).map((row) => row.documentId),
  );
  const fresh = rows.filter((row) => !existing.has(row.documentId));
  // Raw statements of a few hundred rows: a body can hold many links, and createMany's payloads cost far more.
  for (let start = 0; start < fresh.length; start += 500) {
    const values = fresh.slice(start, start + 500).map((row) => Prisma.sql`(${row.documentId}, ${row.position}, ${row.kind}, ${row.target})`);
    await tx.db.$executeRaw(Prisma.sql`
      INSERT INTO "document_links" ("documentId", "position", "kind", "target") VALUES ${Prisma.join(values)}
      ON CONFLICT ("documentId", "position") DO NOTHING`);
  }
}

/** The links of stored bodies, in order: one statement for every body a request asks about. */
const documentLinks = defineLoader<string, ExtractedLink[]>(async (ctx, documentIds) => {
  const rows = await ctx.db.documentLink.findMany({
    where: { documentId: { in: [...documentIds] } },
    orderBy: [{ documentId: 'asc' }, { position: 'asc' }],
    select: { documentId: true, kind: true, target: true },
  });
  const byDocument = new Map<string, ExtractedLink[]>(documentIds.map((id) => [id, []]));
  for (const row of rows) byDocument.get(row.documentId)!.push({ kind: row.kind as ExtractedLink['kind'], target: row.target });
  return documentIds.map((id) => byDocument.get(id)!);
});

/** The file ids of revisions, to tell a file link ok from broken. */
const revisionFileIds = defineLoader<string, Set<string>>(async (ctx, revisionIds) => {
  const rows = await ctx.db.revisionFile.findMany({ where: { revisionId: { in: [...revisionIds] } }, select: { revisionId: true, fileId: true } });
  const byRevision = new Map<string, Set<string>>(revisionIds.map((id) => [id, new Set()]));
  for (const row of rows) byRevision.get(row.revisionId)!.add(row.fileId);
  return revisionIds.map((id) => byRevision.get(id)!);
});

/** The files of revisions by name (the first by id where two share one), to resolve a relative path to a file. */
export const revisionFilesByName = defineLoader<string, Map<string, string>>(async (ctx, revisionIds) => {
  const rows = await ctx.db.revisionFile.findMany({
    where: { revisionId: { in: [...revisionIds] } },
    orderBy: { fileId: 'asc' },
    select: { revisionId: true, fileId: true, version: { select: { name: true } } },
  });
  const byRevision = new Map<string, Map<string, string>>(revisionIds.map((id) => [id, new Map()]));
  for (const row of rows) {
    const names = byRevision.get(row.revisionId)!;
    if (!names.has(row.version.name)) names.set(row.version.name, row.fileId);
  }
  return revisionIds.map((id) => byRevision.get(id)!);
});

async function linksOfPages(ctx: RequestContext, pages: Iterable<PageState>): Promise<Array<ExtractedLink & { pageId: string }>> {
  const withBodies = [...pages].filter((page) => page.documentId);
  const links = await loader(ctx, documentLinks).loadMany(withBodies.map((page) => page.documentId!));
  return withBodies.flatMap((page, index) => {
    const found = links[index]!;
    if (found instanceof Error) throw found;
    return found.map((link) => ({ ...link, pageId: page.pageId }));
  });
}

function statusOf(ctx: RequestContext, link: ExtractedLink, tree: PageTree, files: Set<string>): LinkStatus {
  if (link.kind === 'page') return tree.pages.has(link.target) ? 'ok' : 'broken';
  if (link.kind === 'file') return files.has(link.target) ? 'ok' : 'broken';
  return link.target.startsWith(`${ctx.urls.app}/`) || link.target.startsWith(`${ctx.urls.api}/`) ? 'in-app' : 'ok';
}

/** A link target of a revision (or of some of its pages), its status and the pages it is in. */
export interface LinkEntry {
  kind: ExtractedLink['kind'];
  target: string;
  status: LinkStatus;
  pageIds: string[];
}

/** The links located in the given pages of a revision (all of them when absent), one entry per target. */
export async function revisionLinks(ctx: RequestContext, tree: PageTree, pageIds?: string[]): Promise<LinkEntry[]> {
  const pages = pageIds ? pageIds.map((id) => tree.pages.get(id)).filter((page) => page !== undefined) : tree.pages.values();
  const [links, files] = await Promise.all([linksOfPages(ctx, pages), loader(ctx, revisionFileIds).load(tree.revisionId)]);
  const byTarget = new Map<string, LinkEntry>();
  for (const link of links) {
    const key = `${link.kind}:${link.target}`;
    const entry = byTarget.get(key) ?? { kind: link.kind, target: link.target, status: statusOf(ctx, link, tree, files), pageIds: [] };
    if (!entry.pageIds.includes(link.pageId)) entry.pageIds.push(link.pageId);
    byTarget.set(key, entry);
  }
  return [...byTarget.values()];
}

/** The ids of the pages of a revision that link to a file. */
export async function fileBacklinks(ctx: RequestContext, tree: PageTree, fileId: string): Promise<string[]> {
  const links = await linksOfPages(ctx, tree.pages.values());
  return [...new Set(links.filter((link) => link.kind === 'file' && link.target === fileId).map((link) => link.pageId))];
}

export interface LinkScope {
  organizationId: string;
  spaceId: string;
  revisionId: string;
  /** Only the links located in this page. */
  pageId?: string;
  /** Revisions of the space's open change requests: their broken links are counted in the stats. */
  changeRequestRevisionIds: string[];
}

function locationOf(scope: Omit<LinkScope, 'pageId' | 'changeRequestRevisionIds'>, pageId: string) {
  return {
    kind: 'page',
    organization: scope.organizationId,
    space: scope.spaceId,
    versionContext: { type: 'revision', revision: scope.revisionId },
    page: pageId,
  };
}

/**
 * The links of a revision (or of one page), one item per target with the pages
 * it is linked from, filtered by status, with the stats of the whole revision.
 */
export async function listLinks(ctx: RequestContext, scope: LinkScope, query: z.output<typeof LinksQuery>) {
  const tree = await loadPageTree(ctx, scope.revisionId);
  if (scope.pageId && !tree.pages.has(scope.pageId)) throw notFound('Page', scope.pageId);
  const entries = await revisionLinks(ctx, tree, scope.pageId ? [scope.pageId] : undefined);
  const items = entries.map((entry) => ({
    status: entry.status,
    relation: entry.kind === 'url' ? 'external' : entry.kind,
    targetReference:
      entry.kind === 'page'
        ? { kind: 'page', page: entry.target }
        : entry.kind === 'file'
          ? { kind: 'file', file: entry.target }
          : { kind: 'url', url: entry.target },
    locationReferences: entry.pageIds.map((pageId) => locationOf(scope, pageId)),
  }));
  const changeRequestTrees = await loader(ctx, pageTrees).loadMany(scope.changeRequestRevisionIds);
  let brokenInChangeRequests = 0;
  for (const changeRequestTree of changeRequestTrees) {
    if (changeRequestTree instanceof Error) throw changeRequestTree;
    brokenInChangeRequests += (await revisionLinks(ctx, changeRequestTree)).filter((entry) => entry.status === 'broken').length;
  }
  const filtered = query.status ? items.filter((item) => item.status === query.status) : items;
  return {
    ...offsetPage(filtered, query.page, query.limit ?? 100, 'links'),
    stats: { total: items.length, broken: { total: items.filter((item) => item.status === 'broken').length, changeRequest: brokenInChangeRequests } },
  };
}

/** The pages of a revision that link to a file. */
export async function listBacklinks(
  ctx: RequestContext,
  scope: Omit<LinkScope, 'pageId' | 'changeRequestRevisionIds'>,
  fileId: string,
  query: z.output<typeof BacklinksQuery>,
) {
  const tree = await loadPageTree(ctx, scope.revisionId);
  const items = (await fileBacklinks(ctx, tree, fileId)).map((pageId) => locationOf(scope, pageId));
  return offsetPage(items, query.page, query.limit ?? 100, 'backlinks');
}
