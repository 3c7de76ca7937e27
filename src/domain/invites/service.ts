import type { RequestContext } from '../../context.ts';
import type { AuditFacts } from '../audit/record.ts';
import type { InviteRecord, OrganizationRecord } from '../../db/index.ts';
import { conflict, forbidden, invalid, notFound } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { type Ordering, type Page, pageRequestOf } from '../../lib/pagination.ts';
import { parseInput } from '../../lib/validation.ts';
import { type Role, asRole, authorize } from '../access.ts';
import { defineRecordLoader, loader } from '../loaders.ts';
import { organizationAccess, organizationRecords, visibleOrganization } from '../organizations/service.ts';
import { type ChildListing, countsBy, listChildren, mapPage } from '../shared/pages.ts';
import { inTransaction, serializeOn } from '../transaction.ts';
import { requireViewer } from '../users/service.ts';
import { CreateInviteInput, InviteUsersInput, ListInvitesQuery, UpdateInviteInput } from './inputs.ts';
import { type InviteJSON, higherRole, inviteRedundant, presentInvite } from './presenter.ts';

/**
 * Invites to join an organization. A link invite (no email) lets anyone who
 * holds its id join with its role, while the organization's `inviteLinks`
 * setting is on; an email invite lets the user with that email join, once.
 * Admins create, list, change and delete them. Joining never lowers a role:
 * a member keeps the higher of its role and the invite's.
 */

export const inviteRecords = defineRecordLoader((ctx, ids) => ctx.db.invite.findMany({ where: { id: { in: ids } } }));

async function organizationForInvites(ctx: RequestContext, organizationId: string, action: string) {
  const { org, access } = await visibleOrganization(ctx, organizationId);
  authorize(access.role === 'admin', action);
  return { org, access };
}

async function findInvite(ctx: RequestContext, organizationId: string, inviteId: string): Promise<InviteRecord> {
  const invite = await loader(ctx, inviteRecords).load(inviteId);
  if (!invite || invite.organizationId !== organizationId) throw notFound('Invite', inviteId);
  return invite;
}

/** Whether the caller already has the invite's role: computed from its membership. */
export async function inviteIsRedundant(ctx: RequestContext, invite: InviteRecord): Promise<boolean> {
  const access = await organizationAccess(ctx, invite.organizationId);
  return inviteRedundant(invite, access.member ? { role: access.role } : null);
}

async function present(ctx: RequestContext, invite: InviteRecord): Promise<InviteJSON> {
  return presentInvite(invite, await inviteIsRedundant(ctx, invite));
}

const linkInvitesDisabled = () => forbidden('Link invites are disabled in this organization (its inviteLinks setting)');

/**
 * An invite the caller may read: admins of its organization read every one;
 * anyone holding a link invite's id reads it while link invites are on (that
 * is what the link is for: seeing the role before joining); the invited user
 * reads its unused email invite. Otherwise a member gets 403, anyone else 404.
 */
async function readableInvite(ctx: RequestContext, organizationId: string, inviteId: string): Promise<InviteRecord> {
  const viewer = requireViewer(ctx);
  // First: a non-member's answer depends on this organization's data, and the response cache must know it.
  const access = await organizationAccess(ctx, organizationId);
  const [org, invite] = await Promise.all([loader(ctx, organizationRecords).load(organizationId), loader(ctx, inviteRecords).load(inviteId)]);
  if (!org || !invite || invite.organizationId !== organizationId) throw notFound('Invite', inviteId);
  const allowed =
    access.role === 'admin' ||
    (invite.email === null && org.inviteLinks) ||
    (invite.email !== null && invite.usedAt === null && invite.email.toLowerCase() === viewer.email.toLowerCase());
  if (allowed) return invite;
  if (access.member) throw forbidden('You are not allowed to read this invite');
  throw notFound('Invite', inviteId);
}

const byCreation: Ordering<InviteRecord> = {
  name: 'invites:createdAt',
  keys: [
    { field: 'createdAt', direction: 'asc', type: 'date', value: (row) => row.createdAt },
    { field: 'id', direction: 'asc', type: 'string', value: (row) => row.id },
  ],
};

/** Link invites of an organization (email null), oldest first. */
const linkInvitesOfOrganization: ChildListing<InviteRecord, null> = {
  name: 'organization-link-invites',
  records: inviteRecords,
  ordering: () => byCreation,
  parentOf: (row) => row.organizationId,
  findMany: (ctx, organizationIds, _filter, args) =>
    ctx.db.invite.findMany({ ...args, where: { AND: [{ organizationId: { in: organizationIds }, email: null }, args.where] } }),
  count: async (ctx, organizationIds) =>
    countsBy(
      await ctx.db.invite.groupBy({ by: ['organizationId'], where: { organizationId: { in: organizationIds }, email: null }, _count: { _all: true } }),
      'organizationId',
    ),
};

export async function listInviteRecords(ctx: RequestContext, organizationId: string, query: unknown): Promise<Page<InviteRecord>> {
  const params = parseInput(ListInvitesQuery, query, 'query');
  await organizationForInvites(ctx, organizationId, "list this organization's invites");
  return listChildren(ctx, linkInvitesOfOrganization, organizationId, null, pageRequestOf(params));
}

export async function listInvites(ctx: RequestContext, organizationId: string, query: unknown): Promise<Page<InviteJSON>> {
  return mapPage(await listInviteRecords(ctx, organizationId, query), (invite) => present(ctx, invite));
}

export function inviteRecord(ctx: RequestContext, organizationId: string, inviteId: string): Promise<InviteRecord> {
  return readableInvite(ctx, organizationId, inviteId);
}

export async function getInvite(ctx: RequestContext, organizationId: string, inviteId: string): Promise<InviteJSON> {
  return present(ctx, await readableInvite(ctx, organizationId, inviteId));
}

/** An invite by id alone (GraphQL nodes and mutations), read as `getInvite` reads it. */
export async function inviteById(ctx: RequestContext, inviteId: string): Promise<InviteRecord> {
  requireViewer(ctx);
  const invite = await loader(ctx, inviteRecords).load(inviteId);
  if (!invite) throw notFound('Invite', inviteId);
  return readableInvite(ctx, invite.organizationId, inviteId);
}

/** Reads a row just written, past the request's loaders. */
const reread = (ctx: RequestContext, id: string) => ctx.db.invite.findUniqueOrThrow({ where: { id } });

export async function createInvite(ctx: RequestContext, organizationId: string, body: unknown): Promise<InviteJSON> {
  const { org } = await organizationForInvites(ctx, organizationId, 'invite to this organization');
  const input = parseInput(CreateInviteInput, body);
  if (!org.inviteLinks) throw linkInvitesDisabled();
  const id = newId('invite');
  await inTransaction(
    ctx,
    {
      action: 'invite.create',
      organizationId,
      target: { type: 'invite', id },
      payload: { role: input.role },
    },
    (tx) => tx.db.invite.create({ data: { id, organizationId, email: null, role: input.role, createdById: requireViewer(ctx).id } }),
  );
  return present(ctx, await reread(ctx, id));
}

export async function updateInvite(ctx: RequestContext, organizationId: string, inviteId: string, body: unknown): Promise<InviteJSON> {
  await organizationForInvites(ctx, organizationId, "change this organization's invites");
  const input = parseInput(UpdateInviteInput, body);
  await findInvite(ctx, organizationId, inviteId);
  await inTransaction(
    ctx,
    {
      action: 'invite.update',
      organizationId,
      target: { type: 'invite', id: inviteId },
      payload: { role: input.role },
    },
    (tx) => tx.db.invite.updateMany({ where: { id: inviteId }, data: { role: input.role } }),
  );
  return present(ctx, await reread(ctx, inviteId));
}

export async function deleteInvite(ctx: RequestContext, organizationId: string, inviteId: string): Promise<void> {
  await organizationForInvites(ctx, organizationId, "delete this organization's invites");
  await findInvite(ctx, organizationId, inviteId);
  await inTransaction(
    ctx,
    {
      action: 'invite.delete',
      organizationId,
      target: { type: 'invite', id: inviteId },
    },
    (tx) => tx.db.invite.deleteMany({ where: { id: inviteId } }),
  );
}

export interface InviteUsersResult {
  /** Users added to the organization by this call: none, as invited users join with their invite. */
  users: string[];
  /** Number of addresses invited (a new invite, or their unused one with its role updated). */
  invited: number;
  /** The email invites, in the order of the addresses. */
  invites: InviteJSON[];
  /** Addresses skipped because their user is already a member. */
  alreadyMembers: string[];
}

/**
 * One email invite per address, reusing the address's unused invite (its role
 * becomes the one asked for); addresses of members are skipped. Each invite's
 * id is what its user joins with.
 */
export async function inviteUsers(ctx: RequestContext, organizationId: string, body: unknown): Promise<InviteUsersResult> {
  const { org } = await organizationForInvites(ctx, organizationId, 'invite to this organization');
  const input = parseInput(InviteUsersInput, body);
  if (input.sso) throw invalid('sso: inviting users as SSO members is not supported; invite them, then set them as SSO members');
  const defaultRole = input.role !== undefined ? input.role : asRole(org.defaultRole);
  const wanted = new Map<string, Role | null>();
  for (const entry of input.emails) {
    if (typeof entry === 'string') wanted.set(entry, defaultRole);
    else wanted.set(entry.email, entry.role);
  }
  const emails = [...wanted.keys()];
  const viewer = requireViewer(ctx);
  const audit: AuditFacts = { action: 'invite.send', organizationId, target: { type: 'organization', id: organizationId }, payload: { emails } };
  const ids = await inTransaction(ctx, audit, async (tx) => {
    // Invitations of one organization queue here, so that an address gets one unused invite.
    await serializeOn(tx.db, tx.provider, `invites:${organizationId}`);
    const members = await tx.db.member.findMany({
      where: { organizationId, user: { email: { in: emails } } },
      select: { user: { select: { email: true } } },
    });
    const memberEmails = new Set(members.map((member) => member.user.email.toLowerCase()));
    const existing = await tx.db.invite.findMany({
      where: { organizationId, email: { in: emails }, usedAt: null },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    const unused = new Map<string, InviteRecord>();
    for (const invite of existing) if (!unused.has(invite.email!)) unused.set(invite.email!, invite);
    const result: Array<{ email: string; id: string | null }> = [];
    for (const [email, role] of wanted) {
      if (memberEmails.has(email)) {
        result.push({ email, id: null });
        continue;
      }
      const reused = unused.get(email);
      if (reused) {
        if (reused.role !== role) await tx.db.invite.update({ where: { id: reused.id }, data: { role } });
        result.push({ email, id: reused.id });
      } else {
        const id = newId('invite');
        await tx.db.invite.create({ data: { id, organizationId, email, role, createdById: viewer.id } });
        result.push({ email, id });
      }
    }
    return result;
  });
  const invited = ids.filter((entry) => entry.id !== null);
  const rows = await ctx.db.invite.findMany({ where: { id: { in: invited.map((entry) => entry.id!) } } });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return {
    users: [],
    invited: invited.length,
    invites: await Promise.all(invited.map((entry) => present(ctx, byId.get(entry.id!)!))),
    alreadyMembers: ids.filter((entry) => entry.id === null).map((entry) => entry.email),
  };
}

/**
 * The caller joins the organization with an invite: a new member gets the
 * invite's role; a member keeps the higher of its role and the invite's
 * (joining never lowers a role). An email invite is for the user with that
 * email only, and is used once; a link invite works while the organization's
 * `inviteLinks` is on. A disabled member cannot rejoin this way.
 */
export async function joinWithInvite(ctx: RequestContext, organizationId: string, inviteId: string): Promise<Record<string, never>> {
  const viewer = requireViewer(ctx);
  await inTransaction(ctx, { action: 'invite.join', organizationId, target: { type: 'invite', id: inviteId } }, async (tx) => {
    await serializeOn(tx.db, tx.provider, `invites:${organizationId}`);
    const invite = await tx.db.invite.findUnique({ where: { id: inviteId }, include: { organization: true } });
    if (!invite || invite.organizationId !== organizationId) throw notFound('Invite', inviteId);
    checkJoinable(invite, invite.organization, viewer.email);
    const member = await tx.db.member.findUnique({ where: { organizationId_userId: { organizationId, userId: viewer.id } } });
    const inviteRole = asRole(invite.role);
    if (!member) {
      await tx.db.member.create({ data: { organizationId, userId: viewer.id, role: inviteRole } });
    } else {
      if (member.disabled) throw forbidden('Your membership of this organization is disabled');
      const role = higherRole(asRole(member.role), inviteRole);
      if (role !== asRole(member.role)) await tx.db.member.update({ where: { organizationId_userId: { organizationId, userId: viewer.id } }, data: { role } });
    }
    if (invite.email !== null) await tx.db.invite.update({ where: { id: invite.id }, data: { usedAt: ctx.clock.now() } });
  });
  return {};
}

/** Joins with an invite named by id alone (GraphQL): the id of the organization joined. */
export async function joinWithInviteById(ctx: RequestContext, inviteId: string): Promise<string> {
  requireViewer(ctx);
  const invite = await loader(ctx, inviteRecords).load(inviteId);
  if (!invite) throw notFound('Invite', inviteId);
  await joinWithInvite(ctx, invite.organizationId, inviteId);
  return invite.organizationId;
}

function checkJoinable(invite: InviteRecord, org: OrganizationRecord, viewerEmail: string) {
  if (invite.email === null) {
    if (!org.inviteLinks) throw linkInvitesDisabled();
    return;
  }
  if (invite.email.toLowerCase() !== viewerEmail.toLowerCase()) throw forbidden('This invite is for another email address');
  if (invite.usedAt !== null) throw conflict('This invite was already used');
}
