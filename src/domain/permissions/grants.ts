import type { RequestContext } from '../../context.ts';
import type { MemberRecord } from '../../db/index.ts';
import { Prisma } from '../../db/index.ts';
import { type Role, asRole, highestLevel } from '../access.ts';
import { defineLoader, loader } from '../loaders.ts';

/**
 * Grants: a role given on one space, collection or site to a member (guests
 * included) or to a team of its organization. They add to what the
 * organization role and the default levels give (src/domain/access.ts
 * effectiveLevel); a grant on a collection reaches everything below it.
 */

/** The roles granted to one member in one organization, its own and its teams', by content id. */
export interface MemberGrants {
  spaces: ReadonlyMap<string, Role>;
  collections: ReadonlyMap<string, Role>;
  sites: ReadonlyMap<string, Role>;
}

export const NO_GRANTS: MemberGrants = { spaces: new Map(), collections: new Map(), sites: new Map() };

interface GrantKey {
  organizationId: string;
  userId: string;
}

interface GrantRow {
  organizationId: string;
  memberId: string;
  spaceId: string | null;
  collectionId: string | null;
  siteId: string | null;
  role: string;
}

/** Keeps the highest role per content id. */
function raise(map: Map<string, Role>, id: string | null, role: string) {
  const level = asRole(role);
  if (id === null || level === null) return;
  map.set(id, highestLevel([map.get(id), level])!);
}

/** The grants of members (organization and user), in one statement: theirs and those of the teams they are in. */
const memberGrantsLoader = defineLoader<GrantKey, MemberGrants>(
  async (ctx, keys) => {
    const organizations = [...new Set(keys.map((key) => key.organizationId))];
    const users = [...new Set(keys.map((key) => key.userId))];
    const rows = await ctx.db.$queryRaw<GrantRow[]>(Prisma.sql`
      SELECT g."organizationId", g."userId" AS "memberId", g."spaceId", g."collectionId", g."siteId", g."role"
      FROM "content_grants" AS g
      WHERE g."organizationId" IN (${Prisma.join(organizations)}) AND g."userId" IN (${Prisma.join(users)})
      UNION ALL
      SELECT g."organizationId", tm."userId" AS "memberId", g."spaceId", g."collectionId", g."siteId", g."role"
      FROM "content_grants" AS g JOIN "team_members" AS tm ON tm."teamId" = g."teamId"
      WHERE g."organizationId" IN (${Prisma.join(organizations)}) AND tm."userId" IN (${Prisma.join(users)})`);
    const found = new Map<string, { spaces: Map<string, Role>; collections: Map<string, Role>; sites: Map<string, Role> }>();
    for (const row of rows) {
      const id = `${row.organizationId}\u0000${row.memberId}`;
      let grants = found.get(id);
      if (!grants) found.set(id, (grants = { spaces: new Map(), collections: new Map(), sites: new Map() }));
      raise(grants.spaces, row.spaceId, row.role);
      raise(grants.collections, row.collectionId, row.role);
      raise(grants.sites, row.siteId, row.role);
    }
    return keys.map((key) => found.get(`${key.organizationId}\u0000${key.userId}`) ?? NO_GRANTS);
  },
  (key) => `${key.organizationId}\u0000${key.userId}`,
);

/**
 * What is granted to a member of an organization, directly and through its
 * teams (read once per request; not at all for a member no grant reaches).
 */
export function memberGrants(ctx: RequestContext, member: MemberRecord): Promise<MemberGrants> {
  if (!member.reachedByGrants) return Promise.resolve(NO_GRANTS);
  return loader(ctx, memberGrantsLoader).load({ organizationId: member.organizationId, userId: member.userId });
}

/** Marks members a grant may reach (members.reachedByGrants), inside the write's transaction. */
export async function markReachedByGrants(tx: RequestContext, organizationId: string, userIds: string[]): Promise<void> {
  if (userIds.length === 0) return;
  await tx.db.member.updateMany({ where: { organizationId, userId: { in: userIds }, reachedByGrants: false }, data: { reachedByGrants: true } });
}

/** Members who join a team: the team's grants now reach them. */
export async function joinTeamGrants(tx: RequestContext, organizationId: string, teamId: string, userIds: string[]): Promise<void> {
  if (userIds.length && (await tx.db.contentGrant.findFirst({ where: { teamId }, select: { id: true } })))
    await markReachedByGrants(tx, organizationId, userIds);
}

/** The roles of `grants` that reach a piece of content: on itself, and on each collection above it. */
export function grantedOn(grants: MemberGrants, content: { kind: 'space' | 'collection'; id: string }, collectionsAbove: readonly string[]): Role[] {
  const own = content.kind === 'space' ? grants.spaces.get(content.id) : grants.collections.get(content.id);
  return [own, ...collectionsAbove.map((id) => grants.collections.get(id))].filter((role): role is Role => role !== undefined);
}

/**
 * What a member's grants reach in its organization, as ids: the granted spaces
 * and collections, and every collection below a granted one (whose spaces
 * they reach too). What a guest lists.
 */
export async function grantedReach(ctx: RequestContext, member: MemberRecord): Promise<{ spaceIds: string[]; collectionIds: string[] }> {
  const { organizationId } = member;
  const grants = await memberGrants(ctx, member);
  const granted = [...grants.collections.keys()];
  const reached = granted.length
    ? collectionsBelow(await ctx.db.collection.findMany({ where: { organizationId }, select: { id: true, parentId: true } }), granted)
    : new Set<string>();
  return { spaceIds: [...grants.spaces.keys()], collectionIds: [...reached] };
}

/** The ids of the collections below `granted` (themselves included), in the organization's tree. */
function collectionsBelow(tree: ReadonlyArray<{ id: string; parentId: string | null }>, granted: Iterable<string>): Set<string> {
  const reached = new Set(granted);
  let grew = reached.size > 0;
  while (grew) {
    grew = false;
    for (const collection of tree) {
      if (collection.parentId && reached.has(collection.parentId) && !reached.has(collection.id)) {
        reached.add(collection.id);
        grew = true;
      }
    }
  }
  return reached;
}

/**
 * The spaces (not deleted) each team's grants reach: granted to it, or below a
 * collection granted to it. One statement for teams without grants.
 */
const teamSpaceCounts = defineLoader<string, number>(async (ctx, teamIds) => {
  const grants = await ctx.db.contentGrant.findMany({
    where: { teamId: { in: [...teamIds] } },
    select: { teamId: true, organizationId: true, spaceId: true, collectionId: true },
  });
  return Promise.all(
    teamIds.map(async (teamId) => {
      const own = grants.filter((grant) => grant.teamId === teamId);
      if (own.length === 0) return 0;
      const spaceIds = own.flatMap((grant) => (grant.spaceId ? [grant.spaceId] : []));
      const granted = own.flatMap((grant) => (grant.collectionId ? [grant.collectionId] : []));
      const collectionIds = granted.length
        ? [
            ...collectionsBelow(
              await ctx.db.collection.findMany({ where: { organizationId: own[0]!.organizationId }, select: { id: true, parentId: true } }),
              granted,
            ),
          ]
        : [];
      return ctx.db.space.count({ where: { deletedAt: null, OR: [{ id: { in: spaceIds } }, { parentId: { in: collectionIds } }] } });
    }),
  );
});

/** The number of spaces a team's grants reach (the official team's `spaces`). */
export function teamSpaceCount(ctx: RequestContext, teamId: string): Promise<number> {
  return loader(ctx, teamSpaceCounts).load(teamId);
}
