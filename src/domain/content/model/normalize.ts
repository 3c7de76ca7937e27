import { generateNKeysBetween } from 'fractional-indexing';
import { type Block, type Fragment, type Inline, type JSONDocument, type Text, normalizeInlines } from './nodes.ts';

/**
 * Documents in one form, so that two spellings of the same content compare
 * equal: inline content normalized (./nodes.ts), and - for comparing, with
 * `canonicalDocument` - without what only identifies nodes (keys, meta, table
 * ids and order indexes, which follow positions) or restates defaults.
 */

type AnyNode = Block | Inline | Text;

const holdsInlines = (nodes: AnyNode[]) => nodes.length > 0 && nodes.every((node) => node.object !== 'block');

/** The document with every node's inline content normalized. */
export function normalizeDocument(document: JSONDocument): JSONDocument {
  return { ...document, nodes: document.nodes.map(normalizeBlock) };
}

function normalizeBlock<T extends Block | Inline>(node: T): T {
  const nodes = node.nodes as AnyNode[] | undefined;
  return {
    ...node,
    ...(nodes
      ? {
          nodes: holdsInlines(nodes)
            ? normalizeInlines((nodes as Array<Text | Inline>).map((child) => (child.object === 'inline' ? normalizeBlock(child) : child)))
            : nodes.map((child) => (child.object === 'text' ? child : normalizeBlock(child))),
        }
      : {}),
    ...(node.fragments ? { fragments: node.fragments.map((each: Fragment) => ({ ...each, nodes: each.nodes.map(normalizeBlock) })) } : {}),
  };
}

/** The document as compared: normalized, without keys, meta, `isVoid` and empty data, table ids by position. */
export function canonicalDocument(document: JSONDocument): JSONDocument {
  const strip = (node: AnyNode): AnyNode => {
    if (node.object === 'text') return { object: 'text', leaves: node.leaves };
    const { key: _key, meta: _meta, isVoid: _isVoid, data, nodes, fragments, ...rest } = node as Block;
    let result: Block = { ...(rest as Block) };
    if (data && Object.keys(data).length) result.data = data;
    if (nodes) result.nodes = nodes.map(strip);
    if (fragments) result.fragments = fragments.map(({ key: _fragmentKey, ...each }) => ({ ...each, nodes: each.nodes.map((child) => strip(child) as Block) }));
    if (result.type === 'table') result = canonicalTable(result);
    return result;
  };
  return { object: 'document', data: document.data ?? {}, nodes: normalizeDocument(document).nodes.map((node) => strip(node) as Block) };
}

interface TableData {
  view: Record<string, unknown> & { columns?: string[]; targetDefinition?: string; coverDefinition?: string; columnWidths?: Record<string, number> };
  definition: Record<string, Record<string, unknown>>;
  records: Record<string, { orderIndex: string; values: Record<string, unknown> }>;
}

function canonicalTable(table: Block): Block {
  const data = table.data as unknown as TableData;
  const visible = (data.view.columns ?? Object.keys(data.definition)).filter((id) => data.definition[id]);
  const order = [...visible, ...Object.keys(data.definition).filter((id) => !visible.includes(id))];
  const columnId = new Map(order.map((id, index) => [id, `c${index + 1}`]));
  const records = Object.values(data.records).sort((a, b) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : 0));
  const indexes = generateNKeysBetween(null, null, records.length);
  const fragments = new Map((table.fragments ?? []).map((each) => [each.fragment, each]));
  const renamedFragments: Fragment[] = [];
  const renamedRecords: TableData['records'] = {};
  records.forEach((record, index) => {
    const recordId = `r${index + 1}`;
    const values: Record<string, unknown> = {};
    for (const [column, value] of Object.entries(record.values)) {
      const id = columnId.get(column);
      if (!id) continue;
      const fragment = typeof value === 'string' ? fragments.get(value) : undefined;
      if (fragment) {
        renamedFragments.push({ ...fragment, fragment: `${recordId}-${id}` });
        values[id] = `${recordId}-${id}`;
      } else values[id] = value;
    }
    renamedRecords[recordId] = { orderIndex: indexes[index]!, values };
  });
  const rename = (id: unknown) => (typeof id === 'string' ? columnId.get(id) : undefined);
  const view = {
    ...data.view,
    columns: visible.map((id) => columnId.get(id)!),
    ...(data.view.targetDefinition ? { targetDefinition: rename(data.view.targetDefinition) } : {}),
    ...(data.view.coverDefinition ? { coverDefinition: rename(data.view.coverDefinition) } : {}),
    ...(data.view.columnWidths
      ? { columnWidths: Object.fromEntries(Object.entries(data.view.columnWidths).map(([id, width]) => [rename(id) ?? id, width])) }
      : {}),
  };
  const definition = Object.fromEntries(order.map((id) => [columnId.get(id)!, { ...data.definition[id], id: columnId.get(id)! }]));
  return {
    ...table,
    data: { ...data, view, definition, records: renamedRecords },
    fragments: renamedFragments.sort((a, b) => (a.fragment < b.fragment ? -1 : 1)),
  };
}
