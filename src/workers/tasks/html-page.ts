import type { HTMLElement } from 'node-html-parser';
import type { Ref } from '../../domain/content/model/nodes.ts';
import { invalid } from '../../errors.ts';
import { pageAddress } from '../../lib/page-address.ts';

/**
 * The pages of a website import (src/domain/content/import.ts). Each page is
 * parsed once (node-html-parser): its title, the links to crawl next, and its
 * main content (`main`, `article` or the body, without navigation, scripts and
 * footers) with the images and linked files it shows. The content is read into
 * the content model's document (src/domain/content/model/from-html.ts: tables,
 * figures, titled code, admonitions, details, tabs...) and written as GitBook's
 * Markdown dialect (to-markdown.ts), so that the page reads back as those
 * blocks. Once the crawl is done, the references of each page's document are
 * pointed at the pages and files imported. What to take from a page is here;
 * how HTML becomes blocks is the model's.
 *
 * A task of the worker pool: parsing and converting grow with the page. A page
 * nesting elements deeper than `maxDepth`, or holding more than `maxElements`,
 * is refused before anything walks its tree (the parser's own walks recurse,
 * and the conversion of a large table takes seconds and hundreds of MB).
 */

export interface HtmlPageInput {
  html: string;
  /** The page's address (after redirects): links resolve against it. */
  url: string;
  /** The title of a page with neither `<title>` nor `<h1>`. */
  fallbackTitle: string;
  /** What the crawl follows: links of this origin whose path starts with `scope`. */
  crawl: { origin: string; scope: string };
  limits: { maxDepth: number; maxElements: number; maxMarkdownCharacters: number };
}

export interface HtmlPage {
  title: string;
  /** Links to pages the crawl may follow, without fragment, in the page's order, once each. */
  links: string[];
  /** Images and linked files of the main content, as absolute URLs without fragment, once each. */
  resources: string[];
  /** The main content as markdown, links as the page wrote them. */
  markdown: string;
}

/** Links to these are files to import, not pages to crawl. */
const FILE_LINK = /\.(pdf|zip|tar|gz|tgz|bz2|xz|7z|rar|csv|tsv|docx?|xlsx?|pptx?|odt|ods|epub|png|jpe?g|gif|svg|webp|avif|ico|mp3|mp4|webm)$/i;

/** Elements whose content is not the page's: removed before the conversion (an `aside` that is a callout stays: a hint). */
const NOISE = 'script, style, nav, header, footer, aside, noscript, form, iframe';

/** The content model's readers and writers, loaded when a page is first converted (built apart: ./html-model.ts). */
const model = () => import('./html-model.ts');

const count = (value: number) => value.toLocaleString('en-US');

/** Refuses a tree too deep or too large, walking it without recursion. */
function assertWithinLimits(root: HTMLElement, url: string, { maxDepth, maxElements }: HtmlPageInput['limits']) {
  let elements = 0;
  const stack: Array<[HTMLElement, number]> = [[root, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    for (const child of node.childNodes) {
      if (child.nodeType !== 1) continue;
      if (depth + 1 > maxDepth) throw invalid(`url: ${url} nests HTML elements more than ${count(maxDepth)} deep, the most a page may nest`);
      if (++elements > maxElements) throw invalid(`url: ${url} has more than ${count(maxElements)} HTML elements, the most a page may have`);
      stack.push([child as HTMLElement, depth + 1]);
    }
  }
}

/** Absolute, without fragment; undefined for what is not an address. */
function resolve(href: string | undefined, base: URL): URL | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href, base);
    url.hash = '';
    return url;
  } catch {
    return undefined;
  }
}

export async function convertPage({ html, url, fallbackTitle, crawl, limits }: HtmlPageInput): Promise<HtmlPage> {
  const { parse } = await import('node-html-parser');
  const pageUrl = new URL(url);
  // `<pre>` parsed as elements too (the parser keeps it as text by default): code keeps its language classes and line breaks.
  const root = parse(html, { comment: false, blockTextElements: { script: true, noscript: true, style: true } });
  assertWithinLimits(root, url, limits);
  const title = (root.querySelector('title')?.text || root.querySelector('h1')?.text || fallbackTitle).trim().slice(0, 255) || 'Untitled';

  const links = new Set<string>();
  for (const anchor of root.querySelectorAll('a[href]')) {
    const next = resolve(anchor.getAttribute('href'), pageUrl);
    if (!next || next.origin !== crawl.origin || !next.pathname.startsWith(crawl.scope) || FILE_LINK.test(next.pathname)) continue;
    links.add(next.href);
  }

  // The main content, without navigation and scripts; an image with only a `srcset` gets its first candidate as `src`.
  const main = root.querySelector('main') ?? root.querySelector('article') ?? root.querySelector('[role=main]') ?? root.querySelector('body') ?? root;
  const { documentFromHtml, isCallout, markdownFromDocument } = await model();
  for (const noise of main.querySelectorAll(NOISE)) if (!(noise.rawTagName.toLowerCase() === 'aside' && isCallout(noise))) noise.remove();
  for (const image of main.querySelectorAll('img[srcset]')) {
    const first = image.getAttribute('srcset')!.split(',')[0]?.trim().split(/\s+/)[0];
    if (!image.getAttribute('src') && first) image.setAttribute('src', first);
  }

  const resources = new Set<string>();
  const addResource = (href: string | undefined) => {
    if (href?.startsWith('data:')) return;
    const resource = resolve(href, pageUrl);
    // Not an address, or not fetched: the link stays as written.
    if (resource && (resource.protocol === 'http:' || resource.protocol === 'https:')) resources.add(resource.href);
  };
  for (const image of main.querySelectorAll('img')) addResource(image.getAttribute('src'));
  for (const anchor of main.querySelectorAll('a[href]')) {
    const href = anchor.getAttribute('href')!;
    const target = resolve(href, pageUrl);
    if (target && FILE_LINK.test(target.pathname)) addResource(href);
  }

  const markdown = `${markdownFromDocument(documentFromHtml(main)).trim()}\n`;
  if (markdown.length > limits.maxMarkdownCharacters) {
    throw invalid(`url: ${url} converts to more than ${count(limits.maxMarkdownCharacters)} characters of markdown, the most a page may hold`);
  }
  return { title, links: [...links], resources: [...resources], markdown };
}

export interface RelinkInput {
  pages: Array<{ url: string; markdown: string }>;
  /** Imported pages by their address (src/lib/page-address.ts): page ids. */
  pageIds: Map<string, string>;
  /** Imported files by their URL without fragment: file ids. */
  fileIds: Map<string, string>;
}

/**
 * Each page's markdown with its references (links, images, figures, table cells) to imported pages
 * as page links (`/pages/<id>`, with their anchor), and to imported files as file links
 * (`/files/<id>`): the markdown is read into its document, the references changed, and the document
 * written again (code and text that only look like links stay as they are). A page with nothing to
 * point elsewhere is returned as it was.
 */
export async function relinkPages({ pages, pageIds, fileIds }: RelinkInput): Promise<string[]> {
  const { documentFromMarkdown, markdownFromDocument } = await model();
  return pages.map(({ url, markdown }) => {
    const base = new URL(url);
    const relinked = (ref: unknown): Ref | undefined => {
      if (!ref || typeof ref !== 'object' || (ref as Ref).kind !== 'url') return undefined;
      let target: URL;
      try {
        target = new URL(String((ref as { url: unknown }).url), base);
      } catch {
        return undefined;
      }
      const anchor = decodeSafely(target.hash.slice(1));
      target.hash = '';
      const file = fileIds.get(target.href);
      if (file) return { kind: 'file', file };
      const page = pageIds.get(pageAddress(target));
      if (!page) return undefined;
      return anchor ? { kind: 'anchor', anchor, page } : { kind: 'page', page };
    };
    const document = documentFromMarkdown(markdown);
    let changed = false;
    const pending: Array<{ data?: Record<string, unknown>; nodes?: unknown[]; fragments?: Array<{ nodes: unknown[] }> }> = [...document.nodes];
    for (let node = pending.pop(); node; node = pending.pop()) {
      for (const key of ['ref', 'refDark']) {
        const next = node.data ? relinked(node.data[key]) : undefined;
        if (next) {
          node.data![key] = next;
          changed = true;
        }
      }
      for (const child of node.nodes ?? []) pending.push(child as (typeof pending)[number]);
      for (const each of node.fragments ?? []) for (const child of each.nodes) pending.push(child as (typeof pending)[number]);
    }
    return changed ? markdownFromDocument(document) : markdown;
  });
}

function decodeSafely(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
