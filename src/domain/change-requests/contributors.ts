import type { RequestContext } from '../../context.ts';

/** Records that a user wrote to a change request's content (its `contributors`), once per user. */
export async function noteContributor(tx: RequestContext, changeRequestId: string, userId = tx.viewer!.user.id): Promise<void> {
  await tx.db.changeRequestContributor.upsert({
    where: { changeRequestId_userId: { changeRequestId, userId } },
    create: { changeRequestId, userId },
    update: {},
  });
}
