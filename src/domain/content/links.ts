import { type Token, lexer } from 'marked';
import { z } from 'zod';
import type { RequestContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { offsetPage } from '../../lib/pagination.ts';
import { queryInt } from '../../lib/validation.ts';
import { type PageTree, loadPageTree } from './tree.ts';

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

interface ExtractedLink {
  kind: 'page' | 'file' | 'url';
  target: string;
}

/** The page, file and URL links of a markdown body, in order (anchors and relative paths are not links to content). */
export function extractLinks(markdown: string): ExtractedLink[] {
  const links: ExtractedLink[] = [];
  const walk = (tokens: Token[] | undefined) => {
    for (const token of tokens ?? []) {
      if (token.type === 'link' || token.type === 'image') {
        const href = (token as { href: string }).href;
        const page = /^\/pages\/([\w-]+)(?:#.*)?$/.exec(href);
        const file = /^\/files\/([\w-]+)(?:[?#].*)?$/.exec(href);
        if (page) links.push({ kind: 'page', target: page[1]! });
        else if (file) links.push({ kind: 'file', target: file[1]! });
        else if (/^(https?|mailto):/i.test(href)) links.push({ kind: 'url', target: href });
      }
      if ('tokens' in token) walk(token.tokens);
      if (token.type === 'list') for (const item of (token as { items: Array<{ tokens: Token[] }> }).items) walk(item.tokens);
    }
  };
  walk(lexer(markdown));
  return links;
}

/** Stores the links of bodies being stored (idempotent, as storing bodies is). */
export async function storeDocumentLinks(tx: RequestContext, documents: Map<string, string>): Promise<void> {
  const rows = [...documents].flatMap(([documentId, markdown]) =>
    extractLinks(markdown).map((link, position) => ({ documentId, position, ...link })),
  );
  if (!rows.length) return;
  const existing = new Set(
    (await tx.db.documentLink.findMany({ where: { documentId: { in: [...documents.keys()] } }, select: { documentId: true } })).map((row) => row.documentId),
  );
  const fresh = rows.filter((row) => !existing.has(row.documentId));
  if (fresh.length) await tx.db.documentLink.createMany({ data: fresh });
}

interface LinkRow extends ExtractedLink {
  documentId: string;
}

async function linksOfTree(ctx: RequestContext, tree: PageTree): Promise<Array<LinkRow & { pageId: string }>> {
  const pagesByDocument = new Map<string, string[]>();
  for (const page of tree.pages.values()) {
    if (page.documentId) pagesByDocument.set(page.documentId, [...(pagesByDocument.get(page.documentId) ?? []), page.pageId]);
  }
  if (!pagesByDocument.size) return [];
  const rows = await ctx.db.documentLink.findMany({
    where: { documentId: { in: [...pagesByDocument.keys()] } },
    orderBy: [{ documentId: 'asc' }, { position: 'asc' }],
    select: { documentId: true, kind: true, target: true },
  });
  return rows.flatMap((row) => pagesByDocument.get(row.documentId)!.map((pageId) => ({ ...(row as LinkRow), pageId })));
}

function statusOf(ctx: RequestContext, link: ExtractedLink, tree: PageTree, files: Set<string>): LinkStatus {
  if (link.kind === 'page') return tree.pages.has(link.target) ? 'ok' : 'broken';
  if (link.kind === 'file') return files.has(link.target) ? 'ok' : 'broken';
  return link.target.startsWith(`${ctx.urls.app}/`) || link.target.startsWith(`${ctx.urls.api}/`) ? 'in-app' : 'ok';
}

async function filesOf(ctx: RequestContext, revisionId: string): Promise<Set<string>> {
  return new Set((await ctx.db.revisionFile.findMany({ where: { revisionId }, select: { fileId: true } })).map((row) => row.fileId));
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

/**
 * The links of a revision (or of one page), one item per target with the pages
 * it is linked from, filtered by status, with the stats of the whole revision.
 */
export async function listLinks(ctx: RequestContext, scope: LinkScope, query: z.output<typeof LinksQuery>) {
  const tree = await loadPageTree(ctx, scope.revisionId);
  if (scope.pageId && !tree.pages.has(scope.pageId)) throw notFound('Page', scope.pageId);
  const files = await filesOf(ctx, scope.revisionId);
  const all = (await linksOfTree(ctx, tree)).filter((link) => !scope.pageId || link.pageId === scope.pageId);
  const byTarget = new Map<string, { link: ExtractedLink; status: LinkStatus; pages: Set<string> }>();
  for (const link of all) {
    const key = `${link.kind}:${link.target}`;
    const entry = byTarget.get(key) ?? { link, status: statusOf(ctx, link, tree, files), pages: new Set<string>() };
    entry.pages.add(link.pageId);
    byTarget.set(key, entry);
  }
  const items = [...byTarget.values()].map(({ link, status, pages }) => ({
    status,
    relation: link.kind === 'url' ? 'external' : link.kind,
    targetReference: link.kind === 'page' ? { kind: 'page', page: link.target } : link.kind === 'file' ? { kind: 'file', file: link.target } : { kind: 'url', url: link.target },
    locationReferences: [...pages].map((pageId) => ({
      kind: 'page',
      organization: scope.organizationId,
      space: scope.spaceId,
      versionContext: { type: 'revision', revision: scope.revisionId },
      page: pageId,
    })),
  }));
  let brokenInChangeRequests = 0;
  for (const revisionId of scope.changeRequestRevisionIds) {
    const changeRequestTree = await loadPageTree(ctx, revisionId);
    const changeRequestFiles = await filesOf(ctx, revisionId);
    for (const link of await linksOfTree(ctx, changeRequestTree)) {
      if (statusOf(ctx, link, changeRequestTree, changeRequestFiles) === 'broken') brokenInChangeRequests++;
    }
  }
  const filtered = query.status ? items.filter((item) => item.status === query.status) : items;
  return {
    ...offsetPage(filtered, query.page, query.limit ?? 100, 'links'),
    stats: { total: items.length, broken: { total: items.filter((item) => item.status === 'broken').length, changeRequest: brokenInChangeRequests } },
  };
}

/** The pages of a revision that link to a file. */
export async function listBacklinks(ctx: RequestContext, scope: Omit<LinkScope, 'pageId' | 'changeRequestRevisionIds'>, fileId: string, query: z.output<typeof BacklinksQuery>) {
  const tree = await loadPageTree(ctx, scope.revisionId);
  const pages = new Set((await linksOfTree(ctx, tree)).filter((link) => link.kind === 'file' && link.target === fileId).map((link) => link.pageId));
  const items = [...pages].map((pageId) => ({
    kind: 'page',
    organization: scope.organizationId,
    space: scope.spaceId,
    versionContext: { type: 'revision', revision: scope.revisionId },
    page: pageId,
  }));
  return offsetPage(items, query.page, query.limit ?? 100, 'backlinks');
}
