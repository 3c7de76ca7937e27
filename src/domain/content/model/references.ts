import { type Block, type Inline, type JSONDocument, type Ref, type Text, paragraph, text } from './nodes.ts';

/**
 * Where a document's links, images and content references point. Markdown as
 * docs-gateway stores it names a page or file of its revision by id
 * (`/pages/<id>`, `/files/<id>`, written so by document input and imports);
 * Markdown from a Git repository names them by relative path
 * (`../guides/install.md`, `.gitbook/assets/diagram.png`). Parsing keeps a
 * relative path as a URL reference; `resolveReferences` turns the ones that
 * name a page or file of the revision into page and file references, when the
 * document is read from a revision.
 */

const PAGE_HREF = /^\/pages\/([\w-]+)(?:#(.*))?$/;
const FILE_HREF = /^\/files\/([\w-]+)(?:[?#].*)?$/;
const ABSOLUTE = /^(?:[a-z][a-z\d+.-]*:|\/\/)/i;

/** The reference an href written in Markdown makes. */
export function refOfHref(href: string): Ref {
  const page = PAGE_HREF.exec(href);
  if (page) return page[2] ? { kind: 'anchor', anchor: decodeSafely(page[2]), page: page[1]! } : { kind: 'page', page: page[1]! };
  const file = FILE_HREF.exec(href);
  if (file) return { kind: 'file', file: file[1]! };
  if (href.startsWith('#') && href.length > 1) return { kind: 'anchor', anchor: decodeSafely(href.slice(1)) };
  return { kind: 'url', url: href };
}

/** How a reference is written in Markdown: by id for pages and files (the inverse of refOfHref). */
export function hrefOfRef(ref: Ref): string {
  switch (ref.kind) {
    case 'page':
      return `/pages/${ref.page}`;
    case 'file':
      return `/files/${ref.file}`;
    case 'anchor':
      return `${typeof ref.page === 'string' ? `/pages/${ref.page}` : ''}#${String(ref.anchor)}`;
    case 'url':
      return String(ref.url);
    case 'openapi':
      return String(ref.spec);
    default:
      return typeof (ref as { url?: unknown }).url === 'string' ? String((ref as { url: string }).url) : '';
  }
}

function decodeSafely(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** What a relative path is resolved against: the revision's pages by path and files by name, and where the page is. */
export interface RevisionLocator {
  /** The path of the page holding the document (`guides/install`), "" at the top. */
  pagePath: string;
  /** Whether that page has pages under it: in a repository it is then `<path>/README.md`, its folder `<path>/`. */
  pageHasChildren: boolean;
  pageByPath(path: string): string | undefined;
  fileByName(name: string): string | undefined;
}

/** The page or file reference a relative path names in a revision, or null when it names neither. */
export function resolveRelative(url: string, locator: RevisionLocator): Ref | null {
  if (ABSOLUTE.test(url) || url.startsWith('#') || url.startsWith('/')) return null;
  const [pathPart = '', anchor] = url.split('#', 2);
  const folder = locator.pageHasChildren ? locator.pagePath : locator.pagePath.split('/').slice(0, -1).join('/');
  const segments = folder ? folder.split('/') : [];
  for (const segment of decodeSafely(pathPart).split('/')) {
    if (segment === '..') segments.pop();
    else if (segment !== '.' && segment !== '') segments.push(segment);
  }
  const joined = segments.join('/');
  if (segments.includes('.gitbook') || segments.at(-2) === 'assets') {
    const file = locator.fileByName(segments.at(-1) ?? '');
    if (file) return { kind: 'file', file };
  }
  const pagePath = joined.replace(/(?:^|\/)README\.md$/i, '').replace(/\.md$/i, '');
  const page = locator.pageByPath(pagePath);
  if (page) return anchor ? { kind: 'anchor', anchor, page } : { kind: 'page', page };
  if (!joined.includes('/')) {
    const file = locator.fileByName(joined);
    if (file) return { kind: 'file', file };
  }
  return null;
}

/**
 * The document with each relative URL reference that names a page or file of the revision turned
 * into a page, anchor or file reference (a new document; the one given is not changed).
 */
export function resolveReferences(document: JSONDocument, locator: RevisionLocator): JSONDocument {
  const resolveRef = (ref: unknown): unknown => {
    if (!ref || typeof ref !== 'object' || (ref as Ref).kind !== 'url') return ref;
    return resolveRelative(String((ref as { url: string }).url), locator) ?? ref;
  };
  const resolveFileId = (value: string): string => {
    const ref = value.startsWith('/files/') ? refOfHref(value) : resolveRelative(value, locator);
    return ref?.kind === 'file' ? String(ref.file) : value;
  };
  const visit = <T extends Block | Inline | Text>(node: T): T => {
    if (node.object === 'text') return node;
    let data = node.data;
    if (data && ('ref' in data || 'refDark' in data)) {
      data = { ...data, ...('ref' in data ? { ref: resolveRef(data.ref) } : {}), ...('refDark' in data ? { refDark: resolveRef(data.refDark) } : {}) };
    }
    if (node.type === 'table' && data) data = resolveTableValues(data, resolveRef, resolveFileId);
    return {
      ...node,
      ...(data ? { data } : {}),
      ...(node.nodes ? { nodes: node.nodes.map((child) => visit(child as Block)) } : {}),
      ...(node.fragments ? { fragments: node.fragments.map((each) => ({ ...each, nodes: each.nodes.map(visit) })) } : {}),
    };
  };
  return { ...document, nodes: document.nodes.map(visit) };
}

function resolveTableValues(data: Record<string, unknown>, resolveRef: (ref: unknown) => unknown, resolveFileId: (value: string) => string) {
  const definition = (data.definition ?? {}) as Record<string, { type?: string }>;
  const records = (data.records ?? {}) as Record<string, { orderIndex: string; values: Record<string, unknown> }>;
  const resolved: typeof records = {};
  for (const [id, record] of Object.entries(records)) {
    const values: Record<string, unknown> = {};
    for (const [column, value] of Object.entries(record.values)) {
      const type = definition[column]?.type;
      if (type === 'content-ref' || type === 'image') values[column] = resolveRef(value);
      else if (type === 'files' && Array.isArray(value)) values[column] = value.map((each) => (typeof each === 'string' ? resolveFileId(each) : each));
      else values[column] = value;
    }
    resolved[id] = { ...record, values };
  }
  return { ...data, records: resolved };
}

/** Whether a document holds references by relative path, which only a revision resolves. */
export function hasRelativeReferences(document: JSONDocument): boolean {
  let found = false;
  const isRelative = (ref: unknown) => !!ref && typeof ref === 'object' && (ref as Ref).kind === 'url' && resolvable(String((ref as { url: unknown }).url));
  const walk = (node: Block | Inline | Text) => {
    if (found || node.object === 'text') return;
    const data = node.data ?? {};
    if (isRelative(data.ref) || isRelative(data.refDark)) found = true;
    if (node.type === 'table') {
      for (const record of Object.values((data.records ?? {}) as Record<string, { values: Record<string, unknown> }>)) {
        for (const value of Object.values(record.values)) {
          if (isRelative(value) || (Array.isArray(value) && value.some((each) => typeof each === 'string' && /[/.]/.test(each)))) found = true;
        }
      }
    }
    for (const child of node.nodes ?? []) walk(child);
    for (const each of node.fragments ?? []) for (const child of each.nodes) walk(child);
  };
  for (const node of document.nodes) walk(node);
  return found;
}

const resolvable = (url: string) => url !== '' && !ABSOLUTE.test(url) && !url.startsWith('#') && !url.startsWith('/');

/**
 * The document as it may be served: a file block whose reference names no file of the revision (a
 * path to nothing) becomes a paragraph linking to it, as the official file block holds files only.
 */
export function servable(document: JSONDocument): JSONDocument {
  const fix = (node: Block): Block => {
    if (node.type === 'file' && (node.data?.ref as Ref | undefined)?.kind !== 'file') {
      const ref = node.data?.ref ?? { kind: 'url', url: '' };
      const label = String((ref as { url?: unknown }).url ?? '');
      return paragraph([{ object: 'inline', type: 'link', isVoid: false, data: { ref }, nodes: [text(label)] }]);
    }
    if (!node.nodes && !node.fragments) return node;
    return {
      ...node,
      ...(node.nodes ? { nodes: node.nodes.map((child) => (child.object === 'block' ? fix(child) : child)) } : {}),
      ...(node.fragments ? { fragments: node.fragments.map((each) => ({ ...each, nodes: each.nodes.map(fix) })) } : {}),
    };
  };
  return { ...document, nodes: document.nodes.map((node) => ({ ...fix(node), ...(node.key ? { key: node.key } : {}) })) };
}
