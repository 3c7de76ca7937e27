import { invalid } from '../../errors.ts';
import { ConditionError, parseCondition } from '../../lib/conditions.ts';

/**
 * Checks a condition when it is written: it must parse and use only what the
 * evaluator supports. It may read visitor attributes the site's adaptive
 * schema does not declare (yet): schemas and conditions are edited in either
 * order, and an undeclared attribute reads as undefined, as it does for a
 * visitor whose token lacks it. Returns the value to store.
 */
export function checkedCondition(source: string | null | undefined): string | null | undefined {
  if (source == null) return source;
  try {
    parseCondition(source);
  } catch (error) {
    if (error instanceof ConditionError) throw invalid(`condition: ${error.message}`);
    throw error;
  }
  return source;
}
