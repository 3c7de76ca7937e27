import { generateNKeysBetween } from 'fractional-indexing';
import { conflict, invalid } from '../../errors.ts';
import { keyBetween } from '../../lib/ordering.ts';

/**
 * Placing an entry among its siblings (sections of a group, top-level entries
 * of a site, site spaces of a section): siblings are read, and only the moved
 * row gets a new ordering key.
 */
export interface Ordered {
  id: string;
  position: string;
}

export const bySiblingOrder = (a: Ordered, b: Ordered) => (a.position === b.position ? (a.id < b.id ? -1 : 1) : a.position < b.position ? -1 : 1);

export function endOf(siblings: Ordered[]): string {
  const last = [...siblings].sort(bySiblingOrder).at(-1);
  return keyBetween(last?.position ?? null, null);
}

/**
 * The key for `movingId` before and/or after the named siblings; the end when
 * neither is given. `field` names the position in errors.
 */
export function positionAmong(
  siblings: Ordered[],
  movingId: string,
  position: { before?: string | undefined; after?: string | undefined } | undefined,
  field = 'position',
): string {
  const ordered = siblings.filter((sibling) => sibling.id !== movingId).sort(bySiblingOrder);
  const indexOf = (name: 'before' | 'after') => {
    const id = position?.[name];
    if (id === undefined) return undefined;
    const index = ordered.findIndex((sibling) => sibling.id === id);
    if (index < 0) throw invalid(`${field}.${name}: "${id}" is not a sibling of the moved entry`);
    return index;
  };
  const before = indexOf('before');
  const after = indexOf('after');
  let lower: Ordered | undefined;
  let upper: Ordered | undefined;
  if (before !== undefined && after !== undefined) {
    if (after >= before) throw invalid(`${field}: "after" must come before "before" among the siblings`);
    [lower, upper] = [ordered[after], ordered[before]];
  } else if (after !== undefined) {
    [lower, upper] = [ordered[after], ordered[after + 1]];
  } else if (before !== undefined) {
    [lower, upper] = [ordered[before - 1], ordered[before]];
  } else {
    lower = ordered.at(-1);
  }
  if (lower && upper && lower.position >= upper.position) {
    throw conflict(`${field}: these entries are being reordered concurrently, try again`);
  }
  return keyBetween(lower?.position, upper?.position);
}

/** `count` keys in order between two keys (entries leaving a group take its place). */
export function keysBetween(lower: string | null, upper: string | null, count: number): string[] {
  return generateNKeysBetween(lower, upper, count);
}
