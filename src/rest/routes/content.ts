import { ContentQuery, ListFilesQuery, PageQuery } from '../../domain/content/inputs.ts';
import { BacklinksQuery, LinksQuery } from '../../domain/content/links.ts';
import {
  type ContentSource,
  getContent,
  getFile,
  getPage,
  getPageByPath,
  listFileBacklinks,
  listFiles,
  listPageLinks,
  listPages,
  listSpaceLinks,
  importContent,
} from '../../domain/content/service.ts';
import { ImportInput } from '../../domain/content/import-input.ts';
import { restList } from '../../lib/pagination.ts';
import { type Route, route } from '../route.ts';

/**
 * The content reads, once for a space's content and once for a change
 * request's: the same queries and shapes, under two bases.
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
  import: string;
}

function contentRoutes(base: string, names: OperationNames, tag: string): Route[] {
  const source = (params: Record<string, string>): ContentSource => ({ spaceId: params.spaceId!, changeRequest: params.changeRequestId });
  return [
    route({
      method: 'GET',
      path: base,
      operationId: names.revision,
      summary: 'The current revision, with its page tree',
      tag,
      query: ContentQuery,
      status: 200,
      response: 'Revision',
      handler: (ctx, { params, query }) => getContent(ctx, source(params), query),
    }),
    route({
      method: 'POST',
      path: `${base}/import`,
      operationId: names.import,
      summary: 'Import a website (same origin, up to 50 pages, 3 links deep) as pages of a new revision',
      tag,
      body: ImportInput,
      status: 201,
      response: 'ImportResult',
      handler: (ctx, { params, body }) => importContent(ctx, source(params), body),
    }),
    route({
      method: 'GET',
      path: `${base}/pages`,
      operationId: names.pages,
      summary: 'The page tree of the current revision',
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
    route({
      method: 'GET',
      path: `${base}/files`,
      operationId: names.files,
      summary: 'The files of the current revision',
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
      summary: 'One file of the current revision, with its downloadURL',
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
    import: 'importContent',
  },
  'Space content',
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
    import: 'importContentInChangeRequest',
  },
  'Change request content',
);

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
