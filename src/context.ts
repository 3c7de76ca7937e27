import type { PublicUrls } from './config.ts';
import type { Database, Db, MemberRecord, Provider, UserRecord } from './db/index.ts';
import type { PageTreeCache } from './domain/content/tree.ts';
import type { LoaderRegistry } from './domain/loaders.ts';
import type { Clock } from './lib/clock.ts';
import type { FileStorage } from './storage/files.ts';
import type { JobSender } from './jobs/queue.ts';

/** The authenticated caller. */
export interface Viewer {
  user: UserRecord;
  /**
   * Every membership of the user, read with the token at the start of the
   * request (organization id → membership). Absent once the request writes, and
   * inside transactions: then memberships are read from the database.
   */
  memberships?: ReadonlyMap<string, MemberRecord>;
  /**
   * The data generations of the user and of its organizations when the request
   * was authenticated, as one string (src/response-cache.ts).
   */
  generation?: string;
}

/**
 * One context per request, built the same way for REST, GraphQL, the CLI and
 * tests. Loaders live here so their caches never outlive a request.
 */
export interface RequestContext {
  db: Db;
  provider: Provider;
  viewer: Viewer | null;
  loaders: LoaderRegistry;
  clock: Clock;
  urls: PublicUrls;
  /** Where uploaded files are kept; absent where nothing uploads (the CLI's seeds, the benchmark). */
  storage?: FileStorage;
  /**
   * Page trees of revisions kept between requests (revisions never change).
   * Absent inside transactions: a tree read there may belong to a revision
   * that is rolled back.
   */
  pageTreeCache?: PageTreeCache;
  /** Fetches (website import) may reach private and loopback addresses: tests only. */
  fetchPrivateAddresses?: boolean;
  /** Bounds of fetching an OpenAPI spec's source (src/domain/openapi/processing.ts); its defaults when absent. */
  openApiFetch?: { timeoutMs: number; maxBytes: number };
  /** Queues background jobs (src/jobs/); absent where nothing queues (seeds, jobs themselves). */
  jobs?: JobSender;
  /**
   * Sites whose published content this request opened as a visitor (with a share
   * key or visitor token): the rest of the request may read their structure.
   */
  siteVisits: Map<string, { claims: Record<string, unknown> }>;
  /**
   * Set while an answer may be cached: the organizations the viewer read without
   * being a member (published sites), each with its data generation read before
   * their data, so that a write there drops the cached answer.
   */
  foreignScopes?: Map<string, Promise<string>>;
  /**
   * Throws when the request must stop (out of time, its client gone). Every
   * data access checks it (src/domain/loaders.ts); set by the GraphQL limits.
   */
  checkBudget?: () => void;
}

export interface ContextOptions {
  database: Pick<Database, 'db' | 'provider'>;
  viewer: Viewer | null;
  clock: Clock;
  urls: PublicUrls;
  storage?: FileStorage | undefined;
  pageTreeCache?: PageTreeCache | undefined;
  fetchPrivateAddresses?: boolean | undefined;
  openApiFetch?: { timeoutMs: number; maxBytes: number } | undefined;
  jobs?: JobSender | undefined;
}

export function createContext({
  database,
  viewer,
  clock,
  urls,
  storage,
  pageTreeCache,
  fetchPrivateAddresses,
  openApiFetch,
  jobs,
}: ContextOptions): RequestContext {
  return {
    db: database.db,
    provider: database.provider,
    viewer,
    loaders: new Map(),
    clock,
    urls,
    siteVisits: new Map(),
    ...(storage ? { storage } : {}),
    ...(pageTreeCache ? { pageTreeCache } : {}),
    ...(fetchPrivateAddresses ? { fetchPrivateAddresses } : {}),
    ...(openApiFetch ? { openApiFetch } : {}),
    ...(jobs ? { jobs } : {}),
  };
}

/** The same context acting inside a transaction: reads and writes go through `tx`, with fresh loaders. */
export function withDb(ctx: RequestContext, db: Db): RequestContext {
  const { pageTreeCache: _sharedTrees, ...rest } = ctx;
  return { ...rest, db, loaders: new Map(), viewer: withoutMembershipSnapshot(ctx.viewer) };
}

/** The viewer without the memberships read at authentication: they may have changed by a write. */
export function withoutMembershipSnapshot(viewer: Viewer | null): Viewer | null {
  return viewer && { user: viewer.user };
}
