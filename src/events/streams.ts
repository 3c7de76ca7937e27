import { type DomainError, tooManyRequests, unavailable } from '../errors.ts';
import type { EventBus } from './bus.ts';
import type { DomainEvent } from './event.ts';

/** How many live streams one token may hold open, and how far one may fall behind. */
export interface StreamLimits {
  /** Open streams per token on this instance (`SUBSCRIPTIONS_PER_TOKEN`); one more is refused with 429. */
  maxPerToken: number;
  /** Events waiting for a client that does not read; one more and the stream is dropped. */
  maxQueuedEvents: number;
  /** How long a stream ended by the server (dropped, drained) waits for its client to read the end before its connection is closed. */
  endGraceMs: number;
}

export const DEFAULT_STREAM_LIMITS: StreamLimits = { maxPerToken: 10, maxQueuedEvents: 1_000, endGraceMs: 10_000 };

/**
 * One subscriber's events, in order, as an async iterator: it ends (`done`)
 * when the client goes away or the server drains; an item that is an error is
 * the last one (the stream was dropped or the server is stopping).
 */
export interface EventStream extends AsyncIterator<DomainEvent | DomainError> {
  close(): void;
}

/**
 * The live streams of one instance: each hears the bus through one listener,
 * keeps the events its filter accepts in a bounded queue, and counts against
 * its token. `drain` ends them all, each after the events it holds.
 */
export interface EventStreams {
  /** `abort` closes the client's connection unless its answer ended: called a while after the server ended the stream. */
  open(tokenKey: string, accept: (event: DomainEvent) => boolean, abort?: () => void): EventStream;
  /** Resolves once streams hear what every instance publishes. */
  ready(): Promise<void>;
  /** Ends every stream once the events this instance published have reached them; new streams are refused. */
  drain(): Promise<void>;
  stats(): { open: number; sent: number; dropped: number };
  /** Counts an event a stream delivered to its client (after its permission check). */
  sent(): void;
}

export const SHUTTING_DOWN = 'The server is shutting down: subscribe again (another instance, or this one restarted, will answer)';

export function createEventStreams(bus: EventBus, limits: StreamLimits = DEFAULT_STREAM_LIMITS): EventStreams {
  const open = new Set<Stream>();
  const perToken = new Map<string, number>();
  let draining = false;
  let sent = 0;
  let dropped = 0;

  interface Stream extends EventStream {
    deliver(event: DomainEvent, localNumber?: number): void;
    end(reason?: DomainError): void;
  }

  // Heard from the first stream on: an instance that serves none holds no listener.
  let listening = false;
  const listen = () => {
    if (listening) return;
    listening = true;
    bus.subscribe((event, localNumber) => {
      for (const stream of open) stream.deliver(event, localNumber);
    });
  };

  return {
    open(tokenKey, accept, abort) {
      if (draining) throw unavailable(SHUTTING_DOWN);
      listen();
      const held = perToken.get(tokenKey) ?? 0;
      if (held >= limits.maxPerToken) {
        throw tooManyRequests(`This token already holds ${held} open subscriptions, the most allowed (SUBSCRIPTIONS_PER_TOKEN): close one first`);
      }
      perToken.set(tokenKey, held + 1);

      const queue: Array<DomainEvent | DomainError> = [];
      let waiting: ((result: IteratorResult<DomainEvent | DomainError>) => void) | undefined;
      let ended = false;
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        open.delete(stream);
        const count = (perToken.get(tokenKey) ?? 1) - 1;
        if (count > 0) perToken.set(tokenKey, count);
        else perToken.delete(tokenKey);
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
      const stream: Stream = {
        deliver(event, localNumber) {
          if (ended || (localNumber !== undefined && localNumber <= since) || !accept(event)) return;
          if (queue.length >= limits.maxQueuedEvents) {
            // A client that does not read is not buffered for without bound.
            dropped++;
            queue.length = 0;
            stream.end(unavailable(`This subscription fell ${limits.maxQueuedEvents} events behind and was dropped: read faster, or subscribe to less`));
            return;
          }
          push(event);
        },
        end(reason) {
          if (ended) return;
          ended = true;
          if (reason) push(reason);
          release();
          // A client that stopped reading would keep its connection (and what serves it) forever:
          // `abort` closes it unless its answer has ended by then.
          if (reason && abort) setTimeout(abort, limits.endGraceMs).unref();
          if (waiting && !queue.length) {
            const resolve = waiting;
            waiting = undefined;
            resolve({ done: true, value: undefined });
          }
        },
        next() {
          const item = queue.shift();
          if (item !== undefined) return Promise.resolve({ done: false, value: item });
          if (ended) return Promise.resolve({ done: true, value: undefined });
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
      return stream;
    },
    async drain() {
      draining = true;
      // Events of writes this instance committed are on their way back through the bus: wait for them.
      await bus.flush();
      for (const stream of [...open]) stream.end(unavailable(SHUTTING_DOWN));
    },
    ready: () => bus.ready(),
    stats: () => ({ open: open.size, sent, dropped }),
    sent: () => void sent++,
  };
}
