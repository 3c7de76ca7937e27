import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { load } from 'js-yaml';
import { invalid } from '../../errors.ts';
import { slugOf } from '../content/changes.ts';
import { type FrontMatter, splitFrontMatter, withFrontMatter } from '../content/front-matter.ts';
import type { PageCover } from '../content/inputs.ts';
import { documentFromMarkdown } from '../content/model/from-markdown.ts';
import { INLINE_BODY_CHARACTERS } from '../content/model/budgets.ts';
import type { Block, Inline, JSONDocument, Ref, Text } from '../content/model/nodes.ts';
import { hrefOfRef } from '../content/model/references.ts';
import { type RepositoryPaths, relativeHref, repositoryHrefOf } from '../content/model/repository-hrefs.ts';
import { InFlight } from '../../lib/in-flight.ts';
import { holdsMore } from '../../lib/json-weight.ts';
import { markdownFromDocument } from '../content/model/to-markdown.ts';
import { pushAll } from '../../lib/arrays.ts';

/**
 * GitBook's repository layout, read and written, with no I/O of its own: a
 * tree of files (`.gitbook.yaml`, `SUMMARY.md`, one Markdown file per page,
 * `.gitbook/assets/`) becomes a space's pages and files, and a space's pages
 * and files become a deterministic set of files.
 *
 * - `.gitbook.yaml` (optional) moves the content under `root` and names the
 *   first page's file (`structure.readme`) and the table of contents
 *   (`structure.summary`); its `redirects` are reported.
 * - `SUMMARY.md` is the table of contents: `* [Title](path.md)` items nest by
 *   indentation, `## Title` lines open a group, an item to an address is a
 *   link page. Without it, the tree comes from the folders (README.md first).
 * - A page file is front matter (the page's fields, read leniently: unknown
 *   keys are reported, not refused), `# Title`, then the body with headings
 *   one level down (the page's title is the file's H1).
 * - Links, images and file references between pages and files are relative
 *   paths in the repository; in the space they are page and file references
 *   (`/pages/<id>`, `/files/<id>`), so each side reads its own links.
 * - A path in SUMMARY.md that is absolute or leaves the root is refused (400);
 *   a link that does is left as written and reported. Symbolic links are
 *   ignored; Git LFS pointer files are reported and not read as content.
 *
 * Reading a repository written here gives the same pages and documents, and
 * writing a space read from a repository in this layout gives back the same
 * bytes for every file the content model can represent.
 */

/** A file of the repository (under the project directory), read only when needed. */
export interface RepoFile {
  path: string;
  kind: 'file' | 'symlink';
  /** Its size when known without reading it (checked against the limit before reading then). */
  size?: number;
  read(): Promise<Uint8Array>;
}

/** A page's fields besides its title, slug and place, as front matter carries them. */
export type PageFields = Omit<FrontMatter, 'title' | 'cover'> & { cover?: Record<string, unknown> | null };

/** A page of a space as the layout reads and writes it, with its pages under it. */
export interface LayoutPage {
  pageId: string;
  type: 'document' | 'group' | 'link';
  title: string;
  slug: string;
  fields: PageFields;
  /** What a link page points at (an official content reference). */
  target: Record<string, unknown> | null;
  /** The body as the space stores it: the dialect, references by id, no front matter. */
  markdown: string;
  children: LayoutPage[];
}

/** A file of a space: its id and name (the bytes are the caller's). */
export interface LayoutFile {
  fileId: string;
  name: string;
}

export interface LayoutLimits {
  /** Pages a repository may hold. */
  maxPages: number;
  /** Bytes of one file (a page or an asset). */
  maxFileBytes: number;
}

export interface LayoutConfig {
  /** The folder of the content, relative to the project directory ("" for the project directory itself). */
  root: string;
  /** The first page's file, relative to the root. */
  readme: string;
  /** The table of contents, relative to the root. */
  summary: string;
  redirects: Record<string, string>;
}

export interface ReadOptions {
  limits: LayoutLimits;
  /** The id of the page at a path of slugs (an existing page's, to keep it, or a new one). */
  pageId(slugPath: string): string;
  /** The id of a file of this name (an existing file's, or a new one). */
  fileId(name: string): string;
  /**
   * Takes each page's body as it is read, instead of the page keeping it (`markdown` stays ""):
   * a caller that sets bodies aside holds no repository's worth of text.
   */
  body?(page: LayoutPage, markdown: string): Promise<void>;
  /**
   * Reads and writes the Markdown of large bodies elsewhere (the server's worker pool: their cost
   * grows with what the repository holds, and must not hold the event loop). Either answers null
   * when a body is beyond its budget: the page then keeps its text as written. Without them, every
   * body is read here.
   */
  largeBodies?: {
    parse(markdown: string): Promise<JSONDocument | null>;
    render(document: JSONDocument): Promise<string | null>;
  };
}

/** A file the repository brings to the space, read when the caller stores it. */
export interface ReadFile extends LayoutFile {
  path: string;
  /** Its bytes (a 400 when they are more than a file may hold). */
  read(): Promise<Uint8Array>;
}

export interface ReadRepository {
  config: LayoutConfig;
  pages: LayoutPage[];
  files: ReadFile[];
  /** What was left out or not followed, one sentence each, naming the file. */
  warnings: string[];
}

/** One file the layout writes (relative to the project directory): a page's text (or the blob it was stored as), or a file of the space. */
export type WrittenFile = { path: string; text: string } | { path: string; oid: string } | { path: string; fileId: string };

export interface WriteOptions {
  /**
   * A page's body as its structured document when `markdown` does not hold it (the export reads
   * what was parsed when the body was stored: no parse on the event loop), or a large one as that
   * structure's JSON text, for `renderLarge` to parse: read when the page is written, one page at a time.
   */
  documentOf?(page: LayoutPage): Promise<JSONDocument | string | null>;
  /**
   * Stores a text as it is written (a Git blob) and gives its id: the answer holds ids, not texts.
   * A few stores run at once, overlapping the next pages' work.
   */
  store?(text: string): Promise<string>;
  /**
   * Writes large documents elsewhere (the server's worker pool: their cost grows with the page),
   * each given as parsed or as its structure's JSON text (as `documentOf` gave it, unparsed), with
   * the file it is written to and the paths its references point to (model/repository-hrefs.ts).
   */
  renderLarge?(body: { document: JSONDocument } | { structure: string }, file: string, paths: RepositoryPaths): Promise<string>;
}

/** Texts being stored at once (each compresses on libuv's threads, then goes to the file system). */
const STORES_IN_FLIGHT = 4;

const LFS_POINTER = /^version https:\/\/git-lfs\.github\.com\/spec\/v1\n/;
const ABSOLUTE_URL = /^(?:[a-z][a-z\d+.-]*:|\/\/)/i;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const ASSETS = '.gitbook/assets';
const DEFAULT_CONFIG: LayoutConfig = { root: '', readme: 'README.md', summary: 'SUMMARY.md', redirects: {} };

const decoder = new TextDecoder('utf-8');

/** Whether bytes are a Git LFS pointer (the content is elsewhere, in LFS storage). */
export function isLfsPointer(bytes: Uint8Array): boolean {
  return bytes.length < 1024 && LFS_POINTER.test(decoder.decode(bytes.subarray(0, 64)));
}

/** A path of the repository, relative: refused when absolute or when it leaves the folder it is relative to. */
function inside(from: string, relative: string): string | null {
  if (relative.startsWith('/')) return null;
  const joined = path.posix.normalize(path.posix.join(from || '.', relative));
  if (joined === '..' || joined.startsWith('../') || joined.startsWith('/')) return null;
  return joined === '.' ? '' : joined.replace(/\/$/, '');
}

function decodeSafely(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** `.gitbook.yaml` of the project, if any: where the content is. A file that is not a mapping is refused. */
export function readConfig(text: string | undefined): LayoutConfig {
  if (text === undefined) return DEFAULT_CONFIG;
  let data: unknown;
  try {
    data = load(text, { json: false });
  } catch (error) {
    throw invalid(`.gitbook.yaml: is not valid YAML (${(error as Error).message.split('\n')[0]})`);
  }
  if (data == null) return DEFAULT_CONFIG;
  if (typeof data !== 'object' || Array.isArray(data)) throw invalid('.gitbook.yaml: must be a mapping (root, structure, redirects)');
  const record = data as Record<string, unknown>;
  const text_ = (value: unknown, key: string, fallback: string) => {
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'string') throw invalid(`.gitbook.yaml: ${key} must be a path`);
    return value;
  };
  const rootText = text_(record.root, 'root', './');
  const root = inside('', rootText);
  if (root === null) throw invalid(`.gitbook.yaml: root "${rootText}" must be a relative path inside the repository`);
  const structure = (record.structure ?? {}) as Record<string, unknown>;
  const named = (key: 'readme' | 'summary', fallback: string) => {
    const value = text_(structure[key], `structure.${key}`, fallback);
    const resolved = inside('', value);
    if (!resolved) throw invalid(`.gitbook.yaml: structure.${key} "${value}" must be a relative path inside the root`);
    return resolved;
  };
  const redirects: Record<string, string> = {};
  if (record.redirects && typeof record.redirects === 'object') {
    for (const [from, to] of Object.entries(record.redirects as Record<string, unknown>)) if (typeof to === 'string') redirects[from] = to;
  }
  return { root, readme: named('readme', 'README.md'), summary: named('summary', 'SUMMARY.md'), redirects };
}

/** The config as `.gitbook.yaml` says it, with nothing at its default. */
function underRoot(config: LayoutConfig, relative: string): string {
  return config.root ? `${config.root}/${relative}` : relative;
}

/** Whether a path (relative to the project directory) is one the layout writes: page files and assets under the root. */
export function ownedPath(config: LayoutConfig, filePath: string): boolean {
  const prefix = config.root ? `${config.root}/` : '';
  if (!filePath.startsWith(prefix)) return false;
  const relative = filePath.slice(prefix.length);
  if (relative.startsWith(`${ASSETS}/`)) return true;
  if (relative.split('/').some((segment) => segment.startsWith('.'))) return false;
  return /\.md$/i.test(relative);
}

// ---------------------------------------------------------------------------------------------
// Reading

interface Entry {
  kind: 'page' | 'group' | 'link';
  title: string;
  /** The page's file, relative to the root (pages). */
  file?: string;
  url?: string;
  children: Entry[];
  /** SUMMARY.md line (for errors). */
  line?: number;
}

const SUMMARY_ITEM = /^(\s*)[*+-]\s+\[((?:\\.|[^\]\\])*)\]\(\s*(<[^>]*>|[^)\s]*)(?:\s+"[^"]*")?\s*\)\s*$/;

const unescapeLabel = (label: string) => label.replace(/\\([\\[\]])/g, '$1').trim();
/** A title as a SUMMARY.md label or a page's `# ` line writes it. */
const escapeTitle = (title: string) => title.replace(/([\\[\]])/g, '\\$1');

/** The table of contents of SUMMARY.md: items nested by indentation, `## ` groups. */
function parseSummary(text: string, summaryDir: string, summaryPath: string, warnings: string[]): Entry[] {
  const top: Entry[] = [];
  let container: Entry[] = top;
  const stack: Array<{ indent: number; entry: Entry }> = [];
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.replace(/\t/g, '    ');
    if (!line.trim()) continue;
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      if (heading[1]!.length >= 2) {
        const group: Entry = { kind: 'group', title: unescapeLabel(heading[2]!), children: [], line: index + 1 };
        top.push(group);
        container = group.children;
        stack.length = 0;
      }
      continue;
    }
    const item = SUMMARY_ITEM.exec(line);
    if (!item) {
      if (/^\s*[*+-]\s/.test(line)) warnings.push(`${summaryPath}:${index + 1}: an item without a link to a page is left out`);
      continue;
    }
    const indent = item[1]!.length;
    const title = unescapeLabel(item[2]!);
    const href = item[3]!.replace(/^<|>$/g, '');
    let entry: Entry;
    if (ABSOLUTE_URL.test(href)) {
      entry = { kind: 'link', title, url: href, children: [], line: index + 1 };
    } else {
      const target = decodeSafely(href.split('#')[0]!);
      const file = target ? inside(summaryDir, target) : null;
      if (file === null || !file) {
        throw invalid(`${summaryPath}:${index + 1}: the path "${href}" is absolute or leaves the repository's root, which is refused`);
      }
      entry = { kind: 'page', title, file, children: [], line: index + 1 };
    }
    while (stack.length && stack.at(-1)!.indent >= indent) stack.pop();
    const parent = stack.at(-1)?.entry;
    if (parent && parent.kind === 'link') warnings.push(`${summaryPath}:${index + 1}: a link cannot hold pages; "${title}" is placed beside it`);
    (parent && parent.kind !== 'link' ? parent.children : container).push(entry);
    stack.push({ indent, entry });
  }
  return top;
}

/** The tree from the folders, when there is no SUMMARY.md: README.md first, then files and folders by name. */
function treeOfFolders(markdownFiles: string[], readme: string, summary: string): Entry[] {
  const isReadme = (file: string) => /(^|\/)README\.md$/i.test(file);
  const build = (dir: string, depth: number): Entry[] => {
    const prefix = dir ? `${dir}/` : '';
    const names = new Set<string>();
    for (const file of markdownFiles) {
      if (!file.startsWith(prefix)) continue;
      const rest = file.slice(prefix.length);
      if (!dir && (rest === readme || rest === summary)) continue;
      names.add(rest.split('/')[0]!);
    }
    const entries: Entry[] = [];
    for (const name of [...names].sort()) {
      const full = `${prefix}${name}`;
      if (/\.md$/i.test(name)) {
        if (dir && isReadme(full)) continue;
        entries.push({ kind: 'page', title: '', file: full, children: [] });
        continue;
      }
      const children = build(full, depth + 1);
      const folderReadme = markdownFiles.find((file) => file.toLowerCase() === `${full}/readme.md`);
      if (folderReadme) entries.push({ kind: 'page', title: '', file: folderReadme, children });
      else if (depth === 0) entries.push({ kind: 'group', title: name, children });
      else pushAll(entries, children);
    }
    return entries;
  };
  const top = build('', 0);
  if (markdownFiles.includes(readme)) top.unshift({ kind: 'page', title: '', file: readme, children: [] });
  return top;
}

/** A title from a file name (`getting-started.md` → "Getting started"). */
function titleOfFile(file: string): string {
  const base = (/(^|\/)README\.md$/i.test(file) ? path.posix.dirname(file) : file).split('/').at(-1)!.replace(/\.md$/i, '');
  const words = base.replace(/[-_]+/g, ' ').trim() || 'Untitled';
  return words[0]!.toUpperCase() + words.slice(1);
}

/** The slug a page's file gives it (its name, or its folder's for a README), as slugs are written. */
function slugOfFile(file: string, readme: string, title: string): string {
  if (file === readme) return slugOf(title);
  const base = (/(^|\/)README\.md$/i.test(file) ? path.posix.dirname(file).split('/').at(-1)! : file.split('/').at(-1)!.replace(/\.md$/i, '')).slice(0, 100);
  return SLUG.test(base) ? base : slugOf(base);
}

/** The leading `# Title` of a page file and what follows it. */
function takeTitle(body: string): { title?: string; rest: string } {
  const match = /^(?:[ \t]*\r?\n)*[ \t]{0,3}#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*(?:\r?\n|$)(?:[ \t]*\r?\n)*/.exec(body);
  if (!match?.[1]) return { rest: body };
  return { title: unescapeLabel(match[1]).slice(0, 255), rest: body.slice(match[0].length) };
}

type AnyNode = Block | Inline | Text;

/** The document with each reference (links, images, files, content references, table cells) replaced by `map`'s. */
export function mapRefs(document: JSONDocument, map: (ref: Ref) => Ref): JSONDocument {
  const mapValue = (value: unknown): unknown => (value && typeof value === 'object' && typeof (value as Ref).kind === 'string' ? map(value as Ref) : value);
  const visit = <T extends AnyNode>(node: T): T => {
    if (node.object === 'text') return node;
    let data = node.data;
    if (data && ('ref' in data || 'refDark' in data)) {
      data = { ...data, ...('ref' in data ? { ref: mapValue(data.ref) } : {}), ...('refDark' in data ? { refDark: mapValue(data.refDark) } : {}) };
    }
    if (node.type === 'table' && data?.records) {
      const definition = (data.definition ?? {}) as Record<string, { type?: string }>;
      const records = data.records as Record<string, { values: Record<string, unknown> }>;
      const mapped: Record<string, unknown> = {};
      for (const [id, record] of Object.entries(records)) {
        const values: Record<string, unknown> = {};
        for (const [column, value] of Object.entries(record.values)) {
          const type = definition[column]?.type;
          values[column] = type === 'content-ref' || type === 'image' ? mapValue(value) : value;
        }
        mapped[id] = { ...record, values };
      }
      data = { ...data, records: mapped };
    }
    return {
      ...node,
      ...(data ? { data } : {}),
      ...(node.nodes ? { nodes: node.nodes.map((child) => visit(child as AnyNode)) } : {}),
      ...(node.fragments ? { fragments: node.fragments.map((each) => ({ ...each, nodes: each.nodes.map(visit) })) } : {}),
    };
  };
  return { ...document, nodes: document.nodes.map(visit) };
}

/**
 * Reads a repository's files (paths relative to the project directory) as a space's pages and
 * files. Page files are read one at a time; assets are listed, not read.
 */
export async function readRepository(files: RepoFile[], options: ReadOptions): Promise<ReadRepository> {
  const warnings: string[] = [];
  const byPath = new Map<string, RepoFile>();
  for (const file of files) {
    if (file.kind === 'symlink') {
      warnings.push(`${file.path}: a symbolic link, ignored`);
      continue;
    }
    byPath.set(file.path, file);
  }
  const configFile = byPath.get('.gitbook.yaml') ?? byPath.get('.gitbook.yml');
  const config = readConfig(configFile ? decoder.decode(await readBounded(configFile, options.limits)) : undefined);
  // Files under the root, by their path relative to it.
  const prefix = config.root ? `${config.root}/` : '';
  const rooted = new Map<string, RepoFile>();
  for (const [filePath, file] of byPath) if (filePath.startsWith(prefix)) rooted.set(filePath.slice(prefix.length), file);

  const summaryFile = rooted.get(config.summary);
  const markdownFiles = [...rooted.keys()].filter((file) => /\.md$/i.test(file) && !file.split('/').some((segment) => segment.startsWith('.'))).sort();
  let entries: Entry[];
  if (summaryFile) {
    entries = parseSummary(
      decoder.decode(await readBounded(summaryFile, options.limits)),
      path.posix.dirname(config.summary).replace(/^\.$/, ''),
      underRoot(config, config.summary),
      warnings,
    );
    if (rooted.has(config.readme) && !listsFile(entries, config.readme)) entries.unshift({ kind: 'page', title: '', file: config.readme, children: [] });
  } else {
    entries = treeOfFolders(markdownFiles, config.readme, config.summary);
  }

  // The first page's slug comes from its title, which may be in its file.
  const readmeTitle = rooted.has(config.readme) ? await titleIn(rooted.get(config.readme)!, underRoot(config, config.readme), options.limits) : undefined;

  // The pages, their files and ids, before any body is read: links between them need all of them.
  interface Placed {
    entry: Entry;
    page: LayoutPage;
    parentFile: string | null;
  }
  const placed: Placed[] = [];
  const pageOfFile = new Map<string, LayoutPage>();
  let count = 0;
  const place = (list: Entry[], parentPath: string, siblings: Set<string>): LayoutPage[] => {
    const pages: LayoutPage[] = [];
    for (const entry of list) {
      if (entry.kind === 'page') {
        if (pageOfFile.has(entry.file!)) {
          warnings.push(`${underRoot(config, config.summary)}:${entry.line}: "${entry.file}" is listed twice; its second place is left out`);
          continue;
        }
        if (!rooted.has(entry.file!)) {
          const folderReadme = rooted.has(`${entry.file}/README.md`) ? `${entry.file}/README.md` : undefined;
          if (!folderReadme) {
            warnings.push(`${underRoot(config, config.summary)}:${entry.line}: "${entry.file}" is not in the repository; the page is left out`);
            pushAll(pages, place(entry.children, parentPath, siblings));
            continue;
          }
          entry.file = folderReadme;
        }
      }
      if (++count > options.limits.maxPages) {
        throw invalid(`url: the repository holds more than ${options.limits.maxPages} pages, the most a space imports from Git (GIT_MAX_PAGES)`);
      }
      const title = entry.title;
      let slug =
        entry.kind === 'page'
          ? slugOfFile(
              entry.file!,
              config.readme,
              (entry.file === config.readme ? readmeTitle?.front || title || readmeTitle?.heading : title) || titleOfFile(entry.file!),
            )
          : entry.kind === 'group'
            ? groupSlug(entry)
            : slugOf(title || 'link');
      const base = slug;
      for (let n = 2; siblings.has(slug); n++) slug = `${base}-${n}`;
      siblings.add(slug);
      const slugPath = parentPath ? `${parentPath}/${slug}` : slug;
      const page: LayoutPage = {
        pageId: options.pageId(slugPath),
        type: entry.kind === 'page' ? 'document' : entry.kind,
        title,
        slug,
        fields: {},
        target: entry.kind === 'link' ? { kind: 'url', url: entry.url! } : null,
        markdown: '',
        children: [],
      };
      if (entry.kind === 'page') pageOfFile.set(entry.file!, page);
      placed.push({ entry, page, parentFile: null });
      page.children = place(entry.children, slugPath, new Set());
      pages.push(page);
    }
    return pages;
  };
  const pages = place(entries, '', new Set());
  for (const file of markdownFiles) {
    if (!pageOfFile.has(file) && file !== config.summary && summaryFile) warnings.push(`${underRoot(config, file)}: not in ${config.summary}, left out`);
  }

  // Files: every asset, and any other file a page links to.
  const fileOfPath = new Map<string, ReadFile>();
  const fileNames = new Set<string>();
  const addFile = (relative: string): ReadFile | undefined => {
    const existing = fileOfPath.get(relative);
    if (existing) return existing;
    const source = rooted.get(relative);
    if (!source) return undefined;
    const where = underRoot(config, relative);
    if (source.size !== undefined && source.size > options.limits.maxFileBytes) throw tooLarge(where, source.size, options.limits);
    let name = relative.split('/').at(-1)!;
    const dot = name.lastIndexOf('.');
    for (let n = 1; fileNames.has(name); n++)
      name = dot > 0 ? `${relative.split('/').at(-1)!.slice(0, dot)} (${n})${relative.split('/').at(-1)!.slice(dot)}` : `${name} (${n})`;
    fileNames.add(name);
    const file: ReadFile = { fileId: options.fileId(name), name, path: where, read: () => readBounded(source, options.limits, where) };
    fileOfPath.set(relative, file);
    return file;
  };
  for (const relative of [...rooted.keys()].filter((file) => file.startsWith(`${ASSETS}/`)).sort()) addFile(relative);

  const refOfPath = (fromFile: string, href: string): Ref | null => {
    if (!href || ABSOLUTE_URL.test(href) || href.startsWith('#') || href.startsWith('/')) return null;
    const [pathPart = '', anchor] = href.split('#', 2);
    const target = inside(path.posix.dirname(fromFile).replace(/^\.$/, ''), decodeSafely(pathPart.split('?')[0]!));
    if (target === null) {
      warnings.push(`${underRoot(config, fromFile)}: the link "${href}" leaves the repository's root and is not followed`);
      return null;
    }
    const page =
      pageOfFile.get(target) ?? pageOfFile.get(target ? `${target}/README.md` : config.readme) ?? (target === '' ? pageOfFile.get(config.readme) : undefined);
    if (page) return anchor ? { kind: 'anchor', anchor, page: page.pageId } : { kind: 'page', page: page.pageId };
    if (!/\.md$/i.test(target)) {
      const file = addFile(target);
      if (file) return { kind: 'file', file: file.fileId };
    }
    return null;
  };

  // Bodies, one file at a time.
  for (const [index, { entry, page }] of placed.entries()) {
    if (entry.kind !== 'page') continue;
    if (index > 0) await nextTurn();
    const file = rooted.get(entry.file!)!;
    const where = underRoot(config, entry.file!);
    const bytes = await readBounded(file, options.limits, where);
    if (isLfsPointer(bytes)) {
      warnings.push(`${where}: a Git LFS pointer file; its content is in LFS storage, which is not read: the page is left empty`);
      page.title ||= titleOfFile(entry.file!);
      continue;
    }
    const split = splitFrontMatter(decoder.decode(bytes), where, { mode: 'repository' });
    pushAll(warnings, split.warnings);
    const { title: heading, rest } = takeTitle(split.body);
    page.title = split.fields.title ?? (page.title || heading || titleOfFile(entry.file!));
    const { title: _title, cover, ...fields } = split.fields;
    page.fields = fields;
    if (cover) page.fields.cover = coverOf(cover, (url) => refOfPath(entry.file!, url));
    const large = options.largeBodies && rest.length > INLINE_BODY_CHARACTERS ? options.largeBodies : undefined;
    const document = large ? await large.parse(rest) : documentFromMarkdown(rest, { headingOffset: 1 });
    const resolved = document && mapRefs(document, (ref) => (ref.kind === 'url' ? (refOfPath(entry.file!, String(ref.url)) ?? ref) : ref));
    const written = resolved && (large ? await large.render(resolved) : markdownFromDocument(resolved));
    if (written === null) {
      warnings.push(`${where}: too complex to read within the time a page may take; its text is kept as written, its links not followed`);
    }
    const markdown = written ?? rest;
    if (options.body) await options.body(page, markdown);
    else page.markdown = markdown;
  }
  // LFS pointers among the files are reported (their bytes are not the file).
  const readFiles: ReadFile[] = [];
  for (const file of fileOfPath.values()) {
    if (isLfsPointer(await file.read())) {
      warnings.push(`${file.path}: a Git LFS pointer file; its content is in LFS storage, which is not read: the file is left out`);
      continue;
    }
    readFiles.push(file);
  }
  return { config, pages, files: readFiles, warnings };
}

/** The title a page file gives its page (front matter, then its `# ` line), without reading its body further. */
async function titleIn(file: RepoFile, where: string, limits: LayoutLimits): Promise<{ front?: string; heading?: string }> {
  const bytes = await readBounded(file, limits, where);
  if (isLfsPointer(bytes)) return {};
  const split = splitFrontMatter(decoder.decode(bytes), where, { mode: 'repository' });
  return { front: split.fields.title, heading: takeTitle(split.body).title };
}

function listsFile(entries: Entry[], file: string): boolean {
  return entries.some((entry) => entry.file === file || listsFile(entry.children, file));
}

/** A group's slug: the folder all its pages are in, or its title's. */
function groupSlug(entry: Entry): string {
  const folders = new Set(entry.children.filter((child) => child.file).map((child) => child.file!.split('/')[0]));
  const [folder] = folders;
  if (folders.size === 1 && folder && !/\.md$/i.test(folder) && SLUG.test(folder)) return folder;
  return slugOf(entry.title);
}

function coverOf(cover: PageCover, resolve: (url: string) => Ref | null): Record<string, unknown> {
  const fix = (ref: PageCover['ref']) => (ref?.kind === 'url' ? (resolve(ref.url) ?? ref) : ref);
  return {
    ...(cover.ref ? { ref: fix(cover.ref) } : {}),
    ...(cover.refDark ? { refDark: fix(cover.refDark) } : {}),
    yPos: cover.yPos ?? 0,
    ...(cover.height !== undefined ? { height: cover.height } : {}),
  };
}

const tooLarge = (where: string, size: number, limits: LayoutLimits) =>
  invalid(
    `url: ${where} is ${size.toLocaleString('en-US')} bytes, more than the ${limits.maxFileBytes.toLocaleString('en-US')} a file may hold (GIT_MAX_FILE_BYTES)`,
  );

async function readBounded(file: RepoFile, limits: LayoutLimits, where = file.path): Promise<Uint8Array> {
  if (file.size !== undefined && file.size > limits.maxFileBytes) throw tooLarge(where, file.size, limits);
  const bytes = await file.read();
  if (bytes.length > limits.maxFileBytes) throw tooLarge(where, bytes.length, limits);
  return bytes;
}

// ---------------------------------------------------------------------------------------------
// Writing

/** Where each page of a space goes: the first document page is the readme, a page with pages a folder's README.md. */
function pageFiles(pages: LayoutPage[], config: LayoutConfig): Map<string, string> {
  const files = new Map<string, string>();
  const readme = pages.find((page) => page.type === 'document');
  const walk = (list: LayoutPage[], dir: string, top: boolean) => {
    for (const page of list) {
      const folder = dir ? `${dir}/${page.slug}` : page.slug;
      if (page.type === 'document') {
        if (top && page === readme) files.set(page.pageId, config.readme);
        else files.set(page.pageId, page.children.length ? `${folder}/README.md` : `${folder}.md`);
      }
      walk(page.children, folder, false);
    }
  };
  walk(pages, '', true);
  return files;
}

/** A file's name in `.gitbook/assets/`: its own, made unique (`image (1).png`) and safe as a path segment. */
function assetNames(files: LayoutFile[]): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  for (const file of [...files].sort((a, b) => (a.name === b.name ? (a.fileId < b.fileId ? -1 : 1) : a.name < b.name ? -1 : 1))) {
    const clean = file.name.replace(/[/\\]/g, '_').replace(/^\.+/, '_') || 'file';
    const dot = clean.lastIndexOf('.');
    let name = clean;
    for (let n = 1; taken.has(name.toLowerCase()); n++) name = dot > 0 ? `${clean.slice(0, dot)} (${n})${clean.slice(dot)}` : `${clean} (${n})`;
    taken.add(name.toLowerCase());
    names.set(file.fileId, name);
  }
  return names;
}

/**
 * Writes a space's pages and files as the layout's files (relative to the project directory),
 * sorted by path: the same space always writes the same bytes.
 */
export async function writeRepository(
  space: { pages: LayoutPage[]; files: LayoutFile[] },
  config?: LayoutConfig,
  options?: Omit<WriteOptions, 'store'>,
): Promise<Array<Exclude<WrittenFile, { oid: string }>>>;
export async function writeRepository(space: { pages: LayoutPage[]; files: LayoutFile[] }, config: LayoutConfig, options: WriteOptions): Promise<WrittenFile[]>;
export async function writeRepository(
  space: { pages: LayoutPage[]; files: LayoutFile[] },
  config: LayoutConfig = DEFAULT_CONFIG,
  options: WriteOptions = {},
): Promise<WrittenFile[]> {
  const written: WrittenFile[] = [];
  const stores = new InFlight(STORES_IN_FLIGHT);
  const emit = async (filePath: string, text: string): Promise<void> => {
    const store = options.store;
    if (!store) {
      written.push({ path: filePath, text });
      return;
    }
    await stores.add(
      () => store(text),
      (oid) => written.push({ path: filePath, oid }),
    );
  };
  const pagePaths = pageFiles(space.pages, config);
  const names = assetNames(space.files);
  const assetPaths = new Map([...names].map(([fileId, name]) => [fileId, `${ASSETS}/${name}`]));
  const paths: RepositoryPaths = { pages: pagePaths, files: assetPaths };
  const summary: string[] = ['# Table of contents', ''];
  const item = (page: LayoutPage, depth: number) => {
    const label = escapeTitle(page.title);
    const file = pagePaths.get(page.pageId);
    const href = file ? relativeHref(config.summary, file) : page.target ? linkTarget(page.target, (id) => pagePaths.get(id), config.summary) : '';
    summary.push(`${'  '.repeat(depth)}* [${label}](${/[\s()]/.test(href) ? `<${href}>` : href})`);
    for (const child of page.children) item(child, depth + 1);
  };
  // A page after a group would read as the group's (a table of contents has no way out of a group): pages first.
  for (const page of space.pages) if (page.type !== 'group') item(page, 0);
  for (const group of space.pages) {
    if (group.type !== 'group') continue;
    summary.push('', `## ${group.title}`, '');
    for (const child of group.children) item(child, 0);
  }
  await emit(underRoot(config, config.summary), `${summary.join('\n')}\n`);

  let index = 0;
  const walk = async (list: LayoutPage[]) => {
    for (const page of list) {
      const file = pagePaths.get(page.pageId);
      if (file) {
        if (index++ > 0) await nextTurn();
        const document = page.markdown
          ? documentFromMarkdown(page.markdown)
          : options.documentOf && page.type === 'document'
            ? await options.documentOf(page)
            : null;
        const body = document ? await bodyOf(document, file, paths, options) : '';
        const content = `# ${escapeTitle(page.title)}\n${body ? `\n${body}` : ''}`;
        const text = withFrontMatter(pageState(page), content, {
          filePath: (fileId) => {
            const target = assetPaths.get(fileId);
            return target ? relativeHref(file, target) : `/files/${fileId}`;
          },
        });
        await emit(underRoot(config, file), text);
      }
      await walk(page.children);
    }
  };
  await walk(space.pages);
  await stores.drain();
  for (const fileEntry of space.files) written.push({ path: underRoot(config, assetPaths.get(fileEntry.fileId)!), fileId: fileEntry.fileId });
  return written.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** A page's document (or its structure's JSON text) as Markdown: a large one through `renderLarge` when given. */
async function bodyOf(document: JSONDocument | string, file: string, paths: RepositoryPaths, options: WriteOptions): Promise<string> {
  if (options.renderLarge && (typeof document === 'string' || holdsMore(document, INLINE_BODY_CHARACTERS))) {
    return options.renderLarge(typeof document === 'string' ? { structure: document } : { document }, file, paths);
  }
  const parsed = typeof document === 'string' ? (JSON.parse(document) as JSONDocument) : document;
  return markdownFromDocument(parsed, { headingOffset: 1, hrefOf: repositoryHrefOf(file, paths) });
}

function linkTarget(target: Record<string, unknown>, pagePath: (id: string) => string | undefined, from: string): string {
  if (target.kind === 'page' && typeof target.page === 'string') {
    const file = pagePath(target.page);
    if (file) return relativeHref(from, file);
  }
  return hrefOfRef(target as Ref);
}

function pageState(page: LayoutPage) {
  const fields = page.fields;
  return {
    description: fields.description ?? null,
    emoji: fields.emoji ?? null,
    icon: fields.icon ?? null,
    hidden: fields.hidden ?? false,
    noIndex: fields.noIndex ?? false,
    noRobotsIndex: fields.noRobotsIndex ?? false,
    condition: fields.condition ?? null,
    layout: (fields.layout as Record<string, unknown> | undefined) ?? null,
    cover: fields.cover ?? null,
    variables: (fields.variables as Record<string, unknown> | undefined) ?? null,
  };
}
