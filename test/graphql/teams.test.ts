import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../support/app.ts';
import { addMember, buildTeam, buildUser } from '../support/factories.ts';
import { expectData, expectGraphQLError, mutate } from '../support/graphql.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const TEAM_FIELDS = 'id object title members spaces createdAt permissions { admin view } organization { id }';

/** An organization with `size` read members, and a REST caller as its admin. */
async function organizationWith(size: number) {
  const team = await buildTeam(t.database);
  const organizationId = team.organization.id;
  const people = [];
  for (let i = 0; i < size; i++) {
    const user = await buildUser(t.database, `member${i}`);
    await addMember(t.database, organizationId, user, 'read');
    people.push(user);
  }
  const rest = async (method: string, url: string, body?: unknown) => {
    const response = await t.call(method, url, { token: team.admin.token, ...(body !== undefined ? { body } : {}) });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.statusCode === 204 ? undefined : response.json();
  };
  return { ...team, organizationId, people, rest };
}

/** A mutation that must succeed: its payload. */
async function run(token: string, name: string, input: Record<string, unknown>, selection: string) {
  return expectData(await mutate(t, token, name, input, selection))[name];
}

describe('teams over GraphQL', () => {
  it('answers Organization.teams, Team.membersConnection and Member.teamMemberships as REST does', async () => {
    const { organizationId, admin, people, rest } = await organizationWith(3);
    const [ada, bob, cyd] = people as [(typeof people)[0], (typeof people)[0], (typeof people)[0]];
    const writers = await rest('PUT', `/v1/orgs/${organizationId}/teams`, { title: 'Writers', members: [ada.id, bob.id] });
    const api = await rest('PUT', `/v1/orgs/${organizationId}/teams`, { title: 'API', members: [ada.id] });
    await rest('PUT', `/v1/orgs/${organizationId}/teams/${writers.id}/members/${bob.id}`, { role: 'owner' });

    const data = expectData(
      await t.graphql(
        admin.token,
        `query($org: ID!, $user: ID!) {
          organization(id: $org) { teams(first: 10) { totalCount edges { node { ${TEAM_FIELDS} membersConnection(first: 10) { edges { node { role member { id teams user { id } } } } } } } } }
          member(organizationId: $org, userId: $user) { teams teamMemberships(first: 10) { edges { node { role team { id title } } } } }
        }`,
        { org: organizationId, user: ada.id },
      ),
    );
    const rows = data.organization.teams.edges.map((edge: any) => edge.node);
    const restTeams = (await rest('GET', `/v1/orgs/${organizationId}/teams`)).items;
    expect(data.organization.teams.totalCount).toBe(2);
    expect(rows.map(({ membersConnection: _, organization, ...team }: any) => ({ ...team, organization }))).toEqual(
      restTeams.map((team: object) => ({ ...team, organization: { id: organizationId } })),
    );
    const writersMembers = rows
      .find((team: { id: string }) => team.id === writers.id)
      .membersConnection.edges.map((edge: any) => [edge.node.member.id, edge.node.role, edge.node.member.teams]);
    expect(writersMembers).toEqual(
      expect.arrayContaining([
        [ada.id, 'member', 2],
        [bob.id, 'owner', 1],
      ]),
    );
    expect(data.member.teams).toBe(2);
    expect(data.member.teamMemberships.edges.map((edge: any) => [edge.node.team.title, edge.node.role])).toEqual([
      ['API', 'member'],
      ['Writers', 'member'],
    ]);
    expect(api.members).toBe(1);
    void cyd;
  });

  it('creates, staffs, renames and deletes a team through mutations, by its global id', async () => {
    const { organizationId, admin, people } = await organizationWith(2);
    const [ada, bob] = people as [(typeof people)[0], (typeof people)[0]];
    const created = await run(admin.token, 'createTeam', { organizationId, title: 'Crew', members: [ada.id] }, `team { ${TEAM_FIELDS} }`);
    const teamId = created.team.id as string;
    expect(created.team).toMatchObject({ object: 'team', title: 'Crew', members: 1, permissions: { admin: true, view: true } });

    const staffed = await run(
      admin.token,
      'updateTeamMembers',
      { teamId, add: [bob.email], remove: [ada.id], memberships: [{ user: bob.id, role: 'owner' }] },
      'team { members }',
    );
    expect(staffed.team.members).toBe(1);
    expect(await t.database.db.teamMember.findMany({ where: { teamId }, select: { userId: true, role: true } })).toEqual([{ userId: bob.id, role: 'owner' }]);

    await run(admin.token, 'setTeamMember', { teamId, userId: ada.id, role: 'member' }, 'team { id }');
    // The owner renames the team and removes a member.
    expect((await run(bob.token, 'updateTeam', { teamId, title: 'Core crew' }, 'team { title }')).team.title).toBe('Core crew');
    expect((await run(bob.token, 'removeTeamMember', { teamId, userId: ada.id }, 'team { members }')).team.members).toBe(1);
    // A plain member may not.
    await run(admin.token, 'setTeamMember', { teamId, userId: ada.id }, 'team { id }');
    expectGraphQLError(
      await t.graphql(ada.token, 'mutation($input: UpdateTeamInput!) { updateTeam(input: $input) { team { id } } }', { input: { teamId, title: 'Mine' } }),
      403,
    );
    expectGraphQLError(
      await t.graphql(admin.token, 'mutation($input: UpdateTeamInput!) { updateTeam(input: $input) { team { id } } }', { input: { teamId, title: '' } }),
      400,
      /^title: /,
    );

    expect((await run(admin.token, 'deleteTeam', { teamId }, 'deletedTeamId')).deletedTeamId).toBe(teamId);
    expect(await t.database.db.team.count({ where: { id: teamId } })).toBe(0);
    expectGraphQLError(await t.graphql(admin.token, 'query($id: ID!) { node(id: $id) { id } }', { id: teamId }), 404);
  });

  it('reads teams of many members with a bounded number of statements', async () => {
    const read = async (size: number) => {
      const { organizationId, admin, people, rest } = await organizationWith(size);
      for (let i = 0; i < 3; i++) await rest('PUT', `/v1/orgs/${organizationId}/teams`, { title: `Team ${i}`, members: people.map((person) => person.id) });
      // This instance's own writes are heard back first (PostgreSQL), not counted below.
      await t.database.generations.barrier();
      const before = t.statements();
      const data = expectData(
        await t.graphql(
          admin.token,
          `query($org: ID!) { organization(id: $org) { teams(first: 10) { edges { node { title members permissions { admin } membersConnection(first: 50) { edges { node { role member { teams spaces user { displayName } teamMemberships(first: 5) { edges { node { team { title } } } } } } } } } } } } }`,
          { org: organizationId },
        ),
      );
      expect(data.organization.teams.edges).toHaveLength(3);
      return t.statements() - before;
    };
    const small = await read(2);
    const large = await read(8);
    expect(large).toBe(small);
  });
});
