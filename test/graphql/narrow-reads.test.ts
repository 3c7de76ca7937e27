import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { expectData } from '../support/graphql.ts';
import { buildSiteTree } from '../support/site-tree.ts';

/**
 * A tree reads only the columns its query selects (src/domain/columns.ts): the
 * statement reading the spaces of a site tree names the columns the selected
 * fields need, and one statement serves every field that reads spaces.
 */

let t: TestApp;
let statements: string[] = [];
let tree: Awaited<ReturnType<typeof buildSiteTree>>;
beforeAll(async () => {
  // The executor's reads (compiled reads are test/graphql/compiled-reads.test.ts).
  t = await createTestApp({ responseCacheBytes: 0, compiledReads: 'off', onStatement: (sql) => statements.push(sql) });
  tree = await buildSiteTree(t, { sites: 2, groups: 1, sectionsPerGroup: 2, siteSpacesPerSection: 3 });
});

/** Whether a statement names this column (quoted as SQLite or PostgreSQL quote it). */
const names = (sql: string, column: string) => new RegExp(`[\`"]${column}[\`"]`).test(sql);

/** The statements that read spaces by id while running `selection` under each site space of the tree. */
async function spaceReads(selection: string) {
  const query = `query($id: ID!) { organization(id: $id) { sites(first: 5) { edges { node { sections(first: 5) { edges { node { siteSpaces { ${selection} } } } } } } } } }`;
  statements = [];
  const data = expectData(await t.graphql(tree.admin.token, query, { id: tree.organizationId }));
  const reads = statements.filter((sql) => /FROM\s+\S*[`"]spaces[`"]\s/i.test(sql) && /[`"]id[`"]\s+IN/i.test(sql));
  const siteSpaces = data.organization.sites.edges.flatMap((site: any) => site.node.sections.edges.flatMap((section: any) => section.node.siteSpaces));
  return { reads, siteSpaces };
}

describe('narrow reads', () => {
  it('reads the columns the selected fields need, and not the others', async () => {
    const { reads, siteSpaces } = await spaceReads('space { title emoji }');
    expect(siteSpaces.length).toBe(12);
    expect(siteSpaces[0].space).toEqual({ title: expect.stringMatching(/^Space /), emoji: '' });
    expect(reads).toHaveLength(1);
    expect(names(reads[0]!, 'title')).toBe(true);
    expect(names(reads[0]!, 'emoji')).toBe(true);
    expect(names(reads[0]!, 'mergeRules')).toBe(false);
    expect(names(reads[0]!, 'createdAt')).toBe(false);
  });

  it('reads more columns when more is selected, still in one statement for the level', async () => {
    const { reads, siteSpaces } = await spaceReads('title space { mergeRules permissions { edit } createdAt }');
    expect(siteSpaces[0]).toMatchObject({ title: expect.stringMatching(/^Space /), space: { mergeRules: { type: 'inherit' }, permissions: { edit: true } } });
    expect(reads).toHaveLength(1);
    for (const column of ['title', 'mergeRules', 'defaultLevel', 'parentId', 'editMode', 'createdAt']) expect(names(reads[0]!, column), column).toBe(true);
  });

  it('follows fragments and directives to what is selected', async () => {
    const { reads, siteSpaces } = await spaceReads('space { ...on Space { title @include(if: true) } emoji @skip(if: true) }');
    expect(siteSpaces[0].space).toEqual({ title: expect.stringMatching(/^Space /) });
    expect(reads).toHaveLength(1);
    expect(names(reads[0]!, 'title')).toBe(true);
    expect(names(reads[0]!, 'emoji')).toBe(false);
  });
});

describe('the columns of Space fields', () => {
  it('are declared for every field of the type, so none reads a column it was not given', async () => {
    const { schema } = await import('../../src/graphql/schema.ts');
    const { SPACE_FIELD_COLUMNS } = await import('../../src/graphql/types/space.ts');
    const fields = Object.keys((schema.getType('Space') as import('graphql').GraphQLObjectType).getFields());
    expect(fields.filter((field) => !(field in SPACE_FIELD_COLUMNS))).toEqual([]);
  });
});
