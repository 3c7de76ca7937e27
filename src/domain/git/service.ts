import { z } from 'zod';
import type { RequestContext } from '../../context.ts';
import { conflict, invalid, notFound } from '../../errors.ts';
import { parseInput } from '../../lib/validation.ts';
import { atLeast, authorize } from '../access.ts';
import { visibleSpace } from '../spaces/service.ts';
import { branchRef, parseRemote } from './engine.ts';
import { exportGitJob, importGitJob } from './jobs.ts';

/**
 * The official Git sync operations: `importGitRepository` and `exportToGitRepository` check the
 * caller and the input, queue a job (src/domain/git/jobs.ts) and answer at once (204);
 * `getSpaceGitInfo` answers the space's GitSyncState: the repository it was last synced with
 * (without credentials) and its last operation.
 */

const common = {
  url: z.string().min(1).max(2048),
  ref: z.string().min(1).max(255),
  repoCacheID: z.string().max(255).optional(),
  repoTreeURL: z.string().max(2048).optional(),
  repoCommitURL: z.string().max(2048).optional(),
  repoProjectDirectory: z.string().max(500).optional(),
  timestamp: z.iso.datetime({ offset: true }).optional(),
  force: z.boolean().optional(),
  standalone: z.boolean().optional(),
  gitInfo: z.record(z.string(), z.unknown()).optional(),
};

/** The official ImportGitRepository. */
export const ImportGitRepository = z.object(common);
/** The official ExportToGitRepository. */
export const ExportToGitRepository = z.object({ ...common, commitMessage: z.string().min(1).max(10_000) });

/** A project directory as a relative path inside the repository ("" for its root); a 400 otherwise. */
function projectDirectoryOf(value: string | undefined): string {
  const trimmed = (value ?? '').replace(/^\.?\/+/, '').replace(/\/+$/, '');
  if (trimmed.split('/').some((segment) => segment === '..') || trimmed.includes('\\')) {
    throw invalid('repoProjectDirectory: must be a path inside the repository, without ".."');
  }
  return trimmed === '.' ? '' : trimmed;
}

async function writableSpace(ctx: RequestContext, spaceId: string, action: string) {
  const { space, level } = await visibleSpace(ctx, spaceId);
  authorize(atLeast(level, 'edit'), action);
  if (space.deletedAt) throw conflict(`space "${space.id}" is deleted: restore it first`);
  return space;
}

/** The operation shows as running from the moment it is queued (its job records its end). */
async function queued(ctx: RequestContext, spaceId: string, url: string, ref: string, projectDirectory: string, direction: 'import' | 'export') {
  const now = ctx.clock.now();
  const fields = { url, ref, projectDirectory, state: 'running', direction, startedAt: now, endedAt: null, error: null, updatedAt: now };
  await ctx.db.spaceGitSync.upsert({ where: { spaceId }, create: { spaceId, ...fields }, update: fields });
}

/** Queues an import of a branch into the space (or a standalone revision); 204. */
export async function importGitRepository(ctx: RequestContext, spaceId: string, body: unknown): Promise<void> {
  const input = parseInput(ImportGitRepository, body);
  const space = await writableSpace(ctx, spaceId, 'import a Git repository into this space');
  const remote = parseRemote(input.url);
  const ref = branchRef(input.ref);
  const projectDirectory = projectDirectoryOf(input.repoProjectDirectory);
  if (!input.standalone && space.editMode === 'locked') throw conflict(`space "${space.id}" is locked: its content cannot be replaced by an import`);
  await queued(ctx, spaceId, remote.url, ref, projectDirectory, 'import');
  await ctx.jobs?.send(importGitJob, {
    spaceId,
    url: input.url,
    displayUrl: remote.url,
    ref,
    projectDirectory,
    timestamp: input.timestamp ?? null,
    force: input.force === true,
    standalone: input.standalone === true,
    userId: ctx.viewer!.user.id,
    allowPrivate: ctx.fetchPrivateAddresses === true,
  });
}

/** Queues an export of the space's content to a branch; 204. */
export async function exportToGitRepository(ctx: RequestContext, spaceId: string, body: unknown): Promise<void> {
  const input = parseInput(ExportToGitRepository, body);
  await writableSpace(ctx, spaceId, 'export this space to a Git repository');
  const remote = parseRemote(input.url);
  const ref = branchRef(input.ref);
  const projectDirectory = projectDirectoryOf(input.repoProjectDirectory);
  await queued(ctx, spaceId, remote.url, ref, projectDirectory, 'export');
  await ctx.jobs?.send(exportGitJob, {
    spaceId,
    url: input.url,
    displayUrl: remote.url,
    ref,
    projectDirectory,
    commitMessage: input.commitMessage,
    timestamp: input.timestamp ?? null,
    force: input.force === true,
    standalone: input.standalone === true,
    userId: ctx.viewer!.user.id,
    allowPrivate: ctx.fetchPrivateAddresses === true,
  });
}

export type GitSyncStateJSON = NonNullable<Awaited<ReturnType<typeof spaceGitSyncState>>>;

/** The official GitSyncState of a space; 404 when it was never synced. */
export async function getSpaceGitInfo(ctx: RequestContext, spaceId: string): Promise<GitSyncStateJSON> {
  const state = await spaceGitSyncState(ctx, spaceId);
  if (!state) throw notFound('Git sync of space', spaceId);
  return state;
}

/** The official GitSyncState of a space the caller reads; null when it was never synced. */
export async function spaceGitSyncState(ctx: RequestContext, spaceId: string) {
  await visibleSpace(ctx, spaceId);
  const sync = await ctx.db.spaceGitSync.findUnique({ where: { spaceId } });
  if (!sync) return null;
  const host = new URL(sync.url).hostname;
  return {
    installationId: `git_${spaceId}`,
    installationProvider: /gitlab/i.test(host) ? ('gitlab' as const) : ('github' as const),
    installationStatus: 'active' as const,
    repoName: new URL(sync.url).pathname.replace(/^\/+|\.git$|\/+$/g, ''),
    url: sync.url,
    operation: {
      state: sync.state as 'running' | 'success' | 'failure',
      direction: sync.direction as 'import' | 'export',
      startedAt: sync.startedAt.toISOString(),
      ...(sync.endedAt ? { endedAt: sync.endedAt.toISOString() } : {}),
      ...(sync.error ? { error: sync.error } : {}),
    },
    updatedAt: sync.updatedAt.toISOString(),
  };
}
