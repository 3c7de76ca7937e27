import { describe, expect, it, vi } from 'vitest';
import { type EventBus, openEventBus } from '../../src/events/bus.ts';
import type { DomainEvent } from '../../src/events/event.ts';
import { createEventStreams } from '../../src/events/streams.ts';

/**
 * The stream registry on its own (the HTTP side is test/graphql/subscriptions.test.ts):
 * a stream the server ends — dropped for falling behind, or drained — closes its
 * client's connection once the grace passed, unless the client went away itself.
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

const event = (id: string): DomainEvent => ({ id, at: new Date().toISOString(), kind: 'space.created', organizationId: 'org_1', subjectId: 'spc_1' });

describe('the live stream registry', () => {
  it('closes the connection of a dropped or drained stream after the grace, and never that of a stream its client closed', async () => {
    vi.useFakeTimers();
    try {
      const bus = inProcessBus();
      const streams = createEventStreams(bus, { maxPerToken: 5, maxQueuedEvents: 2, endGraceMs: 1_000 });
      const abortDropped = vi.fn();
      const abortDrained = vi.fn();
      const abortClosed = vi.fn();
      const dropped = streams.open('token', () => true, abortDropped);
      const closed = streams.open('token', () => false, abortClosed);
      // Three events and no reader: the third drops it, its queue emptied but for the reason.
      for (const id of ['evt_1', 'evt_2', 'evt_3']) bus.emit(event(id));
      expect(streams.stats()).toMatchObject({ open: 1, dropped: 1 });
      const drained = streams.open('token', () => true, abortDrained);
      closed.close();
      await streams.drain();
      expect(streams.stats().open).toBe(0);
      vi.advanceTimersByTime(999);
      expect([abortDropped.mock.calls.length, abortDrained.mock.calls.length]).toEqual([0, 0]);
      vi.advanceTimersByTime(1);
      expect([abortDropped.mock.calls.length, abortDrained.mock.calls.length, abortClosed.mock.calls.length]).toEqual([1, 1, 0]);
      // What a reader would still get: the reason, then the end.
      expect(await dropped.next()).toMatchObject({ done: false, value: { status: 503, message: expect.stringMatching(/fell 2 events behind/) } });
      expect(await dropped.next()).toEqual({ done: true, value: undefined });
      expect(await drained.next()).toMatchObject({ done: false, value: { status: 503, message: expect.stringMatching(/shutting down/) } });
      // Drained: no new stream.
      expect(() => streams.open('token', () => true)).toThrow(/shutting down/);
    } finally {
      vi.useRealTimers();
    }
  });

  it("counts streams per token and frees a token's slot when its stream ends", () => {
    const streams = createEventStreams(inProcessBus(), { maxPerToken: 1, maxQueuedEvents: 10, endGraceMs: 1_000 });
    const first = streams.open('a', () => true);
    expect(() => streams.open('a', () => true)).toThrow(/already holds 1 open subscriptions/);
    streams.open('b', () => true);
    first.close();
    expect(() => streams.open('a', () => true)).not.toThrow();
  });

  it('gives a stream only what this instance published after it opened, though the bus delivers on a later turn', async () => {
    const bus = await openEventBus({ database: { provider: 'sqlite', url: 'file::memory:', readRows: async () => [] }, log: { warn: () => {} } });
    const streams = createEventStreams(bus);
    bus.publish(event('evt_before'));
    // Opened after the publish, before its delivery (the bus delivers with setImmediate).
    const stream = streams.open('token', () => true);
    bus.publish(event('evt_after'));
    await bus.flush();
    const first = await stream.next();
    expect(first).toEqual({ done: false, value: expect.objectContaining({ id: 'evt_after' }) });
    stream.close();
    await bus.close();
  });
});
