import type { PageShown } from '../../domain/sites/published.ts';

export type { PageShown };

/**
 * The objects a visitor of a published site reached its content through (a
 * site space's `space`, that space's `content`), each with the pages it is
 * shown: the page fields under them leave out the others. Members' objects are
 * not in it: they read every page.
 */
const visitorPages = new WeakMap<object, PageShown>();

/** `object` as read by a visitor shown only the pages `shown` lets through (none kept when undefined: all pages). */
export function readByVisitor<T extends object>(object: T, shown: PageShown | undefined): T {
  if (!shown) return object;
  // A copy: the object itself may be shared with other readers (a loader's cache).
  const copy = { ...object };
  visitorPages.set(copy, shown);
  return copy;
}

/** The pages `object` shows its reader, when a visitor reached it; undefined: all of them. */
export function pagesShownThrough(object: object): PageShown | undefined {
  return visitorPages.get(object);
}
