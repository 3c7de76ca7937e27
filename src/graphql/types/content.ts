import { LINK_STATUSES, type LinkEntry, fileBacklinks, revisionLinks } from '../../domain/content/links.ts';
import { revisionContent, pageBody } from '../../domain/content/service.ts';
import { loadPageTree } from '../../domain/content/tree.ts';
import type { PageState, PageTree } from '../../domain/content/tree.ts';
import { DOCUMENT_FORMATS } from '../../domain/content/inputs.ts';
import { downloadUrl, listRevisionFiles } from '../../domain/content/files.ts';
import { builder } from '../builder.ts';
import { Space } from './space.ts';

/** A revision of a space or change request, loaded (with its page tree) when a field asks. */
export const Revision = builder.objectRef<{ spaceId: string; revisionId: string }>('Revision');
/** A page of a revision: its state and the tree it is in (paths and children come from there). */
export const Page = builder.objectRef<{ page: PageState; tree: PageTree }>('Page');
export const DocumentFormat = builder.enumType('DocumentFormat', { values: DOCUMENT_FORMATS });

/** GraphQL names cannot hold dashes: `in-app` is `in_app` here. */
const LinkStatus = builder.enumType('LinkStatus', {
  values: Object.fromEntries(LINK_STATUSES.map((status) => [status.replace('-', '_'), { value: status }])) as {
    ok: { value: 'ok' };
    broken: { value: 'broken' };
    in_app: { value: 'in-app' };
  },
});

const ContentLink = builder.objectRef<LinkEntry>('ContentLink').implement({
  description: 'A link target of the content and the pages linking to it',
  fields: (t) => ({
    status: t.field({
      type: LinkStatus,
      description: 'broken when the page or file is not in the revision; in_app when it points into this application',
      resolve: (link) => link.status,
    }),
    relation: t.string({ description: 'page, file or external', resolve: (link) => (link.kind === 'url' ? 'external' : link.kind) }),
    target: t.field({
      type: 'JSON',
      description: 'What it points at: {kind, page | file | url}',
      resolve: (link) => ({ kind: link.kind, [link.kind]: link.target }),
    }),
    pageIds: t.idList({ description: 'The pages it is in', resolve: (link) => link.pageIds }),
  }),
});

Revision.implement({
  description: 'Immutable content: a page tree and its files',
  fields: (t) => ({
    id: t.exposeID('revisionId'),
    object: t.string({ resolve: () => 'revision' }),
    type: t.string({ resolve: async ({ spaceId, revisionId }, _args, ctx) => (await revisionContent(ctx, spaceId, revisionId)).revision.type }),
    parents: t.stringList({
      resolve: async ({ spaceId, revisionId }, _args, ctx) => (await revisionContent(ctx, spaceId, revisionId)).revision.parents as string[],
    }),
    createdAt: t.field({
      type: 'DateTime',
      resolve: async ({ spaceId, revisionId }, _args, ctx) => (await revisionContent(ctx, spaceId, revisionId)).revision.createdAt.toISOString(),
    }),
    pages: t.field({
      type: [Page],
      description: 'The top-level pages; each has its `pages`. The whole tree is one statement, whatever its depth.',
      resolve: async ({ spaceId, revisionId }, _args, ctx) => {
        const { tree } = await revisionContent(ctx, spaceId, revisionId);
        return (tree.children.get(null) ?? []).map((page) => ({ page, tree }));
      },
    }),
  }),
});

Page.implement({
  fields: (t) => ({
    id: t.id({ resolve: ({ page }) => page.pageId }),
    type: t.string({ description: 'document, group or link', resolve: ({ page }) => page.type }),
    title: t.string({ resolve: ({ page }) => page.title }),
    slug: t.string({ resolve: ({ page }) => page.slug }),
    path: t.string({ description: 'Slugs from the top, joined by "/"', resolve: ({ page, tree }) => tree.paths.get(page.pageId) ?? page.slug }),
    emoji: t.string({ nullable: true, resolve: ({ page }) => page.emoji }),
    icon: t.string({ nullable: true, resolve: ({ page }) => page.icon }),
    description: t.string({ nullable: true, resolve: ({ page }) => page.description }),
    hidden: t.boolean({ resolve: ({ page }) => page.hidden }),
    noIndex: t.boolean({ resolve: ({ page }) => page.noIndex }),
    noRobotsIndex: t.boolean({ resolve: ({ page }) => page.noRobotsIndex }),
    createdAt: t.field({ type: 'DateTime', resolve: ({ page }) => page.createdAt.toISOString() }),
    updatedAt: t.field({ type: 'DateTime', resolve: ({ page }) => page.updatedAt.toISOString() }),
    pages: t.field({ type: [Page], resolve: ({ page, tree }) => (tree.children.get(page.pageId) ?? []).map((child) => ({ page: child, tree })) }),
    markdown: t.string({
      description: 'The body as markdown',
      resolve: ({ page }, _args, ctx) => pageBody(ctx, page.documentId, 'markdown') as Promise<string>,
    }),
    document: t.field({
      type: 'JSON',
      description: 'The body in a format: the structured document (default) or markdown',
      args: { format: t.arg({ type: DocumentFormat }) },
      resolve: ({ page }, { format }, ctx) => pageBody(ctx, page.documentId, format ?? 'document'),
    }),
    links: t.field({
      type: [ContentLink],
      description: 'The links in its body, one per target, with their status (all pages of a query load in one statement)',
      args: { status: t.arg({ type: LinkStatus }) },
      resolve: async ({ page, tree }, { status }, ctx) => (await revisionLinks(ctx, tree, [page.pageId])).filter((link) => !status || link.status === status),
    }),
  }),
});

type FileRow = Awaited<ReturnType<typeof listRevisionFiles>>['items'][number];

export const File = builder.objectRef<FileRow>('File').implement({
  description: 'A file of a revision (an image or attachment)',
  fields: (t) => ({
    id: t.id({ resolve: (file) => file.fileId }),
    name: t.string({ resolve: (file) => file.version.name }),
    contentType: t.string({ resolve: (file) => file.version.contentType }),
    size: t.int({ resolve: (file) => file.version.size }),
    width: t.int({ nullable: true, resolve: (file) => file.version.width }),
    height: t.int({ nullable: true, resolve: (file) => file.version.height }),
    downloadURL: t.string({ resolve: (file, _args, ctx) => downloadUrl(ctx.urls, file.version.id, file.version.name) }),
    backlinks: t.field({
      type: [Page],
      description: 'The pages of its revision that link to it',
      resolve: async (file, _args, ctx) => {
        const tree = await loadPageTree(ctx, file.revisionId);
        return (await fileBacklinks(ctx, tree, file.fileId)).map((pageId) => ({ page: tree.pages.get(pageId)!, tree }));
      },
    }),
  }),
});

builder.objectField(Revision, 'files', (t) =>
  t.field({
    type: [File],
    description: 'Its files, by id (the first 1000)',
    resolve: async ({ spaceId, revisionId }, _args, ctx) => {
      await revisionContent(ctx, spaceId, revisionId);
      return (await listRevisionFiles(ctx, revisionId, { limit: 1000 })).items;
    },
  }),
);

builder.objectField(Space, 'links', (t) =>
  t.field({
    type: [ContentLink],
    description: 'Links of the space content, one per target, with their status',
    args: { status: t.arg({ type: LinkStatus }) },
    resolve: async (space, { status }, ctx) => {
      const { tree } = await revisionContent(ctx, space.id, space.revisionId);
      return (await revisionLinks(ctx, tree)).filter((link) => !status || link.status === status);
    },
  }),
);
