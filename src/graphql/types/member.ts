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

const MemberSort = builder.enumType('MemberSort', {
  description: '`lastSeenAt` lists only members who have been active',
  values: ['joinedAt', 'lastSeenAt', 'name'] as const,
});

const MemberRoleFilter = builder.enumType('MemberRoleFilter', {
  values: ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest'] as const,
});

/** Backed by the membership row with its user: each field computed when asked (the space count only then). */
export const Member = builder.objectRef<MemberWithUser>('Member');

const MemberSpacePermission = builder.objectRef<MemberSpaceJSON>('MemberSpacePermission').implement({
  description: "A space a member can access, with the member's level on it",
  fields: (t) => ({
    permission: t.field({ type: MemberRole, resolve: (entry) => entry.permission }),
    space: t.field({ type: Space, resolve: (entry, _args, ctx) => spaceRecord(ctx, entry.space.id) }),
  }),
});

Member.implement({
  description: 'A user in an organization; `id` is the user id',
  fields: (t) => ({
    object: t.string({ resolve: () => 'member' }),
    id: t.id({ resolve: (member) => member.userId }),
    role: t.field({ type: MemberRole, nullable: true, description: 'null for a guest', resolve: (member) => asRole(member.role) }),
    user: t.field({ type: User, resolve: (member, _args, ctx) => presentUser(member.user, ctx.urls) }),
    disabled: t.exposeBoolean('disabled'),
    joinedAt: t.field({ type: 'DateTime', resolve: (member) => member.joinedAt.toISOString() }),
    lastSeenAt: t.field({ type: 'DateTime', nullable: true, resolve: (member) => member.lastSeenAt?.toISOString() ?? null }),
    sso: t.exposeBoolean('sso'),
    spaces: t.int({ description: 'Number of spaces the member can access', resolve: (member, _args, ctx) => memberSpaceCount(ctx, member) }),
    teams: t.int({ description: 'Number of teams the member is in', resolve: (member, _args, ctx) => memberTeamCount(ctx, member) }),
    sites: t.int({ resolve: () => MEMBER_SITES }),
    organization: t.field({ type: Organization, resolve: (member) => member.organizationId }),
    spacePermissions: t.connection({
      type: MemberSpacePermission,
      description: 'Spaces the member can access (readable by the member and by admins)',
      args: { order: t.arg({ type: OrderDirection }) },
      resolve: async (member, args, ctx) => toConnection(await listMemberSpaces(ctx, member.organizationId, member.userId, connectionQuery(args))),
    }),
  }),
});

builder.objectField(Organization, 'members', (t) =>
  t.connection({
    type: Member,
    args: {
      order: t.arg({ type: OrderDirection }),
      role: t.arg({ type: MemberRoleFilter }),
      search: t.arg.string({ description: 'Matches display names and emails' }),
      sort: t.arg({ type: MemberSort }),
    },
    resolve: async (org, args, ctx) => toConnection(await listMemberRecords(ctx, org.id, connectionQuery(args))),
  }),
);

builder.queryField('member', (t) =>
  t.field({
    type: Member,
    nullable: true,
    args: { organizationId: t.arg.id({ required: true }), userId: t.arg.id({ required: true }) },
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
      organizationId: t.id({ required: true }),
      userId: t.id({ required: true }),
      role: t.field({ type: MemberRole, description: 'null makes the member a guest' }),
    }),
  },
  {
    resolve: async (_root, { input: { organizationId, userId, ...body } }, ctx) => {
      await updateMember(ctx, organizationId, userId, body);
      return { organizationId, userId };
    },
  },
  memberPayload,
);

builder.relayMutationField(
  'setMemberSso',
  { inputFields: (t) => ({ organizationId: t.id({ required: true }), userId: t.id({ required: true }) }) },
  {
    resolve: async (_root, { input: { organizationId, userId } }, ctx) => {
      await setSsoMember(ctx, organizationId, userId);
      return { organizationId, userId };
    },
  },
  memberPayload,
);

builder.relayMutationField(
  'removeMember',
  { inputFields: (t) => ({ organizationId: t.id({ required: true }), userId: t.id({ required: true }) }) },
  {
    resolve: async (_root, { input: { organizationId, userId } }, ctx) => {
      await removeMember(ctx, organizationId, userId);
      return { removedUserId: userId };
    },
  },
  { outputFields: (t) => ({ removedUserId: t.exposeID('removedUserId') }) },
);

builder.relayMutationField(
  'pingOrganization',
  {
    description: "Updates the viewer's last-seen time in the organization",
    inputFields: (t) => ({ organizationId: t.id({ required: true }) }),
  },
  { resolve: (_root, { input }, ctx) => ping(ctx, input.organizationId) },
  {
    outputFields: (t) => ({
      docsVisitorClaims: t.string({ nullable: true, resolve: (payload) => payload.docsVisitorClaims ?? null }),
    }),
  },
);
