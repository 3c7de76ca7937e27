import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { invalid } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { keyBetween } from '../../lib/ordering.ts';
import { pageAddress } from '../../lib/page-address.ts';
import { type FetchLimits, FetchRefused, fetchBounded } from '../../lib/safe-fetch.ts';
import { TaskOverBudget, runTask } from '../../workers/pool.ts';
import { type UploadedFile, dimensionsOf, slugOf } from './changes.ts';
import { documentIdOf } from './documents.ts';
import type { ImportInput } from './import-input.ts';
import { MAX_BODY_CHARACTERS, MAX_FILE_BYTES } from './inputs.ts';
import type { PageDraft } from './revisions.ts';
import type { PageTree } from './tree.ts';

/**
 * Website import: crawls a site from a URL (same origin, under the start
 * path, breadth first, bounded in pages, depth, size and time), turns each
 * HTML page's main content into markdown and arranges the pages as the
 * site's paths nest. Links between imported pages become page links; the
 * images and linked files of the site (same origin) are fetched through the
 * same fetcher and stored as the revision's files, once per content, and the
 * markdown points at them. A resource that fails is reported, not fatal.
 *
 * Each page is parsed and converted on the worker pool (the `html-page` task,
 * src/workers/tasks/html-page.ts, holds the conversion's rules), one at a
 * time, within a time budget; a page too deep, too large or too slow to
 * convert answers 400. What the import holds in memory (the pages' markdown
 * and the files' bytes) is bounded: past `maxHeldBytes` it stops crawling and
 * fetching, as it does past its number of pages or its time.
 */

export const IMPORT_LIMITS = {
  maxPages: 50,
  maxDepth: 3,
  maxBytesPerPage: 2 * 1024 * 1024,
  timeoutMs: 20_000,
  pageTimeoutMs: 10_000,
  maxResources: 100,
  maxBytesPerResource: MAX_FILE_BYTES,
  /** HTML elements nested in a page (browsers' parsers stop nesting near this depth too). */
  maxNesting: 512,
  /** HTML elements in a page: 50,000 convert in seconds (issue 32's page of 2 MB, a table of 1,900 by 100 cells, has 192,000). */
  maxElements: 50_000,
  /** Markdown of a page, as any page body. */
  maxMarkdownCharacters: MAX_BODY_CHARACTERS,
  /** The time the worker pool gives one page's conversion. */
  pageConversionMs: 10_000,
  /** Pages' markdown and files' bytes held until the import is written. */
  maxHeldBytes: 32 * 1024 * 1024,
};

interface ImportedPage {
  url: URL;
  title: string;
  markdown: string;
  resources: string[];
}

/** A resource of the site the import could not bring, and why. */
export interface FailedResource {
  url: string;
  reason: string;
}

function isHtml(contentType: string) {
  return /^(text\/html|application\/xhtml\+xml)/i.test(contentType);
}

/** Converts one fetched page on the worker pool; its limits and budget are the import's. */
async function convertPage(html: string, url: URL, requested: URL, crawl: { origin: string; scope: string }) {
  try {
    return await runTask(
      'html-page',
      {
        html,
        url: url.href,
        fallbackTitle: requested.pathname,
        crawl,
        limits: { maxDepth: IMPORT_LIMITS.maxNesting, maxElements: IMPORT_LIMITS.maxElements, maxMarkdownCharacters: IMPORT_LIMITS.maxMarkdownCharacters },
      },
      { budgetMs: IMPORT_LIMITS.pageConversionMs },
    );
  } catch (error) {
    if (!(error instanceof TaskOverBudget)) throw error;
    throw invalid(
      error.budget === 'time'
        ? `url: ${url.href} takes longer than ${IMPORT_LIMITS.pageConversionMs / 1000} s to convert to markdown, the most a page may take`
        : `url: ${url.href} needs more memory to convert to markdown than a page may use`,
    );
  }
}

/** What the import holds until it is written: pages' markdown and files' bytes, up to IMPORT_LIMITS.maxHeldBytes. */
class HeldBytes {
  total = 0;
  get full() {
    return this.total >= IMPORT_LIMITS.maxHeldBytes;
  }
  fits(bytes: number) {
    return this.total + bytes <= IMPORT_LIMITS.maxHeldBytes;
  }
}

async function crawl(start: URL, allowPrivate: boolean, held: HeldBytes): Promise<{ pages: ImportedPage[]; discovered: number }> {
  const deadline = Date.now() + IMPORT_LIMITS.timeoutMs;
  const scope = start.pathname.replace(/[^/]*$/, '');
  const seen = new Set<string>([pageAddress(start)]);
  const queue: Array<{ url: URL; depth: number }> = [{ url: start, depth: 0 }];
  const pages: ImportedPage[] = [];
  while (queue.length && pages.length < IMPORT_LIMITS.maxPages && Date.now() < deadline && !held.full) {
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
    const page = await convertPage(fetched.body.toString('utf8'), fetched.url, url, { origin: start.origin, scope });
    held.total += Buffer.byteLength(page.markdown);
    pages.push({ url: fetched.url, title: page.title, markdown: page.markdown, resources: page.resources });
    if (depth >= IMPORT_LIMITS.maxDepth) continue;
    for (const link of page.links) {
      const next = new URL(link);
      const key = pageAddress(next);
      if (seen.has(key)) continue;
      seen.add(key);
      queue.push({ url: next, depth: depth + 1 });
    }
  }
  return { pages, discovered: seen.size };
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

const heldTooMuch = () => {
  const bound = IMPORT_LIMITS.maxHeldBytes;
  return `not fetched: an import holds at most ${bound % (1024 * 1024) === 0 ? `${bound / 1024 / 1024} MiB` : `${bound} bytes`} of pages and files`;
};

/**
 * Fetches the site's resources (same origin as the start, at most maxResources)
 * and makes them files: one per distinct content, whatever URLs share it.
 */
async function fetchResources(urls: URL[], origin: string, allowPrivate: boolean, deadline: number, held: HeldBytes) {
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
    if (held.full) {
      failed.push({ url: url.href, reason: heldTooMuch() });
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
    if (!fileId && !held.fits(fetched.body.length)) {
      failed.push({ url: url.href, reason: heldTooMuch() });
      continue;
    }
    if (!fileId) {
      held.total += fetched.body.length;
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
  const held = new HeldBytes();
  const { pages: crawled, discovered } = await crawl(start, options.allowPrivate, held);
  const resources = new Map<string, URL>();
  for (const page of crawled) for (const href of page.resources) if (!resources.has(href)) resources.set(href, new URL(href));
  const { files, fileOf, failed } = await fetchResources([...resources.values()], start.origin, options.allowPrivate, deadline, held);
  const ids = new Map(crawled.map((page) => [pageAddress(page.url), newId('page')]));
  // Links to other imported pages become page links, and images and files the imported ones.
  const relinked = await runTask(
    'html-links',
    { pages: crawled.map((page) => ({ url: page.url.href, markdown: page.markdown })), pageIds: ids, fileIds: fileOf },
    { budgetMs: IMPORT_LIMITS.pageConversionMs },
  ).catch((error: unknown) => {
    throw error instanceof TaskOverBudget ? invalid(`url: the links of the imported pages could not be resolved within the budget: ${error.message}`) : error;
  });
  // A page nests under the imported page whose path is the closest prefix of its own.
  const parentOf = (url: URL): string | null => {
    const segments = url.pathname
      .replace(/\/(index\.html?)?$/i, '')
      .split('/')
      .filter(Boolean);
    for (let length = segments.length - 1; length >= 0; length--) {
      const candidate = ids.get(pageAddress(new URL(`/${segments.slice(0, length).join('/')}`, url.origin)));
      if (candidate && candidate !== ids.get(pageAddress(url))) return candidate;
    }
    return null;
  };
  const drafts = new Map<string, PageDraft>(tree.pages);
  const lastTop = (tree.children.get(null) ?? []).at(-1)?.position ?? null;
  const positions = new Map<string | null, string | null>([[null, lastTop]]);
  const markdowns: string[] = [];
  for (const [index, page] of crawled.entries()) {
    const pageId = ids.get(pageAddress(page.url))!;
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
    const markdown = relinked[index]!;
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
      variables: null,
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
