import type { UserJSON } from './presenter.ts';
import type { RequestContext, Viewer } from '../../context.ts';
import type { Database, MemberRecord, UserRecord } from '../../db/index.ts';
import { notFound, unauthenticated } from '../../errors.ts';
import { hashApiToken } from '../../lib/tokens.ts';
import { defineRecordLoader, loader } from '../loaders.ts';
import { presentUser } from './presenter.ts';

export const userRecords = defineRecordLoader((ctx, ids) => ctx.db.user.findMany({ where: { id: { in: ids } } }));

interface ViewerRow {
  tokenId: string;
  id: string;
  email: string;
  displayName: string;
  photoURL: string | null;
  searchText: string;
  createdAt: Date | string;
  updatedAt: Date | string;
  organizationId: string | null;
  role: string | null;
  disabled: boolean | number | bigint | null;
  sso: boolean | number | bigint | null;
  joinedAt: Date | string | null;
  lastSeenAt: Date | string | null;
  reachedByGrants: boolean | number | null;
  /** The data generation of the membership's organization. */
  generation: bigint | number | string | null;
  /** The data generation of the user itself. */
  userGeneration: bigint | number | string | null;
}

/** A viewer as read from the database, with the version of each scope its generation is made of. */
export interface ViewerRead {
  viewer: Viewer;
  /** Scope (the user, each organization) → its data generation then ('0' when never bumped). */
  versions: Map<string, string>;
}

/**
 * The viewer behind a bearer token, or null when the token is unknown: the user,
 * all its memberships and the data generations of the user and of each of its
 * organizations (src/http/response-cache.ts) in one statement.
 * (Raw SQL, straight to the driver: Prisma would send one statement per
 * relation.) Requests get viewers through the cache of src/domain/users/viewer-cache.ts.
 */
export async function readViewer(database: Pick<Database, 'readRows'>, token: string): Promise<ViewerRead | null> {
  const rows = await database.readRows<ViewerRow>(
    `SELECT t."id" AS "tokenId", u."id", u."email", u."displayName", u."photoURL", u."searchText", u."createdAt", u."updatedAt",
           m."organizationId", m."role", m."disabled", m."sso", m."joinedAt", m."lastSeenAt", m."reachedByGrants",
           g."version" AS "generation",
           (SELECT ug."version" FROM "data_generations" ug WHERE ug."scope" = u."id") AS "userGeneration"
    FROM "api_tokens" t
    JOIN "users" u ON u."id" = t."userId"
    LEFT JOIN "members" m ON m."userId" = u."id"
    LEFT JOIN "data_generations" g ON g."scope" = m."organizationId"
    WHERE t."tokenHash" = $1`,
    [hashApiToken(token)],
  );
  const first = rows[0];
  if (!first) return null;
  const user: UserRecord = {
    id: first.id,
    email: first.email,
    displayName: first.displayName,
    photoURL: first.photoURL,
    searchText: first.searchText,
    createdAt: new Date(first.createdAt),
    updatedAt: new Date(first.updatedAt),
  };
  const memberships = new Map<string, MemberRecord>();
  // What this user's answers can be made of: the user, and each organization at its generation.
  const versions = new Map<string, string>([[user.id, String(first.userGeneration ?? 0)]]);
  for (const row of rows) {
    if (row.organizationId === null) continue;
    versions.set(row.organizationId, String(row.generation ?? 0));
    memberships.set(row.organizationId, {
      organizationId: row.organizationId,
      userId: user.id,
      role: row.role,
      disabled: Boolean(Number(row.disabled)),
      sso: Boolean(Number(row.sso)),
      joinedAt: new Date(row.joinedAt!),
      lastSeenAt: row.lastSeenAt === null ? null : new Date(row.lastSeenAt),
      reachedByGrants: Boolean(Number(row.reachedByGrants)),
    });
  }
  return { viewer: { user, memberships, generation: generationOf(versions), tokenId: first.tokenId }, versions };
}

/** The one string of a viewer's generations: `scope:version` of the user and each organization, sorted. */
export function generationOf(versions: ReadonlyMap<string, string>): string {
  return [...versions]
    .map(([scope, version]) => `${scope}:${version}`)
    .sort()
    .join(',');
}

export function requireViewer(ctx: RequestContext): UserRecord {
  if (!ctx.viewer) throw unauthenticated();
  return ctx.viewer.user;
}

export async function getAuthenticatedUser(ctx: RequestContext): Promise<UserJSON> {
  return presentUser(requireViewer(ctx), ctx.urls);
}

/** A user the viewer shares an organization with (or the viewer itself). */
export async function getUser(ctx: RequestContext, userId: string): Promise<UserJSON> {
  const viewer = requireViewer(ctx);
  if (userId !== viewer.id) {
    // Another user is seen through an organization whose members the viewer may
    // list: a co-member, where the viewer is not a guest (guests list no members).
    const shared = await ctx.db.member.findFirst({
      where: { userId, organization: { members: { some: { userId: viewer.id, disabled: false, role: { not: null } } } } },
      select: { userId: true },
    });
    if (!shared) throw notFound('User', userId);
  }
  const user = await loader(ctx, userRecords).load(userId);
  if (!user) throw notFound('User', userId);
  return presentUser(user, ctx.urls);
}
