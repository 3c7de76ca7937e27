import type { GenerationBump, GenerationFeed } from '../db/generation-feed.ts';
import { type DomainError, TooManyRequests, idleTimeout, unavailable } from '../errors.ts';
import type { EventBus } from './bus.ts';
import type { DomainEvent } from './event.ts';

/** How many live streams a client may hold open, how long one may stay silent, and how far one may fall behind. */
export interface StreamLimits {
  /** Open streams per token on this instance (`SUBSCRIPTIONS_PER_TOKEN`); one more is refused with 429. */
  maxPerToken: number;
  /** Open streams per user, all its tokens together, on this instance (`SUBSCRIPTIONS_PER_USER`). */
  maxPerUser: number;
  /** Open streams per client address on this instance (`SUBSCRIPTIONS_PER_ADDRESS`). */
  maxPerAddress: number;
  /** A stream that hears no event for this long is ended (`SUBSCRIPTION_IDLE_SECONDS`): its client subscribes again. */
  idleMs: number;
  /** Events waiting for a client that does not read; one more and the stream is dropped. */
  maxQueuedEvents: number;
  /** How long a stream ended by the server (dropped, drained, idle) waits for its client to read the end before its connection is closed. */
  endGraceMs: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  maxPerToken: 10,
  maxPerUser: 20,
  maxPerAddress: 100,
  idleMs: 30 * 60_000,
  maxQueuedEvents: 1_000,
  endGraceMs: 10_000,
};

/** What a refused stream's Retry-After says: streams are held until closed, so a short while. */
export const STREAM_RETRY_AFTER_SECONDS = 10;

/** Whom a stream counts against. */
export interface StreamOwner {
  /** The token's key (a digest, never the token). */
  tokenKey: string;
  userId: string;
  /** The client's IP address. */
  address: string;
}

/** What events reach a stream: those of one organization, space or change request (`topics`). */
export const topics = {
  organization: (id: string) => `organization:${id}`,
  space: (id: string) => `space:${id}`,
  changeRequest: (id: string) => `change_request:${id}`,
};

function topicsOf(event: DomainEvent): string[] {
  const of = [topics.organization(event.organizationId)];
  if (event.spaceId) of.push(topics.space(event.spaceId));
  if (event.changeRequestId) of.push(topics.changeRequest(event.changeRequestId));
  return of;
}

export interface StreamSpec {
  owner: StreamOwner;
  /** The one topic it follows: no other event is even offered to it. */
  topic: string;
  /** Which of the topic's events it takes. */
  accept(event: DomainEvent): boolean;
  /** Closes the client's connection unless its answer ended: called a while after the server ended the stream. */
  abort?: (() => void) | undefined;
  /**
   * Whether its owner may still follow it, asked when the owner's data changed on any instance
   * (a token revoked, a membership removed or changed): the error that ends it, or nothing.
   * The streams asked together share `occasion` (to share their reads).
   */
  recheck?: ((occasion: object) => Promise<DomainError | undefined>) | undefined;
}

/**
 * One subscriber's events, in order, as an async iterator: it ends (`done`)
 * when the client goes away or the server drains; an item that is an error is
 * the last one (the stream was dropped, idle, refused its owner, or the server is stopping).
 */
export interface EventStream extends AsyncIterator<DomainEvent | DomainError> {
  close(): void;
}

/**
 * The live streams of one instance, indexed by topic: an event is offered once
 * to the streams of its organization, space and change request, in slices
 * (other work runs between them), never to every stream. Each keeps what its
 * filter accepts in a bounded queue and counts against its token, user and
 * address. When a user's data changes (the data generations: src/db/generation-feed.ts)
 * its streams are asked again at once. `drain` ends them all, each after the events it holds.
 */
export interface EventStreams {
  /** Opens a stream, or throws a 429 when its owner holds the most allowed (a 503 while draining). */
  open(spec: StreamSpec): EventStream;
  /** Resolves once streams hear what every instance publishes. */
  ready(): Promise<void>;
  /** Ends every stream once the events this instance published have reached them; new streams are refused. */
  drain(): Promise<void>;
  stats(): { open: number; sent: number; dropped: number };
  /** Counts an event a stream delivered to its client (after its permission check). */
  sent(): void;
}

export interface EventStreamsOptions {
  /**
   * The data generations: announcements of changes to users end their streams at once, and
   * events are offered only once the changes committed before them were heard (an event from
   * another instance can outrun them).
   */
  generations?: Pick<GenerationFeed, 'subscribe' | 'barrier'> | undefined;
}

export const SHUTTING_DOWN = 'The server is shutting down: subscribe again (another instance, or this one restarted, will answer)';

/** Streams offered an event, or events handed to their streams' readers, in one turn of the event loop; requests are served between turns. */
const SLICE = 25;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Turns of the event loop, each for at most SLICE callers: what a caller does once its turn came
 * (until it waits for I/O) runs before the next turn, and requests are served between turns. A
 * stream's reader goes on, for each event, from reading the viewer to writing the answer in one
 * go: without turns, a thousand streams each holding events would run all of them before the server
 * read anything else.
 */
function turns(): () => Promise<void> {
  const waiting: Array<() => void> = [];
  let scheduled = false;
  const run = () => {
    for (const resolve of waiting.splice(0, SLICE)) resolve();
    scheduled = waiting.length > 0;
    if (scheduled) setImmediate(run);
  };
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (!scheduled) {
        scheduled = true;
        setImmediate(run);
      }
    });
}

export function createEventStreams(bus: EventBus, limits: StreamLimits = DEFAULT_STREAM_LIMITS, options: EventStreamsOptions = {}): EventStreams {
  const open = new Set<Stream>();
  const byTopic = new Map<string, Set<Stream>>();
  const byUser = new Map<string, Set<Stream>>();
  const counts = { token: new Map<string, number>(), user: new Map<string, number>(), address: new Map<string, number>() };
  let draining = false;
  const turn = turns();
  let sent = 0;
  let dropped = 0;

  interface Stream extends EventStream {
    spec: StreamSpec;
    deliver(event: DomainEvent, localNumber?: number): void;
    end(reason?: DomainError): void;
  }

  const add = (index: Map<string, Set<Stream>>, key: string, stream: Stream) => {
    let set = index.get(key);
    if (!set) index.set(key, (set = new Set()));
    set.add(stream);
  };
  const remove = (index: Map<string, Set<Stream>>, key: string, stream: Stream) => {
    const set = index.get(key);
    set?.delete(stream);
    if (set?.size === 0) index.delete(key);
  };
  const count = (map: Map<string, number>, key: string, by: 1 | -1) => {
    const value = (map.get(key) ?? 0) + by;
    if (value > 0) map.set(key, value);
    else map.delete(key);
  };

  // Events in order, each offered once the changes committed before it are known.
  const pending: Array<[DomainEvent, number | undefined]> = [];
  let fanning: Promise<void> | undefined;
  const fanOut = async () => {
    while (pending.length) {
      const batch = pending.splice(0);
      const remote = batch.some(([, localNumber]) => localNumber === undefined);
      await options.generations?.barrier(remote ? { everything: true } : undefined).catch(() => {});
      for (const [event, localNumber] of batch) {
        const targets: Stream[] = [];
        for (const topic of topicsOf(event)) for (const stream of byTopic.get(topic) ?? []) targets.push(stream);
        for (let at = 0; at < targets.length; at++) {
          if (at > 0 && at % SLICE === 0) await nextTurn();
          try {
            targets[at]!.deliver(event, localNumber);
          } catch {
            // One stream's failure is not the others'.
          }
        }
      }
    }
  };
  const settled = async () => {
    while (fanning) await fanning;
  };

  // Users whose data changed: their streams are asked again, together, on a later turn.
  let recheckAll = false;
  const toRecheck = new Set<string>();
  let rechecking = false;
  const heard = (bumps: readonly GenerationBump[]) => {
    for (const { scope } of bumps) {
      if (scope === '*') recheckAll = true;
      else if (byUser.has(scope)) toRecheck.add(scope);
    }
    if ((recheckAll || toRecheck.size) && !rechecking) {
      rechecking = true;
      setImmediate(() => void recheck());
    }
  };
  const recheck = async () => {
    const users = recheckAll ? [...byUser.keys()] : [...toRecheck];
    recheckAll = false;
    toRecheck.clear();
    rechecking = false;
    const occasion = {};
    const streams = users.flatMap((user) => [...(byUser.get(user) ?? [])]);
    for (let at = 0; at < streams.length; at++) {
      if (at > 0 && at % SLICE === 0) await nextTurn();
      const stream = streams[at]!;
      stream.spec.recheck?.(occasion).then(
        (refusal) => refusal && stream.end(refusal),
        // Unknown (the database did not answer): the next event asks again.
        () => {},
      );
    }
  };

  // Heard from the first stream on: an instance that serves none holds no listener.
  let listening = false;
  const listen = () => {
    if (listening) return;
    listening = true;
    bus.subscribe((event, localNumber) => {
      pending.push([event, localNumber]);
      fanning ??= fanOut().finally(() => (fanning = undefined));
    });
    options.generations?.subscribe(heard);
  };

  const refuse = (held: number, what: string, setting: string) =>
    new TooManyRequests(`${what} already holds ${held} open subscriptions, the most allowed (${setting}): close one first`, STREAM_RETRY_AFTER_SECONDS);

  return {
    open(spec) {
      if (draining) throw unavailable(SHUTTING_DOWN);
      const { owner } = spec;
      const heldByToken = counts.token.get(owner.tokenKey) ?? 0;
      if (heldByToken >= limits.maxPerToken) throw refuse(heldByToken, 'This token', 'SUBSCRIPTIONS_PER_TOKEN');
      const heldByUser = counts.user.get(owner.userId) ?? 0;
      if (heldByUser >= limits.maxPerUser) throw refuse(heldByUser, 'This user (with all its tokens)', 'SUBSCRIPTIONS_PER_USER');
      const heldByAddress = counts.address.get(owner.address) ?? 0;
      if (heldByAddress >= limits.maxPerAddress) throw refuse(heldByAddress, 'This address', 'SUBSCRIPTIONS_PER_ADDRESS');
      listen();

      const queue: Array<DomainEvent | DomainError> = [];
      let waiting: ((result: IteratorResult<DomainEvent | DomainError>) => void) | undefined;
      let ended = false;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        clearTimeout(idle);
        open.delete(stream);
        remove(byTopic, spec.topic, stream);
        remove(byUser, owner.userId, stream);
        count(counts.token, owner.tokenKey, -1);
        count(counts.user, owner.userId, -1);
        count(counts.address, owner.address, -1);
      };
      const push = (item: DomainEvent | DomainError) => {
        if (waiting) {
          const resolve = waiting;
          waiting = undefined;
          resolve({ done: false, value: item });
        } else queue.push(item);
      };
      // This instance's events published before the stream opened are not its own, though they arrive after.
      const since = bus.published();
      const idleMinutes = Math.round(limits.idleMs / 60_000);
      const idle = setTimeout(
        () =>
          stream.end(
            idleTimeout(
              `This subscription heard no event for ${idleMinutes >= 1 ? `${idleMinutes} minutes` : `${Math.round(limits.idleMs / 1000)} seconds`} and was ended (SUBSCRIPTION_IDLE_SECONDS): subscribe again`,
            ),
          ),
        limits.idleMs,
      ).unref();
      const stream: Stream = {
        spec,
        deliver(event, localNumber) {
          if (ended || (localNumber !== undefined && localNumber <= since) || !spec.accept(event)) return;
          if (queue.length >= limits.maxQueuedEvents) {
            // A client that does not read is not buffered for without bound.
            dropped++;
            queue.length = 0;
            stream.end(unavailable(`This subscription fell ${limits.maxQueuedEvents} events behind and was dropped: read faster, or subscribe to less`));
            return;
          }
          idle.refresh();
          push(event);
        },
        end(reason) {
          if (ended) return;
          ended = true;
          if (reason) push(reason);
          release();
          // A client that stopped reading would keep its connection (and what serves it) forever:
          // `abort` closes it unless its answer has ended by then.
          if (reason && spec.abort) setTimeout(spec.abort, limits.endGraceMs).unref();
          if (waiting && !queue.length) {
            const resolve = waiting;
            waiting = undefined;
            resolve({ done: true, value: undefined });
          }
        },
        async next() {
          // Each event in its turn, however many this and the other streams hold.
          await turn();
          const item = queue.shift();
          if (item !== undefined) return { done: false, value: item };
          if (ended) return { done: true, value: undefined };
          return new Promise((resolve) => (waiting = resolve));
        },
        async return() {
          stream.close();
          return { done: true, value: undefined };
        },
        close() {
          queue.length = 0;
          stream.end();
        },
      };
      open.add(stream);
      add(byTopic, spec.topic, stream);
      add(byUser, owner.userId, stream);
      count(counts.token, owner.tokenKey, 1);
      count(counts.user, owner.userId, 1);
      count(counts.address, owner.address, 1);
      return stream;
    },
    async drain() {
      draining = true;
      // Events of writes this instance committed are on their way back through the bus: wait for them.
      await bus.flush();
      await settled();
      for (const stream of [...open]) stream.end(unavailable(SHUTTING_DOWN));
    },
    ready: () => bus.ready(),
    stats: () => ({ open: open.size, sent, dropped }),
    sent: () => void sent++,
  };
}
