import { MemberRole, type MergeRulesSpaceConfiguration, SpaceEditMode, TranslationLanguage } from '@gitbook/api';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Role } from '../../src/domain/access.ts';
import { purgeDeletedSpaces } from '../../src/domain/spaces/purge.ts';
import { startBackgroundWork } from '../../src/jobs/background.ts';
import { openJobQueue } from '../../src/jobs/open-queue.ts';
import { jobRunner } from '../support/jobs.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { DAY, timeTravel } from '../support/clock.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { addMember, buildOrganization, buildTeam, buildUser } from '../support/factories.ts';
import { expectError } from '../support/http.ts';
import { itemIds, listAll } from '../support/listings.ts';
import { type OfficialClient, expectOfficialError, officialClient } from '../support/official.ts';
import { siblings, snapshot, spaceRow } from '../support/rows.ts';
import { textCustomField } from '../support/world.ts';

let t: TestApp;
let official: OfficialClient;
beforeAll(async () => {
  t = await createTestApp();
  official = await officialClient(t);
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
      [{ title: '' }, /^title: Too small: expected string to have >=1 characters/],
      [{ title: ' \t ' }, /^title: must not be blank/],
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
    const api = official(admin);
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

// ---------------------------------------------------------------------------
// Updating, deleting, restoring, purging, duplicating, moving, transferring and
// listing spaces.
// ---------------------------------------------------------------------------

const SPACE = '/v1/spaces/{spaceId}';
const ORG_SPACES = '/v1/orgs/{organizationId}/spaces';

type Json = Record<string, any>;

/** Moves the server's clock; every test starts back at the real time. */
const travel = timeTravel(() => t);

/** An organization with an admin; creates content, custom fields and values as that admin over REST. */
async function content() {
  const context = await setup();
  const { organization, admin } = context;
  const collection = async (body: Json = {}): Promise<Json> => {
    const response = await t.call('POST', `/v1/orgs/${organization.id}/collections`, { token: admin.token, body });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  const patchCollection = async (id: string, body: Json) => {
    const response = await t.call('PATCH', `/v1/collections/${id}`, { token: admin.token, body });
    expect(response.statusCode, response.body).toBe(200);
  };
  const remove = async (id: string, token = admin.token) => {
    const response = await t.call('DELETE', `/v1/spaces/${id}`, { token });
    expect(response.statusCode, response.body).toBe(205);
  };
  const customField = (name: string) => textCustomField(t, organization.id, admin.token, name);
  return { ...context, organizationId: organization.id, collection, patchCollection, remove, customField };
}

/** Sets creation times so that "oldest first" listings have a known order. */
async function setCreatedAt(idsInOrder: string[]) {
  for (const [index, id] of idsInOrder.entries()) {
    await t.database.db.space.update({ where: { id }, data: { createdAt: new Date(Date.UTC(2020, 0, 1 + index)) } });
  }
}

const token = (values: unknown[]) => Buffer.from(JSON.stringify(values)).toString('base64url');

describe('PATCH /v1/spaces/{spaceId}', () => {
  it('updates title, emoji, edit mode, default level, language and merge rules through the official client', async () => {
    const { admin, create } = await setup();
    const space = await create({ title: 'Before', emoji: '📘' });
    const api = official(admin);
    const mergeRules: MergeRulesSpaceConfiguration = { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] };
    const { data } = await api.spaces.updateSpaceById(space.id, {
      title: 'After',
      emoji: '🚀',
      editMode: SpaceEditMode.Locked,
      defaultLevel: MemberRole.Read,
      language: TranslationLanguage.Fr,
      mergeRules,
    });
    expectMatchesSchema('PATCH', SPACE, 200, data);
    expect(data).toMatchObject({
      id: space.id,
      title: 'After',
      emoji: '🚀',
      editMode: 'locked',
      defaultLevel: 'read',
      language: 'fr',
      mergeRules,
      // Locked: nobody edits, not even an admin.
      permissions: { admin: true, edit: false },
    });
    expect(await spaceRow(t, space.id)).toMatchObject({
      title: 'After',
      emoji: '🚀',
      editMode: 'locked',
      defaultLevel: 'read',
      language: 'fr',
      mergeRules,
    });
    expect((await api.spaces.getSpaceById(space.id)).data).toEqual(data);

    // Fields left out are kept; null gives the default level back to inheritance.
    const reset = await api.spaces.updateSpaceById(space.id, { defaultLevel: null, editMode: SpaceEditMode.Live });
    expectMatchesSchema('PATCH', SPACE, 200, reset.data);
    expect(reset.data).toMatchObject({ title: 'After', emoji: '🚀', defaultLevel: null, editMode: 'live', language: 'fr' });
    expect(reset.data.permissions.edit).toBe(true);
    expect(await spaceRow(t, space.id)).toMatchObject({ defaultLevel: null, editMode: 'live', title: 'After' });
  });

  it('swaps emoji and icon, and removes them with null', async () => {
    const { admin, create } = await setup();
    const space = await create({ emoji: '📘' });
    const patch = (body: Json) => t.call('PATCH', `/v1/spaces/${space.id}`, { token: admin.token, body });

    const withIcon = await patch({ icon: 'https://example.test/icon.png' });
    expect(withIcon.statusCode, withIcon.body).toBe(200);
    expectMatchesSchema('PATCH', SPACE, 200, withIcon.json());
    expect(withIcon.json().urls.icon).toBe('https://example.test/icon.png');
    expect(withIcon.json().emoji).toBe('');
    expect(await spaceRow(t, space.id)).toMatchObject({ icon: 'https://example.test/icon.png', emoji: '' });

    const withEmoji = await patch({ emoji: '1f389' });
    expect(withEmoji.statusCode).toBe(200);
    expect(withEmoji.json().emoji).toBe('1f389');
    expect(withEmoji.json().urls.icon).toBeUndefined();
    expect(await spaceRow(t, space.id)).toMatchObject({ icon: null, emoji: '1f389' });

    const cleared = await patch({ emoji: null });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().emoji).toBe('');
    expect(await spaceRow(t, space.id)).toMatchObject({ icon: null, emoji: '' });

    await patch({ icon: 'https://example.test/other.png' });
    const noIcon = await patch({ icon: null });
    expect(noIcon.statusCode).toBe(200);
    expect(noIcon.json().urls.icon).toBeUndefined();
    expect(await spaceRow(t, space.id)).toMatchObject({ icon: null });
  });

  it('rejects bad input and changes nothing', async () => {
    const { organization, admin, create } = await setup();
    const space = await create({ title: 'Stable', emoji: '📘' });
    const before = await snapshot(t, organization.id);
    for (const [body, message] of [
      [{ title: 'x'.repeat(51) }, /^title: /],
      [{ title: null }, /^title: /],
      [{ title: '' }, /^title: Too small: expected string to have >=1 characters/],
      [{ title: '   ' }, /^title: must not be blank/],
      [{ emoji: 'not an emoji' }, /^emoji: must be an emoji/],
      [{ icon: 'not a url' }, /^icon: must be an absolute URL/],
      [{ emoji: '🚀', icon: 'https://example.test/icon.png' }, /^icon: set either emoji or icon, not both/],
      [{ editMode: 'frozen' }, /^editMode: /],
      [{ defaultLevel: 'owner' }, /^defaultLevel: /],
      [{ defaultLevel: 'inherit' }, /^defaultLevel: /],
      [{ language: 'klingon' }, /^language: /],
      [{ mergeRules: { type: 'sometimes' } }, /^mergeRules/],
      [{ mergeRules: { type: 'rules', rules: [{ rule: 'be_nice' }] } }, /^mergeRules/],
      [{ visibility: 'public' }, /unknown field "visibility"/],
      [{ color: 'red' }, /unknown field "color"/],
    ] as const) {
      expectError(await t.call('PATCH', `/v1/spaces/${space.id}`, { token: admin.token, body }), 400, message);
    }
    const malformed = await t.app.inject({
      method: 'PATCH',
      url: `/v1/spaces/${space.id}`,
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      payload: '{"title": ',
    });
    expectError(malformed, 400, 'body: is not valid JSON');
    expect(await snapshot(t, organization.id)).toEqual(before);
  });

  it('needs admin on the space, and the space not deleted', async () => {
    const { organization, admin, member, create } = await setup();
    const space = await create({ title: 'Stable' });
    const before = await snapshot(t, organization.id);
    for (const role of ['create', 'review', 'edit', 'comment', 'read'] as const) {
      const user = await member(role);
      expectError(await t.call('PATCH', `/v1/spaces/${space.id}`, { token: user.token, body: { title: 'Nope' } }), 403, /^You are not allowed to /);
    }
    const guest = await member(null);
    expectError(await t.call('PATCH', `/v1/spaces/${space.id}`, { token: guest.token, body: { title: 'Nope' } }), 404);
    const stranger = await buildUser(t.database);
    expectError(await t.call('PATCH', `/v1/spaces/${space.id}`, { token: stranger.token, body: { title: 'Nope' } }), 404);
    await expectOfficialError(official(stranger).spaces.updateSpaceById(space.id, { title: 'Nope' }), 404);
    expectError(await t.call('PATCH', `/v1/spaces/${space.id}`, { body: { title: 'Nope' } }), 401);
    expectError(await t.call('PATCH', '/v1/spaces/spc_missing', { token: admin.token, body: { title: 'Nope' } }), 404, 'Space "spc_missing" was not found');
    expect(await snapshot(t, organization.id)).toEqual(before);

    expect((await t.call('DELETE', `/v1/spaces/${space.id}`, { token: admin.token })).statusCode).toBe(205);
    const deleted = await snapshot(t, organization.id);
    expectError(await t.call('PATCH', `/v1/spaces/${space.id}`, { token: admin.token, body: { title: 'Nope' } }), 409, /is deleted/);
    await expectOfficialError(official(admin).spaces.updateSpaceById(space.id, { title: 'Nope' }), 409);
    expect(await snapshot(t, organization.id)).toEqual(deleted);
  });
});

describe('DELETE /v1/spaces/{spaceId}', () => {
  it('answers 205, sets deletedAt, hides the space from listings and still shows it', async () => {
    const { organizationId, admin, create, collection } = await content();
    const parent = await collection();
    const kept = await create({ title: 'Kept' });
    const space = await create({ title: 'Doomed', parent: parent.id });

    const response = await t.call('DELETE', `/v1/spaces/${space.id}`, { token: admin.token });
    expect(response.statusCode).toBe(205);
    expect(response.body).toBe('');
    const row = await spaceRow(t, space.id);
    expect(row!.deletedAt).toBeInstanceOf(Date);
    expect(row).toMatchObject({ parentId: parent.id, title: 'Doomed' });

    const listed = (await t.call('GET', `/v1/orgs/${organizationId}/spaces`, { token: admin.token })).json();
    expect(itemIds(listed)).toEqual([kept.id]);
    expect(listed.count).toBe(1);
    const inCollection = (await t.call('GET', `/v1/collections/${parent.id}/spaces`, { token: admin.token })).json();
    expect(inCollection).toEqual({ count: 0, items: [] });

    const shown = await official(admin).spaces.getSpaceById(space.id);
    expectMatchesSchema('GET', SPACE, 200, shown.data);
    expect(shown.data).toMatchObject({ id: space.id, title: 'Doomed', deletedAt: row!.deletedAt!.toISOString(), parent: parent.id });
    expect(await spaceRow(t, kept.id)).toMatchObject({ deletedAt: null });
  });

  it('goes through the official client, takes the time from the server clock, and keeps it on a second delete', async () => {
    const { admin, create } = await setup();
    const space = await create();
    travel(-2 * DAY);
    const response = await official(admin).spaces.deleteSpaceById(space.id);
    expect(response.status).toBe(205);
    travel(2 * DAY);
    const deletedAt = (await spaceRow(t, space.id))!.deletedAt!;
    expect(deletedAt.getTime()).toBeLessThan(Date.now() - DAY);
    // Deleting again does not restart the retention period.
    expect((await t.call('DELETE', `/v1/spaces/${space.id}`, { token: admin.token })).statusCode).toBe(205);
    expect((await spaceRow(t, space.id))!.deletedAt).toEqual(deletedAt);
  });

  it('needs admin on the space and changes nothing otherwise', async () => {
    const { organization, member, create } = await setup();
    const space = await create();
    const before = await snapshot(t, organization.id);
    for (const role of ['create', 'review', 'edit', 'comment', 'read'] as const) {
      const user = await member(role);
      expectError(await t.call('DELETE', `/v1/spaces/${space.id}`, { token: user.token }), 403);
    }
    const stranger = await buildUser(t.database);
    expectError(await t.call('DELETE', `/v1/spaces/${space.id}`, { token: stranger.token }), 404);
    await expectOfficialError(official(stranger).spaces.deleteSpaceById(space.id), 404);
    expectError(await t.call('DELETE', `/v1/spaces/${space.id}`), 401);
    expect(await snapshot(t, organization.id)).toEqual(before);
  });
});

describe('POST /v1/spaces/{spaceId}/restore', () => {
  it('restores a space deleted less than 7 days ago, at the end of its parent, through the official client', async () => {
    const { organizationId, admin, create, collection, remove } = await content();
    const parent = await collection();
    const space = await create({ title: 'Back', parent: parent.id });
    const other = await create({ parent: parent.id });
    await remove(space.id);
    const later = await create({ parent: parent.id });
    travel(6 * DAY);

    const { data } = await official(admin).spaces.restoreSpace(space.id);
    expectMatchesSchema('POST', '/v1/spaces/{spaceId}/restore', 200, data);
    expect(data).toMatchObject({ id: space.id, title: 'Back', parent: parent.id });
    expect(data.deletedAt).toBeUndefined();
    expect(await spaceRow(t, space.id)).toMatchObject({ deletedAt: null, parentId: parent.id });
    const listed = (await t.call('GET', `/v1/collections/${parent.id}/spaces`, { token: admin.token })).json();
    expect(itemIds(listed)).toEqual([other.id, later.id, space.id]);
    expect((await t.call('GET', `/v1/orgs/${organizationId}/spaces`, { token: admin.token })).json().count).toBe(3);
  });

  it('is a 409 after 7 days, and for a space that is not deleted', async () => {
    const { organization, admin, create } = await setup();
    const space = await create();
    expectError(await t.call('POST', `/v1/spaces/${space.id}/restore`, { token: admin.token }), 409, `space "${space.id}" is not deleted`);
    await expectOfficialError(official(admin).spaces.restoreSpace(space.id), 409);
    expect((await t.call('DELETE', `/v1/spaces/${space.id}`, { token: admin.token })).statusCode).toBe(205);
    travel(8 * DAY);
    const before = await snapshot(t, organization.id);
    expectError(await t.call('POST', `/v1/spaces/${space.id}/restore`, { token: admin.token }), 409, /more than 7 days ago/);
    await expectOfficialError(official(admin).spaces.restoreSpace(space.id), 409);
    expect(await snapshot(t, organization.id)).toEqual(before);
    expect((await spaceRow(t, space.id))!.deletedAt).not.toBeNull();
  });

  it('needs admin on the space', async () => {
    const { organization, admin, member, create } = await setup();
    const space = await create();
    expect((await t.call('DELETE', `/v1/spaces/${space.id}`, { token: admin.token })).statusCode).toBe(205);
    const before = await snapshot(t, organization.id);
    for (const role of ['create', 'review', 'edit', 'comment', 'read'] as const) {
      const user = await member(role);
      expectError(await t.call('POST', `/v1/spaces/${space.id}/restore`, { token: user.token }), 403);
    }
    const stranger = await buildUser(t.database);
    expectError(await t.call('POST', `/v1/spaces/${space.id}/restore`, { token: stranger.token }), 404);
    expectError(await t.call('POST', `/v1/spaces/${space.id}/restore`), 401);
    expect(await snapshot(t, organization.id)).toEqual(before);
  });
});

describe('purge of deleted spaces', () => {
  /** A space deleted `ago` milliseconds ago by the server's clock, with a custom field value. */
  async function deletedSpaces() {
    const context = await content();
    const field = await context.customField('owner');
    const deletedAgo = async (ago: number) => {
      const space = await context.create();
      await field.set(space.id, 'someone');
      travel(-ago);
      await context.remove(space.id);
      travel(ago);
      return space;
    };
    return { ...context, deletedAgo };
  }

  it('removes spaces deleted more than 7 days ago and keeps younger ones', async () => {
    const { admin, create, deletedAgo } = await deletedSpaces();
    const old = await deletedAgo(7 * DAY + 60_000);
    const older = await deletedAgo(30 * DAY);
    const young = await deletedAgo(7 * DAY - 60_000);
    const fresh = await deletedAgo(0);
    const active = await create();

    const purged = await purgeDeletedSpaces(t.database.db, t.clock);
    expect(purged).toBeGreaterThanOrEqual(2);
    const { db } = t.database;
    expect(await db.space.count({ where: { id: { in: [old.id, older.id] } } })).toBe(0);
    expect(await db.spaceCustomFieldValue.count({ where: { spaceId: { in: [old.id, older.id] } } })).toBe(0);
    expect(await db.space.count({ where: { id: { in: [young.id, fresh.id, active.id] } } })).toBe(3);
    expect(await db.spaceCustomFieldValue.count({ where: { spaceId: { in: [young.id, fresh.id] } } })).toBe(2);
    expectError(await t.call('GET', `/v1/spaces/${old.id}`, { token: admin.token }), 404);
    expectError(await t.call('POST', `/v1/spaces/${old.id}/restore`, { token: admin.token }), 404);

    // The retention is measured on the clock passed in.
    travel(DAY);
    expect(await purgeDeletedSpaces(t.database.db, t.clock)).toBeGreaterThanOrEqual(1);
    expect(await db.space.count({ where: { id: young.id } })).toBe(0);
    expect(await db.space.count({ where: { id: { in: [fresh.id, active.id] } } })).toBe(2);
    travel(-DAY);
    const restored = await t.call('POST', `/v1/spaces/${fresh.id}/restore`, { token: admin.token });
    expect(restored.statusCode, restored.body).toBe(200);
  });

  it('runs as a background job: at start, then every interval, until stopped', async () => {
    const { deletedAgo, create } = await deletedSpaces();
    const first = await deletedAgo(8 * DAY);
    const kept = await deletedAgo(DAY);
    const active = await create();
    const runner = jobRunner(t);
    const { log } = runner;
    const queue = openJobQueue(t.database, runner);
    const background = startBackgroundWork({ queue, log, purgeIntervalMs: 1_000 });
    try {
      await vi.waitUntil(async () => (await spaceRow(t, first.id)) === null, { timeout: 15_000, interval: 100 });
      // A space deleted long ago while the server runs goes at a later interval.
      const second = await deletedAgo(9 * DAY);
      await vi.waitUntil(async () => (await spaceRow(t, second.id)) === null, { timeout: 15_000, interval: 100 });
      expect(await spaceRow(t, kept.id)).not.toBeNull();
      expect(await spaceRow(t, active.id)).toMatchObject({ deletedAt: null });
      const purges = log.lines.filter((line) => line.message === 'job done' && line.fields.job === 'purge-deleted-spaces');
      expect(purges.filter((line) => (line.fields.purged as number) >= 1).length).toBeGreaterThanOrEqual(2);
      expect(log.lines.filter((line) => line.level === 'warn' || line.level === 'error')).toEqual([]);
      // A run that purged something is news (info); one that purged nothing is not (debug), at every interval.
      for (const line of purges) expect(line.level).toBe(line.fields.purged === 0 ? 'debug' : 'info');
    } finally {
      await background.stop();
      await queue.stop();
    }
    // Stopped: nothing is purged any more.
    const third = await deletedAgo(9 * DAY);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await spaceRow(t, third.id)).not.toBeNull();
  });
});

describe('POST /v1/spaces/{spaceId}/duplicate', () => {
  it('places a copy right after the original, with its settings and custom field values', async () => {
    const { organizationId, admin, create, collection, customField } = await content();
    const parent = await collection();
    const before = await create({ parent: parent.id });
    const original = await create({ title: 'Original', emoji: '📘', parent: parent.id, language: 'de' });
    const after = await create({ parent: parent.id });
    // Values first: they cannot be set while the space is locked.
    const owner = await customField('owner');
    const team = await customField('team');
    await owner.set(original.id, 'alice');
    await team.set(original.id, 'docs');
    const patched = await t.call('PATCH', `/v1/spaces/${original.id}`, {
      token: admin.token,
      body: { defaultLevel: 'comment', editMode: 'locked', mergeRules: { type: 'none' } },
    });
    expect(patched.statusCode).toBe(200);

    const { data } = await official(admin).spaces.duplicateSpace(original.id);
    expectMatchesSchema('POST', '/v1/spaces/{spaceId}/duplicate', 201, data);
    expect(data.id).not.toBe(original.id);
    expect(data.revision).not.toBe(original.revision);
    expect(data).toMatchObject({
      object: 'space',
      title: 'Copy of Original',
      emoji: '📘',
      organization: organizationId,
      parent: parent.id,
      language: 'de',
      defaultLevel: 'comment',
      editMode: 'locked',
      mergeRules: { type: 'none' },
    });
    expect(data.deletedAt).toBeUndefined();

    const listed = (await t.call('GET', `/v1/collections/${parent.id}/spaces`, { token: admin.token })).json();
    expect(itemIds(listed)).toEqual([before.id, original.id, data.id, after.id]);
    const values = await t.database.db.spaceCustomFieldValue.findMany({ where: { spaceId: data.id }, orderBy: { customFieldId: 'asc' } });
    expect(values.map((value) => [value.customFieldId, value.value]).sort()).toEqual(
      [
        [owner.id, 'alice'],
        [team.id, 'docs'],
      ].sort(),
    );
    const shownValues = await t.call('GET', `/v1/spaces/${data.id}/custom-fields`, { token: admin.token });
    expect(shownValues.json().map((entry: Json) => [entry.customField.name, entry.value])).toEqual([
      ['owner', 'alice'],
      ['team', 'docs'],
    ]);
    // The original is unchanged.
    expect(await t.database.db.spaceCustomFieldValue.count({ where: { spaceId: original.id } })).toBe(2);
    expect((await t.call('GET', `/v1/spaces/${original.id}`, { token: admin.token })).json()).toEqual({
      ...original,
      defaultLevel: 'comment',
      editMode: 'locked',
      mergeRules: { type: 'none' },
      updatedAt: expect.any(String),
      permissions: expect.any(Object),
    });
  });

  it('answers 201 with a Location, at the top level too, and keeps titles within 50 characters', async () => {
    const { organization, admin, create } = await setup();
    const first = await create({ title: 'x'.repeat(50) });
    const last = await create();
    const response = await t.call('POST', `/v1/spaces/${first.id}/duplicate`, { token: admin.token });
    expect(response.statusCode, response.body).toBe(201);
    const copy = response.json();
    expect(response.headers.location).toBe(copy.urls.location);
    expect(copy.title).toBe(`Copy of ${'x'.repeat(42)}`);
    expect(copy.parent).toBeUndefined();
    expect(await siblings(t, organization.id, null)).toEqual([first.id, copy.id, last.id]);
    const again = (await t.call('POST', `/v1/spaces/${first.id}/duplicate`, { token: admin.token })).json();
    expect(await siblings(t, organization.id, null)).toEqual([first.id, again.id, copy.id, last.id]);
    expect(await spaceRow(t, copy.id)).toMatchObject({ organizationId: organization.id, parentId: null, deletedAt: null });
  });

  it('needs create where the space is, and the space not deleted', async () => {
    const { organization, admin, member, create } = await setup();
    const space = await create();
    const before = await snapshot(t, organization.id);
    for (const role of ['review', 'edit', 'comment', 'read'] as const) {
      const user = await member(role);
      expectError(await t.call('POST', `/v1/spaces/${space.id}/duplicate`, { token: user.token }), 403);
    }
    const stranger = await buildUser(t.database);
    expectError(await t.call('POST', `/v1/spaces/${space.id}/duplicate`, { token: stranger.token }), 404);
    expectError(await t.call('POST', `/v1/spaces/${space.id}/duplicate`), 401);
    expect(await snapshot(t, organization.id)).toEqual(before);

    const creator = await member('create');
    const copy = await t.call('POST', `/v1/spaces/${space.id}/duplicate`, { token: creator.token });
    expect(copy.statusCode, copy.body).toBe(201);

    expect((await t.call('DELETE', `/v1/spaces/${space.id}`, { token: admin.token })).statusCode).toBe(205);
    const deleted = await snapshot(t, organization.id);
    expectError(await t.call('POST', `/v1/spaces/${space.id}/duplicate`, { token: admin.token }), 409);
    await expectOfficialError(official(admin).spaces.duplicateSpace(space.id), 409);
    expect(await snapshot(t, organization.id)).toEqual(deleted);
  });
});

describe('POST /v1/spaces/{spaceId}/move', () => {
  it('reorders spaces in a collection, with stable order in the listing', async () => {
    const { admin, create, collection } = await content();
    const parent = await collection();
    const a = await create({ title: 'A', parent: parent.id });
    const b = await create({ title: 'B', parent: parent.id });
    const c = await create({ title: 'C', parent: parent.id });
    const api = official(admin);
    const order = async () => itemIds((await api.collections.listSpacesInCollectionById(parent.id)).data);

    const { data } = await api.spaces.moveSpace(c.id, { position: { before: { type: 'space', space: a.id } } });
    expectMatchesSchema('POST', '/v1/spaces/{spaceId}/move', 200, data);
    expect(data).toMatchObject({ id: c.id, parent: parent.id });
    expect(await order()).toEqual([c.id, a.id, b.id]);
    await api.spaces.moveSpace(c.id, { position: { after: { type: 'space', space: a.id }, before: { type: 'space', space: b.id } } });
    expect(await order()).toEqual([a.id, c.id, b.id]);
    await api.spaces.moveSpace(a.id, { position: { after: { type: 'space', space: b.id } } });
    expect(await order()).toEqual([c.id, b.id, a.id]);
    expect(await order()).toEqual([c.id, b.id, a.id]);
    // Only the moved row is written.
    const untouched = await spaceRow(t, c.id);
    await api.spaces.moveSpace(b.id, { position: { before: { type: 'space', space: c.id } } });
    expect(await spaceRow(t, c.id)).toEqual(untouched);
    expect(await order()).toEqual([b.id, c.id, a.id]);
  });

  it('keeps a consistent order over many moves', async () => {
    const { admin, create, collection } = await content();
    const parent = await collection();
    const model: string[] = [];
    for (let index = 0; index < 4; index += 1) model.push((await create({ parent: parent.id })).id);
    // Always insert right after the first one, or right before the last one: ordering keys grow and mix cases.
    for (let round = 0; round < 24; round += 1) {
      const moving = round % 2 === 0 ? model.at(-1)! : model[1]!;
      model.splice(model.indexOf(moving), 1);
      const position = round % 2 === 0 ? { after: { type: 'space', space: model[0]! } } : { before: { type: 'space', space: model.at(-1)! } };
      const response = await t.call('POST', `/v1/spaces/${moving}/move`, { token: admin.token, body: { position } });
      expect(response.statusCode, response.body).toBe(200);
      if (round % 2 === 0) model.splice(1, 0, moving);
      else model.splice(model.length - 1, 0, moving);
      const listed = (await t.call('GET', `/v1/collections/${parent.id}/spaces`, { token: admin.token })).json();
      expect(itemIds(listed), `round ${round}`).toEqual(model);
    }
    const paged = await listAll(t, `/v1/collections/${parent.id}/spaces`, admin.token, 3);
    expect(paged.seen).toEqual(model);
  });

  it('places spaces between collections and spaces of the same parent', async () => {
    const { organizationId, admin, create, collection } = await content();
    const c1 = await collection({ title: 'C1' });
    const s1 = await create({ title: 'S1' });
    const c2 = await collection({ title: 'C2' });
    const moving = await create({ title: 'Moving' });
    expect(await siblings(t, organizationId, null)).toEqual([c1.id, s1.id, c2.id, moving.id]);
    const api = official(admin);
    await api.spaces.moveSpace(moving.id, { position: { after: { type: 'collection', collection: c1.id } } });
    expect(await siblings(t, organizationId, null)).toEqual([c1.id, moving.id, s1.id, c2.id]);
    await api.spaces.moveSpace(moving.id, { position: { before: { type: 'collection', collection: c1.id } } });
    expect(await siblings(t, organizationId, null)).toEqual([moving.id, c1.id, s1.id, c2.id]);
    await api.spaces.moveSpace(moving.id, {
      position: { after: { type: 'space', space: s1.id }, before: { type: 'collection', collection: c2.id } },
    });
    expect(await siblings(t, organizationId, null)).toEqual([c1.id, s1.id, moving.id, c2.id]);
    const nested = await collection({ title: 'Nested', parent: c2.id });
    await api.spaces.moveSpace(moving.id, { parent: c2.id, position: { before: { type: 'collection', collection: nested.id } } });
    expect(await siblings(t, organizationId, c2.id)).toEqual([moving.id, nested.id]);
    expect(await siblings(t, organizationId, null)).toEqual([c1.id, s1.id, c2.id]);
  });

  it('moves into a collection (at the end) and back to the top level', async () => {
    const { organizationId, admin, create, collection } = await content();
    const target = await collection();
    const resident = await create({ parent: target.id });
    const space = await create({ title: 'Mover' });
    const other = await create();
    const api = official(admin);

    const { data } = await api.spaces.moveSpace(space.id, { parent: target.id });
    expect(data.parent).toBe(target.id);
    expect(await spaceRow(t, space.id)).toMatchObject({ parentId: target.id });
    expect(itemIds((await api.collections.listSpacesInCollectionById(target.id)).data)).toEqual([resident.id, space.id]);

    const back = await api.spaces.moveSpace(space.id, { parent: null, position: { before: { type: 'space', space: other.id } } });
    expectMatchesSchema('POST', '/v1/spaces/{spaceId}/move', 200, back.data);
    expect(back.data.parent).toBeUndefined();
    expect(await spaceRow(t, space.id)).toMatchObject({ parentId: null });
    expect(await siblings(t, organizationId, null)).toEqual([target.id, space.id, other.id]);
    expect(itemIds((await api.collections.listSpacesInCollectionById(target.id)).data)).toEqual([resident.id]);
  });

  it('rejects unknown or foreign siblings and parents and empty bodies, changing nothing', async () => {
    const { organizationId, admin, create, collection, remove } = await content();
    const elsewhere = await buildOrganization(t.database);
    await addMember(t.database, elsewhere.id, admin, 'admin');
    const foreign = (await t.call('POST', `/v1/orgs/${elsewhere.id}/collections`, { token: admin.token, body: {} })).json();
    const foreignSpace = (await t.call('POST', `/v1/orgs/${elsewhere.id}/spaces`, { token: admin.token, body: {} })).json();
    const parent = await collection();
    const nested = await create({ parent: parent.id });
    const moving = await create();
    const sibling = await create();
    const deleted = await create();
    await remove(deleted.id);
    const before = await snapshot(t, organizationId, elsewhere.id);

    const cases: Array<[unknown, RegExp | string]> = [
      [{}, /parent: set parent, position or both/],
      [{ parent: 'col_missing' }, 'parent: collection "col_missing" does not exist in this organization'],
      [{ parent: foreign.id }, `parent: collection "${foreign.id}" does not exist in this organization`],
      [{ parent: '' }, /^parent: /],
      [{ position: { after: { type: 'space', space: 'spc_missing' } } }, `position.after: space "spc_missing" is not a sibling under the target parent`],
      [{ position: { before: { type: 'collection', collection: 'col_missing' } } }, /^position\.before: /],
      [{ position: { after: { type: 'space', space: nested.id } } }, /^position\.after: /],
      [{ position: { after: { type: 'space', space: foreignSpace.id } } }, /^position\.after: /],
      [{ position: { before: { type: 'space', space: moving.id } } }, /^position\.before: /],
      [{ position: { before: { type: 'space', space: deleted.id } } }, /^position\.before: /],
      [{ parent: parent.id, position: { after: { type: 'space', space: sibling.id } } }, /^position\.after: /],
      [{ position: { after: { type: 'space', space: sibling.id }, before: { type: 'collection', collection: parent.id } } }, /^position: /],
      [{ position: { after: { type: 'space', collection: sibling.id } } }, /^position\.after/],
      [{ position: { after: sibling.id } }, /^position\.after/],
      [{ parent: null, organization: elsewhere.id }, /unknown field "organization"/],
    ];
    for (const [body, message] of cases) {
      expectError(await t.call('POST', `/v1/spaces/${moving.id}/move`, { token: admin.token, body }), 400, message);
    }
    await expectOfficialError(official(admin).spaces.moveSpace(moving.id, { parent: 'col_missing' }), 400);
    expect(await snapshot(t, organizationId, elsewhere.id)).toEqual(before);

    expectError(await t.call('POST', `/v1/spaces/${deleted.id}/move`, { token: admin.token, body: { parent: parent.id } }), 409);
    expect(await snapshot(t, organizationId, elsewhere.id)).toEqual(before);
  });

  it('needs admin on the space and create where it goes', async () => {
    const { organizationId, member, create, collection, patchCollection } = await content();
    const target = await collection();
    const space = await create();
    const before = await snapshot(t, organizationId);
    for (const role of ['create', 'review', 'edit', 'comment', 'read'] as const) {
      const user = await member(role);
      expectError(await t.call('POST', `/v1/spaces/${space.id}/move`, { token: user.token, body: { parent: target.id } }), 403);
    }
    const stranger = await buildUser(t.database);
    expectError(await t.call('POST', `/v1/spaces/${space.id}/move`, { token: stranger.token, body: { parent: null } }), 404);
    expectError(await t.call('POST', `/v1/spaces/${space.id}/move`, { body: { parent: null } }), 401);
    expect(await snapshot(t, organizationId)).toEqual(before);

    // Admin of the spaces of a delegated collection: may reorder them, not take them out.
    const editor = await member('edit');
    const delegated = await collection();
    const first = await create({ parent: delegated.id });
    const second = await create({ parent: delegated.id });
    await patchCollection(delegated.id, { defaultLevel: 'admin' });
    const reordered = await t.call('POST', `/v1/spaces/${second.id}/move`, {
      token: editor.token,
      body: { position: { before: { type: 'space', space: first.id } } },
    });
    expect(reordered.statusCode, reordered.body).toBe(200);
    expect(await siblings(t, organizationId, delegated.id)).toEqual([second.id, first.id]);
    const unchanged = await snapshot(t, organizationId);
    expectError(await t.call('POST', `/v1/spaces/${second.id}/move`, { token: editor.token, body: { parent: null } }), 403);
    expectError(await t.call('POST', `/v1/spaces/${second.id}/move`, { token: editor.token, body: { parent: target.id } }), 403);
    expect(await snapshot(t, organizationId)).toEqual(unchanged);
    // …unless it may create where they go.
    await patchCollection(target.id, { defaultLevel: 'create' });
    const moved = await t.call('POST', `/v1/spaces/${second.id}/move`, { token: editor.token, body: { parent: target.id } });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await spaceRow(t, second.id)).toMatchObject({ parentId: target.id });
  });
});

describe('POST /v1/spaces/{spaceId}/transfer', () => {
  it('moves the space to the end of the top level of the target, dropping custom field values', async () => {
    const { organizationId, admin, create, collection, customField } = await content();
    const target = await buildOrganization(t.database, 'Target');
    await addMember(t.database, target.id, admin, 'admin');
    const existing = (await t.call('POST', `/v1/orgs/${target.id}/collections`, { token: admin.token, body: {} })).json();
    const parent = await collection();
    const space = await create({ title: 'Travelling', parent: parent.id });
    const staying = await create({ parent: parent.id });
    const field = await customField('owner');
    await field.set(space.id, 'alice');
    await field.set(staying.id, 'bob');

    const response = await t.call('POST', `/v1/spaces/${space.id}/transfer`, { token: admin.token, body: { organization: target.id } });
    expect(response.statusCode, response.body).toBe(200);
    const moved = response.json();
    expectMatchesSchema('POST', '/v1/spaces/{spaceId}/transfer', 200, moved);
    expect(moved).toMatchObject({ id: space.id, title: 'Travelling', organization: target.id });
    expect(moved.parent).toBeUndefined();
    expect(await spaceRow(t, space.id)).toMatchObject({ organizationId: target.id, parentId: null, deletedAt: null });
    expect(await siblings(t, target.id, null)).toEqual([existing.id, space.id]);
    expect(await t.database.db.spaceCustomFieldValue.count({ where: { spaceId: space.id } })).toBe(0);
    expect(await t.database.db.spaceCustomFieldValue.findMany({ where: { spaceId: staying.id } })).toMatchObject([{ customFieldId: field.id, value: 'bob' }]);
    expect(itemIds((await t.call('GET', `/v1/orgs/${target.id}/spaces`, { token: admin.token })).json())).toEqual([space.id]);
    expect(itemIds((await t.call('GET', `/v1/orgs/${organizationId}/spaces`, { token: admin.token })).json())).toEqual([staying.id]);
    expect((await t.call('GET', `/v1/spaces/${space.id}/custom-fields`, { token: admin.token })).json()).toEqual([]);
  });

  it('refuses a target the caller does not administer (403), an unknown one (400) and its own organization (400)', async () => {
    const { organizationId, admin, member, create, remove } = await content();
    const space = await create();
    const administered = await buildOrganization(t.database);
    await addMember(t.database, administered.id, admin, 'admin');
    const notAdministered = await buildOrganization(t.database);
    await addMember(t.database, notAdministered.id, admin, 'edit');
    const foreign = await buildOrganization(t.database);
    const all = [organizationId, administered.id, notAdministered.id, foreign.id];
    const before = await snapshot(t, ...all);

    expectError(await t.call('POST', `/v1/spaces/${space.id}/transfer`, { token: admin.token, body: { organization: notAdministered.id } }), 403);
    for (const [body, message] of [
      [{ organization: 'org_missing' }, 'organization: organization "org_missing" was not found'],
      [{ organization: foreign.id }, `organization: organization "${foreign.id}" was not found`],
      [{ organization: organizationId }, 'organization: the space already belongs to this organization'],
      [{}, 'organization: is required'],
      [{ organization: administered.id, parent: null }, /unknown field "parent"/],
    ] as const) {
      expectError(await t.call('POST', `/v1/spaces/${space.id}/transfer`, { token: admin.token, body }), 400, message);
    }
    for (const role of ['create', 'review', 'edit', 'comment', 'read'] as const) {
      const user = await member(role);
      await addMember(t.database, administered.id, user, 'admin');
      expectError(await t.call('POST', `/v1/spaces/${space.id}/transfer`, { token: user.token, body: { organization: administered.id } }), 403);
    }
    const stranger = await buildUser(t.database);
    expectError(await t.call('POST', `/v1/spaces/${space.id}/transfer`, { token: stranger.token, body: { organization: administered.id } }), 404);
    expectError(await t.call('POST', `/v1/spaces/${space.id}/transfer`, { body: { organization: administered.id } }), 401);
    expect(await snapshot(t, ...all)).toEqual(before);

    await remove(space.id);
    const deleted = await snapshot(t, ...all);
    expectError(await t.call('POST', `/v1/spaces/${space.id}/transfer`, { token: admin.token, body: { organization: administered.id } }), 409);
    expect(await snapshot(t, ...all)).toEqual(deleted);
  });
});

describe('GET /v1/orgs/{organizationId}/spaces', () => {
  async function fiveSpaces() {
    const context = await content();
    const parent = await context.collection();
    const made = [
      await context.create({ title: 'One' }),
      await context.create({ title: 'Two', parent: parent.id }),
      await context.create({ title: 'Three' }),
      await context.create({ title: 'Four', parent: parent.id }),
      await context.create({ title: 'Five' }),
    ];
    const gone = await context.create({ title: 'Gone' });
    await context.remove(gone.id);
    await setCreatedAt([made[0]!.id, made[1]!.id, gone.id, made[2]!.id, made[3]!.id, made[4]!.id]);
    return { ...context, parent, made: made.map((space) => space.id) };
  }

  it('lists every space not deleted, in collections too, oldest first, through the official client', async () => {
    const { organizationId, admin, made } = await fiveSpaces();
    const { data } = await official(admin).orgs.listSpacesInOrganizationById(organizationId);
    expectMatchesSchema('GET', ORG_SPACES, 200, data);
    expect(data.count).toBe(5);
    expect(data.next).toBeUndefined();
    expect(itemIds(data)).toEqual(made);
    expect(data.items[0]).toEqual((await t.call('GET', `/v1/spaces/${made[0]}`, { token: admin.token })).json());
  });

  it('pages with limit and next.page, covering every space exactly once', async () => {
    const { organizationId, admin, made } = await fiveSpaces();
    const url = `/v1/orgs/${organizationId}/spaces`;
    for (const [limit, rounds] of [
      [1, 5],
      [2, 3],
      [4, 2],
      [5, 1],
      [1000, 1],
    ] as const) {
      const all = await listAll(t, url, admin.token, limit);
      expect(all.seen, `limit=${limit}`).toEqual(made);
      expect(all.rounds, `limit=${limit}`).toBe(rounds);
      expect(new Set(all.counts)).toEqual(new Set([5]));
    }
    const api = official(admin);
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const { data } = await api.orgs.listSpacesInOrganizationById(organizationId, { limit: 2, ...(page ? { page } : {}) });
      expectMatchesSchema('GET', ORG_SPACES, 200, data);
      expect(data.count).toBe(5);
      seen.push(...itemIds(data));
      page = data.next?.page;
    } while (page);
    expect(seen).toEqual(made);
    const none = await t.call('GET', `${url}?limit=0`, { token: admin.token });
    expect(none.statusCode).toBe(200);
    expect(none.json()).toMatchObject({ count: 5, items: [] });
  });

  it('rejects a limit above 1000, garbage page tokens and tokens of another listing', async () => {
    const { organizationId, admin, member, parent } = await fiveSpaces();
    const url = `/v1/orgs/${organizationId}/spaces`;
    expectError(await t.call('GET', `${url}?limit=1001`, { token: admin.token }), 400, 'limit: must be at most 1000');
    await expectOfficialError(official(admin).orgs.listSpacesInOrganizationById(organizationId, { limit: 1001 }), 400);
    expectError(await t.call('GET', `${url}?limit=-1`, { token: admin.token }), 400, /^limit: /);
    expectError(await t.call('GET', `${url}?limit=1.5`, { token: admin.token }), 400, /^limit: /);
    for (const garbage of [
      'garbage',
      '%E2%9C%93',
      Buffer.from('{"page":2}').toString('base64url'),
      token([{ page: 2 }]),
      token(['spaces-by-creation']),
      'x'.repeat(2049),
    ]) {
      expectError(await t.call('GET', `${url}?page=${garbage}`, { token: admin.token }), 400, /^page: /);
    }
    const fromCollection = (await t.call('GET', `/v1/collections/${parent.id}/spaces?limit=1`, { token: admin.token })).json();
    expect(fromCollection.next.page).toEqual(expect.any(String));
    expectError(await t.call('GET', `${url}?page=${fromCollection.next.page}`, { token: admin.token }), 400, /^page: /);
    await t.call('POST', `/v1/orgs/${organizationId}/collections`, { token: admin.token, body: {} });
    const collections = (await t.call('GET', `/v1/orgs/${organizationId}/collections?limit=1`, { token: admin.token })).json();
    expectError(await t.call('GET', `${url}?page=${collections.next.page}`, { token: admin.token }), 400, /^page: /);
    await member('read');
    const members = (await t.call('GET', `/v1/orgs/${organizationId}/members?limit=1`, { token: admin.token })).json();
    expectError(await t.call('GET', `${url}?page=${members.next.page}`, { token: admin.token }), 400, /^page: /);
  });

  it('rejects tokens of this listing whose values were tampered with', async () => {
    const { organizationId, admin, made } = await fiveSpaces();
    const url = `/v1/orgs/${organizationId}/spaces`;
    const genuine = (await t.call('GET', `${url}?limit=1`, { token: admin.token })).json().next.page as string;
    const [name, createdAt, id] = JSON.parse(Buffer.from(genuine, 'base64url').toString('utf8'));
    expect([name, createdAt, id]).toEqual(['spaces-by-creation', { d: '2020-01-01T00:00:00.000Z' }, made[0]]);
    const tampered = {
      'createdAt not a date': [name, { d: 'not a date' }, id],
      'createdAt a number': [name, 12, id],
      'id a boolean': [name, createdAt, true],
      'id a date': [name, createdAt, { d: '2020-01-01T00:00:00.000Z' }],
    };
    const answers: Record<string, unknown> = {};
    for (const [what, values] of Object.entries(tampered)) {
      const response = await t.call('GET', `${url}?page=${token(values)}`, { token: admin.token });
      answers[what] = [response.statusCode, response.json().error?.message];
    }
    const refused = [400, 'page: is not a page token returned by this listing'];
    expect(answers).toEqual(Object.fromEntries(Object.keys(tampered).map((what) => [what, refused])));
  });

  it('shows spaces to non-guest members, to guests only those granted, and hides the organization from strangers', async () => {
    const { organizationId, member, made } = await fiveSpaces();
    for (const role of ['create', 'review', 'edit', 'comment', 'read'] as const) {
      const user = await member(role);
      const listed = await t.call('GET', `/v1/orgs/${organizationId}/spaces`, { token: user.token });
      expect(listed.statusCode, role).toBe(200);
      expect(itemIds(listed.json()), role).toEqual(made);
    }
    // A guest lists what it was granted: nothing here.
    const guest = await member(null);
    const asGuest = await t.call('GET', `/v1/orgs/${organizationId}/spaces`, { token: guest.token });
    expect(asGuest.statusCode).toBe(200);
    expect(asGuest.json()).toEqual({ items: [], count: 0 });
    const stranger = await buildUser(t.database);
    expectError(await t.call('GET', `/v1/orgs/${organizationId}/spaces`, { token: stranger.token }), 404);
    expectError(await t.call('GET', `/v1/orgs/${organizationId}/spaces`), 401);
  });
});

describe('GET /v1/collections/{collectionId}/spaces', () => {
  it('lists the spaces of a collection in sibling order, with pages, through the official client', async () => {
    const { admin, create, collection, remove } = await content();
    const parent = await collection();
    const a = await create({ parent: parent.id });
    const b = await create({ parent: parent.id });
    const c = await create({ parent: parent.id });
    const gone = await create({ parent: parent.id });
    await remove(gone.id);
    await create();
    const move = await t.call('POST', `/v1/spaces/${c.id}/move`, {
      token: admin.token,
      body: { position: { before: { type: 'space', space: a.id } } },
    });
    expect(move.statusCode).toBe(200);
    const api = official(admin);
    const first = await api.collections.listSpacesInCollectionById(parent.id, { limit: 2 });
    expectMatchesSchema('GET', '/v1/collections/{collectionId}/spaces', 200, first.data);
    expect(first.data.count).toBe(3);
    expect(itemIds(first.data)).toEqual([c.id, a.id]);
    const second = await api.collections.listSpacesInCollectionById(parent.id, { limit: 2, page: first.data.next!.page });
    expect(itemIds(second.data)).toEqual([b.id]);
    expect(second.data.next).toBeUndefined();
    expectError(await t.call('GET', `/v1/collections/${parent.id}/spaces?limit=1001`, { token: admin.token }), 400);
  });
});

describe('permissions on spaces', () => {
  it('follows the role matrix on a top-level space', async () => {
    const { organizationId, admin, member, create, collection, remove } = await content();
    const target = await buildOrganization(t.database);
    const parent = await collection();
    const space = await create({ title: 'Subject' });
    const deleted = await create({ title: 'Deleted' });
    await remove(deleted.id);
    const before = await snapshot(t, organizationId, target.id);
    const expected: Record<Exclude<Role, 'admin'>, Json> = {
      create: { view: true, admin: false, edit: true, comment: true, review: true, merge: true },
      review: { view: true, admin: false, edit: true, comment: true, review: true, merge: true },
      edit: { view: true, admin: false, edit: true, comment: true, review: false, merge: false },
      comment: { view: true, admin: false, edit: false, comment: true, review: false, merge: false },
      read: { view: true, admin: false, edit: false, comment: false, review: false, merge: false },
    };
    for (const [role, permissions] of Object.entries(expected) as Array<[Exclude<Role, 'admin'>, Json]>) {
      const user = await member(role);
      await addMember(t.database, target.id, user, 'admin');
      const shown = await t.call('GET', `/v1/spaces/${space.id}`, { token: user.token });
      expect(shown.statusCode, role).toBe(200);
      expect(shown.json().permissions, role).toMatchObject(permissions);
      expect((await t.call('GET', `/v1/spaces/${deleted.id}`, { token: user.token })).statusCode, role).toBe(200);
      for (const [method, url, body] of [
        ['PATCH', `/v1/spaces/${space.id}`, { title: 'Changed' }],
        ['DELETE', `/v1/spaces/${space.id}`, undefined],
        ['POST', `/v1/spaces/${deleted.id}/restore`, undefined],
        ['POST', `/v1/spaces/${space.id}/move`, { parent: parent.id }],
        ['POST', `/v1/spaces/${space.id}/transfer`, { organization: target.id }],
        ...(role === 'create' ? [] : [['POST', `/v1/spaces/${space.id}/duplicate`, undefined] as const]),
      ] as const) {
        expectError(await t.call(method, url, { token: user.token, body }), 403, /^You are not allowed to /);
      }
    }
    const guest = await member(null);
    for (const [method, url, body] of [
      ['GET', `/v1/spaces/${space.id}`, undefined],
      ['PATCH', `/v1/spaces/${space.id}`, { title: 'Changed' }],
      ['DELETE', `/v1/spaces/${space.id}`, undefined],
      ['POST', `/v1/spaces/${deleted.id}/restore`, undefined],
      ['POST', `/v1/spaces/${space.id}/duplicate`, undefined],
      ['POST', `/v1/spaces/${space.id}/move`, { parent: parent.id }],
    ] as const) {
      expectError(await t.call(method, url, { token: guest.token, body }), 404);
    }
    expect(await snapshot(t, organizationId, target.id)).toEqual(before);
    const adminView = await t.call('GET', `/v1/spaces/${space.id}`, { token: admin.token });
    expect(adminView.json().permissions).toMatchObject({ view: true, admin: true, edit: true, review: true });
  });

  it('makes an edit member admin of the spaces of a collection whose default level is admin', async () => {
    const { organizationId, admin, member, create, collection, patchCollection } = await content();
    const editor = await member('edit');
    const target = await buildOrganization(t.database);
    await addMember(t.database, target.id, editor, 'admin');
    const delegated = await collection();
    const inside = await create({ parent: delegated.id });
    const other = await create({ parent: delegated.id });
    const outside = await create();
    await patchCollection(delegated.id, { defaultLevel: 'admin' });

    const shown = await t.call('GET', `/v1/spaces/${inside.id}`, { token: editor.token });
    expect(shown.json().permissions).toMatchObject({ admin: true, edit: true, review: true });
    const patched = await t.call('PATCH', `/v1/spaces/${inside.id}`, { token: editor.token, body: { title: 'By the editor', defaultLevel: 'read' } });
    expect(patched.statusCode, patched.body).toBe(200);
    // An explicit level on the space now applies to the editor: read.
    expect(patched.json().permissions).toMatchObject({ admin: false, edit: false, view: true });
    const resetByAdmin = await t.call('PATCH', `/v1/spaces/${inside.id}`, { token: admin.token, body: { defaultLevel: null } });
    expect(resetByAdmin.statusCode).toBe(200);

    expect((await t.call('DELETE', `/v1/spaces/${inside.id}`, { token: editor.token })).statusCode).toBe(205);
    expect((await spaceRow(t, inside.id))!.deletedAt).not.toBeNull();
    const restored = await t.call('POST', `/v1/spaces/${inside.id}/restore`, { token: editor.token });
    expect(restored.statusCode, restored.body).toBe(200);
    const copy = await t.call('POST', `/v1/spaces/${inside.id}/duplicate`, { token: editor.token });
    expect(copy.statusCode, copy.body).toBe(201);
    const transferred = await t.call('POST', `/v1/spaces/${other.id}/transfer`, { token: editor.token, body: { organization: target.id } });
    expect(transferred.statusCode, transferred.body).toBe(200);
    expect(await spaceRow(t, other.id)).toMatchObject({ organizationId: target.id });

    // Outside that collection the editor is an editor.
    const before = await snapshot(t, organizationId);
    expectError(await t.call('PATCH', `/v1/spaces/${outside.id}`, { token: editor.token, body: { title: 'No' } }), 403);
    expectError(await t.call('DELETE', `/v1/spaces/${outside.id}`, { token: editor.token }), 403);
    expect(await snapshot(t, organizationId)).toEqual(before);
  });
});
