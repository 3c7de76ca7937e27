import DataLoader from 'dataloader';
import type { LoaderRegistry, RequestContext } from '../context.ts';

/**
 * Per-request DataLoaders. Each resource module defines its loaders next to its
 * service (`defineLoader`), and `loader(ctx, definition)` returns the instance of
 * the current request, so GraphQL fields and REST handlers batch and cache alike.
 */
export interface LoaderDefinition<K, V> {
  batch(ctx: RequestContext, keys: readonly K[]): Promise<V[]>;
  cacheKey?: (key: K) => unknown;
  /** What it loads reads the same whoever asks (rows by id): it may be shared (`ctx.sharedLoaders`). */
  sameForEveryViewer?: boolean;
}

export function defineLoader<K, V>(batch: (ctx: RequestContext, keys: readonly K[]) => Promise<V[]>, cacheKey?: (key: K) => unknown): LoaderDefinition<K, V> {
  return { batch, ...(cacheKey ? { cacheKey } : {}) };
}

/** A loader of rows by their `id`, answering null for ids that do not exist. */
export function defineRecordLoader<V extends { id: string }>(
  findMany: (ctx: RequestContext, ids: string[]) => Promise<V[]>,
): LoaderDefinition<string, V | null> {
  return {
    ...defineLoader<string, V | null>(async (ctx, ids) => {
      const rows = await findMany(ctx, [...ids]);
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
    sameForEveryViewer: true,
  };
}

/** Where a context keeps the loader of `definition`: its own, or the one it shares with others. */
export const registryOf = (ctx: RequestContext, sameForEveryViewer: boolean | undefined): LoaderRegistry =>
  (sameForEveryViewer && ctx.sharedLoaders) || ctx.loaders;

export function loader<K, V>(ctx: RequestContext, definition: LoaderDefinition<K, V>): DataLoader<K, V> {
  ctx.checkBudget?.();
  const registry = registryOf(ctx, definition.sameForEveryViewer);
  const key = definition;
  let instance = registry.get(key) as DataLoader<K, V> | undefined;
  if (!instance) {
    instance = new DataLoader<K, V, unknown>((keys) => definition.batch(ctx, keys), {
      ...(definition.cacheKey ? { cacheKeyFn: definition.cacheKey } : {}),
    });
    registry.set(key, instance as DataLoader<unknown, unknown>);
  }
  return instance;
}

/** Forgets every cached value: called after a write so that later reads see it. */
export function clearLoaders(ctx: RequestContext): void {
  for (const instance of ctx.loaders.values()) instance.clearAll();
  for (const instance of ctx.sharedLoaders?.values() ?? []) instance.clearAll();
}
