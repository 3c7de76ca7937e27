/**
 * Appends items one at a time. `target.push(...items)` passes each item as an argument, and past
 * about a hundred thousand of them (a paragraph of that many lines) that overflows the stack.
 */
export function pushAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}
