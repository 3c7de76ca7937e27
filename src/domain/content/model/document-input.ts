import { invalid } from '../../../errors.ts';
import type { JSONDocument } from './nodes.ts';
import { normalizeDocument } from './normalize.ts';
import { officialDocumentError } from './official-schema.ts';
import { markdownFromDocument } from './to-markdown.ts';

/**
 * A structured document written as input (`document: {document: {...}}`, the
 * official JSONDocument) turned into the markdown a page stores, in GitBook's
 * dialect (./to-markdown.ts): any document the official schema accepts,
 * of every node type the dialect writes, reads back as the same document.
 * Anything else is a 400 naming the node (`changes.0.document.document.nodes.2.type`).
 */

/** Deepest nesting of nodes taken (blocks in quotes in lists...): far beyond any real page, well within the stack. */
const MAX_DEPTH = 32;
/** Most nodes (blocks, inlines, texts, leaves) in one document: a page of a million characters holds fewer. */
const MAX_NODES = 200_000;

/** Blocks and inlines of the official schema that GitBook's Markdown has no notation for: refused, not stored as something else. */
const UNWRITABLE = new Set(['drawing', 'reusable-content', 'prompt', 'openapi-schemas', 'openapi-webhook', 'annotation', 'mention', 'expression']);

/** The blocks, inlines and marks a document given as input may hold: the official ones the dialect writes. */
const BLOCK_TYPES = [
  'paragraph',
  'heading-1',
  'heading-2',
  'heading-3',
  'list-ordered',
  'list-unordered',
  'list-tasks',
  'list-item',
  'blockquote',
  'divider',
  'code',
  'code-line',
  'hint',
  'tabs',
  'tabs-item',
  'expandable',
  'math',
  'images',
  'image',
  'file',
  'embed',
  'content-ref',
  'table',
  'stepper',
  'stepper-step',
  'columns',
  'column',
  'openapi-operation',
  'swagger',
  'integration',
  'if',
  'updates',
  'update',
];
/** Nodes that hold no nodes (the official schema requires their `isVoid: true`). */
const VOID_TYPES = new Set([
  'divider',
  'image',
  'file',
  'embed',
  'content-ref',
  'math',
  'table',
  'expandable',
  'openapi-operation',
  'swagger',
  'integration',
  'inline-image',
  'inline-math',
  'emoji',
  'icon',
  'button',
]);
const INLINE_TYPES = ['link', 'inline-image', 'inline-math', 'emoji', 'icon', 'button'];
const MARK_TYPES = ['bold', 'italic', 'strikethrough', 'code', 'keyboard', 'superscript', 'subscript', 'color'];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Walks the input without recursion: its size and depth are bounded before anything else reads it,
 * the node and mark types are checked (to name the allowed ones), and what the official editor
 * leaves implicit is filled in: `data` of the document, blocks and inlines, a leaf's `object` and
 * `marks`, a mark's `object`. Returns the document so completed (a copy).
 */
function completed(input: unknown, field: string): JSONDocument {
  if (!isObject(input) || input.object !== 'document') throw invalid(`${field}.object: must be "document" (a structured document)`);
  const document = structuredClone(input);
  const pending: Array<{ node: unknown; path: string; depth: number; holds: 'blocks' | 'inlines' | 'leaves' | 'marks' }> = [
    { node: document, path: field, depth: 0, holds: 'blocks' },
  ];
  let count = 0;
  while (pending.length) {
    const { node, path, depth, holds } = pending.pop()!;
    if (++count > MAX_NODES) throw invalid(`${field}: a document holds at most ${MAX_NODES} nodes`);
    if (!isObject(node)) throw invalid(`${path}: must be an object`);
    if (depth > MAX_DEPTH) throw invalid(`${path}: nodes nest at most ${MAX_DEPTH} levels deep`);
    if (holds === 'marks') {
      node.object ??= 'mark';
      if (typeof node.type !== 'string' || !MARK_TYPES.includes(node.type)) throw invalid(`${path}.type: must be one of ${MARK_TYPES.join(', ')}`);
      continue;
    }
    if (holds === 'leaves') {
      node.object ??= 'leaf';
      node.marks ??= [];
      if (typeof node.text !== 'string') throw invalid(`${path}.text: must be a string`);
    } else if (node.object === 'block' || node.object === 'inline') {
      const type = node.type;
      if (typeof type === 'string' && UNWRITABLE.has(type))
        throw invalid(`${path}.type: ${type} cannot be written as markdown (GitBook's markdown has no notation for it)`);
      const known = node.object === 'block' ? BLOCK_TYPES : INLINE_TYPES;
      if (typeof type !== 'string' || !known.includes(type))
        throw invalid(`${path}.type: must be ${node.object === 'block' ? 'a block' : 'an inline'} of type ${known.join(', ')}`);
      node.data ??= {};
      node.isVoid ??= VOID_TYPES.has(type);
    } else if (node.object === 'document') {
      node.data ??= {};
    }
    const children: Array<[string, 'blocks' | 'inlines' | 'leaves' | 'marks']> = [
      ['nodes', 'blocks'],
      ['leaves', 'leaves'],
      ['marks', 'marks'],
      ['fragments', 'blocks'],
    ];
    for (const [key, kind] of children) {
      const list = node[key];
      if (list === undefined) continue;
      if (!Array.isArray(list)) throw invalid(`${path}.${key}: must be an array`);
      for (const [index, child] of list.entries()) pending.push({ node: child, path: `${path}.${key}.${index}`, depth: depth + 1, holds: kind });
    }
  }
  return document as unknown as JSONDocument;
}

/** The markdown of a structured document given as input; `field` names it in errors. */
export function markdownFromDocumentInput(input: unknown, field: string): string {
  const document = completed(input, field);
  const error = officialDocumentError(document);
  if (error) {
    const [pointer = '', rule = 'is not valid'] = error.split(/: (.*)/s);
    throw invalid(`${field}${pointer === '/' ? '' : pointer.replace(/\//g, '.')}: ${rule} (the official JSONDocument schema)`);
  }
  return markdownFromDocument(normalizeDocument(document));
}
