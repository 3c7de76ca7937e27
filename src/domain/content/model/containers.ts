import { type Block, type Inline, type Text, block, mark, paragraph, text, voidInline } from './nodes.ts';

/**
 * Which blocks each block may hold, as the official schema says (test/content/model/containers.test.ts
 * checks this table against @gitbook/api's document). Markdown can nest anything in anything
 * (an image in a list, a code block in a hint): what a container may not hold is turned into
 * what it may (./containers.ts `fit`), so that every document served is valid.
 */

const ESSENTIALS = ['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'list-tasks', 'divider'];

const TOP_LEVEL = [
  ...ESSENTIALS,
  'blockquote',
  'hint',
  'prompt',
  'images',
  'file',
  'drawing',
  'embed',
  'code',
  'math',
  'expandable',
  'tabs',
  'table',
  'swagger',
  'openapi-operation',
  'openapi-schemas',
  'openapi-webhook',
  'content-ref',
  'integration',
  'reusable-content',
  'stepper',
  'if',
  'columns',
  'updates',
];

export const ALLOWED_CHILDREN = {
  document: TOP_LEVEL,
  if: TOP_LEVEL,
  'list-item': [...ESSENTIALS, 'code', 'hint', 'blockquote', 'math', 'table'],
  blockquote: [...ESSENTIALS, 'blockquote'],
  hint: [...ESSENTIALS, 'embed', 'integration', 'table'],
  'tabs-item': [...ESSENTIALS, 'content-ref', 'code', 'embed', 'file', 'images', 'drawing', 'hint', 'prompt', 'blockquote', 'math', 'integration'],
  'expandable-body': [...ESSENTIALS, 'file', 'images', 'code', 'table', 'hint', 'prompt', 'blockquote', 'reusable-content', 'integration'],
  'stepper-step': [
    ...ESSENTIALS,
    'content-ref',
    'code',
    'embed',
    'file',
    'images',
    'drawing',
    'hint',
    'prompt',
    'blockquote',
    'math',
    'integration',
    'expandable',
  ],
  column: [
    ...ESSENTIALS,
    'images',
    'code',
    'hint',
    'prompt',
    'content-ref',
    'drawing',
    'embed',
    'file',
    'integration',
    'math',
    'blockquote',
    'table',
    'expandable',
    'stepper',
  ],
  update: [
    ...ESSENTIALS,
    'content-ref',
    'code',
    'embed',
    'file',
    'images',
    'drawing',
    'hint',
    'prompt',
    'blockquote',
    'math',
    'integration',
    'tabs',
    'expandable',
  ],
  /** A table cell's fragment holds any block; the model writes paragraphs, headings and lists there. */
  'table-cell': [...ESSENTIALS],
} as const satisfies Record<string, readonly string[]>;

export type Container = keyof typeof ALLOWED_CHILDREN;

const allowedSets = Object.fromEntries(Object.entries(ALLOWED_CHILDREN).map(([name, types]) => [name, new Set<string>(types)])) as Record<
  Container,
  Set<string>
>;

/** Blocks made fit for a container: each one it may not hold becomes blocks it may (never nothing). */
export function fitInto(blocks: Block[], container: Container): Block[] {
  const allowed = allowedSets[container];
  return blocks.flatMap((each) => (allowed.has(each.type) ? [each] : fitInto(degrade(each), container)));
}

const childBlocks = (node: Block) => (node.nodes ?? []) as Block[];
const linkTo = (ref: unknown, label: string): Inline => ({
  object: 'inline',
  type: 'link',
  isVoid: false,
  data: { ref },
  nodes: [text(label)],
});

/** What a block becomes where it may not be: simpler blocks holding the same content. */
function degrade(node: Block): Block[] {
  const data = node.data ?? {};
  switch (node.type) {
    case 'images':
      return [
        paragraph(
          childBlocks(node).map((image) => {
            const caption = (image.fragments ?? [])
              .flatMap((each) => each.nodes)
              .map(plainText)
              .join(' ')
              .trim();
            return voidInline('inline-image', { ...image.data, ...(caption ? { caption } : {}) });
          }),
        ),
      ];
    case 'code': {
      const lines = childBlocks(node).map(plainText);
      return [paragraph([text(lines.join('\n'), [mark('code')])])];
    }
    case 'math':
      return [paragraph([voidInline('inline-math', { formula: data.formula ?? '' })])];
    case 'embed':
      return [paragraph([linkTo({ kind: 'url', url: data.url }, String(data.url ?? ''))])];
    case 'file':
    case 'content-ref':
    case 'drawing':
      return [
        paragraph([
          linkTo(
            data.ref,
            String(
              (data.ref as Record<string, unknown>)?.url ?? (data.ref as Record<string, unknown>)?.page ?? (data.ref as Record<string, unknown>)?.file ?? '',
            ),
          ),
        ]),
      ];
    case 'expandable': {
      const [title, body] = [
        node.fragments?.find((each) => each.fragment === 'expandable-title'),
        node.fragments?.find((each) => each.fragment === 'expandable-body'),
      ];
      return [...(title?.nodes ?? []), ...(body?.nodes ?? [])];
    }
    case 'tabs':
      return childBlocks(node).flatMap((tab) => [paragraph([text(String(tab.data?.title ?? ''), [mark('bold')])]), ...childBlocks(tab)]);
    case 'table':
      return tableAsParagraphs(node);
    case 'prompt':
      return childBlocks(node).flatMap(degrade);
    case 'stepper':
    case 'columns':
    case 'hint':
    case 'blockquote':
    case 'if':
    case 'updates':
    case 'update':
    case 'column':
    case 'stepper-step':
    case 'tabs-item':
    case 'list-item':
      return childBlocks(node);
    case 'heading-1':
    case 'heading-2':
    case 'heading-3':
      return [block('paragraph', {}, [text(plainText(node), [mark('bold')])])];
    case 'list-ordered':
    case 'list-unordered':
    case 'list-tasks':
      return childBlocks(node).flatMap((item) => childBlocks(item));
    default:
      return [paragraph([text(plainText(node) || `[${node.type}]`)])];
  }
}

function tableAsParagraphs(node: Block): Block[] {
  const data = (node.data ?? {}) as { view?: { columns?: string[] }; records?: Record<string, { orderIndex: string; values: Record<string, unknown> }> };
  const fragments = new Map((node.fragments ?? []).map((each) => [each.fragment, each.nodes]));
  const columns = data.view?.columns ?? [];
  const records = Object.values(data.records ?? {}).sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : 1));
  return records.map((record) =>
    paragraph([
      text(
        columns
          .map((column) => {
            const value = record.values[column];
            if (typeof value === 'string' && fragments.has(value)) return fragments.get(value)!.map(plainText).join(' ');
            return value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
          })
          .join(' | '),
      ),
    ]),
  );
}

function plainText(node: Block | Inline | Text): string {
  if (node.object === 'text') return node.leaves.map((leaf) => leaf.text).join('');
  if (node.object === 'inline' && node.isVoid) return String(node.data?.formula ?? node.data?.alt ?? node.data?.label ?? '');
  return (node.nodes ?? []).map((child) => plainText(child as Block)).join('');
}
