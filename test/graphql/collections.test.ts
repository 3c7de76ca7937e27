import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { buildUser } from '../support/factories.ts';
import {
  COLLECTION_FIELDS,
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
import { buildWorld, otherOrganizationOf } from '../support/world.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const COLLECTION = `query($id: ID!) { collection(id: $id) { ${COLLECTION_FIELDS} } }`;
const collectionRow = (id: string) => t.database.db.collection.findUnique({ where: { id } });

const ORGANIZATION_COLLECTIONS = `
  query($id: ID!, $nested: Boolean, $first: Int, $after: String, $last: Int, $before: String) {
    organization(id: $id) { collections(nested: $nested, first: $first, after: $after, last: $last, before: $before) { ${connectionOf('id title parent { id }')} } }
  }`;

const CHILDREN = `
  query($id: ID!, $first: Int, $after: String, $last: Int, $before: String) {
    collection(id: $id) {
      id
      organization { id title }
      parent { id title }
      collections(first: $first, after: $after, last: $last, before: $before) { ${connectionOf('id title parent { id }')} }
      spaces(first: $first, after: $after, last: $last, before: $before) { ${connectionOf('id title parent { id }')} }
    }
  }`;

/** Collections created one day apart, so that the nested (by creation) order is known. */
async function dated<T extends { id: string }>(collections: T[]): Promise<T[]> {
  for (const [index, collection] of collections.entries()) {
    await t.database.db.collection.update({ where: { id: collection.id }, data: { createdAt: new Date(Date.UTC(2023, 0, 1 + index)) } });
  }
  return collections;
}

describe('query collection', () => {
  it('has every field of the collection, as REST answers it, with relations as objects', async () => {
    const { organizationId, admin, collection, rest } = await buildWorld(t);
    const parent = await collection({ title: 'Parent' });
    const child = await collection({ title: 'Child', parent: parent.id });
    await rest('PATCH', `/v1/collections/${child.id}`, admin.token, { description: 'About the child', defaultLevel: 'edit' });
    const data = expectData(await t.graphql(admin.token, COLLECTION, { id: child.id }));
    expect(data.collection).toEqual({
      id: child.id,
      object: 'collection',
      title: 'Child',
      description: 'About the child',
      defaultLevel: 'edit',
      organization: { id: organizationId },
      parent: { id: parent.id },
      urls: {
        location: `http://docs-gateway.test/v1/collections/${child.id}`,
        app: `http://app.docs-gateway.test/o/${organizationId}/c/${child.id}`,
      },
      permissions: { view: true, admin: true, viewInviteLinks: true, create: true },
    });
    const top = expectData(await t.graphql(admin.token, COLLECTION, { id: parent.id })).collection;
    expect(top).toMatchObject({ parent: null, description: null, defaultLevel: null });
  });

  it("answers the viewer's permissions from its level on the collection", async () => {
    const { admin, member, collection, rest } = await buildWorld(t);
    const plain = await collection({ title: 'Plain' });
    const open = await collection({ title: 'Open' });
    await rest('PATCH', `/v1/collections/${open.id}`, admin.token, { defaultLevel: 'create' });
    const reader = await member('read');
    const permissions = `query($id: ID!) { collection(id: $id) { permissions { view admin viewInviteLinks create } } }`;
    expect(expectData(await t.graphql(reader.token, permissions, { id: plain.id })).collection.permissions).toEqual({
      view: true,
      admin: false,
      viewInviteLinks: false,
      create: false,
    });
    expect(expectData(await t.graphql(reader.token, permissions, { id: open.id })).collection.permissions).toEqual({
      view: true,
      admin: false,
      viewInviteLinks: false,
      create: true,
    });
  });

  it('loads as a node; is a 404 for strangers, guests and unknown ids', async () => {
    const { admin, member, collection } = await buildWorld(t);
    const visible = await collection({ title: 'Visible' });
    const node = `query($id: ID!) { node(id: $id) { __typename id ... on Collection { title } } }`;
    expect(expectData(await t.graphql(admin.token, node, { id: visible.id })).node).toEqual({
      __typename: 'Collection',
      id: visible.id,
      title: 'Visible',
    });
    const stranger = await buildUser(t.database, 'stranger');
    const guest = await member(null);
    for (const user of [stranger, guest]) {
      for (const query of [COLLECTION, node]) {
        const result = await t.graphql(user.token, query, { id: visible.id });
        expectGraphQLError(result, 404, `Collection "${visible.id}" was not found`);
      }
    }
    expectGraphQLError(await t.graphql(admin.token, COLLECTION, { id: 'col_missing' }), 404, 'Collection "col_missing" was not found');
    const nodes = await t.graphql(admin.token, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: ['col_missing', visible.id] });
    expect(nodes.data.nodes).toEqual([null, { id: visible.id }]);
    expect(nodes.errors!.map((error) => error.extensions?.code)).toEqual([404]);
  });

  it('is a 401 without a token', async () => {
    const { collection } = await buildWorld(t);
    const visible = await collection();
    await expectUnauthenticated(t, COLLECTION, { id: visible.id });
  });
});

describe('Organization.collections', () => {
  const list = async (token: string, id: string, args: Record<string, unknown> = {}): Promise<Connection> =>
    expectData(await t.graphql(token, ORGANIZATION_COLLECTIONS, { id, ...args })).organization.collections;

  it('lists nested collections by creation, or only the top level in sibling order', async () => {
    const { organizationId, admin, collection, rest } = await buildWorld(t);
    const a = await collection({ title: 'A' });
    const b = await collection({ title: 'B' });
    const aChild = await collection({ title: 'A child', parent: a.id });
    const c = await collection({ title: 'C' });
    await dated([a, b, aChild, c]);
    const nested = await list(admin.token, organizationId);
    expect(nodeIds(nested)).toEqual([a.id, b.id, aChild.id, c.id]);
    expect(nested.totalCount).toBe(4);
    expect(nested.edges[2]!.node.parent).toEqual({ id: a.id });

    // Put C first among the top-level siblings.
    await rest('POST', `/v1/collections/${c.id}/move`, admin.token, { position: { before: { type: 'collection', collection: a.id } } });
    const top = await list(admin.token, organizationId, { nested: false });
    expect(nodeIds(top)).toEqual([c.id, a.id, b.id]);
    expect(top.totalCount).toBe(3);
  });

  it('pages with first/after and last/before', async () => {
    const { organizationId, admin, collection } = await buildWorld(t);
    const ids: string[] = [];
    for (const title of ['One', 'Two', 'Three', 'Four', 'Five']) ids.push((await collection({ title })).id);
    await dated(ids.map((id) => ({ id })));
    for (const nested of [true, false]) {
      const forward = await followForward((after) => list(admin.token, organizationId, { nested, first: 2, after }));
      expect(forward.map(nodeIds)).toEqual([ids.slice(0, 2), ids.slice(2, 4), ids.slice(4)]);
      expect(forward.map((page) => page.totalCount)).toEqual([5, 5, 5]);
      expect(forward[0]!.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
      const backward = await followBackward((before) => list(admin.token, organizationId, { nested, last: 2, before }));
      expect(backward.map(nodeIds)).toEqual([ids.slice(3), ids.slice(1, 3), ids.slice(0, 1)]);
      expect(backward[0]!.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    }
    // A cursor of the nested listing is not one of the top-level listing.
    const nestedPage = await list(admin.token, organizationId, { first: 1 });
    expectGraphQLError(
      await t.graphql(admin.token, ORGANIZATION_COLLECTIONS, { id: organizationId, nested: false, after: nestedPage.pageInfo.endCursor }),
      400,
      /is not a page token returned by this listing/,
    );
  });

  it('lists a guest what its grants reach, a 404 for strangers, a 400 for bad paging, a 401 without a token', async () => {
    const { organizationId, admin, member, collection, rest } = await buildWorld(t);
    await collection();
    const granted = await collection({ title: 'Granted' });
    const guest = await member(null);
    // A guest lists only the collections granted to it (and those below), as over REST.
    expect(expectData(await t.graphql(guest.token, ORGANIZATION_COLLECTIONS, { id: organizationId })).organization.collections.edges).toEqual([]);
    await rest('POST', `/v1/collections/${granted.id}/permissions`, admin.token, { role: 'read', users: [guest.id] }, 204);
    const listed = expectData(await t.graphql(guest.token, ORGANIZATION_COLLECTIONS, { id: organizationId })).organization.collections.edges;
    expect(listed.map((edge: { node: { id: string } }) => edge.node.id)).toEqual([granted.id]);
    const stranger = await buildUser(t.database, 'stranger');
    expectGraphQLError(await t.graphql(stranger.token, ORGANIZATION_COLLECTIONS, { id: organizationId }), 404);
    const reader = await member('read');
    expectGraphQLError(await t.graphql(reader.token, ORGANIZATION_COLLECTIONS, { id: organizationId, last: -1 }), 400, /^last: /);
    await expectUnauthenticated(t, ORGANIZATION_COLLECTIONS, { id: organizationId });
  });
});

describe('Collection.collections, spaces, parent and organization', () => {
  it('list the content directly inside a collection in sibling order, and its relations', async () => {
    const { organizationId, admin, collection, space, rest } = await buildWorld(t);
    const root = await collection({ title: 'Root' });
    const first = await collection({ title: 'First', parent: root.id });
    const second = await collection({ title: 'Second', parent: root.id });
    await collection({ title: 'Grandchild', parent: first.id });
    const s1 = await space({ title: 'S1', parent: root.id });
    const s2 = await space({ title: 'S2', parent: root.id });
    const s3 = await space({ title: 'S3', parent: root.id });
    const deleted = await space({ title: 'Deleted', parent: root.id });
    await rest('DELETE', `/v1/spaces/${deleted.id}`, admin.token, undefined, 205);
    // S3 first among the siblings.
    await rest('POST', `/v1/spaces/${s3.id}/move`, admin.token, { position: { before: { type: 'space', space: s1.id } } });

    const data = expectData(await t.graphql(admin.token, CHILDREN, { id: root.id })).collection;
    expect(data.organization.id).toBe(organizationId);
    expect(data.parent).toBeNull();
    expect(nodeIds(data.collections)).toEqual([first.id, second.id]);
    expect(data.collections.totalCount).toBe(2);
    expect(data.collections.edges[0].node.parent).toEqual({ id: root.id });
    expect(nodeIds(data.spaces)).toEqual([s3.id, s1.id, s2.id]);
    expect(data.spaces.totalCount).toBe(3);
    expect(data.spaces.edges.map((edge: { node: { parent: unknown } }) => edge.node.parent)).toEqual([{ id: root.id }, { id: root.id }, { id: root.id }]);

    const child = expectData(await t.graphql(admin.token, CHILDREN, { id: first.id })).collection;
    expect(child.parent).toEqual({ id: root.id, title: 'Root' });
    expect(child.collections.totalCount).toBe(1);
    expect(child.spaces.totalCount).toBe(0);
  });

  it('page with first/after and last/before', async () => {
    const { admin, collection, space } = await buildWorld(t);
    const root = await collection({ title: 'Root' });
    const spaces: string[] = [];
    const collections: string[] = [];
    for (let i = 0; i < 3; i++) {
      collections.push((await collection({ title: `C${i}`, parent: root.id })).id);
      spaces.push((await space({ title: `S${i}`, parent: root.id })).id);
    }
    const listing =
      (field: 'collections' | 'spaces') =>
      async (args: Record<string, unknown>): Promise<Connection> =>
        expectData(
          await t.graphql(
            admin.token,
            `query($id: ID!, $first: Int, $after: String, $last: Int, $before: String) {
            collection(id: $id) { ${field}(first: $first, after: $after, last: $last, before: $before) { ${connectionOf('id')} } }
          }`,
            { id: root.id, ...args },
          ),
        ).collection[field];
    for (const [field, ids] of [
      ['spaces', spaces],
      ['collections', collections],
    ] as const) {
      const page = listing(field);
      const forward = await followForward((after) => page({ first: 2, after }));
      expect(forward.map(nodeIds), field).toEqual([ids.slice(0, 2), ids.slice(2)]);
      expect(forward.map((entry) => entry.totalCount)).toEqual([3, 3]);
      expect(forward[1]!.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
      const backward = await followBackward((before) => page({ last: 2, before }));
      expect(backward.map(nodeIds), field).toEqual([ids.slice(1), ids.slice(0, 1)]);
      expect(backward[0]!.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
      expect(backward[1]!.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    }
  });
});

describe('mutation createCollection', () => {
  const selection = `collection { ${COLLECTION_FIELDS} }`;

  it('creates a collection at the top level or inside another', async () => {
    const { organizationId, admin } = await buildWorld(t);
    const top = expectData(await mutate(t, admin.token, 'createCollection', { organizationId, title: 'Guides' }, selection)).createCollection.collection;
    expect(top).toMatchObject({ object: 'collection', title: 'Guides', parent: null, organization: { id: organizationId }, defaultLevel: null });
    expect(top.id).toMatch(/^col_/);
    expect(await collectionRow(top.id)).toMatchObject({ title: 'Guides', organizationId, parentId: null });

    const inner = expectData(await mutate(t, admin.token, 'createCollection', { organizationId, parent: top.id }, selection)).createCollection.collection;
    expect(inner).toMatchObject({ title: 'Untitled', parent: { id: top.id } });
    expect(await collectionRow(inner.id)).toMatchObject({ title: 'Untitled', parentId: top.id, organizationId });
    const rest = (await t.call('GET', `/v1/collections/${inner.id}`, { token: admin.token })).json();
    expect(rest).toMatchObject({ id: inner.id, parent: top.id, organization: organizationId });
  });

  it('rejects invalid input with a 400 naming the field, and creates nothing', async () => {
    const { organizationId, admin } = await buildWorld(t);
    const other = await buildWorld(t);
    const elsewhere = await other.collection();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ title: 'x'.repeat(51) }, /^title: /],
      [{ parent: 'col_missing' }, /^parent: collection "col_missing" does not exist in this organization/],
      [{ parent: elsewhere.id }, /^parent: collection ".*" does not exist in this organization/],
      [{ parent: '' }, /^parent: /],
    ];
    for (const [input, message] of cases) {
      const result = await mutate(t, admin.token, 'createCollection', { organizationId, ...input }, 'collection { id }');
      expectGraphQLError(result, 400, message);
      expect(result.data).toBeNull();
    }
    expect(await t.database.db.collection.count({ where: { organizationId } })).toBe(0);
  });

  it('needs create where the collection goes: 403 otherwise, 404 for strangers', async () => {
    const { organizationId, admin, member, collection, rest } = await buildWorld(t);
    const editor = await member('edit');
    expectGraphQLError(
      await mutate(t, editor.token, 'createCollection', { organizationId }, 'collection { id }'),
      403,
      'You are not allowed to create content in this organization',
    );
    const parent = await collection();
    expectGraphQLError(
      await mutate(t, editor.token, 'createCollection', { organizationId, parent: parent.id }, 'collection { id }'),
      403,
      'You are not allowed to create content in this collection',
    );
    // A collection whose default level is "create" lets members create inside it.
    await rest('PATCH', `/v1/collections/${parent.id}`, admin.token, { defaultLevel: 'create' });
    const created = expectData(await mutate(t, editor.token, 'createCollection', { organizationId, parent: parent.id }, 'collection { id }'));
    expect(await collectionRow(created.createCollection.collection.id)).toMatchObject({ parentId: parent.id });
    const stranger = await buildUser(t.database, 'stranger');
    expectGraphQLError(
      await mutate(t, stranger.token, 'createCollection', { organizationId }, 'collection { id }'),
      404,
      `Organization "${organizationId}" was not found`,
    );
    expect(await t.database.db.collection.count({ where: { organizationId } })).toBe(2);
  });

  it('is a 401 without a token', async () => {
    const { organizationId } = await buildWorld(t);
    await expectUnauthenticated(t, mutation('createCollection', 'collection { id }'), { input: { organizationId } });
    expect(await t.database.db.collection.count({ where: { organizationId } })).toBe(0);
  });
});

describe('mutation updateCollection', () => {
  it('updates title, description and default level; null inherits', async () => {
    const { admin, collection } = await buildWorld(t);
    const target = await collection({ title: 'Before' });
    const updated = expectData(
      await mutate(
        t,
        admin.token,
        'updateCollection',
        { collectionId: target.id, title: 'After', description: 'Now described', defaultLevel: 'comment' },
        `collection { ${COLLECTION_FIELDS} }`,
      ),
    ).updateCollection.collection;
    expect(updated).toMatchObject({ id: target.id, title: 'After', description: 'Now described', defaultLevel: 'comment' });
    expect(await collectionRow(target.id)).toMatchObject({ title: 'After', description: 'Now described', defaultLevel: 'comment' });
    const inherited = expectData(
      await mutate(t, admin.token, 'updateCollection', { collectionId: target.id, defaultLevel: null }, 'collection { defaultLevel title }'),
    );
    expect(inherited.updateCollection.collection).toEqual({ defaultLevel: null, title: 'After' });
    expect(await collectionRow(target.id)).toMatchObject({ defaultLevel: null, title: 'After' });
  });

  it('rejects invalid input with a 400 naming the field, and changes nothing', async () => {
    const { admin, collection } = await buildWorld(t);
    const target = await collection({ title: 'Same' });
    const before = await collectionRow(target.id);
    for (const [input, message] of [
      [{ title: 'x'.repeat(51) }, /^title: /],
      [{ description: 'x'.repeat(101) }, /^description: /],
    ] as const) {
      expectGraphQLError(await mutate(t, admin.token, 'updateCollection', { collectionId: target.id, ...input }, 'collection { id }'), 400, message);
    }
    expect(await collectionRow(target.id)).toEqual(before);
    // An explicit null on a field whose null means nothing is its absence: the title stays.
    const kept = expectData(await mutate(t, admin.token, 'updateCollection', { collectionId: target.id, title: null }, 'collection { title }'));
    expect(kept.updateCollection.collection.title).toBe('Same');
  });

  it('needs admin on the collection: 403 otherwise, 404 for strangers and guests', async () => {
    const { member, collection } = await buildWorld(t);
    const target = await collection({ title: 'Same' });
    const creator = await member('create');
    expectGraphQLError(
      await mutate(t, creator.token, 'updateCollection', { collectionId: target.id, title: 'Changed' }, 'collection { id }'),
      403,
      'You are not allowed to update this collection',
    );
    for (const user of [await buildUser(t.database, 'stranger'), await member(null)]) {
      expectGraphQLError(
        await mutate(t, user.token, 'updateCollection', { collectionId: target.id, title: 'Changed' }, 'collection { id }'),
        404,
        `Collection "${target.id}" was not found`,
      );
    }
    expect((await collectionRow(target.id))!.title).toBe('Same');
  });

  it('is a 401 without a token', async () => {
    const { collection } = await buildWorld(t);
    const target = await collection({ title: 'Same' });
    await expectUnauthenticated(t, mutation('updateCollection', 'collection { id }'), { input: { collectionId: target.id, title: 'Changed' } });
    expect((await collectionRow(target.id))!.title).toBe('Same');
  });
});

describe('mutation deleteCollection', () => {
  it('deletes the collection and those below it; their spaces become deleted, restorable, at the top level', async () => {
    const { organizationId, admin, collection, space } = await buildWorld(t);
    const root = await collection({ title: 'Root' });
    const child = await collection({ title: 'Child', parent: root.id });
    const kept = await collection({ title: 'Kept' });
    const inRoot = await space({ parent: root.id });
    const inChild = await space({ parent: child.id });
    const outside = await space({ parent: kept.id });

    const data = expectData(await mutate(t, admin.token, 'deleteCollection', { collectionId: root.id }, 'deletedCollectionId'));
    expect(data.deleteCollection).toEqual({ deletedCollectionId: root.id });
    expect(await collectionRow(root.id)).toBeNull();
    expect(await collectionRow(child.id)).toBeNull();
    expect(await collectionRow(kept.id)).not.toBeNull();
    for (const id of [inRoot.id, inChild.id]) {
      const row = await t.database.db.space.findUnique({ where: { id } });
      expect(row!.deletedAt).not.toBeNull();
      expect(row!.parentId).toBeNull();
    }
    expect((await t.database.db.space.findUnique({ where: { id: outside.id } }))!.deletedAt).toBeNull();
    const listing = expectData(await t.graphql(admin.token, ORGANIZATION_COLLECTIONS, { id: organizationId })).organization.collections;
    expect(nodeIds(listing)).toEqual([kept.id]);
    expectGraphQLError(await t.graphql(admin.token, COLLECTION, { id: root.id }), 404);

    const restored = expectData(await mutate(t, admin.token, 'restoreSpace', { spaceId: inChild.id }, 'space { id deletedAt parent { id } }'));
    expect(restored.restoreSpace.space).toEqual({ id: inChild.id, deletedAt: null, parent: null });
  });

  it('needs admin on the collection: 403 otherwise, 404 for strangers', async () => {
    const { member, collection } = await buildWorld(t);
    const target = await collection();
    const creator = await member('create');
    expectGraphQLError(
      await mutate(t, creator.token, 'deleteCollection', { collectionId: target.id }, 'deletedCollectionId'),
      403,
      'You are not allowed to delete this collection',
    );
    const stranger = await buildUser(t.database, 'stranger');
    expectGraphQLError(await mutate(t, stranger.token, 'deleteCollection', { collectionId: target.id }, 'deletedCollectionId'), 404);
    expectGraphQLError(await mutate(t, stranger.token, 'deleteCollection', { collectionId: 'col_missing' }, 'deletedCollectionId'), 404);
    expect(await collectionRow(target.id)).not.toBeNull();
  });

  it('is a 401 without a token', async () => {
    const { collection } = await buildWorld(t);
    const target = await collection();
    await expectUnauthenticated(t, mutation('deleteCollection', 'deletedCollectionId'), { input: { collectionId: target.id } });
    expect(await collectionRow(target.id)).not.toBeNull();
  });
});

describe('mutation moveCollection', () => {
  it('moves a collection under another parent, among its siblings, and back to the top level', async () => {
    const { organizationId, admin, collection, space } = await buildWorld(t);
    const a = await collection({ title: 'A' });
    const b = await collection({ title: 'B' });
    const moving = await collection({ title: 'Moving' });
    const inB = await space({ title: 'In B', parent: b.id });

    const moved = expectData(
      await mutate(
        t,
        admin.token,
        'moveCollection',
        { collectionId: moving.id, parent: b.id, position: { before: { type: 'space', space: inB.id } } },
        `collection { ${COLLECTION_FIELDS} }`,
      ),
    ).moveCollection.collection;
    expect(moved).toMatchObject({ id: moving.id, parent: { id: b.id } });
    expect((await collectionRow(moving.id))!.parentId).toBe(b.id);
    const inside = await t.database.db.collection.findUnique({ where: { id: moving.id } });
    const spaceRow = await t.database.db.space.findUnique({ where: { id: inB.id } });
    expect(inside!.position < spaceRow!.position).toBe(true);

    // Absent parent keeps it; position alone reorders.
    const top = expectData(
      await mutate(
        t,
        admin.token,
        'moveCollection',
        { collectionId: moving.id, parent: null, position: { after: { type: 'collection', collection: a.id } } },
        'collection { parent { id } }',
      ),
    );
    expect(top.moveCollection.collection.parent).toBeNull();
    expect((await collectionRow(moving.id))!.parentId).toBeNull();
    const order = expectData(await t.graphql(admin.token, ORGANIZATION_COLLECTIONS, { id: organizationId, nested: false })).organization.collections;
    expect(nodeIds(order)).toEqual([a.id, moving.id, b.id]);

    expectData(
      await mutate(
        t,
        admin.token,
        'moveCollection',
        { collectionId: moving.id, position: { before: { type: 'collection', collection: a.id } } },
        'collection { id }',
      ),
    );
    expect((await collectionRow(moving.id))!.parentId).toBeNull();
    const reordered = expectData(await t.graphql(admin.token, ORGANIZATION_COLLECTIONS, { id: organizationId, nested: false })).organization.collections;
    expect(nodeIds(reordered)).toEqual([moving.id, a.id, b.id]);
  });

  it('rejects invalid moves with a 400 naming the field, and moves nothing', async () => {
    const { admin, collection } = await buildWorld(t);
    const other = await buildWorld(t);
    const parent = await collection({ title: 'Parent' });
    const child = await collection({ title: 'Child', parent: parent.id });
    const sibling = await collection({ title: 'Sibling' });
    const foreign = await other.collection();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ parent: parent.id }, /^parent: a collection cannot be moved into itself or one of its descendants/],
      [{ parent: child.id }, /^parent: a collection cannot be moved into itself or one of its descendants/],
      [{ parent: foreign.id }, /^parent: collection ".*" does not exist in this organization/],
      [{ position: { before: { type: 'collection', collection: child.id } } }, /^position\.before: collection ".*" is not a sibling/],
      [{ position: { after: { type: 'space', space: 'spc_missing' } } }, /^position\.after: space "spc_missing" is not a sibling/],
    ];
    for (const [input, message] of cases) {
      const result = await mutate(t, admin.token, 'moveCollection', { collectionId: parent.id, ...input }, 'collection { id }');
      expectGraphQLError(result, 400, message);
    }
    expect(await collectionRow(parent.id)).toMatchObject({ parentId: null });
    expect(await collectionRow(sibling.id)).toMatchObject({ parentId: null });
  });

  it('needs admin on the collection and create in the target: 403 otherwise, 404 for strangers', async () => {
    const { admin, member, collection, rest } = await buildWorld(t);
    const moving = await collection({ title: 'Moving' });
    const target = await collection({ title: 'Target' });
    const reader = await member('read');
    expectGraphQLError(
      await mutate(t, reader.token, 'moveCollection', { collectionId: moving.id, parent: target.id }, 'collection { id }'),
      403,
      'You are not allowed to move this collection',
    );
    // Admin of the moving collection through its default level, but only a reader in the target.
    await rest('PATCH', `/v1/collections/${moving.id}`, admin.token, { defaultLevel: 'admin' });
    expectGraphQLError(
      await mutate(t, reader.token, 'moveCollection', { collectionId: moving.id, parent: target.id }, 'collection { id }'),
      403,
      'You are not allowed to move content into the target collection',
    );
    const stranger = await buildUser(t.database, 'stranger');
    expectGraphQLError(await mutate(t, stranger.token, 'moveCollection', { collectionId: moving.id, parent: null }, 'collection { id }'), 404);
    expect(await collectionRow(moving.id)).toMatchObject({ parentId: null });
  });

  it('is a 401 without a token', async () => {
    const { collection } = await buildWorld(t);
    const moving = await collection();
    const target = await collection();
    await expectUnauthenticated(t, mutation('moveCollection', 'collection { id }'), { input: { collectionId: moving.id, parent: target.id } });
    expect(await collectionRow(moving.id)).toMatchObject({ parentId: null });
  });
});

describe('mutation transferCollection', () => {
  it('moves the collection, everything below it, to the top level of another organization', async () => {
    const { organizationId, admin, collection, space, customField, rest } = await buildWorld(t);
    const target = await otherOrganizationOf(t, admin);
    const parent = await collection({ title: 'Parent' });
    const moving = await collection({ title: 'Moving', parent: parent.id });
    const child = await collection({ title: 'Child', parent: moving.id });
    const inChild = await space({ title: 'Deep', parent: child.id });
    await customField({ name: 'team', type: 'text' });
    await rest('PATCH', `/v1/spaces/${inChild.id}/custom-fields`, admin.token, { values: { team: { value: 'Docs' } } }, 204);

    const data = expectData(
      await mutate(
        t,
        admin.token,
        'transferCollection',
        { collectionId: moving.id, organization: target.organization.id },
        `collection { ${COLLECTION_FIELDS} }`,
      ),
    );
    expect(data.transferCollection.collection).toMatchObject({ id: moving.id, parent: null, organization: { id: target.organization.id } });
    expect(await collectionRow(moving.id)).toMatchObject({ organizationId: target.organization.id, parentId: null });
    expect(await collectionRow(child.id)).toMatchObject({ organizationId: target.organization.id, parentId: moving.id });
    expect(await t.database.db.space.findUnique({ where: { id: inChild.id } })).toMatchObject({ organizationId: target.organization.id, parentId: child.id });
    expect(await t.database.db.spaceCustomFieldValue.count({ where: { spaceId: inChild.id } })).toBe(0);
    expect(await collectionRow(parent.id)).toMatchObject({ organizationId });
  });

  it('is a 400 naming organization for the same organization or one the viewer is not in', async () => {
    const { organizationId, admin, collection } = await buildWorld(t);
    const moving = await collection();
    const foreign = await buildWorld(t);
    for (const [organization, message] of [
      [organizationId, /^organization: the collection already belongs to this organization/],
      [foreign.organizationId, /^organization: organization ".*" was not found/],
      ['', /^organization: /],
    ] as const) {
      expectGraphQLError(await mutate(t, admin.token, 'transferCollection', { collectionId: moving.id, organization }, 'collection { id }'), 400, message);
    }
    expect(await collectionRow(moving.id)).toMatchObject({ organizationId });
  });

  it('needs admin on the collection and of the target: 403 otherwise, 404 for strangers', async () => {
    const { organizationId, admin, member, collection } = await buildWorld(t);
    const moving = await collection();
    const notAdmin = await otherOrganizationOf(t, admin, 'create');
    expectGraphQLError(
      await mutate(t, admin.token, 'transferCollection', { collectionId: moving.id, organization: notAdmin.organization.id }, 'collection { id }'),
      403,
      'You are not allowed to transfer content to an organization you do not administer',
    );
    const creator = await member('create');
    const creatorsOwn = await otherOrganizationOf(t, creator);
    expectGraphQLError(
      await mutate(t, creator.token, 'transferCollection', { collectionId: moving.id, organization: creatorsOwn.organization.id }, 'collection { id }'),
      403,
      'You are not allowed to transfer this collection',
    );
    const stranger = await buildUser(t.database, 'stranger');
    const strangersOwn = await otherOrganizationOf(t, stranger);
    expectGraphQLError(
      await mutate(t, stranger.token, 'transferCollection', { collectionId: moving.id, organization: strangersOwn.organization.id }, 'collection { id }'),
      404,
      `Collection "${moving.id}" was not found`,
    );
    expect(await collectionRow(moving.id)).toMatchObject({ organizationId });
  });

  it('is a 401 without a token', async () => {
    const { organizationId, admin, collection } = await buildWorld(t);
    const moving = await collection();
    const target = await otherOrganizationOf(t, admin);
    await expectUnauthenticated(t, mutation('transferCollection', 'collection { id }'), {
      input: { collectionId: moving.id, organization: target.organization.id },
    });
    expect(await collectionRow(moving.id)).toMatchObject({ organizationId });
  });
});

describe('GraphQL request errors of collection operations', () => {
  it('are 400s naming the missing or unknown field', async () => {
    const { admin, collection } = await buildWorld(t);
    const target = await collection();
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      [mutation('deleteCollection', 'deletedCollectionId'), { input: {} }, /collectionId/],
      [mutation('updateCollection', 'collection { id }'), { input: { collectionId: target.id, defaultLevel: 'owner' } }, /owner/],
      [`mutation { createCollection(input: { title: "No organization" }) { collection { id } } }`, {}, /organizationId/],
      [`query($id: ID!) { collection(id: $id) { id color } }`, { id: target.id }, /color/],
    ];
    const answers: GraphQLResult[] = [];
    for (const [query, variables] of cases) answers.push(await t.graphql(admin.token, query, variables));
    expect(answers.map((answer) => answer.errors?.map((error) => error.extensions?.code))).toEqual(cases.map(() => [400]));
    cases.forEach(([query, , message], index) => expect(answers[index]!.errors![0]!.message, query).toMatch(message));
    expect(await collectionRow(target.id)).not.toBeNull();
  });
});
