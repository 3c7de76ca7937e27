import type { RequestContext } from '../../context.ts';
import type { DomainEvent } from '../../events/event.ts';
import { newId } from '../../lib/ids.ts';
import { type WebhookPayload, webhookEventOf } from './events.ts';
import { webhookEvents } from './presenter.ts';

/**
 * The outbox: a write's webhook events become delivery rows in the write's own
 * transaction (src/domain/transaction.ts calls this before it commits), one per
 * active subscription of the organization that wants the event. A write that
 * rolls back leaves none; a server that stops after the commit leaves them for
 * the next sweep (src/domain/webhooks/delivery.ts). Answers the ids written.
 */
export async function recordWebhookDeliveries(tx: RequestContext, events: readonly DomainEvent[]): Promise<string[]> {
  const byOrganization = new Map<string, WebhookPayload[]>();
  for (const event of events) {
    const payload = webhookEventOf(event);
    if (payload) byOrganization.set(event.organizationId, [...(byOrganization.get(event.organizationId) ?? []), payload]);
  }
  if (byOrganization.size === 0) return [];
  const subscriptions = await tx.db.webhookSubscription.findMany({
    where: { organizationId: { in: [...byOrganization.keys()] }, active: true },
    select: { id: true, organizationId: true, events: true },
  });
  if (subscriptions.length === 0) return [];
  const now = tx.clock.now();
  const rows = [];
  for (const subscription of subscriptions) {
    const wanted = new Set(webhookEvents(subscription));
    for (const payload of byOrganization.get(subscription.organizationId) ?? []) {
      if (!wanted.has(payload.type)) continue;
      rows.push({
        id: newId('webhookDelivery'),
        organizationId: subscription.organizationId,
        subscriptionId: subscription.id,
        messageId: newId('webhookMessage'),
        eventType: payload.type,
        payload: JSON.stringify(payload),
        nextAttemptAt: now,
      });
    }
  }
  if (rows.length > 0) await tx.db.webhookDelivery.createMany({ data: rows });
  return rows.map((row) => row.id);
}
