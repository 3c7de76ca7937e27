import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { untilGenerationsHeard } from '../support/generations.ts';
import { expectData } from '../support/graphql.ts';
import { buildSiteTree } from '../support/site-tree.ts';

/**
 * Compiled reads (src/graphql/compiled/): a query over the graph's trees is one
 * SQL statement per root field, whatever its breadth, and answers exactly what
 * the executor answers (the whole suite runs in `verify` mode; here both apps
 * answer the same requests side by side).
 */

let compiled: TestApp;
let executed: TestApp;
beforeAll(async () => {
  compiled = await createTestApp({ compiledReads: 'on', responseCacheBytes: 0 });
  executed = await createTestApp({ compiledReads: 'off', responseCacheBytes: 0 });
  await untilGenerationsHeard(compiled.database);
});

/** The benchmark's S3: an organization's sites, their sections, their site spaces and spaces. */
const TREE = /* GraphQL */ `
  query Tree($id: ID!) {
    organization(id: $id) {
      title
      sites(first: 20) {
        edges {
          node {
            id
            title
            sections(first: 20) {
              edges {
                node {
                  id
                  title
                  path
                  siteSpaces {
                    id
                    path
                    space { id title emoji visibility organization { title } }
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

async function both(token: string, query: string, variables: Record<string, unknown>) {
  // The viewer behind the token is read once, then kept: warmed so that only the query is counted.
  await compiled.call('GET', '/v1/user', { token });
  // Every write committed so far, by any instance, is heard first (PostgreSQL): not counted below.
  await compiled.database.generations.barrier({ everything: true });
  const before = compiled.statements();
  const fast = await compiled.graphql(token, query, variables);
  const statements = compiled.statements() - before;
  const slow = await executed.graphql(token, query, variables);
  return { fast, slow, statements };
}

describe('compiled reads', () => {
  it('answer a whole site tree in one statement, as the executor does, at any breadth', async () => {
    for (const n of [2, 6]) {
      const tree = await buildSiteTree(compiled, { sites: n, groups: n / 2, sectionsPerGroup: 2, siteSpacesPerSection: n });
      const { fast, slow, statements } = await both(tree.admin.token, TREE, { id: tree.organizationId });
      expect(fast.errors).toBeUndefined();
      expect(fast.data).toEqual(slow.data);
      expect(expectData(fast).organization.sites.edges).toHaveLength(n);
      expect(statements).toBe(1);
    }
  });

  it('answer a space in one statement, with its addresses and enums as GraphQL names', async () => {
    const tree = await buildSiteTree(compiled, { sites: 1, groups: 1, sectionsPerGroup: 1, siteSpacesPerSection: 1 });
    const spaceId = (await compiled.call('GET', `/v1/orgs/${tree.organizationId}/spaces`, { token: tree.admin.token })).json().items[0].id;
    await compiled.database.db.space.update({ where: { id: spaceId }, data: { visibility: 'share-link' } });
    const query = 'query Space($id: ID!) { space(id: $id) { id title emoji visibility createdAt updatedAt deletedAt urls { app location } } }';
    const { fast, slow, statements } = await both(tree.admin.token, query, { id: spaceId });
    expect(fast.data).toEqual(slow.data);
    expect(expectData(fast).space.visibility).toBe('share_link');
    expect(statements).toBe(1);
  });

  it('leave to the executor what they cannot answer: a guest lists no site it was not granted, a stranger gets the 404', async () => {
    const tree = await buildSiteTree(compiled, { sites: 1, groups: 1, sectionsPerGroup: 1, siteSpacesPerSection: 1 });
    const guest = await tree.member(null);
    const asGuest = await both(guest.token, TREE, { id: tree.organizationId });
    expect(asGuest.fast).toEqual(asGuest.slow);
    expect(expectData(asGuest.fast).organization.sites.edges).toEqual([]);
    const stranger = await buildSiteTree(compiled, { sites: 1, groups: 1, sectionsPerGroup: 1, siteSpacesPerSection: 1 });
    const asStranger = await both(stranger.admin.token, TREE, { id: tree.organizationId });
    expect(asStranger.fast).toEqual(asStranger.slow);
    expect(asStranger.fast.errors?.[0]?.extensions?.code).toBe(404);
  });

  it('follow grants as the executor does: a guest reads in one statement the spaces and collections granted to it, and what lies below', async () => {
    const tree = await buildSiteTree(compiled, { sites: 1, groups: 1, sectionsPerGroup: 1, siteSpacesPerSection: 1 });
    const org = `/v1/orgs/${tree.organizationId}`;
    const rest = async (method: string, url: string, body?: unknown) =>
      (await compiled.call(method, url, { token: tree.admin.token, ...(body !== undefined ? { body } : {}) })).json();
    const guest = await tree.member(null);
    const collection = (await rest('POST', `${org}/collections`, { title: 'Granted' })).id;
    const below = (await rest('POST', `${org}/spaces`, { title: 'Below', parent: collection })).id;
    const alone = (await rest('POST', `${org}/spaces`, { title: 'Alone' })).id;
    const hidden = (await rest('POST', `${org}/spaces`, { title: 'Hidden' })).id;
    await compiled.call('POST', `/v1/collections/${collection}/permissions`, { token: tree.admin.token, body: { role: 'read', users: [guest.id] } });
    const team = (await rest('PUT', `${org}/teams`, { title: 'Granted team', members: [guest.id] })).id;
    await compiled.call('POST', `/v1/spaces/${alone}/permissions`, { token: tree.admin.token, body: { role: 'comment', teams: [team] } });
    const query = /* GraphQL */ `
      query Granted($org: ID!, $space: ID!, $collection: ID!) {
        organization(id: $org) { spaces(first: 50) { totalCount edges { node { id title } } } }
        space(id: $space) { id title }
        collection(id: $collection) { id title spaces(first: 10) { edges { node { id } } } }
      }
    `;
    const { fast, slow, statements } = await both(guest.token, query, { org: tree.organizationId, space: alone, collection });
    expect(fast.data).toEqual(slow.data);
    const data = expectData(fast);
    expect(data.organization.spaces.edges.map((edge: { node: { id: string } }) => edge.node.id).sort()).toEqual([below, alone].sort());
    expect(data.collection.spaces.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual([below]);
    expect(statements).toBe(3);
    // The REST listing shows the same spaces.
    const listed = (await compiled.call('GET', `${org}/spaces`, { token: guest.token })).json();
    expect(listed.items.map((item: { id: string }) => item.id)).toEqual(data.organization.spaces.edges.map((edge: { node: { id: string } }) => edge.node.id));
    const refused = await both(guest.token, 'query($id: ID!) { space(id: $id) { id } }', { id: hidden });
    expect(refused.fast).toEqual(refused.slow);
    expect(refused.fast.errors?.[0]?.extensions?.code).toBe(404);

    // A site granted to the guest: its tree, in one statement, as the executor answers it.
    const siteId = (await rest('GET', `${org}/sites`)).items[0].id;
    await compiled.call('POST', `${org}/sites/${siteId}/permissions`, { token: tree.admin.token, body: { role: 'read', users: [guest.id] } });
    const site = await both(guest.token, TREE, { id: tree.organizationId });
    expect(site.fast.errors).toBeUndefined();
    expect(site.fast.data).toEqual(site.slow.data);
    expect(expectData(site.fast).organization.sites.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual([siteId]);
    expect(site.statements).toBe(1);
  });

  it('page connections with the REST tokens: first, after, hasNextPage, cursors and totalCount', async () => {
    const tree = await buildSiteTree(compiled, { sites: 5, groups: 1, sectionsPerGroup: 1, siteSpacesPerSection: 1 });
    const query = /* GraphQL */ `
      query Page($id: ID!, $after: String) {
        organization(id: $id) {
          sites(first: 2, after: $after) {
            totalCount
            pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
            edges { cursor node { id title createdAt urls { location app preview published } } }
          }
        }
      }
    `;
    let after: string | null = null;
    const seen: string[] = [];
    for (;;) {
      const { fast, slow, statements }: Awaited<ReturnType<typeof both>> = await both(tree.admin.token, query, { id: tree.organizationId, after });
      expect(fast.data).toEqual(slow.data);
      expect(statements).toBe(1);
      const sites = expectData(fast).organization.sites;
      expect(sites.totalCount).toBe(5);
      seen.push(...sites.edges.map((edge: { node: { id: string } }) => edge.node.id));
      // The REST listing continues from the same token.
      if (after) {
        const rest = await compiled.call('GET', `/v1/orgs/${tree.organizationId}/sites?limit=2&page=${after}`, { token: tree.admin.token });
        expect(rest.json().items.map((site: { id: string }) => site.id)).toEqual(sites.edges.map((edge: { node: { id: string } }) => edge.node.id));
      }
      if (!sites.pageInfo.hasNextPage) break;
      after = sites.pageInfo.endCursor;
    }
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
  });
});

describe('compiled page trees', () => {
  it('answer the navigation of a site with each space page tree, paths as the executor computes them, in one statement', async () => {
    const tree = await buildSiteTree(compiled, { sites: 1, groups: 1, sectionsPerGroup: 2, siteSpacesPerSection: 2 });
    const spaces = (await compiled.call('GET', `/v1/orgs/${tree.organizationId}/spaces`, { token: tree.admin.token })).json().items;
    // Pages at three levels, written as an editor would: a change request, three content batches, a merge.
    for (const space of spaces) {
      const base = `/v1/spaces/${space.id}/change-requests`;
      const opened = (await compiled.call('POST', base, { token: tree.admin.token, body: { subject: 'Pages' } })).json();
      const edit = async (changes: unknown[]) => {
        const response = await compiled.call('POST', `${base}/${opened.id}/content?compat=false`, { token: tree.admin.token, body: { changes } });
        expect(response.statusCode, response.body).toBe(200);
        return (response.json().changes as Array<{ page: { id: string } }>).map((change) => change.page.id);
      };
      const [start, reference] = await edit([
        { operation: 'insert_page', title: 'Getting started', document: {} },
        { operation: 'insert_page', title: 'Reference', slug: 'ref', document: {} },
      ]);
      const [install] = await edit([
        { operation: 'insert_page', into: start, title: 'Install', document: {} },
        { operation: 'insert_page', into: reference, title: 'Configuration', hidden: true, document: {} },
      ]);
      await edit([{ operation: 'insert_page', into: install, title: 'On Linux', document: {} }]);
      expect((await compiled.call('POST', `${base}/${opened.id}/merge`, { token: tree.admin.token })).statusCode).toBe(200);
    }
    const site = (await compiled.call('GET', `/v1/orgs/${tree.organizationId}/sites`, { token: tree.admin.token })).json().items[0];
    const query = /* GraphQL */ `
      query Navigation($id: ID!) {
        site(id: $id) {
          title
          sections(first: 20) { edges { node { id title path siteSpaces { id path space { id title content { id type pages {
            id title path slug type hidden createdAt pages { id title path pages { id title path } } } } } } } } }
        }
      }
    `;
    const { fast, slow, statements } = await both(tree.admin.token, query, { id: site.id });
    expect(fast.errors).toBeUndefined();
    expect(fast.data).toEqual(slow.data);
    expect(statements).toBe(1);
    const pages = expectData(fast).site.sections.edges[0].node.siteSpaces[0].space.content.pages;
    expect(pages.map((page: { path: string }) => page.path)).toContain('getting-started');
    expect(JSON.stringify(pages)).toContain('getting-started/install/on-linux');
  });
});

describe('compiled connections', () => {
  it('count a listing with totalCount alone, and beside its edges', async () => {
    const tree = await buildSiteTree(compiled, { sites: 2, groups: 1, sectionsPerGroup: 1, siteSpacesPerSection: 3 });
    for (const selection of ['totalCount', 'totalCount edges { node { id } }', 'edges { node { id } } totalCount pageInfo { hasNextPage }']) {
      const query = `query($id: ID!) { organization(id: $id) { spaces(first: 2) { ${selection} } sites { ${selection} } } }`;
      const { fast, slow, statements } = await both(tree.admin.token, query, { id: tree.organizationId });
      expect(fast.errors).toBeUndefined();
      expect(fast.data).toEqual(slow.data);
      expect(statements).toBe(1);
    }
  });
});
