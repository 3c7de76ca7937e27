import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { RequestContext } from '../../context.ts';
import type { SpaceGitBindingRecord } from '../../db/index.ts';
import { DomainError, conflict, invalid, notFound } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { open, seal } from '../../lib/secret-box.ts';
import { parseInput } from '../../lib/validation.ts';
import { atLeast, authorize } from '../access.ts';
import { visibleSpace } from '../spaces/service.ts';
import { inTransaction } from '../transaction.ts';
import { branchRef, parseRemote } from './engine.ts';
import { queueBindingSync } from './binding-job.ts';
// The sync's work registers itself with its job.
import './binding-sync.ts';
export { authenticatedUrl, credentialsOf } from './credentials.ts';

/**
 * A space bound to a Git repository (docs-gateway's own resource, space admins only): while
 * bound, each change request merged into the space is pushed to the branch as one commit, and each
 * push to the branch becomes a revision of the space (./binding-sync.ts). The credentials and the
 * push webhook's secret are kept encrypted with the server's key (GIT_CREDENTIALS_KEY); the
 * credentials are never answered, the secret only once, when the binding is made.
 */

const Credentials = z.object({
  username: z.string().min(1).max(255),
  password: z.string().min(1).max(4096),
});

export const PutGitBindingInput = z.object({
  url: z.string().min(1).max(2048),
  branch: z.string().min(1).max(255).default('main'),
  projectDirectory: z.string().max(500).optional(),
  /** Omitted: kept as they are; null: removed. */
  credentials: Credentials.nullable().optional(),
  initialSync: z.enum(['space', 'repository']).default('repository'),
});

const ADMINISTER = 'bind this space to a Git repository (space admins)';

async function administeredSpace(ctx: RequestContext, spaceId: string) {
  const { space, level } = await visibleSpace(ctx, spaceId);
  authorize(atLeast(level, 'admin'), ADMINISTER);
  return space;
}

function keyOf(ctx: RequestContext): Buffer {
  const key = ctx.gitSync?.credentialsKey;
  if (!key) throw conflict('this server has no GIT_CREDENTIALS_KEY: set it (32 bytes, e.g. openssl rand -base64 32) to bind spaces to repositories');
  return key;
}

export interface GitBindingJSON {
  object: 'git-binding';
  id: string;
  spaceId: string;
  url: string;
  branch: string;
  projectDirectory: string;
  hasCredentials: boolean;
  initialSync: string;
  hookUrl: string;
  /** Only in the answer that made the binding. */
  hookSecret?: string;
  status: {
    state: string;
    lastCommit?: string;
    lastSyncAt?: string;
    lastError?: string;
    conflictChangeRequestId?: string;
  };
  createdAt: string;
  updatedAt: string;
  urls: { location: string };
}

export function presentGitBinding(ctx: RequestContext, binding: SpaceGitBindingRecord, hookSecret?: string): GitBindingJSON {
  return {
    object: 'git-binding',
    id: binding.id,
    spaceId: binding.spaceId,
    url: binding.url,
    branch: binding.branch,
    projectDirectory: binding.projectDirectory,
    hasCredentials: binding.credentials !== null,
    initialSync: binding.initialSync,
    hookUrl: `${ctx.urls.api}/v1/git/hooks/${binding.id}`,
    ...(hookSecret ? { hookSecret } : {}),
    status: {
      state: binding.state,
      ...(binding.lastCommit ? { lastCommit: binding.lastCommit } : {}),
      ...(binding.lastSyncAt ? { lastSyncAt: binding.lastSyncAt.toISOString() } : {}),
      ...(binding.lastError ? { lastError: binding.lastError } : {}),
      ...(binding.conflictChangeRequestId ? { conflictChangeRequestId: binding.conflictChangeRequestId } : {}),
    },
    createdAt: binding.createdAt.toISOString(),
    updatedAt: binding.updatedAt.toISOString(),
    urls: { location: `${ctx.urls.api}/v1/spaces/${binding.spaceId}/git/binding` },
  };
}

/** A project directory as a relative path inside the repository ("" for its root); a 400 otherwise. */
function projectDirectoryOf(value: string | undefined): string {
  const trimmed = (value ?? '').replace(/^\.?\/+/, '').replace(/\/+$/, '');
  if (trimmed.split('/').some((segment) => segment === '..') || trimmed.includes('\\')) {
    throw invalid('projectDirectory: must be a path inside the repository, without ".."');
  }
  return trimmed === '.' ? '' : trimmed;
}

export async function gitBindingRecord(ctx: RequestContext, spaceId: string): Promise<SpaceGitBindingRecord> {
  await administeredSpace(ctx, spaceId);
  const binding = await ctx.db.spaceGitBinding.findUnique({ where: { spaceId } });
  if (!binding) throw notFound('Git binding of space', spaceId);
  return binding;
}

/** A space's binding for GraphQL's `Space.gitBinding`: null when it has none, or when the viewer is not its admin. */
export async function visibleGitBinding(ctx: RequestContext, spaceId: string): Promise<GitBindingJSON | null> {
  const { level } = await visibleSpace(ctx, spaceId);
  if (!atLeast(level, 'admin')) return null;
  const binding = await ctx.db.spaceGitBinding.findUnique({ where: { spaceId } });
  return binding ? presentGitBinding(ctx, binding) : null;
}

export async function getGitBinding(ctx: RequestContext, spaceId: string): Promise<GitBindingJSON> {
  return presentGitBinding(ctx, await gitBindingRecord(ctx, spaceId));
}

/** Binds the space (or changes its binding) and queues a first sync; the answer of a new binding holds the hook's secret, this once. */
export async function putGitBinding(ctx: RequestContext, spaceId: string, body: unknown): Promise<GitBindingJSON> {
  const input = parseInput(PutGitBindingInput, body);
  const space = await administeredSpace(ctx, spaceId);
  if (space.deletedAt) throw conflict(`space "${space.id}" is deleted: restore it first`);
  const remote = parseRemote(input.url);
  if (remote.auth) throw invalid('url: give the credentials in `credentials`, not in the URL (they are kept encrypted, never shown)');
  const branch = branchRef(input.branch).slice('refs/heads/'.length);
  const projectDirectory = projectDirectoryOf(input.projectDirectory);
  const key = keyOf(ctx);
  const credentials = input.credentials === undefined ? undefined : input.credentials === null ? null : seal(key, JSON.stringify(input.credentials));
  const now = ctx.clock.now();
  const existing = await ctx.db.spaceGitBinding.findUnique({ where: { spaceId } });
  let hookSecret: string | undefined;
  const binding = await inTransaction(
    ctx,
    {
      action: existing ? 'space.git_binding_update' : 'space.git_bind',
      organizationId: space.organizationId,
      target: { type: 'space', id: spaceId, label: space.title },
      payload: { url: remote.url, branch },
    },
    async (tx) => {
      const fields = { url: remote.url, branch, projectDirectory, initialSync: input.initialSync, updatedAt: now };
      if (existing) {
        // Another repository or branch: the next sync is a first one again.
        const moved = existing.url !== remote.url || existing.branch !== branch || existing.projectDirectory !== projectDirectory;
        return tx.db.spaceGitBinding.update({
          where: { spaceId },
          data: {
            ...fields,
            ...(credentials !== undefined ? { credentials } : {}),
            // (A sync under way keeps its claim; it finds the binding moved when it ends and leaves it so.)
            ...(moved ? { lastCommit: null, lastRevisionId: null, conflictChangeRequestId: null, lastError: null } : {}),
            ...(moved && existing.state !== 'running' ? { state: 'idle' } : {}),
          },
        });
      }
      hookSecret = `gith_${randomBytes(24).toString('base64url')}`;
      return tx.db.spaceGitBinding.create({
        data: {
          id: newId('gitBinding'),
          spaceId,
          ...fields,
          credentials: credentials ?? null,
          hookSecret: seal(key, hookSecret),
          state: 'idle',
          createdById: ctx.viewer!.user.id,
          createdAt: now,
        },
      });
    },
  );
  await queueBindingSync(ctx, spaceId, { reason: existing ? 'update' : 'bind' });
  return presentGitBinding(ctx, binding, hookSecret);
}

/** Unbinds the space: nothing is synced any more (the repository and the space keep what they have). */
export async function deleteGitBinding(ctx: RequestContext, spaceId: string): Promise<void> {
  const binding = await gitBindingRecord(ctx, spaceId);
  const space = await ctx.db.space.findUniqueOrThrow({ where: { id: spaceId }, select: { organizationId: true, title: true } });
  await inTransaction(
    ctx,
    {
      action: 'space.git_unbind',
      organizationId: space.organizationId,
      target: { type: 'space', id: spaceId, label: space.title },
      payload: { url: binding.url },
    },
    (tx) => tx.db.spaceGitBinding.delete({ where: { spaceId } }),
  );
}

/** Queues a sync of a bound space now (204). */
export async function syncGitBinding(ctx: RequestContext, spaceId: string): Promise<void> {
  await gitBindingRecord(ctx, spaceId);
  await queueBindingSync(ctx, spaceId, { reason: 'manual' });
}

const equalBytes = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

/**
 * Whether a push webhook's request is signed with the binding's secret, as GitHub
 * (`X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>`), Gitea (`X-Gitea-Signature: <hex>`)
 * or GitLab (`X-Gitlab-Token: <the secret itself>`) sign it; compared in constant time.
 */
export function verifyHookSignature(secret: string, headers: Record<string, string | string[] | undefined>, body: Buffer): boolean {
  const header = (name: string) => {
    const value = headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  const digest = createHmac('sha256', secret).update(body).digest();
  const github = header('x-hub-signature-256');
  if (github !== undefined) return /^sha256=[0-9a-f]{64}$/i.test(github) && equalBytes(Buffer.from(github.slice(7), 'hex'), digest);
  const gitea = header('x-gitea-signature') ?? header('x-gogs-signature');
  if (gitea !== undefined) return /^[0-9a-f]{64}$/i.test(gitea) && equalBytes(Buffer.from(gitea, 'hex'), digest);
  const gitlab = header('x-gitlab-token');
  if (gitlab !== undefined) {
    // Hashed first: equal lengths for the comparison, whatever was sent.
    const hash = (value: string) => createHmac('sha256', 'gitlab-token').update(value).digest();
    return equalBytes(hash(gitlab), hash(secret));
  }
  return false;
}

/**
 * A push webhook from the repository's host: verified with the binding's secret, then a sync is
 * queued (the sync reads the branch itself: the body is not trusted for what it says was pushed).
 */
export async function receiveGitPush(
  ctx: RequestContext,
  bindingId: string,
  headers: Record<string, string | string[] | undefined>,
  body: Buffer,
): Promise<{ queued: boolean }> {
  const binding = await ctx.db.spaceGitBinding.findUnique({ where: { id: bindingId } });
  if (!binding) throw notFound('Git binding', bindingId);
  const secret = ctx.gitSync?.credentialsKey ? open(ctx.gitSync.credentialsKey, binding.hookSecret) : null;
  if (secret === null || !verifyHookSignature(secret, headers, body)) {
    throw new DomainError(401, "the request is not signed with this binding's secret (X-Hub-Signature-256, X-Gitea-Signature or X-Gitlab-Token)");
  }
  // A ping (GitHub's first delivery) or another event than a push changes nothing.
  const event = headers['x-github-event'] ?? headers['x-gitea-event'] ?? headers['x-gitlab-event'];
  if (typeof event === 'string' && !/^push( hook)?$/i.test(event)) return { queued: false };
  await queueBindingSync(ctx, binding.spaceId, { reason: 'push' });
  return { queued: true };
}
