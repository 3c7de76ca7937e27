import { asRole } from '../../domain/access.ts';
import type { MemberWithUser } from '../../domain/members/presenter.ts';
import {
  MEMBER_SITES,
  type MemberSpaceJSON,
  listMemberRecords,
  listMemberSpaces,
  memberRecord,
  memberSpaceCount,
  memberTeamCount,
  ping,
  removeMember,
  setSsoMember,
  updateMember,
} from '../../domain/members/service.ts';
import { spaceRecord } from '../../domain/spaces/service.ts';
import { presentUser } from '../../domain/users/presenter.ts';
import { builder } from '../builder.ts';
import { connectionQuery, toConnection } from '../connection.ts';
import { MemberRole, OrderDirection } from './common.ts';
import { Organization } from './organization.ts';
import { Space } from './space.ts';
import { User } from './user.ts';
import { nullIsAValue } from '../null-inputs.ts';

export const MemberSort = builder.enumType('MemberSort', {
  description: 'What members are listed by; `lastSeenAt` lists only members who have been active',
  values: {
    joinedAt: { description: 'When they joined the organization (the default)' },
    lastSeenAt: { description: 'When they were last active in the organization' },
    name: { description: "The user's display name" },
  },
});

export const MemberRoleFilter = builder.enumType('MemberRoleFilter', {
  description: 'Which members to list: those with one role, or the guests',
  values: {
    admin: { description: 'Members with the admin role' },
    create: { description: 'Members with the create role' },
    review: { description: 'Members with the review role' },
    edit: { description: 'Members with the edit role' },
    comment: { description: 'Members with the comment role' },
    read: { description: 'Members with the read role' },
    guest: { description: 'Guests: members without a role (role null)' },
  },
});

/** Backed by the membership row with its user: each field computed when asked (the space count only then). */
export const Member = builder.objectRef<MemberWithUser>('Member');

const MemberSpacePermission = builder.objectRef<MemberSpaceJSON>('MemberSpacePermission').implement({
  description: "A space a member can access, with the member's level on it",
  fields: (t) => ({
    permission: t.expose('permission', {
      type: MemberRole,
      description: "The member's level on the space: the nearest default level on it or above it, else the member's role (admin for organization admins)",
    }),
    space: t.field({ type: Space, description: 'The space', resolve: (entry, _args, ctx) => spaceRecord(ctx, entry.space.id) }),
  }),
});

Member.implement({
  description: 'A user in an organization; `id` is the user id',
  fields: (t) => ({
    object: t.string({ description: 'Always "member" (the REST `object`)', resolve: () => 'member' }),
    id: t.id({ description: 'Id of the user (`usr_…`): a membership has no id of its own', resolve: (member) => member.userId }),
    role: t.field({ type: MemberRole, nullable: true, description: 'null for a guest', resolve: (member) => asRole(member.role) }),
    user: t.field({ type: User, description: 'The user who is a member', resolve: (member, _args, ctx) => presentUser(member.user, ctx.urls) }),
    disabled: t.exposeBoolean('disabled', {
      description: 'Whether the membership is disabled: the user then has no access to the organization and cannot rejoin with an invite',
    }),
    joinedAt: t.field({ type: 'DateTime', description: 'When the user joined the organization', resolve: (member) => member.joinedAt.toISOString() }),
    lastSeenAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the member was last active in the organization (as pingOrganization records it); null if never',
      resolve: (member) => member.lastSeenAt?.toISOString() ?? null,
    }),
    sso: t.exposeBoolean('sso', { description: "Whether the member signs in through the organization's SSO (set by setMemberSso)" }),
    spaces: t.int({ description: 'Number of spaces the member can access', resolve: (member, _args, ctx) => memberSpaceCount(ctx, member) }),
    teams: t.int({ description: 'Number of teams the member is in', resolve: (member, _args, ctx) => memberTeamCount(ctx, member) }),
    sites: t.int({
      description: 'Number of sites the member was given access to of its own: always 0 (no operation does that here)',
      resolve: () => MEMBER_SITES,
    }),
    organization: t.field({ type: Organization, description: 'The organization the member belongs to', resolve: (member) => member.organizationId }),
    spacePermissions: t.connection({
      type: MemberSpacePermission,
      description: 'Spaces the member can access (readable by the member and by admins); none for a guest or a disabled member',
      args: { order: t.arg({ type: OrderDirection, description: 'By creation of the spaces: desc, newest first (the default), or asc' }) },
      resolve: async (member, args, ctx) => toConnection(await listMemberSpaces(ctx, member.organizationId, member.userId, connectionQuery(args))),
    }),
  }),
});

builder.objectField(Organization, 'members', (t) =>
  t.connection({
    type: Member,
    description: 'Members of the organization, guests included (callers with a role; a guest gets 403)',
    args: {
      order: t.arg({ type: OrderDirection, description: 'Direction of `sort`: desc (the default) or asc' }),
      role: t.arg({ type: MemberRoleFilter, description: 'Only members with this role, or only guests' }),
      search: t.arg.string({ description: 'Matches display names and emails' }),
      sort: t.arg({ type: MemberSort, description: 'What to order by: joinedAt when absent' }),
    },
    resolve: async (org, args, ctx) => toConnection(await listMemberRecords(ctx, org.id, connectionQuery(args))),
  }),
);

builder.queryField('member', (t) =>
  t.field({
    type: Member,
    nullable: true,
    description: "A member of an organization: the caller's own membership, or anyone's for a caller with a role (a guest gets 403)",
    args: {
      organizationId: t.arg.id({ required: true, description: 'Id of the organization' }),
      userId: t.arg.id({ required: true, description: 'Id of the user' }),
    },
    resolve: (_root, { organizationId, userId }, ctx) => memberRecord(ctx, organizationId, userId),
  }),
);

/** A mutation's payload: the membership it acted on, read again as the viewer sees it now. */
const memberPayload = {
  outputFields: (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, { organizationId: string; userId: string }>) => ({
    member: t.field({ type: Member, resolve: (payload, _args, ctx) => memberRecord(ctx, payload.organizationId, payload.userId) }),
  }),
};

builder.relayMutationField(
  'updateMember',
  {
    inputFields: (t) => ({
      organizationId: t.id({ required: true, description: 'The organization' }),
      userId: t.id({ required: true, description: 'The member, by user id' }),
      role: t.field({ ...nullIsAValue, type: MemberRole, description: 'null makes the member a guest' }),
    }),
  },
  {
    description: "Changes a member's role (admins); the organization keeps at least one admin",
    resolve: async (_root, { input: { organizationId, userId, ...body } }, ctx) => {
      await updateMember(ctx, organizationId, userId, body);
      return { organizationId, userId };
    },
  },
  memberPayload,
);

builder.relayMutationField(
  'setMemberSso',
  {
    inputFields: (t) => ({
      organizationId: t.id({ required: true, description: 'The organization' }),
      userId: t.id({ required: true, description: 'The member, by user id' }),
    }),
  },
  {
    description: "Marks a member as signing in through the organization's SSO (admins); its `sso` becomes true",
    resolve: async (_root, { input: { organizationId, userId } }, ctx) => {
      await setSsoMember(ctx, organizationId, userId);
      return { organizationId, userId };
    },
  },
  memberPayload,
);

builder.relayMutationField(
  'removeMember',
  {
    inputFields: (t) => ({
      organizationId: t.id({ required: true, description: 'The organization' }),
      userId: t.id({ required: true, description: "The member to remove, by user id (the caller's own to leave)" }),
    }),
  },
  {
    description: 'Removes a member from the organization (admins), or the caller leaves it; the last admin cannot go',
    resolve: async (_root, { input: { organizationId, userId } }, ctx) => {
      await removeMember(ctx, organizationId, userId);
      return { removedUserId: userId };
    },
  },
  { outputFields: (t) => ({ removedUserId: t.exposeID('removedUserId', { description: 'User id of the member removed' }) }) },
);

builder.relayMutationField(
  'pingOrganization',
  { inputFields: (t) => ({ organizationId: t.id({ required: true, description: 'An organization the caller is a member of' }) }) },
  {
    description: "Updates the caller's last-seen time in the organization and, for a member with a role, returns its visitor claims",
    resolve: (_root, { input }, ctx) => ping(ctx, input.organizationId),
  },
  {
    outputFields: (t) => ({
      docsVisitorClaims: t.string({
        nullable: true,
        description:
          "A visitor token (JWT, valid one hour) that opens the organization's visitor-auth sites as this member, e.g. as `publishedSite(visitorToken:)`; null for a guest",
        resolve: (payload) => payload.docsVisitorClaims ?? null,
      }),
    }),
  },
);
