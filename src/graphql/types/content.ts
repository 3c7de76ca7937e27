import { type GraphQLResolveInfo, Kind, type SelectionNode } from 'graphql';
import { type LinkEntry, type LinkStatus as LinkStatusValue, fileBacklinks, revisionLinks } from '../../domain/content/links.ts';
import { loadColumns } from '../../domain/columns.ts';
import { readRevisionPage } from '../../domain/content/page-read.ts';
import { findPage, readableRevision, revisionContent, pageBody, visibleRevision } from '../../domain/content/service.ts';
import { type PageType as PageTypeValue, ancestorsOf, loadPageTree, neighboursOf, parentOf } from '../../domain/content/tree.ts';
import { pagesShownToViewer } from '../../domain/sites/published.ts';
import { spaceColumns } from '../../domain/spaces/service.ts';
import type { PageState, PageTree } from '../../domain/content/tree.ts';
import type { RequestContext } from '../../context.ts';
import type { DOCUMENT_FORMATS, DocumentReading } from '../../domain/content/inputs.ts';
import type { RevisionType as RevisionTypeValue } from '../../domain/content/revisions.ts';
import { downloadUrl, listRevisionFiles } from '../../domain/content/files.ts';
import { builder } from '../builder.ts';
import { loadEach } from '../connection.ts';
import { restEnum } from './common.ts';
import { type FieldBuilder, SiteSpace } from './site-common.ts';
import { Space } from './space.ts';
import { type PageShown, pagesShownThrough, readByVisitor } from './visitor-pages.ts';

/** A revision of a space or change request, loaded (with its page tree) when a field asks. */
export const Revision = builder.loadableNodeRef<{ spaceId: string; revisionId: string }, string>('Revision', {
  id: { resolve: ({ revisionId }) => revisionId },
  // By id (`node`): a revision of a space the viewer sees, the space's own or one of its change requests'.
  load: (ids, ctx) => loadEach(ids, (id) => visibleRevision(ctx, id)),
});
/** A page of a revision: its state and the tree it is in (paths and children come from there). */
/** A page in its revision's tree; `shown`, for a visitor of a published site, leaves out the pages its conditions hide. */
type PageInTree = { page: PageState; tree: PageTree; shown?: PageShown };

export const Page = builder.objectRef<PageInTree>('Page');

export const DocumentFormat = restEnum<(typeof DOCUMENT_FORMATS)[number]>('DocumentFormat', 'A format of a body (the REST `format` query)', {
  document: 'The structured document: JSON blocks, each with a `key` that stays while the block is unchanged',
  markdown: 'Markdown text',
});

const DocumentEvaluation = builder.enumType('DocumentEvaluation', {
  description: 'Whether a structured document is evaluated (the REST `evaluated` query)',
  values: {
    none: { description: 'The document as stored (REST `false`, the default)' },
    all: { description: 'Evaluated: each heading gets `meta.id`, its anchor (REST `true`)' },
    deterministic_only: {
      description: 'Only what depends on deterministic inputs: the same here, documents hold no expressions (REST `deterministic-only`)',
    },
  },
});

const DocumentDereference = builder.enumType('DocumentDereference', {
  description: 'Whether references of a structured document are expanded in place (the REST `dereferenced` query)',
  values: {
    none: { description: 'References stay references (REST `false`, the default)' },
    all: { description: 'Every reference that expands (REST `true`): reusable contents, of which this server keeps none' },
    reusable_contents: {
      description: 'Reusable contents only (REST `reusable-contents`), of which this server keeps none',
    },
  },
});

/** The REST values of those enums (`true`, `false` or a word), as the domain reads them. */
const READING_VALUES = { none: false, all: true, deterministic_only: 'deterministic-only', reusable_contents: 'reusable-contents' } as const;

const PageType = restEnum<PageTypeValue>('PageType', 'What a page is (REST `type`)', {
  document: 'A page with a body (REST `kind` "sheet")',
  group: 'A heading over the pages it holds; it has no body',
  link: 'An entry of the tree that points elsewhere; it has no body and holds no pages',
});

const RevisionType = restEnum<RevisionTypeValue>('RevisionType', 'What made a revision (REST `type`)', {
  edits: 'Edits to the content: a content batch or an import; also the first revision of a space, new or duplicated',
  merge: 'A change request merged into the space',
  update: 'A change request brought up to date with the space content',
  rollback: 'A return to an earlier revision (this server writes none)',
});

const LinkStatus = restEnum<LinkStatusValue>('LinkStatus', 'Whether a link leads somewhere (REST `status`)', {
  ok: 'Its page or file is in the revision, or it is an outside address',
  broken: 'Its page or file is not in the revision',
  'in-app': 'An address in this application or this API (`APP_URL` or the API address)',
});

const ContentLinkRelation = restEnum<'page' | 'file' | 'external'>('ContentLinkRelation', 'What a link points at (REST `relation`)', {
  page: 'A page of the content (`/pages/{pageId}`)',
  file: 'A file of the content (`/files/{fileId}`), linked or shown as an image',
  external: "An http, https or mailto address, this application's included",
});

const ContentLink = builder.objectRef<LinkEntry>('ContentLink').implement({
  description: 'A link target of the content and the pages linking to it (an item of REST `ContentLinks`)',
  fields: (t) => ({
    status: t.expose('status', {
      type: LinkStatus,
      description: 'Whether it leads somewhere: broken when the page or file is not in the revision, in_app when it points into this application',
    }),
    relation: t.field({
      type: ContentLinkRelation,
      description: 'What it points at: a page, a file or an outside address',
      resolve: (link) => (link.kind === 'url' ? 'external' : link.kind),
    }),
    target: t.field({
      type: 'JSON',
      description: 'What it points at, as REST `targetReference`: `{kind: "page", page}`, `{kind: "file", file}` or `{kind: "url", url}`',
      resolve: (link) => ({ kind: link.kind, [link.kind]: link.target }),
    }),
    pageIds: t.idList({
      description: 'Ids of the pages whose body holds it (REST `locationReferences`)',
      resolve: (link) => link.pageIds,
    }),
  }),
});

Revision.implement({
  description:
    'Immutable content of a space or change request: a page tree and its files (REST `/v1/spaces/{spaceId}/content`, `/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content`, and any revision by id: `/v1/spaces/{spaceId}/revisions/{revisionId}`); seen by whoever sees the space or change request it is read from, and it reads the same however the content moved on since',
  fields: (t) => ({
    object: t.string({ description: 'Always "revision" (the REST `object`)', resolve: () => 'revision' }),
    type: t.field({
      type: RevisionType,
      description: 'What made it: edits, a merge, an update of a change request or a rollback',
      resolve: async ({ spaceId, revisionId }, _args, ctx) => (await revisionContent(ctx, spaceId, revisionId)).revision.type as RevisionTypeValue,
    }),
    parents: t.stringList({
      description:
        'Ids of the revisions it continues: the one it was written on first, then the one a merge or update brought in; empty for the first revision of a space',
      resolve: async ({ spaceId, revisionId }, _args, ctx) => (await revisionContent(ctx, spaceId, revisionId)).revision.parents as string[],
    }),
    createdAt: t.field({
      type: 'DateTime',
      description: 'When it was written',
      resolve: async ({ spaceId, revisionId }, _args, ctx) => (await revisionContent(ctx, spaceId, revisionId)).revision.createdAt.toISOString(),
    }),
    pages: t.field({
      type: [Page],
      description: 'The top-level pages, in order, each with its `pages` (hidden ones included); the whole tree is read in one statement, whatever its depth',
      resolve: async (revision, _args, ctx) => {
        const { tree } = await revisionContent(ctx, revision.spaceId, revision.revisionId);
        const shown = pagesShownThrough(revision);
        return (tree.children.get(null) ?? []).filter((page) => !shown || shown(tree, page)).map((page) => ({ page, tree, shown }));
      },
    }),
    page: pageLookup(t, ({ revisionId }) => revisionId),
  }),
});

Page.implement({
  description: 'A page of a revision: a document, a group of pages or a link (REST `RevisionPage`, `…/content/page/{pageId}`)',
  fields: (t) => ({
    id: t.id({ description: 'Id of the page, the same in every revision that has it', resolve: ({ page }) => page.pageId }),
    type: t.field({ type: PageType, description: 'What it is: a document, a group or a link', resolve: ({ page }) => page.type }),
    title: t.string({ description: 'Title of the page', resolve: ({ page }) => page.title }),
    slug: t.string({
      description: 'Its part of the path: lowercase letters, digits and dashes, unique among its siblings',
      resolve: ({ page }) => page.slug,
    }),
    path: t.string({
      description: 'Slugs from the top down to it, joined by "/" (REST `…/content/path/{pagePath}` finds it by this)',
      resolve: ({ page, tree }) => tree.paths.get(page.pageId) ?? page.slug,
    }),
    emoji: t.string({ nullable: true, description: 'Emoji shown before the title; null when none', resolve: ({ page }) => page.emoji }),
    icon: t.string({ nullable: true, description: 'Icon shown before the title (an icon name); null when none', resolve: ({ page }) => page.icon }),
    description: t.string({
      nullable: true,
      description: 'Short description shown under the title; null when none',
      resolve: ({ page }) => page.description,
    }),
    hidden: t.boolean({
      description: 'Whether it is left out of the table of contents (stored only: it is still read and searched like any page)',
      resolve: ({ page }) => page.hidden,
    }),
    noIndex: t.boolean({ description: "Whether it is left out of search (this server's search skips it)", resolve: ({ page }) => page.noIndex }),
    noRobotsIndex: t.boolean({ description: 'Whether search engines are asked not to index it (stored only)', resolve: ({ page }) => page.noRobotsIndex }),
    createdAt: t.field({ type: 'DateTime', description: 'When the page was created', resolve: ({ page }) => page.createdAt.toISOString() }),
    updatedAt: t.field({
      type: 'DateTime',
      description: 'When its fields or body last changed (moving it does not count)',
      resolve: ({ page }) => page.updatedAt.toISOString(),
    }),
    pages: t.field({
      type: [Page],
      description: 'The pages directly under it, in order; empty for a link',
      resolve: ({ page, tree, shown }) =>
        (tree.children.get(page.pageId) ?? []).filter((child) => !shown || shown(tree, child)).map((child) => ({ page: child, tree, shown })),
    }),
    parent: t.field({
      type: Page,
      nullable: true,
      description: 'The page it is directly under; null for a top-level page',
      resolve: ({ page, tree, shown }) => wrap(tree, parentOf(tree, page), shown),
    }),
    ancestors: t.field({
      type: [Page],
      description: 'The pages above it, from the top level down to its parent: its breadcrumbs; empty for a top-level page',
      resolve: ({ page, tree, shown }) => ancestorsOf(tree, page).map((ancestor) => ({ page: ancestor, tree, shown })),
    }),
    previous: t.field({
      type: Page,
      nullable: true,
      description:
        'The page read before it in table-of-contents order (depth first): the nearest document shown in the table of contents, groups, links and hidden pages skipped; null for the first',
      resolve: ({ page, tree, shown }) => wrap(tree, neighboursOf(tree, page, shown && ((each) => shown(tree, each))).previous, shown),
    }),
    next: t.field({
      type: Page,
      nullable: true,
      description:
        'The page read after it in table-of-contents order (depth first): the nearest document shown in the table of contents, groups, links and hidden pages skipped; null for the last',
      resolve: ({ page, tree, shown }) => wrap(tree, neighboursOf(tree, page, shown && ((each) => shown(tree, each))).next, shown),
    }),
    markdown: t.string({
      description: 'The body as markdown (read only when selected); empty for a group, a link or an empty page',
      resolve: ({ page, tree, shown }, _args, ctx) => pageBody(ctx, tree, page, 'markdown', {}, shown !== undefined) as Promise<string>,
    }),
    document: t.field({
      type: 'JSON',
      description:
        'The body in a format (REST `…/content/page/{pageId}?format=`): the structured document (the official JSONDocument, REST `…/revisions/{revisionId}/page/{pageId}/document`) by default, or markdown as a JSON string; an empty body for a group or a link',
      args: {
        format: t.arg({ type: DocumentFormat, description: 'The format; document when absent' }),
        evaluated: t.arg({ type: DocumentEvaluation, description: 'Whether the document is evaluated (REST `evaluated`); none when absent' }),
        dereferenced: t.arg({
          type: DocumentDereference,
          description: 'Whether its references are expanded in place (REST `dereferenced`); none when absent',
        }),
      },
      resolve: ({ page, tree }, { format, evaluated, dereferenced }, ctx) =>
        pageBody(ctx, tree, page, format ?? 'document', {
          evaluated: evaluated ? READING_VALUES[evaluated] : undefined,
          dereferenced: dereferenced ? READING_VALUES[dereferenced] : undefined,
        } as DocumentReading),
    }),
    links: t.field({
      type: [ContentLink],
      description:
        'The links in its body, one per target, with their status (REST `…/content/page/{pageId}/links`, without its stats); all pages of a query load theirs in one statement',
      args: { status: t.arg({ type: LinkStatus, description: 'Only the links with this status; all when absent' }) },
      resolve: async ({ page, tree }, { status }, ctx) => (await revisionLinks(ctx, tree, [page.pageId])).filter((link) => !status || link.status === status),
    }),
  }),
});

function wrap(tree: PageTree, page: PageState | null, shown?: PageShown): PageInTree | null {
  return page ? { page, tree, shown } : null;
}

/**
 * `page(id:, path:)` of a revision, found in its page tree (one statement, or none
 * when the tree is kept): null when it has no such page, as REST answers 404, or
 * when `revisionOf` has no revision to read. The pages `shownOf` leaves out (a
 * visitor's, by the conditions of adaptive content) are not there.
 */
function pageLookup<Parent>(
  t: FieldBuilder<Parent>,
  revisionOf: (parent: Parent, ctx: RequestContext) => Promise<string | null> | string,
  what = 'Its page',
  // Reached by a visitor through a site space: the pages its conditions hide are not there.
  shownOf: (parent: Parent, ctx: RequestContext) => PageShown | undefined = (parent) => pagesShownThrough(parent as object),
) {
  return t.field({
    type: Page,
    nullable: true,
    description: `${what} with this id, or at this path (slugs joined by "/", as REST \`…/content/path/{pagePath}\`; a link is found by id only); give one of them. Null when there is none`,
    args: {
      id: t.arg.id({ description: 'The page id (`pg_…`)' }),
      path: t.arg.string({ description: 'The page path, e.g. "guides/configuration"' }),
    },
    // The revision comes from a space or change request already read (or `node`, which checks it): its tree alone.
    resolve: async (parent, args, ctx) => {
      const revisionId = await revisionOf(parent, ctx);
      if (revisionId === null) return null;
      const tree = await loadPageTree(ctx, revisionId);
      const shown = shownOf(parent, ctx);
      const page = findPage(tree, args) ?? null;
      return page && (!shown || shown(tree, page)) ? wrap(tree, page, shown) : null;
    },
  });
}

builder.objectField(Space, 'page', (t) => pageLookup(t, (space) => space.revisionId, 'The page of its current content (its active revision)'));

builder.objectField(SiteSpace, 'page', (t) =>
  pageLookup(
    t,
    async (siteSpace, ctx) => {
      const space = await loadColumns(ctx, spaceColumns, siteSpace.spaceId, ['revisionId', 'deletedAt']);
      return !space || space.deletedAt ? null : space.revisionId;
    },
    "The page of the published content (its space's active revision; none once the space is deleted) as the site's audience reads it (for a visitor, a page whose condition, or one above it, does not hold on its claims is not there, nor among its neighbours and pages)",
    (siteSpace, ctx) => pagesShownToViewer(ctx, siteSpace.siteId),
  ),
);

type FileRow = Awaited<ReturnType<typeof listRevisionFiles>>['items'][number];

export const File = builder.objectRef<FileRow>('File').implement({
  description: 'A file of a revision, an image or an attachment (REST `RevisionFile`, `…/content/files/{fileId}`)',
  fields: (t) => ({
    id: t.id({ description: 'Id of the file, the same in every revision that has it', resolve: (file) => file.fileId }),
    name: t.string({ description: 'File name, e.g. logo.png', resolve: (file) => file.version.name }),
    contentType: t.string({ description: 'MIME type, e.g. image/png', resolve: (file) => file.version.contentType }),
    size: t.int({ description: 'Size in bytes', resolve: (file) => file.version.size }),
    width: t.int({ nullable: true, description: 'Width in pixels of an image; null for other files or when unknown', resolve: (file) => file.version.width }),
    height: t.int({
      nullable: true,
      description: 'Height in pixels of an image; null for other files or when unknown',
      resolve: (file) => file.version.height,
    }),
    downloadURL: t.string({
      description: 'Where to download its bytes (`/files/{versionId}/{name}` of this server): the address itself grants access, no token needed',
      resolve: (file, _args, ctx) => downloadUrl(ctx.urls, file.version.id, file.version.name),
    }),
    backlinks: t.field({
      type: [Page],
      description: 'The pages of its revision that link to it or show it (REST `…/content/files/{fileId}/backlinks`)',
      resolve: async (file, _args, ctx) => {
        const tree = await loadPageTree(ctx, file.revisionId);
        const shown = pagesShownThrough(file);
        return (await fileBacklinks(ctx, tree, file.fileId))
          .map((pageId) => tree.pages.get(pageId)!)
          .filter((page) => !shown || shown(tree, page))
          .map((page) => ({ page, tree, shown }));
      },
    }),
  }),
});

builder.objectField(Revision, 'files', (t) =>
  t.field({
    type: [File],
    description: 'Its files, by id: the first 1000 (REST `…/content/files` pages through them all)',
    resolve: async (revision, _args, ctx) => {
      await revisionContent(ctx, revision.spaceId, revision.revisionId);
      // A visitor's files lead back only to the pages it is shown.
      const shown = pagesShownThrough(revision);
      return (await listRevisionFiles(ctx, revision.revisionId, { limit: 1000 })).items.map((file) => readByVisitor(file, shown));
    },
  }),
);

builder.objectField(Space, 'links', (t) =>
  t.field({
    type: [ContentLink],
    description:
      'Links of the space content (its active revision), one per target, with their status (REST `/v1/spaces/{spaceId}/links`, without its stats); seen by whoever sees the space',
    args: { status: t.arg({ type: LinkStatus, description: 'Only the links with this status; all when absent' }) },
    resolve: async (space, { status }, ctx) => {
      const { tree } = await revisionContent(ctx, space.id, space.revisionId);
      // A visitor sees the links of the pages it is shown only.
      const shown = pagesShownThrough(space);
      const pageIds = shown && [...tree.pages.values()].filter((page) => shown(tree, page)).map((page) => page.pageId);
      return (await revisionLinks(ctx, tree, pageIds)).filter((link) => !status || link.status === status);
    },
  }),
);

builder.queryField('revision', (t) =>
  t.field({
    type: Revision,
    nullable: true,
    description:
      'A revision of a space by its id (REST `/v1/spaces/{spaceId}/revisions/{revisionId}`): any of its history or of its change requests, for whoever sees the space; 404 when the caller cannot see the space or the revision is not one of its',
    args: {
      spaceId: t.arg.id({ required: true, description: 'Id of the space' }),
      id: t.arg.id({ required: true, description: 'Id of the revision' }),
    },
    resolve: async (_root, { spaceId, id }, ctx, info) => {
      // Asked with a page (a renderer's page view): the space, the revision, the page and its body in one statement.
      const pageId = selectedPageId(info);
      const read = pageId !== undefined ? await readRevisionPage(ctx, spaceId, id, pageId) : null;
      if (read) return { spaceId, revisionId: read.revision.id };
      const { revision } = await readableRevision(ctx, spaceId, id);
      return { spaceId, revisionId: revision.id };
    },
  }),
);

/**
 * The id of the page a field's selection asks for by id (`page(id: …)`, in
 * fragments too), the first one when several; undefined when none.
 */
function selectedPageId(info: GraphQLResolveInfo): string | undefined {
  const inSelections = (selections: readonly SelectionNode[]): string | undefined => {
    for (const selection of selections) {
      let found: string | undefined;
      if (selection.kind === Kind.FIELD && selection.name.value === 'page') {
        const argument = selection.arguments?.find((each) => each.name.value === 'id')?.value;
        const value = argument?.kind === Kind.VARIABLE ? info.variableValues[argument.name.value] : argument?.kind === Kind.STRING ? argument.value : undefined;
        if (typeof value === 'string') found = value;
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        found = inSelections(selection.selectionSet.selections);
      } else if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = info.fragments[selection.name.value];
        if (fragment) found = inSelections(fragment.selectionSet.selections);
      }
      if (found !== undefined) return found;
    }
    return undefined;
  };
  for (const node of info.fieldNodes) {
    const found = node.selectionSet && inSelections(node.selectionSet.selections);
    if (found !== undefined) return found;
  }
  return undefined;
}
