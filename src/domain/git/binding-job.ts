import type { JobKind, JobOutput, RequestContext } from '../../context.ts';

/**
 * The job that syncs a bound space (its work is ./binding-sync.ts), and what queues it. Kept apart
 * from the work so that the change requests' merge, which the sync itself builds on, can queue it
 * without importing it; the work registers itself here when its module loads.
 */

export interface BindingSyncData {
  spaceId: string;
  reason: 'bind' | 'update' | 'manual' | 'merge' | 'push' | 'poll';
  /** The change request whose merge is pushed: its number and subject make the commit's message. */
  changeRequest?: { id: string; number: number; subject: string };
  userId: string | null;
  allowPrivate: boolean;
  timestamp: string;
}

type SyncWork = (ctx: RequestContext, data: BindingSyncData) => Promise<JobOutput>;
let work: SyncWork | undefined;

/** Called once by ./binding-sync.ts. */
export function provideBindingSync(run: SyncWork): void {
  work = run;
}

export const bindingSyncJob: JobKind<BindingSyncData> = {
  name: 'git-binding-sync',
  retryLimit: 0,
  timeoutSeconds: 900,
  run: (ctx, data) => {
    if (!work) throw new Error('the Git binding sync is not loaded (import src/domain/git/binding-sync.ts)');
    return work(ctx, data);
  },
};

export type SyncReason = Pick<BindingSyncData, 'reason' | 'changeRequest'> & { userId?: string };

/** Queues a sync of a space (after a bind, a merge, a push, a poll, a request). */
export async function queueBindingSync(ctx: RequestContext, spaceId: string, reason: SyncReason): Promise<void> {
  if (!ctx.jobs) return;
  await ctx.jobs.send(bindingSyncJob, {
    spaceId,
    ...reason,
    userId: reason.userId ?? ctx.viewer?.user.id ?? null,
    allowPrivate: ctx.fetchPrivateAddresses === true,
    timestamp: ctx.clock.now().toISOString(),
  });
}

/** After a change request was merged: a bound space pushes it (queued; the merge itself is done). */
export async function afterChangeRequestMerged(ctx: RequestContext, spaceId: string, changeRequest: { id: string; number: number; subject: string }) {
  const bound = await ctx.db.spaceGitBinding.findUnique({ where: { spaceId }, select: { id: true } });
  if (bound) await queueBindingSync(ctx, spaceId, { reason: 'merge', changeRequest });
}
