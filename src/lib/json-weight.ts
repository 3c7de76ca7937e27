/**
 * Whether a JSON value holds more than `limit` characters of strings (each other value counting
 * one), deciding whether work on it is small enough for the event loop. Stops as soon as it does.
 */
export function holdsMore(value: unknown, limit: number): boolean {
  let weight = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') weight += next.length;
    else {
      weight += 1;
      if (next && typeof next === 'object') for (const child of Object.values(next)) pending.push(child);
    }
    if (weight > limit) return true;
  }
  return false;
}
