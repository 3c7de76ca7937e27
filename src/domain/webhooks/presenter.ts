import type { PublicUrls } from '../../config.ts';
import type { WebhookAttemptRecord, WebhookDeliveryRecord, WebhookSubscriptionRecord } from '../../db/index.ts';

/** A subscription as both contracts show it; `secret` only in the answers that make one (creation, rotation). */
export interface WebhookJSON {
  object: 'webhook';
  id: string;
  url: string;
  events: string[];
  active: boolean;
  /** Why the server disabled it (a 410, a day of failures); absent when an admin did, or while active. */
  disabledReason?: string;
  /** Id of the admin who made it: deliveries carry only what this user may read. */
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  /** Until when the secret before the last rotation still signs (both signatures are sent). */
  previousSecretExpiresAt?: string;
  secret?: string;
  urls: { location: string; deliveries: string };
}

export interface WebhookAttemptJSON {
  attempt: number;
  status: 'succeeded' | 'failed';
  responseCode?: number;
  durationMs: number;
  error?: string;
  at: string;
}

export interface WebhookDeliveryJSON {
  object: 'webhook-delivery';
  id: string;
  /** The `webhook-id` header: the same for a redelivery of the same event. */
  messageId: string;
  event: string;
  status: 'pending' | 'succeeded' | 'failed' | 'skipped';
  attempts: number;
  nextAttemptAt?: string;
  lastResponseCode?: number;
  lastDurationMs?: number;
  lastError?: string;
  createdAt: string;
  updatedAt: string;
  /** The body sent. */
  payload: unknown;
  /** Every attempt, first to last. */
  log: WebhookAttemptJSON[];
}

export const webhookEvents = (subscription: Pick<WebhookSubscriptionRecord, 'events'>): string[] => subscription.events.split(',').filter(Boolean);

export function webhookUrls(subscription: Pick<WebhookSubscriptionRecord, 'id' | 'organizationId'>, urls: PublicUrls) {
  const location = `${urls.api}/v1/orgs/${subscription.organizationId}/webhooks/${subscription.id}`;
  return { location, deliveries: `${location}/deliveries` };
}

export function presentWebhook(subscription: WebhookSubscriptionRecord, urls: PublicUrls, now: Date, secret?: string): WebhookJSON {
  return {
    object: 'webhook',
    id: subscription.id,
    url: subscription.url,
    events: webhookEvents(subscription),
    active: subscription.active,
    ...(!subscription.active && subscription.disabledReason ? { disabledReason: subscription.disabledReason } : {}),
    createdBy: subscription.createdById,
    createdAt: subscription.createdAt.toISOString(),
    updatedAt: subscription.updatedAt.toISOString(),
    ...(subscription.previousSecretExpiresAt && subscription.previousSecretExpiresAt > now
      ? { previousSecretExpiresAt: subscription.previousSecretExpiresAt.toISOString() }
      : {}),
    ...(secret ? { secret } : {}),
    urls: webhookUrls(subscription, urls),
  };
}

export function presentWebhookAttempt(attempt: WebhookAttemptRecord): WebhookAttemptJSON {
  return {
    attempt: attempt.attempt,
    status: attempt.status as WebhookAttemptJSON['status'],
    ...(attempt.responseCode !== null ? { responseCode: attempt.responseCode } : {}),
    durationMs: attempt.durationMs,
    ...(attempt.error !== null ? { error: attempt.error } : {}),
    at: attempt.at.toISOString(),
  };
}

export function presentWebhookDelivery(delivery: WebhookDeliveryRecord, attempts: WebhookAttemptRecord[]): WebhookDeliveryJSON {
  return {
    object: 'webhook-delivery',
    id: delivery.id,
    messageId: delivery.messageId,
    event: delivery.eventType,
    status: delivery.status as WebhookDeliveryJSON['status'],
    attempts: delivery.attempts,
    ...(delivery.status === 'pending' ? { nextAttemptAt: delivery.nextAttemptAt.toISOString() } : {}),
    ...(delivery.lastResponseCode !== null ? { lastResponseCode: delivery.lastResponseCode } : {}),
    ...(delivery.lastDurationMs !== null ? { lastDurationMs: delivery.lastDurationMs } : {}),
    ...(delivery.lastError !== null ? { lastError: delivery.lastError } : {}),
    createdAt: delivery.createdAt.toISOString(),
    updatedAt: delivery.updatedAt.toISOString(),
    payload: JSON.parse(delivery.payload),
    log: attempts.map(presentWebhookAttempt),
  };
}
