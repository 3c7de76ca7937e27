import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { serverProcesses } from '../support/server-process.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';

/**
 * `kill -9` of a real server process between a write and the delivery of its
 * webhook (the attempt in flight, its receiver not answering yet): the event
 * is in the outbox, committed with the write, and a new server on the same
 * database delivers it once the dead one's claim has run out.
 */

describe('a server killed between a write and its webhook delivery', () => {
  it('loses no event: a new server on the same database delivers it', async () => {
    const receiver: Receiver = await startReceiver();
    onTestFinished(() => receiver.close());
    const { admin, call, serve } = await serverProcesses('webhook-crash', {
      // The receiver listens on 127.0.0.1.
      FETCH_PRIVATE_ADDRESSES: 'true',
      WEBHOOK_TIMEOUT_SECONDS: '2',
      WEBHOOK_RETRY_SCHEDULE_SECONDS: '0.5,1,1',
      WEBHOOK_SWEEP_INTERVAL_SECONDS: '0.5',
    });
    let server = await serve();
    const webhook = await call('POST', `/v1/orgs/${admin.organizationId}/webhooks`, { url: receiver.url, events: ['space_content_updated', 'comment_posted'] });
    expect(webhook.status).toBe(201);
    receiver.secrets.push(webhook.body.secret);
    const space = (await call('POST', `/v1/orgs/${admin.organizationId}/spaces`, { title: 'Target' })).body;
    // The first attempt never gets an answer: the server dies while it waits.
    receiver.respond = () => 'hang';
    const posted = await call('POST', `/v1/spaces/${space.id}/comments`, { body: { markdown: 'Before the crash' } });
    expect(posted.status).toBe(200);
    await vi.waitUntil(() => receiver.received.length === 1, { timeout: 30_000, interval: 50 });
    server.kill('SIGKILL');
    await new Promise((resolve) => server.once('exit', resolve));
    const inFlight = receiver.received[0]!;
    expect(inFlight.payload).toMatchObject({ type: 'comment_posted', data: { commentId: posted.body.id, spaceId: space.id } });

    receiver.respond = () => 204;
    server = await serve();
    // Delivered once the dead server's claim ran out (twice the time limit and 5 s).
    await vi.waitUntil(() => receiver.accepted().length === 1, { timeout: 60_000, interval: 100 });
    const delivered = receiver.accepted()[0]!;
    expect(delivered.id).toBe(inFlight.id);
    expect(delivered.body).toBe(inFlight.body);
    expect(delivered.verifiedBy).toEqual([0]);
    const deliveries = await call('GET', `/v1/orgs/${admin.organizationId}/webhooks/${webhook.body.id}/deliveries`);
    await vi.waitUntil(
      async () => (await call('GET', `/v1/orgs/${admin.organizationId}/webhooks/${webhook.body.id}/deliveries`)).body.items[0].status === 'succeeded',
      {
        timeout: 10_000,
        interval: 100,
      },
    );
    expect(deliveries.body.items).toHaveLength(1);
    const [delivery] = (await call('GET', `/v1/orgs/${admin.organizationId}/webhooks/${webhook.body.id}/deliveries`)).body.items;
    // The attempt cut by the crash counts, unlogged; the next one is logged.
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 2, log: [{ attempt: 2, status: 'succeeded', responseCode: 204 }] });
    server.kill('SIGTERM');
  }, 300_000);
});
