import type { UserJSON } from './presenter.ts';
import type { RequestContext, Viewer } from '../../context.ts';
import type { Db, UserRecord } from '../../db/index.ts';
import { notFound, unauthenticated } from '../../errors.ts';
import { hashApiToken } from '../../lib/tokens.ts';
import { defineRecordLoader, loader } from '../loaders.ts';
import { presentUser } from './presenter.ts';

export const userRecords = defineRecordLoader((ctx, ids) => ctx.db.user.findMany({ where: { id: { in: ids } } }));

/** The viewer behind a bearer token, or null when the token is unknown. */
export async function viewerForToken(db: Db, token: string): Promise<Viewer | null> {
  const found = await db.apiToken.findUnique({ where: { tokenHash: hashApiToken(token) }, include: { user: true } });
  return found ? { user: found.user } : null;
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
    const shared = await ctx.db.member.findFirst({
      where: { userId, organization: { members: { some: { userId: viewer.id, disabled: false } } } },
      select: { userId: true },
    });
    if (!shared) throw notFound('User', userId);
  }
  const user = await loader(ctx, userRecords).load(userId);
  if (!user) throw notFound('User', userId);
  return presentUser(user, ctx.urls);
}
