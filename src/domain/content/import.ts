import { parse } from 'node-html-parser';
import TurndownService from 'turndown';
import type { z } from 'zod';
import { invalid } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { keyBetween } from '../../lib/ordering.ts';
import { type FetchLimits, FetchRefused, fetchBounded } from '../../lib/safe-fetch.ts';
import { createHash } from 'node:crypto';
import { type UploadedFile, dimensionsOf, slugOf } from './changes.ts';
import { MAX_FILE_BYTES } from './inputs.ts';
import { documentIdOf } from './documents.ts';
import type { PageDraft } from './revisions.ts';
import type { ImportInput } from './import-input.ts';
import type { PageTree } from './tree.ts';

/**
 * Website import: crawls a site from a URL (same origin, under the start
 * path, breadth first, bounded in pages, depth, size and time), turns each
 * HTML page's main content into markdown (turndown) and arranges the pages as
 * the site's paths nest. Links between imported pages become page links; the
 * images and linked files of the site (same origin) are fetched through the
 * same fetcher and stored as the revision's files, once per content, and the
 * markdown points at them. A resource that fails is reported, not fatal.
 */

export const IMPORT_LIMITS = {
  maxPages: 50,
  maxDepth: 3,
  maxBytesPerPage: 2 * 1024 * 1024,
  timeoutMs: 20_000,
  pageTimeoutMs: 10_000,
  maxResources: 100,
  maxBytesPerResource: MAX_FILE_BYTES,
};

/** Links to these are files to import, not pages to crawl. */
const FILE_LINK = /\.(pdf|zip|tar|gz|tgz|bz2|xz|7z|rar|csv|tsv|docx?|xlsx?|pptx?|odt|ods|epub|png|jpe?g|gif|svg|webp|avif|ico|mp3|mp4|webm)$/i;

interface ImportedPage {
  url: URL;
  title: string;
  html: string;
}

/** A resource of the site the import could not bring, and why. */
export interface FailedResource {
  url: string;
  reason: string;
}

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });

/** The page address without query or fragment, and without a trailing index file or slash. */
function canonical(url: URL): string {
  return `${url.origin}${url.pathname.replace(/\/(index\.html?)?$/i, '') || '/'}`;
}

function isHtml(contentType: string) {
  return /^(text\/html|application\/xhtml\+xml)/i.test(contentType);
}

async function crawl(start: URL, allowPrivate: boolean): Promise<{ pages: ImportedPage[]; discovered: number }> {
  const deadline = Date.now() + IMPORT_LIMITS.timeoutMs;
  const scope = start.pathname.replace(/[^/]*$/, '');
  const seen = new Set<string>([canonical(start)]);
  const queue: Array<{ url: URL; depth: number }> = [{ url: start, depth: 0 }];
  const pages: ImportedPage[] = [];
  while (queue.length && pages.length < IMPORT_LIMITS.maxPages && Date.now() < deadline) {
    const { url, depth } = queue.shift()!;
    const limits: FetchLimits = {
      timeoutMs: Math.min(IMPORT_LIMITS.pageTimeoutMs, deadline - Date.now()),
      maxBytes: IMPORT_LIMITS.maxBytesPerPage,
      allowPrivate,
    };
    let fetched: Awaited<ReturnType<typeof fetchBounded>>;
    try {
      fetched = await fetchBounded(url, limits);
    } catch (error) {
      if (pages.length === 0 && error instanceof FetchRefused) throw invalid(`url: ${error.message}`);
      continue;
    }
    if (fetched.status >= 400 || !isHtml(fetched.contentType)) {
      if (pages.length === 0) {
        throw invalid(
          `url: ${url.href} answered ${fetched.status >= 400 ? `HTTP ${fetched.status}` : `${fetched.contentType || 'no content type'}, not HTML`}`,
        );
      }
      continue;
    }
    const html = fetched.body.toString('utf8');
    const root = parse(html);
    const title = (root.querySelector('title')?.text || root.querySelector('h1')?.text || url.pathname).trim().slice(0, 255) || 'Untitled';
    pages.push({ url: fetched.url, title, html });
    if (depth >= IMPORT_LIMITS.maxDepth) continue;
    for (const anchor of root.querySelectorAll('a[href]')) {
      let next: URL;
      try {
        next = new URL(anchor.getAttribute('href')!, fetched.url);
      } catch {
        continue;
      }
      if (next.origin !== start.origin || !next.pathname.startsWith(scope) || FILE_LINK.test(next.pathname)) continue;
      const key = canonical(next);
      if (seen.has(key)) continue;
      seen.add(key);
      next.hash = '';
      queue.push({ url: next, depth: depth + 1 });
    }
  }
  return { pages, discovered: seen.size };
}

/** The main content of an HTML page: `main`, `article` or the body, without navigation and scripts; an image with only a `srcset` gets its first candidate as `src`. */
function mainContent(html: string) {
  const root = parse(html);
  const main = root.querySelector('main') ?? root.querySelector('article') ?? root.querySelector('[role=main]') ?? root.querySelector('body') ?? root;
  for (const noise of main.querySelectorAll('script, style, nav, header, footer, aside, noscript, form, iframe')) noise.remove();
  for (const image of main.querySelectorAll('img[srcset]')) {
    const first = image.getAttribute('srcset')!.split(',')[0]?.trim().split(/\s+/)[0];
    if (!image.getAttribute('src') && first) image.setAttribute('src', first);
  }
  return main;
}

/** The images and linked files of a page's main content, as absolute URLs without fragments. */
function resourcesOf(main: ReturnType<typeof mainContent>, pageUrl: URL): URL[] {
  const found: URL[] = [];
  const add = (href: string | undefined) => {
    if (!href || href.startsWith('data:')) return;
    try {
      const url = new URL(href, pageUrl);
      url.hash = '';
      if (url.protocol === 'http:' || url.protocol === 'https:') found.push(url);
    } catch {
      // Not an address: turndown keeps it as written.
    }
  };
  for (const image of main.querySelectorAll('img')) add(image.getAttribute('src'));
  for (const anchor of main.querySelectorAll('a[href]')) {
    const href = anchor.getAttribute('href')!;
    try {
      if (FILE_LINK.test(new URL(href, pageUrl).pathname)) add(href);
    } catch {
      // idem
    }
  }
  return found;
}

/** A file name from the last segment of its address: decoded, without slashes or control characters (file names refuse them). */
function nameOf(url: URL, contentType: string): string {
  const segment = url.pathname.split('/').filter(Boolean).at(-1) ?? '';
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    decoded = segment;
  }
  const last = [...decoded].filter((character) => character !== '/' && character !== '\\' && character >= ' ').join('');
  return (last || `file.${contentType.split('/')[1]?.split(/[;+]/)[0] || 'bin'}`).slice(0, 256);
}

/**
 * Fetches the site's resources (same origin as the start, at most maxResources)
 * and makes them files: one per distinct content, whatever URLs share it.
 */
async function fetchResources(urls: URL[], origin: string, allowPrivate: boolean, deadline: number) {
  const files: UploadedFile[] = [];
  const fileOf = new Map<string, string>();
  const byDigest = new Map<string, string>();
  const failed: FailedResource[] = [];
  for (const url of urls) {
    if (url.origin !== origin) {
      failed.push({ url: url.href, reason: 'not on the imported site: left as a link to it' });
      continue;
    }
    if (fileOf.size + failed.length >= IMPORT_LIMITS.maxResources || Date.now() >= deadline) {
      failed.push({ url: url.href, reason: `not fetched: an import brings at most ${IMPORT_LIMITS.maxResources} resources within its time` });
      continue;
    }
    let fetched: Awaited<ReturnType<typeof fetchBounded>>;
    try {
      fetched = await fetchBounded(url, {
        timeoutMs: Math.min(IMPORT_LIMITS.pageTimeoutMs, deadline - Date.now()),
        maxBytes: IMPORT_LIMITS.maxBytesPerResource,
        allowPrivate,
      });
    } catch (error) {
      failed.push({ url: url.href, reason: error instanceof Error ? error.message : String(error) });
      continue;
    }
    if (fetched.status >= 400) {
      failed.push({ url: url.href, reason: `answered HTTP ${fetched.status}` });
      continue;
    }
    const contentType = fetched.contentType.split(';')[0]?.trim() || 'application/octet-stream';
    const sha256 = createHash('sha256').update(fetched.body).digest('hex');
    let fileId = byDigest.get(sha256);
    if (!fileId) {
      fileId = newId('file');
      byDigest.set(sha256, fileId);
      files.push({
        fileId,
        versionId: newId('fileVersion'),
        name: nameOf(url, contentType),
        contentType,
        bytes: fetched.body,
        sha256,
        ...dimensionsOf(fetched.body, contentType),
      });
    }
    fileOf.set(url.href, fileId);
  }
  return { files, fileOf, failed };
}

export interface ImportedContent {
  pages: PageDraft[];
  markdowns: string[];
  /** Images and linked files, to store and add to the revision. */
  files: UploadedFile[];
  /** Pages and files imported, and all the import found. */
  importedResources: number;
  totalResources: number;
  failedResources: FailedResource[];
}

/** Crawls a site and returns the tree's pages with the imported ones appended at the end of the top level. */
export async function importWebsite(
  spaceId: string,
  tree: PageTree,
  input: z.output<typeof ImportInput>,
  options: { now: Date; allowPrivate: boolean },
): Promise<ImportedContent> {
  const start = new URL(input.url);
  const deadline = Date.now() + IMPORT_LIMITS.timeoutMs * 2;
  const { pages: crawled, discovered } = await crawl(start, options.allowPrivate);
  const contents = crawled.map((page) => mainContent(page.html));
  const resources = new Map<string, URL>();
  for (const [index, page] of crawled.entries()) for (const url of resourcesOf(contents[index]!, page.url)) resources.set(url.href, url);
  const { files, fileOf, failed } = await fetchResources([...resources.values()], start.origin, options.allowPrivate, deadline);
  const ids = new Map(crawled.map((page) => [canonical(page.url), newId('page')]));
  // A page nests under the imported page whose path is the closest prefix of its own.
  const parentOf = (url: URL): string | null => {
    const segments = url.pathname
      .replace(/\/(index\.html?)?$/i, '')
      .split('/')
      .filter(Boolean);
    for (let length = segments.length - 1; length >= 0; length--) {
      const candidate = ids.get(canonical(new URL(`/${segments.slice(0, length).join('/')}`, url.origin)));
      if (candidate && candidate !== ids.get(canonical(url))) return candidate;
    }
    return null;
  };
  const drafts = new Map<string, PageDraft>(tree.pages);
  const lastTop = (tree.children.get(null) ?? []).at(-1)?.position ?? null;
  const positions = new Map<string | null, string | null>([[null, lastTop]]);
  const markdowns: string[] = [];
  for (const [index, page] of crawled.entries()) {
    const pageId = ids.get(canonical(page.url))!;
    const parentId = parentOf(page.url);
    const position = keyBetween(positions.get(parentId) ?? null, null);
    positions.set(parentId, position);
    const taken = new Set([...drafts.values()].filter((other) => other.parentId === parentId).map((other) => other.slug));
    const base = slugOf(
      page.url.pathname
        .split('/')
        .filter(Boolean)
        .at(-1)
        ?.replace(/\.html?$/i, '') || page.title,
    );
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    // Links to other imported pages become page links, and images and files the imported ones.
    const markdown = `${turndown.turndown(contents[index]!.innerHTML).trim()}\n`.replace(/\]\(([^)\s]+)\)/g, (link, href: string) => {
      try {
        const url = new URL(href, page.url);
        url.hash = '';
        const file = fileOf.get(url.href);
        if (file) return `](/files/${file})`;
        const target = ids.get(canonical(url));
        return target ? `](/pages/${target})` : link;
      } catch {
        return link;
      }
    });
    markdowns.push(markdown);
    drafts.set(pageId, {
      pageId,
      parentId,
      position,
      type: 'document',
      title: page.title,
      slug,
      emoji: null,
      icon: null,
      description: null,
      documentId: documentIdOf(spaceId, markdown),
      hidden: false,
      noIndex: false,
      noRobotsIndex: false,
      condition: null,
      layout: null,
      cover: null,
      target: null,
      createdAt: options.now,
      updatedAt: options.now,
    });
  }
  return {
    pages: [...drafts.values()],
    markdowns,
    files,
    importedResources: crawled.length + fileOf.size,
    totalResources: discovered + resources.size,
    failedResources: failed,
  };
}
