import { type Expression, type RawBuilder, sql } from 'kysely';
import { type Ordering, type Page, type PageRequest, decodeCursor, encodeCursor } from '../lib/pagination.ts';
import type { RequestContext } from '../context.ts';
import type { Provider } from '../db/index.ts';
import { type RecordShape, recordObject, recordShape, reviveRecord } from '../db/records.ts';
import { type JsonDialect, type SqlBuilder, jsonDialect, sqlBuilder } from '../db/sql.ts';
import type { Tables } from '../db/tables.ts';
import { openedOrganizations } from './access.ts';

/**
 * Reads of the domain compiled to one statement whose answer is one JSON text
 * (src/db/sql.ts): what REST answers a GET of a space with — the row, what its
 * permissions need, its counts — in one round trip, without Prisma's per-query
 * work. The statement runs on the driver outside transactions, through the
 * transaction's connection inside one.
 */

const builders = new Map<Provider, { db: SqlBuilder; json: JsonDialect }>();

/** The statement builder and JSON functions of the request's database. */
export function sqlOf(ctx: Pick<RequestContext, 'provider'>): { db: SqlBuilder; json: JsonDialect } {
  let found = builders.get(ctx.provider);
  if (!found) builders.set(ctx.provider, (found = { db: sqlBuilder(ctx.provider), json: jsonDialect(ctx.provider) }));
  return found;
}

/** Runs a statement answering one JSON text (its first column) and parses it; null without a row. */
export async function readJson<T>(ctx: RequestContext, query: RawBuilder<unknown>): Promise<T | null> {
  ctx.checkBudget?.();
  const compiled = query.compile(sqlOf(ctx).db);
  let text: string | null;
  if (ctx.readText) {
    text = await ctx.readText({ sql: compiled.sql, parameters: compiled.parameters });
  } else {
    const rows = await ctx.db.$queryRawUnsafe<Array<Record<string, unknown>>>(compiled.sql, ...compiled.parameters);
    text = rows[0] ? (Object.values(rows[0])[0] as string | null) : null;
  }
  return text === null ? null : (JSON.parse(text) as T);
}

/** A table's row as a JSON object (every column), and how to make it a record again. */
export function recordOf(ctx: RequestContext, table: keyof Tables, alias: string): { object: Expression<unknown>; shape: RecordShape } {
  const shape = recordShape(ctx.db, table);
  return { object: recordObject(sqlOf(ctx).json, shape, alias), shape };
}

export { reviveRecord };

/** `column IN (…)` of the viewer's organizations whose content it reads (src/domain/access.ts readsContent); false without memberships. */
export function readsContentOf(ctx: RequestContext, column: Expression<unknown>): Expression<unknown> | null {
  const memberships = ctx.viewer?.memberships;
  if (!memberships) return null;
  return sqlOf(ctx).json.inList(column, openedOrganizations(memberships.values()).contentOf);
}

/** A simple Prisma filter of equalities (`{ status: 'open', changeRequestId: null }`) as SQL on the row `alias`. */
export function equalities(alias: string, filter: Record<string, string | number | null>): Expression<unknown> {
  return sql.join(
    Object.entries(filter).map(([column, value]) =>
      value === null ? sql`${sql.ref(`${alias}.${column}`)} IS NULL` : sql`${sql.ref(`${alias}.${column}`)} = ${value}`,
    ),
    sql` AND `,
  );
}

/**
 * The first default level set on the collections above a piece of content
 * (from `parentId` up, the nearest first), or null: what src/domain/shared/content-tree.ts
 * memberLevelOn walks to, read in the same statement.
 */
export function inheritedLevel(parentId: Expression<unknown>): Expression<unknown> {
  return sql`(WITH RECURSIVE "above"("id", "parentId", "defaultLevel", "depth") AS (
      SELECT c."id", c."parentId", c."defaultLevel", 1 FROM "collections" AS c WHERE c."id" = ${parentId}
      UNION ALL
      SELECT c."id", c."parentId", c."defaultLevel", "above"."depth" + 1 FROM "collections" AS c JOIN "above" ON c."id" = "above"."parentId"
      WHERE "above"."defaultLevel" IS NULL AND "above"."depth" < 64)
    SELECT "defaultLevel" FROM "above" WHERE "defaultLevel" IS NOT NULL ORDER BY "depth" LIMIT 1)`;
}

const ref = (alias: string, column: string) => sql.ref(`${alias}.${column}`);
const and = (conditions: Array<Expression<unknown>>) => (conditions.length ? sql`(${sql.join(conditions, sql` AND `)})` : sql`TRUE`);

/**
 * Rows of `alias` strictly after a page token's values in the ordering, with
 * the leading bound that lets the index seek (src/lib/pagination.ts keysetWhere
 * in SQL); null for a token of another listing.
 */
export function keysetAfter(json: JsonDialect, ordering: Ordering<never>, alias: string, token: string, param: string): Expression<unknown> | null {
  let bounds: Array<string | Date>;
  try {
    bounds = decodeCursor(ordering, token, param);
  } catch {
    return null;
  }
  const boundAt = (index: number) => {
    const value = bounds[index]!;
    return value instanceof Date ? json.timestamp(value) : sql`${value}`;
  };
  const alternatives = ordering.keys.map((key, index) => {
    const equal = ordering.keys.slice(0, index).map((previous, i) => sql`${ref(alias, previous.field)} = ${boundAt(i)}`);
    const operator = sql.raw(key.direction === 'asc' ? '>' : '<');
    return and([...equal, sql`${ref(alias, key.field)} ${operator} ${boundAt(index)}`]);
  });
  const leading = ordering.keys[0]!;
  const bound = sql`${ref(alias, leading.field)} ${sql.raw(leading.direction === 'asc' ? '>=' : '<=')} ${boundAt(0)}`;
  return sql`(${bound} AND (${sql.join(alternatives, sql` OR `)}))`;
}

/** What a page of a listing reads: rows of a table (`alias`) under conditions, in an ordering, with values computed per row. */
export interface PageRead {
  table: keyof Tables;
  alias: string;
  /** The listing's rows (its parent, what it leaves out). */
  where: Array<Expression<unknown>>;
  ordering: Ordering<never>;
  request: PageRequest;
  /** More values of each row (counts, inherited levels), answered beside its record. */
  extras?: Record<string, Expression<unknown>>;
  /** More values of the whole read (whether the parent exists), answered beside the page. */
  also?: Record<string, Expression<unknown>>;
}

/**
 * A page of a listing in one statement: `limit` records after the token, one
 * more to tell whether a next page follows, and the count of the whole listing
 * (REST answers it with every page). Forward pages only: null for a backward
 * request, which the caller reads the other way.
 */
export async function readPage<Row, Extra extends Record<string, unknown> = Record<string, never>>(
  ctx: RequestContext,
  read: PageRead,
): Promise<{ page: Page<{ record: Row; extra: Extra }>; also: Record<string, unknown> } | null> {
  const { request, ordering, alias } = read;
  if (request.backward || request.before) return null;
  const { json } = sqlOf(ctx);
  const { object, shape } = recordOf(ctx, read.table, alias);
  const conditions = [...read.where];
  if (request.after) {
    const after = keysetAfter(json, ordering, alias, request.after, request.tokenParam ?? 'page');
    // A token of another listing: decoding it again throws its 400.
    if (!after) throw decodeCursor(ordering, request.after, request.tokenParam ?? 'page');
    conditions.push(after);
  }
  const keys = ordering.keys.map((key, index) => sql`${ref(alias, key.field)} AS ${sql.id(`k${index}`)}`);
  const orderBy = (of: string | null) =>
    sql.join(
      ordering.keys.map((key, index) => sql`${of ? sql.ref(`${of}.k${index}`) : ref(alias, key.field)} ${sql.raw(key.direction.toUpperCase())}`),
      sql`, `,
    );
  const row = json.object([['record', object], ...Object.entries(read.extras ?? {})]);
  const statement = sql`SELECT ${json.text(
    json.object([
      [
        'rows',
        sql`(SELECT ${json.arrayAgg(sql.ref('page.json'), orderBy('page'))} FROM (
          SELECT ${row} AS json, ${sql.join(keys, sql`, `)} FROM ${sql.table(read.table)} AS ${sql.id(alias)}
          WHERE ${and(conditions)} ORDER BY ${orderBy(null)} LIMIT ${request.limit + 1}) AS page)`,
      ],
      ['count', sql`(SELECT count(*) FROM ${sql.table(read.table)} AS ${sql.id(alias)} WHERE ${and(read.where)})`],
      ...Object.entries(read.also ?? {}),
    ]),
  )}`;
  const answer = await readJson<{ rows: Array<{ record: Record<string, unknown> } & Extra>; count: number } & Record<string, unknown>>(ctx, statement);
  const { rows, count, ...also } = answer!;
  const items = rows.slice(0, request.limit).map(({ record, ...extra }) => ({ record: reviveRecord<Row>(shape, record), extra: extra as unknown as Extra }));
  return {
    page: {
      items,
      cursors: items.map((item) => encodeCursor(ordering as Ordering<Row>, item.record)),
      hasNextPage: rows.length > request.limit,
      hasPreviousPage: Boolean(request.after),
      count: async () => Number(count),
    },
    also,
  };
}
