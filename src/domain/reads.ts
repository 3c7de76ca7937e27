import { type Expression, type RawBuilder, sql } from 'kysely';
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
