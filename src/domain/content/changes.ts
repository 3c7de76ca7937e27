import { createHash } from 'node:crypto';
import { imageSize } from 'image-size';
import slugify from 'slugify';
import type { RequestContext } from '../../context.ts';
import { invalid } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { keyBetween } from '../../lib/ordering.ts';
import { documentIdOf } from './documents.ts';
import { type ContentChange, MAX_BODY_CHARACTERS, MAX_FILE_BYTES } from './inputs.ts';
import { markdownFromDocument } from './document-input.ts';
import { splitFrontMatter } from './front-matter.ts';
import type { PageDraft } from './revisions.ts';
import { type PageState, type PageTree, treeOf } from './tree.ts';

export type ChangeOutcome =
  | { object: 'created_page'; pageId: string; ref?: string }
  | { object: 'updated_page'; pageId: string }
  | { object: 'deleted_page'; pageId: string };

/** A file an `insert_files` change uploads. */
export interface UploadedFile {
  fileId: string;
  versionId: string;
  name: string;
  contentType: string;
  bytes: Buffer;
  sha256: string;
  width: number | null;
  height: number | null;
}

export interface AppliedChanges {
  pages: Map<string, PageDraft>;
  /** Page bodies the new revision refers to. */
  markdowns: string[];
  /** One per page touched, in the order the batch first touched them. */
  outcomes: ChangeOutcome[];
  files: UploadedFile[];
}

/**
 * Applies a batch of content changes, in order, to a tree in memory. The first
 * change that cannot apply rejects the whole batch with a 400 naming it;
 * nothing is written here.
 */
export async function applyChanges(
  ctx: RequestContext,
  spaceId: string,
  base: PageTree,
  changes: ContentChange[],
  /** The tree of a revision of this space (the merged ancestor when undefined); `field` names the input in errors. */
  treeOfRevision: (revisionId: string | undefined, field: string) => Promise<PageTree>,
  fetchedFiles: Map<string, { bytes: Buffer; contentType: string }> = new Map(),
): Promise<AppliedChanges> {
  const pages = new Map<string, PageDraft>(base.pages);
  const markdowns: string[] = [];
  const outcomes = new Map<string, ChangeOutcome>();
  // Bodies set by this batch: stored at the end, once every ref of the batch is known.
  const bodies = new Map<string, string>();
  const refs = new Map<string, string>();
  const files: UploadedFile[] = [];
  const claimRef = (ref: string | undefined, target: string, field: string) => {
    if (ref === undefined) return;
    if (refs.has(ref)) throw invalid(`${field}: the ref "${ref}" is used twice in the batch`);
    refs.set(ref, target);
  };
  const now = ctx.clock.now();
  const touch = (outcome: ChangeOutcome) => {
    const previous = outcomes.get(outcome.pageId);
    if (previous?.object === 'created_page' && outcome.object === 'updated_page') return;
    // Created and deleted in one batch (inside a page the batch deletes): it never existed outside it.
    if (previous?.object === 'created_page' && outcome.object === 'deleted_page') {
      outcomes.delete(outcome.pageId);
      return;
    }
    outcomes.set(outcome.pageId, outcome);
  };

  for (const [index, written] of changes.entries()) {
    const at = `changes.${index}`;
    const change = withMarkdownBody(written, at);
    const existing = (pageId: string, field = 'page') => {
      const page = pages.get(pageId);
      if (!page) throw invalid(`${at}.${field}: page "${pageId}" does not exist in the change request`);
      return page;
    };
    const container = (pageId: string | null | undefined) => {
      if (pageId == null) return null;
      const parent = existing(pageId, 'into');
      if (parent.type === 'link') throw invalid(`${at}.into: page "${pageId}" is a link and cannot hold pages`);
      return parent.pageId;
    };

    switch (change.operation) {
      case 'insert_page': {
        const parentId = container(change.into);
        const markdown = bodyOf(change.document);
        const title = change.title ?? leadingHeading(markdown) ?? 'Untitled';
        const pageId = newId('page');
        const slug = change.slug ?? freeSlug(pages, parentId, slugOf(title), null);
        assertFreeSlug(pages, parentId, slug, pageId, `${at}.slug`);
        claimRef(change.ref, `/pages/${pageId}`, `${at}.ref`);
        bodies.set(pageId, markdown);
        pages.set(pageId, {
          pageId,
          parentId,
          position: positionAt(pages, parentId, change.at, pageId),
          type: 'document',
          title,
          slug,
          emoji: change.emoji || null,
          icon: change.icon || null,
          description: change.description ?? null,
          documentId: null,
          hidden: change.hidden ?? false,
          noIndex: change.noIndex ?? false,
          noRobotsIndex: change.noRobotsIndex ?? false,
          condition: change.condition || null,
          layout: null,
          cover: null,
          target: null,
          createdAt: now,
          updatedAt: now,
        });
        touch({ object: 'created_page', pageId, ...(change.ref ? { ref: change.ref } : {}) });
        break;
      }
      case 'update_page': {
        const page = existing(change.page);
        const next: PageDraft = { ...page, versionId: undefined };
        if (change.title !== undefined) next.title = change.title;
        if (change.emoji !== undefined) next.emoji = change.emoji || null;
        if (change.icon !== undefined) next.icon = change.icon || null;
        if (change.description !== undefined) next.description = change.description || null;
        if (change.hidden !== undefined) next.hidden = change.hidden;
        if (change.noIndex !== undefined) next.noIndex = change.noIndex;
        if (change.noRobotsIndex !== undefined) next.noRobotsIndex = change.noRobotsIndex;
        if (change.condition !== undefined) next.condition = change.condition || null;
        if (change.document !== undefined) {
          bodies.set(page.pageId, bodyOf(change.document));
        }
        if (change.into !== undefined) {
          const parentId = container(change.into);
          if (parentId === page.pageId || (parentId && isUnder(pages, parentId, page.pageId))) {
            throw invalid(`${at}.into: a page cannot move under itself or one of its own pages`);
          }
          next.parentId = parentId;
        }
        if (change.into !== undefined || change.at !== undefined) {
          pages.delete(page.pageId);
          next.position = change.at === undefined && next.parentId === page.parentId ? page.position : positionAt(pages, next.parentId, change.at, page.pageId);
        }
        if (change.slug !== undefined) next.slug = change.slug;
        assertFreeSlug(pages, next.parentId, next.slug, page.pageId, change.slug !== undefined ? `${at}.slug` : `${at}.into`);
        pages.set(page.pageId, next);
        touch({ object: 'updated_page', pageId: page.pageId });
        break;
      }
      case 'delete_page': {
        const page = existing(change.page);
        for (const removed of [page.pageId, ...subtreeOf(pages, page.pageId)]) {
          pages.delete(removed);
          touch({ object: 'deleted_page', pageId: removed });
        }
        break;
      }
      case 'revert_page': {
        const source = await treeOfRevision(change.revision, `${at}.revision`);
        const before = source.pages.get(change.page);
        if (!before) {
          existing(change.page);
          for (const removed of [change.page, ...subtreeOf(pages, change.page)]) {
            pages.delete(removed);
            touch({ object: 'deleted_page', pageId: removed });
          }
          break;
        }
        // Back where it was, unless that parent is gone: then at the top.
        const parentId = before.parentId && pages.has(before.parentId) ? before.parentId : null;
        pages.delete(before.pageId);
        const position = parentId === before.parentId ? before.position : positionAt(pages, parentId, undefined, before.pageId);
        assertFreeSlug(pages, parentId, before.slug, before.pageId, `${at}.page`);
        pages.set(before.pageId, { ...before, parentId, position });
        bodies.delete(before.pageId);
        touch({ object: 'updated_page', pageId: before.pageId });
        break;
      }
      case 'insert_files': {
        for (const [index, file] of change.files.entries()) {
          const fetched = file.url !== undefined ? fetchedFiles.get(file.url) : undefined;
          if (file.url !== undefined && !fetched) throw new Error(`file ${file.url} was not fetched before the batch`);
          const bytes = fetched?.bytes ?? Buffer.from(file.base64!, 'base64');
          const contentType = file.contentType ?? fetched!.contentType;
          if (bytes.length > MAX_FILE_BYTES) throw invalid(`${at}.files.${index}.base64: the file is larger than 1 MB`);
          const fileId = newId('file');
          claimRef(file.ref, `/files/${fileId}`, `${at}.files.${index}.ref`);
          files.push({
            fileId,
            versionId: newId('fileVersion'),
            name: file.name,
            contentType,
            bytes,
            sha256: createHash('sha256').update(bytes).digest('hex'),
            ...dimensionsOf(bytes, contentType),
          });
        }
        break;
      }
    }
  }
  const tree = treeOf('', pages.values() as Iterable<PageState>);
  for (const [pageId, markdown] of bodies) {
    const page = pages.get(pageId);
    if (!page) continue;
    const resolved = resolveLinks(resolveRefs(markdown, refs), pageId, tree);
    if (resolved) markdowns.push(resolved);
    pages.set(pageId, { ...page, versionId: undefined, documentId: resolved ? documentIdOf(spaceId, resolved) : null });
  }
  return { pages, markdowns, outcomes: [...outcomes.values()], files };
}

function siblingsOf(pages: Map<string, PageDraft>, parentId: string | null): PageDraft[] {
  return [...pages.values()]
    .filter((page) => page.parentId === parentId)
    .sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : a.pageId < b.pageId ? -1 : 1));
}

/** An ordering key placing a page at `at` among the siblings (the end when absent or past it). */
function positionAt(pages: Map<string, PageDraft>, parentId: string | null, at: number | undefined, self: string): string {
  const siblings = siblingsOf(pages, parentId).filter((page) => page.pageId !== self);
  const index = at === undefined ? siblings.length : Math.min(at, siblings.length);
  return keyBetween(siblings[index - 1]?.position ?? null, siblings[index]?.position ?? null);
}

function isUnder(pages: Map<string, PageDraft>, pageId: string, ancestorId: string): boolean {
  for (let current = pages.get(pageId); current?.parentId; current = pages.get(current.parentId)) {
    if (current.parentId === ancestorId) return true;
  }
  return false;
}

function subtreeOf(pages: Map<string, PageDraft>, pageId: string): string[] {
  return [...pages.values()].filter((page) => isUnder(pages, page.pageId, pageId)).map((page) => page.pageId);
}

function assertFreeSlug(pages: Map<string, PageDraft>, parentId: string | null, slug: string, self: string, field: string) {
  const taken = [...pages.values()].find((page) => page.parentId === parentId && page.slug === slug && page.pageId !== self);
  if (taken) throw invalid(`${field}: the slug "${slug}" is already used by page "${taken.pageId}" in the same parent`);
}

/** The slug itself, or with the first free numeric suffix among the siblings. */
function freeSlug(pages: Map<string, PageDraft>, parentId: string | null, slug: string, self: string | null): string {
  const taken = new Set([...pages.values()].filter((page) => page.parentId === parentId && page.pageId !== self).map((page) => page.slug));
  if (!taken.has(slug)) return slug;
  for (let n = 2; ; n++) if (!taken.has(`${slug}-${n}`)) return `${slug}-${n}`;
}

export function slugOf(title: string): string {
  return slugify(title, { lower: true, strict: true }).slice(0, 90).replace(/-+$/, '') || 'page';
}

/** The text of a markdown document's leading `# heading`, if it starts with one. */
export function leadingHeading(markdown: string): string | undefined {
  const match = /^\s*#\s+(.+?)\s*#*\s*$/m.exec(markdown.split('\n').find((line) => line.trim()) ?? '');
  return match?.[1]?.slice(0, 255);
}

/** Links to a ref of the batch (`./<ref>`, `./<ref>.md`, with an anchor) point at what it names. */
function resolveRefs(markdown: string, refs: Map<string, string>): string {
  if (!refs.size) return markdown;
  return markdown.replace(/\]\(\.\/([^)\s#]+?)(\.md)?(#[^)\s]*)?\)/g, (link, ref: string, _md, anchor: string | undefined) => {
    const target = refs.get(ref);
    return target ? `](${target}${anchor ?? ''})` : link;
  });
}

/** Width and height of an image file; null for anything else or bytes that are not the image they claim. */
export function dimensionsOf(bytes: Buffer, contentType: string): { width: number | null; height: number | null } {
  if (!contentType.startsWith('image/')) return { width: null, height: null };
  try {
    const { width, height } = imageSize(bytes);
    return { width: width ?? null, height: height ?? null };
  } catch {
    return { width: null, height: null };
  }
}

/**
 * Links to pages of the change request, written as authors write them in Git —
 * `/pages/<slug path>`, `/pages/<path>.md`, `/pages/<path>/README.md`, or
 * relative to the page (`./sibling.md`, `../README.md`, `./section`) — become
 * `/pages/<page id>`. Links to page ids, files, anchors and URLs stay; a page
 * link that matches no page is left as its text.
 */
function resolveLinks(markdown: string, pageId: string, tree: PageTree): string {
  const byPath = new Map([...tree.paths].map(([id, path]) => [path, id]));
  const hasChildren = (id: string) => Boolean(tree.children.get(id)?.length);
  const page = tree.pages.get(pageId)!;
  // The folder the page's file is in: its own for a page with pages (README.md), else its parent's.
  const folder = hasChildren(pageId) ? tree.paths.get(pageId)! : page.parentId ? tree.paths.get(page.parentId)! : '';
  const lookup = (path: string): string | undefined => {
    const clean = path
      .replace(/\/+$/, '')
      .replace(/(^|\/)README\.md$/i, '')
      .replace(/\.md$/i, '');
    if (clean === '') return tree.children.get(null)?.[0]?.pageId;
    return byPath.get(clean);
  };
  return markdown.replace(/(!?)\[([^\]]*)\]\(([^)\s]+)((?:\s+"[^"]*")?)\)/g, (link, bang: string, text: string, target: string, title: string) => {
    if (bang || /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#') || target.startsWith('/files/')) return link;
    const [path, anchor] = [target.replace(/#.*$/, ''), /#.*$/.exec(target)?.[0] ?? ''];
    let found: string | undefined;
    if (path.startsWith('/pages/')) {
      const rest = decodeURIComponentSafe(path.slice('/pages/'.length));
      if (tree.pages.has(rest)) return link;
      found = lookup(rest);
    } else if (path.startsWith('./') || path.startsWith('../')) {
      found = lookup(joinPath(folder, decodeURIComponentSafe(path)));
    } else {
      return link;
    }
    return found ? `[${text}](/pages/${found}${anchor}${title})` : text;
  });
}

function joinPath(folder: string, relative: string): string {
  const parts = folder ? folder.split('/') : [];
  for (const part of relative.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/');
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * A change with its body as markdown: a structured document turned into markdown,
 * and front matter read out of markdown, its fields set over the change's own.
 */
function withMarkdownBody(change: ContentChange, at: string): ContentChange {
  if (change.operation !== 'insert_page' && change.operation !== 'update_page') return change;
  if (!change.document) return change;
  if ('document' in change.document) {
    const markdown = markdownFromDocument(change.document.document, `${at}.document.document`);
    if (markdown.length > MAX_BODY_CHARACTERS) {
      throw invalid(`${at}.document.document: its markdown would be ${markdown.length} characters, more than the ${MAX_BODY_CHARACTERS} a page body holds`);
    }
    return { ...change, document: { markdown } };
  }
  if (!('markdown' in change.document)) return change;
  const { fields, body } = splitFrontMatter(change.document.markdown, `${at}.document.markdown`);
  return { ...change, ...fields, document: { markdown: body } };
}

/** The markdown of a body once withMarkdownBody has read it ("" for an empty page). */
function bodyOf(document: { markdown?: string } | Record<string, unknown>): string {
  return typeof document.markdown === 'string' ? document.markdown : '';
}
