import { parse } from 'node-html-parser';
import TurndownService from 'turndown';
import type { z } from 'zod';
import { invalid } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { keyBetween } from '../../lib/ordering.ts';
import { type FetchLimits, FetchRefused, fetchBounded } from '../../lib/safe-fetch.ts';
import { slugOf } from './changes.ts';
import { documentIdOf } from './documents.ts';
import type { PageDraft } from './revisions.ts';
import type { ImportInput } from './import-input.ts';
import type { PageTree } from './tree.ts';

/**
 * Website import: crawls a site from a URL (same origin, under the start
 * path, breadth first, bounded in pages, depth, size and time), turns each
 * HTML page's main content into markdown (turndown) and arranges the pages as
 * the site's paths nest. Links between imported pages become page links.
 */

export const IMPORT_LIMITS = { maxPages: 50, maxDepth: 3, maxBytesPerPage: 2 * 1024 * 1024, timeoutMs: 20_000, pageTimeoutMs: 10_000 };

interface ImportedPage {
  url: URL;
  title: string;
  html: string;
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
      if (next.origin !== start.origin || !next.pathname.startsWith(scope)) continue;
      const key = canonical(next);
      if (seen.has(key)) continue;
      seen.add(key);
      next.hash = '';
      queue.push({ url: next, depth: depth + 1 });
    }
  }
  return { pages, discovered: seen.size };
}

/** The main content of an HTML page as markdown: `main`, `article` or the body, without navigation and scripts. */
function markdownOf(html: string): string {
  const root = parse(html);
  const main = root.querySelector('main') ?? root.querySelector('article') ?? root.querySelector('[role=main]') ?? root.querySelector('body') ?? root;
  for (const noise of main.querySelectorAll('script, style, nav, header, footer, aside, noscript, form, iframe')) noise.remove();
  return `${turndown.turndown(main.innerHTML).trim()}\n`;
}

export interface ImportedContent {
  pages: PageDraft[];
  markdowns: string[];
  importedResources: number;
  totalResources: number;
}

/** Crawls a site and returns the tree's pages with the imported ones appended at the end of the top level. */
export async function importWebsite(
  spaceId: string,
  tree: PageTree,
  input: z.output<typeof ImportInput>,
  options: { now: Date; allowPrivate: boolean },
): Promise<ImportedContent> {
  const start = new URL(input.url);
  const { pages: crawled, discovered } = await crawl(start, options.allowPrivate);
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
  for (const page of crawled) {
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
    // Links to other imported pages become page links.
    const markdown = markdownOf(page.html).replace(/\]\(([^)\s]+)\)/g, (link, href: string) => {
      try {
        const target = ids.get(canonical(new URL(href, page.url)));
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
  return { pages: [...drafts.values()], markdowns, importedResources: crawled.length, totalResources: discovered };
}
