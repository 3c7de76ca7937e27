import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createContext } from '../../src/context.ts';
import { emitEvent } from '../../src/domain/events/emit.ts';
import { inTransaction } from '../../src/domain/transaction.ts';
import { WEBHOOK_EVENTS } from '../../src/domain/webhooks/events.ts';
import { type BackgroundWork, startBackgroundWork } from '../../src/jobs/background.ts';
import type { WebhookSettings } from '../../src/lib/webhook-settings.ts';
import { TEST_URLS, type TestApp, createTestApp } from '../support/app.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { addMember, buildTeam, buildUser } from '../support/factories.ts';
import { expectError } from '../support/http.ts';
import { jobLog } from '../support/jobs.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';

/**
 * Outgoing webhooks end to end: subscriptions over REST, the events of real
 * writes, and a receiver on 127.0.0.1 that verifies every delivery with the
 * `standardwebhooks` package. Deliveries run as in production: the job queued
 * at the commit, and the periodic sweep (short schedules here).
 */

const HOUR = 3600_000;
const SETTINGS: WebhookSettings = { retryScheduleMs: [300, 600, 300], timeoutMs: 2000, disableAfterMs: HOUR, secretOverlapMs: 24 * HOUR, sweepIntervalMs: 200 };

let t: TestApp;
let background: BackgroundWork;
const receivers: Receiver[] = [];
beforeAll(async () => {
  t = await createTestApp({ webhooks: SETTINGS });
  background = startBackgroundWork({ queue: t.app.jobs, log: jobLog(), purgeIntervalMs: HOUR, webhookSweepIntervalMs: SETTINGS.sweepIntervalMs });
});
afterAll(async () => {
  await background.stop();
  for (const receiver of receivers) await receiver.close();
});

const WEBHOOKS = '/v1/orgs/{organizationId}/webhooks';
const WEBHOOK = '/v1/orgs/{organizationId}/webhooks/{webhookId}';
const DELIVERIES = '/v1/orgs/{organizationId}/webhooks/{webhookId}/deliveries';
const DELIVERY = '/v1/orgs/{organizationId}/webhooks/{webhookId}/deliveries/{deliveryId}';

/** An organization, its admin, a space, a receiver, and REST helpers. */
async function setup(events: readonly string[] = WEBHOOK_EVENTS) {
  const team = await buildTeam(t.database);
  const organizationId = team.organization.id;
  const { admin } = team;
  const receiver = await startReceiver();
  receivers.push(receiver);
  const rest = async (method: string, url: string, body?: unknown, status = 200, token = admin.token) => {
    const response = await t.call(method, url, { token, ...(body !== undefined ? { body } : {}) });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(status);
    return response.statusCode === 204 ? undefined : response.json();
  };
  const base = `/v1/orgs/${organizationId}/webhooks`;
  const subscribe = async (body: Record<string, unknown> = {}) => {
    const created = await rest('POST', base, { url: receiver.url, events, ...body }, 201);
    expectMatchesSchema('POST', WEBHOOKS, 201, created);
    receiver.secrets.push(created.secret);
    return created;
  };
  const space = await rest('POST', `/v1/orgs/${organizationId}/spaces`, { title: 'Guide' }, 201);
  const comment = (markdown = 'A remark', token = admin.token) => rest('POST', `/v1/spaces/${space.id}/comments`, { body: { markdown } }, 200, token);
  const deliveries = async (webhookId: string) => (await rest('GET', `${base}/${webhookId}/deliveries`)).items as Array<Record<string, any>>;
  const webhookRow = (id: string) => t.database.db.webhookSubscription.findUniqueOrThrow({ where: { id } });
  return { ...team, organizationId, receiver, rest, base, subscribe, space, comment, deliveries, webhookRow };
}

const until = (check: () => boolean | Promise<boolean>, timeout = 15_000) => vi.waitUntil(check, { timeout, interval: 50 });

describe('webhook subscriptions', () => {
  it('are made, read, changed and deleted by admins; the secret is shown once', async () => {
    const { organizationId, admin, base, rest, subscribe, receiver } = await setup(['space_content_updated']);
    const created = await subscribe();
    expect(created).toEqual({
      object: 'webhook',
      id: expect.stringMatching(/^wh_/),
      url: receiver.url,
      events: ['space_content_updated'],
      active: true,
      createdBy: admin.id,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
      urls: { location: `${TEST_URLS.api}${base}/${created.id}`, deliveries: `${TEST_URLS.api}${base}/${created.id}/deliveries` },
    });
    const read = await rest('GET', `${base}/${created.id}`);
    expectMatchesSchema('GET', WEBHOOK, 200, read);
    const { secret: _shownOnce, ...withoutSecret } = created;
    expect(read).toEqual(withoutSecret);
    const listed = await rest('GET', base);
    expect(listed.items).toEqual([withoutSecret]);
    const changed = await rest('PATCH', `${base}/${created.id}`, { events: ['site_published', 'comment_posted'], active: false });
    expect(changed).toMatchObject({ events: ['site_published', 'comment_posted'], active: false });
    expect(changed).not.toHaveProperty('secret');
    expect(await t.database.db.webhookSubscription.findUniqueOrThrow({ where: { id: created.id } })).toMatchObject({
      organizationId,
      events: 'site_published,comment_posted',
      active: false,
    });
    await rest('DELETE', `${base}/${created.id}`, undefined, 204);
    expect(await t.database.db.webhookSubscription.count({ where: { id: created.id } })).toBe(0);
    expectError(await t.call('GET', `${base}/${created.id}`, { token: admin.token }), 404);
  });

  it('are refused to members who are not admins, hidden from other organizations, and validated', async () => {
    const { organizationId, base, member, subscribe, receiver, admin } = await setup();
    const created = await subscribe();
    const editor = await member('edit');
    expectError(await t.call('GET', base, { token: editor.token }), 403, /webhooks/);
    expectError(await t.call('POST', base, { token: editor.token, body: { url: receiver.url, events: ['site_published'] } }), 403);
    const stranger = await buildUser(t.database, 'stranger');
    expectError(await t.call('GET', `${base}/${created.id}`, { token: stranger.token }), 404);
    const other = await buildTeam(t.database);
    expectError(await t.call('GET', `/v1/orgs/${other.organization.id}/webhooks/${created.id}`, { token: other.admin.token }), 404);
    const post = (body: unknown) => t.call('POST', base, { token: admin.token, body });
    expectError(await post({ url: 'ftp://example.test/hook', events: ['site_published'] }), 400, /url: must be an http or https URL/);
    expectError(await post({ url: receiver.url, events: ['space_deleted'] }), 400, /events/);
    expectError(await post({ url: receiver.url, events: [] }), 400, /events: must name at least one event/);
    expectError(await post({ url: receiver.url, events: ['site_published', 'site_published'] }), 400, /twice/);
    expect(await t.database.db.webhookSubscription.count({ where: { organizationId } })).toBe(1);
  });

  it('refuse private addresses unless the server allows them (the fetcher rules)', async () => {
    const strict = await createTestApp({ webhooks: SETTINGS, fetchPrivateAddresses: false });
    const team = await buildTeam(strict.database);
    for (const url of ['http://127.0.0.1:9/hook', 'http://10.0.0.1/hook', 'http://[::1]/hook', 'http://169.254.169.254/latest']) {
      const response = await strict.call('POST', `/v1/orgs/${team.organization.id}/webhooks`, {
        token: team.admin.token,
        body: { url, events: ['site_published'] },
      });
      expectError(response, 400, /url: the host .* address, which is not fetched/);
    }
  });
});

describe('webhook deliveries', () => {
  it('deliver every event type, signed, with the ids of what changed', async () => {
    const { organizationId, admin, member, rest, subscribe, space, comment, receiver, deliveries } = await setup();
    const webhook = await subscribe();
    const changeRequest = await rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Draft' }, 201);
    await rest('PATCH', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`, { subject: 'Better' });
    await rest('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content?compat=false`, {
      changes: [{ operation: 'insert_page', title: 'Guide', document: { markdown: '# Guide\n\nHello.\n' } }],
    });
    const merged = await rest('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
    const closed = await rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Abandoned' }, 201);
    await rest('PATCH', `/v1/spaces/${space.id}/change-requests/${closed.id}`, { status: 'archived' });
    const reviewed = await rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Please review' }, 201);
    const reviewer = await member('review');
    const review = await rest('POST', `/v1/spaces/${space.id}/change-requests/${reviewed.id}/reviews`, { status: 'approved' }, 201, reviewer.token);
    const posted = await comment();
    const reply = await rest('POST', `/v1/spaces/${space.id}/comments/${posted.id}/replies`, { body: { markdown: 'Indeed' } });
    const site = await rest('POST', `/v1/orgs/${organizationId}/sites`, {}, 201);
    await rest('POST', `/v1/orgs/${organizationId}/sites/${site.id}/publish`);
    await rest('POST', `/v1/orgs/${organizationId}/sites/${site.id}/unpublish`);

    const expected = [
      ['change_request_opened', { spaceId: space.id, changeRequestId: changeRequest.id }],
      ['change_request_updated', { spaceId: space.id, changeRequestId: changeRequest.id }],
      ['change_request_updated', { spaceId: space.id, changeRequestId: changeRequest.id, revisionId: expect.any(String) }],
      ['change_request_merged', { spaceId: space.id, changeRequestId: changeRequest.id, revisionId: merged.revision }],
      ['space_content_updated', { spaceId: space.id, changeRequestId: changeRequest.id, revisionId: merged.revision }],
      ['change_request_opened', { spaceId: space.id, changeRequestId: closed.id }],
      ['change_request_closed', { spaceId: space.id, changeRequestId: closed.id }],
      ['change_request_opened', { spaceId: space.id, changeRequestId: reviewed.id }],
      ['change_request_review_submitted', { spaceId: space.id, changeRequestId: reviewed.id, reviewId: review.id, status: 'approved', actorId: reviewer.id }],
      ['comment_posted', { spaceId: space.id, commentId: posted.id }],
      ['comment_reply_posted', { spaceId: space.id, commentId: posted.id, replyId: reply.id }],
      ['site_published', { siteId: site.id }],
      ['site_unpublished', { siteId: site.id }],
    ] as const;
    // Git sync's two events come from a Git server: test/rest/git.test.ts writes them to the outbox.
    const types = WEBHOOK_EVENTS.filter((type) => !type.startsWith('git_sync_'));
    await until(() => new Set(receiver.accepted().map((item) => item.payload.type)).size === types.length);
    await until(async () => (await deliveries(webhook.id)).every((delivery) => delivery.status === 'succeeded'));
    const got = [...receiver.accepted()].sort((a, b) => a.payload.timestamp.localeCompare(b.payload.timestamp) || a.at - b.at);
    expect(new Set(got.map((item) => item.payload.type))).toEqual(new Set(types));
    for (const [type, data] of expected) {
      expect(got, type).toContainEqual(
        expect.objectContaining({
          payload: {
            type,
            timestamp: expect.any(String),
            data: { eventId: expect.stringMatching(/^evt_/), organizationId, actorId: admin.id, ...data },
          },
        }),
      );
    }
    // Every one verified with the secret.
    expect(receiver.received.every((item) => item.verifiedBy.join() === '0' && item.signatures.length === 1)).toBe(true);
    const log = await rest('GET', `/v1/orgs/${organizationId}/webhooks/${webhook.id}/deliveries`);
    expectMatchesSchema('GET', DELIVERIES, 200, log);
    // One delivery per event, and each of its attempts reached the receiver once (a slow answer on a loaded machine may cost a retry).
    expect(log.items).toHaveLength(new Set(got.map((item) => item.id)).size);
    let attempts = 0;
    for (const delivery of log.items) {
      expect(delivery).toMatchObject({ status: 'succeeded', lastResponseCode: 204 });
      expect(delivery.log.at(-1)).toMatchObject({ attempt: delivery.attempts, status: 'succeeded', responseCode: 204 });
      expect(receiver.accepted().find((item) => item.id === delivery.messageId)?.payload).toEqual(delivery.payload);
      attempts += delivery.attempts;
    }
    expect(receiver.received).toHaveLength(attempts);
  });

  it('only go to subscribers of the event, and only from their organization', async () => {
    const { subscribe, comment, receiver, space, rest } = await setup(['site_published']);
    await subscribe();
    const other = await setup(['comment_posted']);
    const otherWebhook = await other.subscribe();
    await comment();
    await rest('PATCH', `/v1/spaces/${space.id}`, { title: 'Renamed' });
    await other.comment();
    await until(() => other.receiver.accepted().length === 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received).toHaveLength(0);
    expect(other.receiver.received.map((item) => item.payload.type)).toEqual(['comment_posted']);
    expect(await t.database.db.webhookDelivery.count({ where: { subscriptionId: otherWebhook.id } })).toBe(1);
  });

  it('are retried after 500s with backoff until one succeeds, each attempt logged', async () => {
    const { subscribe, comment, receiver, rest, base } = await setup(['comment_posted']);
    const webhook = await subscribe();
    let calls = 0;
    receiver.respond = () => (++calls <= 2 ? 500 : 200);
    await comment();
    await until(() => receiver.accepted().length === 1);
    await until(async () => (await t.database.db.webhookDelivery.findFirstOrThrow({ where: { subscriptionId: webhook.id } })).status === 'succeeded');
    const arrivals = receiver.received.map((item) => item.at);
    expect(receiver.received.map((item) => item.id)).toEqual(Array(3).fill(receiver.received[0]!.id));
    // The schedule: 300 ms, then 600 ms (the sweep looks every 200 ms, PostgreSQL's queue at most every second).
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(280);
    expect(arrivals[2]! - arrivals[1]!).toBeGreaterThanOrEqual(580);
    const [delivery] = (await rest('GET', `${base}/${webhook.id}/deliveries`)).items;
    const read = await rest('GET', `${base}/${webhook.id}/deliveries/${delivery.id}`);
    expectMatchesSchema('GET', DELIVERY, 200, read);
    expect(read).toMatchObject({
      status: 'succeeded',
      attempts: 3,
      lastResponseCode: 200,
      log: [
        { attempt: 1, status: 'failed', responseCode: 500, error: 'answered 500', durationMs: expect.any(Number) },
        { attempt: 2, status: 'failed', responseCode: 500 },
        { attempt: 3, status: 'succeeded', responseCode: 200 },
      ],
    });
    expect((await t.database.db.webhookSubscription.findUniqueOrThrow({ where: { id: webhook.id } })).failingSince).toBeNull();
  });

  it('are retried after a timeout, and fail once the schedule is spent', async () => {
    const { subscribe, comment, receiver, deliveries } = await setup(['comment_posted']);
    const webhook = await subscribe();
    receiver.respond = () => 'hang';
    await comment();
    await until(async () => (await deliveries(webhook.id))[0]?.status === 'failed', 20_000);
    const [delivery] = await deliveries(webhook.id);
    // Four attempts: the first and the three retries of the schedule, each cut at the time limit.
    expect(delivery!.attempts).toBe(4);
    expect(delivery!.log).toHaveLength(4);
    for (const attempt of delivery!.log) {
      expect(attempt).toMatchObject({ status: 'failed', error: expect.stringMatching(/did not answer within 2000 ms/) });
      expect(attempt).not.toHaveProperty('responseCode');
      expect(attempt.durationMs).toBeGreaterThanOrEqual(1900);
    }
    expect(receiver.received).toHaveLength(4);
    // Still active: it has not failed for a whole day.
    expect((await t.database.db.webhookSubscription.findUniqueOrThrow({ where: { id: webhook.id } })).active).toBe(true);
  });

  it('disable the subscription on a 410, and after a day of failures', async () => {
    const gone = await setup(['comment_posted']);
    const webhook = await gone.subscribe();
    gone.receiver.respond = () => 410;
    await gone.comment();
    await until(async () => !(await gone.webhookRow(webhook.id)).active);
    expect(await gone.rest('GET', `${gone.base}/${webhook.id}`)).toMatchObject({ active: false, disabledReason: 'the receiver answered 410 Gone' });
    expect((await gone.deliveries(webhook.id))[0]).toMatchObject({ status: 'failed', attempts: 1, lastResponseCode: 410 });
    // Disabled: a new event is not even written.
    await gone.comment();
    expect(await t.database.db.webhookDelivery.count({ where: { subscriptionId: webhook.id } })).toBe(1);
    // Enabled again by an admin: events flow.
    gone.receiver.respond = () => 204;
    expect(await gone.rest('PATCH', `${gone.base}/${webhook.id}`, { active: true })).not.toHaveProperty('disabledReason');
    await gone.comment();
    await until(() => gone.receiver.accepted().length === 1);

    const failing = await setup(['comment_posted']);
    const second = await failing.subscribe();
    failing.receiver.respond = () => 503;
    await failing.comment();
    await until(async () => (await failing.webhookRow(second.id)).failingSince !== null);
    // A day of failures later (SETTINGS: an hour), the next failed attempt disables it.
    t.clock.advance(2 * HOUR);
    try {
      await until(async () => !(await failing.webhookRow(second.id)).active);
    } finally {
      t.clock.advance(-2 * HOUR);
    }
    expect((await failing.webhookRow(second.id)).disabledReason).toBe('every attempt failed for 1 h');
    expect((await failing.deliveries(second.id))[0]).toMatchObject({ status: 'failed', attempts: 2 });
  });

  it('are sent again on request, with the same webhook-id, as a new delivery', async () => {
    const { subscribe, comment, receiver, rest, base, deliveries } = await setup(['comment_posted']);
    const webhook = await subscribe();
    await comment();
    await until(() => receiver.accepted().length === 1);
    const [first] = await deliveries(webhook.id);
    const again = await rest('POST', `${base}/${webhook.id}/deliveries/${first!.id}/redeliver`, undefined, 201);
    expectMatchesSchema('POST', `${DELIVERY}/redeliver`, 201, again);
    expect(again).toMatchObject({ messageId: first!.messageId, event: 'comment_posted', payload: first!.payload });
    expect(again.id).not.toBe(first!.id);
    await until(() => receiver.accepted().length === 2);
    expect(receiver.accepted().map((item) => item.id)).toEqual([first!.messageId, first!.messageId]);
    expect(receiver.accepted()[1]!.body).toBe(receiver.accepted()[0]!.body);
    expect(await deliveries(webhook.id)).toHaveLength(2);
  });

  it('carry both signatures for a day after a secret rotation, then the new one only', async () => {
    const { subscribe, comment, receiver, rest, base, organizationId } = await setup(['comment_posted']);
    const webhook = await subscribe();
    const rotated = await rest('POST', `${base}/${webhook.id}/secret`);
    expectMatchesSchema('POST', `${WEBHOOK}/secret`, 200, rotated);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(webhook.secret);
    expect(rotated.previousSecretExpiresAt).toEqual(expect.any(String));
    expect(await rest('GET', `${base}/${webhook.id}`)).not.toHaveProperty('secret');
    receiver.secrets.push(rotated.secret);
    await comment();
    await until(() => receiver.accepted().length === 1);
    // Signed with both: a receiver with either secret verifies it.
    expect(receiver.accepted()[0]!.signatures).toHaveLength(2);
    expect(receiver.accepted()[0]!.verifiedBy).toEqual([0, 1]);
    t.clock.advance(25 * HOUR);
    try {
      await comment();
      await until(() => receiver.accepted().length === 2);
    } finally {
      t.clock.advance(-25 * HOUR);
    }
    expect(receiver.accepted()[1]!.signatures).toHaveLength(1);
    expect(receiver.accepted()[1]!.verifiedBy).toEqual([1]);
    expect(organizationId).toBeTruthy();
  });

  it('are not written by a write that rolls back', async () => {
    const { subscribe, receiver, space, organizationId, comment } = await setup(['space_content_updated', 'comment_posted']);
    const webhook = await subscribe();
    const ctx = createContext({ database: t.database, viewer: null, clock: t.clock, urls: TEST_URLS });
    await expect(
      inTransaction(ctx, { action: 'space.update', organizationId, target: { type: 'space', id: space.id } }, async (tx) => {
        await tx.db.space.update({ where: { id: space.id }, data: { title: 'Never' } });
        emitEvent(tx, { kind: 'space.content_updated', organizationId, spaceId: space.id, subjectId: space.id, data: { revisionId: 'rev_never' } });
        throw new Error('the write fails after its event');
      }),
    ).rejects.toThrow('the write fails after its event');
    expect(await t.database.db.webhookDelivery.count({ where: { subscriptionId: webhook.id } })).toBe(0);
    // Nor its audit entry: the record commits with the write or not at all.
    expect(await t.database.db.auditEvent.count({ where: { targetId: space.id, action: 'space.update' } })).toBe(0);
    expect((await t.database.db.space.findUniqueOrThrow({ where: { id: space.id } })).title).toBe('Guide');
    // A later write's event arrives, and it alone.
    await comment();
    await until(() => receiver.accepted().length === 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received.map((item) => item.payload.type)).toEqual(['comment_posted']);
  });

  it("never carry what the subscription's owner may no longer read", async () => {
    const { subscribe, comment, receiver, organizationId, admin, deliveries } = await setup(['comment_posted']);
    const webhook = await subscribe();
    // Another admin keeps the organization administered; the owner becomes a reader.
    const second = await addMember(t.database, organizationId, await buildUser(t.database, 'admin2'), 'admin');
    await t.database.db.member.update({ where: { organizationId_userId: { organizationId, userId: admin.id } }, data: { role: 'read' } });
    await comment('From the other admin', second.token);
    await until(async () => (await t.database.db.webhookDelivery.findFirst({ where: { subscriptionId: webhook.id } }))?.status === 'skipped');
    expect(receiver.received).toHaveLength(0);
    const row = await t.database.db.webhookDelivery.findFirstOrThrow({ where: { subscriptionId: webhook.id } });
    expect(row.lastError).toBe("the subscription's owner is no longer an admin of the organization");
    expect(deliveries).toBeDefined();
  });
});

describe('webhook deliveries across two instances', () => {
  it('make each attempt once, whichever instance makes it', async () => {
    const second = await createTestApp({ webhooks: SETTINGS });
    const secondBackground = startBackgroundWork({
      queue: second.app.jobs,
      log: jobLog(),
      purgeIntervalMs: HOUR,
      webhookSweepIntervalMs: SETTINGS.sweepIntervalMs,
    });
    try {
      const { subscribe, comment, receiver, deliveries, space, admin } = await setup(['comment_posted']);
      const webhook = await subscribe();
      // Each event's first attempt fails: its retry is due on both instances at once.
      const seen = new Set<string>();
      receiver.respond = (item) => {
        if (seen.has(item.id)) return 204;
        seen.add(item.id);
        return 500;
      };
      // Written through both instances.
      for (let index = 0; index < 8; index++) {
        if (index % 2 === 0) await comment(`Comment ${index}`);
        else {
          const response = await second.call('POST', `/v1/spaces/${space.id}/comments`, {
            token: admin.token,
            body: { body: { markdown: `Comment ${index}` } },
          });
          expect(response.statusCode, response.body).toBe(200);
        }
      }
      await until(() => receiver.accepted().length === 8, 30_000);
      await until(async () => (await deliveries(webhook.id)).every((delivery) => delivery.status === 'succeeded'));
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const arrivals = new Map<string, number>();
      for (const item of receiver.received) arrivals.set(item.id, (arrivals.get(item.id) ?? 0) + 1);
      expect([...arrivals.values()]).toEqual(Array(8).fill(2));
      for (const delivery of await deliveries(webhook.id)) {
        expect(delivery).toMatchObject({
          attempts: 2,
          log: [
            { attempt: 1, responseCode: 500 },
            { attempt: 2, responseCode: 204 },
          ],
        });
      }
    } finally {
      await secondBackground.stop();
    }
  });
});
