import { SignJWT } from 'jose';
import type { AuditFacts } from '../audit/record.ts';
import type { RequestContext } from '../../context.ts';
import type { MemberRecord, SpaceRecord } from '../../db/index.ts';
import { conflict, forbidden, notFound } from '../../errors.ts';
import { type Ordering, type Page, pageRequestOf } from '../../lib/pagination.ts';
import { searchable } from '../../lib/search.ts';
import { parseInput } from '../../lib/validation.ts';
import { type Role, asRole, authorize } from '../access.ts';
import { lockOrganization, visibleOrganization } from '../organizations/service.ts';
import { memberLevelOn, spaceNode } from '../shared/content-tree.ts';
import { grantedReach } from '../permissions/grants.ts';
import { defineLoader, loader } from '../loaders.ts';
import { type ChildListing, countsBy, emptyPage, listChildren, mapPage } from '../shared/pages.ts';
import { countOrganizationSpaces, presentSpaceRecord, spaceRecords } from '../spaces/service.ts';
import type { SpaceJSON } from '../spaces/presenter.ts';
import { inTransaction } from '../transaction.ts';
import { requireViewer } from '../users/service.ts';
import { type ListMembersQuery, ListMemberSpacesQuery, ListMembersQuery as ListMembersQuerySchema, UpdateMemberInput } from './inputs.ts';
import { type MemberJSON, type MemberWithUser, presentMember } from './presenter.ts';

type MemberFilter = Pick<ListMembersQuery, 'order' | 'role' | 'search' | 'sort'>;

function memberOrdering({ sort, order }: MemberFilter): Ordering<MemberWithUser> {
  const byUser = { field: 'userId', direction: order, type: 'string', value: (row: MemberWithUser) => row.userId } as const;
  switch (sort) {
    case 'name':
      return {
        name: `members:name:${order}`,
        keys: [{ field: 'user.displayName', direction: order, type: 'string', value: (row) => row.user.displayName }, byUser],
      };
    case 'lastSeenAt':
      return {
        name: `members:lastSeenAt:${order}`,
        keys: [{ field: 'lastSeenAt', direction: order, type: 'date', value: (row) => row.lastSeenAt! }, byUser],
      };
    default:
      return {
        name: `members:joinedAt:${order}`,
        keys: [{ field: 'joinedAt', direction: order, type: 'date', value: (row) => row.joinedAt }, byUser],
      };
  }
}

/** The filters of a listing of members, as a `where` of the membership rows (the permission aggregates share them). */
export function memberWhere(filter: Partial<MemberFilter>) {
  return {
    // Sorting by last activity lists only members who have been active.
    ...(filter.sort === 'lastSeenAt' ? { lastSeenAt: { not: null } } : {}),
    ...(filter.role ? { role: filter.role === 'guest' ? null : filter.role } : {}),
    ...(filter.search ? { user: { searchText: { contains: searchable(filter.search) } } } : {}),
  };
}

const membersOfOrganization: ChildListing<MemberWithUser, MemberFilter> = {
  name: 'organization-members',
  ordering: memberOrdering,
  parentOf: (row) => row.organizationId,
  findMany: (ctx, organizationIds, filter, args) =>
    ctx.db.member.findMany({
      ...args,
      where: { AND: [{ organizationId: { in: organizationIds } }, memberWhere(filter), args.where] },
      include: { user: true },
    }),
  count: async (ctx, organizationIds, filter) =>
    countsBy(
      await ctx.db.member.groupBy({
        by: ['organizationId'],
        where: { organizationId: { in: organizationIds }, ...memberWhere(filter) },
        _count: { _all: true },
      }),
      'organizationId',
    ),
};

/** The number of spaces a member can access: every space of the organization, for a non-guest. */
export async function memberSpaceCount(ctx: RequestContext, member: MemberRecord): Promise<number> {
  const nonGuest = asRole(member.role) !== null && !member.disabled;
  return nonGuest ? countOrganizationSpaces(ctx, member.organizationId) : 0;
}

/** No operation of this API gives a member access to a site of its own: 0 for everyone. */
export const MEMBER_SITES = 0;

const teamCounts = defineLoader<MemberRecord, number>(
  async (ctx, members) => {
    const rows = await ctx.db.teamMember.groupBy({
      by: ['organizationId', 'userId'],
      where: { OR: members.map(({ organizationId, userId }) => ({ organizationId, userId })) },
      _count: { _all: true },
    });
    const counts = new Map(rows.map((row) => [`${row.organizationId} ${row.userId}`, row._count._all]));
    return members.map((member) => counts.get(`${member.organizationId} ${member.userId}`) ?? 0);
  },
  (member) => `${member.organizationId} ${member.userId}`,
);

/** The number of teams a member is in. */
export function memberTeamCount(ctx: RequestContext, member: MemberRecord): Promise<number> {
  return loader(ctx, teamCounts).load(member);
}

export async function presentMemberOf(ctx: RequestContext, member: MemberWithUser): Promise<MemberJSON> {
  const [spaces, teams] = await Promise.all([memberSpaceCount(ctx, member), memberTeamCount(ctx, member)]);
  return presentMember(member, { spaces, teams, sites: MEMBER_SITES }, ctx.urls);
}

async function organizationForMembers(ctx: RequestContext, organizationId: string) {
  const { access } = await visibleOrganization(ctx, organizationId);
  authorize(access.role !== null, "list this organization's members");
  return access;
}

async function findMember(ctx: RequestContext, organizationId: string, userId: string): Promise<MemberWithUser> {
  const member = await ctx.db.member.findUnique({
    where: { organizationId_userId: { organizationId, userId } },
    include: { user: true },
  });
  if (!member) throw notFound('Member', userId);
  return member;
}

export async function listMemberRecords(ctx: RequestContext, organizationId: string, query: unknown): Promise<Page<MemberWithUser>> {
  await visibleOrganization(ctx, organizationId);
  const params = parseInput(ListMembersQuerySchema, query, 'query');
  await organizationForMembers(ctx, organizationId);
  const { order, role, search, sort } = params;
  return listChildren(ctx, membersOfOrganization, organizationId, { order, role, search, sort }, pageRequestOf(params));
}

export async function listMembers(ctx: RequestContext, organizationId: string, query: unknown): Promise<Page<MemberJSON>> {
  return mapPage(await listMemberRecords(ctx, organizationId, query), (member) => presentMemberOf(ctx, member));
}

/** A membership the viewer may read: its own, or any for a non-guest; anything else is a 404 or 403. */
export async function memberRecord(ctx: RequestContext, organizationId: string, userId: string): Promise<MemberWithUser> {
  const viewer = requireViewer(ctx);
  const { access } = await visibleOrganization(ctx, organizationId);
  // Anyone sees their own membership; other members are listed for non-guests only.
  if (userId !== viewer.id) authorize(access.role !== null, "read this organization's members");
  return findMember(ctx, organizationId, userId);
}

export async function getMember(ctx: RequestContext, organizationId: string, userId: string): Promise<MemberJSON> {
  return presentMemberOf(ctx, await memberRecord(ctx, organizationId, userId));
}

/**
 * The organization keeps at least one admin. Runs inside the write's transaction
 * after locking the organization before reading the member, so that concurrent demotions cannot both pass.
 */
async function assertAdminRemains(tx: RequestContext, organizationId: string, userId: string, action: string) {
  const viewer = requireViewer(tx);
  // The viewer may have lost its role to a change committed while we waited for the lock.
  const acting = await tx.db.member.findUnique({
    where: { organizationId_userId: { organizationId, userId: viewer.id } },
    select: { role: true, disabled: true },
  });
  if (viewer.id !== userId && (acting?.role !== 'admin' || acting.disabled)) {
    throw forbidden("You are not allowed to change this organization's members");
  }
  const others = await tx.db.member.count({
    where: { organizationId, role: 'admin', disabled: false, userId: { not: userId } },
  });
  if (others === 0) throw conflict(`Cannot ${action}: the organization must keep at least one admin`);
}

export async function updateMember(ctx: RequestContext, organizationId: string, userId: string, body: unknown) {
  const { access } = await visibleOrganization(ctx, organizationId);
  const input = parseInput(UpdateMemberInput, body);
  authorize(access.role === 'admin', "change members' roles");
  await findMember(ctx, organizationId, userId);
  const audit: AuditFacts = {
    action: 'member.update',
    organizationId,
    target: { type: 'user', id: userId },
    payload: { ...(input.role !== undefined ? { role: input.role } : {}) },
  };
  await inTransaction(ctx, audit, async (tx) => {
    await lockOrganization(tx, organizationId);
    const member = await findMember(tx, organizationId, userId);
    if (member.role === 'admin' && input.role !== 'admin') {
      await assertAdminRemains(tx, organizationId, userId, 'demote the last admin');
    }
    await tx.db.member.update({
      where: { organizationId_userId: { organizationId, userId } },
      data: { role: input.role },
    });
  });
  return getMember(ctx, organizationId, userId);
}

/** Removes a member: admins remove anyone, members remove themselves (leave). */
export async function removeMember(ctx: RequestContext, organizationId: string, userId: string): Promise<void> {
  const viewer = requireViewer(ctx);
  const { access } = await visibleOrganization(ctx, organizationId);
  authorize(access.role === 'admin' || userId === viewer.id, 'remove members from this organization');
  await findMember(ctx, organizationId, userId);
  await inTransaction(ctx, { action: 'member.remove', organizationId, target: { type: 'user', id: userId } }, async (tx) => {
    await lockOrganization(tx, organizationId);
    const member = await findMember(tx, organizationId, userId);
    if (member.role === 'admin') await assertAdminRemains(tx, organizationId, userId, 'remove the last admin');
    await tx.db.member.delete({ where: { organizationId_userId: { organizationId, userId } } });
  });
}

/**
 * Records the viewer's activity in the organization, and returns its visitor
 * claims: a JWT (one hour) that the organization's visitor-auth sites accept,
 * whose claims adaptive content conditions can read.
 */
export async function ping(ctx: RequestContext, organizationId: string): Promise<{ docsVisitorClaims?: string }> {
  const viewer = requireViewer(ctx);
  const { org, access } = await visibleOrganization(ctx, organizationId);
  await inTransaction(ctx, { action: 'member.ping', organizationId, target: { type: 'user', id: viewer.id } }, (tx) =>
    tx.db.member.update({
      where: { organizationId_userId: { organizationId, userId: viewer.id } },
      data: { lastSeenAt: ctx.clock.now() },
    }),
  );
  // The claims open the organization's visitor-auth sites as a member: guests see no content, so get none.
  if (access.role === null) return {};
  const now = Math.floor(ctx.clock.now().getTime() / 1000);
  const docsVisitorClaims = await new SignJWT({
    email: viewer.email,
    name: viewer.displayName,
    role: access.role,
    organization: organizationId,
  })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(viewer.id)
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(new TextEncoder().encode(org.visitorClaimsSecret));
  return { docsVisitorClaims };
}

/** Marks a member as signed in through the organization's SSO. */
export async function setSsoMember(ctx: RequestContext, organizationId: string, userId: string): Promise<MemberJSON> {
  const { access } = await visibleOrganization(ctx, organizationId);
  authorize(access.role === 'admin', 'manage SSO members');
  await findMember(ctx, organizationId, userId);
  await inTransaction(
    ctx,
    {
      action: 'member.sso_update',
      organizationId,
      target: { type: 'user', id: userId },
      payload: { sso: true },
    },
    (tx) => tx.db.member.update({ where: { organizationId_userId: { organizationId, userId } }, data: { sso: true } }),
  );
  return getMember(ctx, organizationId, userId);
}

/** Spaces a grant reaches (src/domain/permissions/grants.ts grantedReach); absent: every space. */
type Reach = { spaceIds: string[]; collectionIds: string[] } | null;
const reaching = (reach: Reach) => (reach ? [{ OR: [{ id: { in: reach.spaceIds } }, { parentId: { in: reach.collectionIds } }] }] : []);

/**
 * The spaces a member can access: a non-guest all of the organization's, a
 * guest those its grants reach; newest first by default.
 */
const spacesByCreation: ChildListing<SpaceRecord, { order: 'asc' | 'desc'; reach: Reach }> = {
  name: 'member-spaces',
  records: spaceRecords,
  ordering: ({ order }) => ({
    name: `member-spaces:${order}`,
    keys: [
      { field: 'createdAt', direction: order, type: 'date', value: (row) => row.createdAt },
      { field: 'id', direction: order, type: 'string', value: (row) => row.id },
    ],
  }),
  parentOf: (row) => row.organizationId,
  findMany: (ctx, ids, { reach }, args) =>
    ctx.db.space.findMany({ ...args, where: { AND: [{ organizationId: { in: ids }, deletedAt: null }, ...reaching(reach), args.where] } }),
  count: async (ctx, ids, { reach }) =>
    countsBy(
      await ctx.db.space.groupBy({
        by: ['organizationId'],
        where: { AND: [{ organizationId: { in: ids }, deletedAt: null }, ...reaching(reach)] },
        _count: { _all: true },
      }),
      'organizationId',
    ),
};

export interface MemberSpaceJSON {
  permission: Role;
  space: SpaceJSON;
}

/** Spaces a member can access, with the member's level; readable by the member and by admins. */
export async function listMemberSpaces(ctx: RequestContext, organizationId: string, userId: string, query: unknown): Promise<Page<MemberSpaceJSON>> {
  const viewer = requireViewer(ctx);
  const { access } = await visibleOrganization(ctx, organizationId);
  const params = parseInput(ListMemberSpacesQuery, query, 'query');
  authorize(access.role === 'admin' || userId === viewer.id, "list another member's spaces");
  const member = await findMember(ctx, organizationId, userId);
  if (member.disabled) return emptyPage();
  const reach = asRole(member.role) === null ? await grantedReach(ctx, member) : null;
  const page = await listChildren(ctx, spacesByCreation, organizationId, { order: params.order, reach }, pageRequestOf(params));
  return mapPage(page, async (space) => ({
    permission: (await memberLevelOn(ctx, member, spaceNode(space)))!,
    space: await presentSpaceRecord(ctx, space),
  }));
}
