import { MemberRole } from '@gitbook/api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/domain/access.ts';
import { type TestApp, createTestApp } from '../support/app.ts';
import { DAY, timeTravel } from '../support/clock.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { addMember, buildOrganization, buildTeam, buildUser } from '../support/factories.ts';
import { expectError } from '../support/http.ts';
import { itemIds, listAll } from '../support/listings.ts';
import { type OfficialClient, expectOfficialError, officialClient } from '../support/official.ts';
import { siblings, snapshot } from '../support/rows.ts';
import { textCustomField } from '../support/world.ts';

let t: TestApp;
let official: OfficialClient;
beforeAll(async () => {
  t = await createTestApp();
  official = await officialClient(t);
});

/** Moves the server's clock; every test starts back at the real time. */
const travel = timeTravel(() => t);

const COLLECTION = '/v1/collections/{collectionId}';
const COLLECTION_SPACES = '/v1/collections/{collectionId}/spaces';
const MOVE = '/v1/collections/{collectionId}/move';
const TRANSFER = '/v1/collections/{collectionId}/transfer';
const ORG_COLLECTIONS = '/v1/orgs/{organizationId}/collections';

type Json = Record<string, any>;

/** An organization with an admin and helpers creating content as that admin over REST. */
async function setup() {
  const team = await buildTeam(t.database);
  const organizationId = team.organization.id;
  const collection = async (body: Json = {}, token = team.admin.token): Promise<Json> => {
    const response = await t.call('POST', `/v1/orgs/${organizationId}/collections`, { token, body });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  const space = async (body: Json = {}, token = team.admin.token): Promise<Json> => {
    const response = await t.call('POST', `/v1/orgs/${organizationId}/spaces`, { token, body });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  /** A text custom field of the organization, and a way to set its value on a space. */
  const customField = (name = 'owner') => textCustomField(t, organizationId, team.admin.token, name);
  return { ...team, organizationId, collection, space, customField };
}

/** Sets creation times so that "oldest first" listings have a known order. */
async function setCreatedAt(model: 'collection' | 'space', idsInOrder: string[]) {
  for (const [index, id] of idsInOrder.entries()) {
    const data = { createdAt: new Date(Date.UTC(2020, 0, 1 + index)) };
    if (model === 'collection') await t.database.db.collection.update({ where: { id }, data });
    else await t.database.db.space.update({ where: { id }, data });
  }
}

describe('GET /v1/collections/{collectionId}', () => {
  it('returns the collection through the official client', async () => {
    const { organizationId, admin, collection } = await setup();
    const parent = await collection({ title: 'Guides' });
    const child = await collection({ title: 'Tutorials', parent: parent.id });

    const { data } = await official(admin).collections.getCollectionById(child.id);
    expectMatchesSchema('GET', COLLECTION, 200, data);
    expect(data).toEqual(child);
    expect(data).toEqual({
      object: 'collection',
      id: child.id,
      title: 'Tutorials',
      organization: organizationId,
      parent: parent.id,
      defaultLevel: null,
      urls: {
        location: `http://docs-gateway.test/v1/collections/${child.id}`,
        app: `http://app.docs-gateway.test/o/${organizationId}/c/${child.id}`,
      },
      permissions: { view: true, admin: true, viewInviteLinks: true, create: true },
    });
    const top = await official(admin).collections.getCollectionById(parent.id);
    expect(top.data.parent).toBeUndefined();
  });

  it('shows a read member what it may do', async () => {
    const { member, collection } = await setup();
    const reader = await member('read');
    const created = await collection();
    const response = await t.call('GET', `/v1/collections/${created.id}`, { token: reader.token });
    expect(response.statusCode).toBe(200);
    expectMatchesSchema('GET', COLLECTION, 200, response.json());
    expect(response.json().permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
  });

  it('is a 404 for strangers, guests and unknown ids, and a 401 without a token', async () => {
    const { member, collection, admin } = await setup();
    const created = await collection();
    const stranger = await buildUser(t.database);
    expectError(await t.call('GET', `/v1/collections/${created.id}`, { token: stranger.token }), 404, `Collection "${created.id}" was not found`);
    const guest = await member(null);
    expectError(await t.call('GET', `/v1/collections/${created.id}`, { token: guest.token }), 404);
    expectError(await t.call('GET', '/v1/collections/col_missing', { token: admin.token }), 404, 'Collection "col_missing" was not found');
    expectError(await t.call('GET', `/v1/collections/${created.id}`), 401);
    await expectOfficialError(official(stranger).collections.getCollectionById(created.id), 404);
  });
});

describe('POST /v1/orgs/{organizationId}/collections', () => {
  it('creates a collection at the end of the top level, through the official client', async () => {
    const { organizationId, admin, space } = await setup();
    const first = await space({ title: 'Existing' });
    const { data } = await official(admin).orgs.createCollection(organizationId, { title: 'Handbooks' });
    expectMatchesSchema('POST', ORG_COLLECTIONS, 201, data);
    expect(data).toMatchObject({
      object: 'collection',
      title: 'Handbooks',
      organization: organizationId,
      defaultLevel: null,
      permissions: { view: true, admin: true, create: true },
    });
    expect(data.parent).toBeUndefined();
    const row = await t.database.db.collection.findUnique({ where: { id: data.id } });
    expect(row).toMatchObject({ organizationId, parentId: null, title: 'Handbooks', defaultLevel: null });
    expect(await siblings(t, organizationId, null)).toEqual([first.id, data.id]);
  });

  it('answers 201 with a Location, defaults the title, and nests under a parent', async () => {
    const { organizationId, admin, collection } = await setup();
    const response = await t.call('POST', `/v1/orgs/${organizationId}/collections`, { token: admin.token, body: {} });
    expect(response.statusCode).toBe(201);
    const untitled = response.json();
    expect(untitled.title).toBe('Untitled');
    expect(response.headers.location).toBe(untitled.urls.location);
    const fifty = 'x'.repeat(50);
    const child = await collection({ title: fifty, parent: untitled.id });
    expect(child).toMatchObject({ title: fifty, parent: untitled.id });
    const second = await collection({ parent: untitled.id });
    expect(await siblings(t, organizationId, untitled.id)).toEqual([child.id, second.id]);
    expect(await t.database.db.collection.findUnique({ where: { id: child.id } })).toMatchObject({ parentId: untitled.id });
  });

  it('rejects bad input and changes nothing', async () => {
    const { organizationId, admin } = await setup();
    const elsewhere = await buildOrganization(t.database);
    await addMember(t.database, elsewhere.id, admin, 'admin');
    const foreign = await t.call('POST', `/v1/orgs/${elsewhere.id}/collections`, { token: admin.token, body: {} });
    expect(foreign.statusCode).toBe(201);
    const before = await snapshot(t, organizationId, elsewhere.id);
    for (const [body, message] of [
      [{ title: 'x'.repeat(51) }, /^title: /],
      [{ title: 42 }, /^title: /],
      [{ parent: 'col_missing' }, 'parent: collection "col_missing" does not exist in this organization'],
      [{ parent: foreign.json().id }, `parent: collection "${foreign.json().id}" does not exist in this organization`],
      [{ parent: '' }, /^parent: /],
      [{ color: 'red' }, /unknown field "color"/],
    ] as const) {
      const response = await t.call('POST', `/v1/orgs/${organizationId}/collections`, { token: admin.token, body });
      expectError(response, 400, message);
    }
    expect(await snapshot(t, organizationId, elsewhere.id)).toEqual(before);
  });

  it('needs the create level where the collection goes', async () => {
    const { organizationId, member, admin, collection } = await setup();
    const restricted = await collection({ title: 'Read only' });
    expect((await t.call('PATCH', `/v1/collections/${restricted.id}`, { token: admin.token, body: { defaultLevel: 'read' } })).statusCode).toBe(200);
    const open = await collection({ title: 'Open' });
    expect((await t.call('PATCH', `/v1/collections/${open.id}`, { token: admin.token, body: { defaultLevel: 'create' } })).statusCode).toBe(200);
    const before = await snapshot(t, organizationId);

    for (const role of ['review', 'edit', 'comment', 'read'] as const) {
      const user = await member(role);
      expectError(await t.call('POST', `/v1/orgs/${organizationId}/collections`, { token: user.token, body: {} }), 403);
    }
    const guest = await member(null);
    expectError(await t.call('POST', `/v1/orgs/${organizationId}/collections`, { token: guest.token, body: {} }), 403);
    const creator = await member('create');
    expectError(await t.call('POST', `/v1/orgs/${organizationId}/collections`, { token: creator.token, body: { parent: restricted.id } }), 403);
    const stranger = await buildUser(t.database);
    expectError(await t.call('POST', `/v1/orgs/${organizationId}/collections`, { token: stranger.token, body: {} }), 404);
    expectError(await t.call('POST', `/v1/orgs/${organizationId}/collections`, { body: {} }), 401);
    expect(await snapshot(t, organizationId)).toEqual(before);

    const created = await collection({ title: 'By a creator' }, creator.token);
    expect(created.permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: true });
    const reader = await member('read');
    const inside = await collection({ parent: open.id }, reader.token);
    expect(inside.parent).toBe(open.id);
  });
});

describe('GET /v1/orgs/{organizationId}/collections', () => {
  async function tree() {
    const context = await setup();
    const a = await context.collection({ title: 'A' });
    const b = await context.collection({ title: 'B' });
    const a1 = await context.collection({ title: 'A1', parent: a.id });
    const a1x = await context.collection({ title: 'A1x', parent: a1.id });
    const c = await context.collection({ title: 'C' });
    await setCreatedAt('collection', [a.id, b.id, a1.id, a1x.id, c.id]);
    return { ...context, a, b, c, a1, a1x };
  }

  it('lists nested collections too by default, oldest first, through the official client', async () => {
    const { organizationId, admin, a, b, c, a1, a1x } = await tree();
    const { data } = await official(admin).orgs.listCollectionsInOrganizationById(organizationId);
    expectMatchesSchema('GET', ORG_COLLECTIONS, 200, data);
    expect(data.count).toBe(5);
    expect(data.next).toBeUndefined();
    expect(itemIds(data)).toEqual([a.id, b.id, a1.id, a1x.id, c.id]);
    expect(data.items.find((item) => item.id === a1x.id)).toMatchObject({ parent: a1.id, title: 'A1x' });
    const explicit = await t.call('GET', `/v1/orgs/${organizationId}/collections?nested=true`, { token: admin.token });
    expect(explicit.json()).toEqual(data);
  });

  it('lists only the top level in sibling order with nested=false, and keeps the order after moves', async () => {
    const { organizationId, admin, a, b, c } = await tree();
    const api = official(admin);
    const { data } = await api.orgs.listCollectionsInOrganizationById(organizationId, { nested: false });
    expectMatchesSchema('GET', ORG_COLLECTIONS, 200, data);
    expect(data.count).toBe(3);
    expect(itemIds(data)).toEqual([a.id, b.id, c.id]);
    await api.collections.moveCollection(c.id, { position: { before: { type: 'collection', collection: a.id } } });
    for (let round = 0; round < 2; round += 1) {
      const again = await api.orgs.listCollectionsInOrganizationById(organizationId, { nested: false });
      expect(itemIds(again.data)).toEqual([c.id, a.id, b.id]);
    }
  });

  it('pages with limit and next.page, covering every collection exactly once', async () => {
    const { organizationId, admin, a, b, c, a1, a1x } = await tree();
    const nested = await listAll(t, `/v1/orgs/${organizationId}/collections`, admin.token, 2);
    expect(nested.seen).toEqual([a.id, b.id, a1.id, a1x.id, c.id]);
    expect(nested.rounds).toBe(3);
    expect(new Set(nested.counts)).toEqual(new Set([5]));
    const top = await listAll(t, `/v1/orgs/${organizationId}/collections?nested=false`, admin.token, 1);
    expect(top.seen).toEqual([a.id, b.id, c.id]);
    expect(top.rounds).toBe(3);
    const exact = await listAll(t, `/v1/orgs/${organizationId}/collections?nested=false`, admin.token, 3);
    expect(exact.rounds).toBe(1);

    let page: string | undefined;
    const seen: string[] = [];
    const api = official(admin);
    do {
      const { data } = await api.orgs.listCollectionsInOrganizationById(organizationId, { limit: 2, ...(page ? { page } : {}) });
      expectMatchesSchema('GET', ORG_COLLECTIONS, 200, data);
      seen.push(...itemIds(data));
      page = data.next?.page;
    } while (page);
    expect(seen).toEqual(nested.seen);
  });

  it('rejects bad paging parameters', async () => {
    const { organizationId, admin, space } = await tree();
    const url = `/v1/orgs/${organizationId}/collections`;
    expectError(await t.call('GET', `${url}?limit=1001`, { token: admin.token }), 400, /^limit: /);
    expectError(await t.call('GET', `${url}?limit=-1`, { token: admin.token }), 400, /^limit: /);
    expectError(await t.call('GET', `${url}?limit=two`, { token: admin.token }), 400, /^limit: /);
    expect((await t.call('GET', `${url}?limit=1000`, { token: admin.token })).statusCode).toBe(200);
    expectError(await t.call('GET', `${url}?page=garbage`, { token: admin.token }), 400, /^page: /);
    expectError(await t.call('GET', `${url}?nested=maybe`, { token: admin.token }), 400, /^nested: /);
    // A token of the nested listing is not one of the top-level listing, nor one of the spaces listing.
    const nested = (await t.call('GET', `${url}?limit=1`, { token: admin.token })).json();
    expectError(await t.call('GET', `${url}?nested=false&page=${nested.next.page}`, { token: admin.token }), 400, /^page: /);
    await space();
    await space();
    const spaces = (await t.call('GET', `/v1/orgs/${organizationId}/spaces?limit=1`, { token: admin.token })).json();
    expectError(await t.call('GET', `${url}?page=${spaces.next.page}`, { token: admin.token }), 400, /^page: /);
  });

  it('shows collections to every non-guest member, to a guest only those granted to it, and hides the organization from strangers', async () => {
    const { organizationId, member } = await tree();
    const reader = await member('read');
    const listed = await t.call('GET', `/v1/orgs/${organizationId}/collections`, { token: reader.token });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().count).toBe(5);
    expect(listed.json().items[0].permissions).toEqual({ view: true, admin: false, viewInviteLinks: false, create: false });
    const guest = await member(null);
    // A guest sees only what its grants reach: nothing until then.
    const asGuest = await t.call('GET', `/v1/orgs/${organizationId}/collections`, { token: guest.token });
    expect([asGuest.statusCode, asGuest.json().items]).toEqual([200, []]);
    const stranger = await buildUser(t.database);
    expectError(await t.call('GET', `/v1/orgs/${organizationId}/collections`, { token: stranger.token }), 404);
    expectError(await t.call('GET', `/v1/orgs/${organizationId}/collections`), 401);
  });
});

describe('PATCH /v1/collections/{collectionId}', () => {
  it('updates title, description and default level through the official client', async () => {
    const { admin, collection } = await setup();
    const created = await collection({ title: 'Before' });
    const api = official(admin);
    const { data } = await api.collections.updateCollectionById(created.id, {
      title: 'After',
      description: 'Everything about onboarding',
      defaultLevel: MemberRole.Edit,
    });
    expectMatchesSchema('PATCH', COLLECTION, 200, data);
    expect(data).toMatchObject({ id: created.id, title: 'After', description: 'Everything about onboarding', defaultLevel: 'edit' });
    expect(await t.database.db.collection.findUnique({ where: { id: created.id } })).toMatchObject({
      title: 'After',
      description: 'Everything about onboarding',
      defaultLevel: 'edit',
    });
    expect((await api.collections.getCollectionById(created.id)).data).toEqual(data);

    // Fields left out are kept; null gives the default level back to inheritance.
    const reset = await api.collections.updateCollectionById(created.id, { defaultLevel: null });
    expect(reset.data).toMatchObject({ title: 'After', description: 'Everything about onboarding', defaultLevel: null });
    expect(await t.database.db.collection.findUnique({ where: { id: created.id } })).toMatchObject({ title: 'After', defaultLevel: null });
  });

  it('rejects bad input and changes nothing', async () => {
    const { organizationId, admin, collection } = await setup();
    const created = await collection({ title: 'Stable' });
    const before = await snapshot(t, organizationId);
    for (const [body, message] of [
      [{ title: 'x'.repeat(51) }, /^title: /],
      [{ description: 'x'.repeat(101) }, /^description: /],
      [{ defaultLevel: 'owner' }, /^defaultLevel: /],
      [{ parent: null }, /unknown field "parent"/],
      [{ emoji: '📘' }, /unknown field "emoji"/],
    ] as const) {
      expectError(await t.call('PATCH', `/v1/collections/${created.id}`, { token: admin.token, body }), 400, message);
    }
    expect(await snapshot(t, organizationId)).toEqual(before);
  });

  it('needs admin on the collection', async () => {
    const { organizationId, member, collection } = await setup();
    const created = await collection({ title: 'Stable' });
    const before = await snapshot(t, organizationId);
    for (const role of ['create', 'review', 'edit', 'comment', 'read'] as const) {
      const user = await member(role);
      expectError(await t.call('PATCH', `/v1/collections/${created.id}`, { token: user.token, body: { title: 'Nope' } }), 403);
    }
    const guest = await member(null);
    expectError(await t.call('PATCH', `/v1/collections/${created.id}`, { token: guest.token, body: { title: 'Nope' } }), 404);
    const stranger = await buildUser(t.database);
    expectError(await t.call('PATCH', `/v1/collections/${created.id}`, { token: stranger.token, body: { title: 'Nope' } }), 404);
    expectError(await t.call('PATCH', `/v1/collections/${created.id}`, { body: { title: 'Nope' } }), 401);
    expect(await snapshot(t, organizationId)).toEqual(before);
  });
});

describe('DELETE /v1/collections/{collectionId}', () => {
  it('answers 205, removes the collections below and deletes their spaces restorably', async () => {
    const { organizationId, admin, collection, space } = await setup();
    const top = await collection({ title: 'Top' });
    const middle = await collection({ title: 'Middle', parent: top.id });
    const bottom = await collection({ title: 'Bottom', parent: middle.id });
    const sibling = await collection({ title: 'Sibling' });
    const inTop = await space({ title: 'In top', parent: top.id });
    const inMiddle = await space({ title: 'In middle', parent: middle.id });
    const inBottom = await space({ title: 'In bottom', parent: bottom.id });
    const inSibling = await space({ title: 'In sibling', parent: sibling.id });
    const loose = await space({ title: 'Top level' });

    const response = await t.call('DELETE', `/v1/collections/${top.id}`, { token: admin.token });
    expect(response.statusCode).toBe(205);
    expect(response.body).toBe('');

    const { db } = t.database;
    expect(await db.collection.count({ where: { id: { in: [top.id, middle.id, bottom.id] } } })).toBe(0);
    for (const id of [top.id, middle.id, bottom.id]) {
      expectError(await t.call('GET', `/v1/collections/${id}`, { token: admin.token }), 404);
    }
    const deleted = await db.space.findMany({ where: { id: { in: [inTop.id, inMiddle.id, inBottom.id] } } });
    expect(deleted).toHaveLength(3);
    for (const row of deleted) {
      expect(row.deletedAt).toBeInstanceOf(Date);
      expect(row.parentId).toBeNull();
    }
    // Untouched: the sibling collection, its space, the top-level space.
    expect(await db.collection.findUnique({ where: { id: sibling.id } })).not.toBeNull();
    expect(await db.space.findUnique({ where: { id: inSibling.id } })).toMatchObject({ deletedAt: null, parentId: sibling.id });
    expect(await db.space.findUnique({ where: { id: loose.id } })).toMatchObject({ deletedAt: null });

    const listed = await t.call('GET', `/v1/orgs/${organizationId}/spaces`, { token: admin.token });
    expect(itemIds(listed.json()).sort()).toEqual([inSibling.id, loose.id].sort());
    expect(listed.json().count).toBe(2);
    const collections = await t.call('GET', `/v1/orgs/${organizationId}/collections`, { token: admin.token });
    expect(itemIds(collections.json())).toEqual([sibling.id]);

    const shown = await t.call('GET', `/v1/spaces/${inBottom.id}`, { token: admin.token });
    expect(shown.statusCode).toBe(200);
    expect(shown.json().deletedAt).toBe(deleted.find((row) => row.id === inBottom.id)!.deletedAt!.toISOString());
    expect(shown.json().parent).toBeUndefined();

    // Restorable: they come back at the end of the top level.
    for (const restored of [inTop, inMiddle, inBottom]) {
      const back = await t.call('POST', `/v1/spaces/${restored.id}/restore`, { token: admin.token });
      expect(back.statusCode, back.body).toBe(200);
      expect(back.json().deletedAt).toBeUndefined();
      expect(back.json().parent).toBeUndefined();
    }
    expect(await siblings(t, organizationId, null)).toEqual([sibling.id, loose.id, inTop.id, inMiddle.id, inBottom.id]);
    expect((await t.call('GET', `/v1/orgs/${organizationId}/spaces`, { token: admin.token })).json().count).toBe(5);
  });

  it('needs admin on everything below: an admin through defaultLevel cannot take a restricted sub-collection along', async () => {
    const { organizationId, admin, member, collection, space } = await setup();
    const editor = await member('edit');
    const patch = (id: string, body: Json) => t.call('PATCH', `/v1/collections/${id}`, { token: admin.token, body });
    const top = await collection({ title: 'Open to all' });
    expect((await patch(top.id, { defaultLevel: 'admin' })).statusCode).toBe(200);
    const restricted = await collection({ title: 'Restricted', parent: top.id });
    expect((await patch(restricted.id, { defaultLevel: 'read' })).statusCode).toBe(200);
    const inside = await space({ title: 'Inside', parent: restricted.id });
    const other = await buildOrganization(t.database);
    await addMember(t.database, other.id, editor, 'admin');

    // The editor administers the top collection, but only reads what is below it.
    expect((await t.call('GET', `/v1/collections/${top.id}`, { token: editor.token })).json().permissions.admin).toBe(true);
    const before = await snapshot(t, organizationId, other.id);
    expectError(await t.call('DELETE', `/v1/collections/${top.id}`, { token: editor.token }), 403, /not an admin of everything it contains/);
    expectError(
      await t.call('POST', `/v1/collections/${top.id}/transfer`, { token: editor.token, body: { organization: other.id } }),
      403,
      /not an admin of everything it contains/,
    );
    expect(await snapshot(t, organizationId, other.id)).toEqual(before);
    expect((await t.database.db.space.findUnique({ where: { id: inside.id } }))!.deletedAt).toBeNull();
  });

  it('goes through the official client and takes the time from the server clock', async () => {
    const { admin, collection, space } = await setup();
    const created = await collection();
    const inside = await space({ parent: created.id });
    const earlier = await space({ parent: created.id });
    // A space deleted three days ago keeps its deletion time (and so its retention).
    travel(-3 * DAY);
    expect((await t.call('DELETE', `/v1/spaces/${earlier.id}`, { token: admin.token })).statusCode).toBe(205);
    travel(3 * DAY);
    const earlierDeletedAt = (await t.database.db.space.findUnique({ where: { id: earlier.id } }))!.deletedAt!;
    expect(earlierDeletedAt.getTime()).toBeLessThan(Date.now() - 2 * DAY);

    travel(-2 * DAY);
    const response = await official(admin).collections.deleteCollectionById(created.id);
    expect(response.status).toBe(205);
    travel(2 * DAY);
    const row = await t.database.db.space.findUnique({ where: { id: inside.id } });
    expect(row!.deletedAt!.getTime()).toBeLessThan(Date.now() - DAY);
    expect((await t.database.db.space.findUnique({ where: { id: earlier.id } }))!.deletedAt).toEqual(earlierDeletedAt);

    // Five days later the space deleted with the collection (7 days minus a minute ago) can be restored;
    // a day later the one deleted three days before the collection (9 days ago) can no longer be.
    travel(5 * DAY - 60_000);
    expect((await t.call('POST', `/v1/spaces/${inside.id}/restore`, { token: admin.token })).statusCode).toBe(200);
    travel(DAY);
    expectError(await t.call('POST', `/v1/spaces/${earlier.id}/restore`, { token: admin.token }), 409);
  });

  it('needs admin on the collection and changes nothing otherwise', async () => {
    const { organizationId, member, collection, space } = await setup();
    const created = await collection();
    await space({ parent: created.id });
    await collection({ parent: created.id });
    const before = await snapshot(t, organizationId);
    for (const role of ['create', 'review', 'edit', 'comment', 'read'] as const) {
      const user = await member(role);
      expectError(await t.call('DELETE', `/v1/collections/${created.id}`, { token: user.token }), 403);
    }
    const stranger = await buildUser(t.database);
    expectError(await t.call('DELETE', `/v1/collections/${created.id}`, { token: stranger.token }), 404);
    await expectOfficialError(official(stranger).collections.deleteCollectionById(created.id), 404);
    expectError(await t.call('DELETE', `/v1/collections/${created.id}`), 401);
    expect(await snapshot(t, organizationId)).toEqual(before);
  });
});

describe('GET /v1/collections/{collectionId}/spaces', () => {
  it('lists the spaces directly inside, in sibling order, through the official client', async () => {
    const { admin, collection, space } = await setup();
    const parent = await collection();
    const child = await collection({ parent: parent.id });
    const first = await space({ title: 'First', parent: parent.id });
    const second = await space({ title: 'Second', parent: parent.id });
    const third = await space({ title: 'Third', parent: parent.id });
    await space({ title: 'Nested deeper', parent: child.id });
    await space({ title: 'Top level' });
    const gone = await space({ title: 'Deleted', parent: parent.id });
    expect((await t.call('DELETE', `/v1/spaces/${gone.id}`, { token: admin.token })).statusCode).toBe(205);

    const api = official(admin);
    const { data } = await api.collections.listSpacesInCollectionById(parent.id);
    expectMatchesSchema('GET', COLLECTION_SPACES, 200, data);
    expect(data.count).toBe(3);
    expect(itemIds(data)).toEqual([first.id, second.id, third.id]);
    expect(data.items[0]).toEqual(first);

    await api.spaces.moveSpace(third.id, { position: { after: { type: 'space', space: first.id } } });
    for (let round = 0; round < 2; round += 1) {
      const again = await api.collections.listSpacesInCollectionById(parent.id);
      expect(itemIds(again.data)).toEqual([first.id, third.id, second.id]);
    }
  });

  it('pages with next.page and rejects bad paging parameters', async () => {
    const { organizationId, admin, collection, space } = await setup();
    const parent = await collection();
    const made: string[] = [];
    for (let index = 0; index < 5; index += 1) made.push((await space({ parent: parent.id })).id);
    const url = `/v1/collections/${parent.id}/spaces`;
    const all = await listAll(t, url, admin.token, 2);
    expect(all.seen).toEqual(made);
    expect(all.rounds).toBe(3);
    expect(new Set(all.counts)).toEqual(new Set([5]));

    expectError(await t.call('GET', `${url}?limit=1001`, { token: admin.token }), 400, /^limit: /);
    expectError(await t.call('GET', `${url}?page=%7B%7D`, { token: admin.token }), 400, /^page: /);
    expectError(await t.call('GET', `${url}?page=garbage`, { token: admin.token }), 400, /^page: /);
    const other = (await t.call('GET', `/v1/orgs/${organizationId}/spaces?limit=1`, { token: admin.token })).json();
    expectError(await t.call('GET', `${url}?page=${other.next.page}`, { token: admin.token }), 400, /^page: /);
  });

  it('is visible to members, a 404 to strangers and for unknown collections', async () => {
    const { admin, member, collection, space } = await setup();
    const parent = await collection();
    const inside = await space({ parent: parent.id });
    const reader = await member('read');
    const listed = await t.call('GET', `/v1/collections/${parent.id}/spaces`, { token: reader.token });
    expect(listed.statusCode).toBe(200);
    expect(itemIds(listed.json())).toEqual([inside.id]);
    expect(listed.json().items[0].permissions).toMatchObject({ view: true, admin: false, edit: false });
    const stranger = await buildUser(t.database);
    expectError(await t.call('GET', `/v1/collections/${parent.id}/spaces`, { token: stranger.token }), 404);
    expectError(await t.call('GET', '/v1/collections/col_missing/spaces', { token: admin.token }), 404);
    expectError(await t.call('GET', `/v1/collections/${parent.id}/spaces`), 401);
  });
});

describe('POST /v1/collections/{collectionId}/move', () => {
  it('reorders top-level collections, with stable order in the listing', async () => {
    const { organizationId, admin, collection } = await setup();
    const a = await collection({ title: 'A' });
    const b = await collection({ title: 'B' });
    const c = await collection({ title: 'C' });
    const api = official(admin);
    const order = async () => itemIds((await api.orgs.listCollectionsInOrganizationById(organizationId, { nested: false })).data);

    const { data } = await api.collections.moveCollection(c.id, { position: { before: { type: 'collection', collection: a.id } } });
    expectMatchesSchema('POST', MOVE, 200, data);
    expect(data).toMatchObject({ id: c.id, title: 'C', organization: organizationId });
    expect(data.parent).toBeUndefined();
    expect(await order()).toEqual([c.id, a.id, b.id]);

    await api.collections.moveCollection(c.id, { position: { after: { type: 'collection', collection: b.id } } });
    expect(await order()).toEqual([a.id, b.id, c.id]);

    await api.collections.moveCollection(a.id, {
      position: { after: { type: 'collection', collection: b.id }, before: { type: 'collection', collection: c.id } },
    });
    expect(await order()).toEqual([b.id, a.id, c.id]);
    expect(await order()).toEqual([b.id, a.id, c.id]);

    // Only the moved row is written.
    const rows = await t.database.db.collection.findMany({ where: { id: { in: [b.id, c.id] } }, orderBy: { id: 'asc' } });
    await api.collections.moveCollection(b.id, { position: { after: { type: 'collection', collection: c.id } } });
    const after = await t.database.db.collection.findMany({ where: { id: { in: [b.id, c.id] } }, orderBy: { id: 'asc' } });
    expect(after.find((row) => row.id === c.id)).toEqual(rows.find((row) => row.id === c.id));
    expect(await order()).toEqual([a.id, c.id, b.id]);
  });

  it('places collections between spaces of the same parent', async () => {
    const { organizationId, admin, collection, space } = await setup();
    const moving = await collection({ title: 'Moving' });
    const s1 = await space({ title: 'S1' });
    const s2 = await space({ title: 'S2' });
    const other = await collection({ title: 'Other' });
    expect(await siblings(t, organizationId, null)).toEqual([moving.id, s1.id, s2.id, other.id]);

    const response = await t.call('POST', `/v1/collections/${moving.id}/move`, {
      token: admin.token,
      body: { position: { after: { type: 'space', space: s1.id } } },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await siblings(t, organizationId, null)).toEqual([s1.id, moving.id, s2.id, other.id]);

    await official(admin).collections.moveCollection(moving.id, { position: { before: { type: 'space', space: s1.id } } });
    expect(await siblings(t, organizationId, null)).toEqual([moving.id, s1.id, s2.id, other.id]);

    await official(admin).collections.moveCollection(moving.id, {
      position: { after: { type: 'space', space: s2.id }, before: { type: 'collection', collection: other.id } },
    });
    expect(await siblings(t, organizationId, null)).toEqual([s1.id, s2.id, moving.id, other.id]);
  });

  it('moves under another parent (at the end, or at a position) and back to the top level', async () => {
    const { organizationId, admin, collection, space } = await setup();
    const target = await collection({ title: 'Target' });
    const first = await space({ parent: target.id });
    const last = await collection({ parent: target.id });
    const moving = await collection({ title: 'Moving' });
    const inside = await space({ parent: moving.id });
    const api = official(admin);

    const { data } = await api.collections.moveCollection(moving.id, { parent: target.id });
    expectMatchesSchema('POST', MOVE, 200, data);
    expect(data.parent).toBe(target.id);
    expect(await t.database.db.collection.findUnique({ where: { id: moving.id } })).toMatchObject({ parentId: target.id });
    expect(await siblings(t, organizationId, target.id)).toEqual([first.id, last.id, moving.id]);
    // Its content comes along.
    expect(await t.database.db.space.findUnique({ where: { id: inside.id } })).toMatchObject({ parentId: moving.id });
    const top = await api.orgs.listCollectionsInOrganizationById(organizationId, { nested: false });
    expect(itemIds(top.data)).toEqual([target.id]);

    await api.collections.moveCollection(moving.id, {
      parent: target.id,
      position: { before: { type: 'space', space: first.id } },
    });
    expect(await siblings(t, organizationId, target.id)).toEqual([moving.id, first.id, last.id]);

    const back = await api.collections.moveCollection(moving.id, { parent: null });
    expect(back.data.parent).toBeUndefined();
    expect(await t.database.db.collection.findUnique({ where: { id: moving.id } })).toMatchObject({ parentId: null });
    expect(await siblings(t, organizationId, null)).toEqual([target.id, moving.id]);
    expect(await siblings(t, organizationId, target.id)).toEqual([first.id, last.id]);
  });

  it('rejects moves into itself or a descendant, unknown or foreign siblings and parents, and empty bodies, changing nothing', async () => {
    const { organizationId, admin, collection, space } = await setup();
    const elsewhere = await buildOrganization(t.database);
    await addMember(t.database, elsewhere.id, admin, 'admin');
    const foreign = (await t.call('POST', `/v1/orgs/${elsewhere.id}/collections`, { token: admin.token, body: {} })).json();
    const moving = await collection({ title: 'Moving' });
    const child = await collection({ parent: moving.id });
    const grandchild = await collection({ parent: child.id });
    const other = await collection({ title: 'Other' });
    const nested = await space({ parent: other.id });
    const topSpace = await space();
    const deleted = await space();
    expect((await t.call('DELETE', `/v1/spaces/${deleted.id}`, { token: admin.token })).statusCode).toBe(205);
    const before = await snapshot(t, organizationId, elsewhere.id);

    const cases: Array<[unknown, RegExp | string]> = [
      [{ parent: moving.id }, 'parent: a collection cannot be moved into itself or one of its descendants'],
      [{ parent: child.id }, 'parent: a collection cannot be moved into itself or one of its descendants'],
      [{ parent: grandchild.id }, 'parent: a collection cannot be moved into itself or one of its descendants'],
      [{ parent: 'col_missing' }, /^parent: /],
      [{ parent: foreign.id }, /^parent: /],
      [{ position: { before: { type: 'collection', collection: 'col_missing' } } }, /^position\.before: /],
      [{ position: { after: { type: 'space', space: 'spc_missing' } } }, /^position\.after: /],
      // A sibling under another parent, the moving collection itself, a deleted space.
      [{ position: { after: { type: 'space', space: nested.id } } }, /^position\.after: /],
      [{ position: { before: { type: 'collection', collection: moving.id } } }, /^position\.before: /],
      [{ position: { after: { type: 'space', space: deleted.id } } }, /^position\.after: /],
      [{ parent: other.id, position: { after: { type: 'space', space: topSpace.id } } }, /^position\.after: /],
      [{ position: { after: { type: 'space', space: topSpace.id }, before: { type: 'collection', collection: other.id } } }, /^position: /],
      [{ position: { after: { type: 'folder', folder: other.id } } }, /^position\.after/],
      [{}, /parent: set parent, position or both/],
      [{ parent: other.id, color: 'red' }, /unknown field "color"/],
    ];
    for (const [body, message] of cases) {
      const response = await t.call('POST', `/v1/collections/${moving.id}/move`, { token: admin.token, body });
      expectError(response, 400, message);
    }
    await expectOfficialError(official(admin).collections.moveCollection(moving.id, { parent: grandchild.id }), 400);
    expect(await snapshot(t, organizationId, elsewhere.id)).toEqual(before);
  });

  it('needs admin on the collection and create where it goes', async () => {
    const { organizationId, admin, member, collection } = await setup();
    const moving = await collection({ title: 'Moving' });
    const target = await collection({ title: 'Target' });
    const before = await snapshot(t, organizationId);
    for (const role of ['create', 'review', 'edit', 'comment', 'read'] as const) {
      const user = await member(role);
      expectError(await t.call('POST', `/v1/collections/${moving.id}/move`, { token: user.token, body: { parent: target.id } }), 403);
    }
    const stranger = await buildUser(t.database);
    expectError(await t.call('POST', `/v1/collections/${moving.id}/move`, { token: stranger.token, body: { parent: null } }), 404);
    expectError(await t.call('POST', `/v1/collections/${moving.id}/move`, { body: { parent: null } }), 401);
    expect(await snapshot(t, organizationId)).toEqual(before);

    // An edit member is admin of a collection whose default level is admin: it may reorder it
    // inside its parent, but not take it to the top level, where it cannot create.
    const editor = await member('edit');
    const container = await collection({ title: 'Container' });
    const sibling = await collection({ parent: container.id });
    const delegated = await collection({ title: 'Delegated', parent: container.id });
    const patched = await t.call('PATCH', `/v1/collections/${delegated.id}`, { token: admin.token, body: { defaultLevel: 'admin' } });
    expect(patched.statusCode).toBe(200);
    const reordered = await t.call('POST', `/v1/collections/${delegated.id}/move`, {
      token: editor.token,
      body: { position: { before: { type: 'collection', collection: sibling.id } } },
    });
    expect(reordered.statusCode, reordered.body).toBe(200);
    expect(await siblings(t, organizationId, container.id)).toEqual([delegated.id, sibling.id]);
    const unchanged = await snapshot(t, organizationId);
    expectError(await t.call('POST', `/v1/collections/${delegated.id}/move`, { token: editor.token, body: { parent: null } }), 403);
    expect(await snapshot(t, organizationId)).toEqual(unchanged);
  });
});

describe('POST /v1/collections/{collectionId}/transfer', () => {
  async function twoOrganizations() {
    const context = await setup();
    const target = await buildOrganization(t.database, 'Target');
    await addMember(t.database, target.id, context.admin, 'admin');
    return { ...context, targetId: target.id };
  }

  it('moves the whole subtree with its spaces to the top level of the target, dropping custom field values', async () => {
    const { organizationId, targetId, admin, collection, space, customField } = await twoOrganizations();
    const existing = (await t.call('POST', `/v1/orgs/${targetId}/spaces`, { token: admin.token, body: {} })).json();
    const outer = await collection({ title: 'Outer' });
    const top = await collection({ title: 'Top', parent: outer.id });
    const child = await collection({ title: 'Child', parent: top.id });
    const inTop = await space({ parent: top.id });
    const inChild = await space({ parent: child.id });
    const removed = await space({ parent: child.id });
    const staying = await space({ parent: outer.id });
    const field = await customField('owner');
    await field.set(inTop.id, 'alice');
    await field.set(inChild.id, 'bob');
    await field.set(staying.id, 'carol');
    expect((await t.call('DELETE', `/v1/spaces/${removed.id}`, { token: admin.token })).statusCode).toBe(205);

    const { data } = await official(admin).collections.transferCollection(top.id, { organization: targetId });
    expectMatchesSchema('POST', TRANSFER, 200, data);
    expect(data).toMatchObject({ id: top.id, organization: targetId, title: 'Top', permissions: { admin: true } });
    expect(data.parent).toBeUndefined();

    const { db } = t.database;
    expect(await db.collection.findUnique({ where: { id: top.id } })).toMatchObject({ organizationId: targetId, parentId: null });
    expect(await db.collection.findUnique({ where: { id: child.id } })).toMatchObject({ organizationId: targetId, parentId: top.id });
    expect(await db.space.findUnique({ where: { id: inTop.id } })).toMatchObject({ organizationId: targetId, parentId: top.id });
    expect(await db.space.findUnique({ where: { id: inChild.id } })).toMatchObject({ organizationId: targetId, parentId: child.id });
    expect(await db.space.findUnique({ where: { id: removed.id } })).toMatchObject({ organizationId: targetId });
    expect(await db.spaceCustomFieldValue.count({ where: { spaceId: { in: [inTop.id, inChild.id] } } })).toBe(0);
    // What stays behind is untouched.
    expect(await db.collection.findUnique({ where: { id: outer.id } })).toMatchObject({ organizationId });
    expect(await db.space.findUnique({ where: { id: staying.id } })).toMatchObject({ organizationId, parentId: outer.id });
    expect(await db.spaceCustomFieldValue.findMany({ where: { spaceId: staying.id } })).toMatchObject([{ customFieldId: field.id, value: 'carol' }]);

    expect(await siblings(t, targetId, null)).toEqual([existing.id, top.id]);
    const targetCollections = await t.call('GET', `/v1/orgs/${targetId}/collections`, { token: admin.token });
    expect(itemIds(targetCollections.json()).sort()).toEqual([top.id, child.id].sort());
    const sourceCollections = await t.call('GET', `/v1/orgs/${organizationId}/collections`, { token: admin.token });
    expect(itemIds(sourceCollections.json())).toEqual([outer.id]);
    const targetSpaces = await t.call('GET', `/v1/orgs/${targetId}/spaces`, { token: admin.token });
    expect(itemIds(targetSpaces.json()).sort()).toEqual([existing.id, inTop.id, inChild.id].sort());
    const shown = await t.call('GET', `/v1/spaces/${inChild.id}`, { token: admin.token });
    expect(shown.json()).toMatchObject({ organization: targetId, parent: child.id });
    const values = await t.call('GET', `/v1/spaces/${inChild.id}/custom-fields`, { token: admin.token });
    expect(values.json()).toEqual([]);
  });

  it('refuses a target the caller does not administer (403), an unknown one (400) and its own organization (400)', async () => {
    const { organizationId, targetId, admin, member, collection, space } = await twoOrganizations();
    const moving = await collection();
    await space({ parent: moving.id });
    const notAdministered = await buildOrganization(t.database);
    await addMember(t.database, notAdministered.id, admin, 'create');
    const foreign = await buildOrganization(t.database);
    const before = await snapshot(t, organizationId, targetId, notAdministered.id, foreign.id);

    expectError(await t.call('POST', `/v1/collections/${moving.id}/transfer`, { token: admin.token, body: { organization: notAdministered.id } }), 403);
    await expectOfficialError(official(admin).collections.transferCollection(moving.id, { organization: notAdministered.id }), 403);
    for (const [body, message] of [
      [{ organization: 'org_missing' }, 'organization: organization "org_missing" was not found'],
      [{ organization: foreign.id }, `organization: organization "${foreign.id}" was not found`],
      [{ organization: organizationId }, /^organization: /],
      [{}, 'organization: is required'],
      [{ organization: targetId, parent: null }, /unknown field "parent"/],
    ] as const) {
      expectError(await t.call('POST', `/v1/collections/${moving.id}/transfer`, { token: admin.token, body }), 400, message);
    }
    // Only admins of the collection may transfer it, even to an organization they administer.
    const creator = await member('create');
    await addMember(t.database, targetId, creator, 'admin');
    expectError(await t.call('POST', `/v1/collections/${moving.id}/transfer`, { token: creator.token, body: { organization: targetId } }), 403);
    const stranger = await buildUser(t.database);
    expectError(await t.call('POST', `/v1/collections/${moving.id}/transfer`, { token: stranger.token, body: { organization: targetId } }), 404);
    expectError(await t.call('POST', `/v1/collections/${moving.id}/transfer`, { body: { organization: targetId } }), 401);
    expect(await snapshot(t, organizationId, targetId, notAdministered.id, foreign.id)).toEqual(before);
  });
});

describe('permissions on collections', () => {
  const roles: Role[] = ['create', 'review', 'edit', 'comment', 'read'];

  it('lets every non-admin role read, and only admins change', async () => {
    const { organizationId, admin, member, collection } = await setup();
    const target = await buildOrganization(t.database);
    const subject = await collection({ title: 'Subject' });
    const parent = await collection({ title: 'Parent' });
    const before = await snapshot(t, organizationId, target.id);
    for (const role of roles) {
      const user = await member(role);
      await addMember(t.database, target.id, user, 'admin');
      const get = await t.call('GET', `/v1/collections/${subject.id}`, { token: user.token });
      expect(get.statusCode, role).toBe(200);
      expect(get.json().permissions, role).toEqual({ view: true, admin: false, viewInviteLinks: false, create: role === 'create' });
      expect((await t.call('GET', `/v1/orgs/${organizationId}/collections`, { token: user.token })).json().count, role).toBe(2);
      expect((await t.call('GET', `/v1/collections/${subject.id}/spaces`, { token: user.token })).statusCode, role).toBe(200);
      for (const [method, url, body] of [
        ['PATCH', `/v1/collections/${subject.id}`, { title: 'Changed' }],
        ['DELETE', `/v1/collections/${subject.id}`, undefined],
        ['POST', `/v1/collections/${subject.id}/move`, { parent: parent.id }],
        ['POST', `/v1/collections/${subject.id}/transfer`, { organization: target.id }],
      ] as const) {
        expectError(await t.call(method, url, { token: user.token, body }), 403, /^You are not allowed to /);
      }
    }
    expect(await snapshot(t, organizationId, target.id)).toEqual(before);
    expect((await t.call('PATCH', `/v1/collections/${subject.id}`, { token: admin.token, body: { title: 'Changed' } })).statusCode).toBe(200);
  });

  it("gives members the collection's default level on it and on the content below", async () => {
    const { organizationId, admin, member, collection, space } = await setup();
    const editor = await member('edit');
    const creator = await member('create');
    const delegated = await collection({ title: 'Delegated' });
    const inside = await space({ parent: delegated.id });
    const below = await collection({ parent: delegated.id });
    const deeper = await space({ parent: below.id });
    expect((await t.call('PATCH', `/v1/collections/${delegated.id}`, { token: admin.token, body: { defaultLevel: 'admin' } })).statusCode).toBe(200);

    const shown = await t.call('GET', `/v1/collections/${delegated.id}`, { token: editor.token });
    expect(shown.json().permissions).toEqual({ view: true, admin: true, viewInviteLinks: true, create: true });
    const renamed = await t.call('PATCH', `/v1/collections/${delegated.id}`, { token: editor.token, body: { title: 'Renamed' } });
    expect(renamed.statusCode, renamed.body).toBe(200);
    for (const id of [inside.id, deeper.id]) {
      const patched = await t.call('PATCH', `/v1/spaces/${id}`, { token: editor.token, body: { title: 'Edited by editor' } });
      expect(patched.statusCode, patched.body).toBe(200);
      expect(patched.json().permissions).toMatchObject({ admin: true, edit: true });
    }
    const created = await t.call('POST', `/v1/orgs/${organizationId}/spaces`, { token: editor.token, body: { parent: below.id } });
    expect(created.statusCode, created.body).toBe(201);

    // An explicit level on a sub-collection stops the inheritance, also downwards for a creator.
    expect((await t.call('PATCH', `/v1/collections/${below.id}`, { token: admin.token, body: { defaultLevel: 'read' } })).statusCode).toBe(200);
    const before = await snapshot(t, organizationId);
    expectError(await t.call('PATCH', `/v1/spaces/${deeper.id}`, { token: editor.token, body: { title: 'No' } }), 403);
    expectError(await t.call('POST', `/v1/orgs/${organizationId}/collections`, { token: creator.token, body: { parent: below.id } }), 403);
    expectError(await t.call('DELETE', `/v1/collections/${below.id}`, { token: editor.token }), 403);
    expect(await snapshot(t, organizationId)).toEqual(before);

    const deleted = await t.call('DELETE', `/v1/spaces/${inside.id}`, { token: editor.token });
    expect(deleted.statusCode, deleted.body).toBe(205);
    expect((await t.database.db.space.findUnique({ where: { id: inside.id } }))!.deletedAt).not.toBeNull();
  });
});
