import { z } from 'zod';
import { invalid } from '../errors.ts';
import { isStorableText } from './text-input.ts';
import { queryInt } from './validation.ts';

/**
 * Keyset pagination shared by both contracts.
 *
 * A listing has an `Ordering`: the columns it sorts by, ending with a unique one.
 * The opaque page token of a row holds that row's sort values, so the next page
 * is "rows after these values": its cost does not depend on how deep the page is.
 * REST returns the token of the last row as `next.page`; GraphQL uses the token
 * of each row as its edge cursor, so `after` takes a REST token and the reverse.
 */

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

const pageSize = () => queryInt(0, MAX_PAGE_SIZE).optional();
const token = z.string().min(1).max(2048).optional();

/**
 * Paging parameters of every listing: REST's `page`/`limit`, and GraphQL's
 * connection arguments, where `after` takes the same tokens as `page`.
 */
export const pageParams = {
  page: token,
  limit: pageSize(),
  first: pageSize(),
  after: token,
  last: pageSize(),
  before: token,
};

export interface PageRequest {
  limit: number;
  /** Rows after this token (forward). */
  after?: string | undefined;
  /** Rows before this token (backward: GraphQL `last`/`before`). */
  before?: string | undefined;
  backward?: boolean | undefined;
  /** The parameter the token came in, named in errors: `page`, `after` or `before`. */
  tokenParam?: string | undefined;
}

interface PageParams {
  page?: string | undefined;
  limit?: number | undefined;
  first?: number | undefined;
  after?: string | undefined;
  last?: number | undefined;
  before?: string | undefined;
}

export function pageRequestOf(params: PageParams): PageRequest {
  if (params.last !== undefined || params.before !== undefined) {
    const backwardParam = params.before !== undefined ? 'before' : 'last';
    if (params.first !== undefined || params.after !== undefined || params.page !== undefined) {
      throw invalid(`${backwardParam}: cannot be combined with first, after or page`);
    }
    return { limit: params.last ?? DEFAULT_PAGE_SIZE, before: params.before, backward: true, tokenParam: 'before' };
  }
  if (params.page !== undefined && params.after !== undefined && params.page !== params.after) {
    throw invalid('after: cannot differ from page');
  }
  return {
    limit: params.first ?? params.limit ?? DEFAULT_PAGE_SIZE,
    after: params.after ?? params.page,
    tokenParam: params.after !== undefined ? 'after' : 'page',
  };
}

type SortValue = string | Date;

export interface SortKey<Row> {
  /** Prisma field path, e.g. "position" or "user.displayName". */
  field: string;
  direction: 'asc' | 'desc';
  /** Type of the value: a token whose values do not have it is refused. */
  type: 'string' | 'date';
  value(row: Row): SortValue;
}

export interface Ordering<Row> {
  /** Name written in tokens, so that a token of another listing order is refused. */
  name: string;
  keys: Array<SortKey<Row>>;
}

export interface Page<Row> {
  items: Row[];
  /** Token of each item: passing it as `page`/`after` continues after that item. */
  cursors: string[];
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  /** Total number of rows of the listing, ignoring the page. Computed only when asked. */
  count(): Promise<number>;
}

export function encodeCursor<Row>(ordering: Ordering<Row>, row: Row): string {
  const values = ordering.keys.map((key) => {
    const value = key.value(row);
    return value instanceof Date ? { d: value.toISOString() } : value;
  });
  return Buffer.from(JSON.stringify([ordering.name, ...values])).toString('base64url');
}

export function decodeCursor<Row>(ordering: Ordering<Row>, token: string, param = 'page'): SortValue[] {
  const refuse = () => invalid(`${param}: is not a page token returned by this listing`);
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw refuse();
  }
  if (!Array.isArray(decoded) || decoded[0] !== ordering.name || decoded.length !== ordering.keys.length + 1) {
    throw refuse();
  }
  // Only values a row of the listing can have: a tampered token must be a 400
  // on both databases, not a string or date that PostgreSQL refuses (a 500).
  return ordering.keys.map((key, index) => {
    const value: unknown = decoded[index + 1];
    if (key.type === 'string' && typeof value === 'string' && isStorableText(value)) return value;
    if (key.type === 'date' && value && typeof value === 'object' && 'd' in value && typeof value.d === 'string') {
      const date = new Date(value.d);
      const year = date.getUTCFullYear();
      if (!Number.isNaN(date.getTime()) && year >= 1 && year <= 9999) return date;
    }
    throw refuse();
  });
}

function nest(field: string, condition: unknown): Record<string, unknown> {
  return field.split('.').reduceRight<unknown>((inner, part) => ({ [part]: inner }), condition) as Record<string, unknown>;
}

/** Prisma `orderBy` of an ordering, reversed when paging backward. */
export function orderByOf<Row>(ordering: Ordering<Row>, backward = false): Array<Record<string, unknown>> {
  return ordering.keys.map((key) => nest(key.field, flip(key.direction, backward)));
}

const flip = (direction: 'asc' | 'desc', backward: boolean) => (backward ? (direction === 'asc' ? 'desc' : 'asc') : direction);

/**
 * Prisma `where` selecting the rows strictly after (or before) the given sort
 * values. The leading bound on the first key is implied by the alternatives,
 * but it is what lets SQLite and PostgreSQL seek the index to the page instead
 * of scanning every row before it (see the benchmark's S4 query plans).
 */
export function keysetWhere<Row>(ordering: Ordering<Row>, values: SortValue[], backward = false) {
  const alternatives = ordering.keys.map((key, index) => {
    const equalPrefix = ordering.keys.slice(0, index).map((previous, i) => nest(previous.field, values[i]));
    const operator = flip(key.direction, backward) === 'asc' ? 'gt' : 'lt';
    return { AND: [...equalPrefix, nest(key.field, { [operator]: values[index] })] };
  });
  const first = ordering.keys[0]!;
  const bound = nest(first.field, { [flip(first.direction, backward) === 'asc' ? 'gte' : 'lte']: values[0] });
  return { AND: [bound, { OR: alternatives }] };
}

/** The REST shape of a page: `{ next?: { page }, count, items }`. */
export async function restList<Item>(page: Page<Item>) {
  const count = await page.count();
  const last = page.cursors.at(-1);
  return { ...(page.hasNextPage && last ? { next: { page: last } } : {}), count, items: page.items };
}

/** A token naming a position in an in-memory listing. */
function positionToken(listing: string, position: number): string {
  return Buffer.from(JSON.stringify([listing, position])).toString('base64url');
}

/** The position a token of `listing` names; a 400 naming `param` for anything else. */
function positionIn(listing: string, token: string, param: string): number {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  const [name, at] = Array.isArray(decoded) ? decoded : [];
  if (name !== listing || !Number.isInteger(at) || at < 0) throw invalid(`${param}: is not a page token returned by this listing`);
  return at as number;
}

/**
 * A page of items ranked or grouped in memory (search results, links), where
 * rows have no sort key to seek: the token holds the offset of the next page
 * and the listing it belongs to (`listing`, e.g. including the search query),
 * so a token of another listing is refused.
 */
export function offsetPage<T>(items: T[], token: string | undefined, limit: number, listing: string) {
  const offset = token ? positionIn(listing, token, 'page') : 0;
  const next = offset + limit;
  return {
    ...(next < items.length ? { next: { page: positionToken(listing, next) } } : {}),
    count: items.length,
    items: items.slice(offset, next),
  };
}

/**
 * A page of a list built in memory in a stable order (a change request's
 * changes), as a keyset Page: the token of an item is its position in the list
 * and the listing's name, so `after` (or `page`) continues after it, `before`
 * stops before it, and a token of another listing is refused.
 */
export function memoryPage<T>(items: readonly T[], request: PageRequest, listing: string): Page<T> & { remaining: number } {
  const positionOf = (token: string) => positionIn(listing, token, request.tokenParam ?? 'page');
  const end = request.before !== undefined ? Math.min(positionOf(request.before), items.length) : items.length;
  const start = request.backward ? Math.max(0, end - request.limit) : request.after !== undefined ? positionOf(request.after) + 1 : 0;
  const stop = request.backward ? end : Math.min(start + request.limit, items.length);
  const slice = items.slice(start, stop);
  return {
    items: slice,
    cursors: slice.map((_, index) => positionToken(listing, start + index)),
    hasNextPage: stop < items.length,
    hasPreviousPage: start > 0,
    count: async () => items.length,
    /** How many items come after this page. */
    remaining: items.length - stop,
  };
}
