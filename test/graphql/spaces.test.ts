import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { DAY } from '../support/clock.ts';
import { buildUser } from '../support/factories.ts';
import {
  type Connection,
  type GraphQLResult,
  SPACE_FIELDS,
  connectionOf,
  expectData,
  expectGraphQLError,
  expectUnauthenticated,
  mutate,
  mutation,
  nodeIds,
} from '../support/graphql.ts';
import { followBackward, followForward } from '../support/listings.ts';
import { spaceRow } from '../support/rows.ts';
import { buildWorld, otherOrganizationOf } from '../support/world.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const SPACE = `query($id: ID!, $shareKey: String) { space(id: $id, shareKey: $shareKey) { ${SPACE_FIELDS} } }`;
const ORGANIZATION_SPACES = `
  query($id: ID!, $first: Int, $after: String, $last: Int, $before: String) {
    organization(id: $id) { spaces(first: $first, after: $after, last: $last, before: $before) { ${connectionOf('id title deletedAt')} } }
  }`;
const CUSTOM_FIELDS = 'customFields { value customField { id name type } }';

/** A world with the custom fields of every type. */
async function withFields() {
  const world = await buildWorld(t);
  await world.customField({ name: 'team', type: 'text' });
  await world.customField({ name: 'priority', type: 'number' });
  await world.customField({ name: 'public', type: 'boolean' });
  await world.customField({ name: 'stage', type: 'select', options: ['draft', 'final'] });
  await world.customField({ name: 'tags', type: 'multi-select', options: ['api', 'guide', 'faq'] });
  return world;
}

const valuesOf = async (spaceId: string) =>
  Object.fromEntries(
    (await t.database.db.spaceCustomFieldValue.findMany({ where: { spaceId }, include: { customField: true } })).map((entry) => [
      entry.customField.name,
      entry.value,
    ]),
  );

describe('query space', () => {
  it('has every field of the space, as REST answers it, with relations as objects', async () => {
    const { organizationId, admin, collection, space } = await buildWorld(t);
    const parent = await collection({ title: 'Parent' });
    const created = await space({ title: 'Handbook', emoji: '📘', parent: parent.id, language: 'fr' });
    const row = (await spaceRow(t, created.id))!;
    const data = expectData(await t.graphql(admin.token, SPACE, { id: created.id }));
    expect(data.space).toEqual({
      id: created.id,
      object: 'space',
      title: 'Handbook',
      emoji: '📘',
      visibility: 'private',
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      deletedAt: null,
      editMode: 'live',
      mergeRules: { type: 'inherit' },
      urls: {
        location: `http://docs-gateway.test/v1/spaces/${created.id}`,
        app: `http://app.docs-gateway.test/s/${created.id}`,
        published: null,
        public: null,
        icon: null,
      },
      organization: { id: organizationId },
      parent: { id: parent.id },
      language: 'fr',
      revision: row.revisionId,
      defaultLevel: null,
      comments: 0,
      changeRequests: 0,
      changeRequestsOpen: 0,
      changeRequestsDraft: 0,
      permissions: {
        view: true,
        access: true,
        admin: true,
        viewInviteLinks: true,
        edit: true,
        triggerGitSync: true,
        comment: true,
        merge: true,
        review: true,
        installIntegration: true,
      },
    });
    // A share key never changes what the viewer sees.
    expect(expectData(await t.graphql(admin.token, SPACE, { id: created.id, shareKey: 'any-share-key' })).space).toEqual(data.space);
  });

  it("answers the viewer's permissions: a reader views, an editor of a locked space cannot edit", async () => {
    const { admin, member, space, rest } = await buildWorld(t);
    const target = await space();
    const query = `query($id: ID!) { space(id: $id) { permissions { view admin edit comment triggerGitSync } } }`;
    const reader = await member('read');
    expect(expectData(await t.graphql(reader.token, query, { id: target.id })).space.permissions).toEqual({
      view: true,
      admin: false,
      edit: false,
      comment: false,
      triggerGitSync: false,
    });
    const editor = await member('edit');
    await rest('PATCH', `/v1/spaces/${target.id}`, admin.token, { editMode: 'locked' });
    expect(expectData(await t.graphql(editor.token, query, { id: target.id })).space.permissions).toEqual({
      view: true,
      admin: false,
      edit: false,
      comment: true,
      triggerGitSync: true,
    });
  });

  it('loads as a node, deleted ones too; is a 404 for strangers, guests and unknown ids', async () => {
    const { admin, member, space, rest } = await buildWorld(t);
    const target = await space({ title: 'Node' });
    const deleted = await space({ title: 'Deleted' });
    await rest('DELETE', `/v1/spaces/${deleted.id}`, admin.token, undefined, 205);
    const node = `query($id: ID!) { node(id: $id) { __typename id ... on Space { title deletedAt } } }`;
    expect(expectData(await t.graphql(admin.token, node, { id: target.id })).node).toEqual({
      __typename: 'Space',
      id: target.id,
      title: 'Node',
      deletedAt: null,
    });
    const deletedNode = expectData(await t.graphql(admin.token, node, { id: deleted.id })).node;
    expect(deletedNode.deletedAt).toBe((await spaceRow(t, deleted.id))!.deletedAt!.toISOString());
    for (const user of [await buildUser(t.database, 'stranger'), await member(null)]) {
      for (const query of [SPACE, node]) {
        const result = await t.graphql(user.token, query, { id: target.id });
        expectGraphQLError(result, 404, `Space "${target.id}" was not found`);
      }
    }
    expectGraphQLError(await t.graphql(admin.token, SPACE, { id: 'spc_missing' }), 404, 'Space "spc_missing" was not found');
    const nodes = await t.graphql(admin.token, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: [target.id, 'spc_missing', deleted.id] });
    expect(nodes.data.nodes).toEqual([{ id: target.id }, null, { id: deleted.id }]);
    expect(nodes.errors!.map((error) => error.extensions?.code)).toEqual([404]);
  });

  it('is a 400 naming shareKey for an empty share key', async () => {
    const { admin, space } = await buildWorld(t);
    const target = await space();
    const result = await t.graphql(admin.token, SPACE, { id: target.id, shareKey: '' });
    expectGraphQLError(result, 400, /^shareKey: /);
    expect(result.data).toEqual({ space: null });
  });

  it('is a 401 without a token', async () => {
    const { space } = await buildWorld(t);
    const target = await space();
    await expectUnauthenticated(t, SPACE, { id: target.id });
  });
});

describe('Organization.spaces', () => {
  const list = async (token: string, id: string, args: Record<string, unknown> = {}): Promise<Connection> =>
    expectData(await t.graphql(token, ORGANIZATION_SPACES, { id, ...args })).organization.spaces;

  it('lists every space not deleted, oldest first, and pages with first/after and last/before', async () => {
    const { organizationId, admin, collection, space, rest } = await buildWorld(t);
    const parent = await collection();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await space({ title: `S${i}`, ...(i % 2 ? { parent: parent.id } : {}) })).id);
    for (const [index, id] of ids.entries()) {
      await t.database.db.space.update({ where: { id }, data: { createdAt: new Date(Date.UTC(2024, 0, 1 + index)) } });
    }
    const deleted = await space({ title: 'Deleted' });
    await rest('DELETE', `/v1/spaces/${deleted.id}`, admin.token, undefined, 205);

    const all = await list(admin.token, organizationId);
    expect(nodeIds(all)).toEqual(ids);
    expect(all.totalCount).toBe(5);

    const forward = await followForward((after) => list(admin.token, organizationId, { first: 2, after }));
    expect(forward.map(nodeIds)).toEqual([ids.slice(0, 2), ids.slice(2, 4), ids.slice(4)]);
    expect(forward.map((page) => page.pageInfo.hasNextPage)).toEqual([true, true, false]);
    expect(forward.map((page) => page.pageInfo.hasPreviousPage)).toEqual([false, true, true]);
    expect(forward.map((page) => page.totalCount)).toEqual([5, 5, 5]);
    for (const page of forward) {
      expect(page.pageInfo.startCursor).toBe(page.edges[0]!.cursor);
      expect(page.pageInfo.endCursor).toBe(page.edges.at(-1)!.cursor);
    }

    const backward = await followBackward((before) => list(admin.token, organizationId, { last: 2, before }));
    expect(backward.map(nodeIds)).toEqual([ids.slice(3), ids.slice(1, 3), ids.slice(0, 1)]);
    expect(backward.map((page) => page.pageInfo.hasPreviousPage)).toEqual([true, true, false]);
    expect(backward.map((page) => page.pageInfo.hasNextPage)).toEqual([false, true, true]);
  });

  it('shows a guest what its grants reach, as REST does; a 404 for strangers, a 400 for bad paging, a 401 without a token', async () => {
    const { organizationId, admin, member, space, collection, rest } = await buildWorld(t);
    const granted = await space({ title: 'Granted' });
    const parent = await collection({ title: 'Granted collection' });
    const below = await space({ title: 'Below', parent: parent.id });
    const hidden = await space({ title: 'Hidden' });
    const guest = await member(null);
    const listed = async () => expectData(await t.graphql(guest.token, ORGANIZATION_SPACES, { id: organizationId })).organization.spaces;
    expect((await listed()).totalCount).toBe(0);
    await rest('POST', `/v1/spaces/${granted.id}/permissions`, admin.token, { role: 'read', users: [guest.id] }, 204);
    await rest('POST', `/v1/collections/${parent.id}/permissions`, admin.token, { role: 'edit', users: [guest.id] }, 204);
    // The same spaces as REST lists, in the same order, with the same levels.
    const overRest = await rest('GET', `/v1/orgs/${organizationId}/spaces`, guest.token);
    const overGraphql = await listed();
    expect(nodeIds(overGraphql)).toEqual(overRest.items.map((item: { id: string }) => item.id));
    expect(nodeIds(overGraphql).sort()).toEqual([granted.id, below.id].sort());
    expect(overGraphql.totalCount).toBe(overRest.count);
    for (const [id, edit] of [
      [granted.id, false],
      [below.id, true],
    ] as const) {
      const one = expectData(await t.graphql(guest.token, 'query($id: ID!) { space(id: $id) { id permissions { view edit admin } } }', { id }));
      expect(one.space.permissions).toEqual(pick((await rest('GET', `/v1/spaces/${id}`, guest.token)).permissions, ['view', 'edit', 'admin']));
      expect(one.space.permissions).toMatchObject({ view: true, edit, admin: false });
    }
    expectGraphQLError(await t.graphql(guest.token, 'query($id: ID!) { space(id: $id) { id } }', { id: hidden.id }), 404);
    const stranger = await buildUser(t.database, 'stranger');
    expectGraphQLError(await t.graphql(stranger.token, ORGANIZATION_SPACES, { id: organizationId }), 404, `Organization "${organizationId}" was not found`);
    expectGraphQLError(await t.graphql(admin.token, ORGANIZATION_SPACES, { id: organizationId, first: 1001 }), 400, /^first: must be at most 1000/);
    await expectUnauthenticated(t, ORGANIZATION_SPACES, { id: organizationId });
  });
});

describe('grant mutations', () => {
  it('give a team one space and a guest one collection, as REST does, and take them away', async () => {
    const { organizationId, admin, member, space, collection, rest } = await buildWorld(t);
    const docs = await space({ title: 'Docs' });
    const parent = await collection({ title: 'Parent' });
    const below = await space({ title: 'Below', parent: parent.id });
    const reader = await member('read');
    const guest = await member(null);
    const team = await rest('PUT', `/v1/orgs/${organizationId}/teams`, admin.token, { title: 'Writers', members: [reader.id] }, 201);
    const edit = async (user: { token: string }, id: string) =>
      expectData(await t.graphql(user.token, 'query($id: ID!) { space(id: $id) { permissions { edit } } }', { id })).space.permissions.edit;

    const invited = expectData(await mutate(t, admin.token, 'inviteToSpace', { spaceId: docs.id, role: 'edit', teams: [team.id] }, 'space { id }'));
    expect(invited.inviteToSpace.space.id).toBe(docs.id);
    expect(await edit(reader, docs.id)).toBe(true);
    const teams = await rest('GET', `/v1/spaces/${docs.id}/permissions/teams`, admin.token);
    expect(teams.items.map((item: { permission: string; team: { id: string } }) => [item.permission, item.team.id])).toEqual([['edit', team.id]]);

    expectData(await mutate(t, admin.token, 'setCollectionUserPermission', { collectionId: parent.id, userId: guest.id, role: 'edit' }, 'collection { id }'));
    expect(await edit(guest, below.id)).toBe(true);
    // The guest is no admin of the collection: it gives no role there.
    expectGraphQLError(
      await mutate(t, guest.token, 'inviteToCollection', { collectionId: parent.id, role: 'read', users: [reader.id] }, 'collection { id }'),
      403,
    );
    expectGraphQLError(
      await mutate(t, admin.token, 'inviteToSpace', { spaceId: docs.id, role: 'read' }, 'space { id }'),
      400,
      'users: is required unless teams are named',
    );

    expectData(await mutate(t, admin.token, 'setSpaceTeamPermission', { spaceId: docs.id, teamId: team.id, role: null }, 'space { id }'));
    expect(await edit(reader, docs.id)).toBe(false);
    expectData(await mutate(t, admin.token, 'setCollectionUserPermission', { collectionId: parent.id, userId: guest.id, role: null }, 'collection { id }'));
    expectGraphQLError(await t.graphql(guest.token, 'query($id: ID!) { space(id: $id) { id } }', { id: below.id }), 404);
    expect(await t.database.db.contentGrant.count({ where: { organizationId } })).toBe(0);
  });
});

const pick = (object: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.map((key) => [key, object[key]]));

describe('Space.organization, parent and customFields', () => {
  it('resolve the organization, the parent collection and the custom field values by field name', async () => {
    const { organizationId, admin, collection, space, rest } = await withFields();
    const parent = await collection({ title: 'Parent' });
    const target = await space({ parent: parent.id });
    const top = await space();
    await rest(
      'PATCH',
      `/v1/spaces/${target.id}/custom-fields`,
      admin.token,
      {
        values: { team: { value: 'Docs' }, tags: { value: ['api', 'faq'] }, priority: { value: 2 } },
      },
      204,
    );
    const query = `query($id: ID!) { space(id: $id) { organization { id title } parent { id title } ${CUSTOM_FIELDS} } }`;
    const data = expectData(await t.graphql(admin.token, query, { id: target.id })).space;
    expect(data.organization.id).toBe(organizationId);
    expect(data.parent).toEqual({ id: parent.id, title: 'Parent' });
    expect(data.customFields.map((entry: { customField: { name: string }; value: unknown }) => [entry.customField.name, entry.value])).toEqual([
      ['priority', 2],
      ['tags', ['api', 'faq']],
      ['team', 'Docs'],
    ]);
    expect(data.customFields[0].customField.id).toMatch(/^cf_/);
    const rest2 = (await t.call('GET', `/v1/spaces/${target.id}/custom-fields`, { token: admin.token })).json();
    expect(JSON.stringify(rest2)).toContain('Docs');
    const topData = expectData(await t.graphql(admin.token, query, { id: top.id })).space;
    expect(topData.parent).toBeNull();
    expect(topData.customFields).toEqual([]);
  });
});

describe('mutation createSpace', () => {
  const selection = `space { ${SPACE_FIELDS} }`;

  it('creates a space at the end of the top level or of a collection', async () => {
    const { organizationId, admin, collection, space } = await buildWorld(t);
    const existing = await space();
    const created = expectData(
      await mutate(t, admin.token, 'createSpace', { organizationId, title: 'Handbook', emoji: '📘', language: 'de', editMode: 'locked' }, selection),
    ).createSpace.space;
    expect(created).toMatchObject({
      object: 'space',
      title: 'Handbook',
      emoji: '📘',
      language: 'de',
      editMode: 'locked',
      organization: { id: organizationId },
      parent: null,
      deletedAt: null,
      permissions: { admin: true, edit: false },
    });
    const row = await spaceRow(t, created.id);
    expect(row).toMatchObject({ title: 'Handbook', emoji: '📘', language: 'de', editMode: 'locked', organizationId, parentId: null, deletedAt: null });
    expect(row!.position > (await spaceRow(t, existing.id))!.position).toBe(true);

    const parent = await collection();
    const inside = expectData(await mutate(t, admin.token, 'createSpace', { organizationId, parent: parent.id }, selection)).createSpace.space;
    expect(inside).toMatchObject({ title: 'Untitled', emoji: '', parent: { id: parent.id }, editMode: 'live', language: null });
    expect(await spaceRow(t, inside.id)).toMatchObject({ parentId: parent.id, title: 'Untitled' });
  });

  it('rejects invalid input with a 400 naming the field, and creates nothing', async () => {
    const { organizationId, admin } = await buildWorld(t);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ title: 'x'.repeat(51) }, /^title: /],
      [{ title: '' }, /^title: Too small: expected string to have >=1 characters/],
      [{ title: '  ' }, /^title: must not be blank/],
      [{ emoji: 'not an emoji' }, /^emoji: must be an emoji/],
      [{ editMode: 'frozen' }, /at "input\.editMode"; Value "frozen" does not exist in "SpaceEditMode" enum/],
      [{ language: 'klingon' }, /at "input\.language"; Value "klingon" does not exist in "Language" enum/],
      [{ parent: 'col_missing' }, /^parent: collection "col_missing" does not exist/],
    ];
    for (const [input, message] of cases) {
      const result = await mutate(t, admin.token, 'createSpace', { organizationId, ...input }, 'space { id }');
      expectGraphQLError(result, 400, message);
      // A value outside an enum fails before execution: no data at all (the spec's request error).
      expect(result.data ?? null).toBeNull();
    }
    expect(await t.database.db.space.count({ where: { organizationId } })).toBe(0);
  });

  it('needs create where the space goes: 403 otherwise, 404 for strangers', async () => {
    const { organizationId, member } = await buildWorld(t);
    const editor = await member('edit');
    expectGraphQLError(
      await mutate(t, editor.token, 'createSpace', { organizationId }, 'space { id }'),
      403,
      'You are not allowed to create content in this organization',
    );
    const creator = await member('create');
    expectData(await mutate(t, creator.token, 'createSpace', { organizationId }, 'space { id }'));
    const stranger = await buildUser(t.database, 'stranger');
    expectGraphQLError(
      await mutate(t, stranger.token, 'createSpace', { organizationId }, 'space { id }'),
      404,
      `Organization "${organizationId}" was not found`,
    );
    expect(await t.database.db.space.count({ where: { organizationId } })).toBe(1);
  });

  it('is a 401 without a token', async () => {
    const { organizationId } = await buildWorld(t);
    await expectUnauthenticated(t, mutation('createSpace', 'space { id }'), { input: { organizationId, title: 'Anonymous' } });
    expect(await t.database.db.space.count({ where: { organizationId } })).toBe(0);
  });
});

describe('mutation updateSpace', () => {
  it('updates the space; an icon replaces the emoji, null removes it, null default level inherits', async () => {
    const { admin, space } = await buildWorld(t);
    const target = await space({ title: 'Before', emoji: '📘' });
    const mergeRules = { type: 'rules', rules: [{ rule: 'require_all_reviews_approved' }] };
    const updated = expectData(
      await mutate(
        t,
        admin.token,
        'updateSpace',
        { spaceId: target.id, title: 'After', editMode: 'locked', defaultLevel: 'comment', language: 'ja', mergeRules },
        `space { ${SPACE_FIELDS} }`,
      ),
    ).updateSpace.space;
    expect(updated).toMatchObject({ id: target.id, title: 'After', emoji: '📘', editMode: 'locked', defaultLevel: 'comment', language: 'ja', mergeRules });
    expect(await spaceRow(t, target.id)).toMatchObject({ title: 'After', editMode: 'locked', defaultLevel: 'comment', language: 'ja', mergeRules });

    const icon = 'https://example.test/icon.png';
    const withIcon = expectData(await mutate(t, admin.token, 'updateSpace', { spaceId: target.id, icon }, 'space { emoji urls { icon } }'));
    expect(withIcon.updateSpace.space).toEqual({ emoji: '', urls: { icon } });
    expect(await spaceRow(t, target.id)).toMatchObject({ emoji: '', icon });

    const cleared = expectData(
      await mutate(t, admin.token, 'updateSpace', { spaceId: target.id, icon: null, defaultLevel: null }, 'space { emoji defaultLevel title urls { icon } }'),
    );
    expect(cleared.updateSpace.space).toEqual({ emoji: '', defaultLevel: null, title: 'After', urls: { icon: null } });
    expect(await spaceRow(t, target.id)).toMatchObject({ icon: null, defaultLevel: null, title: 'After' });
  });

  it('rejects invalid input with a 400 naming the field, and changes nothing', async () => {
    const { admin, space } = await buildWorld(t);
    const target = await space({ title: 'Same' });
    const before = await spaceRow(t, target.id);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ title: 'x'.repeat(51) }, /^title: /],
      [{ title: '' }, /^title: Too small: expected string to have >=1 characters/],
      [{ title: '\n' }, /^title: must not be blank/],
      [{ emoji: 'abc' }, /^emoji: /],
      [{ emoji: '📘', icon: 'https://example.test/i.png' }, /^icon: set either emoji or icon, not both/],
      [{ icon: 'not a url' }, /^icon: must be an absolute URL/],
      [{ editMode: 'frozen' }, /at "input\.editMode"; Value "frozen" does not exist in "SpaceEditMode" enum/],
      [{ language: 'xx' }, /at "input\.language"; Value "xx" does not exist in "Language" enum/],
      [{ mergeRules: { type: 'sometimes' } }, /^mergeRules/],
    ];
    for (const [input, message] of cases) {
      expectGraphQLError(await mutate(t, admin.token, 'updateSpace', { spaceId: target.id, ...input }, 'space { id }'), 400, message);
    }
    expect(await spaceRow(t, target.id)).toEqual(before);
  });

  it('needs admin on the space: 403 otherwise, 404 for strangers, 409 once deleted', async () => {
    const { admin, member, space, rest } = await buildWorld(t);
    const target = await space({ title: 'Same' });
    const creator = await member('create');
    expectGraphQLError(
      await mutate(t, creator.token, 'updateSpace', { spaceId: target.id, title: 'Changed' }, 'space { id }'),
      403,
      'You are not allowed to update this space',
    );
    const stranger = await buildUser(t.database, 'stranger');
    expectGraphQLError(
      await mutate(t, stranger.token, 'updateSpace', { spaceId: target.id, title: 'Changed' }, 'space { id }'),
      404,
      `Space "${target.id}" was not found`,
    );
    await rest('DELETE', `/v1/spaces/${target.id}`, admin.token, undefined, 205);
    expectGraphQLError(
      await mutate(t, admin.token, 'updateSpace', { spaceId: target.id, title: 'Changed' }, 'space { id }'),
      409,
      /is deleted: restore it first/,
    );
    expect((await spaceRow(t, target.id))!.title).toBe('Same');
  });

  it('is a 401 without a token', async () => {
    const { space } = await buildWorld(t);
    const target = await space({ title: 'Same' });
    await expectUnauthenticated(t, mutation('updateSpace', 'space { id }'), { input: { spaceId: target.id, title: 'Changed' } });
    expect((await spaceRow(t, target.id))!.title).toBe('Same');
  });
});

describe('mutation deleteSpace', () => {
  it('deletes the space: it answers deletedAt and leaves the listings', async () => {
    const { organizationId, admin, space } = await buildWorld(t);
    const target = await space();
    const kept = await space();
    const data = expectData(await mutate(t, admin.token, 'deleteSpace', { spaceId: target.id }, 'space { id deletedAt }'));
    const row = await spaceRow(t, target.id);
    expect(row!.deletedAt).not.toBeNull();
    expect(data.deleteSpace.space).toEqual({ id: target.id, deletedAt: row!.deletedAt!.toISOString() });
    const listing = expectData(await t.graphql(admin.token, ORGANIZATION_SPACES, { id: organizationId })).organization.spaces;
    expect(nodeIds(listing)).toEqual([kept.id]);
    expect(listing.totalCount).toBe(1);
  });

  it('needs admin on the space: 403 otherwise, 404 for strangers', async () => {
    const { member, space } = await buildWorld(t);
    const target = await space();
    const creator = await member('create');
    expectGraphQLError(await mutate(t, creator.token, 'deleteSpace', { spaceId: target.id }, 'space { id }'), 403, 'You are not allowed to delete this space');
    const stranger = await buildUser(t.database, 'stranger');
    expectGraphQLError(await mutate(t, stranger.token, 'deleteSpace', { spaceId: target.id }, 'space { id }'), 404, `Space "${target.id}" was not found`);
    expect((await spaceRow(t, target.id))!.deletedAt).toBeNull();
  });

  it('is a 401 without a token', async () => {
    const { space } = await buildWorld(t);
    const target = await space();
    await expectUnauthenticated(t, mutation('deleteSpace', 'space { id }'), { input: { spaceId: target.id } });
    expect((await spaceRow(t, target.id))!.deletedAt).toBeNull();
  });
});

describe('mutation restoreSpace', () => {
  it('restores a space deleted less than 7 days ago, at the end of its parent', async () => {
    const { organizationId, admin, space, rest } = await buildWorld(t);
    const target = await space();
    const other = await space();
    await rest('DELETE', `/v1/spaces/${target.id}`, admin.token, undefined, 205);
    const data = expectData(await mutate(t, admin.token, 'restoreSpace', { spaceId: target.id }, `space { ${SPACE_FIELDS} }`));
    expect(data.restoreSpace.space).toMatchObject({ id: target.id, deletedAt: null });
    const row = await spaceRow(t, target.id);
    expect(row!.deletedAt).toBeNull();
    expect(row!.position > (await spaceRow(t, other.id))!.position).toBe(true);
    expect(nodeIds(expectData(await t.graphql(admin.token, ORGANIZATION_SPACES, { id: organizationId })).organization.spaces).sort()).toEqual(
      [target.id, other.id].sort(),
    );
  });

  it('is a 409 for a space that is not deleted or was deleted more than 7 days ago', async () => {
    const { admin, space, rest } = await buildWorld(t);
    const live = await space();
    expectGraphQLError(await mutate(t, admin.token, 'restoreSpace', { spaceId: live.id }, 'space { id }'), 409, `space "${live.id}" is not deleted`);
    const old = await space();
    await rest('DELETE', `/v1/spaces/${old.id}`, admin.token, undefined, 205);
    t.clock.advance(8 * DAY);
    expectGraphQLError(await mutate(t, admin.token, 'restoreSpace', { spaceId: old.id }, 'space { id }'), 409, /more than 7 days ago/);
    expect((await spaceRow(t, old.id))!.deletedAt).not.toBeNull();
  });

  it('needs admin on the space: 403 otherwise, 404 for strangers', async () => {
    const { admin, member, space, rest } = await buildWorld(t);
    const target = await space();
    await rest('DELETE', `/v1/spaces/${target.id}`, admin.token, undefined, 205);
    const creator = await member('create');
    expectGraphQLError(
      await mutate(t, creator.token, 'restoreSpace', { spaceId: target.id }, 'space { id }'),
      403,
      'You are not allowed to restore this space',
    );
    const stranger = await buildUser(t.database, 'stranger');
    expectGraphQLError(await mutate(t, stranger.token, 'restoreSpace', { spaceId: target.id }, 'space { id }'), 404);
    expect((await spaceRow(t, target.id))!.deletedAt).not.toBeNull();
  });

  it('is a 401 without a token', async () => {
    const { admin, space, rest } = await buildWorld(t);
    const target = await space();
    await rest('DELETE', `/v1/spaces/${target.id}`, admin.token, undefined, 205);
    await expectUnauthenticated(t, mutation('restoreSpace', 'space { id }'), { input: { spaceId: target.id } });
    expect((await spaceRow(t, target.id))!.deletedAt).not.toBeNull();
  });
});

describe('mutation duplicateSpace', () => {
  it('copies the space right after it, with its settings and custom field values', async () => {
    const { organizationId, admin, collection, space, rest } = await withFields();
    const parent = await collection();
    const original = await space({ title: 'Original', emoji: '📗', parent: parent.id, language: 'es' });
    const next = await space({ title: 'Next', parent: parent.id });
    await rest('PATCH', `/v1/spaces/${original.id}`, admin.token, { defaultLevel: 'edit' });
    await rest('PATCH', `/v1/spaces/${original.id}/custom-fields`, admin.token, { values: { team: { value: 'Docs' }, stage: { value: 'final' } } }, 204);

    const copy = expectData(await mutate(t, admin.token, 'duplicateSpace', { spaceId: original.id }, `space { ${SPACE_FIELDS} ${CUSTOM_FIELDS} }`))
      .duplicateSpace.space;
    expect(copy.id).not.toBe(original.id);
    expect(copy).toMatchObject({
      title: 'Copy of Original',
      emoji: '📗',
      language: 'es',
      defaultLevel: 'edit',
      parent: { id: parent.id },
      organization: { id: organizationId },
      deletedAt: null,
    });
    expect(copy.customFields.map((entry: { customField: { name: string }; value: unknown }) => [entry.customField.name, entry.value])).toEqual([
      ['stage', 'final'],
      ['team', 'Docs'],
    ]);
    const row = await spaceRow(t, copy.id);
    expect(row).toMatchObject({ title: 'Copy of Original', parentId: parent.id, organizationId, emoji: '📗', defaultLevel: 'edit' });
    expect(await valuesOf(copy.id)).toEqual({ team: 'Docs', stage: 'final' });
    const [originalRow, nextRow] = [await spaceRow(t, original.id), await spaceRow(t, next.id)];
    expect(originalRow!.position < row!.position && row!.position < nextRow!.position).toBe(true);
  });

  it('needs create where the space is: 403 otherwise, 404 for strangers, 409 once deleted', async () => {
    const { organizationId, admin, member, space, rest } = await buildWorld(t);
    const target = await space();
    const reader = await member('read');
    expectGraphQLError(
      await mutate(t, reader.token, 'duplicateSpace', { spaceId: target.id }, 'space { id }'),
      403,
      'You are not allowed to create content where this space is',
    );
    const stranger = await buildUser(t.database, 'stranger');
    expectGraphQLError(await mutate(t, stranger.token, 'duplicateSpace', { spaceId: target.id }, 'space { id }'), 404);
    await rest('DELETE', `/v1/spaces/${target.id}`, admin.token, undefined, 205);
    expectGraphQLError(await mutate(t, admin.token, 'duplicateSpace', { spaceId: target.id }, 'space { id }'), 409, /is deleted/);
    expect(await t.database.db.space.count({ where: { organizationId } })).toBe(1);
  });

  it('is a 401 without a token', async () => {
    const { organizationId, space } = await buildWorld(t);
    const target = await space();
    await expectUnauthenticated(t, mutation('duplicateSpace', 'space { id }'), { input: { spaceId: target.id } });
    expect(await t.database.db.space.count({ where: { organizationId } })).toBe(1);
  });
});

describe('mutation moveSpace', () => {
  it('moves a space into a collection, among its siblings, and back to the top level', async () => {
    const { admin, collection, space } = await buildWorld(t);
    const target = await collection();
    const first = await space({ parent: target.id });
    const second = await space({ parent: target.id });
    const moving = await space();
    const moved = expectData(
      await mutate(
        t,
        admin.token,
        'moveSpace',
        { spaceId: moving.id, parent: target.id, position: { after: { type: 'space', space: first.id } } },
        `space { ${SPACE_FIELDS} }`,
      ),
    ).moveSpace.space;
    expect(moved).toMatchObject({ id: moving.id, parent: { id: target.id } });
    expect((await spaceRow(t, moving.id))!.parentId).toBe(target.id);
    const order = expectData(await t.graphql(admin.token, `query($id: ID!) { collection(id: $id) { spaces { edges { node { id } } } } }`, { id: target.id }));
    expect(order.collection.spaces.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual([first.id, moving.id, second.id]);

    const top = expectData(await mutate(t, admin.token, 'moveSpace', { spaceId: moving.id, parent: null }, 'space { parent { id } }'));
    expect(top.moveSpace.space.parent).toBeNull();
    expect((await spaceRow(t, moving.id))!.parentId).toBeNull();
  });

  it('rejects invalid moves with a 400 naming the field, and moves nothing', async () => {
    const { admin, collection, space } = await buildWorld(t);
    const other = await buildWorld(t);
    const foreign = await other.collection();
    const here = await collection();
    const elsewhere = await space({ parent: here.id });
    const moving = await space();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ parent: foreign.id }, /^parent: collection ".*" does not exist in this organization/],
      [{ position: { before: { type: 'space', space: elsewhere.id } } }, /^position\.before: space ".*" is not a sibling/],
      [{ position: { after: { type: 'folder' } } }, /at "input\.position\.after\.type"; Value "folder" does not exist in "ContentPointerType" enum/],
      [{}, /parent: set parent, position or both/],
    ];
    for (const [input, message] of cases) {
      expectGraphQLError(await mutate(t, admin.token, 'moveSpace', { spaceId: moving.id, ...input }, 'space { id }'), 400, message);
    }
    expect((await spaceRow(t, moving.id))!.parentId).toBeNull();
  });

  it('needs admin on the space and create in the target: 403 otherwise, 404 for strangers, 409 once deleted', async () => {
    const { admin, member, collection, space, rest } = await buildWorld(t);
    const target = await collection();
    const moving = await space();
    const creator = await member('create');
    expectGraphQLError(
      await mutate(t, creator.token, 'moveSpace', { spaceId: moving.id, parent: target.id }, 'space { id }'),
      403,
      'You are not allowed to move this space',
    );
    const reader = await member('read');
    await rest('PATCH', `/v1/spaces/${moving.id}`, admin.token, { defaultLevel: 'admin' });
    expectGraphQLError(
      await mutate(t, reader.token, 'moveSpace', { spaceId: moving.id, parent: target.id }, 'space { id }'),
      403,
      'You are not allowed to move content into the target collection',
    );
    const stranger = await buildUser(t.database, 'stranger');
    expectGraphQLError(await mutate(t, stranger.token, 'moveSpace', { spaceId: moving.id, parent: target.id }, 'space { id }'), 404);
    await rest('DELETE', `/v1/spaces/${moving.id}`, admin.token, undefined, 205);
    expectGraphQLError(await mutate(t, admin.token, 'moveSpace', { spaceId: moving.id, parent: target.id }, 'space { id }'), 409);
    expect((await spaceRow(t, moving.id))!.parentId).toBeNull();
  });

  it('is a 401 without a token', async () => {
    const { collection, space } = await buildWorld(t);
    const target = await collection();
    const moving = await space();
    await expectUnauthenticated(t, mutation('moveSpace', 'space { id }'), { input: { spaceId: moving.id, parent: target.id } });
    expect((await spaceRow(t, moving.id))!.parentId).toBeNull();
  });
});

describe('mutation transferSpace', () => {
  it('moves the space to the top level of another organization, without its custom field values', async () => {
    const { admin, collection, space, rest } = await withFields();
    const target = await otherOrganizationOf(t, admin);
    const parent = await collection();
    const moving = await space({ parent: parent.id });
    await rest('PATCH', `/v1/spaces/${moving.id}/custom-fields`, admin.token, { values: { team: { value: 'Docs' } } }, 204);
    const data = expectData(
      await mutate(t, admin.token, 'transferSpace', { spaceId: moving.id, organization: target.organization.id }, `space { ${SPACE_FIELDS} ${CUSTOM_FIELDS} }`),
    );
    expect(data.transferSpace.space).toMatchObject({ id: moving.id, organization: { id: target.organization.id }, parent: null, customFields: [] });
    expect(await spaceRow(t, moving.id)).toMatchObject({ organizationId: target.organization.id, parentId: null });
    expect(await valuesOf(moving.id)).toEqual({});
  });

  it('is a 400 naming organization for the same organization or one the viewer is not in', async () => {
    const { organizationId, admin, space } = await buildWorld(t);
    const moving = await space();
    const foreign = await buildWorld(t);
    for (const [organization, message] of [
      [organizationId, /^organization: the space already belongs to this organization/],
      [foreign.organizationId, /^organization: organization ".*" was not found/],
    ] as const) {
      expectGraphQLError(await mutate(t, admin.token, 'transferSpace', { spaceId: moving.id, organization }, 'space { id }'), 400, message);
    }
    expect(await spaceRow(t, moving.id)).toMatchObject({ organizationId });
  });

  it('needs admin on the space and of the target: 403 otherwise, 404 for strangers', async () => {
    const { organizationId, admin, member, space } = await buildWorld(t);
    const moving = await space();
    const notAdmin = await otherOrganizationOf(t, admin, 'create');
    expectGraphQLError(
      await mutate(t, admin.token, 'transferSpace', { spaceId: moving.id, organization: notAdmin.organization.id }, 'space { id }'),
      403,
      'You are not allowed to transfer content to an organization you do not administer',
    );
    const creator = await member('create');
    const creatorsOwn = await otherOrganizationOf(t, creator);
    expectGraphQLError(
      await mutate(t, creator.token, 'transferSpace', { spaceId: moving.id, organization: creatorsOwn.organization.id }, 'space { id }'),
      403,
      'You are not allowed to transfer this space',
    );
    const stranger = await buildUser(t.database, 'stranger');
    const strangersOwn = await otherOrganizationOf(t, stranger);
    expectGraphQLError(
      await mutate(t, stranger.token, 'transferSpace', { spaceId: moving.id, organization: strangersOwn.organization.id }, 'space { id }'),
      404,
      `Space "${moving.id}" was not found`,
    );
    expect(await spaceRow(t, moving.id)).toMatchObject({ organizationId });
  });

  it('is a 401 without a token', async () => {
    const { organizationId, admin, space } = await buildWorld(t);
    const moving = await space();
    const target = await otherOrganizationOf(t, admin);
    await expectUnauthenticated(t, mutation('transferSpace', 'space { id }'), { input: { spaceId: moving.id, organization: target.organization.id } });
    expect(await spaceRow(t, moving.id)).toMatchObject({ organizationId });
  });
});

describe('mutation updateSpaceCustomFields', () => {
  const selection = `space { id ${CUSTOM_FIELDS} }`;

  it('sets values of every field type by name; null or no value clears one', async () => {
    const { admin, member, space } = await withFields();
    const target = await space();
    const editor = await member('edit');
    const data = expectData(
      await mutate(
        t,
        editor.token,
        'updateSpaceCustomFields',
        {
          spaceId: target.id,
          values: [
            { name: 'team', value: 'Docs' },
            { name: 'priority', value: 3 },
            { name: 'public', value: true },
            { name: 'stage', value: 'draft' },
            { name: 'tags', value: ['api', 'guide'] },
          ],
        },
        selection,
      ),
    );
    expect(
      data.updateSpaceCustomFields.space.customFields.map((entry: { customField: { name: string; type: string }; value: unknown }) => [
        entry.customField.name,
        entry.customField.type,
        entry.value,
      ]),
    ).toEqual([
      ['priority', 'number', 3],
      ['public', 'boolean', true],
      ['stage', 'select', 'draft'],
      ['tags', 'multi_select', ['api', 'guide']],
      ['team', 'text', 'Docs'],
    ]);
    expect(await valuesOf(target.id)).toEqual({ team: 'Docs', priority: 3, public: true, stage: 'draft', tags: ['api', 'guide'] });

    const cleared = expectData(
      await mutate(
        t,
        admin.token,
        'updateSpaceCustomFields',
        { spaceId: target.id, values: [{ name: 'team', value: null }, { name: 'tags' }, { name: 'priority', value: 4 }] },
        selection,
      ),
    );
    expect(cleared.updateSpaceCustomFields.space.customFields.map((entry: { customField: { name: string } }) => entry.customField.name)).toEqual([
      'priority',
      'public',
      'stage',
    ]);
    expect(await valuesOf(target.id)).toEqual({ priority: 4, public: true, stage: 'draft' });
  });

  it('rejects unknown fields and wrong values with a 400 naming the field, all or nothing', async () => {
    const { admin, space } = await withFields();
    const target = await space();
    const cases: Array<[unknown[], RegExp]> = [
      [
        [
          { name: 'team', value: 'Docs' },
          { name: 'missing', value: 'x' },
        ],
        /^values\.missing: no custom field named "missing"/,
      ],
      [[{ name: 'team', value: 42 }], /^values\.team\.value: must be a string for a text field/],
      [[{ name: 'priority', value: 'high' }], /^values\.priority\.value: must be a number/],
      [[{ name: 'public', value: 'yes' }], /^values\.public\.value: must be true or false/],
      [[{ name: 'stage', value: 'published' }], /^values\.stage\.value: must be one of the field's options/],
      [[{ name: 'tags', value: ['api', 'blog'] }], /^values\.tags\.value: must be an array of the field's options/],
      [[{ name: 'team', value: { nested: true } }], /^values\.team\.value: /],
    ];
    for (const [values, message] of cases) {
      expectGraphQLError(await mutate(t, admin.token, 'updateSpaceCustomFields', { spaceId: target.id, values }, 'space { id }'), 400, message);
    }
    expect(await valuesOf(target.id)).toEqual({});
  });

  it('needs edit on the space: 403 for readers, 404 for strangers, 409 once deleted', async () => {
    const { admin, member, space, rest } = await withFields();
    const target = await space();
    const reader = await member('read');
    expectGraphQLError(
      await mutate(t, reader.token, 'updateSpaceCustomFields', { spaceId: target.id, values: [{ name: 'team', value: 'Docs' }] }, 'space { id }'),
      403,
      "You are not allowed to edit this space's custom fields",
    );
    const stranger = await buildUser(t.database, 'stranger');
    expectGraphQLError(
      await mutate(t, stranger.token, 'updateSpaceCustomFields', { spaceId: target.id, values: [{ name: 'team', value: 'Docs' }] }, 'space { id }'),
      404,
      `Space "${target.id}" was not found`,
    );
    await rest('DELETE', `/v1/spaces/${target.id}`, admin.token, undefined, 205);
    expectGraphQLError(
      await mutate(t, admin.token, 'updateSpaceCustomFields', { spaceId: target.id, values: [{ name: 'team', value: 'Docs' }] }, 'space { id }'),
      409,
    );
    expect(await valuesOf(target.id)).toEqual({});
  });

  it('is a 403 while the space is locked (README: edit on it, not while it is locked)', async () => {
    const { admin, member, space, rest } = await withFields();
    const target = await space();
    await rest('PATCH', `/v1/spaces/${target.id}`, admin.token, { editMode: 'locked' });
    const editor = await member('edit');
    const permissions = expectData(await t.graphql(editor.token, `query($id: ID!) { space(id: $id) { permissions { edit } } }`, { id: target.id }));
    expect(permissions.space.permissions.edit).toBe(false);
    const result = await mutate(t, editor.token, 'updateSpaceCustomFields', { spaceId: target.id, values: [{ name: 'team', value: 'Docs' }] }, 'space { id }');
    expectGraphQLError(result, 403);
    expect(await valuesOf(target.id)).toEqual({});
  });

  it('is a 401 without a token', async () => {
    const { space } = await withFields();
    const target = await space();
    await expectUnauthenticated(t, mutation('updateSpaceCustomFields', 'space { id }'), {
      input: { spaceId: target.id, values: [{ name: 'team', value: 'Docs' }] },
    });
    expect(await valuesOf(target.id)).toEqual({});
  });
});

describe('GraphQL request errors of space operations', () => {
  it('are 400s naming the missing or unknown field', async () => {
    const { admin, space } = await buildWorld(t);
    const target = await space();
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      [mutation('deleteSpace', 'space { id }'), { input: {} }, /spaceId/],
      [mutation('restoreSpace', 'space { id }'), { input: {} }, /spaceId/],
      [mutation('duplicateSpace', 'space { id }'), { input: {} }, /spaceId/],
      [mutation('updateSpaceCustomFields', 'space { id }'), { input: { spaceId: target.id } }, /values/],
      [`mutation { deleteSpace(input: {}) { space { id } } }`, {}, /spaceId/],
      [`query($id: ID!) { space(id: $id) { id owner } }`, { id: target.id }, /owner/],
    ];
    const answers: GraphQLResult[] = [];
    for (const [query, variables] of cases) answers.push(await t.graphql(admin.token, query, variables));
    expect(answers.map((answer) => answer.errors?.map((error) => error.extensions?.code))).toEqual(cases.map(() => [400]));
    cases.forEach(([query, , message], index) => expect(answers[index]!.errors![0]!.message, query).toMatch(message));
    expect((await spaceRow(t, target.id))!.deletedAt).toBeNull();
  });
});
