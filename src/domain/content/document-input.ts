import { invalid } from '../../errors.ts';

/**
 * A structured document written as input (`document: {document: {...}}`, the
 * official JSONDocument) turned into the markdown a page stores: the blocks,
 * texts, marks and links that `format=document` answers with
 * (./document-format.ts), so a document read can be written back. Anything
 * else is a 400 naming the node (`changes.0.document.document.nodes.2.type`).
 */

type Node = Record<string, unknown>;

const BLOCK_TYPES = [
  'heading-1',
  'heading-2',
  'heading-3',
  'paragraph',
  'list-unordered',
  'list-ordered',
  'list-tasks',
  'code',
  'blockquote',
  'divider',
] as const;
const MARKS: Record<string, [string, string]> = { bold: ['**', '**'], italic: ['_', '_'], strikethrough: ['~~', '~~'], code: ['`', '`'] };

const isObject = (value: unknown): value is Node => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Deepest nesting of nodes taken (blocks in quotes in lists…): far beyond any real page, well within the stack. */
const MAX_DEPTH = 32;

function childrenOf(node: Node, path: string): Node[] {
  if (!Array.isArray(node.nodes)) throw invalid(`${path}.nodes: must be an array of nodes`);
  if (path.split('.nodes.').length > MAX_DEPTH) throw invalid(`${path}.nodes: nodes nest at most ${MAX_DEPTH} levels deep`);
  return node.nodes.map((child, index) => {
    if (!isObject(child)) throw invalid(`${path}.nodes.${index}: must be a node (an object)`);
    return child;
  });
}

/** Text that markdown would read as syntax, escaped. */
function escaped(text: string): string {
  return text.replace(/([\\`*_[\]~<>#])/g, '\\$1');
}

function inlineMarkdown(nodes: Node[], path: string): string {
  return nodes
    .map((node, index) => {
      const at = `${path}.nodes.${index}`;
      if (node.object === 'text') {
        if (!Array.isArray(node.leaves)) throw invalid(`${at}.leaves: must be an array of leaves`);
        return node.leaves
          .map((leaf, leafIndex) => {
            const leafAt = `${at}.leaves.${leafIndex}`;
            if (!isObject(leaf) || typeof leaf.text !== 'string') throw invalid(`${leafAt}.text: must be a string`);
            const marks = Array.isArray(leaf.marks) ? leaf.marks : [];
            const types = marks.map((mark, markIndex) => {
              const type = isObject(mark) ? mark.type : undefined;
              if (typeof type !== 'string' || !Object.hasOwn(MARKS, type))
                throw invalid(`${leafAt}.marks.${markIndex}.type: must be one of ${Object.keys(MARKS).join(', ')}`);
              return type;
            });
            if (!leaf.text) return '';
            // Code is verbatim: its mark goes innermost.
            let text = types.includes('code') ? `\`${leaf.text}\`` : escaped(leaf.text);
            for (const type of types.filter((each) => each !== 'code')) text = `${MARKS[type]![0]}${text}${MARKS[type]![1]}`;
            return text;
          })
          .join('');
      }
      if (node.object === 'inline' && node.type === 'link') {
        const ref = isObject(node.data) ? node.data.ref : undefined;
        const href =
          isObject(ref) && ref.kind === 'page' && typeof ref.page === 'string'
            ? `/pages/${ref.page}`
            : isObject(ref) && ref.kind === 'url' && typeof ref.url === 'string'
              ? ref.url
              : undefined;
        if (!href) throw invalid(`${at}.data.ref: must be {"kind": "url", "url"} or {"kind": "page", "page"}`);
        return `[${inlineMarkdown(childrenOf(node, at), at)}](${href.replace(/[()\s]/g, encodeURIComponent)})`;
      }
      throw invalid(`${at}: must be a text ({"object": "text", "leaves"}) or a link ({"object": "inline", "type": "link"})`);
    })
    .join('');
}

function blockMarkdown(node: Node, path: string): string {
  const type = node.type;
  if (node.object !== 'block' || typeof type !== 'string' || !(BLOCK_TYPES as readonly string[]).includes(type)) {
    throw invalid(`${path}.type: must be a block of type ${BLOCK_TYPES.join(', ')}`);
  }
  switch (type) {
    case 'heading-1':
    case 'heading-2':
    case 'heading-3':
      return `${'#'.repeat(Number(type.at(-1)))} ${inlineMarkdown(childrenOf(node, path), path)}`;
    case 'paragraph':
      return inlineMarkdown(childrenOf(node, path), path);
    case 'divider':
      return '---';
    case 'blockquote':
      return blocksMarkdown(childrenOf(node, path), path)
        .split('\n')
        .map((line) => (line ? `> ${line}` : '>'))
        .join('\n');
    case 'code': {
      const data = isObject(node.data) ? node.data : {};
      const lines = childrenOf(node, path).map((line, index) => {
        const at = `${path}.nodes.${index}`;
        if (line.type !== 'code-line') throw invalid(`${at}.type: must be code-line`);
        return childrenOf(line, at)
          .flatMap((text) => (Array.isArray(text.leaves) ? text.leaves : []))
          .map((leaf) => (isObject(leaf) && typeof leaf.text === 'string' ? leaf.text : ''))
          .join('');
      });
      const fence = lines.some((line) => line.startsWith('```')) ? '~~~' : '```';
      return `${fence}${typeof data.syntax === 'string' ? data.syntax : ''}\n${lines.join('\n')}\n${fence}`;
    }
    default: {
      const data = isObject(node.data) ? node.data : {};
      let number = typeof data.start === 'number' ? data.start : 1;
      return childrenOf(node, path)
        .map((item, index) => {
          const at = `${path}.nodes.${index}`;
          if (item.type !== 'list-item') throw invalid(`${at}.type: must be list-item`);
          const itemData = isObject(item.data) ? item.data : {};
          const marker = type === 'list-ordered' ? `${number++}.` : type === 'list-tasks' ? `- [${itemData.checked ? 'x' : ' '}]` : '-';
          const indent = ' '.repeat(marker.length + 1);
          const body = blocksMarkdown(childrenOf(item, at), at, '\n');
          return `${marker} ${body
            .split('\n')
            .join(`\n${indent}`)
            .replace(/\n +\n/g, '\n\n')}`;
        })
        .join('\n');
    }
  }
}

function blocksMarkdown(nodes: Node[], path: string, separator = '\n\n'): string {
  return nodes.map((node, index) => blockMarkdown(node, `${path}.nodes.${index}`)).join(separator);
}

/** The markdown of a structured document given as input; `field` names it in errors. */
export function markdownFromDocument(document: unknown, field: string): string {
  if (!isObject(document) || document.object !== 'document') throw invalid(`${field}.object: must be "document" (a structured document)`);
  const markdown = blocksMarkdown(childrenOf(document, field), field);
  return markdown ? `${markdown}\n` : '';
}
