/**
 * The nodes of GitBook's structured document (the official `JSONDocument`:
 * `DocumentBlock*`, `DocumentInline*`, `DocumentText`), as plain JSON: blocks
 * hold blocks or inlines, inlines hold texts, texts hold leaves with marks.
 * Builders here make nodes in the one normal form the model writes (a text's
 * adjacent leaves with the same marks are one leaf; no empty leaves but one in
 * an empty text), so that two ways of spelling the same content compare equal.
 */

export type Ref =
  | { kind: 'url'; url: string }
  | { kind: 'page'; page: string; space?: string }
  | { kind: 'file'; file: string; space?: string }
  | { kind: 'anchor'; anchor: string; page?: string; space?: string }
  | { kind: 'openapi'; spec: string }
  | { kind: string; [key: string]: unknown };

export interface Mark {
  object: 'mark';
  type: string;
  data?: Record<string, unknown>;
}

export interface Leaf {
  object: 'leaf';
  text: string;
  marks: Mark[];
}

export interface Text {
  object: 'text';
  leaves: Leaf[];
  key?: string;
}

export interface Inline {
  object: 'inline';
  type: string;
  key?: string;
  isVoid?: boolean;
  data?: Record<string, unknown>;
  nodes?: Array<Text | Inline>;
  fragments?: Fragment[];
}

export interface Fragment {
  object: 'fragment';
  fragment: string;
  type?: string;
  key?: string;
  nodes: Block[];
}

export interface Block {
  object: 'block';
  type: string;
  key?: string;
  isVoid?: boolean;
  data?: Record<string, unknown>;
  nodes?: Array<Block | Inline | Text>;
  fragments?: Fragment[];
  meta?: Record<string, unknown>;
}

export interface JSONDocument {
  object: 'document';
  data: Record<string, unknown>;
  nodes: Block[];
}

export type Node = Block | Inline | Text;

/** The colors a `color` mark (text and background) and an icon may have, as the official document lists them. */
export const TEXT_COLORS = [
  'default',
  'green',
  'blue',
  'red',
  'orange',
  'yellow',
  'purple',
  'pink',
  'violet',
  'cyan',
  '$primary',
  '$info',
  '$success',
  '$warning',
  '$danger',
  '$tint',
] as const;

export const mark = (type: string, data?: Record<string, unknown>): Mark => (data ? { object: 'mark', type, data } : { object: 'mark', type });

export const text = (value: string, marks: Mark[] = []): Text => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks }] });

export function block(type: string, data: Record<string, unknown>, nodes: Array<Block | Inline | Text>): Block {
  return { object: 'block', type, isVoid: false, data, nodes };
}

export function voidBlock(type: string, data: Record<string, unknown>, fragments?: Fragment[]): Block {
  return { object: 'block', type, isVoid: true, data, ...(fragments ? { fragments } : {}) };
}

export function inline(type: string, data: Record<string, unknown>, nodes: Array<Text | Inline>): Inline {
  return { object: 'inline', type, isVoid: false, data, nodes };
}

export function voidInline(type: string, data: Record<string, unknown>): Inline {
  return { object: 'inline', type, isVoid: true, data };
}

export const fragment = (name: string, nodes: Block[], type?: string): Fragment => ({
  object: 'fragment',
  fragment: name,
  ...(type ? { type } : {}),
  nodes,
});

export const paragraph = (nodes: Array<Text | Inline>, data: Record<string, unknown> = {}): Block =>
  block('paragraph', data, nodes.length ? nodes : [text('')]);

const MARK_ORDER = ['bold', 'italic', 'strikethrough', 'code', 'keyboard', 'superscript', 'subscript', 'color'];
const markRank = (each: Mark) => {
  const rank = MARK_ORDER.indexOf(each.type);
  return rank < 0 ? MARK_ORDER.length : rank;
};

/** A leaf's marks in one order, each once: a set, however they were nested. */
function sortedMarks(marks: Mark[]): Mark[] {
  const unique = marks.filter((each, index) => marks.findIndex((other) => JSON.stringify(other) === JSON.stringify(each)) === index);
  return unique.sort((a, b) => markRank(a) - markRank(b));
}

const sameMarks = (a: Mark[], b: Mark[]) => a.length === b.length && a.every((each, index) => JSON.stringify(each) === JSON.stringify(b[index]));

/**
 * Inline content in normal form: adjacent texts joined, a text's leaves with the same marks joined,
 * empty leaves and texts dropped; content with nothing in it is one empty text.
 */
export function normalizeInlines(nodes: Array<Text | Inline>): Array<Text | Inline> {
  const result: Array<Text | Inline> = [];
  for (const node of nodes) {
    if (node.object !== 'text') {
      result.push(node);
      continue;
    }
    for (const leaf of node.leaves) {
      if (leaf.text === '') continue;
      let last = result.at(-1);
      if (last?.object !== 'text') {
        last = { object: 'text', leaves: [] };
        result.push(last);
      }
      const marks = sortedMarks(leaf.marks);
      const previous = last.leaves.at(-1);
      if (previous && sameMarks(previous.marks, marks)) previous.text += leaf.text;
      else last.leaves.push({ ...leaf, marks });
    }
  }
  return result.length ? result : [text('')];
}

/** The text of a node and all it holds, inlines included (an emoji is its character, math its formula). */
export function textOf(node: Node | Fragment): string {
  if (node.object === 'text') return node.leaves.map((leaf) => leaf.text).join('');
  const own = node.object === 'inline' ? inlineText(node) : undefined;
  if (own !== undefined) return own;
  return (node.nodes ?? []).map((child) => textOf(child as Node)).join('');
}

function inlineText(node: Inline): string | undefined {
  const data = node.data ?? {};
  switch (node.type) {
    case 'emoji':
      return emojiCharacter(String(data.code ?? ''));
    case 'inline-math':
      return String(data.formula ?? '');
    case 'inline-image':
      return String(data.alt ?? '');
    case 'button':
      return String(data.label ?? '');
    default:
      return undefined;
  }
}

/** An emoji's code as the official documents write it: its code points in hex, joined by dashes ("1f680"). */
export const emojiCode = (character: string) => [...character].map((point) => point.codePointAt(0)!.toString(16)).join('-');

export function emojiCharacter(code: string): string {
  try {
    return String.fromCodePoint(...code.split('-').map((part) => Number.parseInt(part, 16)));
  } catch {
    return '';
  }
}
