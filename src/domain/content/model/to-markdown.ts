import type * as Mdast from 'mdast';
import { gfmStrikethroughToMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableToMarkdown } from 'mdast-util-gfm-table';
import { gfmTaskListItemToMarkdown } from 'mdast-util-gfm-task-list-item';
import { mathToMarkdown } from 'mdast-util-math';
import { type Handle, type Options as ToMarkdownOptions, type Unsafe, defaultHandlers, toMarkdown } from 'mdast-util-to-markdown';
import { HTML_MARKS, blocksToHtml, escapeAttribute, escapeHtml, imgTag, inlineFallbackText, inlinesToHtml, styleOfColorMark } from './html.ts';
import { type LiquidTag, liquidTagToMarkdown, tagLine } from './liquid-tags.ts';
import { type Block, type Fragment, type Inline, type JSONDocument, type Mark, type Ref, type Text, emojiCharacter } from './nodes.ts';
import { hrefOfRef } from './references.ts';
import { pushAll } from '../../../lib/arrays.ts';

/**
 * A structured document written as GitBook's Markdown dialect: the document
 * becomes a Markdown syntax tree - with GitBook's tags around containers and
 * its HTML for figures, HTML tables and the marks Markdown lacks - and
 * mdast-util-to-markdown writes it (escaping, fences and list markers as
 * GitBook writes them: `*` bullets, `_` emphasis, `***` dividers). Reading
 * what is written gives the document back (./from-markdown.ts).
 */

export interface WriteOptions {
  /** As ReadOptions.headingOffset: 1 writes heading-1 as `##` (a page file in a Git repository). */
  headingOffset?: number;
  /** How a reference is written: by id by default (`/pages/<id>`); a Git export writes relative paths. */
  hrefOf?: (ref: Ref) => string;
}

/** A tag pair around blocks (`{% hint %}` ... `{% endhint %}`, `<details>` ... `</details>`). */
interface Container extends Mdast.Parent {
  type: 'gitbookContainer';
  open: string;
  close: string;
  /** Blank lines inside the tags, as `<details>` needs around Markdown in HTML. */
  blankInside: boolean;
  children: Mdast.BlockContent[];
}

declare module 'mdast' {
  interface RootContentMap {
    gitbookContainer: Container;
  }
  interface BlockContentMap {
    gitbookContainer: Container;
  }
}

/**
 * Text as mdast-util-to-markdown writes it, without its escaping pass when the text holds none of
 * the characters its unsafe patterns (extensions' included) escape, nor a backslash: then that pass
 * (every pattern's expression run over the text, most of a long document's writing) returns the
 * text as it is.
 */
const unsafeCharacters = new WeakMap<Unsafe[], RegExp>();
const text: Handle = (node: Mdast.Text, parent, state, info) => {
  let unsafe = unsafeCharacters.get(state.unsafe);
  if (!unsafe) {
    const characters = new Set(['\\', ...state.unsafe.map((pattern) => pattern.character)]);
    unsafe = new RegExp(`[${[...characters].map((character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}]`);
    unsafeCharacters.set(state.unsafe, unsafe);
  }
  return unsafe.test(node.value) ? defaultHandlers.text(node, parent, state, info) : node.value;
};

/** Blocks after which an end tag may follow on the next line; others (HTML, tables) need a blank line before it. */
const TIGHT_BEFORE_END = new Set(['paragraph', 'heading', 'code', 'math', 'list', 'thematicBreak', 'liquidTag', 'gitbookContainer', 'blockquote']);

const container: Handle = (node: Container, _parent, state, info) => {
  const inner = state.containerFlow(node, info);
  if (!inner) return `${node.open}\n${node.close}`;
  const last = node.children.at(-1)?.type ?? '';
  const before = node.blankInside ? '\n\n' : '\n';
  const after = node.blankInside || !TIGHT_BEFORE_END.has(last) ? '\n\n' : '\n';
  return `${node.open}${before}${inner}${after}${node.close}`;
};

const OPTIONS: ToMarkdownOptions = {
  bullet: '*',
  bulletOther: '-',
  emphasis: '_',
  strong: '*',
  rule: '*',
  ruleRepetition: 3,
  ruleSpaces: false,
  fence: '`',
  fences: true,
  listItemIndent: 'one',
  incrementListMarker: true,
  resourceLink: true,
  extensions: [
    gfmTableToMarkdown(),
    gfmTaskListItemToMarkdown(),
    gfmStrikethroughToMarkdown(),
    mathToMarkdown({ singleDollarTextMath: false }),
    liquidTagToMarkdown(),
    { handlers: { gitbookContainer: container, text } },
  ],
};

/** A document written as Markdown (ending with a newline; "" for an empty document). */
export function markdownFromDocument(document: JSONDocument, options: WriteOptions = {}): string {
  const writer = new Writer(options);
  const root: Mdast.Root = { type: 'root', children: writer.blocks(document.nodes) };
  if (!root.children.length) return '';
  return toMarkdown(root, OPTIONS);
}

const tag = (value: string): LiquidTag => ({ type: 'liquidTag', value });
const html = (value: string): Mdast.Html => ({ type: 'html', value });
const wrap = (open: string, close: string, children: Mdast.BlockContent[], blankInside = false): Container => ({
  type: 'gitbookContainer',
  open,
  close,
  blankInside,
  children,
});

const childBlocks = (node: Block) => (node.nodes ?? []) as Block[];
const inlineNodes = (node: Block | Inline) => (node.nodes ?? []) as Array<Text | Inline>;
const fragmentNodes = (node: Block, name: string): Block[] => node.fragments?.find((each: Fragment) => each.fragment === name)?.nodes ?? [];

class Writer {
  private readonly hrefOf: (ref: unknown) => string;

  constructor(private readonly options: WriteOptions) {
    const hrefOf = options.hrefOf ?? hrefOfRef;
    this.hrefOf = (ref) => (ref && typeof ref === 'object' ? hrefOf(ref as Ref) : '');
  }

  blocks(nodes: Block[]): Mdast.BlockContent[] {
    return nodes.flatMap((node) => this.block(node));
  }

  private block(node: Block): Mdast.BlockContent[] {
    const data = node.data ?? {};
    switch (node.type) {
      case 'paragraph':
        if (data.align === 'center' || data.align === 'end') {
          const align = data.align === 'center' ? 'center' : 'right';
          return [html(`<p align="${align}">${inlinesToHtml(inlineNodes(node), this.hrefOf)}</p>`)];
        }
        return [{ type: 'paragraph', children: this.inlines(inlineNodes(node)) }];
      case 'heading-1':
      case 'heading-2':
      case 'heading-3': {
        const depth = Math.min(6, Number(node.type.at(-1)) + (this.options.headingOffset ?? 0)) as Mdast.Heading['depth'];
        const children = this.inlines(inlineNodes(node));
        if (typeof data.id === 'string' && data.id) children.push({ type: 'text', value: ' ' }, html(`<a href="#${data.id}" id="${data.id}">`), html('</a>'));
        return [{ type: 'heading', depth, children }];
      }
      case 'list-ordered':
      case 'list-unordered':
      case 'list-tasks':
        return [this.list(node)];
      case 'blockquote':
        return [{ type: 'blockquote', children: this.blocks(childBlocks(node)) }];
      case 'divider':
        return [{ type: 'thematicBreak' }];
      case 'code':
        return [this.code(node)];
      case 'math':
        return [{ type: 'math', value: String(data.formula ?? '') }];
      case 'hint':
        return [wrap(tagLine('hint', { style: String(data.style ?? 'info') }), tagLine('endhint'), this.blocks(childBlocks(node)))];
      case 'tabs':
        return [
          wrap(
            tagLine('tabs'),
            tagLine('endtabs'),
            childBlocks(node).map((tab) => wrap(tagLine('tab', { title: String(tab.data?.title ?? '') }), tagLine('endtab'), this.blocks(childBlocks(tab)))),
          ),
        ];
      case 'stepper':
        return [
          wrap(
            tagLine('stepper'),
            tagLine('endstepper'),
            childBlocks(node).map((step) => wrap(tagLine('step'), tagLine('endstep'), this.blocks(childBlocks(step)))),
          ),
        ];
      case 'columns':
        return [
          wrap(
            tagLine('columns'),
            tagLine('endcolumns'),
            childBlocks(node).map((column) =>
              wrap(tagLine('column', columnAttributes(column.data ?? {})), tagLine('endcolumn'), this.blocks(childBlocks(column))),
            ),
          ),
        ];
      case 'updates':
        return [
          wrap(
            tagLine('updates', { format: String(data.format ?? 'full') }),
            tagLine('endupdates'),
            childBlocks(node).map((update) =>
              wrap(tagLine('update', { date: dateOf(update.data?.date) }), tagLine('endupdate'), this.blocks(childBlocks(update))),
            ),
          ),
        ];
      case 'if':
        return [wrap(`{% if ${String(data.expression ?? '')} %}`, tagLine('endif'), this.blocks(childBlocks(node)))];
      case 'expandable': {
        const title = fragmentNodes(node, 'expandable-title')[0];
        const summary = title ? inlinesToHtml(inlineNodes(title), this.hrefOf) : '';
        const open = `<details${data.defaultExpanded ? ' open' : ''}>\n\n<summary>${summary}</summary>`;
        return [wrap(open, '</details>', this.blocks(fragmentNodes(node, 'expandable-body')), true)];
      }
      case 'images':
        return [html(this.images(node))];
      case 'file':
        return [tag(tagLine('file', { src: this.hrefOf(data.ref) }))];
      case 'embed':
        return [tag(tagLine('embed', { url: String(data.url ?? ''), ...(data.fullWidth ? { fullWidth: 'true' } : {}) }))];
      case 'content-ref': {
        const href = this.hrefOf(data.ref);
        // As GitBook writes it: a link to the same target, named by its last segment.
        const name = href.split('#')[0]!.split('/').filter(Boolean).at(-1) ?? href;
        return [
          wrap(tagLine('content-ref', { url: href }), tagLine('endcontent-ref'), [
            { type: 'paragraph', children: [{ type: 'link', url: href, children: [{ type: 'text', value: name }] }] },
          ]),
        ];
      }
      case 'openapi-operation': {
        const spec = String((data.ref as { spec?: string } | undefined)?.spec ?? '');
        return [
          wrap(tagLine('openapi-operation', { spec, path: String(data.path ?? ''), method: String(data.method ?? '') }), tagLine('endopenapi-operation'), []),
        ];
      }
      case 'swagger': {
        const href = this.hrefOf(data.ref);
        return [
          wrap(tagLine('openapi', { src: href, path: String(data.path ?? ''), method: String(data.method ?? '') }), tagLine('endopenapi'), [
            { type: 'paragraph', children: [{ type: 'link', url: href, children: [{ type: 'text', value: href }] }] },
          ]),
        ];
      }
      case 'integration': {
        const props = Object.fromEntries(
          Object.entries((data.props ?? {}) as Record<string, unknown>).map(([key, value]) => [
            key,
            typeof value === 'object' ? JSON.stringify(value) : String(value),
          ]),
        );
        return [tag(tagLine(`@${String(data.integration)}/${String(data.block)}`, props))];
      }
      case 'table':
        return [this.table(node)];
      default:
        // Blocks the dialect has no notation for are refused as input (./document-input.ts); read ones are text.
        return [{ type: 'paragraph', children: [{ type: 'text', value: plainText(node) }] }];
    }
  }

  private list(node: Block): Mdast.List {
    const data = node.data ?? {};
    return {
      type: 'list',
      ordered: node.type === 'list-ordered',
      ...(node.type === 'list-ordered' ? { start: typeof data.start === 'number' ? data.start : 1 } : {}),
      spread: false,
      children: childBlocks(node).map((item) => ({
        type: 'listItem',
        spread: false,
        ...(node.type === 'list-tasks' ? { checked: Boolean(item.data?.checked) } : {}),
        children: this.blocks(childBlocks(item)),
      })),
    };
  }

  private code(node: Block): Mdast.BlockContent {
    const data = node.data ?? {};
    const value = childBlocks(node)
      .map((line) => inlineNodes(line).map(plainText).join(''))
      .join('\n');
    const code: Mdast.Code = { type: 'code', lang: typeof data.syntax === 'string' && data.syntax ? data.syntax : null, value };
    const attributes = {
      ...(data.title ? { title: String(data.title) } : {}),
      ...(data.overflow ? { overflow: String(data.overflow) } : {}),
      ...(typeof data.lineNumbers === 'boolean' ? { lineNumbers: String(data.lineNumbers) } : {}),
      ...(typeof data.fullWidth === 'boolean' ? { fullWidth: String(data.fullWidth) } : {}),
      ...(typeof data.expandable === 'boolean' ? { expandable: String(data.expandable) } : {}),
    };
    return Object.keys(attributes).length ? wrap(tagLine('code', attributes), tagLine('endcode'), [code]) : code;
  }

  private images(node: Block): string {
    const data = node.data ?? {};
    const figures = childBlocks(node).map((image) => {
      const imageData = image.data ?? {};
      const img = imgTag(this.hrefOf(imageData.ref), imageData);
      const picture = imageData.refDark
        ? `<picture><source srcset="${escapeAttribute(this.hrefOf(imageData.refDark))}" media="(prefers-color-scheme: dark)">${img}</picture>`
        : img;
      const caption = fragmentNodes(image, 'caption')[0];
      const captionHtml = caption ? `<p>${inlinesToHtml(inlineNodes(caption), this.hrefOf)}</p>` : '';
      return `<figure>${picture}<figcaption>${captionHtml}</figcaption></figure>`;
    });
    const attributes = [...(data.align ? [`align="${escapeAttribute(String(data.align))}"`] : []), ...(data.fullWidth ? ['data-full-width="true"'] : [])];
    if (figures.length === 1 && !attributes.length) return figures[0]!;
    return `<div${attributes.length ? ` ${attributes.join(' ')}` : ''}>${figures.join('')}</div>`;
  }

  // Tables ----------------------------------------------------------------------------------------

  private table(node: Block): Mdast.BlockContent {
    const data = (node.data ?? {}) as {
      view?: Record<string, unknown> & { columns?: string[] };
      definition?: Record<string, { id?: string; title?: string; type?: string; textAlignment?: string; max?: number }>;
      records?: Record<string, { orderIndex: string; values: Record<string, unknown> }>;
      fullWidth?: boolean;
    };
    const definition = data.definition ?? {};
    const view = data.view ?? {};
    const visible = (view.columns ?? Object.keys(definition)).filter((id) => definition[id]);
    const columns = [...visible, ...Object.keys(definition).filter((id) => !visible.includes(id))];
    const records = Object.values(data.records ?? {}).sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0));
    const fragments = new Map((node.fragments ?? []).map((each) => [each.fragment, each.nodes]));
    const cellBlocks = (value: unknown) => (typeof value === 'string' ? (fragments.get(value) ?? []) : []);
    const simple =
      view.type === 'grid' &&
      !view.hideHeader &&
      !view.columnWidths &&
      !data.fullWidth &&
      columns.length > 0 &&
      columns.length === visible.length &&
      columns.every((id) => definition[id]!.type === 'text') &&
      records.every((record) => columns.every((id) => isSimpleCell(cellBlocks(record.values[id]))));
    if (simple) {
      const alignment = (id: string) => {
        const value = definition[id]!.textAlignment;
        return value === 'center' || value === 'right' ? value : 'left';
      };
      return {
        type: 'table',
        align: columns.map((id) => (definition[id]!.textAlignment ? alignment(id) : null)),
        children: [
          { type: 'tableRow', children: columns.map((id) => ({ type: 'tableCell', children: [{ type: 'text', value: definition[id]!.title ?? '' }] })) },
          ...records.map(
            (record): Mdast.TableRow => ({
              type: 'tableRow',
              children: columns.map((id) => {
                const [cell] = cellBlocks(record.values[id]);
                return { type: 'tableCell', children: cell ? this.inlines(inlineNodes(cell)) : [] };
              }),
            }),
          ),
        ],
      };
    }
    const hidden = new Set(columns.filter((id) => !visible.includes(id)));
    const widths = (view.columnWidths ?? {}) as Record<string, number>;
    const tableAttributes = [
      ...(view.type === 'cards' ? ['data-view="cards"'] : []),
      ...(view.type === 'cards' && view.cardSize === 'large' ? ['data-card-size="large"'] : []),
      ...(data.fullWidth ? ['data-full-width="true"'] : []),
      ...(view.type !== 'cards' && view.hideHeader ? ['data-header-hidden'] : []),
    ];
    const header = columns
      .map((id) => {
        const column = definition[id]!;
        const attributes = [
          ...(hidden.has(id) ? ['data-hidden'] : []),
          ...(view.targetDefinition === id ? ['data-card-target'] : []),
          ...(view.coverDefinition === id ? ['data-card-cover'] : []),
          ...(column.type && column.type !== 'text' ? [`data-type="${escapeAttribute(column.type)}"`] : []),
          ...(column.type === 'rating' ? [`data-max="${Number(column.max ?? 5)}"`] : []),
          ...(typeof widths[id] === 'number' ? [`width="${widths[id]}"`] : []),
          ...(column.textAlignment === 'center' || column.textAlignment === 'right' ? [`align="${column.textAlignment}"`] : []),
        ];
        return `<th${attributes.length ? ` ${attributes.join(' ')}` : ''}>${escapeHtml(column.title ?? '')}</th>`;
      })
      .join('');
    const body = records
      .map((record) => `<tr>${columns.map((id) => `<td>${this.cellHtml(definition[id]!.type ?? 'text', record.values[id], cellBlocks)}</td>`).join('')}</tr>`)
      .join('');
    return html(`<table${tableAttributes.length ? ` ${tableAttributes.join(' ')}` : ''}><thead><tr>${header}</tr></thead><tbody>${body}</tbody></table>`);
  }

  private cellHtml(type: string, value: unknown, cellBlocks: (value: unknown) => Block[]): string {
    if (value === undefined || value === null) return '';
    switch (type) {
      case 'text':
        return blocksToHtml(cellBlocks(value), this.hrefOf);
      case 'files':
        return (Array.isArray(value) ? value : [])
          .map((file) => {
            // A file id, or a path the revision did not resolve (kept as written).
            const href = /[/.]/.test(String(file)) ? String(file) : this.hrefOf({ kind: 'file', file: String(file) });
            return `<a href="${escapeAttribute(href)}">${escapeHtml(String(file).split('/').at(-1) ?? '')}</a>`;
          })
          .join('');
      case 'content-ref':
      case 'image': {
        const ref = value && typeof value === 'object' && 'ref' in value ? (value as { ref: unknown }).ref : value;
        const href = this.hrefOf(ref);
        return `<a href="${escapeAttribute(href)}">${escapeHtml(href)}</a>`;
      }
      default:
        return escapeHtml(String(value));
    }
  }

  // Inlines ---------------------------------------------------------------------------------------

  /**
   * Inlines as phrasing content. Marks become nested nodes, the mark that runs longest outermost
   * (so `**a _b_ c**` stays one strong node), code innermost (Markdown cannot nest in code).
   */
  inlines(nodes: Array<Text | Inline>): Mdast.PhrasingContent[] {
    const pieces: Piece[] = [];
    nodes.forEach((node, index) => {
      if (node.object === 'text') {
        for (const leaf of node.leaves) if (leaf.text) pieces.push({ marks: leaf.marks, text: leaf.text });
      } else if (node.type === 'emoji') {
        // An emoji has no marks of its own: it takes those around it, so that bold text with an emoji in it stays one.
        pieces.push({ marks: commonMarks(nodes[index - 1], nodes[index + 1]), text: emojiCharacter(String(node.data?.code ?? '')), emoji: true });
      } else {
        pieces.push({ marks: [], inline: node });
      }
    });
    return this.nest(pieces);
  }

  private nest(pieces: Piece[]): Mdast.PhrasingContent[] {
    const result: Mdast.PhrasingContent[] = [];
    let index = 0;
    while (index < pieces.length) {
      const piece = pieces[index]!;
      const outer = piece.marks.filter((each) => each.type !== 'code');
      if (!outer.length) {
        pushAll(result, this.leaf(piece));
        index++;
        continue;
      }
      let best = outer[0]!;
      let end = index + 1;
      for (const candidate of outer) {
        let reach = index + 1;
        while (reach < pieces.length && pieces[reach]!.marks.some((each) => sameMark(each, candidate))) reach++;
        if (reach > end) {
          end = reach;
          best = candidate;
        }
      }
      const inner = pieces.slice(index, end).map((each) => ({ ...each, marks: each.marks.filter((other) => !sameMark(other, best)) }));
      pushAll(result, this.markNode(best, this.nest(inner)));
      index = end;
    }
    return result;
  }

  private markNode(each: Mark, children: Mdast.PhrasingContent[]): Mdast.PhrasingContent[] {
    switch (each.type) {
      case 'bold':
        return [{ type: 'strong', children }];
      case 'italic':
        return [{ type: 'emphasis', children }];
      case 'strikethrough':
        return [{ type: 'delete', children }];
      case 'color':
        return [html(`<mark style="${styleOfColorMark(each.data)}">`), ...children, html('</mark>')];
      default: {
        const element = HTML_MARKS[each.type];
        return element ? [html(`<${element}>`), ...children, html(`</${element}>`)] : children;
      }
    }
  }

  private leaf(piece: Piece): Mdast.PhrasingContent[] {
    if (piece.inline) return this.inline(piece.inline);
    const value = piece.text ?? '';
    if (piece.marks.some((each) => each.type === 'code')) {
      // Inline code holds no line break: a break in code ends one code span and starts the next.
      return value
        .split('\n')
        .flatMap((line, index): Mdast.PhrasingContent[] => [
          ...(index ? [{ type: 'break' } as const] : []),
          ...(line ? [{ type: 'inlineCode', value: line } as const] : []),
        ]);
    }
    return value
      .split('\n')
      .flatMap((line, index): Mdast.PhrasingContent[] => [
        ...(index ? [{ type: 'break' } as const] : []),
        ...(line ? [{ type: 'text', value: line } as const] : []),
      ]);
  }

  private inline(node: Inline): Mdast.PhrasingContent[] {
    const data = node.data ?? {};
    switch (node.type) {
      case 'link':
        return [{ type: 'link', url: this.hrefOf(data.ref), children: this.inlines(inlineNodes(node)) }];
      case 'inline-image': {
        const src = this.hrefOf(data.ref);
        if (data.size || data.refDark) return [html(imgTag(src, data, data.size ? { 'data-size': String(data.size) } : {}))];
        return [{ type: 'image', url: src, alt: String(data.alt ?? ''), ...(data.caption ? { title: String(data.caption) } : {}) }];
      }
      case 'inline-math':
        return [{ type: 'inlineMath', value: String(data.formula ?? '') }];
      case 'icon':
      case 'button':
        return [html(inlinesToHtml([node], this.hrefOf))];
      default:
        return [{ type: 'text', value: inlineFallbackText(node) }];
    }
  }
}

interface Piece {
  marks: Mark[];
  text?: string;
  emoji?: boolean;
  inline?: Inline;
}

const sameMark = (a: Mark, b: Mark) => a.type === b.type && JSON.stringify(a.data ?? null) === JSON.stringify(b.data ?? null);

function commonMarks(before: Text | Inline | undefined, after: Text | Inline | undefined): Mark[] {
  const last = before?.object === 'text' ? before.leaves.at(-1)?.marks : undefined;
  const first = after?.object === 'text' ? after.leaves[0]?.marks : undefined;
  if (!last || !first) return [];
  return last.filter((each) => each.type !== 'code' && first.some((other) => sameMark(each, other)));
}

/** A table cell Markdown can hold: one paragraph on one line. */
function isSimpleCell(blocks: Block[]): boolean {
  if (blocks.length !== 1 || blocks[0]!.type !== 'paragraph' || blocks[0]!.data?.align) return false;
  return inlineNodes(blocks[0]!).every((node) =>
    node.object === 'text' ? node.leaves.every((leaf) => !leaf.text.includes('\n')) : node.type !== 'button' && node.type !== 'icon',
  );
}

/** An update's date as GitBook writes it: the day alone when it is midnight UTC. */
function dateOf(value: unknown): string {
  const text = String(value ?? '');
  return /^\d{4}-\d{2}-\d{2}T00:00:00(?:\.000)?Z$/.test(text) ? text.slice(0, 10) : text;
}

function columnAttributes(data: Record<string, unknown>): Record<string, string> {
  const width = data.width;
  const written =
    typeof width === 'number'
      ? String(width)
      : width && typeof width === 'object'
        ? `${(width as { value: number }).value}${(width as { unit: string }).unit}`
        : undefined;
  return {
    ...(written ? { width: written } : {}),
    ...(typeof data.verticalAlignment === 'string' ? { valign: data.verticalAlignment } : {}),
  };
}

function plainText(node: Block | Inline | Text): string {
  if (node.object === 'text') return node.leaves.map((leaf) => leaf.text).join('');
  if (node.object === 'inline' && node.isVoid) return inlineFallbackText(node);
  return (node.nodes ?? []).map((child) => plainText(child as Block)).join('');
}
