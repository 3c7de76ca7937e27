import { GitBookAPI } from '@gitbook/api';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { buildTeam, buildUser } from '../support/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

async function setup() {
  const team = await buildTeam(t.database);
  const create = async (body: Record<string, unknown> = {}) => {
    const response = await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  return { ...team, create };
}

describe('POST /v1/orgs/{organizationId}/spaces', () => {
  it('creates a space at the end of the top level', async () => {
    const { organization, admin } = await setup();
    const response = await t.call('POST', `/v1/orgs/${organization.id}/spaces`, {
      token: admin.token,
      body: { title: 'Handbook', emoji: '📘', editMode: 'live' },
    });
    expect(response.statusCode).toBe(201);
    const space = response.json();
    expectMatchesSchema('POST', '/v1/orgs/{organizationId}/spaces', 201, space);
    expect(space).toMatchObject({
      object: 'space',
      title: 'Handbook',
      emoji: '📘',
      organization: organization.id,
      visibility: 'private',
      defaultLevel: null,
      permissions: { view: true, admin: true, edit: true },
    });
    expect(response.headers.location).toBe(space.urls.location);
    const row = await t.database.db.space.findUnique({ where: { id: space.id } });
    expect(row).toMatchObject({ title: 'Handbook', organizationId: organization.id, deletedAt: null });
  });

  it('rejects bad input and changes nothing', async () => {
    const { organization, admin } = await setup();
    const before = await t.database.db.space.count({ where: { organizationId: organization.id } });
    for (const [body, message] of [
      [{ title: 'x'.repeat(51) }, /^title: /],
      [{ emoji: 'not an emoji' }, /^emoji: must be an emoji/],
      [{ editMode: 'frozen' }, /^editMode: /],
      [{ color: 'red' }, /unknown field "color"/],
      [{ parent: 'col_missing' }, /^parent: collection "col_missing" does not exist/],
    ] as const) {
      const response = await t.call('POST', `/v1/orgs/${organization.id}/spaces`, { token: admin.token, body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.code).toBe(400);
      expect(response.json().error.message).toMatch(message);
    }
    expect(await t.database.db.space.count({ where: { organizationId: organization.id } })).toBe(before);
  });

  it('needs the create role, and membership', async () => {
    const { organization, member } = await setup();
    const editor = await member('edit');
    expect((await t.call('POST', `/v1/orgs/${organization.id}/spaces`, { token: editor.token, body: {} })).statusCode).toBe(403);
    const creator = await member('create');
    expect((await t.call('POST', `/v1/orgs/${organization.id}/spaces`, { token: creator.token, body: {} })).statusCode).toBe(201);
    const stranger = await buildUser(t.database);
    expect((await t.call('POST', `/v1/orgs/${organization.id}/spaces`, { token: stranger.token, body: {} })).statusCode).toBe(404);
    expect((await t.call('POST', `/v1/orgs/${organization.id}/spaces`, { body: {} })).statusCode).toBe(401);
  });
});

describe('GET /v1/spaces/{spaceId}', () => {
  it('answers through the official client', async () => {
    const { admin, create } = await setup();
    const space = await create({ title: 'Official' });
    const api = new GitBookAPI({ endpoint: await t.listen(), authToken: admin.token });
    const { data } = await api.spaces.getSpaceById(space.id);
    expect(data).toEqual(space);
    expectMatchesSchema('GET', '/v1/spaces/{spaceId}', 200, data);
  });

  it('is a 404 outside the organization and a 401 without a token', async () => {
    const { create } = await setup();
    const space = await create();
    const stranger = await buildUser(t.database);
    const hidden = await t.call('GET', `/v1/spaces/${space.id}`, { token: stranger.token });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ error: { code: 404, message: `Space "${space.id}" was not found` } });
    expect((await t.call('GET', `/v1/spaces/${space.id}`)).statusCode).toBe(401);
    expect((await t.call('GET', `/v1/spaces/${space.id}`, { token: 'dgw_unknown' })).statusCode).toBe(401);
  });
});
