import { MemberRole } from '@gitbook/api';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../support/app.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { type TestUser, addMember, buildOrganization, buildTeam, buildUser, memberRoster } from '../support/factories.ts';
import { expectError } from '../support/http.ts';
import { type OfficialClient, expectOfficialError, officialClient } from '../support/official.ts';

let t: TestApp;
let official: OfficialClient;
beforeAll(async () => {
  t = await createTestApp();
  official = await officialClient(t);
});

/** An organization with an admin, members on demand, and REST helpers for its content and teams. */
async function setup() {
  const team = await buildTeam(t.database);
  const organizationId = team.organization.id;
  const { admin } = team;
  const rest = async (method: string, url: string, body?: unknown, status = 200, user: TestUser = admin) => {
    const response = await t.call(method, url, { token: user.token, ...(body !== undefined ? { body } : {}) });
    expect(response.statusCode, response.body).toBe(status);
    return response.body ? response.json() : undefined;
  };
  const space = async (title: string, parent?: string) =>
    (await rest('POST', `/v1/orgs/${organizationId}/spaces`, { title, ...(parent ? { parent } : {}) }, 201)).id as string;
  const collection = async (title: string, parent?: string) =>
    (await rest('POST', `/v1/orgs/${organizationId}/collections`, { title, ...(parent ? { parent } : {}) }, 201)).id as string;
  const makeTeam = async (members: TestUser[]) =>
    (await rest('PUT', `/v1/orgs/${organizationId}/teams`, { title: 'Writers', members: members.map((m) => m.id) }, 201)).id as string;
  const listedSpaces = async (user: TestUser) => {
    const listed = await rest('GET', `/v1/orgs/${organizationId}/spaces`, undefined, 200, user);
    return { ids: listed.items.map((item: { id: string }) => item.id), count: listed.count };
  };
  const grants = () =>
    t.database.db.contentGrant.findMany({ where: { organizationId }, select: { spaceId: true, collectionId: true, userId: true, teamId: true, role: true } });
  return { ...team, organizationId, rest, space, collection, makeTeam, listedSpaces, grants };
}

describe('space permissions', () => {
  it('lets a guest into exactly the space it is invited to, through the official client', async () => {
    const { admin, member, space, rest, listedSpaces, organizationId } = await setup();
    const [opened, closed] = [await space('Handbook'), await space('Roadmap')];
    const guest = await member(null);
    expectError(await t.call('GET', `/v1/spaces/${opened}`, { token: guest.token }), 404);

    const invited = await official(admin).spaces.inviteToSpace(opened, { role: MemberRole.Comment, users: [guest.id] });
    expect(invited.status).toBe(204);

    const seen = await rest('GET', `/v1/spaces/${opened}`, undefined, 200, guest);
    expect(seen.permissions).toMatchObject({ view: true, comment: true, edit: false, admin: false });
    expect(await listedSpaces(guest)).toEqual({ ids: [opened], count: 1 });
    // Its own listing of spaces, with its level, says the same.
    const own = await rest('GET', `/v1/orgs/${organizationId}/members/${guest.id}/spaces`, undefined, 200, guest);
    expectMatchesSchema('GET', '/v1/orgs/{organizationId}/members/{userId}/spaces', 200, own);
    expect(own.items.map((item: { permission: string; space: { id: string } }) => [item.permission, item.space.id])).toEqual([['comment', opened]]);
    expect(own.count).toBe(1);
    expectError(await t.call('GET', `/v1/spaces/${closed}`, { token: guest.token }), 404);
    // Its content too (the compiled page read), and nothing of the other space.
    await rest('GET', `/v1/spaces/${opened}/content`, undefined, 200, guest);
    expectError(await t.call('GET', `/v1/spaces/${closed}/content`, { token: guest.token }), 404);
    // Commenting is what it was given; editing is not.
    expectError(await t.call('PATCH', `/v1/spaces/${opened}`, { token: guest.token, body: { title: 'Mine' } }), 403);

    const users = await official(admin).spaces.listUserPermissionsInSpace(opened);
    expectMatchesSchema('GET', '/v1/spaces/{spaceId}/permissions/users', 200, users.data);
    expect(users.data).toEqual({ items: [{ permission: 'comment', user: expect.objectContaining({ object: 'user', id: guest.id }) }], count: 1 });

    const removed = await official(admin).spaces.removeUserFromSpace(opened, guest.id);
    expect(removed.status).toBe(205);
    expect((await official(admin).spaces.removeUserFromSpace(opened, guest.id)).status).toBe(204);
    expectError(await t.call('GET', `/v1/spaces/${opened}`, { token: guest.token }), 404);
    expect(await listedSpaces(guest)).toEqual({ ids: [], count: 0 });

    const actions = await t.database.db.auditEvent.findMany({
      where: { organizationId, targetId: opened, action: { startsWith: 'space.' } },
      orderBy: { occurredAt: 'asc' },
    });
    expect(actions.map((event) => event.action)).toEqual(['space.create', 'space.grant', 'space.remove_grant']);
  });

  it('raises a team to edit on one space, and the highest level wins', async () => {
    const { admin, member, space, makeTeam, rest, organizationId } = await setup();
    const [docs, other] = [await space('Docs'), await space('Other')];
    const reader = await member('read');
    const writer = await member('edit');
    const teamId = await makeTeam([reader, writer]);
    expect((await rest('GET', `/v1/spaces/${docs}`, undefined, 200, reader)).permissions.edit).toBe(false);

    await official(admin).spaces.inviteToSpace(docs, { role: MemberRole.Edit, teams: [teamId] });
    expect((await rest('GET', `/v1/spaces/${docs}`, undefined, 200, reader)).permissions.edit).toBe(true);
    expect((await rest('GET', `/v1/spaces/${other}`, undefined, 200, reader)).permissions.edit).toBe(false);
    // The reader edits through the team: it opens a change request there, and nowhere else.
    expect((await rest('POST', `/v1/spaces/${docs}/change-requests`, { subject: 'Through the team' }, 201, reader)).subject).toBe('Through the team');
    expectError(await t.call('POST', `/v1/spaces/${other}/change-requests`, { token: reader.token, body: { subject: 'No' } }), 403);
    // The team counts the space it reaches.
    expect((await rest('GET', `/v1/orgs/${organizationId}/teams/${teamId}`)).spaces).toBe(1);
    // A member who joins the team afterwards edits too.
    const joining = await member('read');
    await rest('PUT', `/v1/orgs/${organizationId}/teams/${teamId}/members/${joining.id}`, {}, 204);
    expect((await rest('GET', `/v1/spaces/${docs}`, undefined, 200, joining)).permissions.edit).toBe(true);
    // A grant lower than the organization role changes nothing.
    await official(admin).spaces.updateUserPermissionInSpace(docs, writer.id, { role: MemberRole.Read });
    expect((await rest('GET', `/v1/spaces/${docs}`, undefined, 200, writer)).permissions.edit).toBe(true);

    const teams = await official(admin).spaces.listTeamPermissionsInSpace(docs);
    expectMatchesSchema('GET', '/v1/spaces/{spaceId}/permissions/teams', 200, teams.data);
    expect(teams.data.items).toEqual([{ permission: 'edit', team: expect.objectContaining({ object: 'team', id: teamId }) }]);

    const aggregate = await official(admin).spaces.listPermissionsAggregateInSpace(docs);
    expectMatchesSchema('GET', '/v1/spaces/{spaceId}/permissions/aggregate', 200, aggregate.data);
    const levels = Object.fromEntries(aggregate.data.items.map((item) => [item.user.id, item.permission]));
    expect(levels).toEqual({ [admin.id]: 'admin', [reader.id]: 'edit', [writer.id]: 'edit', [joining.id]: 'edit' });
    const editors = await official(admin).spaces.listPermissionsAggregateInSpace(docs, { role: MemberRole.Edit });
    expect(editors.data.items.map((item) => item.user.id).sort()).toEqual([reader.id, writer.id, joining.id].sort());

    // The team loses it: the reader reads again.
    await official(admin).spaces.updateTeamPermissionInSpace(docs, teamId, { role: null });
    expect((await rest('GET', `/v1/spaces/${docs}`, undefined, 200, reader)).permissions.edit).toBe(false);
    expect((await official(admin).spaces.removeTeamFromSpace(docs, teamId)).status).toBe(204);
  });

  it('lets only admins of the space grant, refuses strangers and bad input, changing nothing', async () => {
    const { admin, member, space, grants, organizationId } = await setup();
    const docs = await space('Docs');
    const editor = await member('edit');
    const guest = await member(null);
    const outsider = await buildUser(t.database);
    const otherTeam = (await setup()).organization.id;
    await expectOfficialError(official(editor).spaces.inviteToSpace(docs, { role: MemberRole.Read, users: [guest.id] }), 403);
    await expectOfficialError(official(guest).spaces.inviteToSpace(docs, { role: MemberRole.Read, users: [guest.id] }), 404);
    await expectOfficialError(official(outsider).spaces.listUserPermissionsInSpace(docs), 404);
    const invite = (body: unknown) => t.call('POST', `/v1/spaces/${docs}/permissions`, { token: admin.token, body });
    expectError(await invite({ role: 'read', users: [guest.id, outsider.id] }), 400, `users.1: no member ${outsider.id} in this organization`);
    expectError(await invite({ role: 'read', teams: ['team_nope'] }), 400, 'teams.0: no team team_nope in this organization');
    expectError(await invite({ role: 'read' }), 400, 'users: is required unless teams are named');
    expectError(await invite({ role: 'owner', users: [guest.id] }), 400, /^role: /);
    expectError(await invite({ users: [guest.id] }), 400, 'role: is required');
    expectError(await invite({ role: 'read', users: [] }), 400, /^users: /);
    expectError(await invite({ role: 'read', users: [guest.id], extra: 1 }), 400, 'body: unknown field "extra"');
    expectError(await t.call('PATCH', `/v1/spaces/${docs}/permissions/users/${outsider.id}`, { token: admin.token, body: { role: 'read' } }), 404);
    expectError(await t.call('PATCH', `/v1/spaces/${docs}/permissions/teams/${otherTeam}`, { token: admin.token, body: { role: 'read' } }), 404);
    expect(await grants()).toEqual([]);
    expect(await t.database.db.auditEvent.count({ where: { organizationId, action: { contains: 'grant' } } })).toBe(0);
  });

  it('reaches nothing for a disabled member, and drops grants with the membership', async () => {
    const { admin, member, space, grants, organizationId } = await setup();
    const docs = await space('Docs');
    const guest = await member(null);
    await official(admin).spaces.inviteToSpace(docs, { role: MemberRole.Read, users: [guest.id] });
    await t.database.db.member.update({ where: { organizationId_userId: { organizationId, userId: guest.id } }, data: { disabled: true } });
    expectError(await t.call('GET', `/v1/spaces/${docs}`, { token: guest.token }), 404);
    await t.call('DELETE', `/v1/orgs/${organizationId}/members/${guest.id}`, { token: admin.token });
    expect(await grants()).toEqual([]);
  });
});

describe('grants and transfers', () => {
  it('leave the grants behind when content moves to another organization', async () => {
    const { admin, member, space, collection, grants, makeTeam } = await setup();
    const other = await buildOrganization(t.database);
    await addMember(t.database, other.id, admin, 'admin');
    const guest = await member(null);
    const teamId = await makeTeam([guest]);
    const moving = await space('Moving');
    const parent = await collection('Moving collection');
    const below = await space('Below', parent);
    await official(admin).spaces.inviteToSpace(moving, { role: MemberRole.Read, users: [guest.id] });
    await official(admin).spaces.inviteToSpace(below, { role: MemberRole.Edit, teams: [teamId] });
    await official(admin).collections.inviteToCollection(parent, { role: MemberRole.Read, users: [guest.id] });
    expect(await grants()).toHaveLength(3);
    expect((await t.call('POST', `/v1/spaces/${moving}/transfer`, { token: admin.token, body: { organization: other.id } })).statusCode).toBe(200);
    await official(admin).collections.transferCollection(parent, { organization: other.id });
    expect(await grants()).toEqual([]);
    expectError(await t.call('GET', `/v1/spaces/${below}`, { token: guest.token }), 404);
    expect((await official(admin).spaces.listUserPermissionsInSpace(moving)).data.items).toEqual([]);
  });
});

describe('collection permissions', () => {
  it('passes a collection grant down to every collection and space below it', async () => {
    const { admin, member, space, collection, rest, listedSpaces, makeTeam } = await setup();
    const guides = await collection('Guides');
    const nested = await collection('Nested', guides);
    const [inside, deep, outside] = [await space('Inside', guides), await space('Deep', nested), await space('Outside')];
    const guest = await member(null);
    await official(admin).collections.inviteToCollection(guides, { role: MemberRole.Edit, users: [guest.id] });

    expect((await rest('GET', `/v1/collections/${nested}`, undefined, 200, guest)).permissions).toMatchObject({ view: true, admin: false });
    expect((await rest('GET', `/v1/spaces/${deep}`, undefined, 200, guest)).permissions.edit).toBe(true);
    const listed = await listedSpaces(guest);
    expect(listed.ids.sort()).toEqual([inside, deep].sort());
    expect(listed.count).toBe(2);
    expectError(await t.call('GET', `/v1/spaces/${outside}`, { token: guest.token }), 404);

    const users = await official(admin).collections.listUserPermissionsInCollection(guides);
    expectMatchesSchema('GET', '/v1/collections/{collectionId}/permissions/users', 200, users.data);
    expect(users.data.items).toEqual([{ permission: 'edit', user: expect.objectContaining({ id: guest.id }) }]);
    // The aggregate of a space below counts what comes down from the collection.
    const aggregate = await official(admin).spaces.listPermissionsAggregateInSpace(deep);
    expect(aggregate.data.items.find((item) => item.user.id === guest.id)?.permission).toBe('edit');
    const onCollection = await official(admin).collections.listPermissionsAggregateInCollection(nested);
    expectMatchesSchema('GET', '/v1/collections/{collectionId}/permissions/aggregate', 200, onCollection.data);

    // A team made admin of the collection administers the spaces below.
    const reader = await member('read');
    const teamId = await makeTeam([reader]);
    await official(admin).collections.updateTeamPermissionInCollection(guides, teamId, { role: MemberRole.Admin });
    expect((await rest('GET', `/v1/spaces/${deep}`, undefined, 200, reader)).permissions.admin).toBe(true);
    const teams = await official(admin).collections.listTeamPermissionsInCollection(guides);
    expectMatchesSchema('GET', '/v1/collections/{collectionId}/permissions/teams', 200, teams.data);
    // ...and may grant there in turn.
    expect((await official(reader).spaces.inviteToSpace(inside, { role: MemberRole.Read, users: [guest.id] })).status).toBe(204);

    expect((await official(admin).collections.removeUserFromCollection(guides, guest.id)).status).toBe(205);
    expect((await official(admin).collections.removeTeamFromCollection(guides, teamId)).status).toBe(205);
    // What the team's admin gave the guest directly stays.
    expect(await listedSpaces(guest)).toEqual({ ids: [inside], count: 1 });
  });
});

describe('site permissions', () => {
  it('lets a guest into one site, raises a team to admin of it, and lists who reaches it and why', async () => {
    const { admin, member, rest, makeTeam, organizationId } = await setup();
    const siteUrl = (id: string) => `/v1/orgs/${organizationId}/sites/${id}`;
    const [docs, other] = [
      (await rest('POST', `/v1/orgs/${organizationId}/sites`, { title: 'Docs' }, 201)).id as string,
      (await rest('POST', `/v1/orgs/${organizationId}/sites`, { title: 'Other' }, 201)).id as string,
    ];
    const guest = await member(null);
    const reader = await member('read');
    expectError(await t.call('GET', siteUrl(docs), { token: guest.token }), 404);

    expect((await official(admin).orgs.inviteToSite(organizationId, docs, { role: MemberRole.Read, users: [guest.id] })).status).toBe(204);
    expect((await rest('GET', siteUrl(docs), undefined, 200, guest)).permissions).toMatchObject({ view: true, admin: false });
    expectError(await t.call('GET', siteUrl(other), { token: guest.token }), 404);
    const listed = await rest('GET', `/v1/orgs/${organizationId}/sites`, undefined, 200, guest);
    expect([listed.items.map((site: { id: string }) => site.id), listed.count]).toEqual([[docs], 1]);
    // Reading it is not configuring it.
    expectError(await t.call('PATCH', siteUrl(docs), { token: guest.token, body: { title: 'Mine' } }), 403);

    const teamId = await makeTeam([reader]);
    await official(admin).orgs.updateTeamPermissionInSite(organizationId, docs, teamId, { role: MemberRole.Admin });
    expect((await rest('PATCH', siteUrl(docs), { title: 'Docs, renamed by a team' }, 200, reader)).title).toBe('Docs, renamed by a team');
    expectError(await t.call('PATCH', siteUrl(other), { token: reader.token, body: { title: 'No' } }), 403);

    const users = await official(admin).orgs.listUserPermissionsInSite(organizationId, docs);
    expectMatchesSchema('GET', '/v1/orgs/{organizationId}/sites/{siteId}/permissions/users', 200, users.data);
    expect(users.data.items).toEqual([{ permission: 'read', user: expect.objectContaining({ id: guest.id }) }]);
    const teams = await official(admin).orgs.listTeamPermissionsInSite(organizationId, docs);
    expectMatchesSchema('GET', '/v1/orgs/{organizationId}/sites/{siteId}/permissions/teams', 200, teams.data);
    expect(teams.data.items).toEqual([{ permission: 'admin', team: expect.objectContaining({ id: teamId }) }]);
    const aggregate = await official(admin).orgs.listPermissionsAggregateInSite(organizationId, docs);
    expectMatchesSchema('GET', '/v1/orgs/{organizationId}/sites/{siteId}/permissions/aggregate', 200, aggregate.data);
    const byUser = Object.fromEntries(aggregate.data.items.map((item) => [item.user.id, [item.permission, item.origin]]));
    expect(byUser).toEqual({
      [admin.id]: ['admin', { type: 'organization', organization: organizationId }],
      [reader.id]: ['admin', { type: 'site', site: docs, reason: 'team', team: teamId }],
      [guest.id]: ['read', { type: 'site', site: docs, reason: 'member' }],
    });

    // The site is named under its organization: elsewhere it is not found.
    const elsewhere = (await setup()).organizationId;
    expectError(await t.call('GET', `/v1/orgs/${elsewhere}/sites/${docs}/permissions/users`, { token: admin.token }), 404);
    expect((await official(admin).orgs.removeUserFromSite(organizationId, docs, guest.id)).status).toBe(205);
    expect((await official(admin).orgs.removeTeamFromSite(organizationId, docs, teamId)).status).toBe(205);
    expectError(await t.call('GET', siteUrl(docs), { token: guest.token }), 404);
    expectError(await t.call('PATCH', siteUrl(docs), { token: reader.token, body: { title: 'No' } }), 403);
  });

  it('filters, searches and orders the site aggregate by its official parameters', async () => {
    const { admin, rest, makeTeam, organizationId } = await setup();
    const { joined, named } = memberRoster(t.database, organizationId);
    await joined(admin);
    const site = (await rest('POST', `/v1/orgs/${organizationId}/sites`, { title: 'Docs' }, 201)).id as string;
    const zed = await named('read', 'Zed', 'zed');
    const ada = await named('edit', 'Ada', 'ada');
    const guest = await named(null, 'Mia', 'mia');
    const outsider = await named(null, 'Nobody', 'nobody');
    const teamId = await makeTeam([ada, guest]);
    await official(admin).orgs.inviteToSite(organizationId, site, { role: MemberRole.Comment, users: [guest.id] });
    await t.database.db.member.update({ where: { organizationId_userId: { organizationId, userId: zed.id } }, data: { lastSeenAt: new Date('2024-02-01') } });
    await t.database.db.member.update({ where: { organizationId_userId: { organizationId, userId: ada.id } }, data: { lastSeenAt: new Date('2024-03-01') } });

    const url = `/v1/orgs/${organizationId}/sites/${site}/permissions/aggregate`;
    const ids = async (query: string) => {
      const body = await rest('GET', `${url}${query}`);
      expectMatchesSchema('GET', '/v1/orgs/{organizationId}/sites/{siteId}/permissions/aggregate', 200, body);
      return body.items.map((item: { user: { id: string } }) => item.user.id);
    };
    // Newest joined first by default; the outsider, a guest without a grant, reaches nothing.
    expect(await ids('')).toEqual([guest.id, ada.id, zed.id, admin.id]);
    expect(await ids('?order=asc')).toEqual([admin.id, zed.id, ada.id, guest.id]);
    const byName = await ids('?sort=name&order=asc');
    expect(byName.filter((id: string) => id !== admin.id)).toEqual([ada.id, guest.id, zed.id]);
    // Sorting by last activity lists the members who were active, latest first.
    expect(await ids('?sort=lastSeenAt')).toEqual([ada.id, zed.id]);
    expect(await ids('?search=zed')).toEqual([zed.id]);
    expect(await ids(`?search=${encodeURIComponent(guest.email)}`)).toEqual([guest.id]);
    expect(await ids('?search=nobody')).toEqual([]);
    expect(await ids('?role=guest')).toEqual([guest.id]);
    expect(await ids('?role=edit')).toEqual([ada.id]);
    expect(await ids(`?team=${teamId}&order=asc`)).toEqual([ada.id, guest.id]);
    expect(await ids(`?team=${teamId}&role=guest`)).toEqual([guest.id]);
    expect(outsider.id).not.toBe(guest.id);

    // Pages follow the filters: the token of one listing continues it.
    const first = await rest('GET', `${url}?sort=name&order=asc&limit=2`);
    expect(first.count).toBe(4);
    const second = await rest('GET', `${url}?sort=name&order=asc&limit=2&page=${first.next.page}`);
    expect([...first.items, ...second.items].map((item: { user: { id: string } }) => item.user.id)).toEqual(byName);
    // ...and no other: the same token under other filters is refused.
    expectError(await t.call('GET', `${url}?sort=name&order=desc&limit=2&page=${first.next.page}`, { token: admin.token }), 400, /^page: /);
    expect(first.next.page.length).toBeLessThan(120);

    expectError(await t.call('GET', `${url}?team=team_nope`, { token: admin.token }), 400, 'team: no team team_nope in this organization');
    expectError(await t.call('GET', `${url}?sort=title`, { token: admin.token }), 400, /^sort: /);
    expectError(await t.call('GET', `${url}?order=up`, { token: admin.token }), 400, /^order: /);
    expectError(await t.call('GET', `${url}?role=owner`, { token: admin.token }), 400, /^role: /);
  });
});
