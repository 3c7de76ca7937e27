import { z } from 'zod';
import { invalid } from '../errors.ts';

/**
 * Parses client input with a zod schema; a failure is a 400 whose message names
 * each offending field and the rule it breaks.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, where = 'body'): z.output<S> {
  // No input at all reads as an empty one; `null` is a value, and refused like any non-object.
  const result = schema.safeParse(input === undefined ? {} : input, { reportInput: true });
  if (result.success) return result.data;
  throw invalid(result.error.issues.map((issue) => describeIssue(issue, where)).join('; '));
}

function describeIssue(issue: z.core.$ZodIssue, where: string): string {
  const field = issue.path.length > 0 ? issue.path.join('.') : where;
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((key) => `"${key}"`).join(', ');
    return `${field}: unknown field${issue.keys.length > 1 ? 's' : ''} ${keys}`;
  }
  const missing = (issue.code === 'invalid_type' || issue.code === 'invalid_value') && issue.input === undefined;
  if (missing) return `${field}: is required`;
  return `${field}: ${issue.message}`;
}

/** A query-string integer within bounds: REST sends strings, GraphQL sends numbers. */
export const queryInt = (min: number, max: number) =>
  z.preprocess(
    (value) => (typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value),
    z.number({ error: 'must be an integer' }).int('must be an integer').min(min, `must be at least ${min}`).max(max, `must be at most ${max}`),
  );

/** An array whose items must all differ: refused with `message` otherwise, and documented as `uniqueItems`. */
export const distinct = <T extends z.ZodArray>(schema: T, message: string): T =>
  schema.refine((items) => new Set(items).size === items.length, message).meta({ uniqueItems: true });

/** A query-string boolean: "true"/"false" over REST, true/false over GraphQL. */
export const queryBool = () =>
  z.preprocess((value) => (value === 'true' ? true : value === 'false' ? false : value), z.boolean({ error: 'must be true or false' }));
