import type { RequestContext, Viewer } from '../../context.ts';
import { DomainError, unauthenticated, unavailable } from '../../errors.ts';
import { type DomainEvent, EVENT_KINDS, type EventKind } from '../../events/event.ts';
import { topics } from '../../events/streams.ts';
import { changeRequestById, visibleChangeRequest } from '../change-requests/service.ts';
import { specById } from '../openapi/service.ts';
import { authorize, organizationSiteLevel, sitePermissions } from '../access.ts';
import { organizationAccess, visibleOrganization } from '../organizations/service.ts';
import { visibleSite } from '../sites/records.ts';
import { visibleSpace } from '../spaces/service.ts';
import { requireViewer } from '../users/service.ts';

/** An event to deliver, or the error that ends the stream (the last item). */
export type EventItem = DomainEvent | DomainError;

/** The kinds of the event list (src/events/event.ts) under these prefixes. */
const kindsUnder = (...prefixes: string[]) => EVENT_KINDS.filter((kind) => prefixes.some((prefix) => kind.startsWith(prefix)));
const COMMENT_KINDS = kindsUnder('comment.', 'reply.');
const CHANGE_REQUEST_KINDS = kindsUnder('change_request.');
/** What happens to the space itself: a follower learns it was deleted, restored or moved (to another organization, too). */
const SPACE_LIFECYCLE_KINDS: EventKind[] = ['space.updated', 'space.moved', 'space.deleted', 'space.restored'];
const SPACE_STREAM = new Set<EventKind>([
  'space.content_updated',
  'space.git_synced',
  'space.git_sync_failed',
  'space.git_sync_conflict',
  ...SPACE_LIFECYCLE_KINDS,
  ...CHANGE_REQUEST_KINDS,
  ...COMMENT_KINDS,
]);
const CHANGE_REQUEST_STREAM = new Set<EventKind>([...CHANGE_REQUEST_KINDS, ...COMMENT_KINDS]);
/** Spaces created or gone (not their content), sites, specs and jobs. */
const ORGANIZATION_STREAM = new Set<EventKind>([
  'space.created',
  ...SPACE_LIFECYCLE_KINDS,
  'space.transferred_out',
  ...kindsUnder('site.', 'openapi_spec.', 'job.'),
]);

/**
 * What a stream follows: its topic (src/events/streams.ts), which of the
 * topic's events it takes, what the viewer must still be allowed when each
 * arrives (else the stream ends with that error), and whether the viewer may
 * see the event's own object (else it is skipped).
 */
interface Watch {
  topic: string;
  accept(event: DomainEvent): boolean;
  authorize(ctx: RequestContext): Promise<unknown>;
  visible?(ctx: RequestContext, event: DomainEvent): Promise<unknown>;
}

/** A space's content merges, its change requests and their comments, for whoever may read the space. */
export async function spaceEvents(ctx: RequestContext, spaceId: string): Promise<AsyncIterableIterator<EventItem>> {
  const watch: Watch = {
    topic: topics.space(spaceId),
    accept: (event) => event.spaceId === spaceId && SPACE_STREAM.has(event.kind),
    authorize: (viewing) => visibleSpace(viewing, spaceId),
  };
  return openWatch(ctx, watch);
}

/** One change request: its status, subject and content, and its comments and replies. */
export async function changeRequestEvents(ctx: RequestContext, changeRequestId: string): Promise<AsyncIterableIterator<EventItem>> {
  requireViewer(ctx);
  const { space } = await changeRequestById(ctx, changeRequestId);
  const watch: Watch = {
    topic: topics.changeRequest(changeRequestId),
    accept: (event) => event.changeRequestId === changeRequestId && CHANGE_REQUEST_STREAM.has(event.kind),
    authorize: (viewing) => visibleChangeRequest(viewing, space.id, changeRequestId),
  };
  return openWatch(ctx, watch);
}

/** Spaces created, updated, moved, deleted or transferred away, sites published or deleted, specs processed, jobs finished: for members, each as they may see it. */
export async function organizationEvents(ctx: RequestContext, organizationId: string): Promise<AsyncIterableIterator<EventItem>> {
  const watch: Watch = {
    topic: topics.organization(organizationId),
    accept: (event) => event.organizationId === organizationId && ORGANIZATION_STREAM.has(event.kind),
    authorize: (viewing) => visibleOrganization(viewing, organizationId),
    visible: async (viewing, event) => {
      // A deleted site is no longer there to check: whoever may see the organization's sites hears it went.
      if (event.kind === 'site.deleted')
        return authorize(sitePermissions(organizationSiteLevel(await organizationAccess(viewing, organizationId))).view, 'see its sites');
      if (event.kind.startsWith('site.')) return visibleSite(viewing, organizationId, event.subjectId);
      // Gone to another organization: its admins hear it left, and whoever can still read it there.
      if (event.kind === 'space.transferred_out' && (await organizationAccess(viewing, organizationId)).role === 'admin') return;
      if (event.kind === 'openapi_spec.processed') return specById(viewing, event.subjectId);
      return visibleSpace(viewing, event.spaceId!);
    },
  };
  return openWatch(ctx, watch);
}

/**
 * Work the streams handling the same occasion (an event, or a check of their
 * owners after a change) share: the viewer behind a token, a permission check
 * per viewer and watch, the loaders per viewer. A thousand streams of a
 * hundred users cost a hundred checks, not a thousand.
 */
const sharedWork = new WeakMap<object, Map<string, unknown>>();

function shared<T>(occasion: object, key: string, make: () => T): T {
  let work = sharedWork.get(occasion);
  if (!work) sharedWork.set(occasion, (work = new Map()));
  if (!work.has(key)) work.set(key, make());
  return work.get(key) as T;
}

/** The viewer's identity and data generations: viewers equal in these read the same data. */
export const scopeOf = (viewer: Viewer) => `${viewer.user.id}@${viewer.generation ?? ''}`;

const TOKEN_GONE = 'The API token of this subscription is no longer valid';

/**
 * Checks the viewer may follow now, then opens the stream on the instance's
 * registry (a 429 when its owner holds the most streams allowed). Each event
 * is checked when it is delivered, the viewer named by the token as it is now
 * (the viewer cache: exact, on every instance): a revoked token, a lowered role
 * or a removed membership ends the stream with its error — at once, when the
 * registry hears the user changed, not only at the next event.
 */
async function openWatch(ctx: RequestContext, watch: Watch): Promise<AsyncIterableIterator<EventItem>> {
  const user = requireViewer(ctx);
  await watch.authorize(ctx);
  if (!ctx.streams || !ctx.credentials) throw unavailable('Live updates are served by the HTTP server only');
  const { credentials, streams } = ctx;
  /** The viewer now, the check of the watch, and loaders, shared with the other streams of the occasion. */
  const check = async (occasion: object): Promise<{ viewing: RequestContext } | DomainError | 'unknown'> => {
    const viewer = await shared(occasion, `viewer ${credentials.key}`, () => credentials.viewer()).catch(() => undefined);
    // The database did not answer: nothing is known.
    if (viewer === undefined) return 'unknown';
    if (!viewer) return unauthenticated(TOKEN_GONE);
    const scope = scopeOf(viewer);
    // One context per viewer for the occasion, whichever of its streams made it: its own loaders, the rows shared by all.
    const viewing = shared<RequestContext>(occasion, `viewing ${scope}`, () => ({
      ...ctx,
      viewer,
      loaders: new Map(),
      sharedLoaders: shared(occasion, 'loaders of rows', () => new Map()),
    }));
    const allowed = await shared(occasion, `allowed ${scope} ${watch.topic}`, () => verdict(() => watch.authorize(viewing)));
    return allowed === 'allowed' ? { viewing } : allowed;
  };
  const stream = streams.open({
    owner: { tokenKey: credentials.key, userId: user.id, address: credentials.address },
    topic: watch.topic,
    accept: watch.accept,
    abort: ctx.abortConnection,
    recheck: async (occasion) => {
      const outcome = await check(occasion);
      return outcome instanceof DomainError ? outcome : undefined;
    },
  });
  // A client that goes away releases its stream at once, whatever the server it runs on does with the answer.
  const signal = ctx.clientGone;
  signal?.addEventListener('abort', () => stream.close(), { once: true });
  if (signal?.aborted) stream.close();
  // Answered once it hears every instance: a write made right after the answer started is not missed.
  await streams.ready();
  let ended = false;
  const finish = (): IteratorResult<EventItem> => {
    ended = true;
    stream.close();
    return { done: true, value: undefined };
  };
  const iterator: AsyncIterableIterator<EventItem> = {
    [Symbol.asyncIterator]: () => iterator,
    async next() {
      for (;;) {
        if (ended) return { done: true, value: undefined };
        const item = await stream.next();
        if (item.done) return finish();
        if (item.value instanceof DomainError) {
          // The last item, read by the client: the stream is done with.
          finish();
          return item;
        }
        const event = item.value;
        const outcome = await check(event);
        if (outcome === 'unknown') continue; // this event is skipped, the stream lives on
        if (outcome instanceof DomainError) {
          finish();
          return { done: false, value: outcome };
        }
        const { viewing } = outcome;
        if (watch.visible) {
          const visible = await shared(event, `visible ${scopeOf(viewing.viewer!)} ${watch.topic}`, () => verdict(() => watch.visible!(viewing, event)));
          if (visible !== 'allowed') continue;
        }
        // The event's objects are read as a new request would, through the loaders of this event and viewer.
        ctx.viewer = viewing.viewer;
        ctx.loaders = viewing.loaders;
        ctx.sharedLoaders = viewing.sharedLoaders;
        streams.sent();
        return { done: false, value: event };
      }
    },
    async return() {
      return finish();
    },
  };
  return iterator;
}

/** A permission check's outcome: allowed, its 403 or 404, or unknown (the database did not answer: the event is skipped). */
async function verdict(check: () => Promise<unknown>): Promise<'allowed' | 'unknown' | DomainError> {
  try {
    await check();
    return 'allowed';
  } catch (error) {
    if (error instanceof DomainError && (error.status === 403 || error.status === 404)) return error;
    return 'unknown';
  }
}
