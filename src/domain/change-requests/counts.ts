import type { RequestContext } from '../../context.ts';
import type { SpaceRecord } from '../../db/index.ts';
import { Prisma } from '../../db/index.ts';

export interface ChangeRequestCounts {
  /** Change requests in progress: open or draft. */
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
}

/** A space's change request counts, kept on its row so that reading a space costs no count. */
export function changeRequestCountsOf(space: Pick<SpaceRecord, 'changeRequestsOpen' | 'changeRequestsDraft'>): ChangeRequestCounts {
  return {
    changeRequests: space.changeRequestsOpen + space.changeRequestsDraft,
    changeRequestsOpen: space.changeRequestsOpen,
    changeRequestsDraft: space.changeRequestsDraft,
  };
}

/**
 * Recounts a space's change requests by status, in the transaction that changed
 * them. Those transactions hold the space's content lock (lockSpace) from their
 * start, so each recount sees every earlier one committed: exact under
 * concurrency. Plain SQL: the space's `updatedAt` is left alone.
 */
export async function recountChangeRequests(tx: RequestContext, spaceId: string): Promise<void> {
  await tx.db.$executeRaw(Prisma.sql`
    UPDATE "spaces" SET
      "changeRequestsOpen" = (SELECT COUNT(*) FROM "change_requests" WHERE "spaceId" = ${spaceId} AND "status" = 'open'),
      "changeRequestsDraft" = (SELECT COUNT(*) FROM "change_requests" WHERE "spaceId" = ${spaceId} AND "status" = 'draft')
    WHERE "id" = ${spaceId}`);
}
