import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../support/app.ts';
import type { TestUser } from '../support/factories.ts';
import { USER_FIELDS, connectionOf, expectData, expectGraphQLError, mutate } from '../support/graphql.ts';
import { buildWorld } from '../support/world.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const TEAM_FIELDS = 'id object title members spaces createdAt permissions { admin view }';
const USER_PERMISSION = `permission user { ${USER_FIELDS} }`;
const TEAM_PERMISSION = `permission team { ${TEAM_FIELDS} }`;
const SITE_PERMISSION = `${USER_PERMISSION} origin { type organization site reason team } disabled lastSeenAt`;

/** A GraphQL node as REST spells it: fields REST leaves out are null here. */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, field]) => field !== null)
        .map(([key, field]) => [key, withoutNulls(field)]),
    );
  }
  return value;
}

/** An organization with a team of one reader, a guest, and helpers to read one content's grants both ways. */
async function setup() {
  const world = await buildWorld(t);
  const reader = await world.member('read');
  const guest = await world.member(null);
  const teamId = (await world.rest('PUT', `/v1/orgs/${world.organizationId}/teams`, world.admin.token, { title: 'Writers', members: [reader.id] }, 201))
    .id as string;
  const site = (await world.rest('POST', `/v1/orgs/${world.organizationId}/sites`, world.admin.token, { title: 'Docs' }, 201)).id as string;
  /** One listing as GraphQL answers it, with its REST twin: same items field for field, cursors the REST page tokens. */
  const expectParity = async (
    user: TestUser,
    graph: { type: 'space' | 'collection' | 'site'; id: string; field: string; args?: string; selection: string },
    restUrl: string,
  ) => {
    const query = `query($id: ID!) { ${graph.type}(id: $id) { ${graph.field}(first: 1${graph.args ? `, ${graph.args}` : ''}) { ${connectionOf(graph.selection)} } } }`;
    const connection = expectData(await t.graphql(user.token, query, { id: graph.id }))[graph.type][graph.field];
    const everything = expectData(await t.graphql(user.token, query.replace('first: 1', 'first: 100'), { id: graph.id }))[graph.type][graph.field];
    const separator = restUrl.includes('?') ? '&' : '?';
    const rest = await world.rest('GET', `${restUrl}${separator}limit=100`, user.token);
    const firstPage = await world.rest('GET', `${restUrl}${separator}limit=1`, user.token);
    expect(withoutNulls(everything.edges.map((edge: { node: unknown }) => edge.node))).toEqual(rest.items);
    expect(everything.totalCount).toBe(rest.count);
    expect(connection.pageInfo.hasNextPage).toBe(firstPage.next !== undefined);
    if (firstPage.next) expect(connection.pageInfo.endCursor).toBe(firstPage.next.page);
    return everything.edges.map((edge: { node: unknown }) => edge.node);
  };
  return { ...world, reader, guest, teamId, site, expectParity };
}

describe('grants of a site in the graph', () => {
  it('gives, changes and takes roles on a site, as REST does', async () => {
    const { admin, guest, reader, teamId, site, organizationId } = await setup();
    const siteGrants = () => t.database.db.contentGrant.findMany({ where: { siteId: site }, select: { userId: true, teamId: true, role: true } });

    const invited = expectData(await mutate(t, admin.token, 'inviteToSite', { siteId: site, role: 'read', users: [guest.id] }, 'site { id title }'));
    expect(invited.inviteToSite.site).toEqual({ id: site, title: 'Docs' });
    expect(await siteGrants()).toEqual([{ userId: guest.id, teamId: null, role: 'read' }]);
    expect(expectData(await t.graphql(guest.token, 'query($id: ID!) { site(id: $id) { id } }', { id: site })).site.id).toBe(site);

    expectData(await mutate(t, admin.token, 'setSiteUserPermission', { siteId: site, userId: guest.id, role: 'comment' }, 'site { id }'));
    expectData(await mutate(t, admin.token, 'setSiteTeamPermission', { siteId: site, teamId, role: 'admin' }, 'site { id }'));
    expect(await siteGrants()).toEqual(
      expect.arrayContaining([
        { userId: guest.id, teamId: null, role: 'comment' },
        { userId: null, teamId, role: 'admin' },
      ]),
    );
    // The team's reader now administers the site: it may grant in turn.
    expectData(await mutate(t, reader.token, 'setSiteUserPermission', { siteId: site, userId: guest.id, role: 'read' }, 'site { id }'));

    // Strangers to the site are refused, changing nothing.
    expectGraphQLError(await mutate(t, guest.token, 'inviteToSite', { siteId: site, role: 'admin', users: [guest.id] }, 'site { id }'), 403);
    expectGraphQLError(await mutate(t, admin.token, 'inviteToSite', { siteId: site, role: 'read', teams: ['team_nope'] }, 'site { id }'), 400, /teams\.0/);

    // A null role takes it away.
    expectData(await mutate(t, admin.token, 'setSiteUserPermission', { siteId: site, userId: guest.id, role: null }, 'site { id }'));
    expectData(await mutate(t, admin.token, 'setSiteTeamPermission', { siteId: site, teamId, role: null }, 'site { id }'));
    expect(await siteGrants()).toEqual([]);
    expectGraphQLError(await t.graphql(guest.token, 'query($id: ID!) { site(id: $id) { id } }', { id: site }), 404);
    const actions = await t.database.db.auditEvent.findMany({
      where: { organizationId, targetId: site, action: { startsWith: 'site.' } },
      select: { action: true },
    });
    expect(actions.map((event) => event.action).filter((action) => action.includes('grant'))).toHaveLength(6);
  });
});

describe('grant listings in the graph', () => {
  it('lists the grants of a space, a collection and a site as REST does, for whoever sees the content', async () => {
    const { admin, guest, reader, teamId, site, organizationId, space, collection, expectParity } = await setup();
    const parent = (await collection({ title: 'Guides' })).id as string;
    const docs = (await space({ title: 'Docs', parent })).id as string;
    await t.call('POST', `/v1/spaces/${docs}/permissions`, { token: admin.token, body: { role: 'comment', users: [guest.id] } });
    await t.call('POST', `/v1/spaces/${docs}/permissions`, { token: admin.token, body: { role: 'edit', teams: [teamId] } });
    await t.call('POST', `/v1/collections/${parent}/permissions`, { token: admin.token, body: { role: 'read', users: [guest.id], teams: [teamId] } });
    await t.call('POST', `/v1/orgs/${organizationId}/sites/${site}/permissions`, { token: admin.token, body: { role: 'read', users: [guest.id] } });
    await t.call('POST', `/v1/orgs/${organizationId}/sites/${site}/permissions`, { token: admin.token, body: { role: 'admin', teams: [teamId] } });

    for (const user of [admin, guest]) {
      const users = await expectParity(
        user,
        { type: 'space', id: docs, field: 'userPermissions', selection: USER_PERMISSION },
        `/v1/spaces/${docs}/permissions/users`,
      );
      expect(users).toHaveLength(1);
      await expectParity(user, { type: 'space', id: docs, field: 'teamPermissions', selection: TEAM_PERMISSION }, `/v1/spaces/${docs}/permissions/teams`);
      const everyone = await expectParity(
        user,
        { type: 'space', id: docs, field: 'permissionsAggregate', selection: USER_PERMISSION },
        `/v1/spaces/${docs}/permissions/aggregate`,
      );
      expect(everyone.length).toBeGreaterThan(1);
    }
    const editors = await expectParity(
      admin,
      { type: 'space', id: docs, field: 'permissionsAggregate', args: 'role: edit', selection: USER_PERMISSION },
      `/v1/spaces/${docs}/permissions/aggregate?role=edit`,
    );
    expect(editors.map((entry: { user: { id: string } }) => entry.user.id)).toContain(reader.id);

    for (const field of ['userPermissions', 'teamPermissions', 'permissionsAggregate']) {
      const selection = field === 'teamPermissions' ? TEAM_PERMISSION : USER_PERMISSION;
      await expectParity(
        admin,
        { type: 'collection', id: parent, field, selection },
        `/v1/collections/${parent}/permissions/${field === 'userPermissions' ? 'users' : field === 'teamPermissions' ? 'teams' : 'aggregate'}`,
      );
    }
    const siteUrl = `/v1/orgs/${organizationId}/sites/${site}/permissions`;
    await expectParity(admin, { type: 'site', id: site, field: 'userPermissions', selection: USER_PERMISSION }, `${siteUrl}/users`);
    await expectParity(admin, { type: 'site', id: site, field: 'teamPermissions', selection: TEAM_PERMISSION }, `${siteUrl}/teams`);
    const reaching = await expectParity(admin, { type: 'site', id: site, field: 'permissionsAggregate', selection: SITE_PERMISSION }, `${siteUrl}/aggregate`);
    expect(reaching.find((entry: { user: { id: string } }) => entry.user.id === reader.id)?.origin).toEqual({
      type: 'site',
      organization: null,
      site,
      reason: 'team',
      team: teamId,
    });
    const ofTeam = await expectParity(
      admin,
      { type: 'site', id: site, field: 'permissionsAggregate', args: `sort: name, order: asc, team: "${teamId}"`, selection: SITE_PERMISSION },
      `${siteUrl}/aggregate?sort=name&order=asc&team=${teamId}`,
    );
    expect(ofTeam.map((entry: { user: { id: string } }) => entry.user.id)).toEqual([reader.id]);
    const guests = await expectParity(
      admin,
      { type: 'site', id: site, field: 'permissionsAggregate', args: `role: guest, search: "${guest.email}"`, selection: SITE_PERMISSION },
      `${siteUrl}/aggregate?role=guest&search=${encodeURIComponent(guest.email)}`,
    );
    expect(guests.map((entry: { user: { id: string } }) => entry.user.id)).toEqual([guest.id]);
    await expectParity(
      admin,
      { type: 'site', id: site, field: 'permissionsAggregate', args: 'sort: name, order: asc', selection: SITE_PERMISSION },
      `${siteUrl}/aggregate?sort=name&order=asc`,
    );
  });

  it('shows no grants to whoever does not see the content', async () => {
    const { admin, guest, site, space, stranger } = await setup();
    const docs = (await space({ title: 'Closed' })).id as string;
    const outsider = await stranger();
    for (const [user, type, id] of [
      [guest, 'space', docs],
      [outsider, 'space', docs],
      [guest, 'site', site],
    ] as const) {
      expectGraphQLError(await t.graphql(user.token, `query($id: ID!) { ${type}(id: $id) { userPermissions(first: 5) { totalCount } } }`, { id }), 404);
    }
    expect(
      expectData(await t.graphql(admin.token, 'query($id: ID!) { space(id: $id) { userPermissions(first: 5) { totalCount } } }', { id: docs })).space
        .userPermissions.totalCount,
    ).toBe(0);
  });
});
