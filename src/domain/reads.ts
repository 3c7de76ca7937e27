import { createHash } from 'node:crypto';
import { type Expression, type RawBuilder, sql } from 'kysely';
import { type Ordering, type Page, type PageRequest, decodeCursor, encodeCursor } from '../lib/pagination.ts';
import type { RequestContext } from '../context.ts';
import type { Provider } from '../db/index.ts';
import { type RecordShape, recordObject, recordShape, reviveRecord } from '../db/records.ts';
import { type JsonDialect, Slot, type SqlBuilder, bindSlots, jsonDialect, sqlBuilder } from '../db/sql.ts';
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

/** A statement compiled once, whose slots take values at each run. */
interface Statement {
  sql: string;
  parameters: readonly unknown[];
  /** Its name on PostgreSQL, where each connection prepares it once. */
  name: string;
}

/** Runs a compiled statement answering one JSON text (its first column) and parses it; null without a row. */
async function runJson<T>(ctx: RequestContext, statement: Statement, values: Record<string, unknown>): Promise<T | null> {
  ctx.checkBudget?.();
  const parameters = bindSlots(statement.parameters, values);
  let text: string | null;
  if (ctx.readText) {
    text = await ctx.readText({ sql: statement.sql, parameters, name: statement.name });
  } else {
    const rows = await ctx.db.$queryRawUnsafe<Array<Record<string, unknown>>>(statement.sql, ...parameters);
    text = rows[0] ? (Object.values(rows[0])[0] as string | null) : null;
  }
  return text === null ? null : (JSON.parse(text) as T);
}

function compile(ctx: RequestContext, query: RawBuilder<unknown>): Statement {
  const compiled = query.compile(sqlOf(ctx).db);
  return { sql: compiled.sql, parameters: compiled.parameters, name: `r_${createHash('sha1').update(compiled.sql).digest('base64url')}` };
}

/** A slot of a statement (src/db/sql.ts Slot): its value is given when the statement runs. */
export const slot = (name: string) => new Slot(name);

/**
 * A read built once per database kind, with slots for what changes from one
 * run to the next (an id, the viewer's organizations), and run with their
 * values: compiled once, prepared once per connection on PostgreSQL.
 */
export function preparedRead<T, Values extends Record<string, unknown>>(build: (ctx: RequestContext) => RawBuilder<unknown>) {
  const statements = new Map<Provider, Statement>();
  return (ctx: RequestContext, values: Values): Promise<T | null> => {
    let statement = statements.get(ctx.provider);
    if (!statement) statements.set(ctx.provider, (statement = compile(ctx, build(ctx))));
    return runJson<T>(ctx, statement, values);
  };
}

/** A table's row as a JSON object (every column), and how to make it a record again. */
export function recordOf(ctx: RequestContext, table: keyof Tables, alias: string): { object: Expression<unknown>; shape: RecordShape } {
  const shape = recordShape(ctx.db, table);
  return { object: recordObject(sqlOf(ctx).json, shape, alias), shape };
}

/** A table's columns, as reviveRecord takes them (without building the statement's JSON object, as recordOf does). */
export function shapeOf(ctx: RequestContext, table: keyof Tables): RecordShape {
  return recordShape(ctx.db, table);
}

export { reviveRecord };

/**
 * What the predicates of content reads take from the viewer (slots `contentOf`,
 * `memberOf`, `userId`): the organizations whose content it reads, those where
 * it is an active member (guests too: grants reach them), and its id; null
 * without the memberships read with its token.
 */
export function viewerSlots(ctx: RequestContext): { contentOf: string[]; memberOf: string[]; userId: string } | null {
  const memberships = ctx.viewer?.memberships;
  return memberships ? { ...openedOrganizations(memberships.values()), userId: ctx.viewer!.user.id } : null;
}

/** A piece of content in a statement: a space or a collection row's columns. */
export interface ContentColumns {
  kind: 'space' | 'collection';
  id: Expression<unknown>;
  parentId: Expression<unknown>;
  organizationId: Expression<unknown>;
}

/**
 * The grants that reach a piece of content for the viewer (slot `userId`), its
 * own and its teams', on the content itself and on every collection above it
 * (src/domain/permissions/grants.ts grantedOn, in SQL): the FROM and WHERE of a subquery.
 */
function grantsReaching(content: ContentColumns, userId: Expression<unknown> = slot('userId') as never): RawBuilder<unknown> {
  const own = content.kind === 'space' ? sql`g."spaceId" = ${content.id}` : sql`g."collectionId" = ${content.id}`;
  return sql`FROM "content_grants" AS g
    WHERE g."organizationId" = ${content.organizationId}
    AND (g."userId" = ${userId} OR g."teamId" IN (SELECT tm."teamId" FROM "team_members" AS tm WHERE tm."userId" = ${userId}))
    AND (${own} OR g."collectionId" IN (WITH RECURSIVE "grantAbove"("id", "parentId", "depth") AS (
      SELECT c."id", c."parentId", 1 FROM "collections" AS c WHERE c."id" = ${content.parentId}
      UNION ALL
      SELECT c."id", c."parentId", "grantAbove"."depth" + 1 FROM "collections" AS c JOIN "grantAbove" ON c."id" = "grantAbove"."parentId"
      WHERE "grantAbove"."depth" < 64)
    SELECT "id" FROM "grantAbove"))`;
}

/** The roles granted to the viewer that reach a piece of content, as a JSON array (slot `userId`). */
export function grantedRoles(ctx: RequestContext, content: ContentColumns): Expression<unknown> {
  return sql`(SELECT ${sqlOf(ctx).json.arrayAgg(sql.ref('g.role'), sql.ref('g.role'))} ${grantsReaching(content)})`;
}

/**
 * The viewer sees a piece of content: its organization's content is open to it
 * (`contentOf`), or it is a member there (`memberOf`, guests too) with a grant
 * that reaches it (src/domain/access.ts effectiveLevel, as a predicate). The
 * viewer's values are slots (`contentOf`, `memberOf`, `userId`: viewerSlots)
 * unless given (compiled GraphQL reads build theirs per viewer).
 */
export function seesContent(
  ctx: Pick<RequestContext, 'provider'>,
  content: ContentColumns,
  viewer?: { contentOf: readonly string[]; memberOf: readonly string[]; userId: string },
): RawBuilder<unknown> {
  const { json } = sqlOf(ctx);
  const contentOf = viewer ? viewer.contentOf : slot('contentOf');
  const memberOf = viewer ? viewer.memberOf : slot('memberOf');
  const userId = viewer ? sql`${viewer.userId}` : sql`${slot('userId')}`;
  return sql`(${json.inList(content.organizationId, contentOf)} OR (${json.inList(content.organizationId, memberOf)} AND EXISTS (SELECT 1 ${grantsReaching(content, userId)})))`;
}

/**
 * The viewer sees a site (`siteId`, `organizationId`: its row's columns): its
 * organization's content is open to it, or it is a member there with a grant on
 * the site, its own or a team's (src/domain/sites/records.ts siteLevel, as a predicate).
 */
export function seesSite(
  ctx: Pick<RequestContext, 'provider'>,
  site: { id: Expression<unknown>; organizationId: Expression<unknown> },
  viewer: { contentOf: readonly string[]; memberOf: readonly string[]; userId: string },
): RawBuilder<unknown> {
  const { json } = sqlOf(ctx);
  const userId = sql`${viewer.userId}`;
  return sql`(${json.inList(site.organizationId, viewer.contentOf)} OR (${json.inList(site.organizationId, viewer.memberOf)} AND EXISTS (SELECT 1 FROM "content_grants" AS g
    WHERE g."siteId" = ${site.id} AND (g."userId" = ${userId} OR g."teamId" IN (SELECT tm."teamId" FROM "team_members" AS tm WHERE tm."userId" = ${userId})))))`;
}

/** A space row (`alias`) as the content of seesContent and grantedRoles. */
export const spaceColumnsOf = (alias: string): ContentColumns => contentColumnsOf('space', alias);

/** A space or collection row (`alias`) as the content of seesContent and grantedRoles. */
export const contentColumnsOf = (kind: 'space' | 'collection', alias: string): ContentColumns => ({
  kind,
  id: sql.ref(`${alias}.id`),
  parentId: sql.ref(`${alias}.parentId`),
  organizationId: sql.ref(`${alias}.organizationId`),
});

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
  return keysetPredicate(ordering, alias, boundAt);
}

/** What a page of a listing reads: rows of a table (`alias`) under conditions, in an ordering, with values computed per row. */
export interface PageRead {
  table: keyof Tables;
  alias: string;
  /** The listing's rows (its parent, what it leaves out), with slots for the values of a run. */
  where: Array<Expression<unknown>>;
  ordering: Ordering<never>;
  /** More values of each row (counts, inherited levels), answered beside its record. */
  extras?: Record<string, Expression<unknown>>;
}

/**
 * A page of a listing in one statement: `limit` records after the token, one
 * more to tell whether a next page follows, and the count of the whole listing
 * (REST answers it with every page). Compiled once per database kind, with and
 * without a token. Forward pages only: null for a backward request, which the
 * caller reads the other way.
 */
export function preparedPage<Row, Extra extends Record<string, unknown> = Record<string, never>>(define: (ctx: RequestContext) => PageRead) {
  const statements = new Map<string, { statement: Statement; shape: RecordShape; ordering: Ordering<never> }>();
  return async (ctx: RequestContext, values: Record<string, unknown>, request: PageRequest): Promise<Page<{ record: Row; extra: Extra }> | null> => {
    if (request.backward || request.before) return null;
    const key = `${ctx.provider}:${request.after ? 'after' : 'first'}`;
    let prepared = statements.get(key);
    if (!prepared) {
      const read = define(ctx);
      const { json } = sqlOf(ctx);
      const { object, shape } = recordOf(ctx, read.table, read.alias);
      const conditions = [...read.where];
      if (request.after) conditions.push(keysetAfterSlots(json, read.ordering, read.alias));
      const keys = read.ordering.keys.map((key, index) => sql`${ref(read.alias, key.field)} AS ${sql.id(`k${index}`)}`);
      const orderBy = (of: string | null) =>
        sql.join(
          read.ordering.keys.map((key, index) => sql`${of ? sql.ref(`${of}.k${index}`) : ref(read.alias, key.field)} ${sql.raw(key.direction.toUpperCase())}`),
          sql`, `,
        );
      const row = json.object([['record', object], ...Object.entries(read.extras ?? {})]);
      const statement = sql`SELECT ${json.text(
        json.object([
          [
            'rows',
            sql`(SELECT ${json.arrayAgg(sql.ref('page.json'), orderBy('page'))} FROM (
              SELECT ${row} AS json, ${sql.join(keys, sql`, `)} FROM ${sql.table(read.table)} AS ${sql.id(read.alias)}
              WHERE ${and(conditions)} ORDER BY ${orderBy(null)} LIMIT ${slot('limit')}) AS page)`,
          ],
          ['count', sql`(SELECT count(*) FROM ${sql.table(read.table)} AS ${sql.id(read.alias)} WHERE ${and(read.where)})`],
        ]),
      )}`;
      statements.set(key, (prepared = { statement: compile(ctx, statement), shape, ordering: read.ordering }));
    }
    const { statement, shape, ordering } = prepared;
    const bounds = request.after ? boundValues(sqlOf(ctx).json, ordering, request.after, request.tokenParam ?? 'page') : {};
    const answer = await runJson<{ rows: Array<{ record: Record<string, unknown> } & Extra>; count: number }>(ctx, statement, {
      ...values,
      ...bounds,
      limit: request.limit + 1,
    });
    const { rows, count } = answer!;
    const items = rows.slice(0, request.limit).map(({ record, ...extra }) => ({ record: reviveRecord<Row>(shape, record), extra: extra as unknown as Extra }));
    return {
      items,
      cursors: items.map((item) => encodeCursor(ordering as Ordering<Row>, item.record)),
      hasNextPage: rows.length > request.limit,
      hasPreviousPage: Boolean(request.after),
      count: async () => Number(count),
    };
  };
}

/** The slots `bound0`, `bound1`… of keysetAfterSlots, from a page token (its 400 for a token of another listing). */
function boundValues(json: JsonDialect, ordering: Ordering<never>, token: string, param: string): Record<string, unknown> {
  const bounds = decodeCursor(ordering, token, param);
  return Object.fromEntries(bounds.map((value, index) => [`bound${index}`, value instanceof Date ? timestampValue(json, value) : value]));
}

/** A date as the parameter compared with timestamp columns (src/db/sql.ts timestamp, without its cast). */
function timestampValue(json: JsonDialect, value: Date): string {
  return json.provider === 'postgresql' ? value.toISOString() : value.toISOString().replace('Z', '+00:00');
}

/** keysetAfter with the token's values as slots (`bound0`…): one statement for every token. */
function keysetAfterSlots(json: JsonDialect, ordering: Ordering<never>, alias: string): Expression<unknown> {
  const boundAt = (index: number) => {
    const bound = slot(`bound${index}`);
    return ordering.keys[index]!.type === 'date' && json.provider === 'postgresql' ? sql`CAST(${bound} AS timestamp(3))` : sql`${bound}`;
  };
  return keysetPredicate(ordering, alias, boundAt);
}

/** Rows after the bounds (`boundAt(i)`, the value of the ordering's i-th key) in the ordering's direction. */
function keysetPredicate(ordering: Ordering<never>, alias: string, boundAt: (index: number) => Expression<unknown>): Expression<unknown> {
  const alternatives = ordering.keys.map((key, index) => {
    const equal = ordering.keys.slice(0, index).map((previous, i) => sql`${ref(alias, previous.field)} = ${boundAt(i)}`);
    const operator = sql.raw(key.direction === 'asc' ? '>' : '<');
    return and([...equal, sql`${ref(alias, key.field)} ${operator} ${boundAt(index)}`]);
  });
  const leading = ordering.keys[0]!;
  const bound = sql`${ref(alias, leading.field)} ${sql.raw(leading.direction === 'asc' ? '>=' : '<=')} ${boundAt(0)}`;
  return sql`(${bound} AND (${sql.join(alternatives, sql` OR `)}))`;
}
