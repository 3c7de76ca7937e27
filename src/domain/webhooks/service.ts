import type { RequestContext } from '../../context.ts';
import type { WebhookDeliveryRecord, WebhookSubscriptionRecord } from '../../db/index.ts';
import { conflict, invalid, notFound } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { type Ordering, type Page, pageRequestOf } from '../../lib/pagination.ts';
import { fetchableUrl } from '../../lib/safe-fetch.ts';
import { newWebhookSecret } from '../../lib/standard-webhooks.ts';
import { parseInput } from '../../lib/validation.ts';
import { authorize } from '../access.ts';
import { defineRecordLoader, loader } from '../loaders.ts';
import { organizationAccess, visibleOrganization } from '../organizations/service.ts';
import { type ChildListing, countsBy, listChildren, mapPage } from '../shared/pages.ts';
import { inTransaction } from '../transaction.ts';
import { requireViewer } from '../users/service.ts';
import { sendDeliveriesSoon, settingsOf } from './delivery.ts';
import { CreateWebhookInput, ListWebhookDeliveriesQuery, ListWebhooksQuery, UpdateWebhookInput } from './inputs.ts';
import { type WebhookDeliveryJSON, type WebhookJSON, presentWebhook, presentWebhookDelivery } from './presenter.ts';

/**
 * Webhooks: an organization's subscriptions to its events, delivered as signed
 * HTTP POSTs (src/domain/webhooks/delivery.ts). Organization admins only: they
 * list, read, make, change, delete them, rotate their secrets, read their
 * delivery logs and redeliver. A secret is shown once, in the answer that made it.
 */

export const webhookRecords = defineRecordLoader((ctx, ids) => ctx.db.webhookSubscription.findMany({ where: { id: { in: ids } } }));

async function adminOf(ctx: RequestContext, organizationId: string, action: string): Promise<void> {
  const { access } = await visibleOrganization(ctx, organizationId);
  authorize(access.role === 'admin', action);
}

const READ = "read this organization's webhooks";
const CONFIGURE = 'configure webhooks of this organization';

async function findWebhook(ctx: RequestContext, organizationId: string, webhookId: string): Promise<WebhookSubscriptionRecord> {
  const webhook = await loader(ctx, webhookRecords).load(webhookId);
  if (!webhook || webhook.organizationId !== organizationId) throw notFound('Webhook', webhookId);
  return webhook;
}

const byCreation: Ordering<WebhookSubscriptionRecord> = {
  name: 'webhooks:createdAt',
  keys: [
    { field: 'createdAt', direction: 'asc', type: 'date', value: (row) => row.createdAt },
    { field: 'id', direction: 'asc', type: 'string', value: (row) => row.id },
  ],
};

const webhooksOfOrganization: ChildListing<WebhookSubscriptionRecord, null> = {
  name: 'organization-webhooks',
  records: webhookRecords,
  ordering: () => byCreation,
  parentOf: (row) => row.organizationId,
  findMany: (ctx, organizationIds, _filter, args) =>
    ctx.db.webhookSubscription.findMany({ ...args, where: { AND: [{ organizationId: { in: organizationIds } }, args.where] } }),
  count: async (ctx, organizationIds) =>
    countsBy(
      await ctx.db.webhookSubscription.groupBy({ by: ['organizationId'], where: { organizationId: { in: organizationIds } }, _count: { _all: true } }),
      'organizationId',
    ),
};

const deliveriesNewestFirst: Ordering<WebhookDeliveryRecord> = {
  name: 'webhook-deliveries:createdAt',
  keys: [
    { field: 'createdAt', direction: 'desc', type: 'date', value: (row) => row.createdAt },
    { field: 'id', direction: 'desc', type: 'string', value: (row) => row.id },
  ],
};

const deliveriesOfWebhook: ChildListing<WebhookDeliveryRecord, null> = {
  name: 'webhook-deliveries',
  ordering: () => deliveriesNewestFirst,
  parentOf: (row) => row.subscriptionId,
  findMany: (ctx, ids, _filter, args) => ctx.db.webhookDelivery.findMany({ ...args, where: { AND: [{ subscriptionId: { in: ids } }, args.where] } }),
  count: async (ctx, ids) =>
    countsBy(
      await ctx.db.webhookDelivery.groupBy({ by: ['subscriptionId'], where: { subscriptionId: { in: ids } }, _count: { _all: true } }),
      'subscriptionId',
    ),
};

const present = (ctx: RequestContext, webhook: WebhookSubscriptionRecord, secret?: string) => presentWebhook(webhook, ctx.urls, ctx.clock.now(), secret);

/** Webhooks of an organization, oldest first (admins). */
export async function listWebhookRecords(ctx: RequestContext, organizationId: string, query: unknown): Promise<Page<WebhookSubscriptionRecord>> {
  const params = parseInput(ListWebhooksQuery, query, 'query');
  await adminOf(ctx, organizationId, READ);
  return listChildren(ctx, webhooksOfOrganization, organizationId, null, pageRequestOf(params));
}

export async function listWebhooks(ctx: RequestContext, organizationId: string, query: unknown): Promise<Page<WebhookJSON>> {
  return mapPage(await listWebhookRecords(ctx, organizationId, query), (webhook) => present(ctx, webhook));
}

export async function webhookRecord(ctx: RequestContext, organizationId: string, webhookId: string): Promise<WebhookSubscriptionRecord> {
  await adminOf(ctx, organizationId, READ);
  return findWebhook(ctx, organizationId, webhookId);
}

export async function getWebhook(ctx: RequestContext, organizationId: string, webhookId: string): Promise<WebhookJSON> {
  return present(ctx, await webhookRecord(ctx, organizationId, webhookId));
}

/** A webhook by id alone (GraphQL nodes and mutations): outside the caller's organizations it does not exist. */
export async function webhookById(ctx: RequestContext, webhookId: string): Promise<WebhookSubscriptionRecord> {
  const webhook = await loader(ctx, webhookRecords).load(webhookId);
  if (!webhook || !(await organizationAccess(ctx, webhook.organizationId)).member) throw notFound('Webhook', webhookId);
  return webhookRecord(ctx, webhook.organizationId, webhookId);
}

/** The fetcher's rules, as far as they can be told before connecting (a name is checked at each delivery, where it connects). */
function checkUrl(ctx: RequestContext, url: string | undefined): void {
  if (url === undefined) return;
  const refused = fetchableUrl(new URL(url), ctx.fetchPrivateAddresses === true);
  if (refused) throw invalid(`url: ${refused}`);
}

/** A row just written, read past the request's loaders. */
const reread = (ctx: RequestContext, id: string) => ctx.db.webhookSubscription.findUniqueOrThrow({ where: { id } });

export async function createWebhook(ctx: RequestContext, organizationId: string, body: unknown): Promise<WebhookJSON> {
  const viewer = requireViewer(ctx);
  await adminOf(ctx, organizationId, CONFIGURE);
  const input = parseInput(CreateWebhookInput, body);
  checkUrl(ctx, input.url);
  const id = newId('webhook');
  const secret = newWebhookSecret();
  await inTransaction(ctx, { action: 'webhook.create', organizationId, target: { type: 'webhook', id } }, (tx) =>
    tx.db.webhookSubscription.create({
      data: { id, organizationId, createdById: viewer.id, url: input.url, events: input.events.join(','), secret, active: input.active ?? true },
    }),
  );
  return present(ctx, await reread(ctx, id), secret);
}

export async function updateWebhook(ctx: RequestContext, organizationId: string, webhookId: string, body: unknown): Promise<WebhookJSON> {
  await adminOf(ctx, organizationId, CONFIGURE);
  const input = parseInput(UpdateWebhookInput, body);
  await findWebhook(ctx, organizationId, webhookId);
  checkUrl(ctx, input.url);
  await inTransaction(ctx, { action: 'webhook.update', organizationId, target: { type: 'webhook', id: webhookId } }, (tx) =>
    tx.db.webhookSubscription.update({
      where: { id: webhookId },
      data: {
        ...(input.url !== undefined ? { url: input.url } : {}),
        ...(input.events !== undefined ? { events: input.events.join(',') } : {}),
        // Enabled again (or disabled by an admin): the server's reason and failures are forgotten.
        ...(input.active !== undefined ? { active: input.active, disabledReason: null, failingSince: null } : {}),
      },
    }),
  );
  return present(ctx, await reread(ctx, webhookId));
}

export async function deleteWebhook(ctx: RequestContext, organizationId: string, webhookId: string): Promise<void> {
  await adminOf(ctx, organizationId, CONFIGURE);
  await findWebhook(ctx, organizationId, webhookId);
  await inTransaction(ctx, { action: 'webhook.delete', organizationId, target: { type: 'webhook', id: webhookId } }, (tx) =>
    tx.db.webhookSubscription.deleteMany({ where: { id: webhookId } }),
  );
}

/**
 * A new secret, shown in the answer; the one it replaces still signs for a day
 * (WEBHOOK_SECRET_OVERLAP_SECONDS), so deliveries carry both signatures until receivers switch.
 */
export async function rotateWebhookSecret(ctx: RequestContext, organizationId: string, webhookId: string): Promise<WebhookJSON> {
  await adminOf(ctx, organizationId, CONFIGURE);
  await findWebhook(ctx, organizationId, webhookId);
  const secret = newWebhookSecret();
  const expires = new Date(ctx.clock.now().getTime() + settingsOf(ctx).secretOverlapMs);
  await inTransaction(ctx, { action: 'webhook.rotate_secret', organizationId, target: { type: 'webhook', id: webhookId } }, async (tx) => {
    const current = await tx.db.webhookSubscription.findUniqueOrThrow({ where: { id: webhookId } });
    await tx.db.webhookSubscription.update({ where: { id: webhookId }, data: { secret, previousSecret: current.secret, previousSecretExpiresAt: expires } });
  });
  return present(ctx, await reread(ctx, webhookId), secret);
}

async function presentDeliveries(ctx: RequestContext, deliveries: WebhookDeliveryRecord[]): Promise<WebhookDeliveryJSON[]> {
  const attempts = await ctx.db.webhookAttempt.findMany({ where: { deliveryId: { in: deliveries.map((row) => row.id) } }, orderBy: { attempt: 'asc' } });
  return deliveries.map((delivery) =>
    presentWebhookDelivery(
      delivery,
      attempts.filter((attempt) => attempt.deliveryId === delivery.id),
    ),
  );
}

/** A webhook's deliveries, newest first, each with its log of attempts (admins). */
export async function listWebhookDeliveries(
  ctx: RequestContext,
  organizationId: string,
  webhookId: string,
  query: unknown,
): Promise<Page<WebhookDeliveryJSON>> {
  const params = parseInput(ListWebhookDeliveriesQuery, query, 'query');
  await webhookRecord(ctx, organizationId, webhookId);
  const page = await listChildren(ctx, deliveriesOfWebhook, webhookId, null, pageRequestOf(params));
  const items = await presentDeliveries(ctx, page.items);
  return { ...page, items };
}

async function findDelivery(ctx: RequestContext, organizationId: string, webhookId: string, deliveryId: string): Promise<WebhookDeliveryRecord> {
  await webhookRecord(ctx, organizationId, webhookId);
  const delivery = await ctx.db.webhookDelivery.findUnique({ where: { id: deliveryId } });
  if (!delivery || delivery.subscriptionId !== webhookId) throw notFound('Webhook delivery', deliveryId);
  return delivery;
}

export async function getWebhookDelivery(ctx: RequestContext, organizationId: string, webhookId: string, deliveryId: string): Promise<WebhookDeliveryJSON> {
  const [presented] = await presentDeliveries(ctx, [await findDelivery(ctx, organizationId, webhookId, deliveryId)]);
  return presented!;
}

/**
 * Sends a delivery's event again, as a new delivery with the same `webhook-id`
 * (receivers that keep ids see a repeat), now and then on the retry schedule.
 */
export async function redeliverWebhookDelivery(
  ctx: RequestContext,
  organizationId: string,
  webhookId: string,
  deliveryId: string,
): Promise<WebhookDeliveryJSON> {
  await adminOf(ctx, organizationId, CONFIGURE);
  const original = await findDelivery(ctx, organizationId, webhookId, deliveryId);
  const webhook = await findWebhook(ctx, organizationId, webhookId);
  if (!webhook.active) throw conflict(`webhook "${webhookId}" is disabled: enable it (active: true) before redelivering`);
  const id = newId('webhookDelivery');
  await inTransaction(ctx, { action: 'webhook.redeliver', organizationId, target: { type: 'webhook', id: webhookId } }, (tx) =>
    tx.db.webhookDelivery.create({
      data: {
        id,
        organizationId,
        subscriptionId: webhookId,
        messageId: original.messageId,
        eventType: original.eventType,
        payload: original.payload,
        nextAttemptAt: tx.clock.now(),
      },
    }),
  );
  sendDeliveriesSoon(ctx, [id]);
  return getWebhookDelivery(ctx, organizationId, webhookId, id);
}
