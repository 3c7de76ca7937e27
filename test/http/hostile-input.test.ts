import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { buildTeam } from '../support/factories.ts';
import { expectGraphQLError, mutate } from '../support/graphql.ts';

/**
 * Input that once answered 500 (or that the two databases disagreed on): each
 * is a 400 naming the field and the rule, on SQLite and PostgreSQL alike, and
 * nothing is written.
 */

let t: TestApp;
let team: Awaited<ReturnType<typeof buildTeam>>;
beforeAll(async () => {
  t = await createTestApp();
  team = await buildTeam(t.database);
});

const spaceCount = () => t.database.db.space.count({ where: { organizationId: team.organization.id } });

async function expectRefused(response: { statusCode: number; json(): any }, message: RegExp) {
  expect(response.statusCode, JSON.stringify(response.json())).toBe(400);
  expect(response.json()).toEqual({ error: { code: 400, message: expect.stringMatching(message) } });
}

describe('text that cannot be stored', () => {
  it('refuses NUL characters in bodies, writing nothing', async () => {
    const org = `/v1/orgs/${team.organization.id}`;
    const before = await spaceCount();
    await expectRefused(
      await t.call('POST', `${org}/spaces`, { token: team.admin.token, body: { title: 'a\u0000b' } }),
      /^title: must not contain NUL characters/,
    );
    await expectRefused(await t.call('POST', `${org}/collections`, { token: team.admin.token, body: { title: 'a\u0000b' } }), /^title: must not contain NUL/);
    await expectRefused(await t.call('PATCH', org, { token: team.admin.token, body: { title: '\u0000' } }), /^title: must not contain NUL/);
    expect(await spaceCount()).toBe(before);
    expect(await t.database.db.collection.count({ where: { organizationId: team.organization.id } })).toBe(0);
    expect((await t.database.db.organization.findUniqueOrThrow({ where: { id: team.organization.id } })).title).toBe(team.organization.title);
  });

  it('refuses NUL characters in paths and query strings', async () => {
    await expectRefused(await t.call('GET', '/v1/spaces/spc_%00', { token: team.admin.token }), /^spaceId: must not contain NUL/);
    await expectRefused(
      await t.call('GET', `/v1/orgs/${team.organization.id}/members?search=a%00`, { token: team.admin.token }),
      /^search: must not contain NUL/,
    );
    await expectRefused(await t.call('GET', `/v1/orgs/${team.organization.id}/spaces?limit=1%00`, { token: team.admin.token }), /^limit: must not contain NUL/);
  });

  it('refuses lone UTF-16 surrogates, and keeps characters made of a surrogate pair', async () => {
    const spaces = `/v1/orgs/${team.organization.id}/spaces`;
    const before = await spaceCount();
    await expectRefused(await t.call('POST', spaces, { token: team.admin.token, body: { title: '\ud800x' } }), /^title: must be valid Unicode/);
    await expectRefused(await t.call('POST', spaces, { token: team.admin.token, body: { title: 'x\udc00' } }), /^title: must be valid Unicode/);
    await expectRefused(
      await t.call('POST', spaces, { token: team.admin.token, body: { title: 'ok', '\ud800': 1 } }),
      /^body: a field name must be valid Unicode/,
    );
    expect(await spaceCount()).toBe(before);
    const created = await t.call('POST', spaces, { token: team.admin.token, body: { title: 'Launch 🚀 plan' } });
    expect(created.statusCode).toBe(201);
    expect((await t.database.db.space.findUniqueOrThrow({ where: { id: created.json().id } })).title).toBe('Launch 🚀 plan');
  });
});

describe('shapes that once failed deep inside', () => {
  it('refuses JSON nested beyond 64 levels before any work, however deep', async () => {
    const site = (await t.call('POST', `/v1/orgs/${team.organization.id}/sites`, { token: team.admin.token, body: { title: 'Deep' } })).json();
    // Written as text: a JSON.stringify this deep may overflow the test's own stack.
    const nested = (depth: number) => `{"jsonSchema":${'{"type":"object","properties":{"inner":'.repeat(depth)}{"type":"string"}${'}}'.repeat(depth)}}`;
    const path = `/v1/orgs/${team.organization.id}/sites/${site.id}/adaptive-schema`;
    for (const depth of [500, 3000]) {
      const response = await t.app.inject({
        method: 'PUT',
        url: path,
        headers: { authorization: `Bearer ${team.admin.token}`, 'content-type': 'application/json' },
        payload: nested(depth),
      });
      await expectRefused(response, /^jsonSchema(\.properties(\.inner)?)+: is nested more than 64 levels deep$/);
    }
    const schema = (await t.call('GET', path, { token: team.admin.token })).json();
    expect(JSON.stringify(schema)).not.toContain('inner');
  });

  it('refuses a null body like any body that is not an object', async () => {
    const before = await spaceCount();
    await expectRefused(await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: null }), /^body: /);
    expect(await spaceCount()).toBe(before);
  });

  it('bounds the custom field values one request sets (SQLite bounds statement parameters)', async () => {
    const space = (await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Fields' } })).json();
    const values = Object.fromEntries(Array.from({ length: 1000 }, (_, index) => [`field${index}`, { value: 'x' }]));
    await expectRefused(
      await t.call('PATCH', `/v1/spaces/${space.id}/custom-fields`, { token: team.admin.token, body: { values } }),
      /^values: must hold at most 100 fields$/,
    );
  });
});

describe('over GraphQL', () => {
  it('refuses NUL characters and lone surrogates in literals and variables, writing nothing', async () => {
    expectGraphQLError(await t.graphql(team.admin.token, '{ space(id: "spc_\\u0000") { id } }'), 400, /^a string in the document: must not contain NUL/);
    expectGraphQLError(
      await t.graphql(team.admin.token, 'query($id: ID!) { space(id: $id) { id } }', { id: 'spc_\u0000' }),
      400,
      /^variables\.id: must not contain NUL/,
    );
    const before = await spaceCount();
    expectGraphQLError(
      await mutate(t, team.admin.token, 'createSpace', { organizationId: team.organization.id, title: 'a\ud800' }, 'space { id }'),
      400,
      /^variables\.input\.title: must be valid Unicode/,
    );
    expect(await spaceCount()).toBe(before);
  });

  it('answers a document of 5,000 nested braces with a 400', async () => {
    const result = await t.graphql(team.admin.token, `{ viewer ${'{ user '.repeat(2500)}${'}'.repeat(2501)} }`);
    expect(result.errors?.[0]?.extensions?.code).toBe(400);
    const braces = await t.call('POST', '/graphql', { token: team.admin.token, body: { query: `${'{'.repeat(5000)}${'}'.repeat(5000)}` } });
    expect(braces.statusCode).toBeLessThan(500);
    expect(braces.json().errors[0].extensions.code).toBe(400);
  });
});
