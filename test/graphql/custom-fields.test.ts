import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { buildUser } from '../support/factories.ts';
import {
  CUSTOM_FIELD_FIELDS,
  type Connection,
  type GraphQLResult,
  connectionOf,
  expectData,
  expectGraphQLError,
  expectUnauthenticated,
  mutate,
  mutation,
  nodeIds,
} from '../support/graphql.ts';
import { followBackward, followForward } from '../support/listings.ts';
import { buildWorld } from '../support/world.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const CUSTOM_FIELD = `query($org: ID!, $name: String!) { customField(organizationId: $org, name: $name) { ${CUSTOM_FIELD_FIELDS} } }`;
const NODE = `query($id: ID!) { node(id: $id) { __typename id ... on CustomField { name type } } }`;
const FIELDS = `
  query($id: ID!, $first: Int, $after: String, $last: Int, $before: String) {
    organization(id: $id) { customFields(first: $first, after: $after, last: $last, before: $before) { ${connectionOf('id name')} } }
  }`;
const fieldRow = (organizationId: string, name: string) => t.database.db.customField.findUnique({ where: { organizationId_name: { organizationId, name } } });

describe('query customField', () => {
  it('has every field of the custom field, as REST answers it', async () => {
    const { organizationId, admin, customField } = await buildWorld(t);
    const created = await customField({
      name: 'stage',
      type: 'select',
      title: 'Stage',
      description: 'Where the document is',
      placeholder: 'Pick one',
      options: ['draft', 'final'],
    });
    const row = (await fieldRow(organizationId, 'stage'))!;
    const data = expectData(await t.graphql(admin.token, CUSTOM_FIELD, { org: organizationId, name: 'stage' }));
    expect(data.customField).toEqual({
      id: created.id,
      object: 'custom-field',
      name: 'stage',
      type: 'select',
      title: 'Stage',
      description: 'Where the document is',
      placeholder: 'Pick one',
      options: ['draft', 'final'],
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      urls: { location: `http://docs-gateway.test/v1/orgs/${organizationId}/custom-fields/stage` },
      permissions: { view: true, edit: true },
    });
    await customField({ name: 'team', type: 'text' });
    expect(expectData(await t.graphql(admin.token, CUSTOM_FIELD, { org: organizationId, name: 'team' })).customField).toMatchObject({
      title: null,
      description: null,
      placeholder: null,
      options: null,
    });
  });

  it('lets non-guest members read: permissions view but not edit; guests get a 403', async () => {
    const { organizationId, member, customField } = await buildWorld(t);
    await customField({ name: 'team', type: 'text' });
    const reader = await member('read');
    expect(expectData(await t.graphql(reader.token, CUSTOM_FIELD, { org: organizationId, name: 'team' })).customField.permissions).toEqual({
      view: true,
      edit: false,
    });
    const guest = await member(null);
    const result = await t.graphql(guest.token, CUSTOM_FIELD, { org: organizationId, name: 'team' });
    expectGraphQLError(result, 403, "You are not allowed to read this organization's custom fields");
    expect(result.data).toEqual({ customField: null });
  });

  it('is a 404 for strangers and for a name that does not exist', async () => {
    const { organizationId, admin, customField } = await buildWorld(t);
    await customField({ name: 'team', type: 'text' });
    const stranger = await buildUser(t.database, 'stranger');
    expectGraphQLError(
      await t.graphql(stranger.token, CUSTOM_FIELD, { org: organizationId, name: 'team' }),
      404,
      `Organization "${organizationId}" was not found`,
    );
    expectGraphQLError(await t.graphql(admin.token, CUSTOM_FIELD, { org: organizationId, name: 'missing' }), 404, 'Custom field "missing" was not found');
  });

  it('is a 401 without a token', async () => {
    const { organizationId, customField } = await buildWorld(t);
    await customField({ name: 'team', type: 'text' });
    await expectUnauthenticated(t, CUSTOM_FIELD, { org: organizationId, name: 'team' });
  });
});

describe('node(id:) of a custom field', () => {
  it('loads the custom field; nodes too', async () => {
    const { admin, customField } = await buildWorld(t);
    const created = await customField({ name: 'team', type: 'text' });
    expect(expectData(await t.graphql(admin.token, NODE, { id: created.id })).node).toEqual({
      __typename: 'CustomField',
      id: created.id,
      name: 'team',
      type: 'text',
    });
    const nodes = await t.graphql(admin.token, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: [created.id, 'cf_missing'] });
    expect(nodes.data.nodes).toEqual([{ id: created.id }, null]);
    expect(nodes.errors!.map((error) => error.extensions?.code)).toEqual([404]);
    expect(nodes.errors![0]!.message).toBe('Custom field "cf_missing" was not found');
  });

  it('is a 403 for guests', async () => {
    const { member, customField } = await buildWorld(t);
    const created = await customField({ name: 'team', type: 'text' });
    const guest = await member(null);
    expectGraphQLError(await t.graphql(guest.token, NODE, { id: created.id }), 403, "You are not allowed to read this organization's custom fields");
  });

  it('is a 404 naming the custom field, not its organization, for strangers', async () => {
    const { organizationId, customField } = await buildWorld(t);
    const created = await customField({ name: 'team', type: 'text' });
    const stranger = await buildUser(t.database, 'stranger');
    const result = await t.graphql(stranger.token, NODE, { id: created.id });
    const error = expectGraphQLError(result, 404);
    expect(result.data).toEqual({ node: null });
    // The answer must be the same as for an id that does not exist: it must not disclose the organization.
    expect(error.message).toBe(`Custom field "${created.id}" was not found`);
    expect(error.message).not.toContain(organizationId);
  });

  it('is a 401 without a token', async () => {
    const { customField } = await buildWorld(t);
    const created = await customField({ name: 'team', type: 'text' });
    await expectUnauthenticated(t, NODE, { id: created.id });
  });
});

describe('Organization.customFields', () => {
  const list = async (token: string, id: string, args: Record<string, unknown> = {}): Promise<Connection> =>
    expectData(await t.graphql(token, FIELDS, { id, ...args })).organization.customFields;

  it('lists custom fields by name, and pages with first/after and last/before', async () => {
    const { organizationId, admin, customField } = await buildWorld(t);
    const names = ['delta', 'alpha', 'echo', 'charlie', 'bravo'];
    for (const name of names) await customField({ name, type: 'text' });
    const sorted = [...names].sort();

    const all = await list(admin.token, organizationId);
    expect(all.edges.map((edge) => edge.node.name)).toEqual(sorted);
    expect(all.totalCount).toBe(5);

    const forward = await followForward((after) => list(admin.token, organizationId, { first: 2, after }));
    expect(forward.map((page) => page.edges.map((edge) => edge.node.name))).toEqual([sorted.slice(0, 2), sorted.slice(2, 4), sorted.slice(4)]);
    expect(forward.map((page) => page.totalCount)).toEqual([5, 5, 5]);
    expect(forward[0]!.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const backward = await followBackward((before) => list(admin.token, organizationId, { last: 2, before }));
    expect(backward.map((page) => page.edges.map((edge) => edge.node.name))).toEqual([sorted.slice(3), sorted.slice(1, 3), sorted.slice(0, 1)]);
    expect(backward.map((page) => page.pageInfo.hasPreviousPage)).toEqual([true, true, false]);
    expect(nodeIds(backward[2]!)[0]).toMatch(/^cf_/);
  });

  it('is a 403 for guests, a 404 for strangers, a 400 for bad paging, a 401 without a token', async () => {
    const { organizationId, admin, member, customField } = await buildWorld(t);
    await customField({ name: 'team', type: 'text' });
    const guest = await member(null);
    const forbidden = await t.graphql(guest.token, FIELDS, { id: organizationId });
    expectGraphQLError(forbidden, 403, "You are not allowed to list this organization's custom fields");
    expect(forbidden.errors![0]).toMatchObject({ path: ['organization', 'customFields'] });
    expect(forbidden.data).toEqual({ organization: null });
    const stranger = await buildUser(t.database, 'stranger');
    expectGraphQLError(await t.graphql(stranger.token, FIELDS, { id: organizationId }), 404);
    expectGraphQLError(await t.graphql(admin.token, FIELDS, { id: organizationId, first: -3 }), 400, /^first: /);
    await expectUnauthenticated(t, FIELDS, { id: organizationId });
  });
});

describe('mutation createCustomField', () => {
  const selection = `customField { ${CUSTOM_FIELD_FIELDS} }`;

  it('creates custom fields of each type', async () => {
    const { organizationId, admin } = await buildWorld(t);
    const select = expectData(
      await mutate(
        t,
        admin.token,
        'createCustomField',
        { organizationId, name: 'stage', type: 'select', title: 'Stage', options: ['draft', 'final'] },
        selection,
      ),
    ).createCustomField.customField;
    expect(select).toMatchObject({
      object: 'custom-field',
      name: 'stage',
      type: 'select',
      title: 'Stage',
      options: ['draft', 'final'],
      permissions: { edit: true },
    });
    expect(select.id).toMatch(/^cf_/);
    expect(await fieldRow(organizationId, 'stage')).toMatchObject({ id: select.id, type: 'select', title: 'Stage', options: ['draft', 'final'] });
    for (const type of ['text', 'number', 'boolean']) {
      const created = expectData(
        await mutate(t, admin.token, 'createCustomField', { organizationId, name: `f-${type}`, type }, 'customField { type options }'),
      );
      expect(created.createCustomField.customField).toEqual({ type, options: null });
    }
    expect(await t.database.db.customField.count({ where: { organizationId } })).toBe(4);
  });

  it('rejects invalid input with a 400 naming the field, and a taken name with a 409', async () => {
    const { organizationId, admin, customField } = await buildWorld(t);
    await customField({ name: 'taken', type: 'text' });
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ name: 'Bad Name', type: 'text' }, /^name: must contain only lowercase letters/],
      [{ name: 'x'.repeat(51), type: 'text' }, /^name: /],
      [{ name: 'kind', type: 'date' }, /at "input\.type"; Value "date" does not exist in "CustomFieldType" enum/],
      [{ name: 'kind', type: 'select' }, /^options: is required for a select field/],
      [{ name: 'kind', type: 'text', options: ['a'] }, /^options: only select and multi-select fields have options/],
      [{ name: 'kind', type: 'multi_select', options: ['a', 'a'] }, /^options: must not repeat a value/],
      [{ name: 'kind', type: 'select', options: [] }, /^options: /],
      [{ name: 'kind', type: 'text', title: 'x'.repeat(101) }, /^title: /],
    ];
    for (const [input, message] of cases) {
      const result = await mutate(t, admin.token, 'createCustomField', { organizationId, ...input }, 'customField { id }');
      expectGraphQLError(result, 400, message);
      expect(result.data ?? null).toBeNull();
    }
    expectGraphQLError(
      await mutate(t, admin.token, 'createCustomField', { organizationId, name: 'taken', type: 'number' }, 'customField { id }'),
      409,
      'name: a custom field named "taken" already exists',
    );
    expect(await t.database.db.customField.count({ where: { organizationId } })).toBe(1);
    expect((await fieldRow(organizationId, 'taken'))!.type).toBe('text');
  });

  it('is for admins: 403 for other members, 404 for strangers', async () => {
    const { organizationId, member } = await buildWorld(t);
    const creator = await member('create');
    expectGraphQLError(
      await mutate(t, creator.token, 'createCustomField', { organizationId, name: 'team', type: 'text' }, 'customField { id }'),
      403,
      'You are not allowed to create custom fields in this organization',
    );
    const guest = await member(null);
    expectGraphQLError(await mutate(t, guest.token, 'createCustomField', { organizationId, name: 'team', type: 'text' }, 'customField { id }'), 403);
    const stranger = await buildUser(t.database, 'stranger');
    expectGraphQLError(
      await mutate(t, stranger.token, 'createCustomField', { organizationId, name: 'team', type: 'text' }, 'customField { id }'),
      404,
      `Organization "${organizationId}" was not found`,
    );
    expect(await t.database.db.customField.count({ where: { organizationId } })).toBe(0);
  });

  it('is a 401 without a token', async () => {
    const { organizationId } = await buildWorld(t);
    await expectUnauthenticated(t, mutation('createCustomField', 'customField { id }'), { input: { organizationId, name: 'team', type: 'text' } });
    expect(await t.database.db.customField.count({ where: { organizationId } })).toBe(0);
  });
});

describe('mutation updateCustomField', () => {
  it('updates title, description, placeholder and options', async () => {
    const { organizationId, admin, customField } = await buildWorld(t);
    const created = await customField({ name: 'stage', type: 'select', options: ['draft'] });
    const updated = expectData(
      await mutate(
        t,
        admin.token,
        'updateCustomField',
        {
          organizationId,
          name: 'stage',
          title: 'Stage',
          description: 'Where it is',
          placeholder: 'Choose',
          options: ['draft', 'review', 'final'],
        },
        `customField { ${CUSTOM_FIELD_FIELDS} }`,
      ),
    ).updateCustomField.customField;
    expect(updated).toMatchObject({
      id: created.id,
      name: 'stage',
      type: 'select',
      title: 'Stage',
      description: 'Where it is',
      placeholder: 'Choose',
      options: ['draft', 'review', 'final'],
    });
    expect(await fieldRow(organizationId, 'stage')).toMatchObject({
      id: created.id,
      title: 'Stage',
      description: 'Where it is',
      placeholder: 'Choose',
      options: ['draft', 'review', 'final'],
    });
  });

  it('rejects invalid input with a 400 naming the field, and changes nothing', async () => {
    const { organizationId, admin, customField } = await buildWorld(t);
    await customField({ name: 'team', type: 'text', title: 'Team' });
    await customField({ name: 'stage', type: 'select', options: ['draft'] });
    const before = await t.database.db.customField.findMany({ where: { organizationId }, orderBy: { name: 'asc' } });
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ name: 'team', options: ['a'] }, /^options: only select and multi-select fields have options/],
      [{ name: 'stage', options: ['a', 'a'] }, /^options: must not repeat a value/],
      [{ name: 'team', title: 'x'.repeat(101) }, /^title: /],
      [{ name: 'team', description: 'x'.repeat(201) }, /^description: /],
    ];
    for (const [input, message] of cases) {
      expectGraphQLError(await mutate(t, admin.token, 'updateCustomField', { organizationId, ...input }, 'customField { id }'), 400, message);
    }
    expect(await t.database.db.customField.findMany({ where: { organizationId }, orderBy: { name: 'asc' } })).toEqual(before);
  });

  it('is for admins: 403 for other members, 404 for strangers and unknown names', async () => {
    const { organizationId, admin, member, customField } = await buildWorld(t);
    await customField({ name: 'team', type: 'text', title: 'Team' });
    const reader = await member('read');
    expectGraphQLError(
      await mutate(t, reader.token, 'updateCustomField', { organizationId, name: 'team', title: 'Changed' }, 'customField { id }'),
      403,
      'You are not allowed to update custom fields in this organization',
    );
    const stranger = await buildUser(t.database, 'stranger');
    expectGraphQLError(await mutate(t, stranger.token, 'updateCustomField', { organizationId, name: 'team', title: 'Changed' }, 'customField { id }'), 404);
    expectGraphQLError(
      await mutate(t, admin.token, 'updateCustomField', { organizationId, name: 'missing', title: 'Changed' }, 'customField { id }'),
      404,
      'Custom field "missing" was not found',
    );
    expect((await fieldRow(organizationId, 'team'))!.title).toBe('Team');
  });

  it('is a 401 without a token', async () => {
    const { organizationId, customField } = await buildWorld(t);
    await customField({ name: 'team', type: 'text', title: 'Team' });
    await expectUnauthenticated(t, mutation('updateCustomField', 'customField { id }'), { input: { organizationId, name: 'team', title: 'Changed' } });
    expect((await fieldRow(organizationId, 'team'))!.title).toBe('Team');
  });
});

describe('mutation deleteCustomField', () => {
  it('deletes the field and its values on every space', async () => {
    const { organizationId, admin, customField, space, rest } = await buildWorld(t);
    const field = await customField({ name: 'team', type: 'text' });
    await customField({ name: 'kept', type: 'text' });
    const target = await space();
    await rest('PATCH', `/v1/spaces/${target.id}/custom-fields`, admin.token, { values: { team: { value: 'Docs' }, kept: { value: 'Yes' } } }, 204);
    const data = expectData(await mutate(t, admin.token, 'deleteCustomField', { organizationId, name: 'team' }, 'deletedName'));
    expect(data.deleteCustomField).toEqual({ deletedName: 'team' });
    expect(await fieldRow(organizationId, 'team')).toBeNull();
    expect(await t.database.db.spaceCustomFieldValue.count({ where: { customFieldId: field.id } })).toBe(0);
    expect(await t.database.db.spaceCustomFieldValue.count({ where: { spaceId: target.id } })).toBe(1);
    const values = expectData(
      await t.graphql(admin.token, `query($id: ID!) { space(id: $id) { customFields { customField { name } value } } }`, { id: target.id }),
    );
    expect(values.space.customFields).toEqual([{ customField: { name: 'kept' }, value: 'Yes' }]);
    expectGraphQLError(await t.graphql(admin.token, NODE, { id: field.id }), 404);
  });

  it('is for admins: 403 for other members, 404 for strangers and unknown names', async () => {
    const { organizationId, admin, member, customField } = await buildWorld(t);
    await customField({ name: 'team', type: 'text' });
    const editor = await member('edit');
    expectGraphQLError(
      await mutate(t, editor.token, 'deleteCustomField', { organizationId, name: 'team' }, 'deletedName'),
      403,
      'You are not allowed to delete custom fields in this organization',
    );
    const stranger = await buildUser(t.database, 'stranger');
    expectGraphQLError(await mutate(t, stranger.token, 'deleteCustomField', { organizationId, name: 'team' }, 'deletedName'), 404);
    expectGraphQLError(
      await mutate(t, admin.token, 'deleteCustomField', { organizationId, name: 'missing' }, 'deletedName'),
      404,
      'Custom field "missing" was not found',
    );
    expect(await fieldRow(organizationId, 'team')).not.toBeNull();
  });

  it('is a 401 without a token', async () => {
    const { organizationId, customField } = await buildWorld(t);
    await customField({ name: 'team', type: 'text' });
    await expectUnauthenticated(t, mutation('deleteCustomField', 'deletedName'), { input: { organizationId, name: 'team' } });
    expect(await fieldRow(organizationId, 'team')).not.toBeNull();
  });
});

describe('GraphQL request errors of custom field operations', () => {
  it('are 400s naming the missing or unknown field (name and type are immutable)', async () => {
    const { organizationId, admin, customField } = await buildWorld(t);
    await customField({ name: 'team', type: 'text' });
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      [mutation('createCustomField', 'customField { id }'), { input: { organizationId, type: 'text' } }, /name/],
      [mutation('updateCustomField', 'customField { id }'), { input: { organizationId, name: 'team', type: 'number' } }, /type/],
      [mutation('deleteCustomField', 'deletedName'), { input: { organizationId } }, /name/],
      [`query($o: ID!) { customField(organizationId: $o) { id } }`, { o: organizationId }, /name/],
    ];
    const answers: GraphQLResult[] = [];
    for (const [query, variables] of cases) answers.push(await t.graphql(admin.token, query, variables));
    expect(answers.map((answer) => answer.errors?.map((error) => error.extensions?.code))).toEqual(cases.map(() => [400]));
    cases.forEach(([query, , message], index) => expect(answers[index]!.errors![0]!.message, query).toMatch(message));
    expect((await fieldRow(organizationId, 'team'))!.type).toBe('text');
  });
});
