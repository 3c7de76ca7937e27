import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../support/app.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { type TestUser, buildTeam, buildUserWithEmail, unique } from '../support/factories.ts';
import { expectError } from '../support/http.ts';
import { type OfficialClient, expectOfficialError, officialClient } from '../support/official.ts';

let t: TestApp;
let official: OfficialClient;
beforeAll(async () => {
  t = await createTestApp();
  official = await officialClient(t);
});

const TEAMS = '/v1/orgs/{organizationId}/teams';
const TEAM = '/v1/orgs/{organizationId}/teams/{teamId}';
const TEAM_MEMBERS = '/v1/orgs/{organizationId}/teams/{teamId}/members';
const MEMBER_TEAMS = '/v1/orgs/{organizationId}/members/{userId}/teams';

/** An organization with an admin, members at other roles on demand, and REST helpers for its teams. */
async function setup(app: TestApp = t) {
  const team = await buildTeam(app.database);
  const organizationId = team.organization.id;
  const base = `/v1/orgs/${organizationId}/teams`;
  const call = (method: string, url: string, token: string, body?: unknown) => app.call(method, url, { token, ...(body !== undefined ? { body } : {}) });
  const create = async (body: Record<string, unknown>, token = team.admin.token) => {
    const response = await call('PUT', base, token, body);
    expect(response.statusCode, response.body).toBe(201);
    expectMatchesSchema('PUT', TEAMS, 201, response.json());
    return response.json();
  };
  /** A member with an email of its own, so that it can be named by email. */
  const member = async (role: 'read' | 'edit' | 'admin' | null = 'read') => {
    const user = await buildUserWithEmail(app.database, `${unique()}@teams.test`);
    await app.database.db.member.create({ data: { organizationId, userId: user.id, role } });
    return user;
  };
  const rows = async (teamId: string) => sorted(await app.database.db.teamMember.findMany({ where: { teamId }, select: { userId: true, role: true } }));
  return { ...team, organizationId, base, call, create, member, rows };
}

/** Rows in one order, whatever the database's collation. */
const sorted = (rows: Array<{ userId: string; role: string }>) => [...rows].sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));

describe('teams', () => {
  it('creates a team with members, and counts them on the team and on each member', async () => {
    const { organizationId, admin, create, member, call } = await setup();
    const [ada, bob] = [await member(), await member('edit')];
    const created = await create({ title: '  Docs writers ', members: [ada.id, bob.id, ada.id] });
    expect(created).toEqual({
      object: 'team',
      id: expect.stringMatching(/^team_/),
      title: 'Docs writers',
      members: 2,
      spaces: 0,
      createdAt: expect.any(String),
      permissions: { admin: true, view: true },
    });
    const { data } = await official(admin).orgs.getTeamInOrganizationById(organizationId, created.id);
    expect(data).toEqual(created);
    const asMember = await call('GET', `/v1/orgs/${organizationId}/members/${ada.id}`, admin.token);
    expect(asMember.json().teams).toBe(1);
    // A reader sees the team but may not manage it.
    expect((await call('GET', `/v1/orgs/${organizationId}/teams/${created.id}`, ada.token)).json().permissions).toEqual({ admin: false, view: true });
  });

  it('refuses bad titles and members outside the organization, creating nothing', async () => {
    const { organizationId, base, admin, call, member } = await setup();
    const outsider = (await buildTeam(t.database)).admin;
    const inside = await member();
    const before = await t.database.db.team.count({ where: { organizationId } });
    expectError(await call('PUT', base, admin.token, { title: '' }), 400, /^title: /);
    expectError(await call('PUT', base, admin.token, { title: 'x'.repeat(65) }), 400, /^title: /);
    expectError(await call('PUT', base, admin.token, {}), 400, 'title: is required');
    expectError(
      await call('PUT', base, admin.token, { title: 'T', members: [inside.id, outsider.id] }),
      400,
      `members.1: no member ${outsider.id} in this organization`,
    );
    expectError(await call('PUT', base, admin.token, { title: 'T', color: 'red' }), 400, 'body: unknown field "color"');
    expect(await t.database.db.team.count({ where: { organizationId } })).toBe(before);
  });

  it('lists teams by title, filtered by part of the title or by who can manage them, page by page', async () => {
    const { organizationId, admin, create, member, call } = await setup();
    const owner = await member();
    const alpha = await create({ title: 'Alpha squad' });
    const beta = await create({ title: 'beta SQUAD' });
    const gamma = await create({ title: 'Gamma' });
    expect((await call('PUT', `/v1/orgs/${organizationId}/teams/${beta.id}/members/${owner.id}`, admin.token, { role: 'owner' })).statusCode).toBe(204);

    const { data } = await official(admin).orgs.listTeamsInOrganizationById(organizationId);
    expectMatchesSchema('GET', TEAMS, 200, data);
    expect(data.items.map((team) => team.id)).toEqual([alpha.id, beta.id, gamma.id]);
    expect(data.count).toBe(3);
    const squads = (await call('GET', `/v1/orgs/${organizationId}/teams?title=Squad`, admin.token)).json();
    expect(squads.items.map((team: { id: string }) => team.id)).toEqual([alpha.id, beta.id]);
    const owned = (await call('GET', `/v1/orgs/${organizationId}/teams?owner=${owner.id}`, owner.token)).json();
    expect(owned.items.map((team: { id: string; permissions: object }) => [team.id, team.permissions])).toEqual([[beta.id, { admin: true, view: true }]]);
    // An admin manages every team.
    expect((await call('GET', `/v1/orgs/${organizationId}/teams?owner=${admin.id}`, owner.token)).json().count).toBe(3);
    const first = (await call('GET', `/v1/orgs/${organizationId}/teams?limit=2`, admin.token)).json();
    expect(first.items).toHaveLength(2);
    const second = (await call('GET', `/v1/orgs/${organizationId}/teams?limit=2&page=${first.next.page}`, admin.token)).json();
    expect(second.items.map((team: { id: string }) => team.id)).toEqual([gamma.id]);
    expect(second.next).toBeUndefined();
  });

  it('is renamed and deleted by admins and the team owners only, and deleting it leaves no members behind', async () => {
    const { organizationId, admin, create, member, call, rows } = await setup();
    const [owner, plain] = [await member(), await member()];
    const team = await create({ title: 'Writers', members: [plain.id] });
    const other = await create({ title: 'Others' });
    const url = `/v1/orgs/${organizationId}/teams/${team.id}`;
    expect((await call('PUT', `${url}/members/${owner.id}`, admin.token, { role: 'owner' })).statusCode).toBe(204);

    expectError(await call('PATCH', url, plain.token, { title: 'Mine' }), 403);
    const renamed = await call('PATCH', url, owner.token, { title: 'Tech writers' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expectMatchesSchema('PATCH', TEAM, 200, renamed.json());
    expect(renamed.json()).toMatchObject({ title: 'Tech writers', members: 2, permissions: { admin: true } });
    expectError(await call('PATCH', url, owner.token, { title: ' ' }), 400, /^title: /);
    // Owning one team gives nothing on another.
    expectError(await call('PATCH', `/v1/orgs/${organizationId}/teams/${other.id}`, owner.token, { title: 'Taken' }), 403);
    expectError(await call('DELETE', `/v1/orgs/${organizationId}/teams/${other.id}`, owner.token), 403);
    expectError(await call('PUT', `/v1/orgs/${organizationId}/teams`, owner.token, { title: 'New' }), 403);

    expect((await call('DELETE', url, owner.token)).statusCode).toBe(204);
    expectError(await call('GET', url, admin.token), 404);
    expect(await rows(team.id)).toEqual([]);
    expect((await call('GET', `/v1/orgs/${organizationId}/members/${plain.id}`, admin.token)).json().teams).toBe(0);
  });

  it('is hidden from guests (403) and from other organizations (404)', async () => {
    const { organizationId, create, member, call } = await setup();
    const team = await create({ title: 'Private' });
    const guest = await member(null);
    const stranger = (await buildTeam(t.database)).admin;
    for (const url of [
      `/v1/orgs/${organizationId}/teams`,
      `/v1/orgs/${organizationId}/teams/${team.id}`,
      `/v1/orgs/${organizationId}/teams/${team.id}/members`,
    ]) {
      expectError(await call('GET', url, guest.token), 403);
      expectError(await call('GET', url, stranger.token), 404);
      expectError(await t.call('GET', url), 401);
    }
    // A team of another organization through this one does not exist.
    const elsewhere = await setup();
    const foreign = await elsewhere.create({ title: 'Foreign' });
    expectError(await call('GET', `/v1/orgs/${organizationId}/teams/${foreign.id}`, (await member('admin')).token), 404);
  });
});

describe('team members', () => {
  it('adds and removes by user id or email, removal winning, and sets roles', async () => {
    const { organizationId, admin, create, member, call, rows } = await setup();
    const [ada, bob, cyd, dee] = [await member(), await member(), await member(), await member()];
    const team = await create({ title: 'Crew', members: [dee.id] });
    const url = `/v1/orgs/${organizationId}/teams/${team.id}/members`;
    await official(admin).orgs.updateMembersInOrganizationTeam(organizationId, team.id, {
      add: [ada.id, bob.email.toUpperCase(), cyd.id],
      remove: [cyd.email, dee.id],
      memberships: { [bob.id]: { role: 'owner' as never } },
    });
    expect(await rows(team.id)).toEqual(
      sorted([
        { userId: ada.id, role: 'member' },
        { userId: bob.id, role: 'owner' },
      ]),
    );
    // Adding again changes nothing; a role changes only when asked.
    expect((await call('PUT', url, admin.token, { add: [ada.id, bob.id] })).statusCode).toBe(204);
    expect(await rows(team.id)).toEqual(
      sorted([
        { userId: ada.id, role: 'member' },
        { userId: bob.id, role: 'owner' },
      ]),
    );

    const listed = await official(admin).orgs.listTeamMembersInOrganizationById(organizationId, team.id);
    expectMatchesSchema('GET', TEAM_MEMBERS, 200, listed.data);
    expect(listed.data.items.map((item) => [item.organization.id, item.team.role, item.permissions.view])).toEqual(
      expect.arrayContaining([
        [ada.id, 'member', true],
        [bob.id, 'owner', true],
      ]),
    );
    expect(listed.data.items[0]!.organization).toMatchObject({ object: 'member', teams: 1, user: { id: expect.any(String) } });
    expect((await call('GET', `/v1/orgs/${organizationId}/teams/${team.id}`, admin.token)).json().members).toBe(2);
  });

  it('refuses unknown users and bad roles, changing nothing', async () => {
    const { organizationId, admin, create, member, call, rows } = await setup();
    const ada = await member();
    const outsider = (await buildTeam(t.database)).admin;
    const team = await create({ title: 'Crew', members: [ada.id] });
    const url = `/v1/orgs/${organizationId}/teams/${team.id}/members`;
    const before = await rows(team.id);
    expectError(
      await call('PUT', url, admin.token, { add: [ada.id, 'nobody@nowhere.test'] }),
      400,
      'add.1: no member "nobody@nowhere.test" in this organization',
    );
    expectError(await call('PUT', url, admin.token, { remove: [outsider.id] }), 400, `remove.0: no member "${outsider.id}" in this organization`);
    expectError(await call('PUT', url, admin.token, { memberships: { [ada.id]: { role: 'boss' } } }), 400, /^memberships\./);
    expectError(await call('PUT', `${url}/${ada.id}`, admin.token, { role: 'boss' }), 400, /^role: /);
    expectError(await call('PUT', `${url}/${outsider.id}`, admin.token, {}), 404);
    expect(await rows(team.id)).toEqual(before);
  });

  it('puts one member with a role, lets managers remove anyone and members leave', async () => {
    const { organizationId, admin, create, member, call, rows } = await setup();
    const [ada, bob] = [await member(), await member()];
    const team = await create({ title: 'Crew' });
    const url = `/v1/orgs/${organizationId}/teams/${team.id}/members`;
    await official(admin).orgs.addMemberToOrganizationTeamById(organizationId, team.id, ada.id, {});
    expect((await call('PUT', `${url}/${bob.id}`, admin.token, { role: 'owner' })).statusCode).toBe(204);
    expect(await rows(team.id)).toEqual(
      sorted([
        { userId: ada.id, role: 'member' },
        { userId: bob.id, role: 'owner' },
      ]),
    );
    // A member manages nothing, but may leave.
    expectError(await call('DELETE', `${url}/${bob.id}`, ada.token), 403);
    await expectOfficialError(official(ada).orgs.addMemberToOrganizationTeamById(organizationId, team.id, ada.id, { role: 'owner' as never }), 403);
    expect((await call('DELETE', `${url}/${ada.id}`, ada.token)).statusCode).toBe(204);
    expectError(await call('DELETE', `${url}/${ada.id}`, bob.token), 404);
    // The owner manages the team's members.
    expect((await call('PUT', `${url}/${ada.id}`, bob.token, {})).statusCode).toBe(204);
    expect((await call('DELETE', `${url}/${ada.id}`, bob.token)).statusCode).toBe(204);
    expect(await rows(team.id)).toEqual([{ userId: bob.id, role: 'owner' }]);
  });

  it('leaves every team with the organization', async () => {
    const { organizationId, admin, create, member, call, rows } = await setup();
    const ada = await member();
    const team = await create({ title: 'Crew', members: [ada.id] });
    expect((await call('DELETE', `/v1/orgs/${organizationId}/members/${ada.id}`, admin.token)).statusCode).toBe(204);
    expect(await rows(team.id)).toEqual([]);
  });

  it('keeps exact members under concurrent edits of one team', async () => {
    // 24 writes queue on the team's row: under a loaded machine the last waits longer than the default lock timeout.
    const patient = await createTestApp({ databaseOptions: { lockTimeoutMs: 30_000 } });
    const { organizationId, admin, create, member, call, rows } = await setup(patient);
    const people = await Promise.all(Array.from({ length: 12 }, () => member()));
    const team = await create({ title: 'Busy' });
    const url = `/v1/orgs/${organizationId}/teams/${team.id}/members`;
    // Each user added twice at once, half of them then removed at once.
    const adds = await Promise.all([...people, ...people].map((person) => call('PUT', url, admin.token, { add: [person.id] })));
    expect(adds.map((response) => response.statusCode)).toEqual(Array(24).fill(204));
    const removes = await Promise.all(people.slice(0, 6).map((person) => call('DELETE', `${url}/${person.id}`, admin.token)));
    expect(removes.map((response) => response.statusCode)).toEqual(Array(6).fill(204));
    expect((await rows(team.id)).map((row) => row.userId).sort()).toEqual(
      people
        .slice(6)
        .map((person) => person.id)
        .sort(),
    );
    expect((await call('GET', `/v1/orgs/${organizationId}/teams/${team.id}`, admin.token)).json().members).toBe(6);
  });
});

describe('GET /v1/orgs/{organizationId}/members/{userId}/teams', () => {
  it("lists a member's teams by title with its role in each, filtered by title", async () => {
    const { organizationId, create, member, call } = await setup();
    const ada: TestUser = await member();
    const docs = await create({ title: 'Docs' });
    const api = await create({ title: 'API docs' });
    await create({ title: 'Docs without Ada' });
    expect(
      (
        await call('PUT', `/v1/orgs/${organizationId}/teams/${docs.id}/members`, (await member('admin')).token, {
          add: [ada.id],
          memberships: { [ada.email]: { role: 'owner' } },
        })
      ).statusCode,
    ).toBe(204);
    expect((await call('PUT', `/v1/orgs/${organizationId}/teams/${api.id}/members/${ada.id}`, (await member('admin')).token, {})).statusCode).toBe(204);
    const { data } = await official(ada).orgs.listTeamsForOrganizationMember(organizationId, ada.id);
    expectMatchesSchema('GET', MEMBER_TEAMS, 200, data);
    expect(data.items.map((item) => [item.team.title, item.member.role, item.team.permissions.admin])).toEqual([
      ['API docs', 'member', false],
      ['Docs', 'owner', true],
    ]);
    const filtered = (await call('GET', `/v1/orgs/${organizationId}/members/${ada.id}/teams?title=API`, ada.token)).json();
    expect(filtered.items.map((item: { team: { id: string } }) => item.team.id)).toEqual([api.id]);
    expect(filtered.count).toBe(1);
  });
});
