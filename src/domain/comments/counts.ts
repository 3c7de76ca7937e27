import type { RequestContext } from '../../context.ts';
import type { SpaceRecord } from '../../db/index.ts';
import { defineLoader, loader } from '../loaders.ts';
import { countsBy } from '../shared/pages.ts';

/**
 * Open-comment counts, batched per request: the spaces (or change requests) of
 * a listing are counted with one statement. A space counts the open comments on
 * its own content (those of its change requests count on each change request),
 * as the official API's space `comments` ("opened comments on the space") and
 * the space comment listing (which lists those same comments) do.
 */
export const OPEN_SPACE_COMMENTS = { changeRequestId: null, status: 'open' } as const;

const openCommentsOfSpaces = defineLoader<string, number>(async (ctx, spaceIds) => {
  const counts = countsBy(
    await ctx.db.comment.groupBy({
      by: ['spaceId'],
      where: { spaceId: { in: [...spaceIds] }, ...OPEN_SPACE_COMMENTS },
      _count: { _all: true },
    }),
    'spaceId',
  );
  return spaceIds.map((id) => counts.get(id) ?? 0);
});

const openCommentsOfChangeRequests = defineLoader<string, number>(async (ctx, changeRequestIds) => {
  const rows = await ctx.db.comment.groupBy({
    by: ['changeRequestId'],
    where: { changeRequestId: { in: [...changeRequestIds] }, status: 'open' },
    _count: { _all: true },
  });
  const counts = new Map(rows.map((row) => [row.changeRequestId, row._count._all]));
  return changeRequestIds.map((id) => counts.get(id) ?? 0);
});

/**
 * Open comments on a space's content (not in its change requests): read with
 * the space's row when it came from the space loader (spaceRecords counts them
 * in the same statement), else batched with the other spaces of the request.
 */
export async function spaceOpenComments(ctx: RequestContext, space: Pick<SpaceRecord, 'id'>): Promise<number> {
  const counted = (space as { _count?: { comments?: number } })._count?.comments;
  return typeof counted === 'number' ? counted : loader(ctx, openCommentsOfSpaces).load(space.id);
}

/** Open comments in a change request. */
export function changeRequestOpenComments(ctx: RequestContext, changeRequestId: string): Promise<number> {
  return loader(ctx, openCommentsOfChangeRequests).load(changeRequestId);
}
