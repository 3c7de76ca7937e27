import {
  DummyDriver,
  type Expression,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type RawBuilder,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql,
} from 'kysely';
import type { Provider } from './client.ts';
import type { Tables } from './tables.ts';

/**
 * Typed SQL for reads compiled to one statement (src/graphql/compiled/): Kysely
 * builds it for the database's dialect, and the statement runs on the driver
 * itself (Database.readText), not through Prisma. Prisma keeps the schema, the
 * migrations, the writes and the domain's own reads.
 *
 * The nested levels of a tree are JSON built by the database: PostgreSQL's
 * `json_build_object`/`json_agg`; SQLite's JSONB functions, which nest without
 * parsing the levels below again, made text once at the top.
 */
export type SqlBuilder = Kysely<Tables>;

/** A Kysely that only compiles (it has no connection): statements run through Database.readText. */
export function sqlBuilder(provider: Provider): SqlBuilder {
  return new Kysely<Tables>({
    dialect:
      provider === 'postgresql'
        ? {
            createAdapter: () => new PostgresAdapter(),
            createDriver: () => new DummyDriver(),
            createIntrospector: (db) => new PostgresIntrospector(db),
            createQueryCompiler: () => new PostgresQueryCompiler(),
          }
        : {
            createAdapter: () => new SqliteAdapter(),
            createDriver: () => new DummyDriver(),
            createIntrospector: (db) => new SqliteIntrospector(db),
            createQueryCompiler: () => new SqliteQueryCompiler(),
          },
  });
}

/**
 * A parameter whose value is given when the statement runs: a statement built
 * with slots is compiled once and run with other values (and, on PostgreSQL,
 * prepared once per connection under its name).
 */
export class Slot {
  constructor(
    readonly name: string,
    /** The value as the driver takes it, from the value given. */
    readonly encode: (value: unknown) => unknown = (value) => value,
  ) {}
}

/** The parameters of a compiled statement, with each slot's value. */
export function bindSlots(parameters: readonly unknown[], values: Record<string, unknown>): unknown[] {
  return parameters.map((parameter) => {
    if (!(parameter instanceof Slot)) return parameter;
    if (!(parameter.name in values)) throw new Error(`No value for the slot ${parameter.name}`);
    return parameter.encode(values[parameter.name]);
  });
}

/** A JSON value as the dialect builds it (PostgreSQL `json`, SQLite JSONB). */
export type JsonExpression = RawBuilder<unknown>;

/** The JSON functions of each dialect, so that the compiler writes one tree for both. */
export interface JsonDialect {
  provider: Provider;
  /** An object of these keys and values, in this order. */
  object(entries: ReadonlyArray<readonly [string, Expression<unknown>]>): JsonExpression;
  /** The values `value` of the rows of `alias` as an array in `order`, those `filter` keeps; [] when none. An aggregate. */
  arrayAgg(value: Expression<unknown>, order: Expression<unknown>, filter?: Expression<unknown>): JsonExpression;
  /** A boolean column or expression as JSON true/false (SQLite keeps 0 and 1). */
  boolean(value: Expression<unknown>): JsonExpression;
  /** A timestamp column as JavaScript's toISOString() writes it, e.g. 2026-11-25T17:00:00.000Z. */
  isoDate(value: Expression<unknown>): JsonExpression;
  /** JSON text of a `Json` column, as JSON (not as a string). */
  jsonColumn(value: Expression<unknown>): JsonExpression;
  /** Text made JSON text at the top of a statement. */
  text(value: Expression<unknown>): RawBuilder<string>;
  /** `value` is among the texts of the array parameter `values`, or of a slot's list (one statement whatever their number). */
  inList(value: Expression<unknown>, values: readonly string[] | Slot): RawBuilder<boolean>;
  /** The base64url encoding of UTF-8 text (page tokens). */
  base64url(text: Expression<unknown>): RawBuilder<string>;
  /** A text as a JSON string literal inside a text being built (page tokens). */
  quoted(value: Expression<unknown>): RawBuilder<string>;
  /** Text concatenation. */
  concat(parts: ReadonlyArray<Expression<unknown>>): RawBuilder<string>;
  /** A date as a parameter compared with timestamp columns (as the driver adapters store them). */
  timestamp(value: Date): RawBuilder<unknown>;
  /** A text as a JSON string, where a value may also be JSON (one branch of a CASE). */
  string(value: Expression<unknown>): JsonExpression;
  /** JSON null. */
  readonly null: JsonExpression;
}

const postgresJson: JsonDialect = {
  provider: 'postgresql',
  object: (entries) =>
    sql`json_build_object(${sql.join(
      entries.map(([key, value]) => sql`${sql.lit(key)}::text, ${value}`),
      sql`, `,
    )})`,
  arrayAgg: (value, order, filter) => sql`coalesce(json_agg(${value} ORDER BY ${order})${filter ? sql` FILTER (WHERE ${filter})` : sql``}, '[]'::json)`,
  boolean: (value) => sql`${value}`,
  isoDate: (value) => sql`to_char(${value}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  jsonColumn: (value) => sql`${value}::json`,
  text: (value) => sql<string>`(${value})::text`,
  inList: (value, values) => sql<boolean>`${value} = ANY(${values instanceof Slot ? values : [...values]}::text[])`,
  base64url: (text) => sql<string>`translate(encode(convert_to(${text}, 'UTF8'), 'base64'), E'+/=\\n', '-_')`,
  quoted: (value) => sql<string>`to_json(${value}::text)::text`,
  concat: (parts) => sql<string>`(${sql.join(parts, sql` || `)})`,
  // A timestamp without time zone holding UTC: the ISO text's Z is ignored, as wanted.
  timestamp: (value) => sql`${value.toISOString()}::timestamp(3)`,
  string: (value) => sql`to_json(${value}::text)`,
  null: sql`NULL::json`,
};

const sqliteJson: JsonDialect = {
  provider: 'sqlite',
  object: (entries) =>
    sql`jsonb_object(${sql.join(
      entries.map(([key, value]) => sql`${sql.lit(key)}, ${value}`),
      sql`, `,
    )})`,
  arrayAgg: (value, order, filter) =>
    sql`coalesce(jsonb_group_array(${value} ORDER BY ${order})${filter ? sql` FILTER (WHERE ${filter})` : sql``}, jsonb('[]'))`,
  boolean: (value) => sql`CASE WHEN ${value} THEN jsonb('true') WHEN ${value} IS NULL THEN NULL ELSE jsonb('false') END`,
  isoDate: (value) => sql`strftime('%Y-%m-%dT%H:%M:%fZ', ${value})`,
  jsonColumn: (value) => sql`jsonb(${value})`,
  text: (value) => sql<string>`json(${value})`,
  inList: (value, values) =>
    sql<boolean>`${value} IN (SELECT value FROM json_each(${values instanceof Slot ? new Slot(values.name, (list) => JSON.stringify(values.encode(list))) : JSON.stringify(values)}))`,
  base64url: (text) => sql<string>`docs_gateway_base64url(${text})`,
  quoted: (value) => sql<string>`json_quote(${value})`,
  concat: (parts) => sql<string>`(${sql.join(parts, sql` || `)})`,
  // As the driver adapter writes them (timestampFormat iso8601, src/db/client.ts): text that sorts by time.
  timestamp: (value) => sql`${value.toISOString().replace('Z', '+00:00')}`,
  string: (value) => sql`${value}`,
  null: sql`NULL`,
};

export const jsonDialect = (provider: Provider): JsonDialect => (provider === 'postgresql' ? postgresJson : sqliteJson);
