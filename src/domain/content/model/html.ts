import { type HTMLElement, type Node as HtmlNode, parse } from 'node-html-parser';
import { type Block, type Inline, type Mark, TEXT_COLORS, type Text, block, mark, normalizeInlines, paragraph, text, voidInline } from './nodes.ts';
import { refOfHref } from './references.ts';
import { pushAll } from '../../../lib/arrays.ts';

/**
 * The HTML GitBook writes inside its Markdown - figures, tables, aligned
 * paragraphs, and inline `<mark>`, `<kbd>`, `<sup>`, buttons and icons - read
 * into document nodes and written back. What is not one of these stays text.
 */

/** Deeper HTML than this is not read as structure (it stays text): no real page nests so deep, and it bounds the recursion. */
const MAX_HTML_DEPTH = 64;
/** Longer HTML than this is not read as structure either. */
const MAX_HTML_LENGTH = 512 * 1024;

const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

/** The nesting depth of a piece of HTML, by a scan of its tags (no tree is built). */
function nestingDepth(html: string): number {
  let depth = 0;
  let deepest = 0;
  for (const match of html.matchAll(/<(\/?)([a-zA-Z][\w-]*)[^>]*?(\/?)>/g)) {
    if (match[1]) depth = Math.max(0, depth - 1);
    else if (!match[3] && !VOID_ELEMENTS.has(match[2]!.toLowerCase())) deepest = Math.max(deepest, ++depth);
  }
  return deepest;
}

/** A piece of HTML as a tree, or null when it is too long or too deep to be read as structure. */
export function parseHtml(html: string): HTMLElement | null {
  if (html.length > MAX_HTML_LENGTH || nestingDepth(html) > MAX_HTML_DEPTH) return null;
  return parse(html, { comment: false });
}

export const isElement = (node: HtmlNode): node is HTMLElement => node.nodeType === 1;
const tagOf = (node: HtmlNode) => (isElement(node) ? node.rawTagName.toLowerCase() : '');
/** The elements among a node's children (text between them that is only spaces aside). */
export const elementsOf = (node: HTMLElement) => node.childNodes.filter(isElement);
const onlySpaces = (node: HTMLElement) => node.childNodes.every((child) => isElement(child) || !child.text.trim());

// Marks -------------------------------------------------------------------------------------------

const KNOWN_COLORS: ReadonlySet<string> = new Set(TEXT_COLORS);

/** The color mark of a `<mark style="...">`, or null when its colors are not ones documents hold. */
export function colorMarkOfStyle(style: string): Mark | null {
  const colors: Record<string, string> = { text: 'default', background: 'default' };
  for (const declaration of style.split(';')) {
    const [property = '', value = ''] = declaration.split(':').map((part) => part.trim().toLowerCase());
    if (!property) continue;
    if (!KNOWN_COLORS.has(value)) return null;
    if (property === 'color') colors.text = value;
    else if (property === 'background-color' || property === 'background') colors.background = value;
    else return null;
  }
  return mark('color', colors);
}

export function styleOfColorMark(data: Record<string, unknown> | undefined): string {
  const parts: string[] = [];
  if (data?.text && data.text !== 'default') parts.push(`color:${String(data.text)};`);
  if (data?.background && data.background !== 'default') parts.push(`background-color:${String(data.background)};`);
  return parts.join('');
}

/** Marks that Markdown has no syntax for, as GitBook writes them: an element around the text. */
export const HTML_MARKS: Record<string, string> = { keyboard: 'kbd', superscript: 'sup', subscript: 'sub' };
const MARK_OF_ELEMENT: Record<string, string> = {
  strong: 'bold',
  b: 'bold',
  em: 'italic',
  i: 'italic',
  code: 'code',
  s: 'strikethrough',
  del: 'strikethrough',
  strike: 'strikethrough',
  kbd: 'keyboard',
  sup: 'superscript',
  sub: 'subscript',
};

/** The mark an inline element stands for (`<kbd>` -> keyboard), or null. */
export function markOfElement(element: HTMLElement): Mark | null {
  const tag = tagOf(element);
  if (tag === 'mark') return colorMarkOfStyle(element.getAttribute('style') ?? '');
  if (tag === 'i' && element.getAttribute('class')) return null;
  const type = MARK_OF_ELEMENT[tag];
  return type ? mark(type) : null;
}

// Reading inline HTML -----------------------------------------------------------------------------

/** An icon (`<i class="fa-lock" style="color:$primary;">:lock:</i>`), or null. */
export function iconOfElement(element: HTMLElement): Inline | null {
  if (tagOf(element) !== 'i') return null;
  const name = /(?:^|\s)fa-([\w-]+)/.exec(element.getAttribute('class') ?? '')?.[1];
  if (!name) return null;
  const color = colorMarkOfStyle(element.getAttribute('style') ?? '')?.data?.text;
  return voidInline('icon', { icon: name, ...(color && color !== 'default' ? { color } : {}) });
}

/** An image inside text (`<img src alt data-size="line">`). */
export function inlineImageOfElement(element: HTMLElement): Inline | null {
  const src = element.getAttribute('src');
  if (tagOf(element) !== 'img' || !src) return null;
  const alt = element.getAttribute('alt');
  const size = element.getAttribute('data-size');
  return voidInline('inline-image', {
    ref: refOfHref(src),
    ...(alt ? { alt } : {}),
    ...(size === 'line' || size === 'original' ? { size } : {}),
  });
}

/** A button (`<a href="..." class="button primary">Label</a>`), or null. */
export function buttonOfElement(element: HTMLElement): Inline | null {
  const classes = (element.getAttribute('class') ?? '').split(/\s+/);
  const href = element.getAttribute('href');
  if (tagOf(element) !== 'a' || !classes.includes('button') || href === undefined) return null;
  return voidInline('button', { label: element.text, kind: classes.includes('secondary') ? 'secondary' : 'primary', ref: refOfHref(href) });
}

/** The inlines of HTML inline content (a table cell, a caption, a summary). */
export function inlinesOfHtml(nodes: HtmlNode[], marks: Mark[] = []): Array<Text | Inline> {
  const result: Array<Text | Inline> = [];
  for (const node of nodes) {
    if (!isElement(node)) {
      if (node.text) result.push(text(node.text.replace(/\s*\n\s*/g, ' '), marks));
      continue;
    }
    const tag = tagOf(node);
    if (tag === 'br') {
      result.push(text('\n', marks));
      continue;
    }
    const special = iconOfElement(node) ?? inlineImageOfElement(node) ?? buttonOfElement(node);
    if (special) {
      result.push(special);
      continue;
    }
    if (tag === 'a' && node.getAttribute('href') !== undefined) {
      result.push({
        object: 'inline',
        type: 'link',
        isVoid: false,
        data: { ref: refOfHref(node.getAttribute('href')!) },
        nodes: normalizeInlines(linkContent(inlinesOfHtml(node.childNodes, marks))) as Text[],
      });
      continue;
    }
    const markOf = markOfElement(node);
    if (markOf) {
      pushAll(result, inlinesOfHtml(node.childNodes, [...marks, markOf]));
      continue;
    }
    if (tag === 'span' || tag === 'p' || tag === 'div' || tag === 'figcaption') {
      pushAll(result, inlinesOfHtml(node.childNodes, marks));
      continue;
    }
    // Anything else is kept as it was written.
    result.push(text(node.outerHTML, marks));
  }
  return result;
}

/** A link holds texts and images only: anything else in it becomes its text. */
export function linkContent(nodes: Array<Text | Inline>): Array<Text | Inline> {
  return nodes.map((node) =>
    node.object === 'text' || node.type === 'inline-image'
      ? node
      : text(
          (node.nodes ?? []).map((child) => (child.object === 'text' ? child.leaves.map((leaf) => leaf.text).join('') : '')).join('') ||
            String(node.data?.label ?? ''),
        ),
  );
}

// As GitBook writes headings in HTML: its h1 is a page's title, so heading-1 is h2 ... heading-3 h4.
const HEADING_TAGS: Record<string, string> = { h1: 'heading-1', h2: 'heading-1', h3: 'heading-2', h4: 'heading-3', h5: 'heading-3', h6: 'heading-3' };

/** The blocks of HTML content that may hold blocks (a table cell): headings, paragraphs, lists; inline runs become paragraphs. */
export function blocksOfHtml(nodes: HtmlNode[]): Block[] {
  const blocks: Block[] = [];
  let run: HtmlNode[] = [];
  const flush = () => {
    const inlines = inlinesOfHtml(run);
    run = [];
    const normal = normalizeInlines(inlines);
    if (normal.length > 1 || normal[0]?.object !== 'text' || normal[0].leaves.some((leaf) => leaf.text.trim())) {
      blocks.push(paragraph(trimInlines(normal)));
    }
  };
  for (const node of nodes) {
    const tag = tagOf(node);
    if (HEADING_TAGS[tag]) {
      flush();
      blocks.push(block(HEADING_TAGS[tag]!, {}, normalizeInlines(inlinesOfHtml((node as HTMLElement).childNodes))));
    } else if (tag === 'p') {
      flush();
      run = [...(node as HTMLElement).childNodes];
      flush();
    } else if (tag === 'ul' || tag === 'ol') {
      flush();
      const items = elementsOf(node as HTMLElement).filter((item) => tagOf(item) === 'li');
      blocks.push(
        block(
          tag === 'ol' ? 'list-ordered' : 'list-unordered',
          {},
          items.map((item) => block('list-item', {}, blocksOfHtml(item.childNodes).length ? blocksOfHtml(item.childNodes) : [paragraph([])])),
        ),
      );
    } else {
      run.push(node);
    }
  }
  flush();
  return blocks;
}

/** Inline content without the line breaks and spaces at its ends (HTML's layout, not content). */
export function trimInlines(nodes: Array<Text | Inline>): Array<Text | Inline> {
  const first = nodes[0];
  if (first?.object === 'text' && first.leaves[0]) first.leaves[0].text = first.leaves[0].text.replace(/^[\s\n]+/, '');
  const last = nodes.at(-1);
  const lastLeaf = last?.object === 'text' ? last.leaves.at(-1) : undefined;
  if (lastLeaf) lastLeaf.text = lastLeaf.text.replace(/[\s\n]+$/, '');
  return normalizeInlines(nodes);
}

export { onlySpaces, tagOf };

// Writing HTML ------------------------------------------------------------------------------------

export const escapeHtml = (value: string) => value.replace(/&/g, '&#x26;').replace(/</g, '&#x3C;').replace(/>/g, '&#x3E;');
export const escapeAttribute = (value: string) => value.replace(/&/g, '&#x26;').replace(/"/g, '&#x22;').replace(/</g, '&#x3C;');

const ELEMENT_OF_MARK: Record<string, string> = {
  bold: 'strong',
  italic: 'em',
  code: 'code',
  strikethrough: 's',
  keyboard: 'kbd',
  superscript: 'sup',
  subscript: 'sub',
};

function markOpen(each: Mark): string {
  if (each.type === 'color') return `<mark style="${styleOfColorMark(each.data)}">`;
  const element = ELEMENT_OF_MARK[each.type];
  return element ? `<${element}>` : '';
}

function markClose(each: Mark): string {
  if (each.type === 'color') return '</mark>';
  const element = ELEMENT_OF_MARK[each.type];
  return element ? `</${element}>` : '';
}

/** Inlines as HTML: marks as elements (code innermost), links as `<a>`, breaks as `<br>`. */
export function inlinesToHtml(nodes: Array<Text | Inline>, hrefOf: (ref: unknown) => string): string {
  return nodes
    .map((node) => {
      if (node.object === 'text') {
        return node.leaves
          .map((leaf) => {
            const ordered = [...leaf.marks].sort((a, b) => Number(a.type === 'code') - Number(b.type === 'code'));
            const body = escapeHtml(leaf.text).replace(/\n/g, '<br>');
            return `${ordered.map(markOpen).join('')}${body}${[...ordered].reverse().map(markClose).join('')}`;
          })
          .join('');
      }
      const data = node.data ?? {};
      switch (node.type) {
        case 'link':
          return `<a href="${escapeAttribute(hrefOf(data.ref))}">${inlinesToHtml((node.nodes ?? []) as Array<Text | Inline>, hrefOf)}</a>`;
        case 'inline-image':
          return imgTag(hrefOf(data.ref), data, data.size ? { 'data-size': String(data.size) } : {});
        case 'button':
          return `<a href="${escapeAttribute(hrefOf(data.ref ?? { kind: 'url', url: '' }))}" class="button ${data.kind === 'secondary' ? 'secondary' : 'primary'}">${escapeHtml(String(data.label ?? ''))}</a>`;
        case 'icon': {
          const style = data.color ? ` style="color:${String(data.color)};"` : '';
          return `<i class="fa-${escapeAttribute(String(data.icon))}"${style}>:${escapeHtml(String(data.icon))}:</i>`;
        }
        case 'inline-math':
          return `$$${escapeHtml(String(data.formula ?? ''))}$$`;
        default:
          return escapeHtml(inlineFallbackText(node));
      }
    })
    .join('');
}

/** The text an inline the HTML has no element for is written as. */
export function inlineFallbackText(node: Inline): string {
  const data = node.data ?? {};
  if (node.type === 'emoji') {
    try {
      return String.fromCodePoint(
        ...String(data.code ?? '')
          .split('-')
          .map((part) => Number.parseInt(part, 16)),
      );
    } catch {
      return '';
    }
  }
  return (node.nodes ?? []).map((child) => (child.object === 'text' ? child.leaves.map((leaf) => leaf.text).join('') : '')).join('');
}

export function imgTag(src: string, data: Record<string, unknown>, extra: Record<string, string> = {}): string {
  const attributes = [`src="${escapeAttribute(src)}"`, `alt="${escapeAttribute(String(data.alt ?? ''))}"`];
  const length = (value: unknown) =>
    typeof value === 'number'
      ? String(value)
      : value && typeof value === 'object'
        ? `${(value as { value: number }).value}${(value as { unit: string }).unit}`
        : '';
  if (data.width !== undefined) attributes.push(`width="${escapeAttribute(length(data.width))}"`);
  if (data.height !== undefined) attributes.push(`height="${escapeAttribute(length(data.height))}"`);
  for (const [name, value] of Object.entries(extra)) attributes.push(`${name}="${escapeAttribute(value)}"`);
  return `<img ${attributes.join(' ')}>`;
}

/** Blocks of a table cell as HTML: one paragraph as its inlines, more as `<p>`s, headings and lists as theirs. */
export function blocksToHtml(blocks: Block[], hrefOf: (ref: unknown) => string): string {
  const inlineHtml = (each: Block) => inlinesToHtml((each.nodes ?? []) as Array<Text | Inline>, hrefOf);
  if (blocks.length === 1 && blocks[0]!.type === 'paragraph') return inlineHtml(blocks[0]!);
  return blocks
    .map((each) => {
      if (each.type.startsWith('heading-')) return `<h${Number(each.type.at(-1)) + 1}>${inlineHtml(each)}</h${Number(each.type.at(-1)) + 1}>`;
      if (each.type === 'list-ordered' || each.type === 'list-unordered' || each.type === 'list-tasks') {
        const tag = each.type === 'list-ordered' ? 'ol' : 'ul';
        return `<${tag}>${(each.nodes ?? []).map((item) => `<li>${blocksToHtml(((item as Block).nodes ?? []) as Block[], hrefOf)}</li>`).join('')}</${tag}>`;
      }
      if (each.type === 'paragraph') return `<p>${inlineHtml(each)}</p>`;
      return `<p>${escapeHtml(plainTextOfBlock(each))}</p>`;
    })
    .join('');
}

function plainTextOfBlock(node: Block | Inline | Text): string {
  if (node.object === 'text') return node.leaves.map((leaf) => leaf.text).join('');
  return (node.nodes ?? []).map((child) => plainTextOfBlock(child as Block)).join(node.object === 'block' ? ' ' : '');
}
