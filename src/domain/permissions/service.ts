import { createHash } from 'node:crypto';
import type { RequestContext } from '../../context.ts';
import type { ContentGrantRecord, MemberRecord, TeamRecord, UserRecord } from '../../db/index.ts';
import { conflict, invalid, notFound } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { type Page, memoryPage, pageRequestOf } from '../../lib/pagination.ts';
import { parseInput } from '../../lib/validation.ts';
import { type Role, asRole, atLeast, authorize, effectiveLevel, highestLevel, organizationSiteLevel, readsContent } from '../access.ts';
import type { AuditAction } from '../audit/actions.ts';
import type { AuditFacts } from '../audit/record.ts';
import { visibleCollection } from '../collections/service.ts';
import { memberWhere } from '../members/service.ts';
import { organizationAccess } from '../organizations/service.ts';
import { mapPage } from '../shared/pages.ts';
import { ancestry } from '../shared/content-tree.ts';
import { visibleSpace } from '../spaces/service.ts';
import { visibleSite } from '../sites/records.ts';
import { presentTeamRecord } from '../teams/service.ts';
import type { TeamJSON } from '../teams/presenter.ts';
import { inTransaction, serializeOn } from '../transaction.ts';
import { type UserJSON, presentUser } from '../users/presenter.ts';
import { markReachedByGrants } from './grants.ts';
import {
  InviteUsersAndTeamsInput,
  ListContentPermissionsQuery,
  ListPermissionsAggregateQuery,
  ListSitePermissionsAggregateQuery,
  UpdateContentPermissionInput,
} from './inputs.ts';

/**
 * The official permission operations of spaces and collections: who is given
 * which role on one piece of content, beside the organization role and the
 * default levels (src/domain/access.ts effectiveLevel). Admins of the content
 * give and take roles; whoever sees the content sees who was given one.
 */

export type GrantKind = 'space' | 'collection' | 'site';

/** A piece of content named in a request: a site is named under its organization. */
export interface ContentRef {
  kind: GrantKind;
  id: string;
  organizationId?: string;
}

/** The column of content_grants that holds each kind of content. */
const COLUMN = { space: 'spaceId', collection: 'collectionId', site: 'siteId' } as const;

interface Content {
  kind: GrantKind;
  id: string;
  organizationId: string;
  title: string;
  defaultLevel: string | null;
  parentId: string | null;
  deleted: boolean;
}

/** A space, collection or site the viewer sees (a 404 otherwise), with the viewer's level. */
async function visibleContent(ctx: RequestContext, { kind, id, organizationId }: ContentRef): Promise<{ content: Content; level: Role }> {
  if (kind === 'site') {
    const { site, level } = await visibleSite(ctx, organizationId!, id);
    // A site is open to members by their role alone, or by a grant: anything else is a 404 above.
    const content = { kind, id, organizationId: site.organizationId, title: site.title, defaultLevel: null, parentId: null, deleted: false };
    return { content, level: level! };
  }
  if (kind === 'space') {
    const { space, level } = await visibleSpace(ctx, id);
    return {
      content: {
        kind,
        id,
        organizationId: space.organizationId,
        title: space.title,
        defaultLevel: space.defaultLevel,
        parentId: space.parentId,
        deleted: space.deletedAt !== null,
      },
      level,
    };
  }
  const { collection, level } = await visibleCollection(ctx, id);
  return {
    content: {
      kind,
      id,
      organizationId: collection.organizationId,
      title: collection.title,
      defaultLevel: collection.defaultLevel,
      parentId: collection.parentId,
      deleted: false,
    },
    level,
  };
}

/** A space or collection whose roles the viewer may give: an admin of it, and not deleted. */
async function administeredContent(ctx: RequestContext, ref: ContentRef): Promise<Content> {
  const { content, level } = await visibleContent(ctx, ref);
  authorize(atLeast(level, 'admin'), `manage who may access this ${ref.kind}`);
  if (content.deleted) throw conflict(`${ref.kind} "${ref.id}" is deleted: restore it first`);
  return content;
}

const targetOf = (content: Content) => ({ type: content.kind, id: content.id, label: content.title });

function audit(content: Content, verb: 'grant' | 'update_grant' | 'remove_grant'): AuditFacts {
  return { action: `${content.kind}.${verb}` as AuditAction, organizationId: content.organizationId, target: targetOf(content) };
}

/** The members of the organization among `userIds` (active or not), or a 400 naming the first that is not one. */
async function membersNamed(ctx: RequestContext, organizationId: string, userIds: string[], field: string): Promise<void> {
  const found = new Set(
    (await ctx.db.member.findMany({ where: { organizationId, userId: { in: userIds } }, select: { userId: true } })).map((member) => member.userId),
  );
  const missing = userIds.findIndex((userId) => !found.has(userId));
  if (missing >= 0) throw invalid(`${field}.${missing}: no member ${userIds[missing]} in this organization`);
}

async function teamsNamed(ctx: RequestContext, organizationId: string, teamIds: string[], field: string): Promise<void> {
  const found = new Set((await ctx.db.team.findMany({ where: { organizationId, id: { in: teamIds } }, select: { id: true } })).map((team) => team.id));
  const missing = teamIds.findIndex((teamId) => !found.has(teamId));
  if (missing >= 0) throw invalid(`${field}.${missing}: no team ${teamIds[missing]} in this organization`);
}

export type Grantee = { userId: string } | { teamId: string };

/** Sets (or, with a null role, takes away) the role of one user or team on the content, inside the caller's transaction. */
async function setGrant(tx: RequestContext, content: Content, grantee: Grantee, role: Role | null): Promise<boolean> {
  // Writes of the grants of one piece of content queue: two invites of one user would both find none and both insert.
  await serializeOn(tx.db, tx.provider, `grants:${content.id}`);
  const where = { [COLUMN[content.kind]]: content.id, ...grantee };
  if (role === null) return (await tx.db.contentGrant.deleteMany({ where })).count > 0;
  const existing = await tx.db.contentGrant.findFirst({ where, select: { id: true, role: true } });
  if (existing) {
    if (existing.role !== role) await tx.db.contentGrant.update({ where: { id: existing.id }, data: { role } });
    return true;
  }
  await tx.db.contentGrant.create({ data: { id: newId('grant'), organizationId: content.organizationId, ...where, role } });
  const reached =
    'userId' in grantee
      ? [grantee.userId]
      : (await tx.db.teamMember.findMany({ where: { teamId: grantee.teamId }, select: { userId: true } })).map((row) => row.userId);
  await markReachedByGrants(tx, content.organizationId, reached);
  return true;
}

/** inviteToSpace, inviteToCollection: gives users and teams of the organization a role on the content (null: takes theirs away). */
export async function inviteToContent(ctx: RequestContext, ref: ContentRef, body: unknown): Promise<void> {
  const content = await administeredContent(ctx, ref);
  const input = parseInput(InviteUsersAndTeamsInput, body);
  const users = [...new Set(input.users ?? [])];
  const teams = [...new Set(input.teams ?? [])];
  await inTransaction(ctx, audit(content, input.role === null ? 'remove_grant' : 'grant'), async (tx) => {
    await membersNamed(tx, content.organizationId, input.users ?? [], 'users');
    await teamsNamed(tx, content.organizationId, input.teams ?? [], 'teams');
    for (const userId of users) await setGrant(tx, content, { userId }, input.role);
    for (const teamId of teams) await setGrant(tx, content, { teamId }, input.role);
  });
}

/** updateUserPermissionIn*: sets a member's role on the content (null takes it away). */
export async function updateUserPermission(ctx: RequestContext, ref: ContentRef, userId: string, body: unknown): Promise<void> {
  const content = await administeredContent(ctx, ref);
  const input = parseInput(UpdateContentPermissionInput, body);
  const member = await ctx.db.member.findUnique({ where: { organizationId_userId: { organizationId: content.organizationId, userId } } });
  if (!member) throw notFound('Member', userId);
  const role = input.role;
  if (role === undefined) return;
  await inTransaction(ctx, audit(content, role === null ? 'remove_grant' : 'update_grant'), (tx) => setGrant(tx, content, { userId }, role));
}

/** updateTeamPermissionIn*: sets a team's role on the content (null takes it away). */
export async function updateTeamPermission(ctx: RequestContext, ref: ContentRef, teamId: string, body: unknown): Promise<void> {
  const content = await administeredContent(ctx, ref);
  const input = parseInput(UpdateContentPermissionInput, body);
  const team = await ctx.db.team.findFirst({ where: { id: teamId, organizationId: content.organizationId } });
  if (!team) throw notFound('Team', teamId);
  const role = input.role;
  if (role === undefined) return;
  await inTransaction(ctx, audit(content, role === null ? 'remove_grant' : 'update_grant'), (tx) => setGrant(tx, content, { teamId }, role));
}

/** removeUserFrom*, removeTeamFrom*: takes a role away; false when there was none (then nothing is written). */
export async function removeGrant(ctx: RequestContext, ref: ContentRef, grantee: Grantee): Promise<boolean> {
  const content = await administeredContent(ctx, ref);
  const where = { [COLUMN[ref.kind]]: ref.id, ...grantee };
  if (!(await ctx.db.contentGrant.findFirst({ where, select: { id: true } }))) return false;
  return inTransaction(ctx, audit(content, 'remove_grant'), (tx) => setGrant(tx, content, grantee, null));
}

export interface UserPermissionJSON {
  permission: Role;
  user: UserJSON;
}

export interface TeamPermissionJSON {
  permission: Role;
  team: TeamJSON;
}

/** Grants of the content, oldest first. */
function grantsOf<Include extends object>(ctx: RequestContext, content: Content, which: 'userId' | 'teamId', include: Include) {
  return ctx.db.contentGrant.findMany({
    where: { [COLUMN[content.kind]]: content.id, [which]: { not: null } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    include,
  });
}

/** listUserPermissionsIn*: the users given a role on the content itself. */
export async function listUserPermissions(ctx: RequestContext, ref: ContentRef, query: unknown): Promise<Page<UserPermissionJSON>> {
  const { content } = await visibleContent(ctx, ref);
  const params = parseInput(ListContentPermissionsQuery, query, 'query');
  const grants = (await grantsOf(ctx, content, 'userId', { member: { include: { user: true } } })) as Array<
    ContentGrantRecord & { member: (MemberRecord & { user: UserRecord }) | null }
  >;
  const items = grants.map((grant) => ({ permission: grant.role as Role, user: presentUser(grant.member!.user, ctx.urls) }));
  return memoryPage(items, pageRequestOf(params), `${ref.kind}-user-permissions:${ref.id}`);
}

/** The teams given a role on the content itself, as rows (GraphQL's Team is backed by the row). */
export async function listTeamPermissionRecords(ctx: RequestContext, ref: ContentRef, query: unknown): Promise<Page<{ permission: Role; team: TeamRecord }>> {
  const { content } = await visibleContent(ctx, ref);
  const params = parseInput(ListContentPermissionsQuery, query, 'query');
  const grants = (await grantsOf(ctx, content, 'teamId', { team: true })) as Array<ContentGrantRecord & { team: TeamRecord | null }>;
  const items = grants.map((grant) => ({ permission: grant.role as Role, team: grant.team! }));
  return memoryPage(items, pageRequestOf(params), `${ref.kind}-team-permissions:${ref.id}`);
}

/** listTeamPermissionsIn*: the teams given a role on the content itself. */
export async function listTeamPermissions(ctx: RequestContext, ref: ContentRef, query: unknown): Promise<Page<TeamPermissionJSON>> {
  const page = await listTeamPermissionRecords(ctx, ref, query);
  const organizationId = page.items[0]?.team.organizationId;
  const access = organizationId ? await organizationAccess(ctx, organizationId) : null;
  return mapPage(page, async (entry) => ({ permission: entry.permission, team: await presentTeamRecord(ctx, entry.team, access!) }));
}

/**
 * listPermissionsAggregateIn*: every active member who reaches the content,
 * with its level by the one rule (organization role and default levels,
 * grants on the content and the collections above, to it or its teams), in
 * the order they joined; `role` keeps one level.
 */
export async function listPermissionsAggregate(ctx: RequestContext, ref: ContentRef, query: unknown): Promise<Page<UserPermissionJSON>> {
  const { content } = await visibleContent(ctx, ref);
  const params = parseInput(ListPermissionsAggregateQuery, query, 'query');
  const above = await ancestry(ctx, content.parentId);
  const defaultLevels: Array<string | null> = [content.defaultLevel, ...above.map((collection) => collection.defaultLevel)];
  const aboveIds = above.map((collection) => collection.id);
  const [members, grants] = await Promise.all([
    ctx.db.member.findMany({
      where: { organizationId: content.organizationId, disabled: false },
      include: { user: true },
      orderBy: [{ joinedAt: 'asc' }, { userId: 'asc' }],
    }),
    ctx.db.contentGrant.findMany({
      where: { OR: [{ [COLUMN[ref.kind]]: ref.id }, { collectionId: { in: aboveIds } }] },
      include: { team: { include: { members: { select: { userId: true } } } } },
    }),
  ]);
  const grantedTo = new Map<string, string[]>();
  for (const grant of grants) {
    const userIds = grant.userId ? [grant.userId] : (grant.team?.members.map((member) => member.userId) ?? []);
    for (const userId of userIds) grantedTo.set(userId, [...(grantedTo.get(userId) ?? []), grant.role]);
  }
  const items: UserPermissionJSON[] = [];
  for (const member of members) {
    // The default levels stop at the first explicit one (contentLevel reads the first set).
    const level = effectiveLevel(member, readsContent(member) ? defaultLevels : [], grantedTo.get(member.userId) ?? []);
    if (level && (params.role === undefined || level === params.role)) items.push({ permission: level, user: presentUser(member.user, ctx.urls) });
  }
  return memoryPage(items, pageRequestOf(params), `${ref.kind}-permissions-aggregate:${ref.id}:${params.role ?? ''}`);
}

export interface UserSitePermissionJSON extends UserPermissionJSON {
  origin: { type: 'organization'; organization: string } | { type: 'site'; site: string; reason: 'member' | 'team'; team?: string };
  disabled: boolean;
  lastSeenAt?: string;
}

/** Members' order in the site aggregate: the official `sort` and `order`, the user id breaking ties. */
function siteAggregateOrder({ sort, order }: ListSitePermissionsAggregateQuery) {
  const first = sort === 'name' ? { user: { displayName: order } } : sort === 'lastSeenAt' ? { lastSeenAt: order } : { joinedAt: order };
  return [first, { userId: order }];
}

/** The members of the `team` filter, or a 400 when the organization has no such team. */
async function teamFilter(ctx: RequestContext, organizationId: string, teamId: string | undefined) {
  if (teamId === undefined) return {};
  const team = await ctx.db.team.findFirst({ where: { id: teamId, organizationId }, select: { id: true } });
  if (!team) throw invalid(`team: no team ${teamId} in this organization`);
  return { teams: { some: { teamId } } };
}

/**
 * listPermissionsAggregateInSite: every active member who reaches the site, at
 * its organization role (none for guests) raised by the roles granted on the
 * site to it or its teams, with where that level comes from. The official
 * filters: `role` keeps one level (`guest`: the members without an
 * organization role), `search` matches names and emails, `team` keeps one
 * team's members, `sort` and `order` order them (newest joined first by default).
 */
export async function listSitePermissionsAggregate(ctx: RequestContext, ref: ContentRef, query: unknown): Promise<Page<UserSitePermissionJSON>> {
  const { content } = await visibleContent(ctx, ref);
  const params = parseInput(ListSitePermissionsAggregateQuery, query, 'query');
  const inTeam = await teamFilter(ctx, content.organizationId, params.team);
  const [members, grants] = await Promise.all([
    ctx.db.member.findMany({
      where: {
        organizationId: content.organizationId,
        disabled: false,
        ...memberWhere({ sort: params.sort, ...(params.search ? { search: params.search } : {}), ...(params.role === 'guest' ? { role: 'guest' } : {}) }),
        ...inTeam,
      },
      include: { user: true },
      orderBy: siteAggregateOrder(params),
    }),
    ctx.db.contentGrant.findMany({ where: { siteId: content.id }, include: { team: { include: { members: { select: { userId: true } } } } } }),
  ]);
  const items: UserSitePermissionJSON[] = [];
  for (const member of members) {
    const base = organizationSiteLevel({ member, role: asRole(member.role) });
    let level = base;
    let origin: UserSitePermissionJSON['origin'] = { type: 'organization', organization: content.organizationId };
    for (const grant of grants) {
      const reaches = grant.userId === member.userId || (grant.team?.members.some((teamMember) => teamMember.userId === member.userId) ?? false);
      const role = asRole(grant.role);
      if (!reaches || !role || (level !== null && highestLevel([level, role]) === level)) continue;
      level = role;
      origin = { type: 'site', site: content.id, reason: grant.userId ? 'member' : 'team', ...(grant.teamId ? { team: grant.teamId } : {}) };
    }
    if (!level || (params.role !== undefined && params.role !== 'guest' && level !== params.role)) continue;
    items.push({
      permission: level,
      user: presentUser(member.user, ctx.urls),
      origin,
      disabled: member.disabled,
      ...(member.lastSeenAt ? { lastSeenAt: member.lastSeenAt.toISOString() } : {}),
    });
  }
  // The token names the filters it was issued for by a digest: a long search stays out of it.
  const { role, search, sort, order, team } = params;
  const filters = createHash('sha256')
    .update(JSON.stringify([role, search, sort, order, team]))
    .digest('base64url')
    .slice(0, 16);
  return memoryPage(items, pageRequestOf(params), `site-permissions-aggregate:${content.id}:${filters}`);
}
