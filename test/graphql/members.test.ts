import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { type TestUser, buildUser, memberRoster } from '../support/factories.ts';
import {
  type Connection,
  type GraphQLResult,
  MEMBER_FIELDS,
  connectionOf,
  expectData,
  expectGraphQLError,
  expectUnauthenticated,
  mutate,
  mutation,
  nodeIds,
} from '../support/graphql.ts';
import { followBackward, followForward } from '../support/listings.ts';
import { memberRow } from '../support/rows.ts';
import { buildWorld } from '../support/world.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

/** An organization whose members have chosen names and join dates: the admin joined first, then one per day. */
async function setup() {
  const world = await buildWorld(t);
  const { joined, named } = memberRoster(t.database, world.organizationId);
  await joined(world.admin);
  return { ...world, named };
}

const MEMBERS = `
  query($id: ID!, $first: Int, $after: String, $last: Int, $before: String, $order: OrderDirection,
        $role: MemberRoleFilter, $search: String, $sort: MemberSort) {
    organization(id: $id) {
      members(first: $first, after: $after, last: $last, before: $before, order: $order, role: $role, search: $search, sort: $sort) {
        ${connectionOf('id role user { id displayName email }')}
      }
    }
  }`;

async function members(user: TestUser, organizationId: string, args: Record<string, unknown> = {}): Promise<Connection> {
  return expectData(await t.graphql(user.token, MEMBERS, { id: organizationId, ...args })).organization.members;
}

describe('query member', () => {
  const query = `query($org: ID!, $user: ID!) { member(organizationId: $org, userId: $user) { ${MEMBER_FIELDS} } }`;

  it('has every field of the member, as REST answers it', async () => {
    const { organizationId, admin, named, space } = await setup();
    await space();
    await space();
    const reader = await named('read', 'Reader');
    const data = expectData(await t.graphql(admin.token, query, { org: organizationId, user: reader.id }));
    const rest = (await t.call('GET', `/v1/orgs/${organizationId}/members/${reader.id}`, { token: admin.token })).json();
    expect(data.member).toEqual({
      id: reader.id,
      object: 'member',
      role: 'read',
      disabled: false,
      joinedAt: rest.joinedAt,
      lastSeenAt: null,
      sso: false,
      spaces: 2,
      teams: 0,
      sites: 0,
      user: { ...rest.user, photoURL: null },
      organization: { id: organizationId },
    });
    expect(data.member.joinedAt).toBe(new Date(Date.UTC(2020, 0, 2)).toISOString());
    expect(data.member.user).toMatchObject({ id: reader.id, email: reader.email, object: 'user' });
  });

  it('lets guests read their own membership only: another member is a 403', async () => {
    const { organizationId, admin, named } = await setup();
    const guest = await named(null, 'Guest');
    const own = expectData(await t.graphql(guest.token, query, { org: organizationId, user: guest.id }));
    expect(own.member).toMatchObject({ id: guest.id, role: null, spaces: 0 });
    const other = await t.graphql(guest.token, query, { org: organizationId, user: admin.id });
    expectGraphQLError(other, 403, "You are not allowed to read this organization's members");
    expect(other.data).toEqual({ member: null });
  });

  it('is a 404 outside the organization and for a user who is not a member', async () => {
    const { organizationId, admin } = await setup();
    const stranger = await buildUser(t.database, 'stranger');
    const hidden = await t.graphql(stranger.token, query, { org: organizationId, user: admin.id });
    expectGraphQLError(hidden, 404, `Organization "${organizationId}" was not found`);
    expect(hidden.data).toEqual({ member: null });
    const notMember = await t.graphql(admin.token, query, { org: organizationId, user: stranger.id });
    expectGraphQLError(notMember, 404, `Member "${stranger.id}" was not found`);
  });

  it('is a 401 without a token', async () => {
    const { organizationId, admin } = await setup();
    await expectUnauthenticated(t, query, { org: organizationId, user: admin.id });
  });
});

describe('Organization.members', () => {
  it('lists members latest joined first, or in the order, role, search and sort asked for', async () => {
    const { organizationId, admin, named } = await setup();
    const ann = await named('read', 'Ann', 'ann');
    const bob = await named('edit', 'Bob', 'bob');
    const cid = await named(null, 'Cid', 'cid');
    const dee = await named('comment', 'Dee', 'dee');

    const all = await members(admin, organizationId);
    expect(nodeIds(all)).toEqual([dee.id, cid.id, bob.id, ann.id, admin.id]);
    expect(all.totalCount).toBe(5);
    expect(all.edges.map((edge) => edge.node.role)).toEqual(['comment', null, 'edit', 'read', 'admin']);

    expect(nodeIds(await members(admin, organizationId, { order: 'asc' }))).toEqual([admin.id, ann.id, bob.id, cid.id, dee.id]);

    const guests = await members(admin, organizationId, { role: 'guest' });
    expect(nodeIds(guests)).toEqual([cid.id]);
    expect(guests.totalCount).toBe(1);
    expect(nodeIds(await members(admin, organizationId, { role: 'edit' }))).toEqual([bob.id]);

    // Search matches display names and emails, ignoring case.
    const byName = await members(admin, organizationId, { search: 'bOB' });
    expect(nodeIds(byName)).toEqual([bob.id]);
    expect(byName.totalCount).toBe(1);
    expect(nodeIds(await members(admin, organizationId, { search: 'dee-' }))).toEqual([dee.id]);

    const byNameAsc = await members(admin, organizationId, { sort: 'name', order: 'asc' });
    expect(nodeIds(byNameAsc)).toEqual([admin.id, ann.id, bob.id, cid.id, dee.id]);
    expect(nodeIds(await members(admin, organizationId, { sort: 'name', order: 'desc' }))).toEqual([dee.id, cid.id, bob.id, ann.id, admin.id]);

    // Sorting by activity lists only members who have been active, latest first.
    for (const user of [bob, ann]) {
      expectData(await mutate(t, user.token, 'pingOrganization', { organizationId }, 'docsVisitorClaims'));
      t.clock.advance(60_000);
    }
    const active = await members(admin, organizationId, { sort: 'lastSeenAt' });
    expect(nodeIds(active)).toEqual([ann.id, bob.id]);
    expect(active.totalCount).toBe(2);
  });

  it('pages with first/after and last/before, with totalCount and pageInfo', async () => {
    const { organizationId, admin, named } = await setup();
    const others = [];
    for (const name of ['One', 'Two', 'Three', 'Four']) others.push(await named('read', name));
    const expected = [...others.reverse().map((user) => user.id), admin.id];

    const first = await members(admin, organizationId, { first: 2 });
    expect(nodeIds(first)).toEqual(expected.slice(0, 2));
    expect(first.totalCount).toBe(5);
    expect(first.pageInfo).toEqual({
      hasNextPage: true,
      hasPreviousPage: false,
      startCursor: first.edges[0]!.cursor,
      endCursor: first.edges[1]!.cursor,
    });
    const pages = await followForward((after) => members(admin, organizationId, { first: 2, after }));
    expect(pages.map(nodeIds)).toEqual([expected.slice(0, 2), expected.slice(2, 4), expected.slice(4)]);
    expect(pages.map((page) => page.totalCount)).toEqual([5, 5, 5]);
    expect(pages[1]!.pageInfo.hasPreviousPage).toBe(true);

    const last = await members(admin, organizationId, { last: 2 });
    expect(nodeIds(last)).toEqual(expected.slice(3));
    expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const backward = await followBackward((before) => members(admin, organizationId, { last: 2, before }));
    expect(backward.map(nodeIds)).toEqual([expected.slice(3), expected.slice(1, 3), expected.slice(0, 1)]);

    // A filter applies to every page and to totalCount; a cursor of another order is refused.
    const asc = await members(admin, organizationId, { first: 2, order: 'asc' });
    expect(nodeIds(asc)).toEqual([...expected].reverse().slice(0, 2));
    const mixed = await t.graphql(admin.token, MEMBERS, { id: organizationId, first: 2, after: first.pageInfo.endCursor, order: 'asc' });
    expectGraphQLError(mixed, 400, /is not a page token returned by this listing/);
  });

  it('is a 400 naming the argument for a bad filter', async () => {
    const { organizationId, admin } = await setup();
    const result = await t.graphql(admin.token, MEMBERS, { id: organizationId, search: '' });
    expectGraphQLError(result, 400, /^search: /);
    expect(result.data).toEqual({ organization: null });
  });

  it('is a 403 for guests and a 404 for strangers', async () => {
    const { organizationId, named } = await setup();
    const guest = await named(null, 'Guest');
    const forbidden = await t.graphql(guest.token, MEMBERS, { id: organizationId });
    expectGraphQLError(forbidden, 403, "You are not allowed to list this organization's members");
    expect(forbidden.errors![0]).toMatchObject({ path: ['organization', 'members'] });
    const stranger = await buildUser(t.database, 'stranger');
    expectGraphQLError(await t.graphql(stranger.token, MEMBERS, { id: organizationId }), 404, `Organization "${organizationId}" was not found`);
  });

  it('is a 401 without a token', async () => {
    const { organizationId } = await setup();
    await expectUnauthenticated(t, MEMBERS, { id: organizationId });
  });
});

describe('Member.spacePermissions', () => {
  const SPACE_PERMISSIONS = `
    query($org: ID!, $user: ID!, $first: Int, $after: String, $last: Int, $before: String, $order: OrderDirection) {
      member(organizationId: $org, userId: $user) {
        id
        spacePermissions(first: $first, after: $after, last: $last, before: $before, order: $order) {
          ${connectionOf('permission space { id title organization { id } }')}
        }
      }
    }`;

  /** Spaces created one day apart: top level, in a collection with default level "comment", with default level "edit". */
  async function content() {
    const world = await setup();
    const { organizationId, admin, collection, space, rest } = world;
    const commented = await collection({ title: 'Comments' });
    await rest('PATCH', `/v1/collections/${commented.id}`, admin.token, { defaultLevel: 'comment' });
    const plain = await space({ title: 'Plain' });
    const inCollection = await space({ title: 'In collection', parent: commented.id });
    const editable = await space({ title: 'Editable' });
    await rest('PATCH', `/v1/spaces/${editable.id}`, admin.token, { defaultLevel: 'edit' });
    const spaces = [plain, inCollection, editable];
    for (const [index, entry] of spaces.entries()) {
      await t.database.db.space.update({ where: { id: entry.id }, data: { createdAt: new Date(Date.UTC(2022, 0, 1 + index)) } });
    }
    return { ...world, organizationId, spaces };
  }

  const spacePermissions = async (viewer: TestUser, org: string, user: string, args: Record<string, unknown> = {}): Promise<Connection> =>
    expectData(await t.graphql(viewer.token, SPACE_PERMISSIONS, { org, user, ...args })).member.spacePermissions;

  it("lists the spaces a member can access with the member's level, newest first", async () => {
    const { organizationId, admin, named, spaces } = await content();
    const reader = await named('read', 'Reader');
    const own = await spacePermissions(reader, organizationId, reader.id);
    expect(own.edges.map((edge) => [edge.node.space.id, edge.node.permission])).toEqual([
      [spaces[2].id, 'edit'],
      [spaces[1].id, 'comment'],
      [spaces[0].id, 'read'],
    ]);
    expect(own.totalCount).toBe(3);
    expect(own.edges[0]!.node.space.organization).toEqual({ id: organizationId });

    // Admins read anyone's, and are admins of everything.
    const asc = await spacePermissions(admin, organizationId, reader.id, { order: 'asc' });
    expect(asc.edges.map((edge) => edge.node.space.id)).toEqual(spaces.map((space) => space.id));
    const admins = await spacePermissions(admin, organizationId, admin.id);
    expect(admins.edges.map((edge) => edge.node.permission)).toEqual(['admin', 'admin', 'admin']);

    // Guests access no content.
    const guest = await named(null, 'Guest');
    const none = await spacePermissions(guest, organizationId, guest.id);
    expect(none.edges).toEqual([]);
    expect(none.totalCount).toBe(0);
  });

  it('pages with first/after and last/before', async () => {
    const { organizationId, admin, spaces } = await content();
    const newestFirst = spaces.map((space) => space.id).reverse();
    const pages = await followForward(async (after) => {
      const page = await spacePermissions(admin, organizationId, admin.id, { first: 2, after });
      return { ...page, edges: page.edges.map((edge) => ({ ...edge, node: { id: edge.node.space.id } })) };
    });
    expect(pages.map(nodeIds)).toEqual([newestFirst.slice(0, 2), newestFirst.slice(2)]);
    expect(pages[0]!.totalCount).toBe(3);
    const last = await spacePermissions(admin, organizationId, admin.id, { last: 1 });
    expect(last.edges.map((edge) => edge.node.space.id)).toEqual([newestFirst[2]]);
    expect(last.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
    const before = await spacePermissions(admin, organizationId, admin.id, { last: 5, before: last.pageInfo.startCursor });
    expect(before.edges.map((edge) => edge.node.space.id)).toEqual(newestFirst.slice(0, 2));
  });

  it("is a 403 for another member's spaces unless admin, a 404 outside, a 400 for bad paging", async () => {
    const { organizationId, admin, named } = await content();
    const reader = await named('read', 'Reader');
    const forbidden = await t.graphql(reader.token, SPACE_PERMISSIONS, { org: organizationId, user: admin.id });
    expectGraphQLError(forbidden, 403, "You are not allowed to list another member's spaces");
    expect(forbidden.errors![0]).toMatchObject({ path: ['member', 'spacePermissions'] });
    const stranger = await buildUser(t.database, 'stranger');
    expectGraphQLError(await t.graphql(stranger.token, SPACE_PERMISSIONS, { org: organizationId, user: admin.id }), 404);
    expectGraphQLError(await t.graphql(admin.token, SPACE_PERMISSIONS, { org: organizationId, user: admin.id, first: 5000 }), 400, /^first: /);
  });
});

describe('mutation updateMember', () => {
  const selection = `member { ${MEMBER_FIELDS} }`;

  it("changes a member's role; null makes a guest", async () => {
    const { organizationId, admin, named } = await setup();
    const reader = await named('read', 'Reader');
    const promoted = expectData(await mutate(t, admin.token, 'updateMember', { organizationId, userId: reader.id, role: 'create' }, selection));
    expect(promoted.updateMember.member).toMatchObject({ id: reader.id, role: 'create', organization: { id: organizationId }, user: { id: reader.id } });
    expect((await memberRow(t, organizationId, reader.id))!.role).toBe('create');

    const demoted = expectData(await mutate(t, admin.token, 'updateMember', { organizationId, userId: reader.id, role: null }, selection));
    expect(demoted.updateMember.member).toMatchObject({ id: reader.id, role: null });
    expect((await memberRow(t, organizationId, reader.id))!.role).toBeNull();
  });

  it('is a 400 naming role when it is missing, and a 409 when the last admin would be demoted', async () => {
    const { organizationId, admin, named } = await setup();
    const reader = await named('read', 'Reader');
    const missing = await mutate(t, admin.token, 'updateMember', { organizationId, userId: reader.id }, 'member { id }');
    expectGraphQLError(missing, 400, /^role: /);
    expect(missing.data).toBeNull();
    const last = await mutate(t, admin.token, 'updateMember', { organizationId, userId: admin.id, role: 'read' }, 'member { id }');
    expectGraphQLError(last, 409, /at least one admin/);
    expect((await memberRow(t, organizationId, admin.id))!.role).toBe('admin');
    expect((await memberRow(t, organizationId, reader.id))!.role).toBe('read');
  });

  it('is a 403 for non-admins, a 404 for strangers and for users who are not members', async () => {
    const { organizationId, admin, named } = await setup();
    const creator = await named('create', 'Creator');
    const forbidden = await mutate(t, creator.token, 'updateMember', { organizationId, userId: creator.id, role: 'admin' }, 'member { id }');
    expectGraphQLError(forbidden, 403, "You are not allowed to change members' roles");
    expect((await memberRow(t, organizationId, creator.id))!.role).toBe('create');
    const stranger = await buildUser(t.database, 'stranger');
    expectGraphQLError(
      await mutate(t, stranger.token, 'updateMember', { organizationId, userId: stranger.id, role: 'admin' }, 'member { id }'),
      404,
      `Organization "${organizationId}" was not found`,
    );
    expectGraphQLError(
      await mutate(t, admin.token, 'updateMember', { organizationId, userId: stranger.id, role: 'read' }, 'member { id }'),
      404,
      `Member "${stranger.id}" was not found`,
    );
    expect(await memberRow(t, organizationId, stranger.id)).toBeNull();
  });

  it('is a 401 without a token', async () => {
    const { organizationId, admin } = await setup();
    await expectUnauthenticated(t, mutation('updateMember', 'member { id }'), { input: { organizationId, userId: admin.id, role: 'read' } });
    expect((await memberRow(t, organizationId, admin.id))!.role).toBe('admin');
  });
});

describe('mutation setMemberSso', () => {
  it('marks a member as signed in through SSO', async () => {
    const { organizationId, admin, named } = await setup();
    const reader = await named('read', 'Reader');
    const data = expectData(await mutate(t, admin.token, 'setMemberSso', { organizationId, userId: reader.id }, `member { ${MEMBER_FIELDS} }`));
    expect(data.setMemberSso.member).toMatchObject({ id: reader.id, sso: true, role: 'read', organization: { id: organizationId } });
    expect((await memberRow(t, organizationId, reader.id))!.sso).toBe(true);
  });

  it('is a 403 for non-admins, a 404 for strangers and non-members', async () => {
    const { organizationId, admin, named } = await setup();
    const reader = await named('read', 'Reader');
    expectGraphQLError(
      await mutate(t, reader.token, 'setMemberSso', { organizationId, userId: reader.id }, 'member { id }'),
      403,
      'You are not allowed to manage SSO members',
    );
    expect((await memberRow(t, organizationId, reader.id))!.sso).toBe(false);
    const stranger = await buildUser(t.database, 'stranger');
    expectGraphQLError(await mutate(t, stranger.token, 'setMemberSso', { organizationId, userId: admin.id }, 'member { id }'), 404);
    expectGraphQLError(
      await mutate(t, admin.token, 'setMemberSso', { organizationId, userId: stranger.id }, 'member { id }'),
      404,
      `Member "${stranger.id}" was not found`,
    );
    expect((await memberRow(t, organizationId, admin.id))!.sso).toBe(false);
  });

  it('is a 401 without a token', async () => {
    const { organizationId, admin } = await setup();
    await expectUnauthenticated(t, mutation('setMemberSso', 'member { id }'), { input: { organizationId, userId: admin.id } });
    expect((await memberRow(t, organizationId, admin.id))!.sso).toBe(false);
  });
});

describe('mutation removeMember', () => {
  it('removes a member (admins), or the viewer itself (leaving)', async () => {
    const { organizationId, admin, named } = await setup();
    const reader = await named('read', 'Reader');
    const leaver = await named('edit', 'Leaver');
    const removed = expectData(await mutate(t, admin.token, 'removeMember', { organizationId, userId: reader.id }, 'removedUserId'));
    expect(removed.removeMember).toEqual({ removedUserId: reader.id });
    expect(await memberRow(t, organizationId, reader.id)).toBeNull();
    const left = expectData(await mutate(t, leaver.token, 'removeMember', { organizationId, userId: leaver.id }, 'removedUserId'));
    expect(left.removeMember).toEqual({ removedUserId: leaver.id });
    expect(await memberRow(t, organizationId, leaver.id)).toBeNull();
    // The removed member no longer sees the organization.
    expectGraphQLError(await t.graphql(reader.token, `query($id: ID!) { organization(id: $id) { id } }`, { id: organizationId }), 404);
  });

  it('is a 409 for the last admin, a 403 for non-admins removing others, a 404 outside', async () => {
    const { organizationId, admin, named } = await setup();
    const reader = await named('read', 'Reader');
    expectGraphQLError(await mutate(t, admin.token, 'removeMember', { organizationId, userId: admin.id }, 'removedUserId'), 409, /at least one admin/);
    expect(await memberRow(t, organizationId, admin.id)).not.toBeNull();
    const forbidden = await mutate(t, reader.token, 'removeMember', { organizationId, userId: admin.id }, 'removedUserId');
    expectGraphQLError(forbidden, 403, 'You are not allowed to remove members from this organization');
    expect(forbidden.data).toBeNull();
    const stranger = await buildUser(t.database, 'stranger');
    expectGraphQLError(await mutate(t, stranger.token, 'removeMember', { organizationId, userId: reader.id }, 'removedUserId'), 404);
    expectGraphQLError(
      await mutate(t, admin.token, 'removeMember', { organizationId, userId: stranger.id }, 'removedUserId'),
      404,
      `Member "${stranger.id}" was not found`,
    );
    expect(await memberRow(t, organizationId, reader.id)).not.toBeNull();
    expect(await t.database.db.member.count({ where: { organizationId } })).toBe(2);
  });

  it('is a 401 without a token', async () => {
    const { organizationId, named } = await setup();
    const reader = await named('read', 'Reader');
    await expectUnauthenticated(t, mutation('removeMember', 'removedUserId'), { input: { organizationId, userId: reader.id } });
    expect(await memberRow(t, organizationId, reader.id)).not.toBeNull();
  });
});

describe('mutation pingOrganization', () => {
  it("records the viewer's last activity, guests included", async () => {
    const { organizationId, named } = await setup();
    const guest = await named(null, 'Guest');
    const before = t.clock.now().getTime();
    const data = expectData(await mutate(t, guest.token, 'pingOrganization', { organizationId }, 'docsVisitorClaims'));
    // Guests see no content: no visitor claims for them; members get theirs.
    expect(data.pingOrganization.docsVisitorClaims).toBeNull();
    const reader = await named('read', 'Reader');
    const readerData = expectData(await mutate(t, reader.token, 'pingOrganization', { organizationId }, 'docsVisitorClaims'));
    expect(decodeJwt(readerData.pingOrganization.docsVisitorClaims)).toMatchObject({ sub: reader.id, role: 'read', organization: organizationId });
    const row = await memberRow(t, organizationId, guest.id);
    expect(row!.lastSeenAt).not.toBeNull();
    expect(row!.lastSeenAt!.getTime()).toBeGreaterThanOrEqual(before);
    const member = expectData(
      await t.graphql(guest.token, `query($o: ID!, $u: ID!) { member(organizationId: $o, userId: $u) { lastSeenAt } }`, { o: organizationId, u: guest.id }),
    ).member;
    expect(member.lastSeenAt).toBe(row!.lastSeenAt!.toISOString());
  });

  it('is a 404 outside the organization', async () => {
    const { organizationId } = await setup();
    const stranger = await buildUser(t.database, 'stranger');
    const result = await mutate(t, stranger.token, 'pingOrganization', { organizationId }, 'docsVisitorClaims');
    expectGraphQLError(result, 404, `Organization "${organizationId}" was not found`);
    expect(result.data).toBeNull();
    expect(await t.database.db.member.count({ where: { organizationId, lastSeenAt: { not: null } } })).toBe(0);
  });

  it('is a 401 without a token', async () => {
    const { organizationId } = await setup();
    await expectUnauthenticated(t, mutation('pingOrganization', 'docsVisitorClaims'), { input: { organizationId } });
  });
});

describe('GraphQL request errors of member operations', () => {
  it('are 400s naming the missing or unknown input field', async () => {
    const { organizationId, admin } = await setup();
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      [mutation('setMemberSso', 'member { id }'), { input: { organizationId } }, /userId/],
      [mutation('removeMember', 'removedUserId'), { input: { organizationId } }, /userId/],
      [mutation('pingOrganization', 'docsVisitorClaims'), { input: {} }, /organizationId/],
      [mutation('updateMember', 'member { id }'), { input: { organizationId, userId: admin.id, role: 'owner' } }, /owner/],
      [`query($o: ID!) { member(organizationId: $o) { id } }`, { o: organizationId }, /userId/],
    ];
    const answers: GraphQLResult[] = [];
    for (const [query, variables] of cases) answers.push(await t.graphql(admin.token, query, variables));
    expect(answers.map((answer) => answer.errors?.map((error) => error.extensions?.code))).toEqual(cases.map(() => [400]));
    cases.forEach(([query, , message], index) => expect(answers[index]!.errors![0]!.message, query).toMatch(message));
    expect(await memberRow(t, organizationId, admin.id)).toMatchObject({ role: 'admin', sso: false, lastSeenAt: null });
  });
});
