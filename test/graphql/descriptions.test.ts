import { describe, expect, it } from 'vitest';
import { undescribed } from '../support/undescribed.ts';

/**
 * The graph reads like a public API: every type, field, argument, input field
 * and enum value says what it is. One without a description fails here, by
 * name (`npx tsx test/support/undescribed.ts` lists them).
 */
describe('the GraphQL schema', () => {
  it('describes every type, field, argument, input field and enum value', () => {
    expect(undescribed()).toEqual([]);
  });
});
