import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { expectData } from '../support/graphql.ts';
import { buildSiteTree } from '../support/site-tree.ts';

/**
 * The whole navigation tree of an organization's sites in one GraphQL request
 * costs a number of SQL statements that depends on the depth of the query, not
 * on how many sites, groups, sections and site spaces there are.
 */

let t: TestApp;
beforeAll(async () => {
  // The executor's bounds, for what compiled reads leave to it (those: test/graphql/compiled-reads.test.ts).
  t = await createTestApp({ compiledReads: 'off' });
});

const TREE = /* GraphQL */ `
  query($id: ID!) {
    organization(id: $id) {
      title
      sites(first: 20) {
        totalCount
        edges {
          node {
            id
            title
            sectionGroups(first: 10) {
              totalCount
              edges {
                node {
                  id
                  title
                  sections {
                    id
                    title
                    path
                    siteSpaces {
                      id
                      path
                      space { id title organization { title } }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
`;

// Building the wide trees takes seconds (8000 site spaces at 20): a longer timeout than the suite's.

/** N sites, each with N sections (in N/2 groups of 2), each section showing N spaces: built once per size, read by each viewer. */
const trees = new Map<number, ReturnType<typeof buildSiteTree>>();
function treeOf(n: number) {
  let tree = trees.get(n);
  if (!tree) trees.set(n, (tree = buildSiteTree(t, { sites: n, groups: n / 2, sectionsPerGroup: 2, siteSpacesPerSection: n })));
  return tree;
}

async function statementsFor(n: number, role: 'admin' | 'read') {
  const tree = await treeOf(n);
  const viewer = role === 'admin' ? tree.admin : await tree.member('read');
  // This instance's own writes are heard back first (PostgreSQL), not counted below.
  await t.database.generations.barrier();
  const before = t.statements();
  const data = expectData(await t.graphql(viewer.token, TREE, { id: tree.organizationId }));
  return { count: t.statements() - before, data, tree };
}

/** The shape of the answer: every level complete, in order, with the spaces and their organization. */
function expectShape(result: Awaited<ReturnType<typeof statementsFor>>, n: number) {
  const { data, tree } = result;
  const sites = data.organization.sites;
  expect(sites.totalCount).toBe(n);
  expect(sites.edges.map((edge: any) => edge.node.id)).toEqual(tree.siteIds);
  let sections = 0;
  let siteSpaces = 0;
  for (const [s, { node: site }] of sites.edges.entries()) {
    expect(site.title).toBe(`Site ${s}`);
    expect(site.sectionGroups.totalCount).toBe(n / 2);
    expect(site.sectionGroups.edges).toHaveLength(n / 2);
    for (const [g, { node: group }] of site.sectionGroups.edges.entries()) {
      expect(group.title).toBe(`Group ${s}.${g}`);
      expect(group.sections.map((section: any) => section.title)).toEqual([`Section ${s}.${g}.0`, `Section ${s}.${g}.1`]);
      for (const section of group.sections) {
        sections += 1;
        expect(section.siteSpaces.map((siteSpace: any) => siteSpace.path)).toEqual(tree.spaces.map((_, p) => `space-${p}`));
        for (const [p, siteSpace] of section.siteSpaces.entries()) {
          siteSpaces += 1;
          expect(siteSpace.space).toEqual({
            id: tree.spaces[p]!.id,
            title: `Space ${p}`,
            organization: { title: tree.organization.title },
          });
        }
      }
    }
  }
  expect(sections).toBe(n * n);
  expect(siteSpaces).toBe(n * n * n);
  expect(tree.counts).toEqual({ sites: n, groups: (n * n) / 2, sections: n * n, siteSpaces: n * n * n });
}

describe('the whole site tree of an organization', () => {
  for (const role of ['admin', 'read'] as const) {
    it(`costs the same number of SQL statements for 10 × 10 × 10 and 20 × 20 × 20, at most a small bound (${role} viewer)`, async () => {
      const small = await statementsFor(10, role);
      const large = await statementsFor(20, role);
      expectShape(small, 10);
      expectShape(large, 20);
      console.log(`site tree (${role}): ${small.count} statements for 10 × 10 × 10, ${large.count} for 20 × 20 × 20`);
      expect(large.count).toBe(small.count);
      // One statement per level of the query: the token with its user, memberships and data
      // generation; the organization and its email domains; the sites with their site-space counts
      // (REST's `siteSpaces`) and their total; the groups and their total; the sections; the site
      // spaces; the spaces.
      expect(large.count).toBeLessThanOrEqual(10);
    }, 120_000);
  }
});

/** The tree of the README: through the viewer, published sites only, sections with their relations followed back. */
const README_TREE = /* GraphQL */ `
  {
    viewer {
      organizations(first: 3) {
        edges {
          node {
            title
            sites(published: true, first: 20) {
              edges {
                node {
                  title
                  visibility
                  urls { published }
                  sectionGroups(first: 10) { edges { node { title sections { title path siteSpaces { path space { title organization { title } } } } } } }
                  sections(first: 20) {
                    totalCount
                    edges { node { title path default condition sectionGroup { title } siteSpaces { path title default section { path } space { emoji } } } }
                  }
                  siteSpaces(default: true) { totalCount }
                }
              }
            }
          }
        }
      }
    }
  }
`;

describe('the README tree of published sites, through the viewer', () => {
  it('costs at most one statement per level and branch for 10 × 10 × 10 and 20 × 20 × 20', async () => {
    const counts: number[] = [];
    for (const n of [10, 20]) {
      const tree = await buildSiteTree(t, { sites: n, groups: n / 2, sectionsPerGroup: 2, siteSpacesPerSection: n, published: true });
      // An unpublished site is left out.
      await t.database.db.site.update({ where: { id: tree.siteIds[0]! }, data: { published: false } });
      // This instance's own writes are heard back first (PostgreSQL), not counted below.
      await t.database.generations.barrier();
      const before = t.statements();
      const data = expectData(await t.graphql(tree.admin.token, README_TREE));
      counts.push(t.statements() - before);
      const sites = data.viewer.organizations.edges[0].node.sites.edges;
      expect(sites).toHaveLength(n - 1);
      for (const { node: site } of sites) {
        expect(site.sectionGroups.edges).toHaveLength(n / 2);
        expect(site.sections.totalCount).toBe(n);
        expect(site.sections.edges).toHaveLength(n);
        expect(site.siteSpaces.totalCount).toBe(n);
        for (const { node: section } of site.sections.edges) {
          expect(section.sectionGroup.title).toMatch(/^Group /);
          expect(section.siteSpaces).toHaveLength(n);
          expect(section.siteSpaces.every((siteSpace: any) => siteSpace.section.path === section.path)).toBe(true);
        }
      }
    }
    console.log(`README tree: ${counts[0]} statements for 10 × 10 × 10, ${counts[1]} for 20 × 20 × 20`);
    // About one statement per level and branch. The batches of the two branches (the groups' sections,
    // the sections connection) meet or not depending on I/O timing: 16 when their spaces are read
    // together, 17 when not, up to 21 when SiteSection.sectionGroup's group, sections, site spaces and
    // spaces are read apart from the groups branch (seen 16 to 18 on PostgreSQL). Any breadth stays
    // under the bound, where one statement per site, group, section or site space would add 9 to 8000.
    expect(counts[0]).toBeLessThanOrEqual(21);
    expect(counts[1]).toBeLessThanOrEqual(21);
  }, 120_000);
});
