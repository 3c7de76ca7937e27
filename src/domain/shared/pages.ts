import type { RequestContext } from '../../context.ts';
import { type Ordering, type Page, type PageRequest, decodeCursor, encodeCursor, keysetWhere, orderByOf } from '../../lib/pagination.ts';
import { type LoaderDefinition, defineLoader, loader } from '../loaders.ts';

/** The same page with each item turned into another (its cursor is kept). */
export async function mapPage<Row, Item>(page: Page<Row>, present: (row: Row) => Promise<Item> | Item): Promise<Page<Item>> {
  return { ...page, items: await Promise.all(page.items.map(present)) };
}

export function emptyPage<Item>(): Page<Item> {
  return { items: [], cursors: [], hasNextPage: false, hasPreviousPage: false, count: async () => 0 };
}

/**
 * A listing of the children of a parent (the spaces of a collection, the members
 * of an organization…). Pages for many parents requested in the same tick are
 * read together, so a GraphQL list of parents costs one statement per level, not
 * one per parent; a single parent (every REST listing) reads one page with LIMIT.
 */
export interface ChildListing<Row, Filter> {
  name: string;
  ordering(filter: Filter): Ordering<Row>;
  parentOf(row: Row): string;
  /** Rows of these parents matching `filter` and `where` (the keyset condition), in `orderBy` order. */
  findMany(ctx: RequestContext, parentIds: string[], filter: Filter, args: { where: object; orderBy: object[]; take?: number }): Promise<Row[]>;
  /** Number of rows matching `filter` for each of these parents. */
  count(ctx: RequestContext, parentIds: string[], filter: Filter): Promise<Map<string, number>>;
  /** The loader of these rows by id, primed with the listed rows so that later lookups are free. */
  records?: LoaderDefinition<string, Row | null>;
}

interface PageKey<Filter> {
  parentId: string;
  filter: Filter;
  request: PageRequest;
}

const pageLoaders = new WeakMap<object, LoaderDefinition<PageKey<never>, Page<never>>>();
const countLoaders = new WeakMap<object, LoaderDefinition<{ parentId: string; filter: unknown }, number>>();

export function listChildren<Row, Filter>(
  ctx: RequestContext,
  listing: ChildListing<Row, Filter>,
  parentId: string,
  filter: Filter,
  request: PageRequest,
): Promise<Page<Row>> {
  let definition = pageLoaders.get(listing) as LoaderDefinition<PageKey<Filter>, Page<Row>> | undefined;
  if (!definition) {
    definition = defineLoader<PageKey<Filter>, Page<Row>>(
      (ctx, keys) => loadPages(ctx, listing, keys),
      (key) => JSON.stringify([key.parentId, key.filter, key.request]),
    );
    pageLoaders.set(listing, definition as never);
  }
  return loader(ctx, definition).load({ parentId, filter, request });
}

async function loadPages<Row, Filter>(ctx: RequestContext, listing: ChildListing<Row, Filter>, keys: readonly PageKey<Filter>[]): Promise<Page<Row>[]> {
  // Keys that differ only by parent are read with one statement.
  const groups = new Map<string, PageKey<Filter>[]>();
  for (const key of keys) {
    const group = JSON.stringify([key.filter, key.request]);
    groups.set(group, [...(groups.get(group) ?? []), key]);
  }
  const pages = new Map<PageKey<Filter>, Page<Row>>();
  await Promise.all(
    [...groups.values()].map(async (group) => {
      const { filter, request } = group[0]!;
      const ordering = listing.ordering(filter);
      const backward = Boolean(request.backward || request.before);
      const token = backward ? request.before : request.after;
      const where = token ? keysetWhere(ordering, decodeCursor(ordering, token, request.tokenParam ?? 'page'), backward) : {};
      const parentIds = [...new Set(group.map((key) => key.parentId))];
      // One row past the page tells whether another page follows (also for a limit of 0).
      const rows = await listing.findMany(ctx, parentIds, filter, {
        where,
        orderBy: orderByOf(ordering, backward),
        ...(parentIds.length === 1 ? { take: request.limit + 1 } : {}),
      });
      if (listing.records) {
        const records = loader(ctx, listing.records);
        for (const row of rows) records.prime((row as { id: string }).id, row);
      }
      const byParent = new Map<string, Row[]>();
      for (const row of rows) {
        const parent = listing.parentOf(row);
        byParent.set(parent, [...(byParent.get(parent) ?? []), row]);
      }
      for (const key of group) {
        const children = byParent.get(key.parentId) ?? [];
        const more = children.length > request.limit;
        const items = children.slice(0, request.limit);
        if (backward) items.reverse();
        pages.set(key, {
          items,
          cursors: items.map((item) => encodeCursor(ordering, item)),
          hasNextPage: backward ? Boolean(token) : more,
          hasPreviousPage: backward ? more : Boolean(token),
          count: () => countChildren(ctx, listing, key.parentId, filter),
        });
      }
    }),
  );
  return keys.map((key) => pages.get(key)!);
}

/**
 * A page of the children a viewer may see when visibility is decided in code
 * (site structure shown to a visitor by conditions): every row after the token
 * is read and filtered, so pages are full, `count` counts what is shown, and
 * the next token follows the last row returned. For small child sets only.
 */
export async function listVisibleChildren<Row, Filter>(
  ctx: RequestContext,
  listing: ChildListing<Row, Filter>,
  parentId: string,
  filter: Filter,
  request: PageRequest,
  keep: (row: Row) => boolean,
): Promise<Page<Row>> {
  const ordering = listing.ordering(filter);
  const all = (await listing.findMany(ctx, [parentId], filter, { where: {}, orderBy: orderByOf(ordering) })).filter(keep);
  const cursors = all.map((row) => encodeCursor(ordering, row));
  const backward = Boolean(request.backward || request.before);
  const token = backward ? request.before : request.after;
  if (token) decodeCursor(ordering, token, request.tokenParam ?? 'page');
  const at = token ? cursors.indexOf(token) : -1;
  // A token of a row the viewer cannot see (or no longer exists) starts over from the edge.
  const start = backward ? 0 : at + 1;
  const end = backward ? (at >= 0 ? at : all.length) : all.length;
  const window = backward ? all.slice(Math.max(start, end - request.limit), end) : all.slice(start, start + request.limit);
  const from = all.indexOf(window[0]!);
  return {
    items: window,
    cursors: window.map((_, index) => cursors[from + index]!),
    hasNextPage: backward ? end < all.length : start + request.limit < all.length,
    hasPreviousPage: backward ? end - request.limit > 0 : start > 0,
    count: async () => all.length,
  };
}

function countChildren<Row, Filter>(ctx: RequestContext, listing: ChildListing<Row, Filter>, parentId: string, filter: Filter): Promise<number> {
  let definition = countLoaders.get(listing) as LoaderDefinition<{ parentId: string; filter: Filter }, number> | undefined;
  if (!definition) {
    definition = defineLoader<{ parentId: string; filter: Filter }, number>(
      async (ctx, keys) => {
        const groups = new Map<string, Array<{ parentId: string; filter: Filter }>>();
        for (const key of keys) {
          const group = JSON.stringify(key.filter);
          groups.set(group, [...(groups.get(group) ?? []), key]);
        }
        const counts = new Map<string, number>();
        await Promise.all(
          [...groups.entries()].map(async ([group, members]) => {
            const found = await listing.count(ctx, [...new Set(members.map((m) => m.parentId))], members[0]!.filter);
            for (const member of members) counts.set(`${group}\u0000${member.parentId}`, found.get(member.parentId) ?? 0);
          }),
        );
        return keys.map((key) => counts.get(`${JSON.stringify(key.filter)}\u0000${key.parentId}`) ?? 0);
      },
      (key) => JSON.stringify([key.parentId, key.filter]),
    );
    countLoaders.set(listing, definition as never);
  }
  return loader(ctx, definition).load({ parentId, filter });
}

/** Counts per parent from a Prisma `groupBy` result. */
export function countsBy<K extends string>(rows: Array<Record<K, string | null> & { _count: { _all: number } }>, key: K) {
  return new Map(rows.map((row) => [row[key] as string, row._count._all]));
}
