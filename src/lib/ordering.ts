import { generateKeyBetween } from 'fractional-indexing';

/**
 * Ordering keys among siblings: a move writes one row, whatever the number of
 * siblings. Keys compare byte by byte (COLLATE "C" on PostgreSQL).
 */
export function keyBetween(before: string | null | undefined, after: string | null | undefined): string {
  return generateKeyBetween(before ?? null, after ?? null);
}
