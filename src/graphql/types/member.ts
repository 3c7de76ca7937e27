import type { MemberJSON } from '../../domain/members/presenter.ts';
import {
  type MemberSpaceJSON,
  getMember,
  listMemberSpaces,
  listMembers,
  ping,
  removeMember,
  setSsoMember,
  updateMember,
} from '../../domain/members/service.ts';
import { builder } from '../builder.ts';
import { connectionQuery, toConnection } from '../connection.ts';
import { MemberRole, OrderDirection } from './common.ts';
import { Organization } from './organization.ts';
import { Space } from './space.ts';
import { spaceRecord } from '../../domain/spaces/service.ts';
import { User } from './user.ts';

const MemberSort = builder.enumType('MemberSort', {
  description: '`lastSeenAt` lists only members who have been active',
  values: ['joinedAt', 'lastSeenAt', 'name'] as const,
});

const MemberRoleFilter = builder.enumType('MemberRoleFilter', {
  values: ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest'] as const,
});

type MemberOf = MemberJSON & { organizationId: string };

export const Member = builder.objectRef<MemberOf>('Member');

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
    object: t.exposeString('object'),
    id: t.exposeID('id'),
    role: t.field({ type: MemberRole, nullable: true, description: 'null for a guest', resolve: (m) => m.role ?? null }),
    user: t.field({ type: User, resolve: (member) => member.user }),
    disabled: t.exposeBoolean('disabled'),
    joinedAt: t.field({ type: 'DateTime', resolve: (member) => member.joinedAt }),
    lastSeenAt: t.field({ type: 'DateTime', nullable: true, resolve: (member) => member.lastSeenAt ?? null }),
    sso: t.exposeBoolean('sso'),
    spaces: t.exposeInt('spaces', { description: 'Number of spaces the member can access' }),
    teams: t.exposeInt('teams'),
    sites: t.exposeInt('sites'),
    organization: t.field({ type: Organization, resolve: (member) => member.organizationId }),
    spacePermissions: t.connection({
      type: MemberSpacePermission,
      description: 'Spaces the member can access (readable by the member and by admins)',
      args: { order: t.arg({ type: OrderDirection }) },
      resolve: async (member, args, ctx) =>
        toConnection(await listMemberSpaces(ctx, member.organizationId, member.id, connectionQuery(args))),
    }),
  }),
});

const withOrganization = (organizationId: string) => (member: MemberJSON) => ({ ...member, organizationId });

builder.objectField(Organization, 'members', (t) =>
  t.connection({
    type: Member,
    args: {
      order: t.arg({ type: OrderDirection }),
      role: t.arg({ type: MemberRoleFilter }),
      search: t.arg.string({ description: 'Matches display names and emails' }),
      sort: t.arg({ type: MemberSort }),
    },
    resolve: async (org, args, ctx) => {
      const page = await listMembers(ctx, org.id, connectionQuery(args));
      return toConnection({ ...page, items: page.items.map(withOrganization(org.id)) });
    },
  }),
);

builder.queryField('member', (t) =>
  t.field({
    type: Member,
    nullable: true,
    args: { organizationId: t.arg.id({ required: true }), userId: t.arg.id({ required: true }) },
    resolve: async (_root, { organizationId, userId }, ctx) =>
      withOrganization(organizationId)(await getMember(ctx, organizationId, userId)),
  }),
);

const memberPayload = {
  outputFields: (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, { member: MemberOf }>) => ({
    member: t.field({ type: Member, resolve: (payload) => payload.member }),
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
    resolve: async (_root, { input: { organizationId, userId, ...body } }, ctx) => ({
      member: withOrganization(organizationId)(await updateMember(ctx, organizationId, userId, body)),
    }),
  },
  memberPayload,
);

builder.relayMutationField(
  'setMemberSso',
  { inputFields: (t) => ({ organizationId: t.id({ required: true }), userId: t.id({ required: true }) }) },
  {
    resolve: async (_root, { input: { organizationId, userId } }, ctx) => ({
      member: withOrganization(organizationId)(await setSsoMember(ctx, organizationId, userId)),
    }),
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
