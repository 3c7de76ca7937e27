import type { TeamMemberRecord, TeamRecord } from '../../db/index.ts';
import type { MemberWithUser } from '../../domain/members/presenter.ts';
import { organizationAccess } from '../../domain/organizations/service.ts';
import { teamSpaceCount } from '../../domain/permissions/grants.ts';
import type { TEAM_MEMBER_ROLES } from '../../domain/teams/inputs.ts';
import {
  createTeam,
  deleteTeam,
  listMemberTeamRecords,
  listTeamMemberRecords,
  listTeamRecords,
  putTeamMember,
  removeTeamMember,
  teamById,
  teamMemberCount,
  teamPermissions,
  updateTeam,
  updateTeamMembers,
} from '../../domain/teams/service.ts';
import { builder } from '../builder.ts';
import { connectionQuery, loadEach, toConnection } from '../connection.ts';
import { booleanObject } from './common.ts';
import { Member } from './member.ts';
import { Organization } from './organization.ts';

const TeamMemberRole = builder.enumType('TeamMemberRole', {
  description: 'owner: manages the team and its members; member: belongs to it',
  values: {
    owner: { description: 'Manages the team: renames and deletes it, and changes its members' },
    member: { description: 'Belongs to the team' },
  } satisfies Record<(typeof TEAM_MEMBER_ROLES)[number], { description: string }>,
});
const TeamPermissions = booleanObject('TeamPermissions', ['admin', 'view'] as const);

/** Backed by the team's row: counts and permissions computed when asked, batched per request. */
export const Team = builder.loadableNodeRef<TeamRecord, string>('Team', {
  id: { resolve: (team) => team.id },
  load: (ids, ctx) => loadEach(ids, (id) => teamById(ctx, id)),
});

const TeamMembership = builder.objectRef<TeamMemberRecord & { member: MemberWithUser }>('TeamMembership').implement({
  description: 'A member of a team, with its role in it',
  fields: (t) => ({
    member: t.expose('member', { type: Member, description: 'The organization member' }),
    role: t.field({ type: TeamMemberRole, description: "The member's role in the team", resolve: (row) => row.role as (typeof TEAM_MEMBER_ROLES)[number] }),
  }),
});

const MemberTeamMembership = builder.objectRef<{ team: TeamRecord; role: string }>('MemberTeamMembership').implement({
  description: 'A team a member belongs to, with its role in it',
  fields: (t) => ({
    team: t.expose('team', { type: Team, description: 'The team' }),
    role: t.field({ type: TeamMemberRole, description: "The member's role in the team", resolve: (row) => row.role as (typeof TEAM_MEMBER_ROLES)[number] }),
  }),
});

Team.implement({
  description: 'A group of members of an organization',
  fields: (t) => ({
    object: t.string({ description: 'Always "team" (the REST `object`)', resolve: () => 'team' }),
    title: t.exposeString('title', { description: 'Name of the team' }),
    createdAt: t.field({ type: 'DateTime', description: 'When the team was created', resolve: (team) => team.createdAt.toISOString() }),
    organization: t.field({ type: Organization, description: 'The organization the team belongs to', resolve: (team) => team.organizationId }),
    members: t.int({ description: 'Number of members (the list: membersConnection)', resolve: (team, _args, ctx) => teamMemberCount(ctx, team) }),
    spaces: t.int({
      description: "Number of spaces the team's grants reach (on the space, or on a collection above it)",
      resolve: (team, _args, ctx) => teamSpaceCount(ctx, team.id),
    }),
    permissions: t.field({
      type: TeamPermissions,
      description: "What the caller may do with the team: organization admins and the team's owners administer it",
      resolve: async (team, _args, ctx) => teamPermissions(ctx, team, await organizationAccess(ctx, team.organizationId)),
    }),
    membersConnection: t.connection({
      type: TeamMembership,
      description: 'Members of the team, in the order they joined it',
      resolve: async (team, args, ctx) => toConnection(await listTeamMemberRecords(ctx, team.organizationId, team.id, connectionQuery(args))),
    }),
  }),
});

builder.objectField(Organization, 'teams', (t) =>
  t.connection({
    type: Team,
    description: 'Teams of the organization, by title',
    args: {
      owner: t.arg.id({ description: 'A member id: only the teams this member can manage' }),
      title: t.arg.string({ description: 'Case-insensitive part of the title' }),
    },
    resolve: async (org, args, ctx) => toConnection(await listTeamRecords(ctx, org.id, connectionQuery(args))),
  }),
);

builder.objectField(Member, 'teamMemberships', (t) =>
  t.connection({
    type: MemberTeamMembership,
    description: 'Teams the member belongs to, by title',
    args: { title: t.arg.string({ description: 'Case-insensitive part of the title' }) },
    resolve: async (member, args, ctx) => toConnection(await listMemberTeamRecords(ctx, member.organizationId, member.userId, connectionQuery(args))),
  }),
);

/** A mutation's payload: the team it acted on, read again as the viewer sees it now. */
const teamPayload = {
  outputFields: (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, { teamId: string }>) => ({
    team: t.field({ type: Team, resolve: (payload, _args, ctx) => teamById(ctx, payload.teamId) }),
  }),
};

const TeamMembershipInput = builder.inputType('TeamMembershipInput', {
  description: 'A role to give a member of the organization in the team',
  fields: (t) => ({
    user: t.string({ required: true, description: 'User id or email' }),
    role: t.field({ type: TeamMemberRole, required: true, description: 'Its role in the team' }),
  }),
});

builder.relayMutationField(
  'createTeam',
  {
    inputFields: (t) => ({
      organizationId: t.id({ required: true, description: 'The organization' }),
      title: t.string({ required: true, description: 'Name of the team (1 to 64 characters)' }),
      members: t.idList({ description: 'User ids of members of the organization, who join with the member role' }),
    }),
  },
  {
    description: 'Creates a team in an organization, with members if given (admins)',
    resolve: async (_root, { input: { organizationId, title, members } }, ctx) => ({
      teamId: (await createTeam(ctx, organizationId, { title, ...(members ? { members } : {}) })).id,
    }),
  },
  teamPayload,
);

builder.relayMutationField(
  'updateTeam',
  {
    inputFields: (t) => ({
      teamId: t.id({ required: true, description: 'The team' }),
      title: t.string({ required: true, description: 'New name (1 to 64 characters)' }),
    }),
  },
  {
    description: "Renames a team (admins and the team's owners)",
    resolve: async (_root, { input: { teamId, title } }, ctx) => {
      const team = await teamById(ctx, teamId);
      await updateTeam(ctx, team.organizationId, teamId, { title });
      return { teamId };
    },
  },
  teamPayload,
);

builder.relayMutationField(
  'deleteTeam',
  { inputFields: (t) => ({ teamId: t.id({ required: true, description: 'The team' }) }) },
  {
    description: "Deletes a team (admins and the team's owners); its members stay in the organization",
    resolve: async (_root, { input: { teamId } }, ctx) => {
      const team = await teamById(ctx, teamId);
      await deleteTeam(ctx, team.organizationId, teamId);
      return { deletedTeamId: teamId };
    },
  },
  { outputFields: (t) => ({ deletedTeamId: t.exposeID('deletedTeamId', { description: 'Id of the team deleted' }) }) },
);

builder.relayMutationField(
  'updateTeamMembers',
  {
    inputFields: (t) => ({
      teamId: t.id({ required: true, description: 'The team' }),
      add: t.stringList({ description: 'Members of the organization to add with the member role, by user id or email' }),
      remove: t.stringList({ description: 'Members to remove from the team, by user id or email' }),
      memberships: t.field({ type: [TeamMembershipInput], description: 'Roles to set; a user not in the team yet is added with it' }),
    }),
  },
  {
    description: "Adds, sets roles of and removes members by user id or email (admins and the team's owners); a user both added and removed is removed",
    resolve: async (_root, { input: { teamId, add, remove, memberships } }, ctx) => {
      const team = await teamById(ctx, teamId);
      await updateTeamMembers(ctx, team.organizationId, teamId, {
        ...(add ? { add } : {}),
        ...(remove ? { remove } : {}),
        ...(memberships ? { memberships: Object.fromEntries(memberships.map(({ user, role }) => [user, { role }])) } : {}),
      });
      return { teamId };
    },
  },
  teamPayload,
);

builder.relayMutationField(
  'setTeamMember',
  {
    inputFields: (t) => ({
      teamId: t.id({ required: true, description: 'The team' }),
      userId: t.id({ required: true, description: 'A member of the organization, by user id' }),
      role: t.field({ type: TeamMemberRole, description: 'Its role in the team; absent: member when it joins, else unchanged' }),
    }),
  },
  {
    description: "Adds a member of the organization to the team, or changes its role (admins and the team's owners)",
    resolve: async (_root, { input: { teamId, userId, role } }, ctx) => {
      const team = await teamById(ctx, teamId);
      await putTeamMember(ctx, team.organizationId, teamId, userId, role ? { role } : {});
      return { teamId };
    },
  },
  teamPayload,
);

builder.relayMutationField(
  'removeTeamMember',
  {
    inputFields: (t) => ({
      teamId: t.id({ required: true, description: 'The team' }),
      userId: t.id({ required: true, description: "The member to remove, by user id (the caller's own to leave)" }),
    }),
  },
  {
    description: "Removes a member from the team (admins and the team's owners), or the caller leaves it",
    resolve: async (_root, { input: { teamId, userId } }, ctx) => {
      const team = await teamById(ctx, teamId);
      await removeTeamMember(ctx, team.organizationId, teamId, userId);
      return { teamId };
    },
  },
  teamPayload,
);
