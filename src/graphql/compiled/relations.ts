import type { FieldNode } from 'graphql';
import { type Expression, type RawBuilder, sql } from 'kysely';
import type { Tables } from '../../db/tables.ts';
import { keysetAfter } from '../../domain/reads.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Ordering } from '../../lib/pagination.ts';
import { collectSubFields } from '@graphql-tools/utils';
import {
  type CompileContext,
  type Compiled,
  type FieldCompiler,
  type Selection,
  UNSUPPORTED,
  compileObject,
  listElementTypeOf,
  objectTypeOf,
  ref,
} from './compile.ts';

/** A condition on a child row (`child`: its alias), given its parent row (`parent`: its alias). */
export type Join = (c: CompileContext, child: string, parent: string) => Expression<unknown>;

const and = (conditions: Array<Expression<unknown>>) => (conditions.length ? sql`(${sql.join(conditions, sql` AND `)})` : sql`TRUE`);

/** The one row of `table` matching `where`, as the object the field returns; null when there is none. */
export function one(table: keyof Tables, where: Join): FieldCompiler {
  return (c, row, selection) => {
    const type = objectTypeOf(selection.field.type);
    if (!type) return UNSUPPORTED;
    const child = c.alias();
    const object = compileObject(c, type.name, child, selection.nodes);
    if (object === UNSUPPORTED) return UNSUPPORTED;
    return sql`(SELECT ${object} FROM ${sql.table(table)} AS ${sql.id(child)} WHERE ${where(c, child, row)} LIMIT 1)`;
  };
}

export interface SortKey {
  column: string;
  direction: 'asc' | 'desc';
}

const orderBy = (child: string, keys: readonly SortKey[], reverse = false) =>
  sql.join(
    keys.map((key) => sql`${ref(child, key.column)} ${sql.raw((key.direction === 'asc') !== reverse ? 'ASC' : 'DESC')}`),
    sql`, `,
  );

/** Every row of `table` matching `where`, in `keys` order, as a list of the objects the field returns. */
export function list(table: keyof Tables, where: Join, keys: readonly SortKey[]): FieldCompiler {
  return (c, row, selection) => {
    const type = listElementTypeOf(selection.field.type);
    if (!type) return UNSUPPORTED;
    const child = c.alias();
    const object = compileObject(c, type.name, child, selection.nodes);
    if (object === UNSUPPORTED) return UNSUPPORTED;
    return sql`(SELECT ${c.json.arrayAgg(object, orderBy(child, keys))} FROM ${sql.table(table)} AS ${sql.id(child)} WHERE ${where(c, child, row)})`;
  };
}

/** A Relay connection over a domain listing: its rows, order (and page tokens) and filters. */
export interface ConnectionListing {
  table: keyof Tables;
  /** The rows of the parent (and what the listing always leaves out). */
  where: Join;
  /** The domain's ordering: the same page tokens as REST (src/lib/pagination.ts). */
  ordering: Ordering<never>;
  /**
   * Conditions of the field's own arguments (besides first/after/last/before);
   * UNSUPPORTED for an argument it cannot compile. Absent: the field has none.
   */
  filter?: (c: CompileContext, child: string, args: Record<string, unknown>) => Array<Expression<unknown>> | typeof UNSUPPORTED;
}

const PAGING_ARGUMENTS = new Set(['first', 'after', 'last', 'before']);

/**
 * A connection: `first` rows after the `after` token in the listing's order,
 * read with one row more to tell `hasNextPage`, edges with their cursors (the
 * REST `next.page` tokens), `pageInfo`, and `totalCount` only when selected.
 * Backward paging (`last`/`before`) is left to the executor.
 */
export function connection(listing: ConnectionListing): FieldCompiler {
  return (c, row, selection) => {
    const { args } = selection;
    if (args.last != null || args.before != null) return UNSUPPORTED;
    const first = args.first ?? DEFAULT_PAGE_SIZE;
    if (typeof first !== 'number' || !Number.isInteger(first) || first < 0 || first > MAX_PAGE_SIZE) return UNSUPPORTED;
    const keys = sortKeysOf(listing.ordering);
    if (!keys) return UNSUPPORTED;
    const child = c.alias();
    const conditions: Array<Expression<unknown>> = [listing.where(c, child, row)];
    const own = Object.entries(args).filter(([name, value]) => !PAGING_ARGUMENTS.has(name) && value != null);
    if (own.length) {
      if (!listing.filter) return UNSUPPORTED;
      const filters = listing.filter(c, child, args);
      if (filters === UNSUPPORTED) return UNSUPPORTED;
      conditions.push(...filters);
    }
    const counted = [...conditions];
    if (args.after != null) {
      const after = keysetAfter(c.json, listing.ordering, child, String(args.after), 'after');
      // A token of another listing: the executor answers its 400.
      if (!after) return UNSUPPORTED;
      conditions.push(after);
    }
    const connectionType = objectTypeOf(selection.field.type);
    if (!connectionType) return UNSUPPORTED;
    const fields = collectSubFields(c.schema, c.fragments, c.variables, connectionType, selection.nodes);
    if (fields.patches.length) return UNSUPPORTED;

    const rows = c.alias();
    const at = (column: string) => sql.ref(`${rows}.${column}`);
    const inner: Array<Expression<unknown>> = [sql`row_number() OVER (ORDER BY ${orderBy(child, keys)}) AS ord`];
    let needsCursor = false;
    let needsTotal = false;
    let nodeJson: Compiled | undefined;
    const entries: Array<readonly [string, Expression<unknown>]> = [];
    for (const [key, nodes] of fields.fields) {
      const name = nodes[0]!.name.value;
      switch (name) {
        case '__typename':
          entries.push([key, sql.lit(connectionType.name)]);
          break;
        case 'edges': {
          const edge = edgeObject(c, connectionType.getFields().edges!.type, nodes, rows, (nodeNodes) => {
            nodeJson = compileNode(c, selection, nodeNodes, child);
            return nodeJson;
          });
          if (edge === UNSUPPORTED) return UNSUPPORTED;
          if (edge.cursor) needsCursor = true;
          entries.push([key, c.json.arrayAgg(edge.object, at('ord'), sql`${at('ord')} <= ${first}`)]);
          break;
        }
        case 'pageInfo': {
          const info = pageInfoObject(c, connectionType.getFields().pageInfo!.type, nodes, rows, first, args.after != null);
          if (info === UNSUPPORTED) return UNSUPPORTED;
          needsCursor ||= info.cursor;
          needsTotal ||= info.total;
          entries.push([key, info.object]);
          break;
        }
        case 'totalCount':
          // A scope of its own: the conditions name the same alias, and the parent row.
          entries.push([key, sql`(SELECT count(*) FROM ${sql.table(listing.table)} AS ${sql.id(child)} WHERE ${and(counted)})`]);
          break;
        default:
          return UNSUPPORTED;
      }
    }
    if (nodeJson === UNSUPPORTED) return UNSUPPORTED;
    // Only the count (or the type name): nothing of the rows themselves is read.
    if (![...fields.fields.values()].some((nodes) => ['edges', 'pageInfo'].includes(nodes[0]!.name.value))) {
      return sql`(SELECT ${c.json.object(entries)})`;
    }
    if (nodeJson) inner.push(sql`${nodeJson} AS json`);
    if (needsCursor) inner.push(sql`${cursorOf(c, listing.ordering, keys, child)} AS cursor`);
    if (needsTotal) inner.push(sql`count(*) OVER () AS total`);
    return sql`(SELECT ${c.json.object(entries)} FROM (
      SELECT ${sql.join(inner, sql`, `)} FROM ${sql.table(listing.table)} AS ${sql.id(child)}
      WHERE ${and(conditions)} ORDER BY ${orderBy(child, keys)} LIMIT ${first + 1}) AS ${sql.id(rows)})`;
  };
}

function compileNode(c: CompileContext, selection: Selection, nodes: FieldNode[], child: string): Compiled {
  const connectionType = objectTypeOf(selection.field.type)!;
  const edgeType = listElementTypeOf(connectionType.getFields().edges!.type);
  const nodeType = edgeType && objectTypeOf(edgeType.getFields().node!.type);
  if (!nodeType) return UNSUPPORTED;
  return compileObject(c, nodeType.name, child, nodes);
}

function edgeObject(
  c: CompileContext,
  edgesType: Parameters<typeof listElementTypeOf>[0],
  nodes: FieldNode[],
  rows: string,
  node: (nodes: FieldNode[]) => Compiled,
): { object: Expression<unknown>; cursor: boolean } | typeof UNSUPPORTED {
  const edgeType = listElementTypeOf(edgesType);
  if (!edgeType) return UNSUPPORTED;
  const fields = collectSubFields(c.schema, c.fragments, c.variables, edgeType, nodes);
  if (fields.patches.length) return UNSUPPORTED;
  const entries: Array<readonly [string, Expression<unknown>]> = [];
  let cursor = false;
  for (const [key, edgeNodes] of fields.fields) {
    const name = edgeNodes[0]!.name.value;
    if (name === '__typename') entries.push([key, sql.lit(edgeType.name)]);
    else if (name === 'cursor') {
      cursor = true;
      entries.push([key, sql.ref(`${rows}.cursor`)]);
    } else if (name === 'node') {
      if (node(edgeNodes) === UNSUPPORTED) return UNSUPPORTED;
      entries.push([key, sql.ref(`${rows}.json`)]);
    } else return UNSUPPORTED;
  }
  return { object: c.json.object(entries), cursor };
}

function pageInfoObject(
  c: CompileContext,
  type: Parameters<typeof objectTypeOf>[0],
  nodes: FieldNode[],
  rows: string,
  first: number,
  after: boolean,
): { object: Expression<unknown>; cursor: boolean; total: boolean } | typeof UNSUPPORTED {
  const infoType = objectTypeOf(type);
  if (!infoType) return UNSUPPORTED;
  const fields = collectSubFields(c.schema, c.fragments, c.variables, infoType, nodes);
  if (fields.patches.length) return UNSUPPORTED;
  const at = (column: string) => sql.ref(`${rows}.${column}`);
  const entries: Array<readonly [string, Expression<unknown>]> = [];
  let cursor = false;
  let total = false;
  for (const [key, infoNodes] of fields.fields) {
    switch (infoNodes[0]!.name.value) {
      case '__typename':
        entries.push([key, sql.lit(infoType.name)]);
        break;
      case 'hasNextPage':
        entries.push([key, c.json.boolean(sql`count(*) > ${first}`)]);
        break;
      case 'hasPreviousPage':
        entries.push([key, c.json.boolean(sql.lit(after))]);
        break;
      case 'startCursor':
        cursor = true;
        entries.push([key, sql`max(CASE WHEN ${at('ord')} = 1 AND ${first} > 0 THEN ${at('cursor')} END)`]);
        break;
      case 'endCursor':
        cursor = true;
        total = true;
        entries.push([
          key,
          sql`max(CASE WHEN ${at('ord')} = (CASE WHEN ${at('total')} > ${first} THEN ${first} ELSE ${at('total')} END) THEN ${at('cursor')} END)`,
        ]);
        break;
      default:
        return UNSUPPORTED;
    }
  }
  return { object: c.json.object(entries), cursor, total };
}

/** The sort keys of an ordering as columns of the listed table; undefined when one is a relation's (`user.displayName`). */
function sortKeysOf(ordering: Ordering<never>): SortKey[] | undefined {
  if (ordering.keys.some((key) => key.field.includes('.'))) return undefined;
  return ordering.keys.map((key) => ({ column: key.field, direction: key.direction }));
}

/** The page token of a row, as src/lib/pagination.ts encodeCursor writes it: base64url of ["name", value…]. */
function cursorOf(c: CompileContext, ordering: Ordering<never>, keys: readonly SortKey[], child: string): RawBuilder<string> {
  const parts: Array<Expression<unknown>> = [sql`${`[${JSON.stringify(ordering.name)}`}`];
  ordering.keys.forEach((key, index) => {
    const column = ref(child, keys[index]!.column);
    parts.push(sql`','`);
    if (key.type === 'date') parts.push(sql`'{"d":'`, c.json.quoted(c.json.isoDate(column)), sql`'}'`);
    else parts.push(c.json.quoted(column));
  });
  parts.push(sql`']'`);
  return c.json.base64url(c.json.concat(parts));
}
