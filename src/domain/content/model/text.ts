import { createHash } from 'node:crypto';
import slugify from 'slugify';
import type { Block, Fragment, Inline, JSONDocument, Ref, Text } from './nodes.ts';
import { textOf } from './nodes.ts';

/**
 * What a document says, as text: for search (sections split at headings,
 * blocks, list items and table cells kept apart so that no two words run
 * together), previews of a block, and the links it holds.
 */

/** A part of a page for search: the text before the first heading, then each heading's. */
export interface TextSection {
  /** The heading's anchor ("" for the part before the first heading). */
  sectionId: string;
  title: string;
  body: string;
  position: number;
}

type AnyNode = Block | Inline | Text;

/** The text of blocks, one line per block, list item, table cell or code line. */
export function blocksText(nodes: AnyNode[], lines: string[] = []): string[] {
  for (const node of nodes) {
    if (node.object !== 'block') continue;
    blockText(node, lines);
  }
  return lines;
}

function blockText(node: Block, lines: string[]) {
  const children = (node.nodes ?? []) as AnyNode[];
  if (node.type === 'table') {
    for (const each of node.fragments ?? []) blocksText(each.nodes, lines);
    for (const record of Object.values(((node.data?.records ?? {}) as Record<string, { values: Record<string, unknown> }>) ?? {})) {
      for (const value of Object.values(record.values)) if (typeof value === 'number') lines.push(String(value));
    }
    return;
  }
  if (node.fragments?.length) for (const each of node.fragments as Fragment[]) blocksText(each.nodes, lines);
  if (children.some((child) => child.object === 'block')) {
    blocksText(children, lines);
    return;
  }
  const own = ownText(node);
  if (own) lines.push(own);
}

/** A block's own text: its inlines, or what a void block names (a math formula, an embed's address). */
function ownText(node: Block): string {
  const data = node.data ?? {};
  if (node.type === 'math') return String(data.formula ?? '');
  if (node.type === 'embed') return String(data.url ?? '');
  return ((node.nodes ?? []) as AnyNode[]).map((child) => textOf(child)).join('');
}

const HEADING = /^heading-[1-3]$/;

/** The sections of a page for search: split at its headings (nested ones included), plain text each. */
export function textSections(pageTitle: string, document: JSONDocument): TextSection[] {
  const sections: TextSection[] = [{ sectionId: '', title: pageTitle, body: '', position: 0 }];
  const taken = new Map<string, number>();
  let lines: string[] = [];
  const close = () => {
    sections.at(-1)!.body = lines
      .join('\n')
      .replace(/[ \t]*\n[\s\n]*/g, '\n')
      .trim();
    lines = [];
  };
  const walk = (nodes: AnyNode[]) => {
    for (const node of nodes) {
      if (node.object !== 'block') continue;
      if (HEADING.test(node.type)) {
        close();
        const title = textOf(node).trim();
        sections.push({ sectionId: headingAnchor(node, title, taken), title, body: '', position: sections.length });
      } else if (node.type === 'tabs' || node.type === 'stepper' || node.type === 'columns' || node.type === 'if' || node.type === 'updates') {
        for (const child of (node.nodes ?? []) as Block[]) {
          if (node.type === 'tabs' && child.data?.title) lines.push(String(child.data.title));
          walk((child.nodes ?? []) as AnyNode[]);
        }
      } else {
        blockText(node, lines);
      }
    }
  };
  walk(document.nodes);
  close();
  return sections.filter((section, index) => index === 0 || section.body || section.title);
}

/** A heading's anchor: its own id, else a slug of its text, made unique in the page (`setup`, `setup-2`). */
export function headingAnchor(node: Block, title: string, taken: Map<string, number>): string {
  const own = typeof node.data?.id === 'string' && node.data.id ? node.data.id : slugify(title, { lower: true, strict: true }) || 'heading';
  const seen = (taken.get(own) ?? 0) + 1;
  taken.set(own, seen);
  return seen === 1 ? own : `${own}-${seen}`;
}

const PREVIEW_LENGTH = 200;

/** The text of a top-level block (up to 200 characters), or null when no block has that key. */
export function blockPreview(document: JSONDocument, key: string): string | null {
  const found = document.nodes.find((node) => node.key === key);
  if (!found) return null;
  const text = blocksText([found]).join(' ').replace(/\s+/g, ' ').trim();
  return text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH - 1)}…` : text;
}

/**
 * Keys of top-level blocks, from their content (and how many equal blocks came before): a block
 * keeps its key while it is unchanged, whatever is edited around it, so comments can name the
 * block (`node`) they are about.
 */
export function withBlockKeys(document: JSONDocument): JSONDocument {
  const seen = new Map<string, number>();
  return {
    ...document,
    nodes: document.nodes.map((node) => {
      const { key: _, ...content } = node;
      const digest = createHash('sha256').update(JSON.stringify(content)).digest('base64url').slice(0, 12);
      const occurrence = (seen.get(digest) ?? 0) + 1;
      seen.set(digest, occurrence);
      return { ...content, key: occurrence === 1 ? digest : `${digest}-${occurrence}` };
    }),
  };
}

/** Every reference a document holds, in order: links, images, content references, files, table cells. */
export function documentRefs(document: JSONDocument): Ref[] {
  const refs: Ref[] = [];
  const add = (value: unknown) => {
    if (value && typeof value === 'object' && typeof (value as Ref).kind === 'string') refs.push(value as Ref);
  };
  const walk = (node: AnyNode) => {
    if (node.object === 'text') return;
    const data = node.data ?? {};
    add(data.ref);
    add(data.refDark);
    if (node.type === 'table') {
      const definition = (data.definition ?? {}) as Record<string, { type?: string }>;
      for (const record of Object.values((data.records ?? {}) as Record<string, { values: Record<string, unknown> }>)) {
        for (const [column, value] of Object.entries(record.values)) {
          const type = definition[column]?.type;
          if (type === 'content-ref' || type === 'image') add(value && typeof value === 'object' && 'ref' in value ? (value as { ref: unknown }).ref : value);
          else if (type === 'files' && Array.isArray(value))
            for (const file of value) if (typeof file === 'string' && !/[/.]/.test(file)) add({ kind: 'file', file });
        }
      }
    }
    if (node.type === 'embed' && typeof data.url === 'string') add({ kind: 'url', url: data.url });
    for (const child of (node.nodes ?? []) as AnyNode[]) walk(child);
    for (const each of node.fragments ?? []) for (const child of each.nodes) walk(child);
  };
  for (const node of document.nodes) walk(node);
  return refs;
}
