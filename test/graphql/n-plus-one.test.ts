import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { addMember, buildOrganization, buildUser, type TestUser } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => {
  // The executor's bounds, for what compiled reads leave to it (those: test/graphql/compiled-reads.test.ts).
  t = await createTestApp({ compiledReads: 'off' });
});

/** A viewer in `organizations` organizations, each with `collections` collections of `spaces` spaces. */
async function buildTree(organizations: number, collections: number, spaces: number, role: 'admin' | 'read') {
  const viewer = await buildUser(t.database, 'viewer');
  for (let o = 0; o < organizations; o++) {
    const org = await buildOrganization(t.database);
    const owner = await addMember(t.database, org.id, await buildUser(t.database, 'owner'), 'admin');
    await addMember(t.database, org.id, viewer, role);
    for (let c = 0; c < collections; c++) {
      const collection = (await t.call('POST', `/v1/orgs/${org.id}/collections`, { token: owner.token, body: { title: `Collection ${c}` } })).json();
      for (let s = 0; s < spaces; s++) {
        const response = await t.call('POST', `/v1/orgs/${org.id}/spaces`, {
          token: owner.token,
          body: { title: `Space ${s}`, parent: collection.id },
        });
        expect(response.statusCode).toBe(201);
      }
    }
  }
  return viewer;
}

const treeQuery = /* GraphQL */ `
  {
    viewer {
      organizations(first: 5) {
        edges {
          node {
            title
            permissions { admin }
            collections(first: 25) {
              totalCount
              edges {
                node {
                  title
                  permissions { create }
                  parent { title }
                  spaces(first: 25) {
                    totalCount
                    edges { node { title permissions { edit } organization { title } parent { title } } }
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

async function statementsFor(viewer: TestUser) {
  // This instance's own writes are heard back first (PostgreSQL), not counted below.
  await t.database.generations.barrier();
  const before = t.statements();
  const result = await t.graphql(viewer.token, treeQuery);
  expect(result.errors).toBeUndefined();
  return { count: t.statements() - before, data: result.data };
}

describe('nested GraphQL queries', () => {
  for (const role of ['admin', 'read'] as const) {
    it(`cost the same number of SQL statements at 10× the breadth (${role} viewer)`, async () => {
      const small = await statementsFor(await buildTree(1, 2, 2, role));
      const large = await statementsFor(await buildTree(2, 20, 10, role));
      const organizations = large.data.viewer.organizations.edges;
      expect(organizations).toHaveLength(2);
      expect(organizations[0].node.collections.edges).toHaveLength(20);
      expect(organizations[0].node.collections.edges[0].node.spaces.edges).toHaveLength(10);
      expect(large.count).toBe(small.count);
      expect(large.count).toBeLessThanOrEqual(12);
    });
  }
});
