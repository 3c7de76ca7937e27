import type { RequestContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { loadColumns } from '../columns.ts';
import { markdownOf } from '../content/documents.ts';
import { withFrontMatter } from '../content/front-matter.ts';
import { type PageState, type PageTree, ancestorsOf, loadPageTree } from '../content/tree.ts';
import { clearLoaders, loader } from '../loaders.ts';
import { organizationRecords } from '../organizations/service.ts';
import { searchSpacesOfSite } from '../search/service.ts';
import { spaceColumns } from '../spaces/service.ts';
import { type PageShown, type PublishedContent, pageShownTo, publishedContent } from './published.ts';
import { type SectionView, type SiteSpaceRecord, shownSectionsOf, shownSiteSpacesOf } from './records.ts';
import { pushAll } from '../../lib/arrays.ts';

/**
 * A published site as text for AI assistants (the llmstxt.org convention):
 * `llms.txt`, an index of its pages as Markdown links grouped by section;
 * `llms-full.txt`, every page's Markdown; and each page alone as `<path>.md`.
 * What a reader is shown follows the published tree exactly (publishedContent:
 * visitors, share keys, visitor tokens, conditions); pages hidden from the table
 * of contents or from search (`hidden`, `noIndex`) are left out.
 */

/** A page of the published site, at its address under the site's published root. */
export interface PublishedPage {
  /** `<section path>/<site space path>/<page path>`, its empty parts left out. */
  path: string;
  spaceId: string;
  page: PageState;
  /** Shown in the indexes: not hidden (nor under a hidden page), not noIndex. Others are read at their address only. */
  listed: boolean;
}

export interface PublishedGroup {
  /** The section's title (under its group's, "Group / Section"), or the site space's in a site without sections. */
  heading: string;
  pages: PublishedPage[];
}

export interface PublishedText {
  content: PublishedContent;
  title: string;
  organizationTitle: string;
  groups: PublishedGroup[];
  /** Added to the addresses it links to: the share key a share-link site was opened with (never a visitor token). */
  linkQuery: string;
}

/** Whether the indexes list it: not hidden (nor under a hidden page), not noIndex. */
function listed(tree: PageTree, page: PageState): boolean {
  return !page.hidden && !page.noIndex && !ancestorsOf(tree, page).some((ancestor) => ancestor.hidden);
}

const joined = (...parts: string[]) => parts.filter(Boolean).join('/');

async function pagesOf(ctx: RequestContext, siteSpace: SiteSpaceRecord, prefix: string, shown: PageShown): Promise<PublishedPage[]> {
  const space = await loadColumns(ctx, spaceColumns, siteSpace.spaceId, ['revisionId', 'deletedAt']);
  if (!space || space.deletedAt) return [];
  const tree = await loadPageTree(ctx, space.revisionId);
  // A page whose condition does not hold for the reader is not there for it, not even at its address.
  return [...tree.pages.values()]
    .filter((page) => page.type === 'document' && shown(tree, page))
    .map((page) => ({
      path: joined(prefix, siteSpace.path, tree.paths.get(page.pageId) ?? page.slug),
      spaceId: siteSpace.spaceId,
      page,
      listed: listed(tree, page),
    }));
}

async function sectionGroup(ctx: RequestContext, view: SectionView, heading: string, shown: PageShown): Promise<PublishedGroup> {
  const siteSpaces = await shownSiteSpacesOf(ctx, view);
  const pages = (await Promise.all(siteSpaces.map((siteSpace) => pagesOf(ctx, siteSpace, view.section.path, shown)))).flat();
  return { heading, pages };
}

/** The pages of a published site its reader is shown, by section, in table-of-contents order. */
export async function publishedText(ctx: RequestContext, organizationId: string, siteId: string, query: unknown): Promise<PublishedText> {
  const content = await publishedContent(ctx, organizationId, siteId, query);
  const shown = pageShownTo(content.audience);
  // Every entry at once, in order: the loaders read each level of the whole site in one statement.
  const entries = await Promise.all(
    content.structure.entries.map(async (entry): Promise<PublishedGroup[]> => {
      if (!('kind' in entry)) {
        const title = (await loadColumns(ctx, spaceColumns, entry.spaceId, ['title']))?.title ?? entry.path;
        return [{ heading: title, pages: await pagesOf(ctx, entry, '', shown) }];
      }
      if (entry.kind === 'section') return [await sectionGroup(ctx, entry, entry.section.title, shown)];
      const sections = await shownSectionsOf(ctx, entry);
      return Promise.all(sections.map((section) => sectionGroup(ctx, section, `${entry.group.title} / ${section.section.title}`, shown)));
    }),
  );
  const groups = entries.flat();
  const organization = await loader(ctx, organizationRecords).load(content.audience.site.organizationId);
  const { site } = content.audience;
  const shareKey = (query as { shareKey?: unknown } | null)?.shareKey;
  const linkQuery = site.visibility === 'share-link' && typeof shareKey === 'string' ? `?shareKey=${encodeURIComponent(shareKey)}` : '';
  return { content, title: site.title, organizationTitle: organization?.title ?? '', groups, linkQuery };
}

/** On one line: a title with line breaks would start headings or list items of its own. */
export const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * Text written by members (titles, descriptions), as Markdown that reads as that
 * text: on one line, and what would make links, images, HTML, code or emphasis
 * of it escaped (a description `[x](http://evil.test)` is no link), GFM's
 * autolinks included (a URL, a `www.` address or an email address in text).
 */
export const markdownText = (text: string) =>
  oneLine(text)
    .replace(/[\\`*_~[\]<>@]/g, '\\$&')
    .replace(/:(?=\/\/)/g, '\\:')
    .replace(/\b(www)\./gi, '$1\\.');

/** The address of a page's Markdown, as the reader may open it. */
export const pageAddress = (text: PublishedText, base: string, entry: PublishedPage) => `${base}/${encodeURI(entry.path)}.md${text.linkQuery}`;

/** `llms.txt`: the site title, a summary, then one H2 per section listing its pages as links to their Markdown. */
export function llmsIndex(text: PublishedText, base: string): string {
  const lines = [
    `# ${markdownText(text.title)}`,
    '',
    `> ${markdownText(text.title)}, documentation published by ${markdownText(text.organizationTitle)}. Every page below is Markdown at its address (\`.md\`); all of them in one file: ${base}/llms-full.txt${text.linkQuery}`,
  ];
  for (const group of text.groups) {
    const pages = group.pages.filter((entry) => entry.listed);
    if (!pages.length) continue;
    lines.push('', `## ${markdownText(group.heading)}`, '');
    for (const entry of pages) {
      const { page } = entry;
      lines.push(`- [${markdownText(page.title)}](${pageAddress(text, base, entry)})${page.description ? `: ${markdownText(page.description)}` : ''}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** One page as Markdown: front matter with its title, description and other fields, then its body (as content batches read it back). */
export async function pageMarkdown(ctx: RequestContext, { page }: PublishedPage): Promise<string> {
  return withFrontMatter(page, await markdownOf(ctx, page.documentId), { extra: { title: page.title }, condition: false });
}

/** How much of the site `llms-full.txt` holds at most, in bytes: one answer's memory stays bounded on any site. */
export const LLMS_FULL_MAX_BYTES = 16 * 1024 * 1024;
/** Bodies read at a time for it: one statement each, at most this many bodies held at once. */
const LLMS_FULL_BATCH = 20;

/**
 * `llms-full.txt`: every listed page's Markdown in table-of-contents order, each under its title
 * and address; on a site larger than LLMS_FULL_MAX_BYTES, the pages that fit, then where the others are.
 */
export async function llmsFull(ctx: RequestContext, text: PublishedText, base: string, maxBytes = LLMS_FULL_MAX_BYTES): Promise<string> {
  const entries = text.groups.flatMap((group) => group.pages.filter((entry) => entry.listed));
  const parts = [`# ${markdownText(text.title)}`, ''];
  let size = 0;
  for (let start = 0; start < entries.length; start += LLMS_FULL_BATCH) {
    const batch = entries.slice(start, start + LLMS_FULL_BATCH);
    // Asked together: the bodies of a batch are read in one statement.
    const bodies = await Promise.all(batch.map((entry) => markdownOf(ctx, entry.page.documentId)));
    // The request's loaders would keep every body read until it ends.
    clearLoaders(ctx);
    for (const [index, entry] of batch.entries()) {
      const part = [`# ${markdownText(entry.page.title)}`, '', `Source: ${pageAddress(text, base, entry)}`, '', bodies[index]!.trim(), '', '---', ''];
      const length = part.reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
      if (size + length > maxBytes) {
        const left = entries.length - start - index;
        parts.push(`The ${left} other pages do not fit in this file: llms.txt lists them all, each at its own address. ${base}/llms.txt${text.linkQuery}`, '');
        return `${parts.join('\n').trimEnd()}\n`;
      }
      size += length;
      pushAll(parts, part);
    }
  }
  return `${parts.join('\n').trimEnd()}\n`;
}

/**
 * The pages the indexes list, in table-of-contents order, each address once: paths of site spaces
 * may hold "/", so two pages can share an address, and the first one is found there.
 */
export function listedPages(text: PublishedText): PublishedPage[] {
  const seen = new Set<string>();
  const pages: PublishedPage[] = [];
  for (const group of text.groups)
    for (const entry of group.pages)
      if (entry.listed && !seen.has(entry.path)) {
        seen.add(entry.path);
        pages.push(entry);
      }
  return pages;
}

/** The page at an address (`<path>.md` without its `.md`), listed or not; a 404 for any other. */
export function publishedPageAt(text: PublishedText, path: string): PublishedPage {
  const wanted = path.replace(/^\/+|\/+$/g, '');
  for (const group of text.groups) for (const entry of group.pages) if (entry.path === wanted) return entry;
  throw notFound('Published page', path);
}

/** A search of the site's pages its reader is shown (listed ones), best first, each with its address and a snippet. */
export async function searchPublished(ctx: RequestContext, text: PublishedText, query: string, limit: number) {
  const pages = new Map<string, PublishedPage>();
  for (const group of text.groups)
    for (const entry of group.pages)
      if (entry.listed && !pages.has(`${entry.spaceId}/${entry.page.pageId}`)) pages.set(`${entry.spaceId}/${entry.page.pageId}`, entry);
  const spaceIds = [...new Set([...pages.values()].map((entry) => entry.spaceId))];
  const hits = await searchSpacesOfSite(ctx, spaceIds, query, limit, (hit) => pages.has(`${hit.spaceId}/${hit.pageId}`));
  return hits.map((hit) => ({ entry: pages.get(`${hit.spaceId}/${hit.pageId}`)!, section: hit.section, excerpt: hit.excerpt }));
}
