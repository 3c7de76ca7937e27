import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { operationTable, withCounts, withOperationTable } from '../src/rest/operation-table.ts';
import { restRoutes } from '../src/rest/plugin.ts';
import type { TestApp } from './support/app.ts';
import { createDemoApp } from './support/demo.ts';
import { expectData } from './support/graphql.ts';

/**
 * Every GraphQL document of the README and of docs/*.md runs as written, on
 * the demo data of `npm start` (a database of its own), within the default
 * limits: an example keeps being checked wherever it lives.
 */

const ROOT = new URL('../', import.meta.url);
const README = fs.readFileSync(new URL('README.md', ROOT), 'utf8');
const DOCS = fs
  .readdirSync(new URL('docs/', ROOT))
  .filter((name) => name.endsWith('.md'))
  .sort()
  .map((name) => `docs/${name}`);

const examples = ['README.md', ...DOCS].flatMap((file) =>
  [...fs.readFileSync(new URL(file, ROOT), 'utf8').matchAll(/```graphql\n([\s\S]*?)```/g)].map((match, index) => ({
    name: `${file} #${index + 1}`,
    file,
    document: match[1]!,
  })),
);

let t: TestApp;
let token: string;
beforeAll(async () => {
  let tokenOf: (email?: string) => Promise<string>;
  ({ t, tokenOf } = await createDemoApp());
  token = await tokenOf();
});

describe('the README and docs/', () => {
  it('hold the current table of operations in the README (npm run readme:operations)', () => {
    expect(README).toContain(operationTable());
    expect(withOperationTable(README)).toBe(README);
  });

  it('state the numbers of the route table as it has them (npm run readme:operations)', () => {
    for (const file of ['README.md', ...DOCS]) {
      const text = fs.readFileSync(new URL(file, ROOT), 'utf8');
      expect(withCounts(text), `${file}: run npm run readme:operations`).toBe(text);
    }
    // The fuzzing section's count of REST operations is one of them.
    expect(fs.readFileSync(new URL('docs/operations.md', ROOT), 'utf8')).toContain(`<!-- count:rest-operations -->${restRoutes.length}<!-- /count -->`);
    expect(withCounts('<!-- count:rest-operations -->154<!-- /count -->')).toBe(`<!-- count:rest-operations -->${restRoutes.length}<!-- /count -->`);
    expect(() => withCounts('<!-- count:graphql-operations -->1<!-- /count -->')).toThrow(/No count named graphql-operations/);
  });

  it('have GraphQL examples, in the README and in docs/', () => {
    expect(examples.filter((example) => example.file === 'README.md').length).toBeGreaterThanOrEqual(1);
    expect(examples.filter((example) => example.file !== 'README.md').length).toBeGreaterThanOrEqual(3);
  });

  it.each(examples.map((example) => [example.name, example.document]))('GraphQL example %s runs on the demo data', async (_name, document) => {
    const portal = await t.database.db.site.findFirstOrThrow({ where: { title: 'Acme Developer Portal' } });
    const gettingStarted = await t.database.db.space.findFirstOrThrow({ where: { title: 'Getting started' } });
    const variables = {
      ...(document.includes('$siteId') ? { siteId: portal.id } : {}),
      ...(document.includes('$spaceId') ? { spaceId: gettingStarted.id } : {}),
    };
    const data = expectData(await t.graphql(token, document, variables));
    expect(JSON.stringify(data).length).toBeGreaterThan(50);
  });
});
