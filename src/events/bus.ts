import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Database } from '../db/index.ts';
import type { DomainEvent, EventSink } from './event.ts';
import { pgDriver } from '../db/pg-driver.ts';

/**
 * Carries committed events to every instance's subscribers. An instance's own
 * events reach its own listeners at once, in process; other instances hear
 * them through Redis pub/sub when `REDIS_URL` is set, else through PostgreSQL
 * LISTEN/NOTIFY (SQLite serves one instance: nothing travels). Delivery to
 * other instances is at most once: an instance that dies between a commit and
 * its publish, or a Redis that is down, loses those events; a subscriber that
 * reconnects reads the objects again.
 */
export interface EventBus extends EventSink {
  readonly transport: 'redis' | 'postgresql' | 'process';
  /**
   * Hears every event published from now on, by this instance and (once `ready` resolved) by the
   * others. An event of this instance comes with its number in `published()`'s count (it reaches
   * listeners on a later turn: one that started following meanwhile tells it is older); another
   * instance's comes without.
   */
  subscribe(listener: (event: DomainEvent, localNumber?: number) => void): () => void;
  /** How many events this instance has published so far. */
  published(): number;
  /** Resolves once listeners hear what other instances publish (the first subscription connects the listener), or after a bounded wait. */
  ready(): Promise<void>;
  /** Resolves once the events this instance published so far have reached its own listeners. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface EventBusOptions {
  database: Pick<Database, 'provider' | 'url' | 'readRows'>;
  redisUrl?: string | undefined;
  redisPrefix?: string | undefined;
  log: { warn(object: unknown, message: string): void };
}

export const EVENTS_CHANNEL = 'docs_gateway_events';
/** The `application_name` of the listening connection, as pg_stat_activity shows it. */
export const EVENTS_LISTENER = 'docs-gateway events';

/** How long a subscription waits for a listener that does not connect (Redis or PostgreSQL down) before it is answered. */
const READY_TIMEOUT_MS = 2_000;
const RECONNECT_DELAY_MS = 500;
/** How often the PostgreSQL listener proves it is alive. */
const PING_INTERVAL_MS = 5_000;

/** An event on the wire, with the instance that published it (which heard it already). */
interface WireMessage {
  origin: string;
  event: DomainEvent;
}

/** How events leave this instance, and how it hears the others'. */
interface Transport {
  readonly name: EventBus['transport'];
  send(message: WireMessage): void;
  /** Starts hearing other instances (called with the first listener); resolves once it does. */
  listen(hear: (message: WireMessage) => void): Promise<void>;
  close(): Promise<void>;
}

export async function openEventBus(options: EventBusOptions): Promise<EventBus> {
  if (options.redisUrl) return eventBus(await redisTransport(options.redisUrl, options.redisPrefix ?? 'docs-gateway', options.log));
  if (options.database.provider === 'postgresql') return eventBus(postgresTransport(options.database, options.log));
  return eventBus(undefined);
}

function eventBus(transport: Transport | undefined): EventBus {
  const origin = randomUUID();
  const listeners = new Set<(event: DomainEvent, localNumber?: number) => void>();
  let published = 0;
  const deliver = (event: DomainEvent, localNumber?: number) => {
    for (const listener of listeners) {
      try {
        listener(event, localNumber);
      } catch {
        // One stream's failure is not the others' (and never the process's).
      }
    }
  };
  let listening: Promise<void> | undefined;
  const listen = () =>
    (listening ??= transport
      ? Promise.race([
          transport.listen((message) => {
            // Anything else on the channel (another program's message) is not ours.
            if (message && typeof message === 'object' && message.origin !== origin && isEvent(message.event)) deliver(message.event);
          }),
          new Promise<void>((resolve) => setTimeout(resolve, READY_TIMEOUT_MS).unref()),
        ])
      : Promise.resolve());
  return {
    transport: transport?.name ?? 'process',
    publish(event) {
      // Delivered on a later turn, never inside the publishing request.
      const localNumber = ++published;
      setImmediate(() => deliver(event, localNumber));
      transport?.send({ origin, event });
    },
    subscribe(listener) {
      void listen();
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    published: () => published,
    ready: listen,
    flush: () => new Promise((resolve) => setImmediate(resolve)),
    close: async () => {
      await transport?.close();
    },
  };
}

/** What a message from another instance must hold to be delivered. */
function isEvent(value: unknown): value is DomainEvent {
  const event = value as Partial<DomainEvent> | null;
  return !!event && typeof event === 'object' && typeof event.id === 'string' && typeof event.kind === 'string' && typeof event.organizationId === 'string';
}

/** Resolves when `promise` does, or after `ms`, whichever comes first. */
const atMost = (promise: Promise<unknown>, ms: number) => Promise.race([promise, new Promise((resolve) => setTimeout(resolve, ms).unref())]);

async function redisTransport(url: string, prefix: string, log: EventBusOptions['log']): Promise<Transport> {
  const [{ Redis }, { createRedisEventTarget }] = await Promise.all([import('ioredis'), import('@graphql-yoga/redis-event-target')]);
  // Publishing never waits for a Redis that is down: the event is lost to other instances, the write is not.
  const publishClient = new Redis(url, { connectTimeout: 2_000, enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
  // The listener keeps trying, and subscribes again once Redis is back.
  const subscribeClient = new Redis(url, { connectTimeout: 2_000, maxRetriesPerRequest: null, lazyConnect: true });
  // Said once when Redis goes away, not at every attempt to reconnect nor at every event lost.
  let down = false;
  const wentDown = (error: Error) => {
    if (!down) log.warn({ err: { message: error.message } }, 'event bus (Redis) unavailable: events of other instances are lost until it is back');
    down = true;
  };
  for (const client of [publishClient, subscribeClient]) {
    client.on('error', wentDown);
    client.on('ready', () => (down = false));
  }
  publishClient.connect().catch(() => {});
  // The event target leaves the promises of its commands unobserved: a refusal would end the process.
  const publisher = { publish: (channel: string, message: string) => publishClient.publish(channel, message).catch(wentDown) };
  const subscriber = {
    on: (event: string, listener: (channel: string, message: string) => void) => subscribeClient.on(event, listener),
    subscribe: (...channels: string[]) => subscribeClient.subscribe(...channels).catch(wentDown),
    unsubscribe: (...channels: string[]) => subscribeClient.unsubscribe(...channels).catch(() => {}),
  };
  const channel = `${prefix}:events`;
  const target = createRedisEventTarget<CustomEvent<WireMessage>>({
    publishClient: publisher as unknown as InstanceType<typeof Redis>,
    subscribeClient: subscriber as unknown as InstanceType<typeof Redis>,
    // Parsed inside ioredis's socket handler: a message that is not JSON must not throw there.
    serializer: {
      stringify: JSON.stringify,
      parse: (text: string) => {
        try {
          return JSON.parse(text);
        } catch {
          return null;
        }
      },
    },
  });
  let onMessage: ((event: CustomEvent<WireMessage>) => void) | undefined;
  return {
    name: 'redis',
    send: (message) => target.dispatchEvent(new CustomEvent(channel, { detail: message })),
    async listen(hear) {
      onMessage = (event) => {
        if (event.detail) hear(event.detail);
      };
      subscribeClient.connect().catch(() => {});
      target.addEventListener(channel, onMessage);
      // The SUBSCRIBE just sent is answered before a PING sent after it.
      await subscribeClient.ping().catch(() => {});
    },
    async close() {
      if (onMessage) target.removeEventListener(channel, onMessage);
      subscribeClient.disconnect();
      // What was published reaches Redis first, unless it is down: then there is nothing to wait for.
      if (!down)
        await atMost(
          publishClient.quit().catch(() => {}),
          READY_TIMEOUT_MS,
        );
      publishClient.disconnect();
    },
  };
}

/** The size PostgreSQL allows a NOTIFY payload, in bytes (less than 8000 by default). */
const NOTIFY_PAYLOAD_LIMIT = 8000;

/**
 * PostgreSQL without Redis: NOTIFY through the pool after the commit, and one
 * connection per instance that LISTENs, opened with the first subscription,
 * pinged, and replaced when it is lost (the events of that moment are lost with it).
 */

function postgresTransport(database: EventBusOptions['database'], log: EventBusOptions['log']): Transport {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let ping: NodeJS.Timeout | undefined;
  let hear: ((message: WireMessage) => void) | undefined;
  let reported = false;

  const lost = (connection: pg.Client) => {
    if (client !== connection) return;
    client = undefined;
    clearInterval(ping);
    connection.removeAllListeners('notification');
    connection.end().catch(() => {});
    if (!closed) retry = setTimeout(connect, RECONNECT_DELAY_MS).unref();
  };
  const connect = async () => {
    const connection = new (pgDriver().Client)({
      connectionString: database.url,
      application_name: EVENTS_LISTENER,
      keepAlive: true,
      connectionTimeoutMillis: READY_TIMEOUT_MS,
      query_timeout: PING_INTERVAL_MS,
    });
    client = connection;
    connection.on('error', () => lost(connection));
    connection.on('end', () => lost(connection));
    connection.on('notification', (message) => {
      if (message.channel !== EVENTS_CHANNEL || !message.payload) return;
      let parsed: WireMessage;
      try {
        parsed = JSON.parse(message.payload) as WireMessage;
      } catch {
        return; // not ours: another program on the channel
      }
      hear?.(parsed);
    });
    try {
      await connection.connect();
      await connection.query(`LISTEN ${EVENTS_CHANNEL}`);
      // Lost while it was starting to listen: its replacement pings for itself.
      if (client !== connection) return;
      reported = false;
      // A connection gone silent (half-open TCP) is replaced, not trusted for hours.
      ping = setInterval(() => {
        connection.query('SELECT 1').catch(() => lost(connection));
      }, PING_INTERVAL_MS).unref();
    } catch (error) {
      // Said once until it listens again, not at every attempt.
      if (!reported)
        log.warn(
          { err: { message: (error as Error).message } },
          'event bus (PostgreSQL LISTEN) unavailable: events of other instances are lost until it is back',
        );
      reported = true;
      lost(connection);
    }
  };
  let listening: Promise<void> | undefined;
  // One statement at a time, in order (on pool connections of their own, two could overtake each
  // other); the events published while one runs go together in the next, so a burst costs a few
  // round trips instead of one each, and waits no longer behind a busy pool.
  let queued: string[] = [];
  let sending: Promise<void> | undefined;
  const sendQueued = async () => {
    try {
      while (queued.length > 0) {
        const payloads = queued;
        queued = [];
        await database
          .readRows('SELECT pg_notify($1, payload) FROM unnest($2::text[]) WITH ORDINALITY AS sent(payload, position) ORDER BY position', [
            EVENTS_CHANNEL,
            payloads,
          ])
          .catch((error: Error) => {
            log.warn({ err: { message: error.message }, events: payloads.length }, 'events could not be published (PostgreSQL NOTIFY)');
          });
      }
    } finally {
      sending = undefined;
    }
  };
  return {
    name: 'postgresql',
    send(message) {
      const payload = JSON.stringify(message);
      // PostgreSQL refuses a payload of 8000 bytes or more, and with it the statement's whole batch.
      if (Buffer.byteLength(payload) >= NOTIFY_PAYLOAD_LIMIT) {
        log.warn({ event: message.event.id, bytes: Buffer.byteLength(payload) }, 'an event too large for PostgreSQL NOTIFY reaches this instance only');
        return;
      }
      queued.push(payload);
      sending ??= sendQueued();
    },
    listen(listener) {
      hear = listener;
      return (listening ??= connect());
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(ping);
      // Bounded: a database that does not answer does not hold the shutdown.
      await atMost(Promise.all([listening, sending]), READY_TIMEOUT_MS);
      const connection = client;
      client = undefined;
      await connection?.end().catch(() => {});
    },
  };
}
