import { isDeepStrictEqual } from 'node:util';
import { diff3Merge } from 'node-diff3';
import type { RequestContext } from '../../context.ts';
import { conflict } from '../../errors.ts';
import { documentIdOf, markdownOf } from './documents.ts';
import type { PageDraft } from './revisions.ts';
import { type PageState, type PageTree, VERSION_FIELDS } from './tree.ts';

/** Fields merged one by one: a page's version fields and its place in the tree. */
const MERGED_FIELDS = [...VERSION_FIELDS.filter((field) => field !== 'documentId'), 'parentId', 'position'] as const;

export interface MergedContent {
  pages: PageDraft[];
  /** Page bodies made by merging lines of both sides. */
  markdowns: string[];
}

/**
 * Three-way merge of two revisions from their common ancestor. A page changed on
 * one side only takes that side; a page changed on both takes each field from
 * the side that changed it, and a body changed on both merges line by line
 * (diff3) where the changes do not overlap. Anything else — the same field or
 * lines changed differently, a page deleted on one side and changed on the
 * other, a parent deleted under a new page, two pages with one slug in one
 * parent, a move cycle — is a conflict: a 409 naming the pages, nothing merged.
 */
export async function mergeTrees(ctx: RequestContext, spaceId: string, base: PageTree, ours: PageTree, theirs: PageTree): Promise<MergedContent> {
  const merged = new Map<string, PageDraft>();
  const markdowns: string[] = [];
  const conflicts: string[] = [];
  const title = (pageId: string) => `"${(ours.pages.get(pageId) ?? theirs.pages.get(pageId) ?? base.pages.get(pageId))!.title}" (${pageId})`;

  const pageIds = new Set([...base.pages.keys(), ...ours.pages.keys(), ...theirs.pages.keys()]);
  for (const pageId of pageIds) {
    const o = base.pages.get(pageId);
    const a = ours.pages.get(pageId);
    const b = theirs.pages.get(pageId);
    if (same(a, b)) {
      if (a) merged.set(pageId, a);
    } else if (same(o, a)) {
      if (b) merged.set(pageId, b);
    } else if (same(o, b)) {
      if (a) merged.set(pageId, a);
    } else if (!a || !b || !o) {
      conflicts.push(`${title(pageId)} was deleted on one side and changed on the other`);
    } else {
      // biome-ignore lint/complexity/useMathMinMax: dates, which Math.max would turn into numbers
      const page: PageDraft = { ...a, versionId: undefined, updatedAt: a.updatedAt > b.updatedAt ? a.updatedAt : b.updatedAt };
      const clashing: string[] = [];
      for (const field of MERGED_FIELDS) {
        const value = pick(o[field], a[field], b[field]);
        if (value === CONFLICT) clashing.push(field);
        else (page as Record<string, unknown>)[field] = value;
      }
      if (a.documentId !== b.documentId) {
        const documentId = pick(o.documentId, a.documentId, b.documentId);
        if (documentId !== CONFLICT) page.documentId = documentId;
        else {
          const lines = await Promise.all([o, a, b].map(async (side) => (await markdownOf(ctx, side.documentId)).split('\n')));
          const regions = diff3Merge(lines[1]!, lines[0]!, lines[2]!);
          if (regions.some((region) => region.conflict)) clashing.push('body');
          else {
            const markdown = regions.flatMap((region) => region.ok ?? []).join('\n');
            markdowns.push(markdown);
            page.documentId = markdown ? documentIdOf(spaceId, markdown) : null;
          }
        }
      }
      if (clashing.length) conflicts.push(`${title(pageId)} has ${clashing.join(', ')} changed on both sides`);
      else merged.set(pageId, sameAsSide(page, a, b));
    }
  }

  for (const page of merged.values()) {
    if (page.parentId && !merged.has(page.parentId)) conflicts.push(`${title(page.pageId)} is in a page deleted on the other side`);
    for (let parent = page.parentId, steps = 0; parent; parent = merged.get(parent)?.parentId ?? null, steps++) {
      if (parent === page.pageId || steps > merged.size) {
        conflicts.push(`${title(page.pageId)} was moved under its own pages by the two sides`);
        break;
      }
    }
  }
  const bySlug = new Map<string, string>();
  for (const page of merged.values()) {
    const key = `${page.parentId}\0${page.slug}`;
    const other = bySlug.get(key);
    if (other) conflicts.push(`${title(other)} and ${title(page.pageId)} have the same slug "${page.slug}" in one parent`);
    bySlug.set(key, page.pageId);
  }
  if (conflicts.length) throw conflict(`The content cannot be merged: ${[...new Set(conflicts)].join('; ')}`);
  return { pages: [...merged.values()], markdowns };
}

const CONFLICT = Symbol('conflict');

/** The three-way choice for one value: the side that changed it, or a conflict when both did differently. */
function pick<T>(base: T, ours: T, theirs: T): T | typeof CONFLICT {
  if (isDeepStrictEqual(ours, theirs)) return ours;
  if (isDeepStrictEqual(base, ours)) return theirs;
  if (isDeepStrictEqual(base, theirs)) return ours;
  return CONFLICT;
}

function same(a: PageState | undefined, b: PageState | undefined): boolean {
  if (!a || !b) return a === b;
  return a.versionId === b.versionId && a.parentId === b.parentId && a.position === b.position;
}

/** A merged page equal to one side's version keeps that version rather than writing a copy. */
function sameAsSide(page: PageDraft, ...sides: PageState[]): PageDraft {
  for (const side of sides) {
    if (VERSION_FIELDS.every((field) => isDeepStrictEqual(page[field], side[field]))) return { ...page, versionId: side.versionId };
  }
  return page;
}
