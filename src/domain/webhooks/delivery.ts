import type { JobKind, RequestContext } from '../../context.ts';
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from '../../lib/webhook-settings.ts';
import type { WebhookDeliveryRecord, WebhookSubscriptionRecord } from '../../db/index.ts';
import { newId } from '../../lib/ids.ts';
import { FetchRefused, postBounded } from '../../lib/safe-fetch.ts';
import { webhookHeaders } from '../../lib/standard-webhooks.ts';
import { contentLevel } from '../access.ts';

/**
 * Sending what the outbox holds (src/domain/webhooks/outbox.ts). Each attempt
 * first claims its delivery with one conditional UPDATE (due, pending, not held
 * by another attempt): across instances, and between the job queued at the
 * commit and the periodic sweep, an attempt is made once. The claim holds the
 * delivery for the attempt's time limit and a margin; an instance that dies
 * meanwhile leaves it to be claimed again once that passes (at least once).
 */

export const settingsOf = (ctx: RequestContext): WebhookSettings => ctx.webhooks ?? DEFAULT_WEBHOOK_SETTINGS;

/** Beyond an attempt's time limit, how long a claim holds its delivery (twice the limit and 5 s in all). */
const claimMarginMs = (settings: WebhookSettings) => settings.timeoutMs + 5_000;
/** Deliveries one sweep takes at most, and how many of them are sent at once. */
const SWEEP_BATCH = 50;
const SWEEP_CONCURRENCY = 8;
/** What a log keeps of an answer's body or an error. */
const MAX_ERROR_CHARS = 500;

export type AttemptOutcome = 'not-due' | 'succeeded' | 'failed' | 'skipped' | 'disabled';

/** Makes one attempt of a delivery if it is due and no one else is making it. */
export async function attemptDelivery(ctx: RequestContext, deliveryId: string): Promise<AttemptOutcome> {
  const settings = settingsOf(ctx);
  const now = ctx.clock.now();
  // One statement that tests and sets (an ORM's updateMany may read the matching ids first, then update them).
  const until = new Date(now.getTime() + settings.timeoutMs + claimMarginMs(settings));
  const count = await ctx.db.$executeRaw`
    UPDATE "webhook_deliveries" SET "lockedUntil" = ${until}, "attempts" = "attempts" + 1
    WHERE "id" = ${deliveryId} AND "status" = 'pending' AND "nextAttemptAt" <= ${now} AND ("lockedUntil" IS NULL OR "lockedUntil" <= ${now})`;
  if (count !== 1) return 'not-due';
  const delivery = await ctx.db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId }, include: { subscription: true } });
  const { subscription } = delivery;
  if (!subscription.active) {
    await finish(ctx, delivery, { status: 'failed', error: 'the subscription is disabled' });
    return 'failed';
  }
  const refusal = await ownerRefusal(ctx, subscription, delivery);
  if (refusal) {
    await finish(ctx, delivery, { status: 'skipped', error: refusal });
    return 'skipped';
  }
  const secrets = [subscription.secret];
  if (subscription.previousSecret && subscription.previousSecretExpiresAt && subscription.previousSecretExpiresAt > now)
    secrets.push(subscription.previousSecret);
  // The time of sending, as receivers compare it with their own clock (the domain clock may be moved in tests).
  const timestamp = Math.floor(Date.now() / 1000);
  const started = performance.now();
  let responseCode: number | undefined;
  let error: string | undefined;
  try {
    const answer = await postBounded(
      new URL(subscription.url),
      { headers: webhookHeaders(secrets, delivery.messageId, timestamp, delivery.payload), body: delivery.payload },
      { timeoutMs: settings.timeoutMs, maxBytes: MAX_ERROR_CHARS, allowPrivate: ctx.fetchPrivateAddresses === true },
    );
    responseCode = answer.status;
    if (answer.status < 200 || answer.status >= 300) error = `answered ${answer.status}${answer.body ? `: ${answer.body.slice(0, MAX_ERROR_CHARS)}` : ''}`;
  } catch (caught) {
    error = caught instanceof FetchRefused ? caught.message : `could not be sent (${(caught as Error).message})`;
  }
  const durationMs = Math.round(performance.now() - started);
  return record(ctx, delivery, { responseCode, durationMs, error });
}

/**
 * Why the subscription's owner may not receive this event now, or undefined: it must
 * still be an active admin of the organization (an admin's level on every piece of its
 * content is admin, src/domain/access.ts), and the event's space still the organization's.
 */
async function ownerRefusal(ctx: RequestContext, subscription: WebhookSubscriptionRecord, delivery: WebhookDeliveryRecord): Promise<string | undefined> {
  const member = await ctx.db.member.findUnique({
    where: { organizationId_userId: { organizationId: subscription.organizationId, userId: subscription.createdById } },
  });
  if (contentLevel(member, []) !== 'admin') return "the subscription's owner is no longer an admin of the organization";
  const { data } = JSON.parse(delivery.payload) as { data: Record<string, string> };
  if (data.spaceId) {
    const space = await ctx.db.space.findUnique({ where: { id: data.spaceId }, select: { organizationId: true } });
    if (space?.organizationId !== subscription.organizationId) return `space "${data.spaceId}" is no longer in the organization`;
  }
  return undefined;
}

/** Ends a delivery without sending it. */
async function finish(ctx: RequestContext, delivery: WebhookDeliveryRecord, outcome: { status: 'failed' | 'skipped'; error: string }): Promise<void> {
  await ctx.db.webhookDelivery.update({ where: { id: delivery.id }, data: { status: outcome.status, lastError: outcome.error, lockedUntil: null } });
}

/** Logs an attempt and decides what comes next: done, a retry, or no more (the subscription disabled after a 410 or a day of failures). */
async function record(
  ctx: RequestContext,
  delivery: WebhookDeliveryRecord & { subscription: WebhookSubscriptionRecord },
  attempt: { responseCode: number | undefined; durationMs: number; error: string | undefined },
): Promise<AttemptOutcome> {
  const settings = settingsOf(ctx);
  const now = ctx.clock.now();
  const succeeded = attempt.error === undefined;
  const { subscription } = delivery;
  const failingSince = succeeded ? null : (subscription.failingSince ?? now);
  const disabledReason = succeeded
    ? undefined
    : attempt.responseCode === 410
      ? 'the receiver answered 410 Gone'
      : now.getTime() - failingSince!.getTime() >= settings.disableAfterMs
        ? `every attempt failed for ${Math.round(settings.disableAfterMs / 3600_000)} h`
        : undefined;
  const retryIn = settings.retryScheduleMs[delivery.attempts - 1];
  const status = succeeded ? 'succeeded' : disabledReason || retryIn === undefined ? 'failed' : 'pending';
  await ctx.db.$transaction(async (tx) => {
    await tx.webhookAttempt.create({
      data: {
        id: newId('webhookAttempt'),
        deliveryId: delivery.id,
        attempt: delivery.attempts,
        status: succeeded ? 'succeeded' : 'failed',
        responseCode: attempt.responseCode ?? null,
        durationMs: attempt.durationMs,
        error: attempt.error ?? null,
        at: now,
      },
    });
    await tx.webhookDelivery.update({
      where: { id: delivery.id },
      data: {
        status,
        lockedUntil: null,
        lastResponseCode: attempt.responseCode ?? null,
        lastDurationMs: attempt.durationMs,
        lastError: attempt.error ?? null,
        ...(status === 'pending' ? { nextAttemptAt: new Date(now.getTime() + retryIn!) } : {}),
      },
    });
    // Only while it is the subscription the attempt read: an admin's change meanwhile (enabled again, new URL) stands.
    if (disabledReason) {
      await tx.webhookSubscription.updateMany({ where: { id: subscription.id, active: true }, data: { active: false, disabledReason, failingSince } });
      await tx.webhookDelivery.updateMany({
        where: { subscriptionId: subscription.id, status: 'pending', id: { not: delivery.id } },
        data: { status: 'failed', lastError: `the subscription was disabled: ${disabledReason}` },
      });
    } else if ((subscription.failingSince === null) !== (failingSince === null)) {
      await tx.webhookSubscription.updateMany({ where: { id: subscription.id, active: true }, data: { failingSince } });
    }
  });
  return disabledReason ? 'disabled' : succeeded ? 'succeeded' : 'failed';
}

/** Attempts every due delivery, up to a batch, a few at a time; answers how many were attempted. */
export async function sweepDeliveries(ctx: RequestContext, ids?: string[]): Promise<number> {
  const now = ctx.clock.now();
  const due =
    ids ??
    (
      await ctx.db.webhookDelivery.findMany({
        where: { status: 'pending', nextAttemptAt: { lte: now }, OR: [{ lockedUntil: null }, { lockedUntil: { lte: now } }] },
        orderBy: [{ nextAttemptAt: 'asc' }, { id: 'asc' }],
        take: SWEEP_BATCH,
        select: { id: true },
      })
    ).map((row) => row.id);
  let attempted = 0;
  const queue = [...due];
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      if ((await attemptDelivery(ctx, id)) !== 'not-due') attempted++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(SWEEP_CONCURRENCY, queue.length) }, worker));
  return attempted;
}

/** Sends the deliveries a write just made (queued after its commit), at once. */
export const webhookDeliveryJob: JobKind<{ deliveryIds: string[] }> = {
  name: 'webhook-deliveries',
  // The deliveries keep their own schedule: the sweep retries them, not the queue.
  retryLimit: 0,
  timeoutSeconds: 600,
  run: async (ctx, data) => ({ attempted: await sweepDeliveries(ctx, data.deliveryIds) }),
};

/** Sends what is due (retries, and deliveries a stopped server left), every WEBHOOK_SWEEP_INTERVAL_SECONDS. */
export const webhookSweepJob: JobKind = {
  name: 'webhook-sweep',
  retryLimit: 0,
  timeoutSeconds: 600,
  run: async (ctx) => ({ attempted: await sweepDeliveries(ctx) }),
  idle: (output) => output.attempted === 0,
};

/** Queues the sending of deliveries a committed write made; the sweep sends them if this fails. */
export function sendDeliveriesSoon(ctx: RequestContext, deliveryIds: string[]): void {
  if (deliveryIds.length === 0 || !ctx.jobs) return;
  ctx.jobs.send(webhookDeliveryJob, { deliveryIds }).catch(() => {});
}
