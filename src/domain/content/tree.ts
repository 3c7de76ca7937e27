import type { RequestContext, RevisionCache } from '../../context.ts';
import { Prisma } from '../../db/index.ts';
import { LRUCache } from 'lru-cache';
import { defineLoader, loader } from '../loaders.ts';

export const PAGE_TYPES = ['document', 'group', 'link'] as const;
export type PageType = (typeof PAGE_TYPES)[number];

/** What a page is in one revision: its version's fields and its place in the tree. */
export interface PageState {
  pageId: string;
  versionId: string;
  parentId: string | null;
  position: string;
  type: PageType;
  title: string;
  slug: string;
  emoji: string | null;
  icon: string | null;
  description: string | null;
  documentId: string | null;
  hidden: boolean;
  noIndex: boolean;
  noRobotsIndex: boolean;
  condition: string | null;
  layout: Record<string, unknown> | null;
  cover: Record<string, unknown> | null;
  variables: Record<string, unknown> | null;
  target: Record<string, unknown> | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The fields of a page version: what makes two versions the same page content. */
export const VERSION_FIELDS = [
  'type',
  'title',
  'slug',
  'emoji',
  'icon',
  'description',
  'documentId',
  'hidden',
  'noIndex',
  'noRobotsIndex',
  'condition',
  'layout',
  'cover',
  'variables',
  'target',
] as const satisfies ReadonlyArray<keyof PageState>;

/**
 * A revision's pages, in tree order, with each page's path and children. Built
 * once per revision and request from one statement, whatever the depth.
 */
export interface PageTree {
  revisionId: string;
  /** Pages by id, in table-of-contents order (depth first). */
  pages: Map<string, PageState>;
  /** Children of each page id (and of null, the root), in sibling order. */
  children: Map<string | null, PageState[]>;
  /** Path of each page: its ancestors' slugs and its own, joined by "/". */
  paths: Map<string, string>;
}

export interface PageRow
  extends Omit<PageState, 'hidden' | 'noIndex' | 'noRobotsIndex' | 'layout' | 'cover' | 'variables' | 'target' | 'createdAt' | 'updatedAt'> {
  hidden: boolean | number;
  noIndex: boolean | number;
  noRobotsIndex: boolean | number;
  layout: unknown;
  cover: unknown;
  variables: unknown;
  target: unknown;
  createdAt: Date | string | number;
  updatedAt: Date | string | number;
}

/**
 * Trees of revisions, shared between requests: a revision never changes once
 * written, so its tree is valid for as long as it is kept, on every instance.
 * Reads go through the space or change request that points at a revision, so
 * what the viewer may see is still decided per request.
 */
export function createPageTreeCache(maxBytes: number): RevisionCache | undefined {
  if (maxBytes <= 0) return undefined;
  // Only this module fills it, with page trees.
  return new LRUCache<string, object>({ maxSize: maxBytes, sizeCalculation: (tree) => estimatedBytes(tree as PageTree) });
}

/** Roughly what a tree holds in memory: per page its objects and map entries, and its strings. */
function estimatedBytes(tree: PageTree): number {
  let bytes = 256;
  for (const page of tree.pages.values()) {
    bytes += 640 + 2 * (page.title.length + page.slug.length + (page.description?.length ?? 0) + (tree.paths.get(page.pageId)?.length ?? 0));
  }
  return bytes;
}

/** One statement for every page of the revisions not in the shared cache, however deep their trees. */
export const pageTrees = defineLoader<string, PageTree>(async (ctx, requested) => {
  const cache = ctx.pageTreeCache;
  // The hits are taken now: while the others are read, other requests (or this one's own
  // additions) can evict them from the cache.
  const trees = new Map<string, PageTree>();
  for (const id of requested) {
    const cached = cache?.get(id) as PageTree | undefined;
    if (cached) trees.set(id, cached);
  }
  const missing = requested.filter((id) => !trees.has(id));
  if (missing.length) {
    for (const [id, tree] of await readPageTrees(ctx, missing)) {
      trees.set(id, tree);
      cache?.set(id, tree);
    }
  }
  return requested.map((id) => trees.get(id)!);
});

async function readPageTrees(ctx: RequestContext, revisionIds: readonly string[]): Promise<Map<string, PageTree>> {
  const rows = await ctx.db.$queryRaw<Array<PageRow & { revisionId: string }>>(Prisma.sql`
    SELECT e."revisionId", e."pageId", e."versionId", e."parentId", e."position",
      v."type", v."title", v."slug", v."emoji", v."icon", v."description", v."documentId", v."hidden", v."noIndex",
      v."noRobotsIndex", v."condition", v."layout", v."cover", v."variables", v."target", v."createdAt", v."updatedAt"
    FROM "revision_pages" e JOIN "page_versions" v ON v."id" = e."versionId"
    WHERE e."revisionId" IN (${Prisma.join([...revisionIds])})`);
  const byRevision = new Map<string, PageState[]>(revisionIds.map((id) => [id, []]));
  for (const row of rows) byRevision.get(row.revisionId)?.push(pageStateOf(row));
  return new Map(revisionIds.map((id) => [id, treeOf(id, byRevision.get(id)!)]));
}

export function loadPageTree(ctx: RequestContext, revisionId: string): Promise<PageTree> {
  return loader(ctx, pageTrees).load(revisionId);
}

/** Drivers differ on booleans, dates and JSON in raw rows (SQLite: 0/1, text); one shape for both. */
export function pageStateOf(row: PageRow): PageState {
  const json = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : (value ?? null));
  return {
    pageId: row.pageId,
    versionId: row.versionId,
    parentId: row.parentId,
    position: row.position,
    type: row.type,
    title: row.title,
    slug: row.slug,
    emoji: row.emoji,
    icon: row.icon,
    description: row.description,
    documentId: row.documentId,
    hidden: Boolean(row.hidden),
    noIndex: Boolean(row.noIndex),
    noRobotsIndex: Boolean(row.noRobotsIndex),
    condition: row.condition,
    layout: json(row.layout),
    cover: json(row.cover),
    variables: json(row.variables),
    target: json(row.target),
    createdAt: new Date(row.createdAt),
    updatedAt: new Date(row.updatedAt),
  };
}

/**
 * A page's path from its parent's and its slug: the slugs from the top down,
 * joined by "/" (a page without a slug has its parent's path). Compiled reads
 * write the same rule in SQL (src/graphql/compiled/reads.ts pagePath).
 */
export function joinPath(prefix: string, slug: string): string {
  return prefix ? (slug ? `${prefix}/${slug}` : prefix) : slug;
}

/** The tree of a set of page states: sibling order by position (then id), paths from slugs. */
export function treeOf(revisionId: string, states: Iterable<PageState>): PageTree {
  const pages = new Map<string, PageState>();
  const children = new Map<string | null, PageState[]>();
  for (const page of states) {
    pages.set(page.pageId, page);
    const siblings = children.get(page.parentId);
    if (siblings) siblings.push(page);
    else children.set(page.parentId, [page]);
  }
  for (const siblings of children.values()) {
    siblings.sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.pageId < b.pageId ? -1 : 1));
  }
  const paths = new Map<string, string>();
  // Pages in table-of-contents order (depth first), whatever order the rows came in:
  // listings that walk `pages` (links, backlinks) page the same way every time.
  const inOrder = new Map<string, PageState>();
  const walk = (parentId: string | null, prefix: string) => {
    for (const page of children.get(parentId) ?? []) {
      const path = joinPath(prefix, page.slug);
      paths.set(page.pageId, path);
      inOrder.set(page.pageId, page);
      walk(page.pageId, path);
    }
  };
  walk(null, '');
  for (const pageId of [...pages.keys()].sort()) if (!inOrder.has(pageId)) inOrder.set(pageId, pages.get(pageId)!);
  return { revisionId, pages: inOrder, children, paths };
}

/** Every page under `pageId` (not itself), depth first. */
export function descendantsOf(tree: PageTree, pageId: string | null): PageState[] {
  const found: PageState[] = [];
  const walk = (id: string | null) => {
    for (const child of tree.children.get(id) ?? []) {
      found.push(child);
      walk(child.pageId);
    }
  };
  walk(pageId);
  return found;
}

/** The tree with only the pages `keep` lets through (the same tree when it keeps them all). */
export function treeWithPages(tree: PageTree, keep: (page: PageState) => boolean): PageTree {
  const pages = new Map([...tree.pages].filter(([, page]) => keep(page)));
  if (pages.size === tree.pages.size) return tree;
  const children = new Map(
    [...tree.children]
      .filter(([parentId]) => parentId === null || pages.has(parentId))
      .map(([parentId, list]) => [parentId, list.filter((page) => pages.has(page.pageId))] as const),
  );
  const paths = new Map([...tree.paths].filter(([pageId]) => pages.has(pageId)));
  return { ...tree, pages, children, paths };
}

/** The page at a path (slugs joined by "/", leading or trailing slashes ignored). */
export function pageAtPath(tree: PageTree, path: string): PageState | undefined {
  const wanted = path.replace(/^\/+|\/+$/g, '');
  for (const [pageId, pagePath] of tree.paths) if (pagePath === wanted) return tree.pages.get(pageId);
  return undefined;
}

/** The page's parent, null for a top-level page. */
export function parentOf(tree: PageTree, page: PageState): PageState | null {
  return (page.parentId && tree.pages.get(page.parentId)) || null;
}

/** The pages above `page`, from the top down to its parent: a page's breadcrumbs. */
export function ancestorsOf(tree: PageTree, page: PageState): PageState[] {
  const ancestors: PageState[] = [];
  for (let parent = parentOf(tree, page); parent && ancestors.length < tree.pages.size; parent = parentOf(tree, parent)) ancestors.unshift(parent);
  return ancestors;
}

/**
 * Whether a reader pages through it: a document (groups and links are not read)
 * shown in the table of contents (neither hidden nor under a hidden page).
 */
function isReadInOrder(tree: PageTree, page: PageState): boolean {
  return page.type === 'document' && !page.hidden && !ancestorsOf(tree, page).some((ancestor) => ancestor.hidden);
}

/**
 * The pages read before and after `page` in table-of-contents order (depth
 * first), as a docs site's "previous" and "next" links: the nearest documents
 * shown in the table of contents, skipping groups, links and hidden pages (and
 * those `shown` leaves out: the pages a visitor's conditions hide).
 */
export function neighboursOf(
  tree: PageTree,
  page: PageState,
  shown: (page: PageState) => boolean = () => true,
): { previous: PageState | null; next: PageState | null } {
  const { order, positions, inOrder } = readingOrderOf(tree);
  const index = positions.get(page.pageId) ?? -1;
  const readable = (i: number) => inOrder[i]! && shown(order[i]!);
  let previous: PageState | null = null;
  let next: PageState | null = null;
  for (let i = index - 1; i >= 0 && !previous; i--) if (readable(i)) previous = order[i]!;
  for (let i = index + 1; index >= 0 && i < order.length && !next; i++) if (readable(i)) next = order[i]!;
  return { previous, next };
}

/** A tree's pages in table-of-contents order, each one's place, and whether a reader pages through it: made once per tree (trees never change). */
const readingOrders = new WeakMap<PageTree, { order: PageState[]; positions: Map<string, number>; inOrder: boolean[] }>();

function readingOrderOf(tree: PageTree) {
  let known = readingOrders.get(tree);
  if (!known) {
    const order = [...tree.pages.values()];
    known = { order, positions: new Map(order.map((page, i) => [page.pageId, i])), inOrder: order.map((page) => isReadInOrder(tree, page)) };
    readingOrders.set(tree, known);
  }
  return known;
}
