import { setTimeout as sleep } from 'node:timers/promises';
import type { JobKind, RequestContext } from '../../context.ts';
import type { SpaceGitBindingRecord } from '../../db/index.ts';
import { DomainError } from '../../errors.ts';
import { emitEvent } from '../events/emit.ts';
import { inTransaction } from '../transaction.ts';
import { type BindingSyncData, bindingSyncJob, provideBindingSync } from './binding-job.ts';
import { authenticatedUrl } from './credentials.ts';
import { NotFastForward, branchRef, fetchBranch, mergeCommits, parseRemote, pushCommit, scrub } from './engine.ts';
import { type ExportGitData, engineOptions, exportCommit, importBranch } from './jobs.ts';

/**
 * The sync of a bound space (./binding.ts) with its branch, run as a job after a merge, a push
 * webhook, a poll or a request. It compares both sides with what they were at the last sync
 * (`lastCommit` on the branch, `lastRevisionId` in the space):
 *
 * - only the branch moved (a push, a force-push too): its commit becomes a revision of the space;
 * - only the space moved (a merge): its content is pushed as one commit;
 * - both moved: the space's content is committed on the last synced commit and merged three-way
 *   with the branch; a clean merge is pushed and becomes the space's revision; a conflict lands
 *   as a change request holding the pushed commit (never a force-push), and the state says so.
 *
 * A push refused as not fast-forward (the branch moved meanwhile) starts over from a new fetch.
 * Revisions record the commit they came from or went to (`gitCommit`), so a commit already in the
 * space is not brought in twice. One sync per space runs at a time, on any instance: a sync
 * claims the binding (state `running`) and a second one waits for it to end; a sync queued before
 * the last one began has nothing left to do, so they take effect in the order of their timestamps.
 */

/** A sync whose claim is older than this was lost (its instance stopped): another may take over. Longer than a job may run. */
const CLAIM_LOST_AFTER_MS = 20 * 60_000;
/** How long a sync waits for another one of the same space to end. */
const CLAIM_WAIT_MS = 5 * 60_000;
/** Fetch, merge and push again at most this many times when the branch keeps moving. */
const PUSH_ATTEMPTS = 3;

provideBindingSync((ctx, data) => syncBinding(ctx, data));

/**
 * Takes the binding for this sync: the binding, 'covered' when a sync that began after this one
 * was queued already saw everything it would see, or null when the space is no longer bound.
 */
async function claim(ctx: RequestContext, spaceId: string, queuedAt: Date): Promise<SpaceGitBindingRecord | 'covered' | null> {
  const deadline = Date.now() + CLAIM_WAIT_MS;
  for (;;) {
    const now = ctx.clock.now();
    const { count } = await ctx.db.spaceGitBinding.updateMany({
      where: {
        spaceId,
        AND: [
          { OR: [{ state: { not: 'running' } }, { updatedAt: { lt: new Date(now.getTime() - CLAIM_LOST_AFTER_MS) } }] },
          // One begun in the very millisecond this one was queued may have begun before the change: run again.
          { OR: [{ lastSyncStartedAt: null }, { lastSyncStartedAt: { lte: queuedAt } }] },
        ],
      },
      data: { state: 'running', lastSyncStartedAt: now, updatedAt: now },
    });
    if (count === 1) return ctx.db.spaceGitBinding.findUnique({ where: { spaceId } });
    const current = await ctx.db.spaceGitBinding.findUnique({ where: { spaceId }, select: { state: true, lastSyncStartedAt: true } });
    if (!current) return null;
    // Begun after this one was queued (ended, or still under way): it sees all this one would.
    if (current.lastSyncStartedAt && current.lastSyncStartedAt > queuedAt) return 'covered';
    if (Date.now() > deadline) throw new Error('another sync of this space has been running for 5 minutes');
    await sleep(100 + Math.random() * 200);
  }
}

interface Outcome {
  action: 'none' | 'import' | 'export' | 'merge' | 'conflict';
  commit: string | null;
  revisionId: string;
  changeRequestId?: string | null;
}

export async function syncBinding(ctx: RequestContext, data: BindingSyncData) {
  const binding = await claim(ctx, data.spaceId, new Date(data.timestamp));
  if (!binding) return { skipped: 'the space is not bound to a repository' };
  if (binding === 'covered') return { skipped: 'a sync that began after this one was queued has run' };
  try {
    const outcome = await syncClaimed(ctx, data, binding);
    await finish(ctx, binding, outcome);
    return { action: outcome.action, commit: outcome.commit, revisionId: outcome.revisionId };
  } catch (error) {
    // Never the credentials, in the state or in the log.
    const message = scrub(
      error instanceof DomainError ? error.message : `the sync failed: ${(error as Error)?.message ?? String(error)}`,
      secretsOf(ctx, binding),
    );
    await finish(ctx, binding, { error: message });
    return { failed: message };
  }
}

/** The remote with the credentials a message must not repeat (none when they cannot be read). */
function secretsOf(ctx: RequestContext, binding: SpaceGitBindingRecord) {
  try {
    return parseRemote(authenticatedUrl(ctx, binding));
  } catch {
    return parseRemote(binding.url);
  }
}

/**
 * The official GitSyncState (getSpaceGitInfo, Space.gitSync) says what the last sync of a bound
 * space did, as it says it of a one-off import or export: a sync that brought the branch in is an
 * import (a conflict too: it brought a change request in), one that pushed is an export.
 */
async function recordOfficialState(tx: RequestContext, binding: SpaceGitBindingRecord, outcome: Outcome | { error: string }, now: Date) {
  if (!('error' in outcome) && outcome.action === 'none') return;
  const direction = 'error' in outcome || outcome.action === 'import' || outcome.action === 'conflict' ? 'import' : 'export';
  const fields = {
    url: binding.url,
    ref: `refs/heads/${binding.branch}`,
    projectDirectory: binding.projectDirectory,
    state: 'error' in outcome ? 'failure' : 'success',
    direction,
    startedAt: binding.lastSyncStartedAt ?? now,
    endedAt: now,
    error: 'error' in outcome ? outcome.error : null,
    ...('error' in outcome || !outcome.commit ? {} : { commit: outcome.commit }),
    updatedAt: now,
  };
  await tx.db.spaceGitSync.upsert({ where: { spaceId: binding.spaceId }, create: { spaceId: binding.spaceId, ...fields }, update: fields });
}

async function finish(ctx: RequestContext, binding: SpaceGitBindingRecord, outcome: Outcome | { error: string }) {
  const now = ctx.clock.now();
  await inTransaction(ctx, [], async (tx) => {
    const still = await tx.db.spaceGitBinding.findUnique({ where: { id: binding.id }, select: { url: true, branch: true, projectDirectory: true } });
    if (!still) return;
    // Bound elsewhere while this sync ran: what it found is not the new repository's; the sync queued by that change runs next.
    if (still.url !== binding.url || still.branch !== binding.branch || still.projectDirectory !== binding.projectDirectory) {
      await tx.db.spaceGitBinding.update({ where: { id: binding.id }, data: { state: 'idle', updatedAt: now } });
      return;
    }
    const space = await tx.db.space.findUniqueOrThrow({ where: { id: binding.spaceId }, select: { organizationId: true } });
    const scope = { organizationId: space.organizationId, spaceId: binding.spaceId, subjectId: binding.spaceId };
    await recordOfficialState(tx, binding, outcome, now);
    if ('error' in outcome) {
      await tx.db.spaceGitBinding.update({
        where: { id: binding.id },
        // A conflict still waiting for its change request stays the state; the error is said beside it.
        data: { state: binding.conflictChangeRequestId ? 'conflict' : 'failed', lastError: outcome.error, lastSyncAt: now, updatedAt: now },
      });
      emitEvent(tx, { kind: 'space.git_sync_failed', ...scope, data: { direction: 'sync', error: outcome.error } });
      return;
    }
    const conflicted = outcome.action === 'conflict';
    await tx.db.spaceGitBinding.update({
      where: { id: binding.id },
      data: {
        state: conflicted ? 'conflict' : 'synced',
        lastError: null,
        lastSyncAt: now,
        updatedAt: now,
        conflictChangeRequestId: conflicted ? (outcome.changeRequestId ?? null) : null,
        // A conflict leaves the last synced point where it was: the change request holds the rest.
        ...(conflicted ? {} : { lastCommit: outcome.commit, lastRevisionId: outcome.revisionId }),
      },
    });
    if (conflicted) {
      emitEvent(tx, {
        kind: 'space.git_sync_conflict',
        ...scope,
        ...(outcome.changeRequestId ? { changeRequestId: outcome.changeRequestId } : {}),
        data: { commit: outcome.commit ?? '', changeRequestId: outcome.changeRequestId ?? '' },
      });
    } else if (outcome.action !== 'none') {
      emitEvent(tx, { kind: 'space.git_synced', ...scope, data: { direction: outcome.action, commit: outcome.commit ?? '' } });
    }
  });
}

async function syncClaimed(ctx: RequestContext, data: BindingSyncData, binding: SpaceGitBindingRecord): Promise<Outcome> {
  const userId = data.userId ?? binding.createdById ?? 'system';
  const jobData: ExportGitData = {
    spaceId: binding.spaceId,
    url: authenticatedUrl(ctx, binding),
    displayUrl: binding.url,
    ref: branchRef(binding.branch),
    projectDirectory: binding.projectDirectory,
    timestamp: null,
    force: true,
    standalone: false,
    userId,
    allowPrivate: data.allowPrivate,
    commitMessage: data.changeRequest
      ? `#${data.changeRequest.number} ${data.changeRequest.subject || 'Untitled change request'}`.trim()
      : 'Update from docs-gateway',
  };
  const options = engineOptions(ctx, jobData);
  let lastCommit = binding.lastCommit;
  const lastRevisionId = binding.lastRevisionId;
  let conflictChangeRequestId = binding.conflictChangeRequestId;
  // The change request of a conflict was merged: the space holds that commit now.
  if (conflictChangeRequestId) {
    const changeRequest = await ctx.db.changeRequest.findUnique({ where: { id: conflictChangeRequestId }, select: { status: true, revisionId: true } });
    if (changeRequest?.status !== 'open') {
      if (changeRequest?.status === 'merged') {
        // The revision the conflicting commit came in as (edits made in the change request since come after it).
        const landed = await ctx.db.revision.findFirst({
          where: { changeRequestId: conflictChangeRequestId, gitCommit: { not: null } },
          select: { gitCommit: true },
        });
        lastCommit = landed?.gitCommit ?? lastCommit;
      }
      conflictChangeRequestId = null;
    }
  }

  for (let attempt = 1; ; attempt++) {
    const { gitdir, commit: branchCommit } = await fetchBranch(options);
    const space = await ctx.db.space.findUniqueOrThrow({ where: { id: binding.spaceId }, select: { revisionId: true } });
    const importCommit = async (commit: string): Promise<Outcome> => {
      const imported = await importBranch(ctx, jobData, { gitdir, commit });
      return { action: 'import', commit, revisionId: imported.revisionId };
    };
    const exportOn = async (parent: string | null, action: 'export' | 'merge' = 'export'): Promise<Outcome> => {
      const written = await exportCommit(ctx, jobData, gitdir, parent);
      if (written.changed) await pushCommit({ ...options, gitdir }, written.commit);
      await recordCommit(ctx, written.revisionId, written.commit);
      return { action: written.changed ? action : 'none', commit: written.commit, revisionId: written.revisionId };
    };
    try {
      if (!branchCommit) return await exportOn(null);
      // A commit already in the space (its revision says so) is not brought in again.
      const known = await ctx.db.revision.findFirst({
        where: { spaceId: binding.spaceId, gitCommit: branchCommit },
        select: { id: true, changeRequestId: true },
      });
      if (!lastCommit || !lastRevisionId) {
        // The first sync: the side chosen wins.
        if (binding.initialSync === 'repository') return await importCommit(branchCommit);
        return await exportOn(branchCommit);
      }
      const branchMoved = branchCommit !== lastCommit;
      const spaceMoved = space.revisionId !== lastRevisionId;
      if (!branchMoved && !spaceMoved) return { action: 'none', commit: branchCommit, revisionId: space.revisionId };
      if (!spaceMoved) {
        if (known && known.id === space.revisionId) return { action: 'none', commit: branchCommit, revisionId: space.revisionId };
        // Pushed, or force-pushed: the branch's commit is followed whatever its history.
        return await importCommit(branchCommit);
      }
      if (!branchMoved) return await exportOn(branchCommit);
      // Both moved: the space's edits as a commit on the last synced one, merged with the branch.
      const ours = await exportCommit(ctx, jobData, gitdir, lastCommit);
      if (!ours.changed) return await importCommit(branchCommit);
      const author = { name: 'docs-gateway', email: 'docs-gateway@localhost', timestamp: Math.floor(ctx.clock.now().getTime() / 1000) };
      const merged = await mergeCommits({ gitdir }, ours.commit, branchCommit, `Merge ${binding.branch} into docs-gateway's edits\n`, author);
      if (merged) {
        await pushCommit({ ...options, gitdir }, merged);
        await recordCommit(ctx, ours.revisionId, ours.commit);
        const imported = await importBranch(ctx, jobData, { gitdir, commit: merged });
        return { action: 'merge', commit: merged, revisionId: imported.revisionId };
      }
      // A true conflict: the pushed commit waits in a change request, once.
      if (known?.changeRequestId && conflictChangeRequestId === known.changeRequestId) {
        return { action: 'conflict', commit: branchCommit, revisionId: space.revisionId, changeRequestId: known.changeRequestId };
      }
      const subject = `Git: ${binding.branch} at ${branchCommit.slice(0, 7)} conflicts with edits in the space`;
      // As a change request on the space's content: the branch's changes merged in, its lines where both changed
      // (a person reviews them; merged, the next sync pushes the result). What no line merge settles (a file
      // deleted on one side, changed on the other) lands as the branch's commit on the content last synced.
      const preferred = await mergeCommits(
        { gitdir },
        ours.commit,
        branchCommit,
        `Merge ${binding.branch} (conflicts resolved as the branch has them)\n`,
        author,
        true,
      );
      const imported = await importBranch(
        ctx,
        jobData,
        preferred
          ? { gitdir, commit: preferred, recordAs: branchCommit, changeRequest: { baseRevisionId: space.revisionId, subject } }
          : { gitdir, commit: branchCommit, changeRequest: { baseRevisionId: lastRevisionId, subject } },
      );
      return { action: 'conflict', commit: branchCommit, revisionId: space.revisionId, changeRequestId: imported.changeRequestId };
    } catch (error) {
      // The branch moved between the fetch and the push: fetch, merge and push again.
      if (error instanceof NotFastForward && attempt < PUSH_ATTEMPTS) continue;
      if (error instanceof NotFastForward) throw new DomainError(409, `ref: ${binding.branch} kept moving during ${PUSH_ATTEMPTS} attempts to push: try again`);
      throw error;
    }
  }
}

/** The revision a commit was exported from says so. */
async function recordCommit(ctx: RequestContext, revisionId: string, commit: string) {
  await ctx.db.revision.updateMany({ where: { id: revisionId, gitCommit: null }, data: { gitCommit: commit } });
}

/**
 * The fallback for pushes no webhook announced: every bound space is synced at the poll interval
 * (GIT_POLL_INTERVAL_SECONDS). A sync that finds nothing new changes nothing.
 */
export const bindingPollJob: JobKind = {
  name: 'git-binding-poll',
  retryLimit: 0,
  timeoutSeconds: 600,
  run: async (ctx) => {
    // A deleted space is not synced (restored, it is again).
    const bindings = await ctx.db.spaceGitBinding.findMany({
      where: { space: { deletedAt: null } },
      select: { spaceId: true },
      orderBy: { spaceId: 'asc' },
    });
    for (const binding of bindings) {
      await ctx.jobs?.send(bindingSyncJob, {
        spaceId: binding.spaceId,
        reason: 'poll',
        userId: null,
        allowPrivate: ctx.fetchPrivateAddresses === true,
        timestamp: ctx.clock.now().toISOString(),
      });
    }
    return { queued: bindings.length };
  },
  idle: (output) => output.queued === 0,
};

export { bindingSyncJob };
