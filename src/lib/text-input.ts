import { invalid } from '../errors.ts';

/**
 * Text every client value must be, on both databases: PostgreSQL refuses NUL
 * characters that SQLite would store, and neither can store a lone UTF-16
 * surrogate as UTF-8. Refusing them at the door keeps the two databases in
 * agreement on what is valid, and a bad character a 400 rather than a 500.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what it refuses
const UNSAFE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Deepest JSON nesting a client may send: far beyond any operation's shape, well within a stack. */
export const MAX_INPUT_DEPTH = 64;

function unsafeTextProblem(text: string): string | undefined {
  const match = UNSAFE_TEXT.exec(text);
  if (!match) return undefined;
  return match[0] === '\u0000' ? 'must not contain NUL characters (U+0000)' : 'must be valid Unicode (it holds a lone UTF-16 surrogate)';
}

/** Whether both databases can store and compare `text` (no NUL, no lone surrogate). */
export function isStorableText(text: string): boolean {
  return !UNSAFE_TEXT.test(text);
}

/**
 * Throws a 400 naming the first string (value or key) of `input` that is not
 * storable text, or nesting beyond the bound. Fields are named as validation
 * names them (`parent`, `changes.0.title`); `where` names the input itself.
 */
export function assertCleanInput(input: unknown, where: string): void {
  // Iterative: a hostile nesting must not be able to exhaust the stack here.
  const pending: Array<[value: unknown, path: string, depth: number]> = [[input, '', 0]];
  while (pending.length) {
    const [value, path, depth] = pending.pop()!;
    const field = path || where;
    if (typeof value === 'string') {
      const problem = unsafeTextProblem(value);
      if (problem) throw invalid(`${field}: ${problem}`);
    } else if (value && typeof value === 'object') {
      if (depth >= MAX_INPUT_DEPTH) throw invalid(`${field}: is nested more than ${MAX_INPUT_DEPTH} levels deep`);
      for (const [key, item] of Object.entries(value)) {
        const problem = unsafeTextProblem(key);
        if (problem) throw invalid(`${field}: a field name ${problem}`);
        pending.push([item, path ? `${path}.${key}` : key, depth + 1]);
      }
    }
  }
}

/** Whether every string of `input` is storable text within the nesting bound (assertCleanInput without its error). */
export function isCleanInput(input: unknown): boolean {
  try {
    assertCleanInput(input, 'input');
    return true;
  } catch {
    return false;
  }
}
