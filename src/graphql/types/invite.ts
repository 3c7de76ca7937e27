import type { InviteRecord } from '../../db/index.ts';
import { asRole } from '../../domain/access.ts';
import {
  createInvite,
  deleteInvite,
  inviteById,
  inviteIsRedundant,
  inviteUsers,
  joinWithInviteById,
  listInviteRecords,
  updateInvite,
} from '../../domain/invites/service.ts';
import { organizationRecord } from '../../domain/organizations/service.ts';
import { builder } from '../builder.ts';
import { connectionQuery, loadEach, toConnection } from '../connection.ts';
import { MemberRole } from './common.ts';
import { Organization } from './organization.ts';
import { nullIsAValue } from '../null-inputs.ts';

/** Backed by the invite's row, read as REST's `GET …/link-invites/{inviteId}` reads it. */
export const Invite = builder.loadableNodeRef<InviteRecord, string>('Invite', {
  id: { resolve: (invite) => invite.id },
  load: (ids, ctx) => loadEach(ids, (id) => inviteById(ctx, id)),
});

Invite.implement({
  description: 'An invite to join an organization: a link (email null) or for one email address',
  fields: (t) => ({
    object: t.string({ description: 'Always "invite" (the REST `object`)', resolve: () => 'invite' }),
    role: t.field({ type: MemberRole, nullable: true, description: 'Role given on joining; null: guest', resolve: (invite) => asRole(invite.role) }),
    redundant: t.boolean({
      description: 'The viewer already has at least this role in the organization',
      resolve: (invite, _args, ctx) => inviteIsRedundant(ctx, invite),
    }),
    email: t.exposeString('email', { nullable: true, description: 'The invited address; null for a link invite' }),
    createdAt: t.field({ type: 'DateTime', description: 'When the invite was created', resolve: (invite) => invite.createdAt.toISOString() }),
    usedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When an email invite was used',
      resolve: (invite) => invite.usedAt?.toISOString() ?? null,
    }),
    organization: t.id({ description: "The organization's id (its object needs membership)", resolve: (invite) => invite.organizationId }),
  }),
});

builder.objectField(Organization, 'invites', (t) =>
  t.connection({
    type: Invite,
    description: 'Link invites of the organization, oldest first (admins)',
    resolve: async (org, args, ctx) => toConnection(await listInviteRecords(ctx, org.id, connectionQuery(args))),
  }),
);

const invitePayload = {
  outputFields: (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, { inviteId: string }>) => ({
    invite: t.field({ type: Invite, resolve: (payload, _args, ctx) => inviteById(ctx, payload.inviteId) }),
  }),
};

builder.relayMutationField(
  'createInvite',
  {
    inputFields: (t) => ({
      organizationId: t.id({ required: true, description: 'The organization to invite to' }),
      role: t.field({ ...nullIsAValue, type: MemberRole, description: 'Role given on joining; null: guest' }),
    }),
  },
  {
    description: 'Creates a link invite (admins; while the organization has inviteLinks on)',
    resolve: async (_root, { input: { organizationId, role } }, ctx) => ({
      inviteId: (await createInvite(ctx, organizationId, { role: role ?? null })).id,
    }),
  },
  invitePayload,
);

builder.relayMutationField(
  'updateInvite',
  {
    inputFields: (t) => ({
      inviteId: t.id({ required: true, description: 'The invite' }),
      role: t.field({ ...nullIsAValue, type: MemberRole, description: 'Role given on joining; null: guest' }),
    }),
  },
  {
    description: "Changes an invite's role (admins)",
    resolve: async (_root, { input: { inviteId, role } }, ctx) => {
      const invite = await inviteById(ctx, inviteId);
      await updateInvite(ctx, invite.organizationId, inviteId, { role: role ?? null });
      return { inviteId };
    },
  },
  invitePayload,
);

builder.relayMutationField(
  'deleteInvite',
  { inputFields: (t) => ({ inviteId: t.id({ required: true, description: 'The invite' }) }) },
  {
    description: 'Deletes an invite (admins): no one can join with it any more',
    resolve: async (_root, { input: { inviteId } }, ctx) => {
      const invite = await inviteById(ctx, inviteId);
      await deleteInvite(ctx, invite.organizationId, inviteId);
      return { deletedInviteId: inviteId };
    },
  },
  { outputFields: (t) => ({ deletedInviteId: t.exposeID('deletedInviteId', { description: 'Id of the invite deleted' }) }) },
);

const InvitationInput = builder.inputType('InvitationInput', {
  description: 'An address to invite with a role of its own',
  fields: (t) => ({
    email: t.string({ required: true, description: 'The email address to invite (case-insensitive)' }),
    role: t.field({ ...nullIsAValue, type: MemberRole, description: 'Role given on joining; null: guest' }),
  }),
});

builder.relayMutationField(
  'inviteUsers',
  {
    inputFields: (t) => ({
      organizationId: t.id({ required: true, description: 'The organization to invite to' }),
      emails: t.stringList({ description: 'Addresses invited with `role`' }),
      invitations: t.field({ type: [InvitationInput], description: 'Addresses with a role of their own' }),
      role: t.field({ ...nullIsAValue, type: MemberRole, description: "Role of the `emails` (the organization's default role when absent; null: guest)" }),
    }),
  },
  {
    description: 'Invites users by email, 1 to 100 addresses (admins): one email invite per address, reusing an unused one; addresses of members are skipped',
    resolve: async (_root, { input: { organizationId, emails, invitations, role } }, ctx) => {
      const result = await inviteUsers(ctx, organizationId, {
        emails: [...(emails ?? []), ...(invitations ?? []).map(({ email, role }) => ({ email, role: role ?? null }))],
        ...(role !== undefined ? { role } : {}),
      });
      return { ...result, inviteIds: result.invites.map((invite) => invite.id) };
    },
  },
  {
    outputFields: (t) => ({
      invited: t.exposeInt('invited', { description: 'Addresses invited' }),
      invites: t.field({
        type: [Invite],
        description: 'The email invites, in the order of the addresses (members skipped)',
        resolve: (payload, _args, ctx) => payload.inviteIds.map((id) => inviteById(ctx, id)),
      }),
      alreadyMembers: t.exposeStringList('alreadyMembers', { description: 'Addresses skipped: their user is already a member' }),
    }),
  },
);

builder.relayMutationField(
  'joinOrganization',
  { inputFields: (t) => ({ inviteId: t.id({ required: true, description: 'The invite to join with' }) }) },
  {
    description:
      "The viewer joins the invite's organization (a member keeps the higher of its role and the invite's): a link invite while the organization has inviteLinks on, an email invite once, by the user with that address",
    resolve: async (_root, { input: { inviteId } }, ctx) => ({ organizationId: await joinWithInviteById(ctx, inviteId) }),
  },
  {
    outputFields: (t) => ({
      organization: t.field({ type: Organization, resolve: (payload, _args, ctx) => organizationRecord(ctx, payload.organizationId) }),
    }),
  },
);
