import { z } from 'zod';
import type { RequestContext } from '../../context.ts';
import type { ChangeRequestRecord, RevisionRecord } from '../../db/index.ts';
import { conflict, invalid, notFound } from '../../errors.ts';
import { atLeast, authorize } from '../access.ts';
import { parseInput, queryBool } from '../../lib/validation.ts';
import {
  assertContentWritable,
  editableChangeRequest,
  emitChangeRequestContent,
  getChangeRequest,
  lockSpace,
  presentChangeRequestRecord,
  visibleChangeRequest,
} from '../change-requests/service.ts';
import type { ChangeRequestJSON } from '../change-requests/presenter.ts';
import { loader } from '../loaders.ts';
import { visibleSpace } from '../spaces/service.ts';
import { mapPage } from '../shared/pages.ts';
import { inTransaction } from '../transaction.ts';
import { noteContributor } from '../change-requests/contributors.ts';
import { type AuditFacts, changeRequestTarget } from '../audit/record.ts';
import { callJob } from '../jobs.ts';
import { importWebsiteJob, renderPdfJob } from './jobs.ts';
import { applyChanges, prepareChanges, slugOf } from './changes.ts';
import { ImportInput } from './import-input.ts';
import { withFrontMatter } from './front-matter.ts';
import { pageDocument } from './page-document.ts';
import { readRevisionPage, revisionRecords } from './page-read.ts';
import { markdownOf, storeDocuments } from './documents.ts';
import { BacklinksQuery, LinksQuery, listBacklinks, listLinks } from './links.ts';
import { listRevisionFiles, presentFile, presentUploadedFiles, revisionFile, revisionFiles, storeUploadedFiles } from './files.ts';
import {
  type ContentChange,
  ContentQuery,
  DocumentReadQuery,
  type DocumentReading,
  ListFilesQuery,
  MAX_FILE_BYTES,
  PageQuery,
  UpdateContentInput,
  UpdateContentQuery,
} from './inputs.ts';
import { FetchRefused, fetchBounded } from '../../lib/safe-fetch.ts';
import { type ContentPresentation, presentPage, presentPages, presentRevision } from './presenter.ts';
import { writeRevision } from './revisions.ts';
import { type PageState, type PageTree, descendantsOf, loadPageTree, pageAtPath, treeWithPages } from './tree.ts';
import { pagesShownToViewer } from '../sites/published.ts';

export { revisionRecords };

/**
 * Whose content a read is about: a space's (its active revision), a change
 * request's (its latest revision), or one revision of the space named by its
 * id. All are read the same way.
 */
export interface ContentSource {
  spaceId: string;
  /** A change request id or number; absent for the space's own content. */
  changeRequest?: string | undefined;
  /** A revision id of the space (its history or a change request's); absent for its current content. */
  revision?: string | undefined;
}

async function sourceRevision(ctx: RequestContext, source: ContentSource): Promise<{ revisionId: string; changeRequest?: ChangeRequestRecord }> {
  if (source.revision !== undefined) return { revisionId: (await readableRevision(ctx, source.spaceId, source.revision)).revision.id };
  if (source.changeRequest === undefined) return { revisionId: (await visibleSpace(ctx, source.spaceId)).space.revisionId };
  const { changeRequest } = await visibleChangeRequest(ctx, source.spaceId, source.changeRequest);
  return { revisionId: changeRequest.revisionId, changeRequest };
}

/**
 * The tree as the request's reader sees it: for a site token
 * (src/domain/sites/site-tokens.ts), without the pages its visitor's
 * conditions hide (adaptive content), as the published site shows them.
 */
function shownToSiteToken(ctx: RequestContext, tree: PageTree): PageTree {
  if (!ctx.siteToken) return tree;
  const shown = pagesShownToViewer(ctx, ctx.siteToken.siteId);
  return shown ? treeWithPages(tree, (page) => shown(tree, page)) : tree;
}

/** The page tree of a source, as its reader sees it. */
async function sourceTree(ctx: RequestContext, source: ContentSource): Promise<PageTree> {
  return shownToSiteToken(ctx, await loadPageTree(ctx, (await sourceRevision(ctx, source)).revisionId));
}

/**
 * A revision of a space by its id, for whoever sees the space: any revision of
 * its history or of its change requests (they are all the space's, and a
 * change request is seen by whoever sees its space). A revision never changes,
 * so it reads the same however the content moved on since. One of another
 * space, or of none, is a 404.
 */
export async function readableRevision(ctx: RequestContext, spaceId: string, revisionId: string) {
  const [{ space }, revision] = await Promise.all([visibleSpace(ctx, spaceId), loader(ctx, revisionRecords).load(revisionId)]);
  if (!revision || revision.spaceId !== spaceId) throw notFound('Revision', revisionId);
  return { space, revision };
}

function presentation(ctx: RequestContext, spaceId: string, query: { metadata?: boolean | undefined }): ContentPresentation {
  return { urls: ctx.urls, spaceId, metadata: query.metadata ?? true };
}

/** A tree's pages with their bodies, as the official Revision and page list carry them: one more statement. */
async function withBodies(ctx: RequestContext, tree: PageTree, options: ContentPresentation): Promise<ContentPresentation> {
  const ids = [...new Set([...tree.pages.values()].flatMap((page) => (page.documentId ? [page.documentId] : [])))];
  const markdowns = await Promise.all(ids.map((id) => markdownOf(ctx, id)));
  return { ...options, bodies: new Map(ids.map((id, index) => [id, markdowns[index]!])) };
}

/** The revision of a space or change request with its page tree. */
export async function getContent(ctx: RequestContext, source: ContentSource, query: unknown = {}) {
  const params = parseInput(ContentQuery, query, 'query');
  const { revisionId } = await sourceRevision(ctx, source);
  const [revision, tree] = await Promise.all([
    loader(ctx, revisionRecords).load(revisionId),
    loadPageTree(ctx, revisionId).then((read) => shownToSiteToken(ctx, read)),
  ]);
  if (!revision) throw notFound('Revision', revisionId);
  const options = await withBodies(ctx, tree, presentation(ctx, source.spaceId, params));
  const presentedFiles = (await revisionFiles(ctx, revisionId)).map((file) => presentFile(file, options));
  return presentRevision(revision, tree, presentedFiles, options, await mergedFromOf(ctx, revision));
}

/** The change request a merge revision merged, as the official ChangeRequest; undefined for other revisions. */
export async function mergedFromOf(ctx: RequestContext, revision: RevisionRecord): Promise<ChangeRequestJSON | undefined> {
  if (revision.type !== 'merge' || !revision.changeRequestId) return undefined;
  const changeRequest = await ctx.db.changeRequest.findUnique({ where: { id: revision.changeRequestId } });
  return changeRequest ? presentChangeRequestRecord(ctx, changeRequest) : undefined;
}

export async function listPages(ctx: RequestContext, source: ContentSource, query: unknown = {}) {
  const params = parseInput(ContentQuery, query, 'query');
  const tree = await sourceTree(ctx, source);
  return { pages: presentPages(tree, await withBodies(ctx, tree, presentation(ctx, source.spaceId, params))) };
}

/** One page with its body, as markdown (the default) or as the structured document (`format=document`). */
export async function getPage(ctx: RequestContext, source: ContentSource, pageId: string, query: unknown = {}) {
  const params = parseInput(PageQuery, query, 'query');
  const tree = await contentTree(ctx, source, params.format === 'document' ? pageId : null);
  const page = findPage(tree, { id: pageId });
  if (!page) throw notFound('Page', pageId);
  return presentPageWithBodies(ctx, tree, page, source.spaceId, params);
}

export async function getPageByPath(ctx: RequestContext, source: ContentSource, path: string, query: unknown = {}) {
  const params = parseInput(PageQuery, query, 'query');
  const tree = await contentTree(ctx, source, null);
  const page = findPage(tree, { path });
  if (!page) throw notFound('Page at path', path);
  return presentPageWithBodies(ctx, tree, page, source.spaceId, params);
}

/**
 * The page tree of a space's content or one of its revisions, read with the space
 * and the revision in one statement (./page-read.ts), with the body of `pageId`
 * when one is given; a change request's through the loaders.
 */
async function contentTree(ctx: RequestContext, source: ContentSource, pageId: string | null): Promise<PageTree> {
  // A site token has no viewer: it reads through sourceRevision, which keeps it to its published revision.
  const read = source.changeRequest === undefined ? await readRevisionPage(ctx, source.spaceId, source.revision, pageId) : null;
  return shownToSiteToken(ctx, read ? read.tree : await loadPageTree(ctx, (await sourceRevision(ctx, source)).revisionId));
}

/**
 * The page of a tree with this id, or at this path (one of them, not both):
 * undefined when there is none. A link is found by id only: it has no address of
 * its own to be read at.
 */
export function findPage(tree: PageTree, by: { id?: string | null | undefined; path?: string | null | undefined }): PageState | undefined {
  if ((by.id == null) === (by.path == null)) throw invalid('id, path: give exactly one of them');
  if (by.id != null) return tree.pages.get(by.id);
  const page = pageAtPath(tree, by.path!);
  return page?.type === 'link' ? undefined : page;
}

/**
 * A page with its pages, each document with its body in the format asked (the
 * official RevisionPage requires a body on every document of the answer).
 */
async function presentPageWithBodies(
  ctx: RequestContext,
  tree: PageTree,
  page: PageState,
  spaceId: string,
  params: { metadata?: boolean | undefined; format?: 'markdown' | 'document' | undefined } & DocumentReading,
) {
  const pages = [page, ...descendantsOf(tree, page.pageId)];
  const format = params.format ?? 'markdown';
  if (format === 'document') {
    // Each body read once, together (the loader batches them in one statement).
    const documents = await Promise.all(pages.map(async (each) => [each.pageId, await pageDocument(ctx, tree, each, params)] as const));
    return presentPage(tree, page, { ...presentation(ctx, spaceId, params), bodies: new Map(), format, documents: new Map(documents) });
  }
  const documentIds = pages.flatMap((each) => (each.type === 'document' && each.documentId ? [each.documentId] : []));
  const markdowns = await Promise.all(documentIds.map((id) => markdownOf(ctx, id)));
  const bodies = new Map(documentIds.map((id, index) => [id, markdowns[index]!]));
  return presentPage(tree, page, { ...presentation(ctx, spaceId, params), bodies, format });
}

/** The structured document of one page (the official getPageDocumentInRevisionById): empty for a group or a link. */
export async function getPageDocument(ctx: RequestContext, source: ContentSource, pageId: string, query: unknown = {}) {
  const reading = parseInput(DocumentReadQuery, query, 'query');
  // One statement for the space, the revision, the page and its body.
  const tree = await contentTree(ctx, source, pageId);
  const page = findPage(tree, { id: pageId });
  if (!page) throw notFound('Page', pageId);
  return pageDocument(ctx, tree, page, reading);
}

/**
 * The meta links of a page (official RevisionPageMetaLinks): its canonical
 * address and its alternates (the same page in other languages). This server
 * keeps neither (pages have no canonical setting, spaces no translation links
 * between their pages), so a page has none: `{"alternates": []}`.
 */
export async function listPageMetaLinks(ctx: RequestContext, source: ContentSource, pageId: string, query: unknown = {}) {
  parseInput(ContentQuery, query, 'query');
  const tree = await sourceTree(ctx, source);
  if (!findPage(tree, { id: pageId })) throw notFound('Page', pageId);
  return { alternates: [] };
}

/**
 * Applies a batch of content changes to a change request as one new revision:
 * all of them, in order, or none (the official `updateChangeRequestContent`).
 */
export async function updateChangeRequestContent(ctx: RequestContext, spaceId: string, idOrNumber: string, body: unknown, query: unknown = {}) {
  const { changes } = parseInput(UpdateContentInput, body);
  const { compat } = parseInput(UpdateContentQuery, query, 'query');
  const { changeRequest, space: seen } = await editableChangeRequest(ctx, spaceId, idOrNumber, 'edit the content of this change request');
  // Bodies are read (documents, front matter) and files named by URL fetched before the transaction:
  // no parsing or network wait holds the content lock.
  const { changes: prepared } = await prepareChanges(changes);
  const fetchedFiles = await fetchFiles(ctx, changes);
  const audit: AuditFacts = {
    action: 'change_request.update_content',
    organizationId: seen.organizationId,
    target: changeRequestTarget(changeRequest),
    payload: { changes: changes.length },
  };
  const outcomes = await inTransaction(ctx, audit, async (tx) => {
    const space = await lockSpace(tx, spaceId);
    const current = await tx.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequest.id } });
    // Merged, archived or deleted while its files were fetched: nothing is written.
    assertContentWritable(space, current);
    const base = await loadPageTree(tx, current.revisionId);
    const applied = await applyChanges(
      tx,
      spaceId,
      base,
      prepared,
      async (revisionId, field) => {
        if (revisionId === undefined) return loadPageTree(tx, current.revisionMergedAncestorId);
        // Only this space's history: a revision id of another space must not copy its pages in.
        const revision = await tx.db.revision.findUnique({ where: { id: revisionId }, select: { spaceId: true } });
        if (revision?.spaceId !== spaceId) throw invalid(`${field}: no revision ${revisionId} in this space`);
        return loadPageTree(tx, revisionId);
      },
      fetchedFiles,
      async () => (await revisionFiles(tx, current.revisionId)).map((file) => ({ fileId: file.fileId, name: file.version.name })),
    );
    await storeDocuments(tx, spaceId, applied.markdowns);
    const addedFiles = await storeUploadedFiles(tx, spaceId, applied.files);
    const revisionId = await writeRevision(tx, {
      spaceId,
      changeRequestId: current.id,
      type: 'edits',
      parents: [current.revisionId],
      base,
      pages: applied.pages.values(),
      addedFiles,
    });
    await tx.db.changeRequest.update({ where: { id: current.id }, data: { revisionId } });
    await noteContributor(tx, current.id);
    emitChangeRequestContent(tx, space, current.id, revisionId);
    return { changes: applied.outcomes, files: applied.files };
  });
  const updated = await getChangeRequest(ctx, spaceId, changeRequest.id);
  if (compat !== false) return updated;
  const pageRef = (pageId: string) => ({
    object: 'page',
    id: pageId,
    urls: { location: `${ctx.urls.api}/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/content/page/${pageId}` },
  });
  return {
    changeRequest: updated,
    changes: outcomes.changes.map((outcome) =>
      outcome.object === 'deleted_page'
        ? { object: outcome.object, page: outcome.pageId }
        : { object: outcome.object, ...(outcome.object === 'created_page' && outcome.ref ? { ref: outcome.ref } : {}), page: pageRef(outcome.pageId) },
    ),
    insertedFiles: presentUploadedFiles(outcomes.files, { urls: ctx.urls, metadata: true }),
  };
}

/** The files of the current revision of a space or change request, by id. */
export async function listFiles(ctx: RequestContext, source: ContentSource, query: unknown = {}) {
  const { metadata, computed: _computed, ...paging } = parseInput(ListFilesQuery, query, 'query');
  const { revisionId } = await sourceRevision(ctx, source);
  const page = await listRevisionFiles(ctx, revisionId, paging);
  return mapPage(page, (file) => presentFile(file, { urls: ctx.urls, metadata: metadata ?? true }));
}

export async function getFile(ctx: RequestContext, source: ContentSource, fileId: string, query: unknown = {}) {
  const { metadata } = parseInput(ContentQuery, query, 'query');
  const { revisionId } = await sourceRevision(ctx, source);
  return presentFile(await revisionFile(ctx, revisionId, fileId), { urls: ctx.urls, metadata: metadata ?? true });
}

async function linkScope(ctx: RequestContext, source: ContentSource) {
  const { space } = await visibleSpace(ctx, source.spaceId);
  const { revisionId } = await sourceRevision(ctx, source);
  return { organizationId: space.organizationId, spaceId: space.id, revisionId };
}

/** The links of the space content, with broken-link stats that count open change requests too. */
export async function listSpaceLinks(ctx: RequestContext, spaceId: string, query: unknown = {}) {
  const params = parseInput(LinksQuery, query, 'query');
  const scope = await linkScope(ctx, { spaceId });
  const openChangeRequests = await ctx.db.changeRequest.findMany({
    where: { spaceId, status: { in: ['open', 'draft'] }, revisionId: { not: scope.revisionId } },
    select: { revisionId: true },
  });
  return listLinks(ctx, { ...scope, changeRequestRevisionIds: openChangeRequests.map((row) => row.revisionId) }, params);
}

/** The links located in one page of a space's or change request's content. */
export async function listPageLinks(ctx: RequestContext, source: ContentSource, pageId: string, query: unknown = {}) {
  const params = parseInput(LinksQuery, query, 'query');
  return listLinks(ctx, { ...(await linkScope(ctx, source)), pageId, changeRequestRevisionIds: [] }, params);
}

/** The pages that link to a file. */
export async function listFileBacklinks(ctx: RequestContext, source: ContentSource, fileId: string, query: unknown = {}) {
  const params = parseInput(BacklinksQuery, query, 'query');
  const scope = await linkScope(ctx, source);
  await revisionFile(ctx, scope.revisionId, fileId);
  return listBacklinks(ctx, scope, fileId, params);
}

/** A revision the viewer can see and its page tree, for GraphQL's Revision and Page. */
export async function revisionContent(ctx: RequestContext, spaceId: string, revisionId: string) {
  const [revision, tree] = await Promise.all([loader(ctx, revisionRecords).load(revisionId), loadPageTree(ctx, revisionId)]);
  if (!revision || revision.spaceId !== spaceId) throw notFound('Revision', revisionId);
  return { revision, tree, spaceId };
}

/** A revision by id, of a space the viewer sees (its own content or a change request's): GraphQL's `node`. */
export async function visibleRevision(ctx: RequestContext, revisionId: string) {
  const revision = await loader(ctx, revisionRecords).load(revisionId);
  if (!revision) throw notFound('Revision', revisionId);
  await visibleSpace(ctx, revision.spaceId).catch(() => {
    throw notFound('Revision', revisionId);
  });
  return { spaceId: revision.spaceId, revisionId };
}

/**
 * The body of a page of `tree` in either format: markdown with the page's front matter, or the structured
 * document read as `reading` asks. `byVisitor`: read by a visitor of a published site, to whom a page's
 * condition is not shown.
 */
export async function pageBody(
  ctx: RequestContext,
  tree: PageTree,
  page: PageState,
  format: 'markdown' | 'document',
  reading: DocumentReading = {},
  byVisitor = false,
) {
  if (format === 'document') return pageDocument(ctx, tree, page, reading);
  const markdown = await markdownOf(ctx, page.type === 'document' ? page.documentId : null);
  return page.type === 'document' ? withFrontMatter(page, markdown, { condition: !byVisitor }) : '';
}

export const PdfQuery = z.object({
  only: queryBool().optional().describe('Render the page given as `page` alone, without the pages under it (`page` is then required)'),
  page: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('The id of a page to render, with the pages under it (without them when `only=true`); required when `only=true`; the whole content when absent'),
});

/** How long a request waits for its PDF or import job before answering 503 (the job is then dropped). */
export const CONTENT_JOB_WAIT_MS = 60_000;

/**
 * The content of a change request (or one page, or a page with its pages) as a
 * PDF: rendered by a job (any instance may take it), stored by its digest in
 * the file storage, and served at the returned `url` (an address only someone
 * who can read the content learns).
 */
export async function exportChangeRequestPdf(ctx: RequestContext, spaceId: string, idOrNumber: string, query: unknown = {}) {
  const { only, page: pageId } = parseInput(PdfQuery, query, 'query');
  if (only && !pageId) throw invalid('page: is required with only=true');
  const { space, changeRequest } = await visibleChangeRequest(ctx, spaceId, idOrNumber);
  if (pageId && !(await loadPageTree(ctx, changeRequest.revisionId)).pages.has(pageId)) throw notFound('Page', pageId);
  const title = changeRequest.subject || `Change request #${changeRequest.number}`;
  const { sha256 } = await callJob(
    ctx,
    renderPdfJob,
    { revisionId: changeRequest.revisionId, title, pageId, only },
    { timeoutMs: CONTENT_JOB_WAIT_MS, announce: { organizationId: space.organizationId, spaceId, changeRequestId: changeRequest.id } },
  );
  return { url: `${ctx.urls.api}/exports/${sha256}/${slugOf(title)}.pdf` };
}

/**
 * Imports a website into a change request's content, or into the space's live
 * content (editors, when the space is not locked), as one new revision. A job
 * crawls and writes (any instance may take it); if the content moved during
 * the crawl, a 409 asks to retry.
 */
export async function importContent(ctx: RequestContext, source: ContentSource, body: unknown) {
  const input = parseInput(ImportInput, body);
  const target =
    source.changeRequest === undefined
      ? await (async () => {
          const { space, level } = await visibleSpace(ctx, source.spaceId);
          authorize(atLeast(level, 'edit'), 'edit the content of this space');
          if (space.deletedAt) throw conflict(`space "${space.id}" is deleted: restore it first`);
          if (space.editMode === 'locked') throw conflict(`space "${space.id}" is locked: import into a change request`);
          return { revisionId: space.revisionId, changeRequestId: null as string | null, organizationId: space.organizationId };
        })()
      : await (async () => {
          const { space, changeRequest } = await editableChangeRequest(ctx, source.spaceId, source.changeRequest!, 'edit the content of this change request');
          return { revisionId: changeRequest.revisionId, changeRequestId: changeRequest.id as string | null, organizationId: space.organizationId };
        })();
  const { organizationId, ...job } = target;
  const { revisionId, importedResources, totalResources, failedResources } = await callJob(
    ctx,
    importWebsiteJob,
    { spaceId: source.spaceId, ...job, input, userId: ctx.viewer!.user.id, allowPrivate: ctx.fetchPrivateAddresses === true },
    { timeoutMs: CONTENT_JOB_WAIT_MS, announce: { organizationId, spaceId: source.spaceId, changeRequestId: job.changeRequestId ?? undefined } },
  );
  return {
    revision: revisionId as string,
    importedResources: importedResources as number,
    totalResources: totalResources as number,
    failedResources: (failedResources ?? []) as Array<{ url: string; reason: string }>,
  };
}

/** The viewer contributed to a change request's content (the `contributor` filter). */
/** The bytes of every file an `insert_files` change names by URL: public addresses only, 1 MB, 10 s each. */
async function fetchFiles(ctx: RequestContext, changes: ContentChange[]) {
  const fetched = new Map<string, { bytes: Buffer; contentType: string }>();
  for (const [index, change] of changes.entries()) {
    if (change.operation !== 'insert_files') continue;
    for (const [fileIndex, file] of change.files.entries()) {
      if (file.url === undefined || fetched.has(file.url)) continue;
      const field = `changes.${index}.files.${fileIndex}.url`;
      try {
        const response = await fetchBounded(new URL(file.url), {
          timeoutMs: 10_000,
          maxBytes: MAX_FILE_BYTES,
          allowPrivate: ctx.fetchPrivateAddresses === true,
        });
        if (response.status >= 400) throw invalid(`${field}: ${file.url} answered HTTP ${response.status}`);
        const contentType = (file.contentType ?? response.contentType.split(';')[0]?.trim()) || 'application/octet-stream';
        fetched.set(file.url, { bytes: response.body, contentType });
      } catch (error) {
        if (error instanceof FetchRefused) throw invalid(`${field}: ${error.message}`);
        throw error;
      }
    }
  }
  return fetched;
}
