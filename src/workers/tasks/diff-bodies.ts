/**
 * A unified diff of two page bodies, line by line (jsdiff, Myers' algorithm):
 * its hunks as `patch` prints them, without the `---`/`+++` file header (the
 * caller adds it: the same two bodies are diffed under any page path), or ''
 * when no line differs. Myers' work grows with the length times the lines
 * added and removed, so with `budget` the diff is null past
 * min(maxEditLines, maxWork / lines of both bodies) of those: a body rewritten
 * whole is not diffed.
 */

export interface DiffBodiesInput {
  before: string;
  after: string;
  /** Null: no bound (a body diffed against nothing costs linear time). */
  budget: { maxEditLines: number; maxWork: number } | null;
}

export async function diffBodies({ before, after, budget }: DiffBodiesInput): Promise<string | null> {
  const { OMIT_HEADERS, formatPatch, lineDiff, structuredPatch } = await import('diff');
  const lines = (text: string) => lineDiff.removeEmpty(lineDiff.tokenize(text, {}));
  const maxEditLength = budget && Math.min(budget.maxEditLines, Math.floor(budget.maxWork / (before.split('\n').length + after.split('\n').length)));
  // Every line that is in one body more often than in the other is an edit: when those
  // alone are over the bound, Myers would search to the bound and give up; answer at once.
  if (maxEditLength !== null) {
    const surplus = new Map<string, number>();
    for (const line of lines(before)) surplus.set(line, (surplus.get(line) ?? 0) + 1);
    for (const line of lines(after)) surplus.set(line, (surplus.get(line) ?? 0) - 1);
    let edits = 0;
    for (const count of surplus.values()) edits += Math.abs(count);
    if (edits > maxEditLength) return null;
  }
  const patch = structuredPatch('a', 'b', before, after, undefined, undefined, { context: 3, ...(maxEditLength === null ? {} : { maxEditLength }) });
  if (!patch) return null;
  return patch.hunks.length ? formatPatch(patch, OMIT_HEADERS) : '';
}
