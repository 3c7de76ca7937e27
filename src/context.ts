import type DataLoader from 'dataloader';
import type { PublicUrls } from './config.ts';
import type { Database, Db, MemberRecord, Provider, UserRecord } from './db/index.ts';
import type { ErrorStatus } from './errors.ts';
import type { DomainEvent, EventSink } from './events/event.ts';
import type { EventStreams } from './events/streams.ts';
import type { Clock } from './lib/clock.ts';
import type { FileStorage } from './storage/files.ts';
import type { WebhookSettings } from './lib/webhook-settings.ts';

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
   * was authenticated, as one string (src/http/response-cache.ts).
   */
  generation?: string;
  /** The API token the request authenticated with (its id, for the audit log); absent for jobs and site tokens. */
  tokenId?: string;
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
  /**
   * Loaders of rows by id (`defineRecordLoader`, `loadColumns`), which read the same for every
   * viewer, shared by the contexts of one occasion: the streams that deliver one event
   * (src/domain/events/subscriptions.ts). Elsewhere absent: `loaders` keeps them.
   */
  sharedLoaders?: LoaderRegistry;
  clock: Clock;
  urls: PublicUrls;
  /** Where uploaded files are kept; absent where nothing uploads (the CLI's seeds, the benchmark). */
  storage?: FileStorage;
  /**
   * Page trees of revisions kept between requests (revisions never change).
   * Absent inside transactions: a tree read there may belong to a revision
   * that is rolled back.
   */
  pageTreeCache?: RevisionCache;
  /** Fetches (website import) may reach private and loopback addresses: tests only. */
  fetchPrivateAddresses?: boolean;
  /** Bounds of fetching an OpenAPI spec's source (src/domain/openapi/processing.ts); its defaults when absent. */
  openApiFetch?: { timeoutMs: number; maxBytes: number };
  /** Queues background jobs (src/jobs/); absent where nothing queues (seeds, jobs themselves). */
  jobs?: JobSender;
  /** Git sync's clone caches and limits (GIT_CACHE_DIR, GIT_MAX_*); src/domain/git/jobs.ts's defaults when absent. */
  gitSync?: GitSyncSettings;
  /** How webhooks are delivered (src/domain/webhooks/delivery.ts); its defaults when absent. */
  webhooks?: WebhookSettings;
  /**
   * Sites whose published content this request opened as a visitor (with a share
   * key or visitor token): the rest of the request may read their structure.
   */
  siteVisits: Map<string, { claims: Record<string, unknown> }>;
  /**
   * Set when the request carries a site token (src/domain/sites/site-tokens.ts)
   * instead of an API token: there is no viewer, and the token reads the
   * published content of one site only.
   */
  siteToken?: {
    organizationId: string;
    siteId: string;
    siteSpaceId: string;
    spaceId: string;
    claims: Record<string, unknown>;
    spaceIds: ReadonlySet<string>;
  };
  /**
   * Set while an answer may be cached: the organizations the viewer read without
   * being a member (published sites), each with its data generation read before
   * their data, so that a write there drops the cached answer.
   */
  foreignScopes?: Map<string, Promise<string>>;
  /**
   * Set while an answer may be cached: the spaces this request read, each with
   * its organization (src/domain/generations.ts noteSpaceRead), so that an answer
   * of one space depends on that space and its organization's own rows only.
   */
  spaceReads?: Map<string, string>;
  /**
   * Set while an answer may be cached: the bodies read as stand-ins (their parse
   * went past its budget, src/domain/content/bodies.ts). An answer holding one is
   * not cached, as the next read may parse the body.
   */
  standIns?: Set<string>;
  /**
   * Throws when the request must stop (out of time, its client gone). Every
   * data access checks it (src/domain/loaders.ts); set by the GraphQL limits.
   */
  checkBudget?: () => void;
  /**
   * Runs a statement that answers one JSON text on the driver itself
   * (src/domain/reads.ts); absent inside transactions, which read through `db`.
   */
  readText?: Database['readText'];
  /** Where committed writes announce their events (src/events/bus.ts); absent where no one listens (seeds). */
  events?: EventSink;
  /** Inside a transaction: its events, published once it commits (src/domain/transaction.ts), never if it rolls back. */
  pendingEvents?: DomainEvent[];
  /** Inside a transaction: what it wrote, recorded in the audit log by the same transaction (src/domain/audit/). */
  pendingAudit?: AuditEntry[];
  /** Where the request comes from, as the audit log records it; absent for the CLI and seeds (recorded as a script). */
  origin?: RequestOrigin;
  /** How long audit events are kept, in days (0: for ever); read by the retention job. */
  auditRetentionDays?: number;
  /** The instance's live streams (GraphQL subscriptions); absent outside the HTTP server. */
  streams?: EventStreams;
  /**
   * The token behind the request: its key (per-token limits), the client's
   * address (per-address limits) and the viewer it names now — a long-lived
   * stream asks again at each event, so a revoked token or a removed user ends it.
   */
  credentials?: { key: string; address: string; viewer(): Promise<Viewer | null> };
  /** Aborted when the HTTP client goes away (a stream then ends); absent outside HTTP. */
  clientGone?: AbortSignal;
  /** Closes the HTTP connection unless its answer has ended: a stream whose client stopped reading is not kept open. */
  abortConnection?: () => void;
}

/** Where Git sync keeps its clone caches, and what a repository may hold (src/domain/git/). */
export interface GitSyncSettings {
  cacheDir: string;
  limits: { maxRepoBytes: number; maxFileBytes: number; maxPages: number; timeoutMs: number };
  /** The key that encrypts bound repositories' credentials and hook secrets (GIT_CREDENTIALS_KEY): 32 bytes; binding is refused without it. */
  credentialsKey?: Buffer;
  /** How often bound branches are polled for pushes no webhook announced (GIT_POLL_INTERVAL_SECONDS). */
  pollIntervalMs?: number;
}

/** One write as the audit log records it: what was done to what, in which organization (src/domain/audit/). */
export interface AuditEntry {
  /** A stable action name of src/domain/audit/actions.ts, e.g. `space.update`. */
  action: string;
  organizationId: string;
  target: { type: string; id: string; label?: string | undefined };
  /** A few facts of the action (ids, names): no content. */
  payload?: Record<string, unknown> | undefined;
  /** Who, when the context has no viewer (a job acting for the user who queued it). */
  actor?: { id: string; label?: string | undefined } | undefined;
}

/** Who sent a request and from where: the source, the client's address and user agent (the token is the viewer's). */
export interface RequestOrigin {
  /** api: a request over HTTP (REST or GraphQL); script: the CLI; workflow: background jobs. */
  source: 'api' | 'script' | 'workflow';
  address?: string | undefined;
  userAgent?: string | undefined;
  requestId?: string | undefined;
}

export interface ContextOptions {
  database: Pick<Database, 'db' | 'provider'> & Partial<Pick<Database, 'readText'>>;
  viewer: Viewer | null;
  clock: Clock;
  urls: PublicUrls;
  storage?: FileStorage | undefined;
  pageTreeCache?: RevisionCache | undefined;
  fetchPrivateAddresses?: boolean | undefined;
  openApiFetch?: { timeoutMs: number; maxBytes: number } | undefined;
  gitSync?: GitSyncSettings | undefined;
  jobs?: JobSender | undefined;
  events?: EventSink | undefined;
  auditRetentionDays?: number | undefined;
  webhooks?: WebhookSettings | undefined;
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
  gitSync,
  jobs,
  events,
  auditRetentionDays,
  webhooks,
}: ContextOptions): RequestContext {
  return {
    db: database.db,
    provider: database.provider,
    viewer,
    loaders: new Map(),
    clock,
    urls,
    siteVisits: new Map(),
    ...(database.readText ? { readText: database.readText } : {}),
    ...(storage ? { storage } : {}),
    ...(pageTreeCache ? { pageTreeCache } : {}),
    ...(fetchPrivateAddresses ? { fetchPrivateAddresses } : {}),
    ...(openApiFetch ? { openApiFetch } : {}),
    ...(gitSync ? { gitSync } : {}),
    ...(jobs ? { jobs } : {}),
    ...(events ? { events } : {}),
    ...(auditRetentionDays !== undefined ? { auditRetentionDays } : {}),
    ...(webhooks ? { webhooks } : {}),
  };
}

/** The same context acting inside a transaction: reads and writes go through `tx`, with fresh loaders. */
export function withDb(ctx: RequestContext, db: Db): RequestContext {
  const { pageTreeCache: _sharedTrees, readText: _outsideTheTransaction, sharedLoaders: _sharedOutside, ...rest } = ctx;
  return { ...rest, db, loaders: new Map(), viewer: withoutMembershipSnapshot(ctx.viewer) };
}

/** The viewer without the memberships read at authentication: they may have changed by a write. */
export function withoutMembershipSnapshot(viewer: Viewer | null): Viewer | null {
  return viewer && { user: viewer.user, ...(viewer.tokenId ? { tokenId: viewer.tokenId } : {}) };
}

/** The request's DataLoaders by definition (src/domain/loaders.ts), so their caches never outlive it. */
export type LoaderRegistry = Map<object, DataLoader<unknown, unknown>>;

/**
 * Values derived from revisions, kept between requests: a revision never
 * changes once written (src/domain/content/tree.ts keeps page trees here).
 */
export interface RevisionCache {
  has(revisionId: string): boolean;
  get(revisionId: string): object | undefined;
  set(revisionId: string, value: object): unknown;
}

// Background jobs, as the domain defines them and queues them through `ctx.jobs`
// (src/jobs/ runs them: pg-boss on PostgreSQL, in-process on SQLite).

/** One kind of job: what it does and how failures are retried. */
export interface JobKind<Data extends object = object> {
  name: string;
  /** Attempts after the first before the job is marked failed. */
  retryLimit: number;
  /** An attempt running longer than this is considered lost and retried. */
  timeoutSeconds: number;
  /**
   * Does the work, in a context of its own with no viewer (no permissions to
   * check: whoever queued the job was checked then). What it returns is added
   * to the job's log line, and is what `call` answers with. A DomainError it
   * throws is the client's and ends the job (retrying cannot help): `call`
   * rethrows it where the job was queued.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a job may return nothing at all
  run(ctx: RequestContext, data: Data, job: { id: string; attempt: number }): Promise<void | Record<string, unknown>>;
  /**
   * Whether what a run returned says it found nothing to do: its line is then
   * logged at debug, not info, so that a periodic job does not say "nothing"
   * at every interval (and at every start, among the lines a person reads).
   */
  idle?(output: Record<string, unknown>): boolean;
}

/**
 * A kind whatever its data: the queue handles kinds of every data type alike,
 * and a kind's `run` takes its own data (parameters are contravariant, so no
 * narrower type holds them all).
 */
// biome-ignore lint/suspicious/noExplicitAny: see above
export type AnyJobKind = JobKind<any>;

export interface SendOptions {
  /** At most one job of this kind per window of this many seconds, across every instance. */
  oncePerSeconds?: number;
}

export interface CallOptions {
  timeoutMs: number;
}

/** What a finished job leaves: its run's result, or the client error that refused it. */
export type JobOutput = Record<string, unknown> & { refused?: { status: ErrorStatus; message: string } };

/** How the domain queues jobs (src/jobs/queue.ts `jobSender`). */
export interface JobSender {
  /** Queues a job; its id, or null when the window of `oncePerSeconds` already has one. */
  send<Data extends object>(kind: JobKind<Data>, data: Data, options?: SendOptions): Promise<string | null>;
  /**
   * Queues a job and waits for its end, for work a request answers with
   * (website imports, PDFs) but that any instance may run. Resolves to the
   * job's output; rejects when its last attempt failed, or with a 503 when it
   * has not ended within `timeoutMs`.
   */
  call<Data extends object>(kind: JobKind<Data>, data: Data, options: CallOptions): Promise<JobOutput>;
}
