import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Viewer } from '../../context.ts';
import type { Database, MemberRecord, UserRecord } from '../../db/index.ts';
import type { GenerationBump } from '../../db/generation-feed.ts';
import { generationOf, readViewer } from './service.ts';

/**
 * The viewers behind tokens and the data generations of their scopes, kept in
 * memory so that a request costs no statement to authenticate (nor, for an
 * answer of the response cache, to be served).
 *
 * Exact, on every instance: the database announces every committed bump
 * (src/db/generation-feed.ts), and every write that can change a viewer bumps
 * its user's scope — a token created or deleted, a membership added, changed or
 * removed, the user itself (prisma/generation-triggers.ts). A bump of a user
 * drops its cached viewers; the next request reads them again. While the feed
 * is not live (its connection down, a database without it) nothing is trusted:
 * every request reads its viewer, as without a cache.
 */
export interface ViewerCache {
  viewerForToken(token: string): Promise<Viewer | null>;
  /** Stops listening to the database. */
  close(): void;
}

interface Entry {
  user: UserRecord;
  tokenId: string | undefined;
  memberships: ReadonlyMap<string, MemberRecord>;
  /** The user and its organizations: the scopes of its generation. */
  scopes: string[];
}

/** Viewers kept at most; each is a few hundred bytes plus its memberships. */
const DEFAULT_MAX_VIEWERS = 10_000;

const digestOf = (token: string) => createHash('sha256').update(token).digest('base64url');

export function createViewerCache(database: Pick<Database, 'readRows' | 'generations'>, options: { maxViewers?: number } = {}): ViewerCache {
  const feed = database.generations;
  /** Scope → its version, as last read or announced. */
  const versions = new Map<string, string>();
  /** User id → digests of its cached tokens. */
  const tokensOfUser = new Map<string, Set<string>>();
  const viewers = new LRUCache<string, Entry>({
    max: options.maxViewers ?? DEFAULT_MAX_VIEWERS,
    dispose: (entry, digest) => {
      const digests = tokensOfUser.get(entry.user.id);
      digests?.delete(digest);
      if (digests?.size === 0) tokensOfUser.delete(entry.user.id);
    },
  });
  /** Moves with every announcement: a read that overlapped one is not kept. */
  let epoch = 0;

  const forgetUser = (userId: string) => {
    for (const digest of [...(tokensOfUser.get(userId) ?? [])]) viewers.delete(digest);
  };
  const heard = (bumps: readonly GenerationBump[]) => {
    epoch++;
    for (const { scope, version } of bumps) {
      if (scope === '*') {
        versions.clear();
        viewers.clear();
        continue;
      }
      // Only scopes some cached viewer is made of are kept.
      const known = versions.get(scope);
      if (known === undefined) continue;
      if (version === null) versions.delete(scope);
      else if (BigInt(version) > BigInt(known)) versions.set(scope, version);
      forgetUser(scope);
    }
  };
  const unsubscribe = feed.subscribe(heard);

  /** The viewer of a cached entry, with its generation now; null when a version is not known. */
  const fromEntry = (entry: Entry): Viewer | null => {
    const now = new Map<string, string>();
    for (const scope of entry.scopes) {
      const version = versions.get(scope);
      if (version === undefined) return null;
      now.set(scope, version);
    }
    return { user: entry.user, memberships: entry.memberships, generation: generationOf(now), ...(entry.tokenId ? { tokenId: entry.tokenId } : {}) };
  };

  return {
    async viewerForToken(token) {
      feed.sync();
      const live = feed.live;
      const digest = digestOf(token);
      const entry = live ? viewers.get(digest) : undefined;
      const cached = entry && fromEntry(entry);
      if (cached) return cached;
      const startedAt = epoch;
      const read = await readViewer(database, token);
      if (!read) return null;
      // Kept only when no announcement came in while it was read: it could be older than one.
      if (live && feed.live && epoch === startedAt) {
        for (const [scope, version] of read.versions) {
          const known = versions.get(scope);
          if (known === undefined || BigInt(version) > BigInt(known)) versions.set(scope, version);
        }
        const { user, memberships, tokenId } = read.viewer;
        viewers.set(digest, { user, tokenId, memberships: memberships!, scopes: [...read.versions.keys()] });
        let digests = tokensOfUser.get(user.id);
        if (!digests) tokensOfUser.set(user.id, (digests = new Set()));
        digests.add(digest);
      }
      return read.viewer;
    },
    close: unsubscribe,
  };
}
