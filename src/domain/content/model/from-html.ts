import type { HTMLElement, Node as HtmlNode } from 'node-html-parser';
import { type Container, fitInto } from './containers.ts';
import { type ColumnDefinition, codeBlock, columnId, imageBlock, tableBlock } from './from-markdown.ts';
import { iconOfElement, inlineImageOfElement, isElement, linkContent, markOfElement, tagOf } from './html.ts';
import {
  type Block,
  type Inline,
  type JSONDocument,
  type Mark,
  type Text,
  block,
  fragment,
  normalizeInlines,
  paragraph,
  text,
  voidBlock,
  voidInline,
} from './nodes.ts';
import { refOfHref } from './references.ts';
import { pushAll } from '../../../lib/arrays.ts';

/**
 * A web page's HTML read into the structured document (the website import,
 * src/workers/tasks/html-page.ts, then writes it as GitBook's Markdown dialect
 * with ./to-markdown.ts). Besides paragraphs, headings, lists, quotes, links
 * and marks, it reads what documentation sites render:
 * - tables: a grid table (Markdown writes the simple ones as GFM tables);
 * - images, `<figure>`s with their `<figcaption>`: images with alt and caption;
 * - `<pre>` code: a code block, its syntax from a `language-x` (`lang-x`,
 *   `highlight-x`, `data-language`) class or attribute, its title from a
 *   `data-title`/`data-filename` attribute or, in the element around the
 *   `<pre>`, a `<figcaption>` or an element whose class names a title,
 *   filename or caption (Docusaurus, MkDocs, Sphinx and others);
 * - `<details>`/`<summary>`: an expandable;
 * - admonitions and callouts (classes `admonition`, `callout`, `alert`,
 *   `hint`, `notice`, `note`, `tip`, `info`, `warning`, `danger`... and
 *   prefixed forms such as `theme-admonition-tip` or `markdown-alert-note`):
 *   a hint, its style from those words, its title kept unless it only names
 *   the style;
 * - `role="tablist"` with its `role="tab"`s and `role="tabpanel"`s: tabs;
 * - KaTeX formulas: math.
 * Anything else is its content. Containers nest at most MAX_CONTAINERS deep
 * (deeper ones are read as their content), and what a container may not hold
 * is made fit for it (./containers.ts), so the document is valid. Pure: the
 * caller parses the HTML (with `<pre>` parsed as elements) and bounds its size.
 */

/** Quotes, lists, hints, tabs and expandables nested deeper than this are read as their content (Markdown reads back ~32 line containers). */
const MAX_CONTAINERS = 16;

/** Elements with no text content of the page's. */
const SKIPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'button',
  'input',
  'select',
  'textarea',
  'canvas',
  'video',
  'audio',
  'object',
  'iframe',
  'head',
  'title',
  'meta',
  'link',
  'map',
]);

const BLOCK_TAGS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'center',
  'dd',
  'details',
  'dialog',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'ul',
]);

const HEADINGS: Record<string, string> = { h1: 'heading-1', h2: 'heading-2', h3: 'heading-3', h4: 'heading-3', h5: 'heading-3', h6: 'heading-3' };

type HintStyle = 'info' | 'success' | 'warning' | 'danger';

/** Words of callout classes (and `data-callout`/`data-type`) and the hint style each means. */
const STYLE_WORDS: Record<string, HintStyle> = {
  info: 'info',
  note: 'info',
  notice: 'info',
  important: 'info',
  seealso: 'info',
  abstract: 'info',
  summary: 'info',
  todo: 'info',
  question: 'info',
  example: 'info',
  primary: 'info',
  tip: 'success',
  tips: 'success',
  success: 'success',
  check: 'success',
  done: 'success',
  warning: 'warning',
  warn: 'warning',
  caution: 'warning',
  attention: 'warning',
  danger: 'danger',
  error: 'danger',
  bug: 'danger',
  failure: 'danger',
  fail: 'danger',
  fatal: 'danger',
  critical: 'danger',
};

/** Class names of callouts: a word alone, or a callout word with a prefix or a suffix (`theme-admonition-tip`, `alert--success`, `starlight-aside`). */
const CALLOUT_ALONE = new Set([
  'admonition',
  'callout',
  'alert',
  'hint',
  'notice',
  'note',
  'tip',
  'info',
  'success',
  'warning',
  'danger',
  'caution',
  'important',
]);
const CALLOUT_CLASS = /^(?:[a-z\d]+[-_]+)?(?:admonition|callout|alert|hint|aside)(?:[-_]+[\w-]*)?$/i;
const CALLOUT_ELEMENTS = new Set(['div', 'aside', 'section', 'p', 'blockquote']);

const classesOf = (element: HTMLElement) => (element.getAttribute('class') ?? '').split(/\s+/).filter(Boolean);

/** Whether an element is an admonition or callout (a hint). */
export function isCallout(element: HTMLElement): boolean {
  if (!CALLOUT_ELEMENTS.has(tagOf(element))) return false;
  if (element.getAttribute('data-callout')) return true;
  return classesOf(element).some((name) => CALLOUT_ALONE.has(name.toLowerCase()) || CALLOUT_CLASS.test(name));
}

function hintStyleOf(element: HTMLElement): HintStyle {
  const words = [element.getAttribute('data-callout') ?? '', element.getAttribute('data-type') ?? '', ...classesOf(element)].flatMap((name) =>
    name.toLowerCase().split(/[-_\s]+/),
  );
  for (const word of words) if (STYLE_WORDS[word]) return STYLE_WORDS[word];
  return 'info';
}

const TITLE_CLASS = /title|heading|header|label/i;
const CODE_TITLE_CLASS = /title|filename|file-name|caption/i;
const LANGUAGE_CLASS = /^(?:language|lang|highlight-source|highlight)-([\w+#.-]+)$/i;
const NO_SYNTAX = new Set(['none', 'default', 'nohighlight', 'plain', 'plaintext', 'text']);
const LINE_NUMBERS = /^(?:linenos?|line-numbers?(?:-rows)?|gutter|lineno-?\w*)$/i;
const PERMALINK_TEXT = new Set(['', '#', '\u00b6', '\u00a7', '\u{1f517}']);
const HEADING_ID = /^[-a-z0-9.+_]+$/;

/** Sizes of an element's subtree, counted once for the page: its `<pre>`s and the length of its text. */
interface Extent {
  pres: number;
  text: number;
}

/** The document of the HTML content under `root` (a page's main element). */
export function documentFromHtml(root: HTMLElement): JSONDocument {
  return { object: 'document', data: {}, nodes: new HtmlReader(root).blocks(root.childNodes, 'document') };
}

class HtmlReader {
  private readonly extents = new Map<HTMLElement, Extent>();
  /** Tab panels read with their tab list, skipped where they stand. */
  private readonly consumed = new Set<HTMLElement>();
  private containers = 0;

  constructor(root: HTMLElement) {
    // Post-order without recursion: each element's counts from its children's.
    const order: HTMLElement[] = [];
    const stack: HTMLElement[] = [root];
    while (stack.length) {
      const node = stack.pop()!;
      order.push(node);
      for (const child of node.childNodes) if (isElement(child)) stack.push(child);
    }
    for (let index = order.length - 1; index >= 0; index--) {
      const node = order[index]!;
      const extent: Extent = { pres: tagOf(node) === 'pre' ? 1 : 0, text: 0 };
      for (const child of node.childNodes) {
        if (!isElement(child)) extent.text += child.rawText.length;
        else {
          const inner = this.extents.get(child)!;
          extent.pres += inner.pres;
          extent.text += inner.text;
        }
      }
      this.extents.set(node, extent);
    }
  }

  private extent(element: HTMLElement): Extent {
    return this.extents.get(element) ?? { pres: 0, text: 0 };
  }

  blocks(nodes: HtmlNode[], container: Container): Block[] {
    return fitInto(this.flow(nodes), container);
  }

  /** A container's blocks, or, nested too deep, nothing (the caller then reads the content as its own). */
  private nested<T>(read: () => T): T | null {
    if (this.containers >= MAX_CONTAINERS) return null;
    this.containers++;
    try {
      return read();
    } finally {
      this.containers--;
    }
  }

  private isBlock(element: HTMLElement): boolean {
    const tag = tagOf(element);
    if (BLOCK_TAGS.has(tag) || element.getAttribute('role') === 'tablist' || element.getAttribute('role') === 'tabpanel') return true;
    if (/\bkatex-display\b/.test(element.getAttribute('class') ?? '')) return true;
    // A link or span around blocks (a card): a block.
    return (tag === 'a' || tag === 'span') && element.childNodes.some((child) => isElement(child) && BLOCK_TAGS.has(tagOf(child)));
  }

  /** Blocks of content mixing text and elements: runs of inline content become paragraphs. */
  private flow(nodes: HtmlNode[]): Block[] {
    const blocks: Block[] = [];
    let run: HtmlNode[] = [];
    const flush = () => {
      if (run.length) pushAll(blocks, this.paragraphOf(run));
      run = [];
    };
    for (const node of nodes) {
      if (isElement(node) && this.isBlock(node)) {
        flush();
        pushAll(blocks, this.element(node));
      } else run.push(node);
    }
    flush();
    return blocks;
  }

  private element(element: HTMLElement): Block[] {
    const tag = tagOf(element);
    if (SKIPPED.has(tag) || this.consumed.has(element)) return [];
    if (element.getAttribute('role') === 'tablist') return this.tabs(element) ?? this.flow(element.childNodes);
    if (isCallout(element)) {
      const hint = this.hint(element);
      if (hint) return hint;
    }
    if (HEADINGS[tag]) return this.heading(element, HEADINGS[tag]);
    switch (tag) {
      case 'p':
        return this.paragraphOf(element.childNodes);
      case 'ul':
      case 'ol':
        return this.nested(() => this.list(element)) ?? this.flow(element.childNodes);
      case 'blockquote':
        return this.nested(() => [block('blockquote', {}, this.nonEmpty(this.blocks(element.childNodes, 'blockquote')))]) ?? this.flow(element.childNodes);
      case 'pre':
        return [this.code(element, undefined)];
      case 'table':
        return this.table(element);
      case 'details':
        return this.nested(() => this.expandable(element)) ?? this.flow(element.childNodes);
      case 'hr':
        return [voidBlock('divider', {})];
      case 'dl':
        return this.definitions(element);
      case 'figure':
        return this.figure(element);
      case 'a':
        return this.linkedBlocks(element);
    }
    if (/\bkatex-display\b/.test(element.getAttribute('class') ?? '')) {
      const formula = katexFormula(element);
      if (formula !== undefined) return [voidBlock('math', { formula })];
    }
    return this.titledCode(element) ?? this.flow(element.childNodes);
  }

  private nonEmpty(blocks: Block[]): Block[] {
    return blocks.length ? blocks : [paragraph([])];
  }

  // Text ------------------------------------------------------------------------------------------

  /** A paragraph of inline content; images alone are an images block; nothing for whitespace. */
  private paragraphOf(nodes: HtmlNode[]): Block[] {
    const inlines = tidy(this.inlines(nodes, []));
    const meaningful = inlines.filter((node) => !(node.object === 'text' && !textOfInlines([node]).trim()));
    if (!meaningful.length) return [];
    if (meaningful.every((node) => node.object === 'inline' && node.type === 'inline-image')) {
      return [
        block(
          'images',
          {},
          (meaningful as Inline[]).map((image) => imageBlock({ ...image.data }, [])),
        ),
      ];
    }
    return [paragraph(inlines)];
  }

  private inlines(nodes: HtmlNode[], marks: Mark[]): Array<Text | Inline> {
    const result: Array<Text | Inline> = [];
    for (const node of nodes) {
      if (!isElement(node)) {
        const value = node.text.replace(/[ \t\r\n\f]+/g, ' ');
        if (value) result.push(text(value, marks));
        continue;
      }
      const tag = tagOf(node);
      if (SKIPPED.has(tag)) continue;
      if (tag === 'br') {
        result.push(text('\n', marks));
        continue;
      }
      if (/\bkatex\b/.test(node.getAttribute('class') ?? '')) {
        const formula = katexFormula(node);
        if (formula !== undefined) {
          result.push(voidInline('inline-math', { formula }));
          continue;
        }
      }
      if (tag === 'picture') {
        const image = node.querySelector('img');
        if (image) pushAll(result, this.inlines([image], marks));
        continue;
      }
      const special = tag === 'img' ? inlineImageOfElement(node) : tag === 'i' ? iconOfElement(node) : null;
      if (special) {
        result.push(special);
        continue;
      }
      if (tag === 'img') continue;
      const href = node.getAttribute('href');
      if (tag === 'a' && href && !/^javascript:/i.test(href)) {
        const content = normalizeInlines(linkContent(tidy(this.inlines(node.childNodes, marks), false)));
        if (textOfInlines(content).trim() || content.some((each) => each.object === 'inline')) {
          result.push({ object: 'inline', type: 'link', isVoid: false, data: { ref: refOfHref(href) }, nodes: content });
        }
        continue;
      }
      const markOf = markOfElement(node);
      const inner = this.inlines(node.childNodes, markOf ? [...marks, markOf] : marks);
      // Blocks inside inline content (a card's title and text): apart, not run together.
      if (BLOCK_TAGS.has(tag)) result.push(text(' ', marks), ...inner, text(' ', marks));
      else pushAll(result, inner);
    }
    return result;
  }

  private heading(element: HTMLElement, type: string): Block[] {
    const own = element.getAttribute('id');
    // A permalink in the heading (`<a class="headerlink" href="#id">&para;</a>`) names its id and is no content.
    let id = own && HEADING_ID.test(own) ? own : undefined;
    const content = element.childNodes.filter((child) => {
      if (!isElement(child) || tagOf(child) !== 'a') return true;
      const href = child.getAttribute('href') ?? '';
      if (!href.startsWith('#') || !PERMALINK_TEXT.has(child.text.trim())) return true;
      if (!id && HEADING_ID.test(href.slice(1))) id = href.slice(1);
      return false;
    });
    const inlines = tidy(this.inlines(content, [])).map((node) =>
      node.object === 'text' ? { ...node, leaves: node.leaves.map((leaf) => ({ ...leaf, text: leaf.text.replace(/\n/g, ' ') })) } : node,
    );
    if (!textOfInlines(inlines).trim() && !inlines.some((node) => node.object === 'inline')) return [];
    return [block(type, id ? { id } : {}, inlines)];
  }

  /** A link around blocks (a card): its paragraphs and headings link to its target. */
  private linkedBlocks(element: HTMLElement): Block[] {
    const href = element.getAttribute('href');
    const blocks = this.flow(element.childNodes);
    if (!href || /^javascript:/i.test(href)) return blocks;
    return blocks.map((each) =>
      each.type === 'paragraph' || each.type.startsWith('heading-')
        ? {
            ...each,
            nodes: [
              {
                object: 'inline',
                type: 'link',
                isVoid: false,
                data: { ref: refOfHref(href) },
                nodes: normalizeInlines(linkContent((each.nodes ?? []) as Array<Text | Inline>)),
              },
            ],
          }
        : each,
    );
  }

  // Containers ------------------------------------------------------------------------------------

  private list(element: HTMLElement): Block[] {
    const items: HTMLElement[][] = [];
    for (const child of element.childNodes) {
      if (isElement(child) && tagOf(child) === 'li') items.push([child]);
      // A list nested without its item (`<ul><li>a</li><ul>...</ul></ul>`) belongs to the item before it.
      else if (isElement(child) && (tagOf(child) === 'ul' || tagOf(child) === 'ol') && items.length) items.at(-1)!.push(child);
    }
    if (!items.length) return [];
    const checkboxes = items.map(([item]) => checkboxOf(item!));
    const tasks = checkboxes.some((box) => box !== undefined);
    const ordered = tagOf(element) === 'ol';
    const start = Number.parseInt(element.getAttribute('start') ?? '', 10);
    const type = tasks ? 'list-tasks' : ordered ? 'list-ordered' : 'list-unordered';
    return [
      block(
        type,
        type === 'list-ordered' && Number.isInteger(start) && start !== 1 && start >= 0 ? { start } : {},
        items.map(([item, ...more], index) =>
          block('list-item', tasks ? { checked: Boolean(checkboxes[index]) } : {}, this.nonEmpty(this.blocks([...item!.childNodes, ...more], 'list-item'))),
        ),
      ),
    ];
  }

  private expandable(element: HTMLElement): Block[] {
    const summary = element.childNodes.find((child): child is HTMLElement => isElement(child) && tagOf(child) === 'summary');
    const title = summary ? tidy(this.inlines(summary.childNodes, [])) : [text('')];
    const body = this.blocks(
      element.childNodes.filter((child) => child !== summary),
      'expandable-body',
    );
    return [
      {
        object: 'block',
        type: 'expandable',
        isVoid: true,
        data: element.hasAttribute('open') ? { defaultExpanded: true } : {},
        fragments: [fragment('expandable-title', [paragraph(title)], 'expandable-title'), fragment('expandable-body', this.nonEmpty(body), 'expandable-body')],
      },
    ];
  }

  /** An admonition as a hint: its title (unless it only names the style) in bold, then its content. */
  private hint(element: HTMLElement): Block[] | null {
    return this.nested(() => {
      const style = hintStyleOf(element);
      const titleElement = findTitle(element, TITLE_CLASS, 2);
      const titleText = titleElement?.text.trim() ?? '';
      const namesStyle = !titleText || STYLE_WORDS[titleText.toLowerCase().replace(/[^a-z]/g, '')] !== undefined || CALLOUT_ALONE.has(titleText.toLowerCase());
      const content = titleElement ? withoutElement(element, titleElement) : element.childNodes;
      const blocks = this.flow(content);
      if (titleElement && !namesStyle) {
        const title = tidy(this.inlines(titleElement.childNodes, [])).map((node) =>
          node.object === 'text'
            ? { ...node, leaves: node.leaves.map((leaf) => ({ ...leaf, marks: [...leaf.marks, { object: 'mark' as const, type: 'bold' }] })) }
            : node,
        );
        blocks.unshift(paragraph(normalizeInlines(title)));
      }
      return [block('hint', { style }, this.nonEmpty(fitInto(blocks, 'hint')))];
    });
  }

  /** A tab list with its panels (by `aria-controls`, `aria-labelledby`, or in order) as tabs. */
  private tabs(list: HTMLElement): Block[] | null {
    const tabs = list.querySelectorAll('[role=tab]');
    if (!tabs.length) return null;
    let scope = list.parentNode as HTMLElement | null;
    let panels: HTMLElement[] = [];
    for (let level = 0; scope && level < 3 && !panels.length; level++, scope = scope.parentNode as HTMLElement | null) {
      const found = scope.querySelectorAll('[role=tabpanel]').filter((panel) => !this.consumed.has(panel));
      panels = found.filter((panel) => !found.some((other) => other !== panel && contains(other, panel)));
    }
    return this.nested(() => {
      const byId = new Map(panels.map((panel) => [panel.getAttribute('id') ?? '', panel]));
      const items = tabs.map((tab, index) => {
        const id = tab.getAttribute('id');
        const panel =
          byId.get(tab.getAttribute('aria-controls') ?? '\u0000') ??
          panels.find((each) => id && each.getAttribute('aria-labelledby') === id) ??
          (panels.length === tabs.length ? panels[index] : undefined);
        if (panel) this.consumed.add(panel);
        const title = tab.text.replace(/\s+/g, ' ').trim();
        return block('tabs-item', { title }, this.nonEmpty(panel ? this.blocks(panel.childNodes, 'tabs-item') : []));
      });
      return [block('tabs', {}, items)];
    });
  }

  // Code ------------------------------------------------------------------------------------------

  private code(pre: HTMLElement, title: string | undefined, wrapper?: HTMLElement): Block {
    const code = pre.childNodes.find((child): child is HTMLElement => isElement(child) && tagOf(child) === 'code');
    const value = codeText(pre).replace(/\r\n?/g, '\n').replace(/^\n/, '').replace(/\n$/, '');
    const ownTitle = title ?? pre.getAttribute('data-title') ?? pre.getAttribute('data-filename') ?? code?.getAttribute('data-title');
    const syntax = syntaxOf([code, pre, ...ancestors(pre, wrapper ? 6 : 3)]);
    return codeBlock(value, { ...(syntax ? { syntax } : {}), ...(ownTitle?.trim() ? { title: ownTitle.trim().replace(/\s+/g, ' ') } : {}) });
  }

  /**
   * An element holding one `<pre>` and a title for it (a figcaption, an element whose class names a
   * title, filename or caption, or a `data-title`/`data-filename`), and nothing else but buttons: a
   * code block with that title. Null when it is anything else.
   */
  private titledCode(element: HTMLElement): Block[] | null {
    const extent = this.extent(element);
    if (extent.pres !== 1) return null;
    const pre = element.querySelector('pre');
    if (!pre || extent.text - this.extent(pre).text > 512) return null;
    const attribute = element.getAttribute('data-title') ?? element.getAttribute('data-filename');
    const titleElement = attribute ? undefined : (findTitle(element, CODE_TITLE_CLASS, 8, pre) ?? undefined);
    const title = attribute ?? titleElement?.text.replace(/\s+/g, ' ').trim();
    if (!title) return null;
    if (textOutside(element, [pre, ...(titleElement ? [titleElement] : [])]).trim()) return null;
    return [this.code(pre, title, element)];
  }

  // Figures and tables ----------------------------------------------------------------------------

  private figure(element: HTMLElement): Block[] {
    const titled = this.titledCode(element);
    if (titled) return titled;
    const images = element.querySelectorAll('img').filter((image) => image.getAttribute('src'));
    if (!images.length || element.querySelector('table, pre')) return this.flow(element.childNodes);
    const caption = element.querySelector('figcaption');
    const captionInlines = caption ? tidy(this.inlines(caption.childNodes, [])) : [];
    return [
      block(
        'images',
        {},
        images.map((image, index) => {
          const alt = image.getAttribute('alt')?.trim();
          return imageBlock(
            { ref: refOfHref(image.getAttribute('src')!), ...(alt ? { alt } : {}) },
            index === images.length - 1 ? captionInlines.map((node) => (node.object === 'text' ? { ...node, leaves: node.leaves.map(unbroken) } : node)) : [],
          );
        }),
      ),
    ];
  }

  private table(element: HTMLElement): Block[] {
    const rows = rowsOf(element);
    if (!rows.length) return [];
    const head = rows.find((row) => row.parentNode && tagOf(row.parentNode as HTMLElement) === 'thead');
    const header = head ?? (cellsOf(rows[0]!).every((cell) => tagOf(cell) === 'th') ? rows[0] : undefined);
    const body = rows.filter((row) => row !== header);
    const grid = (row: HTMLElement) =>
      cellsOf(row).flatMap((cell) => {
        const span = Math.min(Math.max(Number.parseInt(cell.getAttribute('colspan') ?? '1', 10) || 1, 1), 100);
        return [cell, ...Array.from({ length: span - 1 }, () => undefined)];
      });
    const headerCells = header ? grid(header) : [];
    const bodyCells = body.map(grid);
    const width = Math.max(headerCells.length, ...bodyCells.map((cells) => cells.length));
    if (!width) return [];
    const columns: ColumnDefinition[] = Array.from({ length: width }, (_, index) => {
      const cell = headerCells[index];
      const align = alignOf(cell ?? bodyCells[0]?.[index]);
      return {
        id: columnId(index),
        title: cell ? cell.text.replace(/\s+/g, ' ').trim() : '',
        type: 'text',
        textAlignment: align,
      };
    });
    const values = bodyCells.map((cells) =>
      columns.map((_, index) => {
        const cell = cells[index];
        return cell ? this.blocks(cell.childNodes, 'table-cell') : [];
      }),
    );
    return [tableBlock(columns, values, { type: 'grid', hideHeader: !header })];
  }

  private definitions(element: HTMLElement): Block[] {
    const blocks: Block[] = [];
    for (const child of elementsIn(element)) {
      if (tagOf(child) === 'dt') {
        const term = tidy(this.inlines(child.childNodes, [{ object: 'mark', type: 'bold' }]));
        if (textOfInlines(term).trim()) blocks.push(paragraph(term));
      } else if (tagOf(child) === 'dd') pushAll(blocks, this.flow(child.childNodes));
    }
    return blocks;
  }
}

// Pieces ------------------------------------------------------------------------------------------

function textOfInlines(nodes: Array<Text | Inline>): string {
  return nodes.map((node) => (node.object === 'text' ? node.leaves.map((leaf) => leaf.text).join('') : textOfInlines((node.nodes ?? []) as Text[]))).join('');
}

const unbroken = (leaf: Text['leaves'][number]) => ({ ...leaf, text: leaf.text.replace(/\n/g, ' ') });

/** Inline content with HTML's layout spaces taken out: one space between words, none around line breaks nor (unless told) at the ends. */
function tidy(nodes: Array<Text | Inline>, ends = true): Array<Text | Inline> {
  const normal = normalizeInlines(nodes);
  let atStart = ends;
  let afterSpace = ends;
  let emptied = false;
  for (const node of normal) {
    if (node.object !== 'text') {
      atStart = false;
      afterSpace = false;
      continue;
    }
    for (const leaf of node.leaves) {
      let value = leaf.text.replace(/ {2,}/g, ' ').replace(/ *\n */g, '\n');
      if (atStart) value = value.replace(/^[ \n]+/, '');
      else if (afterSpace && value.startsWith(' ')) value = value.slice(1);
      leaf.text = value;
      if (!value) emptied = true;
      else {
        atStart = false;
        afterSpace = value.endsWith(' ') || value.endsWith('\n');
      }
    }
  }
  // The end: spaces and line breaks of the last leaves that hold any.
  const last = ends ? normal.at(-1) : undefined;
  if (last?.object === 'text') {
    for (let index = last.leaves.length - 1; index >= 0; index--) {
      const leaf = last.leaves[index]!;
      leaf.text = leaf.text.replace(/[ \n]+$/, '');
      if (leaf.text) break;
      emptied = true;
    }
  }
  return emptied ? normalizeInlines(normal) : normal;
}

/** Whether `outer` holds `inner`. */
function contains(outer: HTMLElement, inner: HTMLElement): boolean {
  for (let node = inner.parentNode as HTMLElement | null; node; node = node.parentNode as HTMLElement | null) if (node === outer) return true;
  return false;
}

function ancestors(element: HTMLElement, count: number): HTMLElement[] {
  const found: HTMLElement[] = [];
  for (let node = element.parentNode as HTMLElement | null; node && found.length < count; node = node.parentNode as HTMLElement | null) found.push(node);
  return found;
}

const elementsIn = (element: HTMLElement) => element.childNodes.filter(isElement);

/** The first element under `element` (at most `depth` levels down, outside `except`) whose class matches, or a figcaption. */
function findTitle(element: HTMLElement, pattern: RegExp, depth: number, except?: HTMLElement): HTMLElement | null {
  let level: HTMLElement[] = elementsIn(element);
  for (let down = 0; down < depth && level.length; down++) {
    for (const child of level) {
      if (child === except) continue;
      if (tagOf(child) === 'figcaption' || classesOf(child).some((name) => pattern.test(name))) {
        if (child.text.trim() && !(except && contains(child, except))) return child;
      }
    }
    level = level.filter((child) => child !== except).flatMap(elementsIn);
  }
  return null;
}

/** An element's children without one of its descendants (taken out where it stands). */
function withoutElement(element: HTMLElement, removed: HTMLElement): HtmlNode[] {
  if (element.childNodes.includes(removed)) return element.childNodes.filter((child) => child !== removed);
  // Deeper: removed from its parent (the tree is the caller's own, read once).
  removed.remove();
  return element.childNodes;
}

/** The text under an element outside some of its descendants and outside buttons and other elements without content. */
function textOutside(element: HTMLElement, excluded: HTMLElement[]): string {
  let found = '';
  const stack: HtmlNode[] = [...element.childNodes];
  while (stack.length) {
    const node = stack.pop()!;
    if (!isElement(node)) found += node.text;
    else if (!excluded.includes(node) && !SKIPPED.has(tagOf(node))) pushAll(stack, node.childNodes);
  }
  return found;
}

/** A code block's text: its text nodes, `<br>` as line breaks, line number gutters left out. */
function codeText(pre: HTMLElement): string {
  let found = '';
  const stack: HtmlNode[] = [...pre.childNodes].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (!isElement(node)) {
      found += node.text;
      continue;
    }
    const tag = tagOf(node);
    if (tag === 'br') found += '\n';
    else if (tag === 'button' || classesOf(node).some((name) => LINE_NUMBERS.test(name))) continue;
    else pushAll(stack, [...node.childNodes].reverse());
  }
  return found;
}

function syntaxOf(elements: Array<HTMLElement | undefined>): string | undefined {
  for (const element of elements) {
    if (!element) continue;
    const attribute = element.getAttribute('data-language') ?? element.getAttribute('data-lang');
    const candidates = [...(attribute ? [attribute] : []), ...classesOf(element).flatMap((name) => LANGUAGE_CLASS.exec(name)?.[1] ?? [])];
    for (const candidate of candidates) {
      const syntax = candidate.toLowerCase();
      if (!NO_SYNTAX.has(syntax) && /^[\w+#.-]{1,40}$/.test(syntax)) return syntax;
    }
  }
  return undefined;
}

/** The TeX of a KaTeX rendering (its MathML annotation). */
function katexFormula(element: HTMLElement): string | undefined {
  return element.querySelector('annotation')?.text.trim() || undefined;
}

/** A task list item's checkbox: checked or not, or undefined when it has none. */
function checkboxOf(item: HTMLElement): boolean | undefined {
  const first = elementsIn(item)[0];
  const candidates = [first, ...(first ? elementsIn(first).slice(0, 1) : [])];
  const box = candidates.find((each) => each && tagOf(each) === 'input' && each.getAttribute('type')?.toLowerCase() === 'checkbox');
  return box ? box.hasAttribute('checked') : undefined;
}

/** A table's own rows (not those of tables in its cells). */
function rowsOf(table: HTMLElement): HTMLElement[] {
  return elementsIn(table).flatMap((child) => {
    const tag = tagOf(child);
    if (tag === 'tr') return [child];
    if (tag === 'thead' || tag === 'tbody' || tag === 'tfoot') return elementsIn(child).filter((row) => tagOf(row) === 'tr');
    return [];
  });
}

const cellsOf = (row: HTMLElement) => elementsIn(row).filter((cell) => tagOf(cell) === 'td' || tagOf(cell) === 'th');

function alignOf(cell: HTMLElement | undefined): string {
  const value = (cell?.getAttribute('align') ?? /text-align:\s*(\w+)/i.exec(cell?.getAttribute('style') ?? '')?.[1] ?? '').toLowerCase();
  return value === 'center' || value === 'right' ? value : 'left';
}
