import type { Page } from '../lib/pagination.ts';

/**
 * A domain page as a Relay connection. Edge cursors are the REST page tokens,
 * so `endCursor` can be sent as `page` to REST and `next.page` as `after` here.
 */
export function toConnection<Item>(page: Page<Item>) {
  return {
    edges: page.items.map((node, index) => ({ cursor: page.cursors[index]!, node })),
    pageInfo: {
      hasNextPage: page.hasNextPage,
      hasPreviousPage: page.hasPreviousPage,
      startCursor: page.cursors[0] ?? null,
      endCursor: page.cursors.at(-1) ?? null,
    },
    totalCount: () => page.count(),
  };
}

/** Connection arguments as the domain's listing query (`first`/`after`/`last`/`before`). */
export function connectionQuery(args: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined && value !== null));
}

/**
 * Loads objects by id for a loadable node: each id gets its object or the error
 * it failed with (a 404 for one the viewer cannot see), as in REST.
 */
export function loadEach<T>(ids: readonly string[], get: (id: string) => Promise<T>): Promise<Array<T | Error>> {
  return Promise.all(ids.map((id) => get(id).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))))));
}
