import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { imageSize } from 'image-size';
import slugify from 'slugify';
import type { RequestContext } from '../../context.ts';
import { invalid } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { keyBetween } from '../../lib/ordering.ts';
import { documentIdOf } from './documents.ts';
import { type ContentChange, MAX_BODY_CHARACTERS, MAX_FILE_BYTES, type PageCover, type PageLayout, type PageVariables } from './inputs.ts';
import { markdownOfDocumentInput, parseAhead } from './bodies.ts';
import { type FrontMatterOptions, splitFrontMatter } from './front-matter.ts';
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

/** A change of a batch ready to apply: its body as markdown, without front matter, whose fields are set on the change. */
export type PreparedChange = ContentChange & { readonly prepared: true };

/**
 * Makes a batch's changes ready to apply, before any transaction: a structured
 * document turned into markdown, and front matter read out of markdown, its
 * fields set over the change's own. The work grows with what the client sent:
 * it is bounded per page (the front matter limits, the body's length) and the
 * event loop gets a turn between pages. `repository` reads front matter as
 * content from a repository does (unknown keys left out, reported in `warnings`).
 */
export async function prepareChanges(changes: ContentChange[], options: FrontMatterOptions = {}): Promise<{ changes: PreparedChange[]; warnings: string[] }> {
  const prepared: PreparedChange[] = [];
  const warnings: string[] = [];
  for (const [index, change] of changes.entries()) {
    const hasBody = (change.operation === 'insert_page' || change.operation === 'update_page') && change.document !== undefined;
    if (hasBody && index > 0) await nextTurn();
    const { change: ready, warnings: found } = await withMarkdownBody(change, `changes.${index}`, options);
    prepared.push({ ...ready, prepared: true });
    warnings.push(...found);
  }
  // Large bodies are read into their structure now, outside the transaction that stores them.
  await parseAhead(
    prepared.flatMap((change) => ('document' in change && change.document && 'markdown' in change.document ? [String(change.document.markdown)] : [])),
  );
  return { changes: prepared, warnings };
}

/** The files of the revision a batch is applied to, for covers given by a file's path or id. */
export type RevisionFileNames = () => Promise<Array<{ fileId: string; name: string }>>;

/**
 * Applies a batch of content changes (made ready by prepareChanges), in order,
 * to a tree in memory. The first change that cannot apply rejects the whole
 * batch with a 400 naming it; nothing is written here.
 */
export async function applyChanges(
  ctx: RequestContext,
  spaceId: string,
  base: PageTree,
  changes: PreparedChange[],
  /** The tree of a revision of this space (the merged ancestor when undefined); `field` names the input in errors. */
  treeOfRevision: (revisionId: string | undefined, field: string) => Promise<PageTree>,
  fetchedFiles: Map<string, { bytes: Buffer; contentType: string }> = new Map(),
  baseFiles: RevisionFileNames = async () => [],
): Promise<AppliedChanges> {
  const pages = new Map<string, PageDraft>(base.pages);
  const markdowns: string[] = [];
  const outcomes = new Map<string, ChangeOutcome>();
  // Bodies set by this batch: stored at the end, once every ref of the batch is known.
  const bodies = new Map<string, string>();
  // Covers set by this batch: resolved at the end, against the files and places of the pages then.
  const covers = new Map<string, { cover: PageCover; field: string }>();
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

  for (const [index, change] of changes.entries()) {
    const at = `changes.${index}`;
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
          layout: storedLayout(change.layout),
          cover: null,
          variables: storedVariables(change.variables),
          target: null,
          createdAt: now,
          updatedAt: now,
        });
        if (change.cover) covers.set(pageId, { cover: change.cover, field: `${at}.cover` });
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
        if (change.layout !== undefined) next.layout = storedLayout(change.layout);
        if (change.variables !== undefined) next.variables = storedVariables(change.variables);
        if (change.cover !== undefined) {
          covers.delete(page.pageId);
          next.cover = null;
          if (change.cover) covers.set(page.pageId, { cover: change.cover, field: `${at}.cover` });
        }
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
        covers.delete(before.pageId);
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
  if (covers.size) {
    const lookup = fileLookup(await baseFiles(), files, refs);
    for (const [pageId, { cover, field }] of covers) {
      const page = pages.get(pageId);
      if (page) pages.set(pageId, { ...page, versionId: undefined, cover: resolveCover(cover, folderOf(tree, pageId), lookup, field) });
    }
  }
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
 * Links to pages of the change request, written as authors write them in Git -
 * `/pages/<slug path>`, `/pages/<path>.md`, `/pages/<path>/README.md`, or
 * relative to the page (`./sibling.md`, `../README.md`, `./section`) - become
 * `/pages/<page id>`. Links to page ids, files, anchors and URLs stay; a page
 * link that matches no page is left as its text.
 */
function resolveLinks(markdown: string, pageId: string, tree: PageTree): string {
  const byPath = new Map([...tree.paths].map(([id, path]) => [path, id]));
  const folder = folderOf(tree, pageId);
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

/** The folder a page's file is in, in a Git repository's layout: its own for a page with pages (README.md), else its parent's. */
function folderOf(tree: PageTree, pageId: string): string {
  const page = tree.pages.get(pageId)!;
  if (tree.children.get(pageId)?.length) return tree.paths.get(pageId)!;
  return page.parentId ? tree.paths.get(page.parentId)! : '';
}

/** A layout as stored: the options given (`{}`: all at their defaults, null). */
function storedLayout(layout: PageLayout | undefined): Record<string, unknown> | null {
  return layout && Object.keys(layout).length ? layout : null;
}

/** Variables as stored (`{}`: none, null). */
function storedVariables(variables: PageVariables | undefined): Record<string, unknown> | null {
  return variables && Object.keys(variables).length ? variables : null;
}

interface FileLookup {
  has(fileId: string): boolean;
  /** The file of this name, a file of the batch first (the newest). */
  named(name: string): string | undefined;
  /** The file a ref of the batch names. */
  ref(ref: string): string | undefined;
}

function fileLookup(base: Array<{ fileId: string; name: string }>, uploaded: UploadedFile[], refs: Map<string, string>): FileLookup {
  const ids = new Set([...base.map((file) => file.fileId), ...uploaded.map((file) => file.fileId)]);
  const byName = new Map<string, string>();
  for (const file of [...uploaded, ...[...base].sort((a, b) => (a.fileId < b.fileId ? -1 : 1))]) if (!byName.has(file.name)) byName.set(file.name, file.fileId);
  return {
    has: (fileId) => ids.has(fileId),
    named: (name) => byName.get(name),
    ref: (ref) => /^\/files\/(.+)$/.exec(refs.get(ref) ?? '')?.[1],
  };
}

/**
 * A cover as stored: `yPos` set, a file given by id checked, and an image given
 * by path made a file when the content has it - `/files/<file id>`, a file of
 * the batch (`./<ref>`), or a path to `.gitbook/assets/<name>` (relative to the
 * page's file, or from the top with a leading "/"), where a Git repository in
 * GitBook's layout keeps its files. Any other address stays an address.
 */
function resolveCover(cover: PageCover, folder: string, files: FileLookup, field: string): Record<string, unknown> {
  const resolve = (ref: NonNullable<PageCover['ref']>, at: string) => {
    if (ref.kind === 'file') {
      if (!files.has(ref.file)) throw invalid(`${at}.file: no file "${ref.file}" in the change request`);
      return ref;
    }
    const address = ref.url;
    if (/^https?:\/\//i.test(address)) return ref;
    const path = decodeURIComponentSafe(address.replace(/[?#].*$/, ''));
    const byId = /^\/files\/([^/]+)(?:\/[^/]*)?$/.exec(path)?.[1];
    const byRef = /^\.\/([^/]+)$/.exec(path)?.[1];
    const asset = /^\.gitbook\/assets\/(.+)$/.exec(joinPath(path.startsWith('/') ? '' : folder, path))?.[1];
    const fileId =
      (byId !== undefined && files.has(byId) ? byId : undefined) ??
      (byRef !== undefined ? files.ref(byRef) : undefined) ??
      (asset !== undefined ? files.named(asset) : undefined);
    return fileId ? { kind: 'file', file: fileId } : ref;
  };
  return {
    ...(cover.ref ? { ref: resolve(cover.ref, `${field}.ref`) } : {}),
    ...(cover.refDark ? { refDark: resolve(cover.refDark, `${field}.refDark`) } : {}),
    yPos: cover.yPos ?? 0,
    ...(cover.height !== undefined ? { height: cover.height } : {}),
  };
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
async function withMarkdownBody(change: ContentChange, at: string, options: FrontMatterOptions): Promise<{ change: ContentChange; warnings: string[] }> {
  if (change.operation !== 'insert_page' && change.operation !== 'update_page') return { change, warnings: [] };
  if (!change.document) return { change, warnings: [] };
  if ('document' in change.document) {
    const markdown = await markdownOfDocumentInput(change.document.document, `${at}.document.document`);
    if (markdown.length > MAX_BODY_CHARACTERS) {
      throw invalid(`${at}.document.document: its markdown would be ${markdown.length} characters, more than the ${MAX_BODY_CHARACTERS} a page body holds`);
    }
    return { change: { ...change, document: { markdown } }, warnings: [] };
  }
  if (!('markdown' in change.document)) return { change, warnings: [] };
  const { fields, body, warnings } = splitFrontMatter(change.document.markdown, `${at}.document.markdown`, options);
  return { change: { ...change, ...fields, document: { markdown: body } }, warnings };
}

/** The markdown of a body once withMarkdownBody has read it ("" for an empty page). */
function bodyOf(document: { markdown?: string } | Record<string, unknown>): string {
  return typeof document.markdown === 'string' ? document.markdown : '';
}
