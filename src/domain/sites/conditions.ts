import { invalid } from '../../errors.ts';
import { ConditionError, parseCondition } from '../../lib/conditions.ts';
import type { SiteRecord } from './records.ts';

/**
 * Checks a condition when it is written: it must parse, and read only visitor
 * attributes the site's adaptive schema declares. Returns the value to store.
 */
export function checkedCondition(site: SiteRecord, source: string | null | undefined): string | null | undefined {
  if (source == null) return source;
  let claims: string[];
  try {
    ({ claims } = parseCondition(source));
  } catch (error) {
    if (error instanceof ConditionError) throw invalid(`condition: ${error.message}`);
    throw error;
  }
  const declared = Object.keys(
    ((site.adaptiveSchema as { properties?: Record<string, unknown> } | null)?.properties ?? {}) as object,
  );
  const unknown = claims.find((claim) => !declared.includes(claim));
  if (unknown !== undefined) {
    throw invalid(`condition: visitor attribute "${unknown}" is not declared in the site's adaptive schema`);
  }
  return source;
}
