import { createTwoFilesPatch } from 'diff';
import { z } from 'zod';
import type { PublicUrls } from '../../config.ts';
import type { RequestContext } from '../../context.ts';
import type { ChangeRequestRecord } from '../../db/index.ts';
import { type Page, memoryPage, pageParams, pageRequestOf } from '../../lib/pagination.ts';
import { parseInput, queryInt } from '../../lib/validation.ts';
import { markdownOf } from '../content/documents.ts';
import { downloadUrl, revisionFiles } from '../content/files.ts';
import { revisionRecords } from '../content/service.ts';
import { type PageState, type PageTree, VERSION_FIELDS, loadPageTree } from '../content/tree.ts';
import { loader } from '../loaders.ts';
import { visibleChangeRequest } from './service.ts';

/**
 * What a change request changes, as the official `getChangeRequestChanges`
 * lists it (semantic changes): pages created, edited, moved or deleted since its
 * base — the space revision it was created or last updated from — or, once
 * merged, what its merge changed in the space; then files created or deleted.
 * Each page change also carries its title and path on both sides and, when its
 * body changed, a unified diff of its markdown. One function for REST and GraphQL.
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
   * change or when the two bodies differ too much to diff (see DIFF_WORK_BUDGET).
   */
  diff?: string | null;
  file?: { id: string; name: string; contentType: string; downloadURL: string };
}

export interface ChangeRequestChanges {
  /** The revisions compared: the base and the change request's content, or the space before and after its merge. */
  base: string;
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
    const was = before[field];
    const is = after[field];
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
 * The work of diffing two bodies grows with their length times the lines added and removed
 * (Myers), on the event loop: past this budget (line count × edit lines), a body's diff is not
 * computed (null). A body created or deleted is diffed against nothing, in linear time, always.
 */
const DIFF_WORK_BUDGET = 50_000_000;
const MAX_DIFF_EDIT_LINES = 5_000;

/** The diff of a change, made when the change is on the page asked for: a listing costs the diffs it shows only. */
const pendingDiffs = new WeakMap<ContentChange, () => Promise<string | null>>();

/** Every change between two revisions: pages in the table-of-contents order of the head, then deleted pages in the base's, then files. */
async function contentChanges(ctx: RequestContext, urls: PublicUrls, base: string, head: string): Promise<ContentChange[]> {
  const [baseTree, headTree, baseFiles, headFiles] = await Promise.all([
    loadPageTree(ctx, base),
    loadPageTree(ctx, head),
    revisionFiles(ctx, base),
    revisionFiles(ctx, head),
  ]);
  const bodyDiff = async (before: PageState | undefined, after: PageState | undefined) => {
    const beforeDocument = before?.type === 'document' ? before.documentId : null;
    const afterDocument = after?.type === 'document' ? after.documentId : null;
    if (beforeDocument === afterDocument) return null;
    const [oldText, newText] = await Promise.all([markdownOf(ctx, beforeDocument), markdownOf(ctx, afterDocument)]);
    if (oldText === newText) return null;
    const oldName = before ? `a/${baseTree.paths.get(before.pageId) || before.slug}.md` : '/dev/null';
    const newName = after ? `b/${headTree.paths.get(after.pageId) || after.slug}.md` : '/dev/null';
    const oneSided = oldText === '' || newText === '';
    const lines = oldText.split('\n').length + newText.split('\n').length;
    const patch = createTwoFilesPatch(oldName, newName, oldText, newText, undefined, undefined, {
      context: 3,
      ...(oneSided ? {} : { maxEditLength: Math.min(MAX_DIFF_EDIT_LINES, Math.floor(DIFF_WORK_BUDGET / lines)) }),
    });
    // Without jsdiff's line of "=" before the header: the unified format `patch` and `git apply` read.
    return patch === undefined ? null : patch.replace(/^=+\n/, '');
  };
  const withDiff = (change: ContentChange, before: PageState | undefined, after: PageState | undefined) => {
    let made: Promise<string | null> | undefined;
    pendingDiffs.set(change, () => (made ??= bodyDiff(before, after)));
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

/** Comparisons made in this request, by change request: GraphQL may ask for several pages of one. */
const comparisons = new WeakMap<RequestContext, Map<string, Promise<{ base: string; head: string; changes: ContentChange[] }>>>();

function compare(ctx: RequestContext, changeRequest: ChangeRequestRecord) {
  let made = comparisons.get(ctx);
  if (!made) comparisons.set(ctx, (made = new Map()));
  let comparison = made.get(changeRequest.id);
  if (!comparison) {
    comparison = comparedRevisions(ctx, changeRequest).then(async ({ base, head }) => ({
      base,
      head,
      changes: await contentChanges(ctx, ctx.urls, base, head),
    }));
    made.set(changeRequest.id, comparison);
  }
  return comparison;
}

/** The changes of a change request the viewer can see (by id or number), a page at a time. */
export async function changeRequestChanges(ctx: RequestContext, spaceId: string, idOrNumber: string, query: unknown = {}): Promise<ChangeRequestChanges> {
  const request = pageRequestOf(parseInput(ChangesQuery, query, 'query'));
  const { changeRequest } = await visibleChangeRequest(ctx, spaceId, idOrNumber);
  const { base, head, changes } = await compare(ctx, changeRequest);
  const page = memoryPage(changes, request, `changes:${changeRequest.id}:${base}:${head}`);
  // The bodies of the changes shown, read together (one statement), diffed once each.
  await Promise.all(
    page.items.map(async (change) => {
      const pending = pendingDiffs.get(change);
      if (pending) change.diff = await pending();
    }),
  );
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
