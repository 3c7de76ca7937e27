import { createHash } from 'node:crypto';
import { conflict } from '../../errors.ts';
import type { JobKind } from '../../context.ts';
import { assertContentWritable, emitChangeRequestContent, lockSpace } from '../change-requests/service.ts';
import { emitEvent } from '../events/emit.ts';
import { reindexSpace } from '../search/indexing.ts';
import { inTransaction } from '../transaction.ts';
import { markdownOf, storeDocuments } from './documents.ts';
import { storeUploadedFiles } from './files.ts';
import type { ImportInput } from './import-input.ts';
import { writeRevision } from './revisions.ts';
import { noteContributor } from '../change-requests/contributors.ts';
import { type PageState, type PageTree, loadPageTree } from './tree.ts';
import type { z } from 'zod';

/**
 * The content work a request waits for but any instance may do (src/jobs/):
 * rendering PDFs and importing websites. The request checked who may ask;
 * the job's data carries everything it decided.
 */

export interface RenderPdfData {
  revisionId: string;
  title: string;
  /** One page (with its pages, unless `only`); the whole content when absent. */
  pageId?: string | undefined;
  only?: boolean | undefined;
}

/** Renders a revision's pages as a PDF into the file storage; its digest names it. */
export const renderPdfJob: JobKind<RenderPdfData> = {
  name: 'render-pdf',
  retryLimit: 1,
  timeoutSeconds: 120,
  async run(ctx, { revisionId, title, pageId, only }) {
    const tree = await loadPageTree(ctx, revisionId);
    const root = pageId ? tree.pages.get(pageId) : undefined;
    const chosen = root ? [{ page: root, depth: 0 }, ...(only ? [] : depthFirst(tree, root.pageId, 1))] : depthFirst(tree, null, 0);
    const pages = await Promise.all(
      chosen
        .filter(({ page }) => page.type !== 'link')
        .map(async ({ page, depth }) => ({ title: page.title, depth, markdown: await markdownOf(ctx, page.documentId) })),
    );
    // Loaded when first asked for: pdfkit and its fonts need not sit in every server's memory.
    const { renderPdf } = await import('./pdf.ts');
    const bytes = await renderPdf(title, pages);
    if (!ctx.storage) throw new Error('this server has no file storage configured');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    await ctx.storage.put(sha256, bytes);
    return { sha256, pages: pages.length, bytes: bytes.length };
  },
};

function depthFirst(tree: PageTree, parentId: string | null, depth: number): Array<{ page: PageState; depth: number }> {
  return (tree.children.get(parentId) ?? []).flatMap((page) => [{ page, depth }, ...depthFirst(tree, page.pageId, depth + 1)]);
}

export interface ImportWebsiteData {
  spaceId: string;
  /** The revision the crawl builds on: the space's, or the change request's. */
  revisionId: string;
  changeRequestId: string | null;
  input: z.infer<typeof ImportInput>;
  /** Who asked: noted as a contributor of the change request. */
  userId: string;
  /** Whether the queuing server fetches private addresses (development and tests). */
  allowPrivate: boolean;
}

/**
 * Crawls a website and writes it as one new revision on top of the one the
 * request saw; a 409 when the content moved meanwhile. Not retried: a crawl
 * that failed half-way is the caller's to ask again.
 */
export const importWebsiteJob: JobKind<ImportWebsiteData> = {
  name: 'import-website',
  retryLimit: 0,
  timeoutSeconds: 120,
  async run(ctx, { spaceId, revisionId: baseRevisionId, changeRequestId, input, userId, allowPrivate }) {
    const base = await loadPageTree(ctx, baseRevisionId);
    const { importWebsite } = await import('./import.ts');
    const imported = await importWebsite(spaceId, base, input, { now: ctx.clock.now(), allowPrivate });
    const revisionId = await inTransaction(ctx, async (tx) => {
      const space = await lockSpace(tx, spaceId);
      const changeRequest = changeRequestId ? await tx.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequestId } }) : null;
      // Merged, archived, deleted or locked during the crawl: nothing is written.
      assertContentWritable(space, changeRequest);
      const current = changeRequest ? changeRequest.revisionId : space.revisionId;
      if (current !== baseRevisionId) throw conflict('the content changed while the site was imported: try again');
      await storeDocuments(tx, spaceId, imported.markdowns);
      const addedFiles = await storeUploadedFiles(tx, spaceId, imported.files);
      const revisionId = await writeRevision(tx, {
        spaceId,
        changeRequestId,
        type: 'edits',
        parents: [baseRevisionId],
        // Revisions never change: the tree read before the crawl is still this one.
        base,
        pages: imported.pages,
        addedFiles,
      });
      if (changeRequestId) {
        await tx.db.changeRequest.update({ where: { id: changeRequestId }, data: { revisionId } });
        await noteContributor(tx, changeRequestId, userId);
        emitChangeRequestContent(tx, space, changeRequestId, revisionId);
      } else {
        await tx.db.space.update({ where: { id: spaceId }, data: { revisionId } });
        await reindexSpace(tx, spaceId, revisionId);
        emitEvent(tx, { kind: 'space.content_updated', organizationId: space.organizationId, spaceId, subjectId: spaceId, data: { revisionId } });
      }
      return revisionId;
    });
    return {
      revisionId,
      importedResources: imported.importedResources,
      totalResources: imported.totalResources,
      failedResources: imported.failedResources,
    };
  },
};
