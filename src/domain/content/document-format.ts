import { createHash } from 'node:crypto';
import { type Token, type Tokens, lexer } from 'marked';

/**
 * A page body in the official structured form (`format=document`, the
 * JSONDocument schema): the markdown is parsed by marked's lexer and its
 * blocks and inline marks mapped to the document's blocks, texts and inlines.
 * Markdown with no structured counterpart here (HTML, tables) stays as text.
 */

type Leaf = { object: 'leaf'; text: string; marks: Array<{ object: 'mark'; type: string }> };
type Inline = { object: 'text'; leaves: Leaf[] } | { object: 'inline'; type: 'link'; isVoid: false; data: { ref: Record<string, string> }; nodes: Inline[] };
type Block = Record<string, unknown>;

const MARKS: Record<string, string> = { strong: 'bold', em: 'italic', codespan: 'code', del: 'strikethrough' };

/** Link targets: page links (`/pages/<id>`) become page references, the rest URLs. */
function refOf(href: string): Record<string, string> {
  const page = /^\/pages\/([\w-]+)(?:#.*)?$/.exec(href);
  return page ? { kind: 'page', page: page[1]! } : { kind: 'url', url: href };
}

function inlines(tokens: Token[] | undefined, marks: string[] = []): Inline[] {
  const result: Inline[] = [];
  const text = (value: string, with_ = marks) => {
    if (!value) return;
    const leaf: Leaf = { object: 'leaf', text: value, marks: with_.map((type) => ({ object: 'mark', type })) };
    const last = result.at(-1);
    const lastLeaf = last?.object === 'text' ? last.leaves.at(-1) : undefined;
    // One leaf per run of text with the same marks, however the markdown spelled it (escapes, entities).
    if (lastLeaf && lastLeaf.marks.map((mark) => mark.type).join() === with_.join()) lastLeaf.text += value;
    else if (last?.object === 'text') last.leaves.push(leaf);
    else result.push({ object: 'text', leaves: [leaf] });
  };
  for (const token of tokens ?? []) {
    switch (token.type) {
      case 'strong':
      case 'em':
      case 'del':
        result.push(...mergeTexts(result, inlines((token as Tokens.Strong).tokens, [...marks, MARKS[token.type]!])));
        break;
      case 'codespan':
        text((token as Tokens.Codespan).text, [...marks, 'code']);
        break;
      case 'link': {
        const link = token as Tokens.Link;
        const nodes = inlines(link.tokens, marks);
        result.push({
          object: 'inline',
          type: 'link',
          isVoid: false,
          data: { ref: refOf(link.href) },
          nodes: nodes.length ? nodes : [{ object: 'text', leaves: [{ object: 'leaf', text: link.href, marks: [] }] }],
        });
        break;
      }
      case 'br':
        text('\n');
        break;
      case 'checkbox':
        // A task's box: its list item's `checked`, not text.
        break;
      case 'text':
      case 'escape':
        if ('tokens' in token && token.tokens?.length && token.type === 'text') result.push(...mergeTexts(result, inlines(token.tokens, marks)));
        else text(decodeEntities((token as Tokens.Text).text));
        break;
      default:
        text(token.raw);
    }
  }
  return result;
}

/** Appends `more` to `into`'s last text node where both are texts, so adjacent leaves share a text node. */
function mergeTexts(into: Inline[], more: Inline[]): Inline[] {
  const last = into.at(-1);
  const [first, ...rest] = more;
  if (last?.object === 'text' && first?.object === 'text') {
    last.leaves.push(...first.leaves);
    return rest;
  }
  return more;
}

function decodeEntities(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name]!);
}

const textNodes = (tokens: Token[] | undefined) => {
  const nodes = inlines(tokens);
  return nodes.length ? nodes : [{ object: 'text', leaves: [{ object: 'leaf', text: '', marks: [] }] }];
};

function blocks(tokens: Token[]): Block[] {
  const result: Block[] = [];
  for (const token of tokens) {
    switch (token.type) {
      case 'heading': {
        const heading = token as Tokens.Heading;
        result.push({ object: 'block', type: `heading-${Math.min(heading.depth, 3)}`, data: {}, nodes: textNodes(heading.tokens) });
        break;
      }
      case 'paragraph':
        result.push({ object: 'block', type: 'paragraph', data: {}, nodes: textNodes((token as Tokens.Paragraph).tokens) });
        break;
      case 'list': {
        const list = token as Tokens.List;
        const tasks = list.items.some((item) => item.task);
        result.push({
          object: 'block',
          type: tasks ? 'list-tasks' : list.ordered ? 'list-ordered' : 'list-unordered',
          data: list.ordered && typeof list.start === 'number' && list.start !== 1 ? { start: list.start } : {},
          nodes: list.items.map((item) => ({
            object: 'block',
            type: 'list-item',
            data: tasks ? { checked: Boolean(item.checked) } : {},
            nodes: blocks(item.tokens.map((inner) => (inner.type === 'text' ? { ...inner, type: 'paragraph' } : inner)) as Token[]),
          })),
        });
        break;
      }
      case 'code': {
        const code = token as Tokens.Code;
        result.push({
          object: 'block',
          type: 'code',
          data: code.lang ? { syntax: code.lang } : {},
          nodes: code.text.split('\n').map((line) => ({
            object: 'block',
            type: 'code-line',
            data: {},
            nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: line, marks: [] }] }],
          })),
        });
        break;
      }
      case 'blockquote':
        result.push({ object: 'block', type: 'blockquote', data: {}, nodes: blocks((token as Tokens.Blockquote).tokens) });
        break;
      case 'hr':
        result.push({ object: 'block', type: 'divider', isVoid: true, data: {} });
        break;
      case 'space':
      case 'checkbox':
        break;
      default:
        result.push({ object: 'block', type: 'paragraph', data: {}, nodes: textNodes([{ type: 'text', raw: token.raw, text: token.raw.trimEnd() } as Token]) });
    }
  }
  return result;
}

export function structuredDocumentOf(markdown: string): { object: 'document'; data: Record<string, never>; nodes: Block[] } {
  return { object: 'document', data: {}, nodes: withKeys(blocks(lexer(markdown))) };
}

/**
 * Keys of top-level blocks, from their content (and how many equal blocks came
 * before): a block keeps its key while it is unchanged, whatever is edited
 * around it, so comments can name the block (`node`) they are about.
 */
function withKeys(nodes: Block[]): Block[] {
  const seen = new Map<string, number>();
  return nodes.map((block) => {
    const digest = createHash('sha256').update(JSON.stringify(block)).digest('base64url').slice(0, 12);
    const occurrence = (seen.get(digest) ?? 0) + 1;
    seen.set(digest, occurrence);
    return { object: block.object, type: block.type, key: occurrence === 1 ? digest : `${digest}-${occurrence}`, ...block };
  });
}

const PREVIEW_LENGTH = 200;

/** The text of the top-level block with this key (up to 200 characters), or null when no block has it. */
export function blockPreview(markdown: string, key: string): string | null {
  const block = structuredDocumentOf(markdown).nodes.find((node) => node.key === key);
  if (!block) return null;
  const text = plainText(block).replace(/\s+/g, ' ').trim();
  return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH - 1)}…` : text;
}

function plainText(node: unknown): string {
  const { text, leaves, nodes } = node as { text?: string; leaves?: unknown[]; nodes?: unknown[] };
  if (typeof text === 'string') return text;
  const parts = (leaves ?? nodes ?? []).map(plainText);
  return parts.join((node as Block).object === 'block' && nodes?.every((child) => (child as Block).object === 'block') ? ' ' : '');
}
