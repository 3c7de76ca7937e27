import { createHash } from 'node:crypto';
import { conflict, invalid } from '../../errors.ts';
import type { JobKind } from '../../context.ts';
import type { FileStorage } from '../../storage/files.ts';
import { assertContentWritable, emitChangeRequestContent, lockSpace } from '../change-requests/service.ts';
import { emitEvent } from '../events/emit.ts';
import { reindexSpace } from '../search/indexing.ts';
import { inTransaction } from '../transaction.ts';
import { TaskOverBudget, runTask } from '../../workers/pool.ts';
import { markdownBytes, storeDocuments } from './documents.ts';
import { type FileRow, revisionFiles, storeUploadedFiles } from './files.ts';
import { bodyStructureTexts } from './bodies.ts';
import { placeOf } from './page-document.ts';
import { loader } from '../loaders.ts';
import type { ImportInput } from './import-input.ts';
import { writeRevision } from './revisions.ts';
import { noteContributor } from '../change-requests/contributors.ts';
import { auditWrite } from '../audit/record.ts';
import { type PageState, type PageTree, loadPageTree } from './tree.ts';
import { recordMovedPages } from '../sites/redirects.ts';
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

/** What one PDF may lay out, and the time the worker pool gives its rendering (a request waits 60 s for it). */
const EMPTY_DOCUMENT = '{"object":"document","data":{},"nodes":[]}';

export const PDF_LIMITS = {
  maxMarkdownBytes: 20_000_000,
  /** The images drawn, in all: past it, the rest are named by their alt text. */
  maxImageBytes: 64 * 1024 * 1024,
  renderMs: 60_000,
};

/** Renders a revision's pages as a PDF into the file storage, on the worker pool; its digest names it. */
export const renderPdfJob: JobKind<RenderPdfData> = {
  name: 'render-pdf',
  retryLimit: 1,
  timeoutSeconds: 120,
  async run(ctx, { revisionId, title, pageId, only }) {
    const tree = await loadPageTree(ctx, revisionId);
    const root = pageId ? tree.pages.get(pageId) : undefined;
    const chosen = (root ? [{ page: root, depth: 0 }, ...(only ? [] : depthFirst(tree, root.pageId, 1))] : depthFirst(tree, null, 0)).filter(
      ({ page }) => page.type !== 'link',
    );
    // Measured before any body is read: a PDF too large is refused without holding its content.
    const size = await markdownBytes(
      ctx,
      chosen.flatMap(({ page }) => (page.documentId ? [page.documentId] : [])),
    );
    if (size > PDF_LIMITS.maxMarkdownBytes) {
      throw invalid(
        `page: the content holds ${size.toLocaleString('en-US')} bytes of markdown, more than the ${PDF_LIMITS.maxMarkdownBytes.toLocaleString('en-US')} a PDF may lay out: export a part of it (page, only)`,
      );
    }
    // Each page's kept document as its JSON text: the worker parses it, and resolves its relative paths.
    const bodies = [...new Set(chosen.flatMap(({ page }) => (page.type === 'document' && page.documentId ? [page.documentId] : [])))];
    const texts = new Map<string, string>();
    for (const [index, text] of (await loader(ctx, bodyStructureTexts).loadMany(bodies)).entries()) {
      if (text instanceof Error) throw text;
      texts.set(bodies[index]!, text);
    }
    const pages = chosen.map(({ page, depth }) => ({
      title: page.title,
      depth,
      structure: (page.type === 'document' && page.documentId && texts.get(page.documentId)) || EMPTY_DOCUMENT,
      ...placeOf(tree, page),
    }));
    if (!ctx.storage) throw new Error('this server has no file storage configured');
    const files = await revisionFiles(ctx, revisionId);
    const images = await shownImages(ctx.storage, files, pages);
    const resolve = {
      pagesByPath: Object.fromEntries([...tree.paths].map(([pageId, path]) => [path, pageId])),
      filesByName: Object.fromEntries([...files].reverse().map((file) => [file.version.name, file.fileId])),
    };
    const rendered = await runTask('render-pdf', { title, pages, images, ...resolve }, { budgetMs: PDF_LIMITS.renderMs }).catch((error: unknown) => {
      if (!(error instanceof TaskOverBudget)) throw error;
      throw invalid(
        `page: the content takes ${error.budget === 'time' ? 'longer' : 'more memory'} to lay out than a PDF may: export a part of it (page, only)`,
      );
    });
    const pdf = Buffer.from(rendered.buffer, rendered.byteOffset, rendered.byteLength);
    const sha256 = createHash('sha256').update(pdf).digest('hex');
    await ctx.storage.put(sha256, pdf);
    return { sha256, pages: pages.length, bytes: pdf.length };
  },
};

/**
 * The images the pages may show, from the file storage: PNG and JPEG files that their documents name,
 * by id or by name (a relative path), found in the JSON text without parsing it; at most
 * PDF_LIMITS.maxImageBytes in all.
 */
async function shownImages(storage: FileStorage, files: FileRow[], pages: Array<{ structure: string }>): Promise<Map<string, Uint8Array>> {
  const named = new Set<string>();
  for (const { structure } of pages) {
    for (const match of structure.matchAll(/"(?:file|url)":"([^"\\]+)"/g)) named.add(match[1]!.split('/').at(-1)!);
  }
  const images = new Map<string, Uint8Array>();
  let total = 0;
  for (const file of files) {
    if (!(named.has(file.fileId) || named.has(file.version.name)) || !/^image\/(png|jpeg)$/.test(file.version.contentType)) continue;
    if (total + file.version.size > PDF_LIMITS.maxImageBytes) break;
    const bytes = await storage.get(file.version.sha256);
    if (!bytes) continue;
    images.set(file.fileId, bytes);
    total += bytes.length;
  }
  return images;
}

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
    const revisionId = await inTransaction(ctx, 'recorded-by-work', async (tx) => {
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
        await recordMovedPages(tx, spaceId, base, await loadPageTree(tx, revisionId));
        emitEvent(tx, { kind: 'space.content_updated', organizationId: space.organizationId, spaceId, subjectId: spaceId, data: { revisionId } });
      }
      auditWrite(tx, {
        action: 'space.import',
        organizationId: space.organizationId,
        target: changeRequestId ? { type: 'change-request', id: changeRequestId } : { type: 'space', id: spaceId, label: space.title },
        payload: { source: 'website' },
        actor: { id: userId },
      });
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
