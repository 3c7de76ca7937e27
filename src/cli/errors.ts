import { translateConstraintError } from '../domain/transaction.ts';
import { DomainError } from '../errors.ts';

/** A failed command in one line: a domain error's message, or the last line of another error's. */
export function describeError(error: unknown): string {
  const reported = translateConstraintError(error);
  if (reported instanceof DomainError) return reported.message;
  return reported instanceof Error ? (reported.message.trim().split('\n').at(-1) ?? reported.message) : String(reported);
}
