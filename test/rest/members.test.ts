import { jwtVerify } from 'jose';
import { MemberRole } from '@gitbook/api';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_URLS, createTestApp, type TestApp } from '../support/app.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { type TestUser, buildTeam, buildUser, memberRoster, unique } from '../support/factories.ts';
import { expectError } from '../support/http.ts';
import { itemIds } from '../support/listings.ts';
import { type OfficialClient, officialClient } from '../support/official.ts';
import { memberRow } from '../support/rows.ts';

let t: TestApp;
let official: OfficialClient;
beforeAll(async () => {
  t = await createTestApp();
  official = await officialClient(t);
});

const LIST = '/v1/orgs/{organizationId}/members';
const MEMBER = '/v1/orgs/{organizationId}/members/{userId}';
const SPACES = '/v1/orgs/{organizationId}/members/{userId}/spaces';
const TEAMS = '/v1/orgs/{organizationId}/members/{userId}/teams';

/** An organization whose members have chosen names, emails and join dates (oldest first: the admin). */
async function setup() {
  const team = await buildTeam(t.database);
  const organizationId = team.organization.id;
  const { joined, named } = memberRoster(t.database, organizationId);
  await joined(team.admin);
  const ping = async (user: TestUser) => {
    const response = await t.call('POST', `/v1/orgs/${organizationId}/ping`, { token: user.token });
    expect(response.statusCode, response.body).toBe(200);
  };
  return { ...team, organizationId, named, ping };
}

describe('GET /v1/orgs/{organizationId}/members', () => {
  it('lists every member, latest joined first by default, through the official client', async () => {
    const { organizationId, admin, named } = await setup();
    const reader = await named('read', 'Reader');
    const guest = await named(null, 'Guest');
    const space = await t.call('POST', `/v1/orgs/${organizationId}/spaces`, { token: admin.token, body: { title: 'One' } });
    expect(space.statusCode).toBe(201);

    const { data } = await official(reader).orgs.listMembersInOrganizationById(organizationId);
    expectMatchesSchema('GET', LIST, 200, data);
    expect(data.count).toBe(3);
    expect(data.next).toBeUndefined();
    expect(itemIds(data)).toEqual([guest.id, reader.id, admin.id]);
    const readerRow = await t.database.db.user.findUniqueOrThrow({ where: { id: reader.id } });
    expect(data.items[1]).toEqual({
      object: 'member',
      id: reader.id,
      role: 'read',
      user: {
        object: 'user',
        id: reader.id,
        displayName: readerRow.displayName,
        email: reader.email,
        urls: { location: `${TEST_URLS.api}/v1/users/${reader.id}` },
      },
      disabled: false,
      joinedAt: '2020-01-02T00:00:00.000Z',
      sso: false,
      spaces: 1,
      teams: 0,
      sites: 0,
    });
    expect(data.items[0]).toMatchObject({ id: guest.id, role: null, spaces: 0 });
    expect(data.items[2]).toMatchObject({ id: admin.id, role: 'admin', spaces: 1 });

    const rest = await t.call('GET', `/v1/orgs/${organizationId}/members`, { token: reader.token });
    expect(rest.statusCode).toBe(200);
    expect(rest.json()).toEqual(data);
  });

  it('orders ascending or descending', async () => {
    const { organizationId, admin, named } = await setup();
    const first = await named('edit', 'First');
    const second = await named('comment', 'Second');
    const asc = await t.call('GET', `/v1/orgs/${organizationId}/members?order=asc`, { token: admin.token });
    expect(asc.statusCode).toBe(200);
    expectMatchesSchema('GET', LIST, 200, asc.json());
    expect(itemIds(asc.json())).toEqual([admin.id, first.id, second.id]);
    const desc = await t.call('GET', `/v1/orgs/${organizationId}/members?order=desc&sort=joinedAt`, { token: admin.token });
    expect(itemIds(desc.json())).toEqual([second.id, first.id, admin.id]);
  });

  it('filters by role, "guest" meaning members without a role', async () => {
    const { organizationId, admin, named } = await setup();
    const readerA = await named('read', 'Reader');
    const editor = await named('edit', 'Editor');
    const readerB = await named('read', 'Reader');
    const guestA = await named(null, 'Guest');
    const guestB = await named(null, 'Guest');
    const api = official(admin);
    const readers = await api.orgs.listMembersInOrganizationById(organizationId, { role: MemberRole.Read, order: 'asc' });
    expectMatchesSchema('GET', LIST, 200, readers.data);
    expect(readers.data.count).toBe(2);
    expect(itemIds(readers.data)).toEqual([readerA.id, readerB.id]);
    expect(readers.data.items.every((item) => item.role === 'read')).toBe(true);

    const guests = await api.orgs.listMembersInOrganizationById(organizationId, { role: 'guest', order: 'asc' });
    expectMatchesSchema('GET', LIST, 200, guests.data);
    expect(guests.data.count).toBe(2);
    expect(itemIds(guests.data)).toEqual([guestA.id, guestB.id]);
    expect(guests.data.items.map((item) => item.role)).toEqual([null, null]);

    const admins = (await t.call('GET', `/v1/orgs/${organizationId}/members?role=admin`, { token: admin.token })).json();
    expect(itemIds(admins)).toEqual([admin.id]);
    const editors = (await t.call('GET', `/v1/orgs/${organizationId}/members?role=edit`, { token: admin.token })).json();
    expect(itemIds(editors)).toEqual([editor.id]);
    const none = (await t.call('GET', `/v1/orgs/${organizationId}/members?role=review`, { token: admin.token })).json();
    expect(none).toEqual({ count: 0, items: [] });

    expectError(await t.call('GET', `/v1/orgs/${organizationId}/members?role=owner`, { token: admin.token }), 400, /^role: /);
  });

  it('searches display names and emails, ignoring case', async () => {
    const { organizationId, admin, named } = await setup();
    const tag = unique().replace(/[0-9]/g, 'q');
    const byName = await named('read', `Zelda ${tag.toUpperCase()}`);
    const byEmail = await named('edit', 'Link', `mail-${tag}`);
    const byDomain = await named('comment', 'Ganon', 'someone', `${tag}-corp.test`);
    await named('read', 'Unrelated');

    const api = official(admin);
    const mixedCase = tag.slice(0, 4).toUpperCase() + tag.slice(4);
    const found = await api.orgs.listMembersInOrganizationById(organizationId, { search: mixedCase, order: 'asc' });
    expectMatchesSchema('GET', LIST, 200, found.data);
    expect(found.data.count).toBe(3);
    expect(itemIds(found.data)).toEqual([byName.id, byEmail.id, byDomain.id]);

    const nameOnly = (await t.call('GET', `/v1/orgs/${organizationId}/members?search=zELDA`, { token: admin.token })).json();
    expect(itemIds(nameOnly)).toEqual([byName.id]);
    const emailOnly = (
      await t.call('GET', `/v1/orgs/${organizationId}/members?search=${encodeURIComponent(`MAIL-${tag.toUpperCase()}-`)}`, {
        token: admin.token,
      })
    ).json();
    expect(itemIds(emailOnly)).toEqual([byEmail.id]);

    // Search combines with the role filter.
    const combined = (await t.call('GET', `/v1/orgs/${organizationId}/members?search=${tag}&role=edit`, { token: admin.token })).json();
    expect(combined.count).toBe(1);
    expect(itemIds(combined)).toEqual([byEmail.id]);

    const nothing = await t.call('GET', `/v1/orgs/${organizationId}/members?search=nobody-${unique()}`, { token: admin.token });
    expect(nothing.statusCode).toBe(200);
    expect(nothing.json()).toEqual({ count: 0, items: [] });
  });

  it('takes % and _ in a search literally', async () => {
    const { organizationId, admin, named } = await setup();
    const underscore = await named('read', 'Under_score');
    const percent = await named('read', 'Hundred%');
    await named('read', 'Plainname');
    for (const [search, expected] of [
      ['_', [underscore.id]],
      ['%', [percent.id]],
      ['r_s', [underscore.id]],
      ['d%', [percent.id]],
    ] as const) {
      const response = await t.call('GET', `/v1/orgs/${organizationId}/members?search=${encodeURIComponent(search)}`, {
        token: admin.token,
      });
      expect(response.statusCode).toBe(200);
      expect(itemIds(response.json()), `search=${search}`).toEqual(expected);
      expect(response.json().count, `search=${search}`).toBe(expected.length);
    }
  });

  it('ignores case beyond ASCII letters too', async () => {
    const { organizationId, admin, named } = await setup();
    const accented = await named('read', 'Émile Ångström');
    await named('read', 'Emile Angstrom');
    for (const search of ['Émile', 'émile', 'ÉMILE', 'ångström', 'ÅNGSTRÖM']) {
      const body = (await t.call('GET', `/v1/orgs/${organizationId}/members?search=${encodeURIComponent(search)}`, { token: admin.token })).json();
      expect(itemIds(body), `search=${search}`).toEqual([accented.id]);
    }
  });

  it('sorts by name', async () => {
    const { organizationId, admin, named } = await setup();
    await t.database.db.user.update({ where: { id: admin.id }, data: { displayName: `Mike ${unique()}` } });
    const charlie = await named('read', 'Charlie');
    const alpha = await named('read', 'Alpha');
    const zulu = await named(null, 'Zulu');
    const bravo = await named('edit', 'Bravo');
    const api = official(admin);
    const asc = await api.orgs.listMembersInOrganizationById(organizationId, { sort: 'name', order: 'asc' });
    expectMatchesSchema('GET', LIST, 200, asc.data);
    expect(itemIds(asc.data)).toEqual([alpha.id, bravo.id, charlie.id, admin.id, zulu.id]);
    const desc = await api.orgs.listMembersInOrganizationById(organizationId, { sort: 'name' });
    expect(itemIds(desc.data)).toEqual([zulu.id, admin.id, charlie.id, bravo.id, alpha.id]);

    // Pages of a name-sorted listing continue where the previous one stopped.
    const seen: string[] = [];
    let page: string | undefined;
    for (let round = 0; round < 5; round += 1) {
      const { data } = await api.orgs.listMembersInOrganizationById(organizationId, {
        sort: 'name',
        order: 'asc',
        limit: 2,
        ...(page ? { page } : {}),
      });
      expect(data.count).toBe(5);
      seen.push(...itemIds(data));
      page = data.next?.page;
      if (!page) break;
    }
    expect(seen).toEqual([alpha.id, bravo.id, charlie.id, admin.id, zulu.id]);
  });

  it('sorts by last activity, listing only members who pinged', async () => {
    const { organizationId, admin, named, ping } = await setup();
    const early = await named('read', 'Early');
    const late = await named(null, 'Late');
    await named('read', 'Silent');
    await ping(late);
    t.clock.advance(60_000);
    await ping(early);
    t.clock.advance(60_000);
    await ping(admin);

    const api = official(admin);
    const desc = await api.orgs.listMembersInOrganizationById(organizationId, { sort: 'lastSeenAt' });
    expectMatchesSchema('GET', LIST, 200, desc.data);
    expect(desc.data.count).toBe(3);
    expect(itemIds(desc.data)).toEqual([admin.id, early.id, late.id]);
    for (const item of desc.data.items) {
      const row = await memberRow(t, organizationId, item.id);
      expect(item.lastSeenAt).toBe(row!.lastSeenAt!.toISOString());
    }
    const asc = await api.orgs.listMembersInOrganizationById(organizationId, { sort: 'lastSeenAt', order: 'asc' });
    expect(itemIds(asc.data)).toEqual([late.id, early.id, admin.id]);

    const first = await api.orgs.listMembersInOrganizationById(organizationId, { sort: 'lastSeenAt', limit: 2 });
    expect(itemIds(first.data)).toEqual([admin.id, early.id]);
    const second = await api.orgs.listMembersInOrganizationById(organizationId, {
      sort: 'lastSeenAt',
      limit: 2,
      page: first.data.next!.page,
    });
    expect(itemIds(second.data)).toEqual([late.id]);
    expect(second.data.next).toBeUndefined();
  });

  it('pages with limit and next.page, and refuses bad paging parameters', async () => {
    const { organizationId, admin, named } = await setup();
    const members = [admin];
    for (let i = 0; i < 4; i += 1) members.push(await named('read', `Paged${i}`));
    const expected = members.map((member) => member.id).reverse();

    const seen: string[] = [];
    let url = `/v1/orgs/${organizationId}/members?limit=2`;
    const sizes: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      const response = await t.call('GET', url, { token: admin.token });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json();
      expectMatchesSchema('GET', LIST, 200, body);
      expect(body.count).toBe(5);
      sizes.push(body.items.length);
      seen.push(...itemIds(body));
      if (!body.next) break;
      url = `/v1/orgs/${organizationId}/members?limit=2&page=${encodeURIComponent(body.next.page)}`;
    }
    expect(sizes).toEqual([2, 2, 1]);
    expect(seen).toEqual(expected);

    const first = (await t.call('GET', `/v1/orgs/${organizationId}/members?limit=1`, { token: admin.token })).json();
    // A token belongs to the order it was made for.
    expectError(
      await t.call('GET', `/v1/orgs/${organizationId}/members?sort=name&page=${first.next.page}`, { token: admin.token }),
      400,
      /^page: is not a page token returned by this listing/,
    );
    for (const query of ['limit=1001', 'page=garbage', 'order=sideways', 'sort=email', 'search=']) {
      const response = await t.call('GET', `/v1/orgs/${organizationId}/members?${query}`, { token: admin.token });
      expectError(response, 400, new RegExp(`^${query.split('=')[0]}: `));
    }
  });

  it('is a 403 for guests, a 404 outside the organization and a 401 without a token', async () => {
    const { organizationId, member } = await setup();
    const guest = await member(null);
    const forbidden = await t.call('GET', `/v1/orgs/${organizationId}/members`, { token: guest.token });
    expectError(forbidden, 403);
    await expect(official(guest).orgs.listMembersInOrganizationById(organizationId)).rejects.toMatchObject({ code: 403 });
    const stranger = await buildUser(t.database);
    expectError(await t.call('GET', `/v1/orgs/${organizationId}/members`, { token: stranger.token }), 404);
    expectError(await t.call('GET', `/v1/orgs/${organizationId}/members`), 401);
  });
});

describe('GET /v1/orgs/{organizationId}/members/{userId}', () => {
  it('returns a member to another member, through the official client', async () => {
    const { organizationId, admin, named } = await setup();
    const reader = await named('read', 'Reader');
    const { data } = await official(reader).orgs.getMemberInOrganizationById(organizationId, admin.id);
    expectMatchesSchema('GET', MEMBER, 200, data);
    expect(data).toMatchObject({
      object: 'member',
      id: admin.id,
      role: 'admin',
      user: { id: admin.id, email: admin.email },
      disabled: false,
      joinedAt: '2020-01-01T00:00:00.000Z',
      sso: false,
      teams: 0,
      sites: 0,
    });
    expect(data.lastSeenAt).toBeUndefined();
  });

  it('lets a guest read its own membership but not the others', async () => {
    const { organizationId, admin, named } = await setup();
    const guest = await named(null, 'Guest');
    const own = await t.call('GET', `/v1/orgs/${organizationId}/members/${guest.id}`, { token: guest.token });
    expect(own.statusCode).toBe(200);
    expectMatchesSchema('GET', MEMBER, 200, own.json());
    expect(own.json()).toMatchObject({ id: guest.id, role: null, spaces: 0 });
    expectError(await t.call('GET', `/v1/orgs/${organizationId}/members/${admin.id}`, { token: guest.token }), 403);
  });

  it('is a 404 for someone who is not a member and for callers outside the organization', async () => {
    const { organizationId, admin } = await setup();
    const outsider = await buildUser(t.database);
    const missing = await t.call('GET', `/v1/orgs/${organizationId}/members/${outsider.id}`, { token: admin.token });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: { code: 404, message: `Member "${outsider.id}" was not found` } });
    expectError(await t.call('GET', `/v1/orgs/${organizationId}/members/${admin.id}`, { token: outsider.token }), 404);
    expectError(await t.call('GET', `/v1/orgs/${organizationId}/members/${admin.id}`), 401);
  });
});

describe('PATCH /v1/orgs/{organizationId}/members/{userId}', () => {
  it("lets an admin change a member's role, through the official client", async () => {
    const { organizationId, admin, named } = await setup();
    const reader = await named('read', 'Reader');
    const { data } = await official(admin).orgs.updateMemberInOrganizationById(organizationId, reader.id, {
      role: MemberRole.Review,
    });
    expectMatchesSchema('PATCH', MEMBER, 200, data);
    expect(data).toMatchObject({ object: 'member', id: reader.id, role: 'review', joinedAt: '2020-01-02T00:00:00.000Z' });
    expect(await memberRow(t, organizationId, reader.id)).toMatchObject({ role: 'review' });
    const read = await t.call('GET', `/v1/orgs/${organizationId}/members/${reader.id}`, { token: admin.token });
    expect(read.json()).toEqual(data);
  });

  it('makes a member a guest with role null', async () => {
    const { organizationId, admin, named } = await setup();
    const editor = await named('edit', 'Editor');
    const response = await t.call('PATCH', `/v1/orgs/${organizationId}/members/${editor.id}`, {
      token: admin.token,
      body: { role: null },
    });
    expect(response.statusCode, response.body).toBe(200);
    expectMatchesSchema('PATCH', MEMBER, 200, response.json());
    expect(response.json()).toMatchObject({ id: editor.id, role: null, spaces: 0 });
    expect(await memberRow(t, organizationId, editor.id)).toMatchObject({ role: null });
    const guests = (await t.call('GET', `/v1/orgs/${organizationId}/members?role=guest`, { token: admin.token })).json();
    expect(itemIds(guests)).toEqual([editor.id]);
    // The new guest lost access to the member list.
    expectError(await t.call('GET', `/v1/orgs/${organizationId}/members`, { token: editor.token }), 403);
  });

  it('is a 409 when it would demote the last admin; with another admin it is allowed', async () => {
    const { organizationId, admin, named } = await setup();
    const demote = await t.call('PATCH', `/v1/orgs/${organizationId}/members/${admin.id}`, {
      token: admin.token,
      body: { role: 'create' },
    });
    expectError(demote, 409, /at least one admin/);
    expect(await memberRow(t, organizationId, admin.id)).toMatchObject({ role: 'admin' });
    const toGuest = await t.call('PATCH', `/v1/orgs/${organizationId}/members/${admin.id}`, {
      token: admin.token,
      body: { role: null },
    });
    expectError(toGuest, 409);
    // Setting admin on the last admin is not a demotion.
    const same = await t.call('PATCH', `/v1/orgs/${organizationId}/members/${admin.id}`, {
      token: admin.token,
      body: { role: 'admin' },
    });
    expect(same.statusCode, same.body).toBe(200);

    const second = await named('admin', 'Second admin');
    const allowed = await t.call('PATCH', `/v1/orgs/${organizationId}/members/${admin.id}`, {
      token: second.token,
      body: { role: 'read' },
    });
    expect(allowed.statusCode, allowed.body).toBe(200);
    expect(allowed.json().role).toBe('read');
    expect(await memberRow(t, organizationId, admin.id)).toMatchObject({ role: 'read' });
    // Now the second admin is the last one.
    expectError(await t.call('PATCH', `/v1/orgs/${organizationId}/members/${second.id}`, { token: second.token, body: { role: 'read' } }), 409);
    expect(await memberRow(t, organizationId, second.id)).toMatchObject({ role: 'admin' });
  });

  it('keeps an admin when the last two admins demote each other at the same time', async () => {
    for (let round = 0; round < 8; round += 1) {
      const { organizationId, admin, named } = await setup();
      const second = await named('admin', 'Second admin');
      const responses = await Promise.all([
        t.call('PATCH', `/v1/orgs/${organizationId}/members/${second.id}`, { token: admin.token, body: { role: 'read' } }),
        t.call('PATCH', `/v1/orgs/${organizationId}/members/${admin.id}`, { token: second.token, body: { role: 'read' } }),
      ]);
      const statuses = responses.map((response) => response.statusCode).sort();
      const admins = await t.database.db.member.count({ where: { organizationId, role: 'admin', disabled: false } });
      expect(admins, `round ${round}: statuses ${statuses.join(', ')}`).toBe(1);
      // One demotion wins; the other is refused (403: no longer an admin, or 409: the last admin).
      expect(
        statuses.filter((status) => status === 200),
        `round ${round}`,
      ).toHaveLength(1);
    }
  });

  it('counts a disabled admin as no admin', async () => {
    const { organizationId, admin, named } = await setup();
    const disabled = await named('admin', 'Disabled admin');
    await t.database.db.member.update({
      where: { organizationId_userId: { organizationId, userId: disabled.id } },
      data: { disabled: true },
    });
    expectError(await t.call('PATCH', `/v1/orgs/${organizationId}/members/${admin.id}`, { token: admin.token, body: { role: 'read' } }), 409);
    expect(await memberRow(t, organizationId, admin.id)).toMatchObject({ role: 'admin' });
  });

  it('rejects invalid roles with a 400 and changes nothing', async () => {
    const { organizationId, admin, named } = await setup();
    const reader = await named('read', 'Reader');
    for (const [body, message] of [
      [{ role: 'owner' }, /^role: /],
      [{ role: 'guest' }, /^role: /],
      [{ role: 'ADMIN' }, /^role: /],
      [{ role: 3 }, /^role: /],
      [{}, /^role: /],
      [{ role: 'edit', disabled: true }, /unknown field "disabled"/],
    ] as const) {
      const response = await t.call('PATCH', `/v1/orgs/${organizationId}/members/${reader.id}`, {
        token: admin.token,
        body,
      });
      expectError(response, 400, message);
    }
    expect(await memberRow(t, organizationId, reader.id)).toMatchObject({ role: 'read', disabled: false });
  });

  it('says "is required" when role is missing, and names the rule when it has the wrong type', async () => {
    const { organizationId, admin, named } = await setup();
    const reader = await named('read', 'Reader');
    const url = `/v1/orgs/${organizationId}/members/${reader.id}`;
    expectError(await t.call('PATCH', url, { token: admin.token, body: {} }), 400, /^role: is required$/);
    const wrongType = await t.call('PATCH', url, { token: admin.token, body: { role: 3 } });
    expectError(wrongType, 400, /^role: /);
    expect(wrongType.json().error.message).not.toMatch(/is required/);
    expect(await memberRow(t, organizationId, reader.id)).toMatchObject({ role: 'read' });
  });

  it('is for admins only: 403 for other roles, 404 for unknown members and outsiders', async () => {
    const { organizationId, admin, named } = await setup();
    const creator = await named('create', 'Creator');
    const reader = await named('read', 'Reader');
    expectError(await t.call('PATCH', `/v1/orgs/${organizationId}/members/${reader.id}`, { token: creator.token, body: { role: 'edit' } }), 403);
    // Nobody promotes themselves.
    expectError(await t.call('PATCH', `/v1/orgs/${organizationId}/members/${creator.id}`, { token: creator.token, body: { role: 'admin' } }), 403);
    expect(await memberRow(t, organizationId, reader.id)).toMatchObject({ role: 'read' });
    expect(await memberRow(t, organizationId, creator.id)).toMatchObject({ role: 'create' });

    const outsider = await buildUser(t.database);
    expectError(await t.call('PATCH', `/v1/orgs/${organizationId}/members/${outsider.id}`, { token: admin.token, body: { role: 'read' } }), 404);
    expect(await memberRow(t, organizationId, outsider.id)).toBeNull();
    expectError(await t.call('PATCH', `/v1/orgs/${organizationId}/members/${reader.id}`, { token: outsider.token, body: { role: 'admin' } }), 404);
  });
});

describe('DELETE /v1/orgs/{organizationId}/members/{userId}', () => {
  it('lets an admin remove a member: 204, through the official client', async () => {
    const { organizationId, admin, named } = await setup();
    const reader = await named('read', 'Reader');
    const response = await official(admin).orgs.removeMemberFromOrganizationById(organizationId, reader.id);
    expect(response.status).toBe(204);
    expect(await memberRow(t, organizationId, reader.id)).toBeNull();
    // The user remains; the membership is gone.
    expect(await t.database.db.user.findUnique({ where: { id: reader.id } })).not.toBeNull();
    expectError(await t.call('GET', `/v1/orgs/${organizationId}/members/${reader.id}`, { token: admin.token }), 404);
    expectError(await t.call('GET', `/v1/orgs/${organizationId}`, { token: reader.token }), 404);
  });

  it('lets an admin remove another admin, with an empty 204', async () => {
    const { organizationId, admin, named } = await setup();
    const other = await named('admin', 'Other admin');
    const response = await t.call('DELETE', `/v1/orgs/${organizationId}/members/${other.id}`, { token: admin.token });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(await memberRow(t, organizationId, other.id)).toBeNull();
  });

  it('lets members and guests leave, but not remove others', async () => {
    const { organizationId, admin, named } = await setup();
    const reader = await named('read', 'Reader');
    const creator = await named('create', 'Creator');
    const guest = await named(null, 'Guest');
    expectError(await t.call('DELETE', `/v1/orgs/${organizationId}/members/${reader.id}`, { token: creator.token }), 403);
    expectError(await t.call('DELETE', `/v1/orgs/${organizationId}/members/${admin.id}`, { token: guest.token }), 403);
    expect(await memberRow(t, organizationId, reader.id)).not.toBeNull();
    expect(await memberRow(t, organizationId, admin.id)).not.toBeNull();

    const leave = await t.call('DELETE', `/v1/orgs/${organizationId}/members/${reader.id}`, { token: reader.token });
    expect(leave.statusCode, leave.body).toBe(204);
    expect(await memberRow(t, organizationId, reader.id)).toBeNull();
    const guestLeaves = await t.call('DELETE', `/v1/orgs/${organizationId}/members/${guest.id}`, { token: guest.token });
    expect(guestLeaves.statusCode, guestLeaves.body).toBe(204);
    expect(await memberRow(t, organizationId, guest.id)).toBeNull();
    expect(await memberRow(t, organizationId, creator.id)).not.toBeNull();
  });

  it('is a 409 when it would remove the last admin', async () => {
    const { organizationId, admin, named } = await setup();
    await named('create', 'Creator');
    const response = await t.call('DELETE', `/v1/orgs/${organizationId}/members/${admin.id}`, { token: admin.token });
    expectError(response, 409, /at least one admin/);
    expect(await memberRow(t, organizationId, admin.id)).toMatchObject({ role: 'admin' });

    // With a second admin, the first can leave; then the second is the last one.
    const second = await named('admin', 'Second admin');
    expect((await t.call('DELETE', `/v1/orgs/${organizationId}/members/${admin.id}`, { token: admin.token })).statusCode).toBe(204);
    expect(await memberRow(t, organizationId, admin.id)).toBeNull();
    expectError(await t.call('DELETE', `/v1/orgs/${organizationId}/members/${second.id}`, { token: second.token }), 409);
    expect(await memberRow(t, organizationId, second.id)).not.toBeNull();
  });

  it('keeps an admin when the last two admins leave at the same time', async () => {
    for (let round = 0; round < 8; round += 1) {
      const { organizationId, admin, named } = await setup();
      const second = await named('admin', 'Second admin');
      const responses = await Promise.all([
        t.call('DELETE', `/v1/orgs/${organizationId}/members/${admin.id}`, { token: admin.token }),
        t.call('DELETE', `/v1/orgs/${organizationId}/members/${second.id}`, { token: second.token }),
      ]);
      const statuses = responses.map((response) => response.statusCode).sort();
      expect(statuses, `round ${round}`).toEqual([204, 409]);
      const admins = await t.database.db.member.count({ where: { organizationId, role: 'admin', disabled: false } });
      expect(admins, `round ${round}`).toBe(1);
    }
  });

  it('is a 404 for unknown members and outsiders, 401 without a token', async () => {
    const { organizationId, admin } = await setup();
    const outsider = await buildUser(t.database);
    expectError(await t.call('DELETE', `/v1/orgs/${organizationId}/members/${outsider.id}`, { token: admin.token }), 404);
    expectError(await t.call('DELETE', `/v1/orgs/${organizationId}/members/${admin.id}`, { token: outsider.token }), 404);
    expectError(await t.call('DELETE', `/v1/orgs/${organizationId}/members/${admin.id}`), 401);
    expect(await memberRow(t, organizationId, admin.id)).not.toBeNull();
  });
});

describe('POST /v1/orgs/{organizationId}/ping', () => {
  it("records the caller's last-seen time from the clock", async () => {
    const { organizationId, admin, named } = await setup();
    const guest = await named(null, 'Guest');
    expect((await memberRow(t, organizationId, guest.id))!.lastSeenAt).toBeNull();

    const before = t.clock.now().getTime();
    const { data, status } = await official(guest).orgs.updateOrganizationMemberLastSeenAt(organizationId);
    const after = t.clock.now().getTime();
    expect(status).toBe(200);
    // Guests see no content: no visitor claims for them.
    expect(data).toEqual({});
    expectMatchesSchema('POST', '/v1/orgs/{organizationId}/ping', 200, data);
    // A member's visitor claims, signed with the organization's key.
    const reader = await named('read', 'Reader');
    const readerPing = (await official(reader).orgs.updateOrganizationMemberLastSeenAt(organizationId)).data;
    expectMatchesSchema('POST', '/v1/orgs/{organizationId}/ping', 200, readerPing);
    const organizationKey = (await t.database.db.organization.findUniqueOrThrow({ where: { id: organizationId } })).visitorClaimsSecret;
    // The contract names it docsVisitorClaims where the official client types say gitbookVisitorClaims.
    const claims = (readerPing as { docsVisitorClaims?: string }).docsVisitorClaims!;
    const { payload } = await jwtVerify(claims, new TextEncoder().encode(organizationKey));
    expect(payload).toMatchObject({ sub: reader.id, email: reader.email, role: 'read', organization: organizationId });
    const firstSeen = (await memberRow(t, organizationId, guest.id))!.lastSeenAt!;
    expect(firstSeen.getTime()).toBeGreaterThanOrEqual(before);
    expect(firstSeen.getTime()).toBeLessThanOrEqual(after);
    // Only the caller's membership changes.
    expect((await memberRow(t, organizationId, admin.id))!.lastSeenAt).toBeNull();

    t.clock.advance(3 * 24 * 60 * 60 * 1000);
    const again = await t.call('POST', `/v1/orgs/${organizationId}/ping`, { token: guest.token });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({});
    const secondSeen = (await memberRow(t, organizationId, guest.id))!.lastSeenAt!;
    expect(secondSeen.getTime() - firstSeen.getTime()).toBeGreaterThanOrEqual(3 * 24 * 60 * 60 * 1000);

    const member = await t.call('GET', `/v1/orgs/${organizationId}/members/${guest.id}`, { token: guest.token });
    expect(member.json().lastSeenAt).toBe(secondSeen.toISOString());
  });

  it('is a 404 outside the organization and a 401 without a token', async () => {
    const { organizationId } = await setup();
    const outsider = await buildUser(t.database);
    expectError(await t.call('POST', `/v1/orgs/${organizationId}/ping`, { token: outsider.token }), 404);
    expectError(await t.call('POST', `/v1/orgs/${organizationId}/ping`), 401);
    expect(await t.database.db.member.count({ where: { userId: outsider.id } })).toBe(0);
  });
});

describe('POST /v1/orgs/{organizationId}/members/{userId}/sso', () => {
  it('lets an admin mark a member as an SSO member', async () => {
    const { organizationId, admin, named } = await setup();
    const reader = await named('read', 'Reader');
    const response = await t.call('POST', `/v1/orgs/${organizationId}/members/${reader.id}/sso`, { token: admin.token });
    expect(response.statusCode, response.body).toBe(200);
    expectMatchesSchema('POST', '/v1/orgs/{organizationId}/members/{userId}/sso', 200, response.json());
    expect(response.json()).toMatchObject({ object: 'member', id: reader.id, role: 'read', sso: true });
    expect(await memberRow(t, organizationId, reader.id)).toMatchObject({ sso: true, role: 'read' });
    const { data } = await official(reader).orgs.getMemberInOrganizationById(organizationId, reader.id);
    expect(data.sso).toBe(true);
  });

  it('is for admins only, and a 404 for unknown members', async () => {
    const { organizationId, admin, named } = await setup();
    const creator = await named('create', 'Creator');
    const reader = await named('read', 'Reader');
    expectError(await t.call('POST', `/v1/orgs/${organizationId}/members/${reader.id}/sso`, { token: creator.token }), 403);
    expectError(await t.call('POST', `/v1/orgs/${organizationId}/members/${creator.id}/sso`, { token: creator.token }), 403);
    expect(await memberRow(t, organizationId, reader.id)).toMatchObject({ sso: false });
    expect(await memberRow(t, organizationId, creator.id)).toMatchObject({ sso: false });
    const outsider = await buildUser(t.database);
    expectError(await t.call('POST', `/v1/orgs/${organizationId}/members/${outsider.id}/sso`, { token: admin.token }), 404);
    expectError(await t.call('POST', `/v1/orgs/${organizationId}/members/${admin.id}/sso`, { token: outsider.token }), 404);
  });
});

describe('GET /v1/orgs/{organizationId}/members/{userId}/spaces', () => {
  /**
   * root: "Root" (inherits the member's role)
   * "Editors" collection (defaultLevel edit):
   *    "Inherits edit", "Comment only" (defaultLevel comment),
   *    "Nested" collection (inherits): "Deep inherits edit"
   * plus a deleted space, which is never listed.
   */
  async function contentTree() {
    const team = await setup();
    const { organizationId, admin } = team;
    const call = async (method: string, url: string, body: Record<string, unknown>, status: number) => {
      const response = await t.call(method, url, { token: admin.token, body });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(status);
      return response.json();
    };
    const editors = await call('POST', `/v1/orgs/${organizationId}/collections`, { title: 'Editors' }, 201);
    await call('PATCH', `/v1/collections/${editors.id}`, { defaultLevel: 'edit' }, 200);
    const nested = await call('POST', `/v1/orgs/${organizationId}/collections`, { title: 'Nested', parent: editors.id }, 201);
    const space = (title: string, parent?: string) => call('POST', `/v1/orgs/${organizationId}/spaces`, { title, ...(parent ? { parent } : {}) }, 201);
    const root = await space('Root');
    const inherits = await space('Inherits edit', editors.id);
    const commentOnly = await space('Comment only', editors.id);
    await call('PATCH', `/v1/spaces/${commentOnly.id}`, { defaultLevel: 'comment' }, 200);
    const deep = await space('Deep inherits edit', nested.id);
    const deleted = await space('Deleted');
    expect((await t.call('DELETE', `/v1/spaces/${deleted.id}`, { token: admin.token })).statusCode).toBe(205);
    // Known creation times: root oldest, deep newest.
    const spaces = [root, inherits, commentOnly, deep];
    for (const [index, created] of spaces.entries()) {
      await t.database.db.space.update({ where: { id: created.id }, data: { createdAt: new Date(Date.UTC(2021, 5, index + 1)) } });
    }
    return { ...team, root, inherits, commentOnly, deep };
  }

  it("gives a member's level on each space, inheriting collection default levels", async () => {
    const { organizationId, named, root, inherits, commentOnly, deep } = await contentTree();
    const reader = await named('read', 'Reader');
    const { data } = await official(reader).orgs.listSpacesForOrganizationMember(organizationId, reader.id);
    expectMatchesSchema('GET', SPACES, 200, data);
    expect(data.count).toBe(4);
    expect(data.next).toBeUndefined();
    expect(data.items.map((item) => [item.space.id, item.permission])).toEqual([
      [deep.id, 'edit'],
      [commentOnly.id, 'comment'],
      [inherits.id, 'edit'],
      [root.id, 'read'],
    ]);
    expect(data.items[0]!.space).toMatchObject({ object: 'space', id: deep.id, title: 'Deep inherits edit', organization: organizationId });
    // The member's `spaces` count is the size of this listing (the deleted space is in neither).
    const asMember = await t.call('GET', `/v1/orgs/${organizationId}/members/${reader.id}`, { token: reader.token });
    expect(asMember.json().spaces).toBe(4);

    const creator = await named('create', 'Creator');
    const rest = await t.call('GET', `/v1/orgs/${organizationId}/members/${creator.id}/spaces?order=asc`, {
      token: creator.token,
    });
    expect(rest.statusCode).toBe(200);
    expectMatchesSchema('GET', SPACES, 200, rest.json());
    expect(rest.json().items.map((item: { space: { id: string }; permission: string }) => [item.space.id, item.permission])).toEqual([
      [root.id, 'create'],
      [inherits.id, 'edit'],
      [commentOnly.id, 'comment'],
      [deep.id, 'edit'],
    ]);
  });

  it("lets an admin list anyone's spaces, where admins have admin on everything", async () => {
    const { organizationId, admin, named, root, inherits, commentOnly, deep } = await contentTree();
    const reader = await named('read', 'Reader');
    const ofReader = await t.call('GET', `/v1/orgs/${organizationId}/members/${reader.id}/spaces`, { token: admin.token });
    expect(ofReader.statusCode).toBe(200);
    expect(ofReader.json().items.map((item: { permission: string }) => item.permission)).toEqual(['edit', 'comment', 'edit', 'read']);
    const own = await t.call('GET', `/v1/orgs/${organizationId}/members/${admin.id}/spaces?order=asc`, { token: admin.token });
    expectMatchesSchema('GET', SPACES, 200, own.json());
    expect(own.json().items.map((item: { space: { id: string }; permission: string }) => [item.space.id, item.permission])).toEqual([
      [root.id, 'admin'],
      [inherits.id, 'admin'],
      [commentOnly.id, 'admin'],
      [deep.id, 'admin'],
    ]);
  });

  it('is an empty list for a guest member', async () => {
    const { organizationId, admin, named } = await contentTree();
    const guest = await named(null, 'Guest');
    for (const token of [admin.token, guest.token]) {
      const response = await t.call('GET', `/v1/orgs/${organizationId}/members/${guest.id}/spaces`, { token });
      expect(response.statusCode, response.body).toBe(200);
      expectMatchesSchema('GET', SPACES, 200, response.json());
      expect(response.json()).toEqual({ count: 0, items: [] });
    }
  });

  it('pages with limit and next.page', async () => {
    const { organizationId, named, root, inherits, commentOnly, deep } = await contentTree();
    const reader = await named('read', 'Reader');
    const api = official(reader);
    const first = await api.orgs.listSpacesForOrganizationMember(organizationId, reader.id, { limit: 3, order: 'asc' });
    expectMatchesSchema('GET', SPACES, 200, first.data);
    expect(first.data.count).toBe(4);
    expect(first.data.items.map((item) => item.space.id)).toEqual([root.id, inherits.id, commentOnly.id]);
    const second = await api.orgs.listSpacesForOrganizationMember(organizationId, reader.id, {
      limit: 3,
      order: 'asc',
      page: first.data.next!.page,
    });
    expect(second.data.items.map((item) => [item.space.id, item.permission])).toEqual([[deep.id, 'edit']]);
    expect(second.data.next).toBeUndefined();
    expectError(await t.call('GET', `/v1/orgs/${organizationId}/members/${reader.id}/spaces?limit=1001`, { token: reader.token }), 400, /^limit: /);
    expectError(await t.call('GET', `/v1/orgs/${organizationId}/members/${reader.id}/spaces?order=up`, { token: reader.token }), 400, /^order: /);
  });

  it("is a 403 for another non-admin member's spaces, and a 404 for unknown members and outsiders", async () => {
    const { organizationId, admin, named } = await setup();
    const reader = await named('read', 'Reader');
    const creator = await named('create', 'Creator');
    expectError(await t.call('GET', `/v1/orgs/${organizationId}/members/${reader.id}/spaces`, { token: creator.token }), 403);
    const outsider = await buildUser(t.database);
    expectError(await t.call('GET', `/v1/orgs/${organizationId}/members/${outsider.id}/spaces`, { token: admin.token }), 404);
    expectError(await t.call('GET', `/v1/orgs/${organizationId}/members/${outsider.id}/spaces`, { token: outsider.token }), 404);
  });
});

describe('GET /v1/orgs/{organizationId}/members/{userId}/teams', () => {
  it('is empty for a member of no team', async () => {
    const { organizationId, admin, named } = await setup();
    const reader = await named('read', 'Reader');
    const { data } = await official(reader).orgs.listTeamsForOrganizationMember(organizationId, admin.id);
    expectMatchesSchema('GET', TEAMS, 200, data);
    expect(data).toEqual({ count: 0, items: [] });
    const rest = await t.call('GET', `/v1/orgs/${organizationId}/members/${reader.id}/teams?title=docs&limit=5`, {
      token: reader.token,
    });
    expect(rest.statusCode).toBe(200);
    expectMatchesSchema('GET', TEAMS, 200, rest.json());
    expect(rest.json()).toEqual({ count: 0, items: [] });
  });

  it('is a 403 for guests, a 404 for unknown members and outsiders', async () => {
    const { organizationId, admin, named } = await setup();
    const guest = await named(null, 'Guest');
    expectError(await t.call('GET', `/v1/orgs/${organizationId}/members/${admin.id}/teams`, { token: guest.token }), 403);
    const outsider = await buildUser(t.database);
    expectError(await t.call('GET', `/v1/orgs/${organizationId}/members/${outsider.id}/teams`, { token: admin.token }), 404);
    expectError(await t.call('GET', `/v1/orgs/${organizationId}/members/${admin.id}/teams`, { token: outsider.token }), 404);
    expectError(await t.call('GET', `/v1/orgs/${organizationId}/members/${admin.id}/teams`), 401);
  });
});
