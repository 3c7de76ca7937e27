import type { WebhookSubscriptionRecord } from '../../db/index.ts';
import { WEBHOOK_EVENTS, WEBHOOK_EVENT_DESCRIPTIONS } from '../../domain/webhooks/events.ts';
import { type WebhookAttemptJSON, type WebhookDeliveryJSON, webhookEvents, webhookUrls } from '../../domain/webhooks/presenter.ts';
import {
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  listWebhookRecords,
  redeliverWebhookDelivery,
  rotateWebhookSecret,
  updateWebhook,
  webhookById,
} from '../../domain/webhooks/service.ts';
import { builder } from '../builder.ts';
import { connectionQuery, loadEach, toConnection } from '../connection.ts';
import { urlsObject } from './common.ts';
import { Organization } from './organization.ts';
import { User } from './user.ts';

const WebhookEvent = builder.enumType('WebhookEvent', {
  description: 'An event a webhook may subscribe to (GitBook names where it has them)',
  values: Object.fromEntries(WEBHOOK_EVENTS.map((event) => [event, { description: WEBHOOK_EVENT_DESCRIPTIONS[event] }])) as Record<
    (typeof WEBHOOK_EVENTS)[number],
    object
  >,
});

const WebhookDeliveryStatus = builder.enumType('WebhookDeliveryStatus', {
  description: 'Where a delivery stands',
  values: {
    pending: { description: 'An attempt is due at nextAttemptAt' },
    succeeded: { description: 'The receiver answered a 2xx' },
    failed: { description: 'No attempt left, or the webhook was disabled' },
    skipped: { description: "Not sent: the webhook's owner may not read what it concerns" },
  },
});

const WebhookAttempt = builder.objectRef<WebhookAttemptJSON>('WebhookAttempt').implement({
  description: 'One HTTP attempt of a delivery',
  fields: (t) => ({
    attempt: t.exposeInt('attempt', { description: 'Its number, from 1' }),
    succeeded: t.boolean({ description: 'Whether the receiver answered a 2xx', resolve: (attempt) => attempt.status === 'succeeded' }),
    responseCode: t.exposeInt('responseCode', { nullable: true, description: "The receiver's HTTP status; null when it did not answer" }),
    durationMs: t.exposeInt('durationMs', { description: 'How long the attempt took' }),
    error: t.exposeString('error', { nullable: true, description: 'Why it failed' }),
    at: t.exposeString('at', { description: 'When it ended (ISO 8601)' }),
  }),
});

const WebhookDelivery = builder.objectRef<WebhookDeliveryJSON>('WebhookDelivery').implement({
  description: 'One event for one webhook, and its log of attempts',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Id of the delivery' }),
    messageId: t.exposeString('messageId', { description: 'The webhook-id header: the same for a redelivery of the same event' }),
    event: t.field({ type: WebhookEvent, description: 'The event', resolve: (delivery) => delivery.event as (typeof WEBHOOK_EVENTS)[number] }),
    status: t.field({ type: WebhookDeliveryStatus, description: 'Where it stands', resolve: (delivery) => delivery.status }),
    attempts: t.exposeInt('attempts', { description: 'Attempts made so far' }),
    nextAttemptAt: t.exposeString('nextAttemptAt', { nullable: true, description: 'When the next attempt is due, while pending' }),
    payload: t.field({ type: 'JSON', description: 'The body sent', resolve: (delivery) => delivery.payload }),
    createdAt: t.exposeString('createdAt', { description: 'When the event was written' }),
    log: t.field({ type: [WebhookAttempt], description: 'Every attempt, first to last', resolve: (delivery) => delivery.log }),
  }),
});

const WebhookUrls = urlsObject('WebhookUrls', ['location', 'deliveries']);

/** Backed by the subscription's row (admins of its organization only); the secret is never read back. */
export const Webhook = builder.loadableNodeRef<WebhookSubscriptionRecord, string>('Webhook', {
  id: { resolve: (webhook) => webhook.id },
  load: (ids, ctx) => loadEach(ids, (id) => webhookById(ctx, id)),
});

Webhook.implement({
  description: "An organization's subscription to its events, delivered as Standard Webhooks (signed HTTP POSTs)",
  fields: (t) => ({
    url: t.exposeString('url', { description: 'Where deliveries are POSTed' }),
    events: t.field({
      type: [WebhookEvent],
      description: 'The events it receives',
      resolve: (webhook) => webhookEvents(webhook) as Array<(typeof WEBHOOK_EVENTS)[number]>,
    }),
    active: t.exposeBoolean('active', { description: 'false: nothing is delivered' }),
    disabledReason: t.string({
      nullable: true,
      description: 'Why the server disabled it (a 410, a day of failures)',
      resolve: (webhook) => (webhook.active ? null : webhook.disabledReason),
    }),
    createdBy: t.field({
      type: User,
      nullable: true,
      description: 'The admin who made it: deliveries carry only what this user may read (null when the caller may no longer see that user)',
      resolve: (webhook) => webhook.createdById,
    }),
    createdAt: t.field({ type: 'DateTime', description: 'When it was made', resolve: (webhook) => webhook.createdAt.toISOString() }),
    urls: t.field({ type: WebhookUrls, description: 'Its addresses in this REST API', resolve: (webhook, _args, ctx) => webhookUrls(webhook, ctx.urls) }),
    organization: t.field({ type: Organization, description: 'Whose events it receives', resolve: (webhook) => webhook.organizationId }),
    deliveries: t.connection({
      type: WebhookDelivery,
      description: 'Its deliveries, newest first',
      resolve: async (webhook, args, ctx) => toConnection(await listWebhookDeliveries(ctx, webhook.organizationId, webhook.id, connectionQuery(args))),
    }),
  }),
});

builder.objectField(Organization, 'webhooks', (t) =>
  t.connection({
    type: Webhook,
    description: 'Webhooks of the organization, oldest first (admins)',
    resolve: async (org, args, ctx) => toConnection(await listWebhookRecords(ctx, org.id, connectionQuery(args))),
  }),
);

/** A mutation's payload: the webhook, read again, and the secret when the mutation made one (shown this once). */
const webhookPayload = {
  outputFields: (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, { webhookId: string; secret?: string }>) => ({
    webhook: t.field({ type: Webhook, resolve: (payload, _args, ctx) => webhookById(ctx, payload.webhookId) }),
    secret: t.string({
      nullable: true,
      description: 'The signing secret (whsec_...): only in the answers of createWebhook and rotateWebhookSecret',
      resolve: (payload) => payload.secret ?? null,
    }),
  }),
};

/** The REST body of the fields given. */
const given = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== null));

builder.relayMutationField(
  'createWebhook',
  {
    inputFields: (t) => ({
      organizationId: t.id({ required: true, description: 'The organization' }),
      url: t.string({ required: true, description: 'Where deliveries are POSTed (http or https)' }),
      events: t.field({ type: [WebhookEvent], required: true, description: 'The events it receives' }),
      active: t.boolean({ description: 'false: made disabled (default true)' }),
    }),
  },
  {
    description: 'Subscribes a URL to events of an organization (admins); the payload holds the secret, shown this once',
    resolve: async (_root, { input: { organizationId, ...fields } }, ctx) => {
      const created = await createWebhook(ctx, organizationId, given(fields));
      return { webhookId: created.id, secret: created.secret! };
    },
  },
  webhookPayload,
);

builder.relayMutationField(
  'updateWebhook',
  {
    inputFields: (t) => ({
      webhookId: t.id({ required: true, description: 'The webhook' }),
      url: t.string({ description: 'Where deliveries are POSTed (http or https)' }),
      events: t.field({ type: [WebhookEvent], description: 'The events it receives' }),
      active: t.boolean({ description: 'true enables a disabled webhook again' }),
    }),
  },
  {
    description: 'Changes a webhook (admins); fields left out stay as they are',
    resolve: async (_root, { input: { webhookId, ...fields } }, ctx) => {
      const webhook = await webhookById(ctx, webhookId);
      await updateWebhook(ctx, webhook.organizationId, webhookId, given(fields));
      return { webhookId };
    },
  },
  webhookPayload,
);

builder.relayMutationField(
  'rotateWebhookSecret',
  { inputFields: (t) => ({ webhookId: t.id({ required: true, description: 'The webhook' }) }) },
  {
    description: 'Gives a webhook a new secret, shown this once; the old one still signs for a day (admins)',
    resolve: async (_root, { input: { webhookId } }, ctx) => {
      const webhook = await webhookById(ctx, webhookId);
      const rotated = await rotateWebhookSecret(ctx, webhook.organizationId, webhookId);
      return { webhookId, secret: rotated.secret! };
    },
  },
  webhookPayload,
);

builder.relayMutationField(
  'deleteWebhook',
  { inputFields: (t) => ({ webhookId: t.id({ required: true, description: 'The webhook' }) }) },
  {
    description: 'Deletes a webhook and its delivery log (admins)',
    resolve: async (_root, { input: { webhookId } }, ctx) => {
      const webhook = await webhookById(ctx, webhookId);
      await deleteWebhook(ctx, webhook.organizationId, webhookId);
      return { deletedWebhookId: webhookId };
    },
  },
  { outputFields: (t) => ({ deletedWebhookId: t.exposeID('deletedWebhookId', { description: 'Id of the webhook deleted' }) }) },
);

builder.relayMutationField(
  'redeliverWebhookDelivery',
  {
    inputFields: (t) => ({
      webhookId: t.id({ required: true, description: 'The webhook' }),
      deliveryId: t.id({ required: true, description: 'The delivery to send again' }),
    }),
  },
  {
    description: "Sends a delivery's event again, as a new delivery with the same webhook-id (admins)",
    resolve: async (_root, { input: { webhookId, deliveryId } }, ctx) => {
      const webhook = await webhookById(ctx, webhookId);
      return { delivery: await redeliverWebhookDelivery(ctx, webhook.organizationId, webhookId, deliveryId) };
    },
  },
  { outputFields: (t) => ({ delivery: t.field({ type: WebhookDelivery, description: 'The new delivery', resolve: (payload) => payload.delivery }) }) },
);
