import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { printedSchema, schemaFile } from '../../src/graphql/print.ts';

describe('schema.graphql', () => {
  it('is the printed Pothos schema (run `npm run schema:print` after changing types)', () => {
    expect(fs.readFileSync(schemaFile, 'utf8')).toBe(printedSchema());
  });
});
