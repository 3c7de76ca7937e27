import type { RequestContext } from '../../context.ts';

/** Records that a user wrote to a change request's content (its `contributors`): one row per user, counting their edits. */
export async function noteContributor(tx: RequestContext, changeRequestId: string, userId = tx.viewer!.user.id): Promise<void> {
  const now = tx.clock.now();
  await tx.db.changeRequestContributor.upsert({
    where: { changeRequestId_userId: { changeRequestId, userId } },
    create: { changeRequestId, userId, count: 1, updatedAt: now },
    update: { count: { increment: 1 }, updatedAt: now },
  });
}
