import emojiRegex from 'emoji-regex';
import { generateNKeysBetween } from 'fractional-indexing';
import type * as Mdast from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTaskListItemFromMarkdown } from 'mdast-util-gfm-task-list-item';
import { mathFromMarkdown } from 'mdast-util-math';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import { gfmTaskListItem } from 'micromark-extension-gfm-task-list-item';
import { math } from 'micromark-extension-math';
import type { HTMLElement } from 'node-html-parser';
import { type Container, fitInto } from './containers.ts';
import {
  blocksOfHtml,
  buttonOfElement,
  elementsOf,
  iconOfElement,
  inlineImageOfElement,
  inlinesOfHtml,
  linkContent,
  markOfElement,
  parseHtml,
  tagOf,
  trimInlines,
} from './html.ts';
import { type LiquidTag, type ParsedTag, liquidTagFromMarkdown, liquidTagSyntax, parseTag } from './liquid-tags.ts';
import {
  type Block,
  type Fragment,
  type Inline,
  type JSONDocument,
  type Mark,
  type Text,
  block,
  emojiCode,
  fragment,
  mark,
  normalizeInlines,
  paragraph,
  text,
  voidBlock,
  voidInline,
} from './nodes.ts';
import { refOfHref } from './references.ts';
import { pushAll } from '../../../lib/arrays.ts';

/**
 * GitBook's Markdown dialect read into the official structured document.
 * The Markdown is parsed by micromark (CommonMark, GFM tables, task lists and
 * strikethrough, `$$` math) with one extension of ours, GitBook's `{% tag %}`
 * lines (./liquid-tags.ts); then tags and `<details>` are matched with their
 * ends into containers, and each node of the tree becomes the document's
 * block, inline or text. What the dialect does not know stays as the text it
 * was written as.
 */

export interface ReadOptions {
  /**
   * How many Markdown heading levels come before `heading-1`. 0 (docs-gateway's page bodies): `#` is
   * heading-1. 1 (a page file in a Git repository, whose `#` is the page's title): `##` is heading-1.
   */
  headingOffset?: number;
}

// GFM's tables, task lists and strikethrough; not its footnotes (GitBook has none) nor its bare-URL
// links (GitBook writes links as links: a URL in text stays text).
const SYNTAX = [gfmTable(), gfmTaskListItem(), gfmStrikethrough({ singleTilde: false }), math({ singleDollarTextMath: false }), liquidTagSyntax()];
const TREE = [gfmTableFromMarkdown(), gfmTaskListItemFromMarkdown(), gfmStrikethroughFromMarkdown(), mathFromMarkdown(), liquidTagFromMarkdown()];

/** The Markdown's syntax tree (mdast, with GitBook's tag lines as `liquidTag` nodes). */
export function markdownTree(markdown: string): Mdast.Root {
  return fromMarkdown(withBoundedNesting(markdown), { extensions: SYNTAX, mdastExtensions: TREE });
}

/** Quotes and lists one line opens at most; the parser's work per character grows with the nesting. */
const MAX_LINE_CONTAINERS = 32;
const CONTAINER_MARKERS = new RegExp(`^(?:[ \\t]{0,3}(?:>|[*+-](?=[ \\t])|\\d{1,9}[.)](?=[ \\t]))[ \\t]*){${MAX_LINE_CONTAINERS}}`, 'gm');

/**
 * A line opening more than MAX_LINE_CONTAINERS quotes or list items (`>>>>...` a hundred thousand
 * times) would cost the parser time quadratic in their number: the marker past the limit is
 * escaped, so the rest of the line is text. No page nests that deep.
 */
function withBoundedNesting(markdown: string): string {
  return markdown.replace(CONTAINER_MARKERS, (markers) => `${markers}\\`);
}

/** The structured document of GitBook-dialect Markdown (front matter already taken off). */
export function documentFromMarkdown(markdown: string, options: ReadOptions = {}): JSONDocument {
  try {
    const tree = markdownTree(markdown);
    const reader = new Reader(markdown, options);
    reader.collectDefinitions(tree);
    return { object: 'document', data: {}, nodes: reader.flow(tree.children, 'document') };
  } catch (error) {
    // Nesting deeper than a stack holds: the text as plain paragraphs.
    if (!(error instanceof RangeError)) throw error;
    return plainDocument(markdown);
  }
}

/** Markdown as its text, a paragraph per block of lines: what a body reads as when it cannot be read as structure. */
export function plainDocument(markdown: string): JSONDocument {
  return {
    object: 'document',
    data: {},
    nodes: markdown
      .split(/\n{2,}/)
      .filter((part) => part.trim())
      .map((part) => paragraph([text(part)])),
  };
}

/** Containers deeper than this are read as their text: far beyond real pages, well within the stack. */
const MAX_DEPTH = 48;
/** Marks deeper than this (`<kbd>` in `<kbd>` ... in bold) are read as their text. */
const MAX_MARKS = 16;

type Item = Mdast.RootContent | TagGroup | DetailsGroup;

interface TagGroup {
  type: 'tagGroup';
  tag: ParsedTag;
  open: LiquidTag;
  close?: LiquidTag;
  items: Item[];
}

interface DetailsGroup {
  type: 'detailsGroup';
  open: Mdast.Html;
  summary?: string;
  close?: Mdast.Html;
  items: Item[];
  defaultExpanded: boolean;
}

/** Tags that hold content up to their end tag (`{% hint %}` ... `{% endhint %}`). */
const CONTAINER_TAGS = new Set([
  'hint',
  'tabs',
  'tab',
  'code',
  'stepper',
  'step',
  'columns',
  'column',
  'embed',
  'file',
  'content-ref',
  'openapi-operation',
  'openapi',
  'swagger',
  'if',
  'updates',
  'update',
]);
/** Tags whose end is optional: without it they stand alone (`{% embed url="..." %}`). */
const OPTIONAL_END = new Set(['embed', 'file']);

const DETAILS_OPEN = /^<details(\s[^>]*)?>\s*(?:<summary>([\s\S]*?)<\/summary>)?$/i;
const DETAILS_WHOLE = /^<details(\s[^>]*)?>\s*<summary>([\s\S]*?)<\/summary>([\s\S]*)<\/details>$/i;
const SUMMARY = /^<summary>([\s\S]*?)<\/summary>$/i;
const DETAILS_CLOSE = /^<\/details>$/i;

const HINT_STYLES = new Set(['info', 'success', 'warning', 'danger']);

class Reader {
  private readonly definitions = new Map<string, string>();
  private depth = 0;

  constructor(
    private readonly source: string,
    private readonly options: ReadOptions,
  ) {}

  collectDefinitions(tree: Mdast.Root) {
    const pending: Mdast.Nodes[] = [tree];
    for (let node = pending.pop(); node; node = pending.pop()) {
      if (node.type === 'definition' && !this.definitions.has(node.identifier)) this.definitions.set(node.identifier, node.url);
      if ('children' in node) pushAll(pending, node.children as Mdast.Nodes[]);
    }
  }

  /** The text of a node as it was written. */
  private literal(node: { position?: { start: { offset?: number }; end: { offset?: number } } | undefined }): string {
    const { start, end } = node.position ?? {};
    return start?.offset !== undefined && end?.offset !== undefined ? this.source.slice(start.offset, end.offset) : '';
  }

  private literalBlock(value: string): Block {
    return paragraph([text(value.trim())]);
  }

  // Flow ------------------------------------------------------------------------------------------

  flow(nodes: Mdast.RootContent[], container: Container): Block[] {
    return this.items(group(nodes), container);
  }

  private items(items: Item[], container: Container): Block[] {
    if (this.depth >= MAX_DEPTH) return items.map((item) => this.literalBlock(this.literalOfItem(item))).filter((each) => textLength(each) > 0);
    this.depth++;
    try {
      return fitInto(
        items.flatMap((item) => this.item(item)),
        container,
      );
    } finally {
      this.depth--;
    }
  }

  private literalOfItem(item: Item): string {
    if (item.type === 'tagGroup') return [item.open.value, ...item.items.map((each) => this.literalOfItem(each)), item.close?.value ?? ''].join('\n');
    if (item.type === 'detailsGroup') return [item.open.value, ...item.items.map((each) => this.literalOfItem(each)), item.close?.value ?? ''].join('\n');
    return this.literal(item);
  }

  private item(item: Item): Block[] {
    switch (item.type) {
      case 'tagGroup':
        return this.tagGroup(item);
      case 'detailsGroup':
        return [this.expandable(item.summary ?? '', this.items(item.items, 'expandable-body'), item.defaultExpanded)];
      case 'heading':
        return [this.heading(item)];
      case 'paragraph':
        return [this.paragraph(item)];
      case 'list':
        return [this.list(item)];
      case 'blockquote':
        return [block('blockquote', {}, this.flow(item.children, 'blockquote'))];
      case 'code':
        return [codeBlock(item.value, codeData(item.lang, item.meta))];
      case 'math':
        return [voidBlock('math', { formula: item.value })];
      case 'thematicBreak':
        return [voidBlock('divider', {})];
      case 'table':
        return [this.gfmTable(item)];
      case 'html':
        return this.htmlBlock(item);
      case 'liquidTag':
        return this.voidTag(item);
      case 'definition':
        // Used by the links that name it; nothing of its own to show.
        return [];
      default:
        return [this.literalBlock(this.literal(item))];
    }
  }

  private heading(node: Mdast.Heading): Block {
    const level = Math.min(3, Math.max(1, node.depth - (this.options.headingOffset ?? 0)));
    const children = [...node.children];
    // GitBook writes a heading's own anchor after its text: `## Title <a href="#id" id="id"></a>`.
    let id: string | undefined;
    const [open, close] = children.slice(-2);
    const anchor = open?.type === 'html' ? /^<a href="#([-a-z0-9.+_]+)" id="\1">$/.exec(open.value) : null;
    if (anchor && close?.type === 'html' && close.value === '</a>') {
      id = anchor[1];
      children.splice(-2, 2);
    }
    return block(`heading-${level}`, id ? { id } : {}, trimInlines(this.inlines(children)));
  }

  private paragraph(node: Mdast.Paragraph): Block {
    const meaningful = node.children.filter((child) => !(child.type === 'text' && !child.value.trim()) && child.type !== 'break');
    if (meaningful.length && meaningful.every((child) => child.type === 'image')) {
      return block(
        'images',
        {},
        (meaningful as Mdast.Image[]).map((image) =>
          imageBlock({ ref: refOfHref(image.url), ...(image.alt ? { alt: image.alt } : {}) }, image.title ? [text(image.title)] : []),
        ),
      );
    }
    return paragraph(this.inlines(node.children));
  }

  private list(node: Mdast.List): Block {
    const tasks = node.children.some((item) => typeof item.checked === 'boolean');
    const type = tasks ? 'list-tasks' : node.ordered ? 'list-ordered' : 'list-unordered';
    const data = type === 'list-ordered' && typeof node.start === 'number' && node.start !== 1 ? { start: node.start } : {};
    return block(
      type,
      data,
      node.children.map((item) => {
        const content = this.flow(item.children, 'list-item');
        return block('list-item', tasks ? { checked: Boolean(item.checked) } : {}, content.length ? content : [paragraph([])]);
      }),
    );
  }

  private expandable(summaryHtml: string, body: Block[], defaultExpanded: boolean): Block {
    const title = parseHtml(summaryHtml);
    const titleInlines = title ? trimInlines(inlinesOfHtml(title.childNodes)) : [text(summaryHtml)];
    return {
      object: 'block',
      type: 'expandable',
      isVoid: true,
      data: defaultExpanded ? { defaultExpanded: true } : {},
      fragments: [
        fragment('expandable-title', [paragraph(titleInlines)], 'expandable-title'),
        fragment('expandable-body', body.length ? body : [paragraph([])], 'expandable-body'),
      ],
    };
  }

  // GitBook's tags --------------------------------------------------------------------------------

  private tagGroup(group: TagGroup): Block[] {
    const { tag, items } = group;
    const attributes = tag.attributes;
    switch (tag.name) {
      case 'hint':
        return [block('hint', { style: HINT_STYLES.has(attributes.style ?? '') ? attributes.style : 'info' }, this.nonEmpty(this.items(items, 'hint')))];
      case 'tabs':
        return [block('tabs', {}, this.tabs(items))];
      case 'stepper':
        return [
          block(
            'stepper',
            {},
            this.childrenOfTag(items, 'step', 'stepper-step', () => ({})),
          ),
        ];
      case 'columns':
        return [block('columns', {}, this.childrenOfTag(items, 'column', 'column', columnData))];
      case 'updates':
        return [
          block(
            'updates',
            { format: ['numeric', 'full', 'short'].includes(attributes.format ?? '') ? attributes.format : 'full' },
            this.childrenOfTag(items, 'update', 'update', (each) => ({ date: timestampOf(each.attributes.date) })),
          ),
        ];
      case 'if':
        return [block('if', { expression: ifExpression(group.open.value) }, this.nonEmpty(this.items(items, 'if')))];
      case 'code':
        return this.items(items, 'document').map((each) => (each.type === 'code' ? { ...each, data: { ...each.data, ...codeTagData(attributes) } } : each));
      case 'embed': {
        const embed = voidBlock('embed', { url: attributes.url ?? '', ...(attributes.fullWidth === 'true' ? { fullWidth: true } : {}) });
        // An embed has no caption in documents: what its tags hold follows it.
        return [embed, ...this.items(items, 'document')];
      }
      case 'file':
        return [voidBlock('file', { ref: refOfHref(attributes.src ?? '') }), ...this.items(items, 'document')];
      case 'content-ref':
        return [voidBlock('content-ref', { ref: refOfHref(attributes.url ?? '') })];
      case 'openapi-operation':
        return [
          voidBlock('openapi-operation', {
            ref: { kind: 'openapi', spec: attributes.spec ?? '' },
            path: attributes.path ?? '',
            method: attributes.method ?? '',
          }),
        ];
      case 'openapi':
      case 'swagger':
        if (attributes.src) {
          return [voidBlock('swagger', { ref: refOfHref(attributes.src), path: attributes.path ?? '', method: attributes.method ?? '' })];
        }
        return [this.literalBlock(this.literalOfItem(group))];
      default:
        // A tab, step or column outside its container: its content.
        return this.items(items, 'document');
    }
  }

  private nonEmpty(blocks: Block[]): Block[] {
    return blocks.length ? blocks : [paragraph([])];
  }

  /** The tabs of `{% tabs %}`: each `{% tab title %}`; anything between tabs goes into the tab before it. */
  private tabs(items: Item[]): Block[] {
    const tabs: Block[] = [];
    for (const item of items) {
      if (item.type === 'tagGroup' && item.tag.name === 'tab') {
        tabs.push(block('tabs-item', { title: item.tag.attributes.title ?? '' }, this.nonEmpty(this.items(item.items, 'tabs-item'))));
      } else {
        const content = this.items([item], 'tabs-item');
        if (!content.length) continue;
        const last = tabs.at(-1) ?? tabs[tabs.push(block('tabs-item', { title: '' }, [])) - 1]!;
        last.nodes = [...(last.nodes ?? []), ...content].filter((each) => !(each.object === 'block' && each.type === 'paragraph' && textLength(each) === 0));
      }
    }
    return tabs.length ? tabs : [block('tabs-item', { title: '' }, [paragraph([])])];
  }

  private childrenOfTag(
    items: Item[],
    tagName: string,
    type: 'stepper-step' | 'column' | 'update',
    dataOf: (tag: ParsedTag) => Record<string, unknown>,
  ): Block[] {
    const children: Block[] = [];
    for (const item of items) {
      if (item.type === 'tagGroup' && item.tag.name === tagName) {
        children.push(block(type, dataOf(item.tag), this.nonEmpty(this.items(item.items, type))));
      } else {
        const content = this.items([item], type);
        if (!content.length) continue;
        const last = children.at(-1) ?? children[children.push(block(type, {}, [])) - 1]!;
        last.nodes = [...(last.nodes ?? []), ...content];
      }
    }
    return children.length ? children : [block(type, {}, [paragraph([])])];
  }

  /** A tag standing alone: an embed or file without its end tag, an integration block (`{% @name/block ... %}`), or text. */
  private voidTag(node: LiquidTag): Block[] {
    const tag = parseTag(node.value);
    if (tag && OPTIONAL_END.has(tag.name)) return this.tagGroup({ type: 'tagGroup', tag, open: node, items: [] });
    if (tag?.name.startsWith('@') && tag.name.includes('/')) {
      const [integration, ...blockName] = tag.name.slice(1).split('/');
      return [voidBlock('integration', { integration, block: blockName.join('/'), props: tag.attributes })];
    }
    return [this.literalBlock(node.value)];
  }

  // HTML blocks -----------------------------------------------------------------------------------

  private htmlBlock(node: Mdast.Html): Block[] {
    const html = node.value.trim();
    const whole = DETAILS_WHOLE.exec(html);
    if (whole) {
      const body = this.nested(whole[3] ?? '');
      return [this.expandable(whole[2] ?? '', fitInto(body, 'expandable-body'), /\bopen\b/i.test(whole[1] ?? ''))];
    }
    const root = parseHtml(html);
    const elements = root ? elementsOf(root) : [];
    const only = root && elements.length === 1 && root.childNodes.every((child) => child === elements[0] || !child.text.trim()) ? elements[0]! : undefined;
    if (only) {
      const images = imagesOf(only);
      if (images) return [images];
      if (tagOf(only) === 'table') return [tableOfHtml(only)];
      if (tagOf(only) === 'p' || tagOf(only) === 'div') {
        const align = alignmentOf(only.getAttribute('align'));
        if (tagOf(only) === 'p') return [paragraph(trimInlines(inlinesOfHtml(only.childNodes)), align ? { align } : {})];
      }
    }
    return [this.literalBlock(node.value)];
  }

  /** Markdown inside HTML (the body of a `<details>` written without blank lines), read as blocks. */
  private nested(markdown: string): Block[] {
    if (this.depth >= MAX_DEPTH) return [this.literalBlock(markdown)];
    const reader = new Reader(markdown, this.options);
    reader.depth = this.depth + 1;
    let tree: Mdast.Root;
    try {
      tree = markdownTree(markdown);
    } catch (error) {
      if (error instanceof RangeError) return [this.literalBlock(markdown)];
      throw error;
    }
    reader.collectDefinitions(tree);
    for (const [key, value] of this.definitions) if (!reader.definitions.has(key)) reader.definitions.set(key, value);
    return reader.flow(tree.children, 'document');
  }

  // GFM tables ------------------------------------------------------------------------------------

  private gfmTable(node: Mdast.Table): Block {
    const [header, ...rows] = node.children;
    const titles = (header?.children ?? []).map((cell) => plainTextOfPhrasing(cell.children));
    const columns = titles.map((title, index) => ({ id: columnId(index), title, type: 'text', textAlignment: node.align?.[index] ?? 'left' }));
    const cells = rows.map((row) => columns.map((_, index) => [paragraph(trimInlines(this.inlines(row.children[index]?.children ?? [])))]));
    return tableBlock(columns, cells, { type: 'grid', hideHeader: false });
  }

  // Inlines ---------------------------------------------------------------------------------------

  inlines(nodes: Mdast.PhrasingContent[], marks: Mark[] = [], inLink = false): Array<Text | Inline> {
    // Marks nest a few deep in real text; past that, the text as written.
    if (marks.length > MAX_MARKS) return [text(nodes.map((node) => this.literal(node)).join(''), marks)];
    const result: Array<Text | Inline> = [];
    const closes = htmlPairs(nodes);
    for (let index = 0; index < nodes.length; index++) {
      const node = nodes[index]!;
      switch (node.type) {
        case 'text':
          pushAll(result, inLink || marks.some((each) => each.type === 'code') ? [text(node.value, marks)] : withEmoji(node.value, marks));
          break;
        case 'strong':
          pushAll(result, this.inlines(node.children, [...marks, mark('bold')], inLink));
          break;
        case 'emphasis':
          pushAll(result, this.inlines(node.children, [...marks, mark('italic')], inLink));
          break;
        case 'delete':
          pushAll(result, this.inlines(node.children, [...marks, mark('strikethrough')], inLink));
          break;
        case 'inlineCode':
          result.push(text(node.value, [...marks, mark('code')]));
          break;
        case 'break':
          result.push(text('\n', marks));
          break;
        case 'inlineMath':
          result.push(voidInline('inline-math', { formula: node.value }));
          break;
        case 'link':
          result.push(this.link(node.url, node.children, marks, inLink));
          break;
        case 'linkReference': {
          const url = this.definitions.get(node.identifier);
          if (url === undefined) result.push(text(this.literal(node), marks));
          else result.push(this.link(url, node.children, marks, inLink));
          break;
        }
        case 'image':
          result.push(
            voidInline('inline-image', { ref: refOfHref(node.url), ...(node.alt ? { alt: node.alt } : {}), ...(node.title ? { caption: node.title } : {}) }),
          );
          break;
        case 'imageReference': {
          const url = this.definitions.get(node.identifier);
          result.push(
            url === undefined ? text(this.literal(node), marks) : voidInline('inline-image', { ref: refOfHref(url), ...(node.alt ? { alt: node.alt } : {}) }),
          );
          break;
        }
        case 'html': {
          const consumed = this.inlineHtml(nodes, index, closes.get(index) ?? -1, marks, inLink, result);
          index += consumed;
          break;
        }
        default:
          result.push(text(this.literal(node), marks));
      }
    }
    return normalizeInlines(result);
  }

  private link(url: string, children: Mdast.PhrasingContent[], marks: Mark[], inLink: boolean): Text | Inline {
    const content = this.inlines(children, marks, true);
    if (inLink) return text(plainTextOfPhrasing(children), marks);
    return {
      object: 'inline',
      type: 'link',
      isVoid: false,
      data: { ref: refOfHref(url) },
      nodes: normalizeInlines(
        linkContent(content.length && !(content.length === 1 && content[0]!.object === 'text' && !content[0]!.leaves[0]!.text) ? content : [text(url, marks)]),
      ),
    };
  }

  /**
   * Inline HTML at `index`: a void element (`<br>`, `<img>`), or an element opened here and closed
   * further on (`<kbd>` ... `</kbd>`), read with what it holds. Returns how many nodes after `index`
   * it took; what it does not know is kept as text.
   */
  private inlineHtml(nodes: Mdast.PhrasingContent[], index: number, close: number, marks: Mark[], inLink: boolean, into: Array<Text | Inline>): number {
    const raw = (nodes[index] as Mdast.Html).value;
    const open = /^<([a-zA-Z][\w-]*)(\s[^>]*)?\/?>$/.exec(raw);
    const name = open?.[1]?.toLowerCase();
    if (name === 'br') {
      into.push(text('\n', marks));
      return 0;
    }
    if (name === 'img') {
      const element = parseHtml(raw);
      const image = element && elementsOf(element)[0] ? inlineImageOfElement(elementsOf(element)[0]!) : null;
      into.push(image ?? text(raw, marks));
      return 0;
    }
    if (!name || close < 0) {
      into.push(text(raw, marks));
      return 0;
    }
    const inner = nodes.slice(index + 1, close);
    const element = parseHtml(`${raw}</${name}>`);
    const shell = element ? elementsOf(element)[0] : undefined;
    const innerText = plainTextOfPhrasing(inner);
    const special = shell && !inLink ? (iconOfElement(shell) ?? buttonOf(shell, innerText)) : null;
    if (special) {
      into.push(special);
      return close - index;
    }
    const markOf = shell ? markOfElement(shell) : null;
    if (markOf) {
      pushAll(into, this.inlines(inner, [...marks, markOf], inLink));
      return close - index;
    }
    if (shell && name === 'a' && shell.getAttribute('href') !== undefined && !inLink) {
      into.push(this.link(shell.getAttribute('href')!, inner, marks, inLink));
      return close - index;
    }
    if (name === 'span') {
      pushAll(into, this.inlines(inner, marks, inLink));
      return close - index;
    }
    into.push(text(raw, marks));
    return 0;
  }
}

function buttonOf(shell: HTMLElement, label: string): Inline | null {
  const button = buttonOfElement(shell);
  return button ? { ...button, data: { ...button.data, label } } : null;
}

const HTML_OPEN = /^<([a-zA-Z][\w-]*)(?:\s[^>]*)?>$/;
const HTML_CLOSE = /^<\/([a-zA-Z][\w-]*)\s*>$/;

/** For each inline element opened in these nodes and closed among them, where it closes (one pass, nesting counted). */
function htmlPairs(nodes: Mdast.PhrasingContent[]): Map<number, number> {
  const pairs = new Map<number, number>();
  const open = new Map<string, number[]>();
  nodes.forEach((node, index) => {
    if (node.type !== 'html') return;
    const opening = HTML_OPEN.exec(node.value);
    if (opening) {
      const name = opening[1]!.toLowerCase();
      if (!open.has(name)) open.set(name, []);
      open.get(name)!.push(index);
      return;
    }
    const closing = HTML_CLOSE.exec(node.value);
    const waiting = closing ? open.get(closing[1]!.toLowerCase()) : undefined;
    const start = waiting?.pop();
    if (start !== undefined) pairs.set(start, index);
  });
  return pairs;
}

// Grouping tags and <details> into containers -------------------------------------------------------

interface Frame {
  group: TagGroup | DetailsGroup | null;
  items: Item[];
}

/**
 * Siblings with each opening tag matched to its end tag (the nearest open one of the same name):
 * what lies between goes into the tag's group. An opening tag never closed stands alone when its
 * end is optional (`{% embed %}`), and is text otherwise; an end tag with no opening one is text.
 */
function group(nodes: Mdast.RootContent[]): Item[] {
  nodes = nodes.flatMap((node) => (node.type === 'html' ? splitHtml(node) : [node]));
  const stack: Frame[] = [{ group: null, items: [] }];
  const top = () => stack.at(-1)!;
  const unwindTo = (length: number) => {
    while (stack.length > length) {
      const frame = stack.pop()!;
      const group = frame.group!;
      const parent = top();
      if (group.type === 'tagGroup' && OPTIONAL_END.has(group.tag.name)) parent.items.push(group.open, ...frame.items);
      else parent.items.push(literalNode(group.open), ...frame.items);
    }
  };
  for (const node of nodes) {
    if (node.type === 'liquidTag') {
      const tag = parseTag(node.value);
      if (tag?.name.startsWith('end') && CONTAINER_TAGS.has(tag.name.slice(3))) {
        const name = tag.name.slice(3);
        const at = stack.findLastIndex((frame) => frame.group?.type === 'tagGroup' && frame.group.tag.name === name);
        if (at > 0) {
          unwindTo(at + 1);
          const frame = stack.pop()!;
          const group = frame.group as TagGroup;
          group.close = node;
          group.items = frame.items;
          top().items.push(group);
        } else {
          top().items.push(literalNode(node));
        }
        continue;
      }
      if (tag && CONTAINER_TAGS.has(tag.name) && stack.length <= MAX_DEPTH) {
        stack.push({ group: { type: 'tagGroup', tag, open: node, items: [] }, items: [] });
        continue;
      }
      top().items.push(node);
      continue;
    }
    if (node.type === 'html') {
      const value = node.value.trim();
      const open = stack.length <= MAX_DEPTH ? DETAILS_OPEN.exec(value) : null;
      if (open) {
        stack.push({
          group: {
            type: 'detailsGroup',
            open: node,
            items: [],
            defaultExpanded: /\bopen\b/i.test(open[1] ?? ''),
            ...(open[2] !== undefined ? { summary: open[2] } : {}),
          },
          items: [],
        });
        continue;
      }
      const current = top().group;
      const summary = SUMMARY.exec(value);
      if (summary && current?.type === 'detailsGroup' && current.summary === undefined && !top().items.length) {
        current.summary = summary[1]!;
        continue;
      }
      if (DETAILS_CLOSE.test(value)) {
        const at = stack.findLastIndex((frame) => frame.group?.type === 'detailsGroup');
        if (at > 0) {
          unwindTo(at + 1);
          const frame = stack.pop()!;
          const group = frame.group as DetailsGroup;
          group.close = node;
          group.items = frame.items;
          top().items.push(group);
          continue;
        }
      }
    }
    top().items.push(node);
  }
  unwindTo(1);
  return stack[0]!.items;
}

const TAG_LINE = /^\{%.*%\}[ \t]*$/;
const DETAILS_LINE = /^<\/?details(\s[^>]*)?>[ \t]*$|^<summary>.*<\/summary>[ \t]*$/i;

/**
 * An HTML block runs until a blank line, so a tag line or a `</details>` right under HTML (GitBook
 * writes `{% endstep %}` under a figure) is inside it: such lines are taken out as nodes of their own.
 */
function splitHtml(node: Mdast.Html): Mdast.RootContent[] {
  const byTags = splitLines(node, TAG_LINE, (line) => ({ type: 'liquidTag', value: line.trimEnd(), ...(node.position ? { position: node.position } : {}) }));
  // A whole `<details>...</details>` stays one (its body is read as Markdown); otherwise its lines are taken apart.
  return byTags.flatMap((part) =>
    part.type === 'html' && !DETAILS_WHOLE.test(part.value.trim()) ? splitLines(part, DETAILS_LINE, (line) => ({ ...part, value: line.trim() })) : [part],
  );
}

function splitLines(node: Mdast.Html, apart: RegExp, nodeOf: (line: string) => Mdast.RootContent): Mdast.RootContent[] {
  const lines = node.value.split('\n');
  if (lines.length < 2 || !lines.some((line) => apart.test(line))) return [node];
  const parts: Mdast.RootContent[] = [];
  let html: string[] = [];
  const flush = () => {
    if (html.some((line) => line.trim())) parts.push({ ...node, value: html.join('\n') });
    html = [];
  };
  for (const line of lines) {
    if (apart.test(line)) {
      flush();
      parts.push(nodeOf(line));
    } else html.push(line);
  }
  flush();
  return parts;
}

/** A tag or HTML line that turned out to be text: a paragraph of it, as written. */
function literalNode(node: LiquidTag | Mdast.Html): Mdast.Paragraph {
  return { type: 'paragraph', children: [{ type: 'text', value: node.value }], ...(node.position ? { position: node.position } : {}) };
}

// Pieces ------------------------------------------------------------------------------------------

const EMOJI = emojiRegex();
/** An emoji shown as one (with its presentation selector, or an emoji by default), not text such as the copyright or trade mark signs. */
const PICTURE_EMOJI = /\p{Emoji_Presentation}|\uFE0F|\u200D|[\u{1F1E6}-\u{1F1FF}]/u;

function withEmoji(value: string, marks: Mark[]): Array<Text | Inline> {
  // Every emoji kept holds one of PICTURE_EMOJI's characters: without one, the (slow) full pattern has nothing to find.
  if (!PICTURE_EMOJI.test(value)) return value ? [text(value, marks)] : [];
  const result: Array<Text | Inline> = [];
  let last = 0;
  for (const match of value.matchAll(EMOJI)) {
    if (!PICTURE_EMOJI.test(match[0])) continue;
    if (match.index > last) result.push(text(value.slice(last, match.index), marks));
    result.push(voidInline('emoji', { code: emojiCode(match[0]) }));
    last = match.index + match[0].length;
  }
  if (last < value.length) result.push(text(value.slice(last), marks));
  return result;
}

function plainTextOfPhrasing(nodes: Mdast.PhrasingContent[]): string {
  return nodes
    .map((node) => {
      if (node.type === 'text' || node.type === 'inlineCode' || node.type === 'inlineMath') return node.value;
      if (node.type === 'break') return '\n';
      if (node.type === 'image') return node.alt ?? '';
      if ('children' in node) return plainTextOfPhrasing(node.children as Mdast.PhrasingContent[]);
      return '';
    })
    .join('');
}

function textLength(node: Block | Inline | Text): number {
  if (node.object === 'text') return node.leaves.reduce((sum, leaf) => sum + leaf.text.length, 0);
  if (node.object === 'inline' || node.isVoid) return 1;
  return (node.nodes ?? []).reduce((sum, child) => sum + textLength(child as Block), 0);
}

export function codeBlock(value: string, data: Record<string, unknown>): Block {
  return block(
    'code',
    data,
    value.split('\n').map((line) => block('code-line', {}, [text(line)])),
  );
}

/** A fenced block's info string: its syntax, and attributes other dialects write after it (`js title="app.js"`). */
function codeData(lang: string | null | undefined, meta: string | null | undefined): Record<string, unknown> {
  const data: Record<string, unknown> = lang ? { syntax: lang } : {};
  if (meta) {
    const parsed = parseTag(`{% code ${meta} %}`);
    if (parsed) Object.assign(data, codeTagData(parsed.attributes));
  }
  return data;
}

function codeTagData(attributes: Record<string, string>): Record<string, unknown> {
  return {
    ...(attributes.title ? { title: attributes.title } : {}),
    ...(attributes.overflow === 'wrap' || attributes.overflow === 'scroll' ? { overflow: attributes.overflow } : {}),
    ...(attributes.lineNumbers ? { lineNumbers: attributes.lineNumbers === 'true' } : {}),
    ...(attributes.fullWidth ? { fullWidth: attributes.fullWidth === 'true' } : {}),
    ...(attributes.expandable ? { expandable: attributes.expandable === 'true' } : {}),
  };
}

function columnData(tag: ParsedTag): Record<string, unknown> {
  const width = /^(\d+(?:\.\d+)?)(%|px)?$/.exec(tag.attributes.width ?? '');
  const valign = tag.attributes.valign;
  return {
    ...(width ? { width: width[2] ? { unit: width[2], value: Number(width[1]) } : Number(width[1]) } : {}),
    ...(valign === 'top' || valign === 'middle' || valign === 'bottom' ? { verticalAlignment: valign } : {}),
  };
}

/** An update's date as the official Timestamp: `2026-11-28` is that day's midnight, UTC. */
function timestampOf(value: string | undefined): string {
  const time = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value ?? '') ? `${value}T00:00:00Z` : (value ?? ''));
  return Number.isNaN(time) ? new Date(0).toISOString() : new Date(time).toISOString();
}

/** The expression of `{% if visitor.claims.plan == "pro" %}`: everything after `if`, as written. */
function ifExpression(line: string): string {
  return line.replace(/^\{%\s*if\s*/, '').replace(/\s*%\}$/, '');
}

function alignmentOf(value: string | undefined): string | undefined {
  return value === 'center' ? 'center' : value === 'right' ? 'end' : value === 'left' ? 'start' : undefined;
}

/** An image of an images block, with its caption when it has one. */
export function imageBlock(data: Record<string, unknown>, caption: Array<Text | Inline>): Block {
  const captionNodes = normalizeInlines(caption);
  const hasCaption = captionNodes.length > 1 || captionNodes[0]?.object !== 'text' || captionNodes[0].leaves[0]!.text !== '';
  return voidBlock('image', data, hasCaption ? [fragment('caption', [paragraph(captionNodes)])] : []);
}

/** Figures (`<figure><img><figcaption>`, `<picture>` with a dark variant, in an aligning `<div>`), or a lone `<img>`, as an images block. */
function imagesOf(element: HTMLElement): Block | null {
  const tag = tagOf(element);
  let figures: HTMLElement[];
  let container: HTMLElement | undefined;
  if (tag === 'figure' || tag === 'img' || tag === 'picture') figures = [element];
  else if (tag === 'div' && elementsOf(element).length && elementsOf(element).every((child) => ['figure', 'img', 'picture'].includes(tagOf(child)))) {
    figures = elementsOf(element);
    container = element;
  } else return null;
  const images: Block[] = [];
  for (const figure of figures) {
    const image = imageOfFigure(figure);
    if (!image) return null;
    images.push(image);
  }
  const align = container?.getAttribute('align');
  return block(
    'images',
    {
      ...(align === 'left' || align === 'right' || align === 'center' ? { align } : {}),
      ...(container?.getAttribute('data-full-width') === 'true' ? { fullWidth: true } : {}),
    },
    images,
  );
}

function imageOfFigure(figure: HTMLElement): Block | null {
  const img = tagOf(figure) === 'img' ? figure : figure.querySelector('img');
  const src = img?.getAttribute('src');
  if (!img || !src) return null;
  const dark = figure.querySelectorAll('source').find((source) => /prefers-color-scheme:\s*dark/.test(source.getAttribute('media') ?? ''));
  const darkSrc = dark?.getAttribute('srcset')?.trim();
  const caption = figure.querySelector('figcaption');
  const alt = img.getAttribute('alt');
  return imageBlock(
    {
      ref: refOfHref(src),
      ...(darkSrc ? { refDark: refOfHref(darkSrc) } : {}),
      ...(alt ? { alt } : {}),
      ...lengthAttribute('width', img.getAttribute('width')),
      ...lengthAttribute('height', img.getAttribute('height')),
    },
    caption ? trimInlines(inlinesOfHtml(caption.childNodes)) : [],
  );
}

function lengthAttribute(name: string, value: string | undefined): Record<string, unknown> {
  const match = /^(\d+(?:\.\d+)?)(%|px)?$/.exec(value?.trim() ?? '');
  if (!match) return {};
  return { [name]: match[2] === '%' ? { unit: '%', value: Number(match[1]) } : Number(match[1]) };
}

// Tables ------------------------------------------------------------------------------------------

export interface ColumnDefinition {
  id: string;
  title: string;
  type: string;
  textAlignment?: string;
  max?: number;
}

/** Column, record and fragment ids follow positions, so that the same table always reads the same. */
export const columnId = (index: number) => `c${index + 1}`;
const recordIds = (count: number) => Array.from({ length: count }, (_, index) => `r${index + 1}`);

/** A table block: its columns, and each row's cell values (blocks for text cells, values for the others). */
export function tableBlock(columns: ColumnDefinition[], rows: unknown[][], view: Record<string, unknown>, extra: Record<string, unknown> = {}): Block {
  const ids = recordIds(rows.length);
  const orderIndexes = generateNKeysBetween(null, null, rows.length);
  const fragments: Fragment[] = [];
  const records: Record<string, { orderIndex: string; values: Record<string, unknown> }> = {};
  rows.forEach((row, rowIndex) => {
    const values: Record<string, unknown> = {};
    columns.forEach((column, columnIndex) => {
      const value = row[columnIndex];
      if (column.type === 'text') {
        const name = `${ids[rowIndex]}-${column.id}`;
        fragments.push(fragment(name, (value as Block[] | undefined)?.length ? (value as Block[]) : [paragraph([])]));
        values[column.id] = name;
      } else if (value !== undefined) values[column.id] = value;
    });
    records[ids[rowIndex]!] = { orderIndex: orderIndexes[rowIndex]!, values };
  });
  const definition = Object.fromEntries(columns.map((column) => [column.id, column]));
  return voidBlock('table', { view: { ...view, columns: view.columns ?? columns.map((column) => column.id) }, records, definition, ...extra }, fragments);
}

const TABLE_TYPES = new Set(['text', 'number', 'checkbox', 'files', 'content-ref', 'rating', 'image']);

/** An HTML table as GitBook writes one (`data-view="cards"`, column types, hidden columns, widths). */
function tableOfHtml(table: HTMLElement): Block {
  const headerCells = table.querySelectorAll('thead th');
  const bodyRows = table.querySelectorAll('tbody tr');
  const rows = bodyRows.length ? bodyRows : table.querySelectorAll('tr').slice(headerCells.length ? 1 : 0);
  const hidden: string[] = [];
  const widths: Record<string, number> = {};
  let target: string | undefined;
  let cover: string | undefined;
  const columns = (headerCells.length ? headerCells : (rows[0]?.querySelectorAll('td') ?? [])).map((cell, index) => {
    const id = columnId(index);
    const declared = cell.getAttribute('data-type') ?? 'text';
    const type = TABLE_TYPES.has(declared) ? declared : 'text';
    if (cell.hasAttribute('data-hidden')) hidden.push(id);
    if (cell.hasAttribute('data-card-target')) target = id;
    if (cell.hasAttribute('data-card-cover')) cover = id;
    const width = Number.parseFloat(cell.getAttribute('width') ?? '');
    if (Number.isFinite(width)) widths[id] = width;
    const align = alignmentOf(cell.getAttribute('align'));
    return {
      id,
      title: headerCells.length ? cell.text.trim() : '',
      type,
      ...(type === 'text' ? { textAlignment: align === 'center' ? 'center' : align === 'end' ? 'right' : 'left' } : {}),
      ...(type === 'rating' ? { max: Number(cell.getAttribute('data-max') ?? 5) || 5 } : {}),
    };
  });
  const values = rows.map((row) => columns.map((column, index) => cellValue(column.type, row.querySelectorAll('td')[index])));
  const visible = columns.map((column) => column.id).filter((id) => !hidden.includes(id));
  const cards = table.getAttribute('data-view') === 'cards';
  const view = cards
    ? {
        type: 'cards',
        columns: visible,
        cardSize: table.getAttribute('data-card-size') === 'large' ? 'large' : 'medium',
        ...(target ? { targetDefinition: target } : {}),
        ...(cover ? { coverDefinition: cover } : {}),
      }
    : {
        type: 'grid',
        columns: visible,
        hideHeader: table.hasAttribute('data-header-hidden') || !headerCells.length,
        ...(Object.keys(widths).length ? { columnWidths: widths } : {}),
      };
  return tableBlock(columns, values, view, table.getAttribute('data-full-width') === 'true' ? { fullWidth: true } : {});
}

function cellValue(type: string, cell: HTMLElement | undefined): unknown {
  if (!cell) return type === 'text' ? [] : undefined;
  const content = cell.text.trim();
  switch (type) {
    case 'number':
    case 'rating': {
      const number = Number(content);
      return content && Number.isFinite(number) ? number : undefined;
    }
    case 'checkbox':
      return content === 'true' ? true : content === 'false' ? false : undefined;
    case 'content-ref':
    case 'image': {
      const href = cell.querySelector('a')?.getAttribute('href') ?? cell.querySelector('img')?.getAttribute('src');
      return href ? refOfHref(href) : undefined;
    }
    case 'files':
      // File ids; a path stays as written until the revision resolves it (./references.ts).
      return cell
        .querySelectorAll('a')
        .map((link) => link.getAttribute('href') ?? '')
        .filter(Boolean)
        .map((href) => {
          const ref = refOfHref(href);
          return ref.kind === 'file' ? String(ref.file) : href;
        });
    default:
      return blocksOfHtml(cell.childNodes);
  }
}
