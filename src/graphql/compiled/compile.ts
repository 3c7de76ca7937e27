import { collectSubFields } from '@graphql-tools/utils';
import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLEnumType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getArgumentValues,
  getNamedType,
  getNullableType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
} from 'graphql';
import { type Expression, type RawBuilder, sql } from 'kysely';
import type { PublicUrls } from '../../config.ts';
import type { JsonDialect, SqlBuilder } from '../../db/sql.ts';
import type { Tables } from '../../db/tables.ts';

/**
 * Compiles the selection of a GraphQL query into one SQL statement per root
 * field whose answer is the field's JSON, built by the database level by level
 * (src/db/sql.ts): only the selected columns, lists and connections as nested
 * subqueries with their order and page inside, counts only when selected.
 *
 * What each field reads is declared per type (src/graphql/compiled/reads.ts) from
 * the domain's own definitions — who may see what, orderings, addresses. A field
 * without a declaration makes the whole operation run through the executor, as
 * before: compiling is an optimization, never a second set of rules (the test
 * suite runs every query both ways and compares, src/graphql/compiled/plugin.ts).
 */

/** What a field compiler gets: the field as the query selects it. */
export interface Selection {
  /** The alias, or the field's name. */
  key: string;
  field: GraphQLField<unknown, unknown>;
  /** Its arguments, coerced (variables applied, defaults filled). */
  args: Record<string, unknown>;
  /** The nodes that select it (several when a query repeats a field). */
  nodes: FieldNode[];
}

/** The viewer, as the statement's permission predicates need it. */
export interface CompiledViewer {
  userId: string;
  /** Organizations it is an active member of (guests included). */
  memberOf: readonly string[];
  /** Organizations whose content it may read: members with a role (not guests). */
  contentOf: readonly string[];
}

export interface CompileContext {
  types: CompiledTypes;
  db: SqlBuilder;
  json: JsonDialect;
  schema: GraphQLSchema;
  fragments: Record<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
  urls: PublicUrls;
  viewer: CompiledViewer;
  /** A fresh table alias. */
  alias(): string;
  /** The path of each page row being compiled (alias → SQL), from its parent's (src/graphql/compiled/reads.ts). */
  pagePaths: Map<string, Expression<unknown>>;
}

/** Returned by a compiler that cannot compile what is asked: the operation is executed instead. */
export const UNSUPPORTED = Symbol('unsupported');
export type Compiled = Expression<unknown> | typeof UNSUPPORTED;

/** Compiles one selected field of a row of its parent type (`row`: the parent row's alias). */
export type FieldCompiler = (c: CompileContext, row: string, selection: Selection) => Compiled;

/** How the fields of one GraphQL object type are read from one table. */
export interface CompiledType {
  table: keyof Tables;
  fields: Record<string, FieldCompiler>;
}

/** Declarations by GraphQL type name; `Query` holds the root fields (row: none). */
export type CompiledTypes = Record<string, CompiledType | { table: null; fields: Record<string, FieldCompiler> }>;

/** The JSON object of `typeName` for the row `row`, with the fields `nodes` select; UNSUPPORTED if any field is. */
export function compileObject(c: CompileContext, typeName: string, row: string, nodes: FieldNode[]): Compiled {
  const type = c.schema.getType(typeName);
  if (!c.types[typeName] || !isObjectType(type)) return UNSUPPORTED;
  const collected = collectSubFields(c.schema, c.fragments, c.variables, type, nodes);
  if (collected.patches.length) return UNSUPPORTED;
  const entries: Array<readonly [string, Expression<unknown>]> = [];
  for (const [key, fieldNodes] of collected.fields) {
    const value = compileField(c, type, row, key, fieldNodes);
    if (value === UNSUPPORTED) return UNSUPPORTED;
    entries.push([key, value]);
  }
  // PostgreSQL's json_build_object takes at most 100 arguments.
  if (entries.length > 50) return UNSUPPORTED;
  return c.json.object(entries);
}

/** One field (under the response key `key`) of an object of `type` read from `row`. */
export function compileField(c: CompileContext, type: GraphQLObjectType, row: string, key: string, nodes: FieldNode[]): Compiled {
  const name = nodes[0]!.name.value;
  if (name === '__typename') return sql.lit(type.name);
  if (nodes.some((node) => node.directives?.some((directive) => directive.name.value !== 'include' && directive.name.value !== 'skip'))) {
    return UNSUPPORTED;
  }
  const field = type.getFields()[name];
  const compiler = c.types[type.name]?.fields[name] ?? (field && exposedColumn(field));
  if (!field || !compiler) return UNSUPPORTED;
  const args = argumentsOf(c, field, nodes[0]!);
  if (!args) return UNSUPPORTED;
  return compiler(c, row, { key, field, args, nodes });
}

function argumentsOf(c: CompileContext, field: GraphQLField<unknown, unknown>, node: FieldNode): Record<string, unknown> | null {
  try {
    return getArgumentValues(field, node, c.variables);
  } catch {
    // Invalid arguments: the executor answers the error.
    return null;
  }
}

/** A field Pothos exposes from a column of the same name (`t.exposeString('title')`): a scalar read as it is stored. */
function exposedColumn(field: GraphQLField<unknown, unknown>): FieldCompiler | undefined {
  const exposed = field.extensions?.pothosExposedField;
  if (typeof exposed !== 'string' || field.args.length) return undefined;
  return column(exposed);
}

/** A row's column (`alias.column`). */
export const ref = (row: string, name: string) => sql.ref(`${row}.${name}`);

/**
 * A column as its GraphQL type answers it: Boolean as JSON true/false,
 * DateTime as an ISO 8601 string, an enum as its GraphQL name, JSON as JSON;
 * other scalars as they are stored.
 */
export function column(name: string): FieldCompiler {
  return (c, row, { field }) => scalarOf(c, field.type, ref(row, name));
}

export function scalarOf(c: CompileContext, type: GraphQLOutputType, value: Expression<unknown>): Compiled {
  const named = getNamedType(type);
  if (isListType(getNullableType(type))) return UNSUPPORTED;
  if (isEnumType(named)) return enumOf(named, value);
  if (!isScalarType(named)) return UNSUPPORTED;
  switch (named.name) {
    case 'String':
    case 'ID':
    case 'Int':
    case 'Float':
      return value;
    case 'Boolean':
      return c.json.boolean(value);
    case 'DateTime':
      return c.json.isoDate(value);
    case 'JSON':
      return c.json.jsonColumn(value);
    default:
      return UNSUPPORTED;
  }
}

/** A stored value as the GraphQL name of its enum value (REST `share-link` is `share_link`), read from the schema. */
function enumOf(type: GraphQLEnumType, value: Expression<unknown>): Expression<unknown> {
  const renamed = type.getValues().filter((entry) => entry.name !== entry.value);
  if (renamed.length === 0) return value;
  return sql`CASE ${value} ${sql.join(
    renamed.map((entry) => sql`WHEN ${sql.lit(String(entry.value))} THEN ${sql.lit(entry.name)}`),
    sql` `,
  )} ELSE ${value} END`;
}

/** A value that does not depend on the row. */
export function constant(value: string | boolean | null): FieldCompiler {
  return (c) => (value === null ? c.json.null : typeof value === 'boolean' ? c.json.boolean(sql.lit(value)) : sql.lit(value));
}

/** The GraphQL object type a field returns (through non-null), or undefined. */
export function objectTypeOf(type: GraphQLOutputType): GraphQLObjectType | undefined {
  const nullable = isNonNullType(type) ? type.ofType : type;
  return isObjectType(nullable) ? nullable : undefined;
}

/** The element object type of a list field (`[T!]!`), or undefined. */
export function listElementTypeOf(type: GraphQLOutputType): GraphQLObjectType | undefined {
  const nullable = getNullableType(type);
  if (!isListType(nullable)) return undefined;
  const element = getNullableType(nullable.ofType);
  return isObjectType(element) ? element : undefined;
}

/** Parameters of a statement and the text a subquery names its JSON column with. */
export const JSON_COLUMN = 'json';
export const ORDER_COLUMN = 'ord';

export type Predicate = (child: string) => RawBuilder<unknown> | Expression<unknown>;
