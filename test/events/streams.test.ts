import { describe, expect, it, vi } from 'vitest';
import { type EventBus, openEventBus } from '../../src/events/bus.ts';
import type { DomainEvent } from '../../src/events/event.ts';
import type { GenerationBump } from '../../src/db/generation-feed.ts';
import { DomainError } from '../../src/errors.ts';
import { DEFAULT_STREAM_LIMITS, type StreamLimits, type StreamOwner, type StreamSpec, createEventStreams, topics } from '../../src/events/streams.ts';

/**
 * The stream registry on its own (the HTTP side is test/graphql/subscriptions.test.ts):
 * a stream the server ends — dropped for falling behind, idle, or drained — closes its
 * client's connection once the grace passed, unless the client went away itself;
 * streams count against their token, user and address; an event is offered only
 * to the streams of its topics; a change to a user asks its streams again at once.
 */
function inProcessBus(): EventBus & { emit(event: DomainEvent): void } {
  const listeners = new Set<(event: DomainEvent) => void>();
  return {
    transport: 'process',
    publish: (event) => listeners.forEach((listener) => listener(event)),
    emit: (event) => listeners.forEach((listener) => listener(event)),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    published: () => 0,
    ready: async () => {},
    flush: async () => {},
    close: async () => {},
  };
}

/** The feed of data generations, told by the test what changed. */
function testFeed() {
  const listeners = new Set<(bumps: readonly GenerationBump[]) => void>();
  return {
    barriers: 0,
    subscribe(listener: (bumps: readonly GenerationBump[]) => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async barrier() {
      this.barriers++;
    },
    bump: (...scopes: string[]) => listeners.forEach((listener) => listener(scopes.map((scope) => ({ scope, version: '2' })))),
  };
}

const event = (id: string, spaceId = 'spc_1'): DomainEvent => ({
  id,
  at: new Date().toISOString(),
  kind: 'space.created',
  organizationId: 'org_1',
  spaceId,
  subjectId: spaceId,
});
const limits = (changes: Partial<StreamLimits>): StreamLimits => ({ ...DEFAULT_STREAM_LIMITS, ...changes });
const owner = (tokenKey = 'token', userId = 'usr_1', address = '10.0.0.1'): StreamOwner => ({ tokenKey, userId, address });
const spec = (changes: Partial<StreamSpec> = {}): StreamSpec => ({ owner: owner(), topic: topics.organization('org_1'), accept: () => true, ...changes });
/** Lets the registry offer what was published (it does so on later turns). */
const offered = () => new Promise((resolve) => setImmediate(resolve));

describe('the live stream registry', () => {
  it('closes the connection of a dropped, idle or drained stream after the grace, and never that of a stream its client closed', async () => {
    vi.useFakeTimers();
    try {
      const bus = inProcessBus();
      const streams = createEventStreams(bus, limits({ maxPerToken: 5, maxQueuedEvents: 2, endGraceMs: 1_000, idleMs: 60_000 }));
      const abortDropped = vi.fn();
      const abortIdle = vi.fn();
      const abortDrained = vi.fn();
      const abortClosed = vi.fn();
      const dropped = streams.open(spec({ abort: abortDropped }));
      const closed = streams.open(spec({ accept: () => false, abort: abortClosed }));
      const idle = streams.open(spec({ topic: topics.space('spc_quiet'), abort: abortIdle }));
      // Three events and no reader: the third drops it, its queue emptied but for the reason.
      for (const id of ['evt_1', 'evt_2', 'evt_3']) bus.emit(event(id));
      await vi.advanceTimersByTimeAsync(0);
      expect(streams.stats()).toMatchObject({ open: 2, dropped: 1 });
      const drained = streams.open(spec({ abort: abortDrained }));
      closed.close();
      // One event keeps `drained` alive; `idle` hears none in its minute.
      await vi.advanceTimersByTimeAsync(30_000);
      bus.emit(event('evt_4'));
      await vi.advanceTimersByTimeAsync(30_000);
      expect(streams.stats().open).toBe(1);
      await streams.drain();
      expect(streams.stats().open).toBe(0);
      // Each closed once its grace passed: the dropped one first, then the idle one, then the drained one.
      expect([abortDropped, abortIdle, abortDrained].map((abort) => abort.mock.calls.length)).toEqual([1, 0, 0]);
      await vi.advanceTimersByTimeAsync(999);
      expect([abortDropped, abortIdle, abortDrained].map((abort) => abort.mock.calls.length)).toEqual([1, 0, 0]);
      await vi.advanceTimersByTimeAsync(1);
      expect([abortDropped, abortIdle, abortDrained, abortClosed].map((abort) => abort.mock.calls.length)).toEqual([1, 1, 1, 0]);
      vi.useRealTimers();
      // What a reader would still get: the reason, then the end.
      expect(await dropped.next()).toMatchObject({ done: false, value: { status: 503, message: expect.stringMatching(/fell 2 events behind/) } });
      expect(await dropped.next()).toEqual({ done: true, value: undefined });
      expect(await idle.next()).toMatchObject({ done: false, value: { status: 408, message: expect.stringMatching(/heard no event for 1 minutes/) } });
      expect(await drained.next()).toMatchObject({ done: false, value: expect.objectContaining({ id: 'evt_4' }) });
      expect(await drained.next()).toMatchObject({ done: false, value: { status: 503, message: expect.stringMatching(/shutting down/) } });
      // Drained: no new stream.
      expect(() => streams.open(spec())).toThrow(/shutting down/);
    } finally {
      vi.useRealTimers();
    }
  });

  it('counts streams per token, per user and per address, and frees a slot when its stream ends', () => {
    const streams = createEventStreams(inProcessBus(), limits({ maxPerToken: 1, maxPerUser: 2, maxPerAddress: 3 }));
    const first = streams.open(spec({ owner: owner('a', 'usr_1', '10.0.0.1') }));
    const refused = (() => {
      try {
        streams.open(spec({ owner: owner('a', 'usr_1', '10.0.0.1') }));
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toMatchObject({
      status: 429,
      retryAfterSeconds: 10,
      message: expect.stringMatching(/^This token already holds 1 open subscriptions.*SUBSCRIPTIONS_PER_TOKEN/),
    });
    // Another token of the same user: its second stream, then the user's limit.
    streams.open(spec({ owner: owner('b', 'usr_1', '10.0.0.1') }));
    expect(() => streams.open(spec({ owner: owner('c', 'usr_1', '10.0.0.2') }))).toThrow(
      /^This user \(with all its tokens\) already holds 2 .*SUBSCRIPTIONS_PER_USER/,
    );
    // Another user from the same address: the address's third, then its limit.
    streams.open(spec({ owner: owner('d', 'usr_2', '10.0.0.1') }));
    expect(() => streams.open(spec({ owner: owner('e', 'usr_3', '10.0.0.1') }))).toThrow(/^This address already holds 3 .*SUBSCRIPTIONS_PER_ADDRESS/);
    expect(() => streams.open(spec({ owner: owner('e', 'usr_3', '10.0.0.9') }))).not.toThrow();
    first.close();
    expect(() => streams.open(spec({ owner: owner('a', 'usr_1', '10.0.0.1') }))).not.toThrow();
  });

  it('offers an event only to the streams of its organization, space or change request', async () => {
    const bus = inProcessBus();
    const streams = createEventStreams(bus);
    const accepted: string[] = [];
    const follow = (topic: string) =>
      streams.open(
        spec({
          topic,
          accept: () => {
            accepted.push(topic);
            return true;
          },
        }),
      );
    for (const topic of [
      topics.space('spc_1'),
      topics.space('spc_2'),
      topics.organization('org_1'),
      topics.organization('org_2'),
      topics.changeRequest('cr_1'),
    ])
      follow(topic);
    bus.emit(event('evt_1', 'spc_1'));
    bus.emit({ ...event('evt_2', 'spc_2'), changeRequestId: 'cr_1' });
    await offered();
    expect(accepted).toEqual(['organization:org_1', 'space:spc_1', 'organization:org_1', 'space:spc_2', 'change_request:cr_1']);
  });

  it('asks the streams of a user whose data changed again at once, once per change, and ends those it may no longer follow', async () => {
    const feed = testFeed();
    const bus = inProcessBus();
    const streams = createEventStreams(bus, DEFAULT_STREAM_LIMITS, { generations: feed });
    const asked: string[] = [];
    const open = (userId: string, refusal?: DomainError) =>
      streams.open(
        spec({
          owner: owner(`token of ${userId}`, userId),
          recheck: async () => {
            asked.push(userId);
            return refusal;
          },
        }),
      );
    const removed = open('usr_removed', new DomainError(404, 'Space "spc_1" was not found'));
    const kept = open('usr_kept');
    const untouched = open('usr_untouched');
    feed.bump('usr_removed', 'usr_kept', 'org_1');
    feed.bump('usr_kept');
    await offered();
    await offered();
    expect(asked.sort()).toEqual(['usr_kept', 'usr_removed']);
    expect(await removed.next()).toMatchObject({ done: false, value: { status: 404 } });
    expect(await removed.next()).toEqual({ done: true, value: undefined });
    expect(streams.stats().open).toBe(2);
    // Everything forgotten (the feed reconnected): every stream is asked.
    feed.bump('*');
    await offered();
    await offered();
    expect(asked.filter((user) => user === 'usr_untouched')).toHaveLength(1);
    // Events are offered once the changes committed before them are known.
    bus.emit(event('evt_1'));
    await offered();
    expect(feed.barriers).toBe(1);
    expect(await kept.next()).toMatchObject({ done: false, value: { id: 'evt_1' } });
    kept.close();
    untouched.close();
  });

  it('gives a stream only what this instance published after it opened, though the bus delivers on a later turn', async () => {
    const bus = await openEventBus({ database: { provider: 'sqlite', url: 'file::memory:', readRows: async () => [] }, log: { warn: () => {} } });
    const streams = createEventStreams(bus);
    bus.publish(event('evt_before'));
    // Opened after the publish, before its delivery (the bus delivers with setImmediate).
    const stream = streams.open(spec());
    bus.publish(event('evt_after'));
    await bus.flush();
    const first = await stream.next();
    expect(first).toEqual({ done: false, value: expect.objectContaining({ id: 'evt_after' }) });
    stream.close();
    await bus.close();
  });
});
