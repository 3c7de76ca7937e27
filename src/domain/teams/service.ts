import type { RequestContext } from '../../context.ts';
import type { AuditFacts } from '../audit/record.ts';
import type { MemberRecord, TeamMemberRecord, TeamRecord, UserRecord } from '../../db/index.ts';
import { invalid, notFound } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { type Ordering, type Page, pageRequestOf } from '../../lib/pagination.ts';
import { searchable } from '../../lib/search.ts';
import { parseInput } from '../../lib/validation.ts';
import { type OrganizationAccess, asRole, authorize, organizationPermissions } from '../access.ts';
import { defineLoader, defineRecordLoader, loader } from '../loaders.ts';
import { ListMemberTeamsQuery } from '../members/inputs.ts';
import { presentMemberOf } from '../members/service.ts';
import { visibleOrganization } from '../organizations/service.ts';
import { type ChildListing, countsBy, emptyPage, listChildren, mapPage } from '../shared/pages.ts';
import { inTransaction, serializeOn } from '../transaction.ts';
import { joinTeamGrants, teamSpaceCount } from '../permissions/grants.ts';
import { requireViewer } from '../users/service.ts';
import {
  CreateTeamInput,
  ListTeamMembersQuery,
  ListTeamsQuery,
  PutTeamMemberInput,
  type TeamMemberRole,
  UpdateTeamInput,
  UpdateTeamMembersInput,
} from './inputs.ts';
import { type TeamJSON, type TeamMemberJSON, type TeamPermissions, presentTeam, presentTeamMember } from './presenter.ts';

/**
 * Teams group members of an organization. Non-guest members see them; admins
 * create them; admins and the team's owners rename, delete and staff them.
 */

export const teamRecords = defineRecordLoader((ctx, ids) => ctx.db.team.findMany({ where: { id: { in: ids } } }));

const teamMemberCounts = defineLoader<string, number>(async (ctx, teamIds) => {
  const counts = countsBy(await ctx.db.teamMember.groupBy({ by: ['teamId'], where: { teamId: { in: [...teamIds] } }, _count: { _all: true } }), 'teamId');
  return teamIds.map((id) => counts.get(id) ?? 0);
});

/** The teams the viewer owns, by organization. */
const viewerOwnedTeams = defineLoader<string, Set<string>>(async (ctx, organizationIds) => {
  const viewer = ctx.viewer?.user;
  const rows = viewer
    ? await ctx.db.teamMember.findMany({
        where: { organizationId: { in: [...organizationIds] }, userId: viewer.id, role: 'owner' },
        select: { teamId: true, organizationId: true },
      })
    : [];
  return organizationIds.map((id) => new Set(rows.filter((row) => row.organizationId === id).map((row) => row.teamId)));
});

export async function teamPermissions(ctx: RequestContext, team: TeamRecord, access: OrganizationAccess): Promise<TeamPermissions> {
  const view = organizationPermissions(access).listTeams;
  const owner = view && (await loader(ctx, viewerOwnedTeams).load(team.organizationId)).has(team.id);
  return { view, admin: view && (access.role === 'admin' || owner) };
}

/** The number of members of a team. */
export function teamMemberCount(ctx: RequestContext, team: TeamRecord): Promise<number> {
  return loader(ctx, teamMemberCounts).load(team.id);
}

/** The REST object of a team row (also the `defaultTeam` of SAML providers). */
export async function presentTeamRecord(ctx: RequestContext, team: TeamRecord, access: OrganizationAccess): Promise<TeamJSON> {
  const [members, spaces, permissions] = await Promise.all([
    loader(ctx, teamMemberCounts).load(team.id),
    teamSpaceCount(ctx, team.id),
    teamPermissions(ctx, team, access),
  ]);
  return presentTeam(team, { members, spaces }, permissions);
}

/** The organization, for a caller who may see its teams. */
async function organizationForTeams(ctx: RequestContext, organizationId: string) {
  const { access } = await visibleOrganization(ctx, organizationId);
  authorize(organizationPermissions(access).listTeams, "read this organization's teams");
  return access;
}

async function findTeam(ctx: RequestContext, organizationId: string, teamId: string): Promise<TeamRecord> {
  const team = await loader(ctx, teamRecords).load(teamId);
  if (!team || team.organizationId !== organizationId) throw notFound('Team', teamId);
  return team;
}

/** A team the caller may manage. */
async function manageableTeam(ctx: RequestContext, organizationId: string, teamId: string, action: string) {
  const access = await organizationForTeams(ctx, organizationId);
  const team = await findTeam(ctx, organizationId, teamId);
  authorize((await teamPermissions(ctx, team, access)).admin, action);
  return { team, access };
}

type TeamFilter = { title?: string | undefined; owner?: string | undefined };

const byTitle: Ordering<TeamRecord> = {
  name: 'teams:title',
  keys: [
    { field: 'searchText', direction: 'asc', type: 'string', value: (row) => row.searchText },
    { field: 'id', direction: 'asc', type: 'string', value: (row) => row.id },
  ],
};

function teamWhere(filter: TeamFilter) {
  return {
    ...(filter.title ? { searchText: { contains: searchable(filter.title) } } : {}),
    ...(filter.owner ? { members: { some: { userId: filter.owner, role: 'owner' } } } : {}),
  };
}

const teamsOfOrganization: ChildListing<TeamRecord, TeamFilter> = {
  name: 'organization-teams',
  records: teamRecords,
  ordering: () => byTitle,
  parentOf: (row) => row.organizationId,
  findMany: (ctx, organizationIds, filter, args) =>
    ctx.db.team.findMany({ ...args, where: { AND: [{ organizationId: { in: organizationIds } }, teamWhere(filter), args.where] } }),
  count: async (ctx, organizationIds, filter) =>
    countsBy(
      await ctx.db.team.groupBy({ by: ['organizationId'], where: { organizationId: { in: organizationIds }, ...teamWhere(filter) }, _count: { _all: true } }),
      'organizationId',
    ),
};

/** Teams of an organization by title; `owner` keeps those that member can manage (all of them for an admin). */
export async function listTeamRecords(ctx: RequestContext, organizationId: string, query: unknown): Promise<Page<TeamRecord>> {
  const params = parseInput(ListTeamsQuery, query, 'query');
  await organizationForTeams(ctx, organizationId);
  const filter: TeamFilter = { title: params.title };
  if (params.owner) {
    const owner = await ctx.db.member.findUnique({ where: { organizationId_userId: { organizationId, userId: params.owner } } });
    if (!owner || owner.disabled || asRole(owner.role) === null) return emptyPage();
    if (owner.role !== 'admin') filter.owner = owner.userId;
  }
  return listChildren(ctx, teamsOfOrganization, organizationId, filter, pageRequestOf(params));
}

export async function listTeams(ctx: RequestContext, organizationId: string, query: unknown): Promise<Page<TeamJSON>> {
  const page = await listTeamRecords(ctx, organizationId, query);
  const access = await organizationForTeams(ctx, organizationId);
  return mapPage(page, (team) => presentTeamRecord(ctx, team, access));
}

export async function teamRecord(ctx: RequestContext, organizationId: string, teamId: string): Promise<TeamRecord> {
  await organizationForTeams(ctx, organizationId);
  return findTeam(ctx, organizationId, teamId);
}

export async function getTeam(ctx: RequestContext, organizationId: string, teamId: string): Promise<TeamJSON> {
  const access = await organizationForTeams(ctx, organizationId);
  return presentTeamRecord(ctx, await findTeam(ctx, organizationId, teamId), access);
}

/** A team by id alone (GraphQL nodes and mutations): outside the caller's organizations it does not exist. */
export async function teamById(ctx: RequestContext, teamId: string): Promise<TeamRecord> {
  const team = await loader(ctx, teamRecords).load(teamId);
  if (!team) throw notFound('Team', teamId);
  return teamRecord(ctx, team.organizationId, teamId);
}

export async function presentTeamById(ctx: RequestContext, teamId: string): Promise<TeamJSON> {
  const team = await teamById(ctx, teamId);
  return getTeam(ctx, team.organizationId, teamId);
}

/** Organization members by user id, or the first field naming someone who is not one. */
async function membersByUserId(ctx: RequestContext, organizationId: string, userIds: string[], field: string) {
  const found = await ctx.db.member.findMany({ where: { organizationId, userId: { in: userIds } }, select: { userId: true } });
  const known = new Set(found.map((member) => member.userId));
  const missing = userIds.findIndex((id) => !known.has(id));
  if (missing >= 0) throw invalid(`${field}.${missing}: no member ${userIds[missing]} in this organization`);
}

export async function createTeam(ctx: RequestContext, organizationId: string, body: unknown): Promise<TeamJSON> {
  const input = parseInput(CreateTeamInput, body);
  const { access } = await visibleOrganization(ctx, organizationId);
  authorize(organizationPermissions(access).ownTeam, 'create teams in this organization');
  const members = [...new Set(input.members ?? [])];
  await membersByUserId(ctx, organizationId, input.members ?? [], 'members');
  const id = newId('team');
  await inTransaction(ctx, { action: 'team.create', organizationId, target: { type: 'team', id, label: input.title }, payload: { members } }, async (tx) => {
    await tx.db.team.create({ data: { id, organizationId, title: input.title, searchText: searchable(input.title) } });
    if (members.length) {
      await tx.db.teamMember.createMany({ data: members.map((userId) => ({ teamId: id, organizationId, userId, role: 'member' })) });
    }
  });
  return getTeam(ctx, organizationId, id);
}

export async function updateTeam(ctx: RequestContext, organizationId: string, teamId: string, body: unknown): Promise<TeamJSON> {
  const input = parseInput(UpdateTeamInput, body);
  await manageableTeam(ctx, organizationId, teamId, 'rename this team');
  await inTransaction(
    ctx,
    {
      action: 'team.update',
      organizationId,
      target: { type: 'team', id: teamId, label: input.title },
    },
    (tx) => tx.db.team.update({ where: { id: teamId }, data: { title: input.title, searchText: searchable(input.title) } }),
  );
  return getTeam(ctx, organizationId, teamId);
}

export async function deleteTeam(ctx: RequestContext, organizationId: string, teamId: string): Promise<void> {
  await manageableTeam(ctx, organizationId, teamId, 'delete this team');
  await inTransaction(ctx, { action: 'team.delete', organizationId, target: { type: 'team', id: teamId } }, (tx) =>
    tx.db.team.deleteMany({ where: { id: teamId } }),
  );
}

type TeamMemberRow = TeamMemberRecord & { member: MemberRecord & { user: UserRecord } };

const membersOfTeam: ChildListing<TeamMemberRow, null> = {
  name: 'team-members',
  ordering: () => ({
    name: 'team-members:addedAt',
    keys: [
      { field: 'addedAt', direction: 'asc', type: 'date', value: (row) => row.addedAt },
      { field: 'userId', direction: 'asc', type: 'string', value: (row) => row.userId },
    ],
  }),
  parentOf: (row) => row.teamId,
  findMany: (ctx, teamIds, _filter, args) =>
    ctx.db.teamMember.findMany({ ...args, where: { AND: [{ teamId: { in: teamIds } }, args.where] }, include: { member: { include: { user: true } } } }),
  count: async (ctx, teamIds) =>
    countsBy(await ctx.db.teamMember.groupBy({ by: ['teamId'], where: { teamId: { in: teamIds } }, _count: { _all: true } }), 'teamId'),
};

export async function listTeamMemberRecords(ctx: RequestContext, organizationId: string, teamId: string, query: unknown): Promise<Page<TeamMemberRow>> {
  const params = parseInput(ListTeamMembersQuery, query, 'query');
  await teamRecord(ctx, organizationId, teamId);
  return listChildren(ctx, membersOfTeam, teamId, null, pageRequestOf(params));
}

export async function listTeamMembers(ctx: RequestContext, organizationId: string, teamId: string, query: unknown): Promise<Page<TeamMemberJSON>> {
  const page = await listTeamMemberRecords(ctx, organizationId, teamId, query);
  // Whoever lists a team's members may see each of them.
  return mapPage(page, async (row) => presentTeamMember(await presentMemberOf(ctx, row.member), row.role, true));
}

/** The organization's members named by user id or email, in the order given; the first unknown one is a 400. */
async function resolveUsers(ctx: RequestContext, organizationId: string, keys: string[], field: string): Promise<string[]> {
  if (keys.length === 0) return [];
  const emails = keys.filter((key) => key.includes('@')).map((key) => key.toLowerCase());
  const members = await ctx.db.member.findMany({
    where: { organizationId, OR: [{ userId: { in: keys } }, { user: { email: { in: emails } } }] },
    select: { userId: true, user: { select: { email: true } } },
  });
  const byKey = new Map<string, string>();
  for (const member of members) {
    byKey.set(member.userId, member.userId);
    byKey.set(member.user.email.toLowerCase(), member.userId);
  }
  return keys.map((key, index) => {
    const userId = byKey.get(key) ?? byKey.get(key.toLowerCase());
    if (!userId) throw invalid(`${field}.${index}: no member "${key}" in this organization`);
    return userId;
  });
}

/** Adds members (as `member`), sets roles (adding who is missing), then removes: a user both added and removed leaves. */
async function writeTeamMembers(
  ctx: RequestContext,
  team: TeamRecord,
  changes: { add: string[]; roles: Map<string, TeamMemberRole>; remove: string[] },
): Promise<void> {
  const removed = new Set(changes.remove);
  const audit: AuditFacts = {
    action: 'team.update_members',
    organizationId: team.organizationId,
    target: { type: 'team', id: team.id, label: team.title },
    payload: { added: changes.add, roles: Object.fromEntries(changes.roles), removed: changes.remove },
  };
  await inTransaction(ctx, audit, async (tx) => {
    // Concurrent edits of one team queue here, so each sees the others' members.
    await serializeOn(tx.db, tx.provider, `team:${team.id}`);
    const current = new Map(
      (await tx.db.teamMember.findMany({ where: { teamId: team.id }, select: { userId: true, role: true } })).map((row) => [row.userId, row.role]),
    );
    const wanted = new Map<string, TeamMemberRole | undefined>();
    for (const userId of changes.add) if (!removed.has(userId)) wanted.set(userId, undefined);
    for (const [userId, role] of changes.roles) if (!removed.has(userId)) wanted.set(userId, role);
    const created = [...wanted].filter(([userId]) => !current.has(userId));
    if (created.length) {
      await tx.db.teamMember.createMany({
        data: created.map(([userId, role]) => ({ teamId: team.id, organizationId: team.organizationId, userId, role: role ?? 'member' })),
      });
      await joinTeamGrants(
        tx,
        team.organizationId,
        team.id,
        created.map(([userId]) => userId),
      );
    }
    for (const [userId, role] of wanted) {
      if (role && current.has(userId) && current.get(userId) !== role) {
        await tx.db.teamMember.update({ where: { teamId_userId: { teamId: team.id, userId } }, data: { role } });
      }
    }
    const leaving = changes.remove.filter((userId) => current.has(userId));
    if (leaving.length) await tx.db.teamMember.deleteMany({ where: { teamId: team.id, userId: { in: leaving } } });
  });
}

export async function updateTeamMembers(ctx: RequestContext, organizationId: string, teamId: string, body: unknown): Promise<void> {
  const input = parseInput(UpdateTeamMembersInput, body);
  const { team } = await manageableTeam(ctx, organizationId, teamId, "change this team's members");
  const memberships = Object.entries(input.memberships ?? {});
  const [add, remove, roleUsers] = await Promise.all([
    resolveUsers(ctx, organizationId, input.add ?? [], 'add'),
    resolveUsers(ctx, organizationId, input.remove ?? [], 'remove'),
    resolveUsers(
      ctx,
      organizationId,
      memberships.map(([key]) => key),
      'memberships',
    ),
  ]);
  const roles = new Map(roleUsers.map((userId, index) => [userId, memberships[index]![1].role]));
  await writeTeamMembers(ctx, team, { add, roles, remove });
}

/** Adds a member to the team, or changes its role. */
export async function putTeamMember(ctx: RequestContext, organizationId: string, teamId: string, userId: string, body: unknown): Promise<void> {
  const input = parseInput(PutTeamMemberInput, body);
  const { team } = await manageableTeam(ctx, organizationId, teamId, "change this team's members");
  const member = await ctx.db.member.findUnique({ where: { organizationId_userId: { organizationId, userId } }, select: { userId: true } });
  if (!member) throw notFound('Member', userId);
  await writeTeamMembers(ctx, team, { add: [userId], roles: input.role ? new Map([[userId, input.role]]) : new Map(), remove: [] });
}

/** Removes a member from the team: its managers remove anyone, a member removes itself (leaves). */
export async function removeTeamMember(ctx: RequestContext, organizationId: string, teamId: string, userId: string): Promise<void> {
  const viewer = requireViewer(ctx);
  const access = await organizationForTeams(ctx, organizationId);
  const team = await findTeam(ctx, organizationId, teamId);
  if (userId !== viewer.id) authorize((await teamPermissions(ctx, team, access)).admin, "change this team's members");
  const inTeam = await ctx.db.teamMember.findUnique({ where: { teamId_userId: { teamId, userId } }, select: { userId: true } });
  if (!inTeam) throw notFound('Team member', userId);
  await writeTeamMembers(ctx, team, { add: [], roles: new Map(), remove: [userId] });
}

export interface MemberTeamJSON {
  team: TeamJSON;
  member: { role: TeamMemberRole };
}

type MemberTeamRow = TeamMemberRecord & { team: TeamRecord };

const teamsOfMember: ChildListing<MemberTeamRow, { title?: string | undefined }> = {
  name: 'member-teams',
  ordering: () => ({
    name: 'member-teams:title',
    keys: [
      { field: 'team.searchText', direction: 'asc', type: 'string', value: (row) => row.team.searchText },
      { field: 'teamId', direction: 'asc', type: 'string', value: (row) => row.teamId },
    ],
  }),
  // Parent: "organizationId userId".
  parentOf: (row) => `${row.organizationId} ${row.userId}`,
  findMany: (ctx, parents, filter, args) =>
    ctx.db.teamMember.findMany({
      ...args,
      where: { AND: [{ OR: parents.map(memberOfParent) }, filter.title ? { team: { searchText: { contains: searchable(filter.title) } } } : {}, args.where] },
      include: { team: true },
    }),
  count: async (ctx, parents, filter) => {
    const rows = await ctx.db.teamMember.groupBy({
      by: ['organizationId', 'userId'],
      where: { OR: parents.map(memberOfParent), ...(filter.title ? { team: { searchText: { contains: searchable(filter.title) } } } : {}) },
      _count: { _all: true },
    });
    return new Map(rows.map((row) => [`${row.organizationId} ${row.userId}`, row._count._all]));
  },
};

function memberOfParent(parent: string) {
  const [organizationId, userId] = parent.split(' ') as [string, string];
  return { organizationId, userId };
}

export async function listMemberTeamRecords(ctx: RequestContext, organizationId: string, userId: string, query: unknown): Promise<Page<MemberTeamRow>> {
  const { title, ...paging } = parseInput(ListMemberTeamsQuery, query, 'query');
  await organizationForTeams(ctx, organizationId);
  const member = await ctx.db.member.findUnique({ where: { organizationId_userId: { organizationId, userId } }, select: { userId: true } });
  if (!member) throw notFound('Member', userId);
  return listChildren(ctx, teamsOfMember, `${organizationId} ${userId}`, { title }, pageRequestOf(paging));
}

/** Teams of a member with its role in each, by title. */
export async function listMemberTeams(ctx: RequestContext, organizationId: string, userId: string, query: unknown): Promise<Page<MemberTeamJSON>> {
  const page = await listMemberTeamRecords(ctx, organizationId, userId, query);
  const access = await organizationForTeams(ctx, organizationId);
  return mapPage(page, async (row) => ({ team: await presentTeamRecord(ctx, row.team, access), member: { role: row.role as TeamMemberRole } }));
}
