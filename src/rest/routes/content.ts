import { ContentQuery, DocumentReadQuery, ListFilesQuery, PageQuery } from '../../domain/content/inputs.ts';
import { BacklinksQuery, LinksQuery } from '../../domain/content/links.ts';
import {
  type ContentSource,
  getContent,
  getFile,
  getPage,
  getPageByPath,
  getPageDocument,
  listPageMetaLinks,
  listFileBacklinks,
  listFiles,
  listPageLinks,
  listPages,
  listSpaceLinks,
  importContent,
} from '../../domain/content/service.ts';
import { ImportInput } from '../../domain/content/import-input.ts';
import { RevisionChangesQuery, getRevisionChanges } from '../../domain/content/revision-changes.ts';
import { restList } from '../../lib/pagination.ts';
import { type Route, route } from '../route.ts';

/**
 * The content reads, for a space's content, a change request's and any
 * revision of a space by its id: the same queries and shapes under three
 * bases. Operations a base lacks have no name (a revision never changes: no
 * import into it).
 */
interface OperationNames {
  revision: string;
  pages: string;
  page: string;
  path: string;
  files: string;
  file: string;
  backlinks: string;
  pageLinks: string;
  metaLinks: string;
  import?: string;
  document?: string;
}

function contentRoutes(base: string, names: OperationNames, tag: string, what: string): Route[] {
  const source = (params: Record<string, string>): ContentSource => ({
    spaceId: params.spaceId!,
    changeRequest: params.changeRequestId,
    revision: params.revisionId,
  });
  const only = (name: string | undefined, make: (operationId: string) => Route) => (name ? [make(name)] : []);
  return [
    route({
      method: 'GET',
      path: base,
      operationId: names.revision,
      summary: `${what[0]!.toUpperCase()}${what.slice(1)}, with its page tree`,
      tag,
      query: ContentQuery,
      status: 200,
      response: 'Revision',
      handler: (ctx, { params, query }) => getContent(ctx, source(params), query),
    }),
    ...only(names.import, (operationId) =>
      route({
        method: 'POST',
        path: `${base}/import`,
        operationId,
        summary: 'Import a website (same origin, up to 50 pages, 3 links deep) as pages of a new revision',
        tag,
        body: ImportInput,
        status: 201,
        response: 'ImportResult',
        handler: (ctx, { params, body }) => importContent(ctx, source(params), body),
      }),
    ),
    route({
      method: 'GET',
      path: `${base}/pages`,
      operationId: names.pages,
      summary: `The page tree of ${what}`,
      tag,
      query: ContentQuery,
      status: 200,
      response: 'RevisionPages',
      handler: (ctx, { params, query }) => listPages(ctx, source(params), query),
    }),
    route({
      method: 'GET',
      path: `${base}/page/{pageId}`,
      operationId: names.page,
      summary: 'One page with its body',
      tag,
      query: PageQuery,
      status: 200,
      response: 'RevisionPage',
      handler: (ctx, { params, query }) => getPage(ctx, source(params), params.pageId!, query),
    }),
    route({
      method: 'GET',
      path: `${base}/path/{pagePath}`,
      operationId: names.path,
      summary: 'One page by its path (slugs joined by "/", URL-encoded), with its body',
      tag,
      query: PageQuery,
      status: 200,
      response: 'RevisionPage',
      handler: (ctx, { params, query }) => getPageByPath(ctx, source(params), params.pagePath!, query),
    }),
    ...only(names.document, (operationId) =>
      route({
        method: 'GET',
        path: `${base}/page/{pageId}/document`,
        operationId,
        summary: 'The structured document of one page (the official JSONDocument; empty for a group or a link)',
        tag,
        query: DocumentReadQuery,
        status: 200,
        response: 'JSONDocument',
        handler: (ctx, { params, query }) => getPageDocument(ctx, source(params), params.pageId!, query),
      }),
    ),
    route({
      method: 'GET',
      path: `${base}/page/{pageId}/meta-links`,
      operationId: names.metaLinks,
      summary: 'The canonical and alternate addresses of one page: none are kept, so `alternates` is empty',
      tag,
      query: ContentQuery,
      status: 200,
      response: 'RevisionPageMetaLinks',
      handler: (ctx, { params, query }) => listPageMetaLinks(ctx, source(params), params.pageId!, query),
    }),
    route({
      method: 'GET',
      path: `${base}/files`,
      operationId: names.files,
      summary: `The files of ${what}`,
      tag,
      query: ListFilesQuery,
      status: 200,
      response: 'RevisionFile',
      list: true,
      handler: async (ctx, { params, query }) => restList(await listFiles(ctx, source(params), query)),
    }),
    route({
      method: 'GET',
      path: `${base}/files/{fileId}`,
      operationId: names.file,
      summary: `One file of ${what}, with its downloadURL`,
      tag,
      query: ContentQuery,
      status: 200,
      response: 'RevisionFile',
      handler: (ctx, { params, query }) => getFile(ctx, source(params), params.fileId!, query),
    }),
    route({
      method: 'GET',
      path: `${base}/files/{fileId}/backlinks`,
      operationId: names.backlinks,
      summary: 'The pages that link to a file',
      tag,
      query: BacklinksQuery,
      status: 200,
      response: 'ContentReference',
      list: true,
      handler: (ctx, { params, query }) => listFileBacklinks(ctx, source(params), params.fileId!, query),
    }),
    route({
      method: 'GET',
      path: `${base}/page/{pageId}/links`,
      operationId: names.pageLinks,
      summary: 'The links in one page, with their status',
      tag,
      query: LinksQuery,
      status: 200,
      response: 'ContentLinks',
      handler: (ctx, { params, query }) => listPageLinks(ctx, source(params), params.pageId!, query),
    }),
  ];
}

export const spaceContentRoutes = contentRoutes(
  '/v1/spaces/{spaceId}/content',
  {
    revision: 'getCurrentRevision',
    pages: 'listPages',
    page: 'getPageById',
    path: 'getPageByPath',
    files: 'listFiles',
    file: 'getFileById',
    backlinks: 'listFileBacklinks',
    pageLinks: 'listPageLinks',
    metaLinks: 'listSpacePageMetaLinks',
    import: 'importContent',
  },
  'Space content',
  'the current revision',
);

export const changeRequestContentRoutes = contentRoutes(
  '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content',
  {
    revision: 'getRevisionOfChangeRequestById',
    pages: 'listPagesInChangeRequest',
    page: 'getPageInChangeRequestById',
    path: 'getPageInChangeRequestByPath',
    files: 'listFilesInChangeRequestById',
    file: 'getFileInChangeRequestById',
    backlinks: 'listFileBacklinksInChangeRequest',
    pageLinks: 'listPageLinksInChangeRequest',
    metaLinks: 'listChangeRequestPageMetaLinks',
    import: 'importContentInChangeRequest',
  },
  'Change request content',
  'the current revision',
);

/**
 * Any revision of a space by its id — its history, its change requests' —
 * read as its current content is, for whoever sees the space: a revision never
 * changes, so what it answers never does either.
 */
export const revisionRoutes = [
  ...contentRoutes(
    '/v1/spaces/{spaceId}/revisions/{revisionId}',
    {
      revision: 'getRevisionById',
      pages: 'listPagesInRevisionById',
      page: 'getPageInRevisionById',
      path: 'getPageInRevisionByPath',
      files: 'listFilesInRevisionById',
      file: 'getFileInRevisionById',
      backlinks: 'listFileBacklinksInRevision',
      pageLinks: 'listPageLinksInRevision',
      metaLinks: 'listRevisionPageMetaLinks',
      document: 'getPageDocumentInRevisionById',
    },
    'Revisions',
    'the revision',
  ),
  route({
    method: 'GET',
    path: '/v1/spaces/{spaceId}/revisions/{revisionId}/changes',
    operationId: 'getRevisionSemanticChanges',
    summary:
      'What a revision changed against its parent (the revision it was written on; a first revision: against no content): pages created, edited, moved or deleted, with a unified diff of their markdown, then files; a merge names its change request (`mergedFrom`); `limit` (10 by default) and `page` page through them',
    tag: 'Revisions',
    query: RevisionChangesQuery,
    status: 200,
    response: 'RevisionSemanticChanges',
    handler: (ctx, { params, query }) => getRevisionChanges(ctx, params.spaceId!, params.revisionId!, query),
  }),
];

export const spaceLinkRoutes = [
  route({
    method: 'GET',
    path: '/v1/spaces/{spaceId}/links',
    operationId: 'listSpaceLinks',
    summary: 'The links of the space content with their status; stats count broken links in open change requests too',
    tag: 'Space content',
    query: LinksQuery,
    status: 200,
    response: 'ContentLinks',
    handler: (ctx, { params, query }) => listSpaceLinks(ctx, params.spaceId!, query),
  }),
];
