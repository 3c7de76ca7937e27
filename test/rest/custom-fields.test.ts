import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_URLS, type TestApp } from '../support/app.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { type TestUser, buildTeam, buildUser } from '../support/factories.ts';
import { type Reply, expectError as expectErrorReply } from '../support/http.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const LIST = '/v1/orgs/{organizationId}/custom-fields';
const FIELD = '/v1/orgs/{organizationId}/custom-fields/{fieldName}';
const VALUES = '/v1/spaces/{spaceId}/custom-fields';

/** A REST error (see support/http.ts) whose message is a string even where the test does not check its text. */
function expectError(response: Reply, status: number, message?: RegExp) {
  expectErrorReply(response, status);
  expect(typeof response.json().error.message).toBe('string');
  if (message) expect(response.json().error.message).toMatch(message);
}

/** An organization with an admin, members on demand, and helpers for its custom fields. */
async function setup() {
  const team = await buildTeam(t.database);
  const organizationId = team.organization.id;
  const base = `/v1/orgs/${organizationId}/custom-fields`;
  const createField = async (body: Record<string, unknown>) => {
    const response = await t.call('POST', base, { token: team.admin.token, body });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  const fieldRows = () => t.database.db.customField.findMany({ where: { organizationId }, orderBy: { name: 'asc' } });
  return { ...team, organizationId, base, createField, fieldRows };
}

describe('POST /v1/orgs/{organizationId}/custom-fields', () => {
  it('creates a text field', async () => {
    const { organizationId, base, admin } = await setup();
    const response = await t.call('POST', base, {
      token: admin.token,
      body: { name: 'owner', type: 'text', title: 'Owner', description: 'Who maintains it', placeholder: 'Team name' },
    });
    expect(response.statusCode, response.body).toBe(201);
    const field = response.json();
    expectMatchesSchema('POST', LIST, 201, field);
    expect(field).toEqual({
      object: 'custom-field',
      id: expect.stringMatching(/^cf_/),
      name: 'owner',
      type: 'text',
      title: 'Owner',
      description: 'Who maintains it',
      placeholder: 'Team name',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      urls: { location: `${TEST_URLS.api}/v1/orgs/${organizationId}/custom-fields/owner` },
      permissions: { view: true, edit: true },
    });
    expect(response.headers.location).toBe(field.urls.location);
    const row = await t.database.db.customField.findUnique({ where: { id: field.id } });
    expect(row).toMatchObject({
      organizationId,
      name: 'owner',
      type: 'text',
      title: 'Owner',
      description: 'Who maintains it',
      placeholder: 'Team name',
    });
    expect(row!.createdAt.toISOString()).toBe(field.createdAt);
    expect(row!.options).toBeNull();
  });

  it('creates select and multi-select fields with their options, and every other type without', async () => {
    const { base, admin, fieldRows } = await setup();
    const bodies = [
      { name: 'stage', type: 'select', options: ['draft', 'review', 'final'] },
      { name: 'tags', type: 'multi-select', options: ['api', 'guide'] },
      { name: 'priority', type: 'number' },
      { name: 'public', type: 'boolean' },
      { name: 'notes', type: 'text' },
    ];
    for (const body of bodies) {
      const response = await t.call('POST', base, { token: admin.token, body });
      expect(response.statusCode, response.body).toBe(201);
      expectMatchesSchema('POST', LIST, 201, response.json());
      expect(response.json()).toMatchObject(body);
      if (!body.options) expect(response.json()).not.toHaveProperty('options');
    }
    const rows = await fieldRows();
    expect(rows.map((row) => [row.name, row.type, row.options])).toEqual([
      ['notes', 'text', null],
      ['priority', 'number', null],
      ['public', 'boolean', null],
      ['stage', 'select', ['draft', 'review', 'final']],
      ['tags', 'multi-select', ['api', 'guide']],
    ]);
  });

  it('accepts every length bound exactly', async () => {
    const { base, admin } = await setup();
    const body = {
      name: `a_-0${'z'.repeat(46)}`,
      type: 'multi-select',
      title: 't'.repeat(100),
      description: 'd'.repeat(200),
      placeholder: 'p'.repeat(100),
      options: Array.from({ length: 50 }, (_, index) => `option ${index}`),
    };
    expect(body.name).toHaveLength(50);
    const response = await t.call('POST', base, { token: admin.token, body });
    expect(response.statusCode, response.body).toBe(201);
    expectMatchesSchema('POST', LIST, 201, response.json());
    expect(response.json()).toMatchObject(body);
    const single = await t.call('POST', base, { token: admin.token, body: { name: 'x', type: 'select', options: ['only'] } });
    expect(single.statusCode, single.body).toBe(201);
  });

  it('rejects bad input with the field and the rule, and changes nothing', async () => {
    const { base, admin, fieldRows } = await setup();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{}, /^name: is required/],
      [{ type: 'text' }, /^name: is required/],
      [{ name: 'owner' }, /^type: is required/],
      [{ name: '', type: 'text' }, /^name: /],
      [{ name: 'n'.repeat(51), type: 'text' }, /^name: /],
      [{ name: 'Owner', type: 'text' }, /^name: /],
      [{ name: 'has space', type: 'text' }, /^name: /],
      [{ name: 'dotted.name', type: 'text' }, /^name: /],
      [{ name: 'émoji', type: 'text' }, /^name: /],
      [{ name: 42, type: 'text' }, /^name: /],
      [{ name: 'owner', type: 'date' }, /^type: /],
      [{ name: 'owner', type: 'text', title: 't'.repeat(101) }, /^title: /],
      [{ name: 'owner', type: 'text', description: 'd'.repeat(201) }, /^description: /],
      [{ name: 'owner', type: 'text', placeholder: 'p'.repeat(101) }, /^placeholder: /],
      [{ name: 'stage', type: 'select' }, /^options: /],
      [{ name: 'tags', type: 'multi-select' }, /^options: /],
      [{ name: 'owner', type: 'text', options: ['a'] }, /^options: /],
      [{ name: 'count', type: 'number', options: ['1'] }, /^options: /],
      [{ name: 'flag', type: 'boolean', options: ['yes'] }, /^options: /],
      [{ name: 'stage', type: 'select', options: [] }, /^options: /],
      [{ name: 'stage', type: 'select', options: Array.from({ length: 51 }, (_, i) => `o${i}`) }, /^options: /],
      [{ name: 'stage', type: 'select', options: ['draft', 'final', 'draft'] }, /^options: /],
      [{ name: 'stage', type: 'select', options: [1, 2] }, /^options\.0: /],
      [{ name: 'stage', type: 'select', options: 'draft' }, /^options: /],
      [{ name: 'owner', type: 'text', color: 'red' }, /unknown field "color"/],
    ];
    for (const [body, message] of cases) {
      const response = await t.call('POST', base, { token: admin.token, body });
      expectError(response, 400, message);
    }
    expect(await fieldRows()).toEqual([]);
  });

  it('refuses a second field with the same name (409) but allows it in another organization', async () => {
    const { base, admin, createField, fieldRows } = await setup();
    const first = await createField({ name: 'owner', type: 'text', title: 'First' });
    const again = await t.call('POST', base, { token: admin.token, body: { name: 'owner', type: 'number' } });
    expectError(again, 409, /^name: /);
    const rows = await fieldRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: first.id, type: 'text', title: 'First' });

    const other = await setup();
    const elsewhere = await other.createField({ name: 'owner', type: 'number' });
    expect(elsewhere.id).not.toBe(first.id);
    expect(await other.fieldRows()).toHaveLength(1);
  });

  it('creates one field when the same name is posted concurrently; the others are 409', async () => {
    const { base, admin, fieldRows } = await setup();
    const responses = await Promise.all(
      Array.from({ length: 4 }, (_, index) => t.call('POST', base, { token: admin.token, body: { name: 'racing', type: 'text', title: `Attempt ${index}` } })),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses, responses.map((response) => response.body).join('\n')).toEqual([201, 409, 409, 409]);
    for (const response of responses.filter((response) => response.statusCode === 409)) expectError(response, 409);
    const rows = await fieldRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toBe(responses.find((response) => response.statusCode === 201)!.json().id);
  });

  it('needs the admin role, and membership', async () => {
    const { base, member, fieldRows } = await setup();
    const body = { name: 'owner', type: 'text' };
    for (const role of ['create', 'review', 'edit', 'comment', 'read', null] as const) {
      const user = await member(role);
      expectError(await t.call('POST', base, { token: user.token, body }), 403);
    }
    const stranger = await buildUser(t.database);
    expectError(await t.call('POST', base, { token: stranger.token, body }), 404);
    expectError(await t.call('POST', base, { body }), 401);
    expectError(await t.call('POST', base, { token: 'dgw_unknown', body }), 401);
    expect(await fieldRows()).toEqual([]);
  });

  it('is a 404 for an organization that does not exist', async () => {
    const { admin } = await setup();
    expectError(await t.call('POST', '/v1/orgs/org_doesnotexist/custom-fields', { token: admin.token, body: { name: 'a', type: 'text' } }), 404);
  });
});

describe('GET /v1/orgs/{organizationId}/custom-fields', () => {
  it('lists the fields by name, with the permissions of the caller', async () => {
    const { base, admin, member, createField } = await setup();
    // Byte order of the allowed characters: "-" < digits < "_" < letters.
    const names = ['b', 'ab', 'a_b', 'a1', 'c-2', 'a-c', 'c-10'];
    for (const name of names) await createField({ name, type: 'text' });
    const expected = [...names].sort();

    const response = await t.call('GET', base, { token: admin.token });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expectMatchesSchema('GET', LIST, 200, body);
    expect(body.count).toBe(names.length);
    expect(body.next).toBeUndefined();
    expect(body.items.map((field: { name: string }) => field.name)).toEqual(expected);
    expect(body.items.every((field: any) => field.permissions.view && field.permissions.edit)).toBe(true);

    const reader = await member('read');
    const asReader = await t.call('GET', base, { token: reader.token });
    expect(asReader.statusCode, asReader.body).toBe(200);
    expectMatchesSchema('GET', LIST, 200, asReader.json());
    expect(asReader.json().items.map((field: { name: string }) => field.name)).toEqual(expected);
    expect(asReader.json().items.map((field: any) => field.permissions)).toEqual(expected.map(() => ({ view: true, edit: false })));
  });

  it('is empty for an organization without fields', async () => {
    const { base, admin } = await setup();
    const response = await t.call('GET', base, { token: admin.token });
    expect(response.statusCode).toBe(200);
    expectMatchesSchema('GET', LIST, 200, response.json());
    expect(response.json()).toEqual({ count: 0, items: [] });
  });

  it('pages with limit and next.page', async () => {
    const { base, admin, createField } = await setup();
    const names = ['field-e', 'field-a', 'field-d', 'field-b', 'field-c'];
    for (const name of names) await createField({ name, type: 'boolean' });

    const seen: string[] = [];
    const pageSizes: number[] = [];
    let url = `${base}?limit=2`;
    for (let guard = 0; guard < 10; guard += 1) {
      const response = await t.call('GET', url, { token: admin.token });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expectMatchesSchema('GET', LIST, 200, body);
      expect(body.count).toBe(5);
      seen.push(...body.items.map((field: { name: string }) => field.name));
      pageSizes.push(body.items.length);
      if (!body.next) break;
      expect(typeof body.next.page).toBe('string');
      url = `${base}?limit=2&page=${encodeURIComponent(body.next.page)}`;
    }
    expect(pageSizes).toEqual([2, 2, 1]);
    expect(seen).toEqual(['field-a', 'field-b', 'field-c', 'field-d', 'field-e']);

    // A page that ends exactly with the last field has no next page.
    const all = (await t.call('GET', `${base}?limit=5`, { token: admin.token })).json();
    expect(all.items).toHaveLength(5);
    expect(all.next).toBeUndefined();
  });

  it('rejects bad paging parameters', async () => {
    const { base, admin } = await setup();
    expectError(await t.call('GET', `${base}?limit=1001`, { token: admin.token }), 400, /^limit: /);
    expectError(await t.call('GET', `${base}?limit=-1`, { token: admin.token }), 400, /^limit: /);
    expectError(await t.call('GET', `${base}?limit=many`, { token: admin.token }), 400, /^limit: /);
    expectError(await t.call('GET', `${base}?page=not-a-token`, { token: admin.token }), 400, /^page: /);
  });

  it('needs a non-guest member: 403 for guests, 404 for strangers, 401 without a token', async () => {
    const { base, member, createField } = await setup();
    await createField({ name: 'owner', type: 'text' });
    for (const role of ['create', 'review', 'edit', 'comment', 'read'] as const) {
      const user = await member(role);
      const response = await t.call('GET', base, { token: user.token });
      expect(response.statusCode, `${role}: ${response.body}`).toBe(200);
      expect(response.json().count).toBe(1);
    }
    const guest = await member(null);
    expectError(await t.call('GET', base, { token: guest.token }), 403);
    const stranger = await buildUser(t.database);
    expectError(await t.call('GET', base, { token: stranger.token }), 404);
    expectError(await t.call('GET', base), 401);
  });
});

describe('GET /v1/orgs/{organizationId}/custom-fields/{fieldName}', () => {
  it('answers one field', async () => {
    const { base, admin, member, createField } = await setup();
    const created = await createField({ name: 'stage', type: 'select', title: 'Stage', options: ['draft', 'final'] });
    const response = await t.call('GET', `${base}/stage`, { token: admin.token });
    expect(response.statusCode, response.body).toBe(200);
    expectMatchesSchema('GET', FIELD, 200, response.json());
    expect(response.json()).toEqual(created);

    const reader = await member('read');
    const asReader = await t.call('GET', `${base}/stage`, { token: reader.token });
    expect(asReader.statusCode, asReader.body).toBe(200);
    expectMatchesSchema('GET', FIELD, 200, asReader.json());
    expect(asReader.json()).toEqual({ ...created, permissions: { view: true, edit: false } });
  });

  it('is a 404 for a field that does not exist or belongs to another organization', async () => {
    const { base, admin, createField } = await setup();
    await createField({ name: 'owner', type: 'text' });
    expectError(await t.call('GET', `${base}/missing`, { token: admin.token }), 404);
    const other = await setup();
    await other.createField({ name: 'only-there', type: 'text' });
    expectError(await t.call('GET', `${base}/only-there`, { token: admin.token }), 404);
  });

  it('is a 403 for guests, a 404 for strangers and a 401 without a token', async () => {
    const { base, member, createField } = await setup();
    await createField({ name: 'owner', type: 'text' });
    const guest = await member(null);
    expectError(await t.call('GET', `${base}/owner`, { token: guest.token }), 403);
    const stranger = await buildUser(t.database);
    expectError(await t.call('GET', `${base}/owner`, { token: stranger.token }), 404);
    expectError(await t.call('GET', `${base}/owner`), 401);
  });
});

describe('PATCH /v1/orgs/{organizationId}/custom-fields/{fieldName}', () => {
  it('updates title, description and placeholder, keeping what is not sent', async () => {
    const { base, admin, createField } = await setup();
    const created = await createField({
      name: 'owner',
      type: 'text',
      title: 'Owner',
      description: 'Who maintains it',
      placeholder: 'Team',
    });
    const response = await t.call('PATCH', `${base}/owner`, {
      token: admin.token,
      body: { title: 'Maintainer', placeholder: 'Team or person' },
    });
    expect(response.statusCode, response.body).toBe(200);
    const field = response.json();
    expectMatchesSchema('PATCH', FIELD, 200, field);
    expect(field).toMatchObject({
      id: created.id,
      name: 'owner',
      type: 'text',
      title: 'Maintainer',
      description: 'Who maintains it',
      placeholder: 'Team or person',
      createdAt: created.createdAt,
    });
    const row = await t.database.db.customField.findUnique({ where: { id: created.id } });
    expect(row).toMatchObject({ title: 'Maintainer', description: 'Who maintains it', placeholder: 'Team or person' });
    expect((await t.call('GET', `${base}/owner`, { token: admin.token })).json()).toEqual(field);

    const described = await t.call('PATCH', `${base}/owner`, { token: admin.token, body: { description: 'd'.repeat(200) } });
    expect(described.statusCode, described.body).toBe(200);
    expect(described.json()).toMatchObject({ title: 'Maintainer', description: 'd'.repeat(200) });
  });

  it('replaces the options of a select field', async () => {
    const { base, admin, createField } = await setup();
    const created = await createField({ name: 'stage', type: 'select', options: ['draft', 'final'] });
    const response = await t.call('PATCH', `${base}/stage`, {
      token: admin.token,
      body: { options: ['draft', 'review', 'final'] },
    });
    expect(response.statusCode, response.body).toBe(200);
    expectMatchesSchema('PATCH', FIELD, 200, response.json());
    expect(response.json()).toMatchObject({ id: created.id, type: 'select', options: ['draft', 'review', 'final'] });
    const row = await t.database.db.customField.findUnique({ where: { id: created.id } });
    expect(row!.options).toEqual(['draft', 'review', 'final']);
  });

  it('refuses to change the name or the type, unknown fields and bad values, and changes nothing', async () => {
    const { base, admin, createField, fieldRows } = await setup();
    await createField({ name: 'owner', type: 'text', title: 'Owner' });
    await createField({ name: 'stage', type: 'select', options: ['draft', 'final'] });
    const before = await fieldRows();
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['owner', { name: 'maintainer' }, /^name: /],
      ['owner', { name: 'owner' }, /^name: /],
      ['owner', { type: 'number' }, /^type: /],
      ['owner', { title: 'Still owner', type: 'select' }, /type: /],
      ['owner', { color: 'red' }, /unknown field "color"/],
      ['owner', { title: 't'.repeat(101) }, /^title: /],
      ['owner', { description: 'd'.repeat(201) }, /^description: /],
      ['owner', { placeholder: 'p'.repeat(101) }, /^placeholder: /],
      ['owner', { options: ['a', 'b'] }, /^options: /],
      ['stage', { options: [] }, /^options: /],
      ['stage', { options: ['a', 'a'] }, /^options: /],
      ['stage', { options: Array.from({ length: 51 }, (_, i) => `o${i}`) }, /^options: /],
    ];
    for (const [name, body, message] of cases) {
      const response = await t.call('PATCH', `${base}/${name}`, { token: admin.token, body });
      expectError(response, 400, message);
    }
    expect(await fieldRows()).toEqual(before);
  });

  it('is a 404 for a field that does not exist', async () => {
    const { base, admin } = await setup();
    expectError(await t.call('PATCH', `${base}/missing`, { token: admin.token, body: { title: 'x' } }), 404);
  });

  it('needs the admin role, and membership', async () => {
    const { base, member, createField, fieldRows } = await setup();
    await createField({ name: 'owner', type: 'text', title: 'Owner' });
    const before = await fieldRows();
    const body = { title: 'Changed' };
    for (const role of ['create', 'edit', 'read', null] as const) {
      const user = await member(role);
      expectError(await t.call('PATCH', `${base}/owner`, { token: user.token, body }), 403);
    }
    const stranger = await buildUser(t.database);
    expectError(await t.call('PATCH', `${base}/owner`, { token: stranger.token, body }), 404);
    expectError(await t.call('PATCH', `${base}/owner`, { body }), 401);
    expect(await fieldRows()).toEqual(before);
  });
});

describe('DELETE /v1/orgs/{organizationId}/custom-fields/{fieldName}', () => {
  it('deletes the field and its values on every space', async () => {
    const { organizationId, base, admin, createField } = await setup();
    const owner = await createField({ name: 'owner', type: 'text' });
    const reviewed = await createField({ name: 'reviewed', type: 'boolean' });
    const spaces: Array<{ id: string }> = [];
    for (const title of ['One', 'Two']) {
      const created = await t.call('POST', `/v1/orgs/${organizationId}/spaces`, { token: admin.token, body: { title } });
      expect(created.statusCode, created.body).toBe(201);
      spaces.push(created.json());
    }
    for (const space of spaces) {
      const set = await t.call('PATCH', `/v1/spaces/${space.id}/custom-fields`, {
        token: admin.token,
        body: { values: { owner: { value: `team of ${space.id}` }, reviewed: { value: true } } },
      });
      expect(set.statusCode, set.body).toBe(204);
    }
    expect(await t.database.db.spaceCustomFieldValue.count({ where: { customFieldId: owner.id } })).toBe(2);

    const response = await t.call('DELETE', `${base}/owner`, { token: admin.token });
    expect(response.statusCode, response.body).toBe(204);
    expect(response.body).toBe('');

    expect(await t.database.db.customField.findUnique({ where: { id: owner.id } })).toBeNull();
    expect(await t.database.db.spaceCustomFieldValue.count({ where: { customFieldId: owner.id } })).toBe(0);
    expect(await t.database.db.spaceCustomFieldValue.count({ where: { customFieldId: reviewed.id } })).toBe(2);
    expectError(await t.call('GET', `${base}/owner`, { token: admin.token }), 404);
    const list = (await t.call('GET', base, { token: admin.token })).json();
    expect(list.items.map((field: { name: string }) => field.name)).toEqual(['reviewed']);
    for (const space of spaces) {
      const values = await t.call('GET', `/v1/spaces/${space.id}/custom-fields`, { token: admin.token });
      expect(values.statusCode, values.body).toBe(200);
      expectMatchesSchema('GET', VALUES, 200, values.json());
      expect(values.json().map((entry: any) => [entry.customField.name, entry.value])).toEqual([['reviewed', true]]);
    }

    // The name is free again, and the new field starts without values.
    await createField({ name: 'owner', type: 'text' });
    const values = (await t.call('GET', `/v1/spaces/${spaces[0]!.id}/custom-fields`, { token: admin.token })).json();
    expect(values.map((entry: any) => entry.customField.name)).toEqual(['reviewed']);
    expectError(await t.call('DELETE', `${base}/missing`, { token: admin.token }), 404);
  });

  it('needs the admin role, and membership', async () => {
    const { base, member, createField, fieldRows } = await setup();
    await createField({ name: 'owner', type: 'text' });
    for (const role of ['create', 'edit', 'read', null] as const) {
      const user = await member(role);
      expectError(await t.call('DELETE', `${base}/owner`, { token: user.token }), 403);
    }
    const stranger = await buildUser(t.database);
    expectError(await t.call('DELETE', `${base}/owner`, { token: stranger.token }), 404);
    expectError(await t.call('DELETE', `${base}/owner`), 401);
    expect((await fieldRows()).map((row) => row.name)).toEqual(['owner']);
  });
});

/** An organization with one field of each type and a space. */
async function spaceSetup() {
  const team = await setup();
  const fields = {
    owner: await team.createField({ name: 'owner', type: 'text', title: 'Owner' }),
    priority: await team.createField({ name: 'priority', type: 'number' }),
    published: await team.createField({ name: 'published', type: 'boolean' }),
    stage: await team.createField({ name: 'stage', type: 'select', options: ['draft', 'review', 'final'] }),
    tags: await team.createField({ name: 'tags', type: 'multi-select', options: ['api', 'guide', 'internal'] }),
  };
  const created = await t.call('POST', `/v1/orgs/${team.organizationId}/spaces`, {
    token: team.admin.token,
    body: { title: 'Handbook' },
  });
  expect(created.statusCode, created.body).toBe(201);
  const space = created.json() as { id: string };
  const url = `/v1/spaces/${space.id}/custom-fields`;
  const patch = (values: unknown, user: TestUser = team.admin) => t.call('PATCH', url, { token: user.token, body: { values } });
  const get = async (user: TestUser = team.admin) => {
    const response = await t.call('GET', url, { token: user.token });
    expect(response.statusCode, response.body).toBe(200);
    expectMatchesSchema('GET', VALUES, 200, response.json());
    return response.json() as Array<{ customField: any; value: unknown }>;
  };
  /** The values of the space by field name, as the API answers them. */
  const valuesByName = async (user?: TestUser) => Object.fromEntries((await get(user)).map((entry) => [entry.customField.name, entry.value]));
  /** The values of the space by field name, as stored. */
  const storedValues = async () =>
    Object.fromEntries(
      (await t.database.db.spaceCustomFieldValue.findMany({ where: { spaceId: space.id }, include: { customField: true } })).map((row) => [
        row.customField.name,
        row.value,
      ]),
    );
  return { ...team, fields, space, url, patch, get, valuesByName, storedValues };
}

describe('GET and PATCH /v1/spaces/{spaceId}/custom-fields', () => {
  it('starts empty, and sets a value of every type', async () => {
    const { patch, get, valuesByName, storedValues, fields, base, admin } = await spaceSetup();
    expect(await get()).toEqual([]);

    const values = {
      owner: 'Docs team',
      priority: 2.5,
      published: false,
      stage: 'review',
      tags: ['api', 'internal'],
    };
    const response = await patch(Object.fromEntries(Object.entries(values).map(([name, value]) => [name, { value }])));
    expect(response.statusCode, response.body).toBe(204);
    expect(response.body).toBe('');

    expect(await storedValues()).toEqual(values);
    expect(await valuesByName()).toEqual(values);
    const entries = await get();
    expect(entries).toHaveLength(5);
    for (const entry of entries) {
      const name = entry.customField.name as keyof typeof fields;
      // Each pair carries the whole custom field, as its own endpoint presents it.
      const alone = (await t.call('GET', `${base}/${name}`, { token: admin.token })).json();
      expect(entry.customField).toEqual(alone);
      expect(entry.customField.id).toBe(fields[name].id);
    }
  });

  it('changes only the values it names, and null clears a value', async () => {
    const { patch, valuesByName, storedValues } = await spaceSetup();
    expect((await patch({ owner: { value: 'Docs' }, priority: { value: 1 }, tags: { value: ['guide'] } })).statusCode).toBe(204);
    expect((await patch({ priority: { value: -3 }, published: { value: true } })).statusCode).toBe(204);
    expect(await valuesByName()).toEqual({ owner: 'Docs', priority: -3, published: true, tags: ['guide'] });

    const cleared = await patch({ owner: { value: null }, tags: { value: null }, stage: { value: null } });
    expect(cleared.statusCode, cleared.body).toBe(204);
    expect(await storedValues()).toEqual({ priority: -3, published: true });
    expect(await valuesByName()).toEqual({ priority: -3, published: true });

    // Edge values of each type.
    const edges = await patch({
      owner: { value: 'o'.repeat(256) },
      priority: { value: 0 },
      published: { value: false },
      tags: { value: ['api', 'guide', 'internal'] },
      stage: { value: 'final' },
    });
    expect(edges.statusCode, edges.body).toBe(204);
    expect(await valuesByName()).toEqual({
      owner: 'o'.repeat(256),
      priority: 0,
      published: false,
      tags: ['api', 'guide', 'internal'],
      stage: 'final',
    });
    expect((await patch({})).statusCode).toBe(204);
    expect(await storedValues()).toEqual(await valuesByName());
  });

  it('refuses a value of the wrong type, naming values.<name>.value, and changes nothing', async () => {
    const { patch, storedValues } = await spaceSetup();
    const initial = { owner: 'Docs', priority: 1, published: true, stage: 'draft', tags: ['api'] };
    expect((await patch(Object.fromEntries(Object.entries(initial).map(([name, value]) => [name, { value }])))).statusCode).toBe(204);
    const cases: Array<[string, unknown]> = [
      ['owner', 42],
      ['owner', true],
      ['owner', ['a']],
      ['owner', 'o'.repeat(257)],
      ['priority', '3'],
      ['priority', false],
      ['priority', [1]],
      ['published', 'yes'],
      ['published', 1],
      ['stage', 'archived'],
      ['stage', ['draft']],
      ['stage', 1],
      ['tags', 'api'],
      ['tags', ['api', 'unknown']],
      ['tags', true],
    ];
    for (const [name, value] of cases) {
      const response = await patch({ [name]: { value } });
      expectError(response, 400, new RegExp(`^values\\.${name}\\.value: `));
    }
    expect(await storedValues()).toEqual(initial);
  });

  it('refuses unknown field names and malformed bodies', async () => {
    const { url, admin, patch, storedValues } = await spaceSetup();
    const other = await setup();
    await other.createField({ name: 'elsewhere', type: 'text' });
    expectError(await patch({ missing: { value: 'x' } }), 400, /^values\.missing: /);
    // A field of another organization is unknown here.
    expectError(await patch({ elsewhere: { value: 'x' } }), 400, /^values\.elsewhere: /);
    expectError(await patch({ owner: 'bare value' }), 400, /^values\.owner: /);
    expectError(await patch({ owner: {} }), 400, /^values\.owner\.value: /);
    expectError(await patch({ owner: { value: 'x', extra: 1 } }), 400, /^values\.owner: unknown field "extra"/);
    expectError(await t.call('PATCH', url, { token: admin.token, body: {} }), 400, /^values: /);
    expectError(await t.call('PATCH', url, { token: admin.token, body: { values: [] } }), 400, /^values: /);
    expectError(await t.call('PATCH', url, { token: admin.token, body: { values: {}, owner: 'x' } }), 400, /unknown field "owner"/);
    expect(await storedValues()).toEqual({});
  });

  it('is all or nothing: one bad value leaves every value as it was', async () => {
    const { patch, storedValues, valuesByName } = await spaceSetup();
    expect((await patch({ owner: { value: 'Docs' }, priority: { value: 1 }, stage: { value: 'draft' } })).statusCode).toBe(204);
    const before = await storedValues();
    for (const values of [
      // Valid changes first, the bad one last.
      { owner: { value: 'Changed' }, published: { value: true }, stage: { value: null }, priority: { value: 'high' } },
      { owner: { value: 'Changed' }, tags: { value: ['api'] }, unknown: { value: 'x' } },
      { priority: { value: 2 }, owner: { value: null }, tags: { value: ['nope'] } },
      { stage: { value: 'final' }, owner: { value: 'o'.repeat(257) } },
    ]) {
      const response = await patch(values);
      expectError(response, 400, /^values\./);
    }
    expect(await storedValues()).toEqual(before);
    expect(await valuesByName()).toEqual({ owner: 'Docs', priority: 1, stage: 'draft' });
  });

  it('lets editors set values and every member read them; read and comment members may not set them', async () => {
    const { patch, get, valuesByName, storedValues, member } = await spaceSetup();
    const editor = await member('edit');
    const set = await patch({ owner: { value: 'Editors' }, tags: { value: ['guide'] } }, editor);
    expect(set.statusCode, set.body).toBe(204);
    expect(await storedValues()).toEqual({ owner: 'Editors', tags: ['guide'] });

    for (const role of ['read', 'comment'] as const) {
      const user = await member(role);
      expectError(await patch({ owner: { value: role } }, user), 403);
      expect(await valuesByName(user)).toEqual({ owner: 'Editors', tags: ['guide'] });
      const entries = await get(user);
      expect(entries.map((entry) => entry.customField.permissions)).toEqual([
        { view: true, edit: false },
        { view: true, edit: false },
      ]);
    }
    expect(await storedValues()).toEqual({ owner: 'Editors', tags: ['guide'] });
  });

  it('is a 404 for guests and strangers, and a 401 without a token', async () => {
    const { url, patch, member, storedValues } = await spaceSetup();
    expect((await patch({ owner: { value: 'Docs' } })).statusCode).toBe(204);
    const guest = await member(null);
    const stranger = await buildUser(t.database);
    for (const user of [guest, stranger]) {
      expectError(await t.call('GET', url, { token: user.token }), 404);
      expectError(await patch({ owner: { value: 'hidden' } }, user), 404);
    }
    expectError(await t.call('GET', url), 401);
    expectError(await t.call('PATCH', url, { body: { values: { owner: { value: 'anonymous' } } } }), 401);
    expectError(await t.call('GET', '/v1/spaces/spc_doesnotexist/custom-fields', { token: (await member('admin')).token }), 404);
    expect(await storedValues()).toEqual({ owner: 'Docs' });
  });

  it('refuses editors while the space is locked', async () => {
    const { space, admin, patch, valuesByName, storedValues, member } = await spaceSetup();
    const editor = await member('edit');
    expect((await patch({ owner: { value: 'Before lock' } }, editor)).statusCode).toBe(204);

    const lock = await t.call('PATCH', `/v1/spaces/${space.id}`, { token: admin.token, body: { editMode: 'locked' } });
    expect(lock.statusCode, lock.body).toBe(200);
    expect(lock.json()).toMatchObject({ editMode: 'locked' });

    expectError(await patch({ owner: { value: 'While locked' } }, editor), 403);
    expectError(await patch({ owner: { value: null } }, editor), 403);
    expect(await storedValues()).toEqual({ owner: 'Before lock' });
    // Reading is still allowed.
    expect(await valuesByName(editor)).toEqual({ owner: 'Before lock' });

    const unlock = await t.call('PATCH', `/v1/spaces/${space.id}`, { token: admin.token, body: { editMode: 'live' } });
    expect(unlock.statusCode, unlock.body).toBe(200);
    expect((await patch({ owner: { value: 'After lock' } }, editor)).statusCode).toBe(204);
    expect(await storedValues()).toEqual({ owner: 'After lock' });
  });
});
