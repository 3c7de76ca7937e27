import { createHash } from 'node:crypto';
import type { PublicUrls } from '../../config.ts';
import type { RevisionRecord } from '../../db/index.ts';
import { withFrontMatter } from './front-matter.ts';
import type { PageDocument } from './page-document.ts';
import type { PageState, PageTree } from './tree.ts';

export interface ContentPresentation {
  urls: PublicUrls;
  spaceId: string;
  /** Git metadata (`git`), left out with `metadata=false`. */
  metadata: boolean;
  /** The markdown body of each document page, by document id (an empty page's is ""). */
  bodies?: Map<string, string>;
  /** The form of those bodies: `markdown` (the default), or the structured `document`. */
  format?: 'markdown' | 'document';
  /** With `format: 'document'`: the document of each document page, by page id (src/domain/content/page-document.ts). */
  documents?: Map<string, PageDocument>;
}

/** Layout of a page that has not set one (official RevisionPageLayoutOptions). */
export const DEFAULT_PAGE_LAYOUT = {
  width: 'default',
  cover: true,
  coverSize: 'hero',
  coverMask: 'none',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: true,
  actions: true,
  anchors: true,
} as const;

/** A page's layout, every option given (official RevisionPageLayoutOptions): those it set, the defaults for the others. */
export function pageLayout(page: Pick<PageState, 'layout'>): typeof DEFAULT_PAGE_LAYOUT & Record<string, unknown> {
  return { ...DEFAULT_PAGE_LAYOUT, ...(page.layout ?? {}) };
}

export function pageAppUrl(options: ContentPresentation, pageId: string): string {
  return `${options.urls.app}/s/${options.spaceId}/page/${pageId}`;
}

/** The file a page would be in a Git export: `<path>.md`, or `<path>/README.md` for a page with pages. */
function gitPath(tree: PageTree, page: PageState): string {
  const path = tree.paths.get(page.pageId) || 'README';
  return tree.children.get(page.pageId)?.length ? `${path}/README.md` : `${path}.md`;
}

/** A document page's body as the official Document oneOf has it: `markdown`, or the structured `document`. */
function bodyOf(options: ContentPresentation, bodies: Map<string, string>, page: PageState) {
  if (options.format === 'document') {
    const document = options.documents?.get(page.pageId);
    if (!document) throw new Error(`no document read for page ${page.pageId}`);
    return { document };
  }
  return { markdown: withFrontMatter(page, (page.documentId && bodies.get(page.documentId)) || '') };
}

/** A page and its pages, as the official RevisionPage shapes (document, group, link). */
export function presentPage(tree: PageTree, page: PageState, options: ContentPresentation, body: Record<string, unknown> = {}): Record<string, unknown> {
  const common = {
    id: page.pageId,
    title: page.title,
    ...(page.emoji ? { emoji: page.emoji } : {}),
    ...(page.icon ? { icon: page.icon } : {}),
    createdAt: page.createdAt.toISOString(),
    updatedAt: page.updatedAt.toISOString(),
    ...(page.condition ? { condition: page.condition } : {}),
  };
  const pages = () => (tree.children.get(page.pageId) ?? []).map((child) => presentPage(tree, child, options));
  const flags = { hidden: page.hidden, noIndex: page.noIndex, noRobotsIndex: page.noRobotsIndex };
  switch (page.type) {
    case 'group':
      return { ...common, kind: 'group', type: 'group', slug: page.slug, path: tree.paths.get(page.pageId) ?? page.slug, ...flags, pages: pages() };
    case 'link':
      return { ...common, kind: 'link', type: 'link', target: page.target ?? {}, hidden: page.hidden };
    default:
      return {
        ...common,
        kind: 'sheet',
        type: 'document',
        urls: { app: pageAppUrl(options, page.pageId) },
        slug: page.slug,
        path: tree.paths.get(page.pageId) ?? page.slug,
        ...(page.description ? { description: page.description } : {}),
        ...(page.documentId ? { documentId: page.documentId } : {}),
        ...flags,
        layout: pageLayout(page),
        ...(page.cover ? { cover: page.cover } : {}),
        ...(page.variables ? { variables: page.variables } : {}),
        tags: [],
        ...(options.metadata
          ? {
              git: {
                oid: createHash('sha1')
                  .update(page.documentId ?? '')
                  .digest('hex'),
                path: gitPath(tree, page),
              },
            }
          : {}),
        ...(options.bodies ? bodyOf(options, options.bodies, page) : {}),
        ...body,
        pages: pages(),
      };
  }
}

/** The top-level pages of a tree, each with its pages. */
export function presentPages(tree: PageTree, options: ContentPresentation) {
  return (tree.children.get(null) ?? []).map((page) => presentPage(tree, page, options));
}

export function presentRevision(
  revision: RevisionRecord,
  tree: PageTree,
  files: unknown[],
  options: ContentPresentation,
  mergedFrom?: Record<string, unknown>,
): Record<string, unknown> {
  return {
    object: 'revision',
    id: revision.id,
    type: revision.type,
    parents: revision.parents as string[],
    pages: presentPages(tree, options),
    files,
    reusableContents: [],
    tags: [],
    createdAt: revision.createdAt.toISOString(),
    urls: { app: `${options.urls.app}/s/${options.spaceId}/revisions/${revision.id}` },
    ...(revision.type === 'merge' && mergedFrom ? { mergedFrom } : {}),
  };
}
