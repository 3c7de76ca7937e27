import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { buildTeam } from '../support/factories.ts';

/**
 * What the fuzzers found, as plain cases: each once answered outside the
 * error shape or with a 500 (on PostgreSQL), and must stay a 4xx in the shape.
 */

let t: TestApp;
let team: Awaited<ReturnType<typeof buildTeam>>;
beforeAll(async () => {
  t = await createTestApp();
  team = await buildTeam(t.database);
});

const token = (parts: unknown[]) => Buffer.from(JSON.stringify(parts)).toString('base64url');

describe('the router refuses in the error shape', () => {
  it.each([
    ['a malformed percent-encoding', '/v1/spaces/%zz', 400, /^path: is not a valid URL/],
    ['an encoded lone surrogate (not UTF-8)', '/v1/spaces/%ED%A0%80/content', 400, /^path: is not a valid URL/],
    ['a truncated UTF-8 sequence', '/v1/orgs/org_x/sites/%E2%82/publish', 400, /^path: is not a valid URL/],
    ['a path parameter of 201 characters', `/v1/spaces/${'x'.repeat(201)}`, 414, /^path: a path parameter is longer than 200 characters$/],
  ])('%s', async (_name, url, status, message) => {
    const response = await t.call('GET', url, { token: team.admin.token });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ error: { code: status, message: expect.stringMatching(message) } });
  });
});

describe('a page token tampered with is a 400 on both databases', () => {
  it.each([
    ['a NUL in a sort value', ['spaces-by-creation', { d: '2026-01-01T00:00:00.000Z' }, 'spc_\u0000']],
    ['a lone surrogate in a sort value', ['spaces-by-creation', { d: '2026-01-01T00:00:00.000Z' }, 'spc_\ud800']],
    ['a date before year 1', ['spaces-by-creation', { d: '-271821-04-20T00:00:00.000Z' }, 'spc_x']],
    ['year 0', ['spaces-by-creation', { d: '0000-01-01T00:00:00.000Z' }, 'spc_x']],
    ['a date after year 9999', ['spaces-by-creation', { d: '+275760-09-13T00:00:00.000Z' }, 'spc_x']],
  ])('%s', async (_name, parts) => {
    for (const param of ['page', 'after']) {
      const response = await t.call('GET', `/v1/orgs/${team.organization.id}/spaces?${param}=${token(parts)}`, { token: team.admin.token });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual({ error: { code: 400, message: `${param}: is not a page token returned by this listing` } });
    }
    const graph = await t.graphql(
      team.admin.token,
      'query($id: ID!, $after: String) { node(id: $id) { ... on Organization { spaces(first: 1, after: $after) { totalCount } } } }',
      {
        id: team.organization.id,
        after: token(parts),
      },
    );
    expect(graph.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([[400, 'after: is not a page token returned by this listing']]);
  });
});

describe('an empty organization in a site path is a 404', () => {
  it.each([
    ['PATCH', 'permissions/teams/team_x', { role: 'read' }],
    ['PATCH', 'permissions/users/user_x', { role: 'read' }],
    ['DELETE', 'permissions/teams/team_x', undefined],
    ['POST', 'permissions', { role: 'read', userIds: [] }],
    ['GET', 'permissions/aggregate', undefined],
  ] as const)('%s %s', async (method, path, body) => {
    const created = await t.call('POST', `/v1/orgs/${team.organization.id}/sites`, { token: team.admin.token, body: { title: 'Fuzzed' } });
    expect(created.statusCode, created.body).toBe(201);
    const site = created.json().id as string;
    const response = await t.call(method, `/v1/orgs//sites/${site}/${path}`, { token: team.admin.token, ...(body ? { body } : {}) });
    expect(response.statusCode, response.body).toBe(404);
    expect(response.json()).toEqual({ error: { code: 404, message: expect.stringMatching(/^Organization /) } });
  });
});
