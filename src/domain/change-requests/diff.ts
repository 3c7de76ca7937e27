import { FILE_HEADERS_ONLY, formatPatch } from 'diff';
import { z } from 'zod';
import type { PublicUrls } from '../../config.ts';
import type { RequestContext } from '../../context.ts';
import { Prisma, type ChangeRequestRecord } from '../../db/index.ts';
import { unavailable } from '../../errors.ts';
import { type Page, type PageRequest, memoryPage, pageParams, pageRequestOf } from '../../lib/pagination.ts';
import { parseInput, queryInt } from '../../lib/validation.ts';
import { TaskOverBudget, runTask, workerPoolOptions } from '../../workers/pool.ts';
import { markdownOf } from '../content/documents.ts';
import { type FileRow, downloadUrl, revisionFiles } from '../content/files.ts';
import { pageLayout } from '../content/presenter.ts';
import { revisionRecords } from '../content/service.ts';
import { type PageState, type PageTree, VERSION_FIELDS, loadPageTree, treeOf } from '../content/tree.ts';
import { defineLoader, loader } from '../loaders.ts';
import { visibleChangeRequest } from './service.ts';

/**
 * What a change request changes, as the official `getChangeRequestChanges`
 * lists it (semantic changes): pages created, edited, moved or deleted since its
 * base — the space revision it was created or last updated from — or, once
 * merged, what its merge changed in the space; then files created or deleted.
 * Each page change also carries its title and path on both sides and, when its
 * body changed, a unified diff of its markdown. One function for REST and GraphQL.
 *
 * Diffs are made on the worker pool (the `diff-bodies` task), only for the
 * changes of the page asked for, and kept: page bodies never change (their id
 * is a digest of their content), so the diff of two bodies never does either,
 * and `document_diffs` keeps it for every later read, on every instance, under
 * any change request that compares the same two bodies.
 */

export const CHANGE_TYPES = ['page_created', 'page_edited', 'page_moved', 'page_deleted', 'file_created', 'file_deleted'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

export const ChangesQuery = z.object({
  ...pageParams,
  // The official default: a summary of the first ten.
  limit: queryInt(1, 1000).default(10),
});

/** A page as a change names it (official ChangedRevisionPage). */
export interface ChangedPage {
  id: string;
  type: PageState['type'];
  title: string;
  path: string;
}

/** A page on one side of a change. */
export interface PageSide {
  title: string;
  path: string;
}

export interface AttributeChange {
  before?: unknown;
  after?: unknown;
}

export interface ContentChange {
  type: ChangeType;
  /** The page (as in the head; a deleted one as in the base). */
  page?: ChangedPage;
  before?: PageSide | null;
  after?: PageSide | null;
  /** page_edited: each field that changed (`document` is the body's document id). */
  attributes?: Record<string, AttributeChange>;
  /** page_moved: the parent on each side; absent on a side where it is at the top level. */
  parent?: { before?: ChangedPage; after?: ChangedPage };
  /**
   * A unified diff of its markdown (`a/<path>.md` → `b/<path>.md`), null when the body did not
   * change or when the two bodies differ too much to diff (see DIFF_WORK_BUDGET, DIFF_TIME_BUDGET_MS).
   */
  diff?: string | null;
  file?: { id: string; name: string; contentType: string; downloadURL: string };
}

export interface ChangeRequestChanges {
  /**
   * The revisions compared: the base and the change request's content, or the space before and after its merge
   * (a revision and its parent: null for a first revision, compared with no content at all).
   */
  base: string | null;
  head: string;
  changes: Page<ContentChange> & { remaining: number };
}

/** The page's fields that an edit compares, by their name in official change attributes. */
const ATTRIBUTES = VERSION_FIELDS.filter((field) => field !== 'type' && field !== 'documentId');

function changedPage(tree: PageTree, page: PageState): ChangedPage {
  return { id: page.pageId, type: page.type, title: page.title, path: tree.paths.get(page.pageId) ?? page.slug };
}

function sideOf(tree: PageTree, page: PageState | undefined): PageSide | null {
  return page ? { title: page.title, path: tree.paths.get(page.pageId) ?? page.slug } : null;
}

function attributeChanges(before: PageState, after: PageState): Record<string, AttributeChange> {
  const changed: Record<string, AttributeChange> = {};
  const side = (value: unknown) => (value === null || value === undefined ? {} : value);
  for (const field of ATTRIBUTES) {
    if (JSON.stringify(before[field]) === JSON.stringify(after[field])) continue;
    // A layout reads whole on both sides (official RevisionPageLayout), its defaults filled in.
    const was = field === 'layout' ? pageLayout(before) : before[field];
    const is = field === 'layout' ? pageLayout(after) : after[field];
    changed[field] = { ...(was == null ? {} : { before: side(was) }), ...(is == null ? {} : { after: side(is) }) };
  }
  if (before.documentId !== after.documentId) {
    changed.document = { ...(before.documentId ? { before: before.documentId } : {}), ...(after.documentId ? { after: after.documentId } : {}) };
  }
  return changed;
}

/** The two revisions a change request is read against: its base and its content, or, once merged, the space on both sides of its merge. */
async function comparedRevisions(ctx: RequestContext, changeRequest: ChangeRequestRecord) {
  if (changeRequest.revisionMergedId) {
    const merge = await loader(ctx, revisionRecords).load(changeRequest.revisionMergedId);
    const before = (merge?.parents as string[] | undefined)?.[0];
    if (before) return { base: before, head: changeRequest.revisionMergedId };
  }
  return { base: changeRequest.revisionMergedAncestorId, head: changeRequest.revisionId };
}

/**
 * Budgets of diffing two bodies. Myers' work grows with their length times the
 * lines added and removed: past DIFF_WORK_BUDGET (line count × edit lines) or
 * MAX_DIFF_EDIT_LINES, a body's diff is not made (null), and neither past
 * DIFF_TIME_BUDGET_MS on a worker (null too, and not kept: a quieter moment
 * may make it). A body created or deleted is diffed against nothing, in linear
 * time, always. A request makes diffs for DIFF_REQUEST_BUDGET_MS at most, then
 * answers 503: what it made is kept, so asking again goes on from there.
 */
const DIFF_WORK_BUDGET = 50_000_000;
const MAX_DIFF_EDIT_LINES = 5_000;
export const DIFF_TIME_BUDGET_MS = 10_000;
export const DIFF_REQUEST_BUDGET_MS = 30_000;

/** How to diff a change's body when its page is shown: the two page versions and the file names of each side. */
interface PendingDiff {
  beforeDocument: string | null;
  afterDocument: string | null;
  oldName: string;
  newName: string;
}

/** The diff of a change, made when the change is on the page asked for: a listing costs the diffs it shows only. */
const pendingDiffs = new WeakMap<ContentChange, PendingDiff>();

const pairKey = ({ beforeId, afterId }: { beforeId: string; afterId: string }) => `${beforeId} ${afterId}`;

/** Diffs kept of two bodies, by pair: undefined when not made yet, null when too large to make. */
const storedDiffs = defineLoader<{ beforeId: string; afterId: string }, string | null | undefined>(async (ctx, pairs) => {
  const rows = await ctx.db.documentDiff.findMany({
    where: { beforeId: { in: [...new Set(pairs.map((pair) => pair.beforeId))] }, afterId: { in: [...new Set(pairs.map((pair) => pair.afterId))] } },
  });
  const byPair = new Map(rows.map((row) => [pairKey(row), row.hunks]));
  return pairs.map((pair) => byPair.get(pairKey(pair)));
}, pairKey);

/** Keeps a diff; another request may have kept the same one meanwhile, or a purge removed a body: either way the answer stands. */
async function keepDiff(ctx: RequestContext, beforeId: string, afterId: string, hunks: string | null) {
  await ctx.db
    .$executeRaw(Prisma.sql`INSERT INTO "document_diffs" ("beforeId", "afterId", "hunks") VALUES (${beforeId}, ${afterId}, ${hunks}) ON CONFLICT DO NOTHING`)
    .catch(() => undefined);
}

/** Diffs this instance is making, by pair: two readers of the same change request at once make each diff once. */
const making = new Map<string, Promise<string | null>>();

/** The hunks of a body's diff (without file header), '' when no line differs, or null when not made. */
async function diffHunks(ctx: RequestContext, beforeId: string | null, afterId: string | null): Promise<string | null> {
  const kept = beforeId && afterId ? await loader(ctx, storedDiffs).load({ beforeId, afterId }) : undefined;
  if (kept !== undefined) return kept;
  if (!beforeId || !afterId) return makeDiff(ctx, beforeId, afterId);
  const key = pairKey({ beforeId, afterId });
  let made = making.get(key);
  if (!made) {
    made = makeDiff(ctx, beforeId, afterId).finally(() => making.delete(key));
    making.set(key, made);
  }
  return made;
}

async function makeDiff(ctx: RequestContext, beforeId: string | null, afterId: string | null): Promise<string | null> {
  const [before, after] = await Promise.all([markdownOf(ctx, beforeId), markdownOf(ctx, afterId)]);
  if (before === after) return null;
  const oneSided = before === '' || after === '';
  let hunks: string | null;
  try {
    hunks = await runTask(
      'diff-bodies',
      { before, after, budget: oneSided ? null : { maxEditLines: MAX_DIFF_EDIT_LINES, maxWork: DIFF_WORK_BUDGET } },
      { budgetMs: DIFF_TIME_BUDGET_MS },
    );
  } catch (error) {
    if (error instanceof TaskOverBudget) return null;
    throw error;
  }
  if (beforeId && afterId) await keepDiff(ctx, beforeId, afterId, hunks);
  return hunks;
}

/** The diff of one change as the contract shows it: a unified diff with its file header, or null. */
async function diffOf(ctx: RequestContext, { beforeDocument, afterDocument, oldName, newName }: PendingDiff): Promise<string | null> {
  if (beforeDocument === afterDocument) return null;
  const hunks = await diffHunks(ctx, beforeDocument, afterDocument);
  return hunks === null
    ? null
    : formatPatch({ oldFileName: oldName, newFileName: newName, oldHeader: undefined, newHeader: undefined, hunks: [] }, FILE_HEADERS_ONLY) + hunks;
}

/**
 * Fills in the diffs of the changes shown: as many at a time as the pool has
 * threads, for DIFF_REQUEST_BUDGET_MS at most (then a 503; what was made is kept).
 */
async function fillDiffs(ctx: RequestContext, changes: ContentChange[]) {
  const pending = changes.flatMap((change) => {
    const diff = pendingDiffs.get(change);
    return diff ? [{ change, diff }] : [];
  });
  const deadline = Date.now() + DIFF_REQUEST_BUDGET_MS;
  let next = 0;
  let made = 0;
  let stopped = false;
  const runner = async () => {
    while (next < pending.length && !stopped) {
      if (Date.now() > deadline || ctx.clientGone?.aborted) {
        stopped = true;
        break;
      }
      const { change, diff } = pending[next++]!;
      try {
        change.diff = await diffOf(ctx, diff);
        made++;
      } catch (error) {
        stopped = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(pending.length, workerPoolOptions().threads) }, runner));
  if (stopped) {
    throw unavailable(
      `the server is still making the diffs of these changes (${made} of ${pending.length} made in ${DIFF_REQUEST_BUDGET_MS / 1000} s): ask again, it goes on from there`,
    );
  }
}

/**
 * Every change between two revisions (from no content when `base` is null): pages in the table-of-contents
 * order of the head, then deleted pages in the base's, then files.
 */
async function contentChanges(ctx: RequestContext, urls: PublicUrls, base: string | null, head: string): Promise<ContentChange[]> {
  const [baseTree, headTree, baseFiles, headFiles] = await Promise.all([
    base === null ? treeOf('', []) : loadPageTree(ctx, base),
    loadPageTree(ctx, head),
    base === null ? ([] as FileRow[]) : revisionFiles(ctx, base),
    revisionFiles(ctx, head),
  ]);
  const withDiff = (change: ContentChange, before: PageState | undefined, after: PageState | undefined) => {
    pendingDiffs.set(change, {
      beforeDocument: before?.type === 'document' ? before.documentId : null,
      afterDocument: after?.type === 'document' ? after.documentId : null,
      oldName: before ? `a/${baseTree.paths.get(before.pageId) || before.slug}.md` : '/dev/null',
      newName: after ? `b/${headTree.paths.get(after.pageId) || after.slug}.md` : '/dev/null',
    });
    return change;
  };
  const changes: ContentChange[] = [];
  for (const after of headTree.pages.values()) {
    const before = baseTree.pages.get(after.pageId);
    const page = changedPage(headTree, after);
    const sides = { before: sideOf(baseTree, before), after: sideOf(headTree, after) };
    if (!before) {
      changes.push(withDiff({ type: 'page_created', page, ...sides, diff: null }, undefined, after));
      continue;
    }
    if (before.parentId !== after.parentId || before.position !== after.position) {
      const parentBefore = before.parentId ? baseTree.pages.get(before.parentId) : undefined;
      const parentAfter = after.parentId ? headTree.pages.get(after.parentId) : undefined;
      const parent = {
        ...(parentBefore ? { before: changedPage(baseTree, parentBefore) } : {}),
        ...(parentAfter ? { after: changedPage(headTree, parentAfter) } : {}),
      };
      changes.push({ type: 'page_moved', page, ...sides, parent });
    }
    if (before.versionId !== after.versionId) {
      const attributes = attributeChanges(before, after);
      if (Object.keys(attributes).length) changes.push(withDiff({ type: 'page_edited', page, ...sides, attributes, diff: null }, before, after));
    }
  }
  for (const before of baseTree.pages.values()) {
    if (headTree.pages.has(before.pageId)) continue;
    changes.push(
      withDiff({ type: 'page_deleted', page: changedPage(baseTree, before), before: sideOf(baseTree, before), after: null, diff: null }, before, undefined),
    );
  }
  const fileOf = (file: (typeof headFiles)[number]) => ({
    id: file.fileId,
    name: file.version.name,
    contentType: file.version.contentType,
    downloadURL: downloadUrl(urls, file.version.id, file.version.name),
  });
  const baseIds = new Set(baseFiles.map((file) => file.fileId));
  const headIds = new Set(headFiles.map((file) => file.fileId));
  for (const file of headFiles) if (!baseIds.has(file.fileId)) changes.push({ type: 'file_created', file: fileOf(file) });
  for (const file of baseFiles) if (!headIds.has(file.fileId)) changes.push({ type: 'file_deleted', file: fileOf(file) });
  return changes;
}

/** Comparisons made in this request, by the revisions compared: GraphQL may ask for several pages of one. */
const comparisons = new WeakMap<RequestContext, Map<string, Promise<ContentChange[]>>>();

function compare(ctx: RequestContext, base: string | null, head: string) {
  let made = comparisons.get(ctx);
  if (!made) comparisons.set(ctx, (made = new Map()));
  const key = `${base ?? ''}:${head}`;
  let comparison = made.get(key);
  if (!comparison) {
    comparison = contentChanges(ctx, ctx.urls, base, head);
    made.set(key, comparison);
  }
  return comparison;
}

/** The changes of a change request the viewer can see (by id or number), a page at a time. */
export async function changeRequestChanges(ctx: RequestContext, spaceId: string, idOrNumber: string, query: unknown = {}): Promise<ChangeRequestChanges> {
  const request = pageRequestOf(parseInput(ChangesQuery, query, 'query'));
  const { changeRequest } = await visibleChangeRequest(ctx, spaceId, idOrNumber);
  return changesBetween(ctx, await comparedRevisions(ctx, changeRequest), request, `changes:${changeRequest.id}`);
}

/**
 * The changes from revision `base` to `head` (from no content at all when `base` is null), a page at a
 * time: a change request's, and a revision's against its parent (src/domain/content/revision-changes.ts).
 * The caller has checked that the viewer sees both; `listing` names the listing its page tokens belong to.
 */
export async function changesBetween(
  ctx: RequestContext,
  { base, head }: { base: string | null; head: string },
  request: PageRequest,
  listing: string,
): Promise<ChangeRequestChanges> {
  const changes = await compare(ctx, base, head);
  const page = memoryPage(changes, request, `${listing}:${base ?? ''}:${head}`);
  // The diffs of the changes shown: kept ones read together (one statement), the others made on the worker pool.
  await fillDiffs(ctx, page.items);
  return { base, head, changes: page };
}

/** As REST answers them (official RevisionSemanticChanges): `changes`, `more` (how many are left out), and ours: `next`, `base`, `head`. */
export async function presentChanges({ base, head, changes }: ChangeRequestChanges) {
  const cursor = changes.cursors.at(-1);
  const more = changes.remaining;
  return {
    changes: changes.items.map((change) => Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined))),
    ...(more > 0 ? { more } : {}),
    ...(changes.hasNextPage && cursor ? { next: { page: cursor } } : {}),
    base,
    head,
  };
}
