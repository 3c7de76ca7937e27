import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.ts';
import { buildTeam } from './support/factories.ts';

// What single-object reads cost the database (the benchmark's S1 and S2):
// authentication, memberships and the data generation in one statement, the
// object in another. The whole-tree bounds are in test/graphql/site-tree.test.ts.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

async function counted<T>(work: () => Promise<T>): Promise<{ statements: number; result: T }> {
  const before = t.statements();
  const result = await work();
  return { statements: t.statements() - before, result };
}

describe('a single space', () => {
  it('costs two SQL statements over REST and over GraphQL, one when the response cache answers', async () => {
    const team = await buildTeam(t.database);
    const reader = await team.member('read');
    const created = await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Counted' } });
    const spaceId = created.json().id;
    for (const user of [team.admin, reader]) {
      const rest = await counted(() => t.call('GET', `/v1/spaces/${spaceId}`, { token: user.token }));
      expect(rest.result.statusCode).toBe(200);
      expect(rest.statements).toBe(2);
      const graphql = await counted(() => t.graphql(user.token, 'query($id: ID!) { space(id: $id) { id title permissions { edit } } }', { id: spaceId }));
      expect(graphql.result.data.space.id).toBe(spaceId);
      expect(graphql.statements).toBe(2);
      const again = await counted(() => t.call('GET', `/v1/spaces/${spaceId}`, { token: user.token }));
      expect(again.result.headers['x-cache']).toBe('hit');
      expect(again.statements).toBe(1);
    }
  });
});
