import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.ts';
import { buildTeam } from './support/factories.ts';
import { untilGenerationsHeard } from './support/generations.ts';

// What single-object reads cost the database (the benchmark's S1 and S2): the
// object in one statement; the viewer behind a token (user, memberships, data
// generations) is read once, then kept (src/domain/users/viewer-cache.ts). The
// whole-tree bounds are in test/graphql/site-tree.test.ts.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await untilGenerationsHeard(t.database);
});

async function counted<T>(work: () => Promise<T>): Promise<{ statements: number; result: T }> {
  // This instance's own writes are heard back first (PostgreSQL), not counted below.
  await t.database.generations.barrier();
  const before = t.statements();
  const result = await work();
  return { statements: t.statements() - before, result };
}

describe('a single space', () => {
  it('costs one SQL statement over REST and over GraphQL once the token is known, none when the response cache answers', async () => {
    const team = await buildTeam(t.database);
    const reader = await team.member('read');
    const created = await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Counted' } });
    const spaceId = created.json().id;
    // The first request of a token reads its viewer: one statement, then none (once this
    // instance's own writes above are heard back, src/db/generation-feed.ts).
    await t.database.generations.barrier();
    const first = await counted(() => t.call('GET', '/v1/user', { token: reader.token }));
    expect([first.result.statusCode, first.statements]).toEqual([200, 1]);
    for (const user of [team.admin, reader]) {
      expect((await counted(() => t.call('GET', '/v1/user', { token: user.token }))).statements).toBe(0);
      const rest = await counted(() => t.call('GET', `/v1/spaces/${spaceId}`, { token: user.token }));
      expect(rest.result.statusCode).toBe(200);
      expect(rest.statements).toBe(1);
      const graphql = await counted(() => t.graphql(user.token, 'query($id: ID!) { space(id: $id) { id title permissions { edit } } }', { id: spaceId }));
      expect(graphql.result.data.space.id).toBe(spaceId);
      expect(graphql.statements).toBe(1);
      const again = await counted(() => t.call('GET', `/v1/spaces/${spaceId}`, { token: user.token }));
      expect(again.result.headers['x-cache']).toBe('hit');
      expect(again.statements).toBe(0);
    }
  });
});

describe('a listing of spaces', () => {
  it('costs one SQL statement per page over REST, a deep page as much as the first, with the same items as the paging of GraphQL', async () => {
    const team = await buildTeam(t.database);
    for (let i = 0; i < 5; i++) {
      const created = await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: `Listed ${i}` } });
      expect(created.statusCode).toBe(201);
    }
    await t.database.generations.barrier();
    await t.call('GET', '/v1/user', { token: team.admin.token });
    const url = (page?: string) => `/v1/orgs/${team.organization.id}/spaces?limit=2${page ? `&page=${page}` : ''}`;
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const response = await counted(() => t.call('GET', url(page), { token: team.admin.token }));
      expect([response.result.statusCode, response.statements]).toEqual([200, 1]);
      const body = response.result.json();
      expect(body.count).toBe(5);
      seen.push(...body.items.map((space: { id: string }) => space.id));
      page = body.next?.page;
    } while (page);
    const all = await t.graphql(team.admin.token, 'query($id: ID!) { organization(id: $id) { spaces(first: 10) { edges { node { id } } } } }', {
      id: team.organization.id,
    });
    expect(seen).toEqual(all.data.organization.spaces.edges.map((edge: { node: { id: string } }) => edge.node.id));
  });
});
