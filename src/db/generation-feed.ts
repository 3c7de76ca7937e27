import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import { pgDriver } from './pg-driver.ts';

/**
 * Committed bumps of data generations, as they happen (prisma/generation-triggers.ts):
 * what lets an instance keep the viewers behind tokens and the generations in
 * memory (src/domain/users/viewer-cache.ts) and still drop them exactly when a
 * write — on any instance — changes them.
 *
 * PostgreSQL announces each committed bump with NOTIFY (never a rolled-back one);
 * one connection per instance LISTENs. SQLite has one instance: its writes run on
 * this process's own connection, whose triggers call back into JavaScript, and
 * are announced when their transaction ends.
 */
export interface GenerationFeed {
  /**
   * Whether every committed bump is being heard. False before the feed starts
   * and while its connection is down: what was cached then cannot be trusted.
   */
  readonly live: boolean;
  /** Starts listening (once); the listener hears every bump from then on. */
  subscribe(listener: (bumps: readonly GenerationBump[]) => void): () => void;
  /**
   * Checks, without a statement, that nothing else wrote since the last call
   * (SQLite: another program on the same file); such a write is announced as a reset.
   */
  sync(): void;
  /**
   * Resolves once every bump committed by this process so far has been heard
   * (with `everything`: committed by any process so far). Requests await it
   * before they read a cache, so that a write of this instance — a request, a
   * job — is known to the next request (read your writes); at once when there
   * is nothing to wait for.
   */
  barrier(options?: { everything?: boolean }): Promise<void>;
  close(): Promise<void>;
}

/**
 * A scope's version now; `version: null` when it is unknown (a write rolled
 * back after its trigger ran): forget it. `scope: '*'`: forget every scope.
 */
export interface GenerationBump {
  scope: string;
  version: string | null;
}

export const RESET: GenerationBump = { scope: '*', version: null };

export const GENERATIONS_CHANNEL = 'docs_gateway_generations';

/** The `application_name` of the listening connection, as pg_stat_activity shows it. */
export const GENERATIONS_LISTENER = 'docs-gateway generations';

/** The channel of prisma/generation-triggers.ts POSTGRES_BUMP_FUNCTION. */
const CHANNEL = GENERATIONS_CHANNEL;

function parseAnnouncement(payload: string): GenerationBump[] {
  if (payload === '*') return [RESET];
  return payload.split(',').map((part) => {
    const at = part.lastIndexOf(':');
    return { scope: part.slice(0, at), version: part.slice(at + 1) };
  });
}

class Listeners {
  private readonly listeners = new Set<(bumps: readonly GenerationBump[]) => void>();
  add(listener: (bumps: readonly GenerationBump[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  emit(bumps: readonly GenerationBump[]): void {
    if (bumps.length) for (const listener of this.listeners) listener(bumps);
  }
}

/** How often the listening connection proves it is alive; a silent one is replaced. */
const PING_INTERVAL_MS = 5_000;
const RECONNECT_DELAY_MS = 500;

/** How long a barrier waits for its marker before the feed is taken for lost. */
const BARRIER_TIMEOUT_MS = 2_000;

export interface PostgresGenerationFeed extends GenerationFeed {
  /** A write of this process committed (a COMMIT, or a write outside a transaction). */
  committed(): void;
}

/**
 * PostgreSQL: one LISTEN connection of its own, reconnected when lost (everything
 * is forgotten then). A barrier sends a marker notification through the pool:
 * notifications arrive in commit order, so once the marker is heard every bump
 * committed before it has been too. `notify` runs that statement.
 */
export function postgresGenerationFeed(
  url: string,
  options: { connectTimeoutMs: number; notify: (payload: string) => Promise<unknown> },
): PostgresGenerationFeed {
  const listeners = new Listeners();
  /** Writes committed by this process, and how many of them are known heard. */
  let writes = 0;
  let heard = 0;
  let markers = 0;
  const waiting = new Map<string, { covers: number; done: () => void }>();
  let inFlight: { covers: number; promise: Promise<void> } | undefined;
  let client: pg.Client | undefined;
  let live = false;
  let started = false;
  let closed = false;
  let ping: NodeJS.Timeout | undefined;
  let retry: NodeJS.Timeout | undefined;

  const lost = (connection: pg.Client) => {
    if (client !== connection) return;
    client = undefined;
    live = false;
    clearInterval(ping);
    connection.removeAllListeners('notification');
    connection.end().catch(() => {});
    if (!closed) retry = setTimeout(connect, RECONNECT_DELAY_MS).unref();
  };

  const connect = async () => {
    const connection = new (pgDriver().Client)({
      connectionString: url,
      application_name: GENERATIONS_LISTENER,
      connectionTimeoutMillis: options.connectTimeoutMs,
      keepAlive: true,
      query_timeout: PING_INTERVAL_MS,
    });
    client = connection;
    connection.on('error', () => lost(connection));
    connection.on('end', () => lost(connection));
    connection.on('notification', (message) => {
      if (message.channel !== CHANNEL || !message.payload) return;
      const marker = waiting.get(message.payload);
      if (marker) {
        waiting.delete(message.payload);
        heard = Math.max(heard, marker.covers);
        marker.done();
      } else if (!message.payload.startsWith('marker:')) {
        listeners.emit(parseAnnouncement(message.payload));
      }
    });
    try {
      await connection.connect();
      await connection.query(`LISTEN ${CHANNEL}`);
    } catch {
      lost(connection);
      return;
    }
    if (closed || client !== connection) return;
    // Bumps committed while no one listened were missed: start from nothing.
    listeners.emit([RESET]);
    heard = writes;
    live = true;
    ping = setInterval(() => {
      connection.query('SELECT 1').catch(() => lost(connection));
    }, PING_INTERVAL_MS).unref();
  };

  const sendMarker = (covers: number): Promise<void> => {
    const payload = `marker:${process.pid}:${++markers}`;
    const promise = new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        // Unheard: the listening connection is not to be trusted.
        waiting.delete(payload);
        if (client) lost(client);
        resolve();
      }, BARRIER_TIMEOUT_MS).unref();
      waiting.set(payload, {
        covers,
        done: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
    options.notify(payload).catch(() => {
      waiting.get(payload)?.done();
      if (client) lost(client);
    });
    return promise;
  };

  return {
    get live() {
      return live;
    },
    subscribe(listener) {
      const unsubscribe = listeners.add(listener);
      if (!started) {
        started = true;
        void connect();
      }
      return unsubscribe;
    },
    sync() {},
    committed() {
      writes++;
    },
    async barrier(barrierOptions) {
      if (barrierOptions?.everything && live) writes++;
      while (live && heard < writes) {
        const target = writes;
        if (!inFlight || inFlight.covers < target) {
          const flight = { covers: target, promise: sendMarker(target) };
          inFlight = flight;
          flight.promise.finally(() => {
            if (inFlight === flight) inFlight = undefined;
          });
        }
        await inFlight!.promise;
      }
    },
    async close() {
      closed = true;
      for (const marker of waiting.values()) marker.done();
      waiting.clear();
      live = false;
      clearTimeout(retry);
      clearInterval(ping);
      const connection = client;
      client = undefined;
      await connection?.end().catch(() => {});
    },
  };
}

/**
 * SQLite: the process's own writing connection announces its bumps through a
 * function its temporary triggers call; the driver adapter tells when a
 * statement outside a transaction, or a transaction, has ended (`ended`).
 * `dataVersion` reads the file's change counter on another connection, which
 * moves with every commit but this process's own: a write by another program.
 */
export interface SqliteGenerationFeed extends GenerationFeed {
  /** Installs the announcing triggers on the writing connection. */
  attach(connection: BetterSqlite3.Database): void;
  /** A statement outside a transaction or a transaction ended: its bumps are committed, or rolled back. */
  ended(committed: boolean): void;
}

export function sqliteGenerationFeed(dataVersion: (() => number) | undefined): SqliteGenerationFeed {
  const listeners = new Listeners();
  let pending: GenerationBump[] = [];
  let attached = false;
  let failed = false;
  let expectedVersion: number | undefined;
  /**
   * The writing connection and its own data_version, which moves only with other connections'
   * commits: another program's write committed before one of ours is caught here, where `settle`
   * (which reads the version again after our commit) would otherwise take it for ours.
   */
  let writer: BetterSqlite3.Database | undefined;
  let writerVersion: unknown;
  const foreignCommitSinceLastWrite = (): boolean => {
    if (!writer) return false;
    const now = writer.pragma('data_version', { simple: true });
    const moved = now !== writerVersion;
    writerVersion = now;
    return moved;
  };
  const settle = () => {
    expectedVersion = dataVersion?.();
  };
  return {
    // Until the writing connection opens nothing is written; if its triggers cannot be installed, nothing is trusted.
    get live() {
      return !failed && dataVersion !== undefined;
    },
    subscribe(listener) {
      return listeners.add(listener);
    },
    attach(connection) {
      try {
        connection.function('docs_gateway_bumped', { deterministic: false, varargs: false }, (scope: unknown, version: unknown) => {
          pending.push({ scope: String(scope), version: String(version) });
          return null;
        });
        connection.exec(`
          CREATE TEMP TRIGGER IF NOT EXISTS "docs_gateway_announce_insert" AFTER INSERT ON main."data_generations"
          BEGIN SELECT docs_gateway_bumped(NEW."scope", NEW."version"); END;
          CREATE TEMP TRIGGER IF NOT EXISTS "docs_gateway_announce_update" AFTER UPDATE ON main."data_generations"
          BEGIN SELECT docs_gateway_bumped(NEW."scope", NEW."version"); END;`);
        attached = true;
        writer = connection;
        foreignCommitSinceLastWrite();
        settle();
      } catch {
        // No generations table yet (a database before its migrations): nothing is trusted.
        attached = false;
        failed = true;
      }
    },
    ended(committed) {
      // Read after the commit and before any other write can run (the driver is synchronous).
      if (attached) settle();
      // After settle: another program's commit before it, or between the two reads, is caught here.
      if (attached && foreignCommitSinceLastWrite()) listeners.emit([RESET]);
      if (pending.length === 0) return;
      const bumps = committed ? pending : pending.map(({ scope }) => ({ scope, version: null }));
      pending = [];
      listeners.emit(bumps);
    },
    // A write here is heard as its transaction ends, before the request goes on.
    async barrier() {},
    sync() {
      // Whether or not this process's own connection is open yet: reads go through another one.
      if (failed || !dataVersion) return;
      const now = dataVersion();
      if (expectedVersion === undefined) expectedVersion = now;
      else if (now !== expectedVersion) {
        expectedVersion = now;
        listeners.emit([RESET]);
      }
    },
    async close() {
      attached = false;
    },
  };
}
