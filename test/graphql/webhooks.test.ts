import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_URLS, type TestApp, createTestApp } from '../support/app.ts';
import { buildTeam } from '../support/factories.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';

/** Webhooks in the graph: the same service as REST, the secret in the payloads that make one, the delivery log. */

let t: TestApp;
let receiver: Receiver;
beforeAll(async () => {
  t = await createTestApp({ webhooks: { retryScheduleMs: [300], timeoutMs: 5000, disableAfterMs: 3600_000, secretOverlapMs: 3600_000, sweepIntervalMs: 200 } });
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const FIELDS = 'id url events active disabledReason createdBy { id } urls { location deliveries } organization { id }';

describe('webhooks in GraphQL', () => {
  it('are made with their secret once, read as REST reads them, rotated, listed with their deliveries, and deleted', async () => {
    const { organization, admin, member } = await buildTeam(t.database);
    const created = await t.graphql(admin.token, `mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { secret webhook { ${FIELDS} } } }`, {
      input: { organizationId: organization.id, url: receiver.url, events: ['comment_posted'] },
    });
    expect(created.errors).toBeUndefined();
    const { secret, webhook } = created.data.createWebhook;
    expect(secret).toMatch(/^whsec_/);
    receiver.secrets.push(secret);
    const location = `${TEST_URLS.api}/v1/orgs/${organization.id}/webhooks/${webhook.id}`;
    expect(webhook).toEqual({
      id: expect.stringMatching(/^wh_/),
      url: receiver.url,
      events: ['comment_posted'],
      active: true,
      disabledReason: null,
      createdBy: { id: admin.id },
      urls: { location, deliveries: `${location}/deliveries` },
      organization: { id: organization.id },
    });
    const rest = (await t.call('GET', `/v1/orgs/${organization.id}/webhooks/${webhook.id}`, { token: admin.token })).json();
    expect(rest).toMatchObject({ id: webhook.id, url: webhook.url, events: webhook.events, active: true, createdBy: admin.id });

    const space = (await t.call('POST', `/v1/orgs/${organization.id}/spaces`, { token: admin.token, body: { title: 'Guide' } })).json();
    const posted = await t.call('POST', `/v1/spaces/${space.id}/comments`, { token: admin.token, body: { body: { markdown: 'Hello' } } });
    expect(posted.statusCode, posted.body).toBe(200);
    await vi.waitUntil(() => receiver.accepted().length === 1, { timeout: 15_000, interval: 50 });
    const listQuery = `query($id: ID!) { node(id: $id) { ... on Organization { webhooks(first: 5) { edges { node { id deliveries(first: 5) { edges { node {
      id messageId event status attempts payload log { attempt succeeded responseCode } } } } } } } } } }`;
    const read = async () => (await t.graphql(admin.token, listQuery, { id: organization.id })).data.node.webhooks.edges[0].node.deliveries.edges;
    await vi.waitUntil(async () => (await read())[0]?.node.status === 'succeeded', { timeout: 10_000, interval: 50 });
    const [edge] = await read();
    expect(edge.node).toMatchObject({
      messageId: receiver.accepted()[0]!.id,
      event: 'comment_posted',
      attempts: 1,
      payload: receiver.accepted()[0]!.payload,
      log: [{ attempt: 1, succeeded: true, responseCode: 204 }],
    });

    const redelivered = await t.graphql(
      admin.token,
      'mutation($input: RedeliverWebhookDeliveryInput!) { redeliverWebhookDelivery(input: $input) { delivery { id messageId status } } }',
      { input: { webhookId: webhook.id, deliveryId: edge.node.id } },
    );
    expect(redelivered.data.redeliverWebhookDelivery.delivery).toMatchObject({ messageId: edge.node.messageId, status: 'pending' });
    await vi.waitUntil(() => receiver.accepted().length === 2, { timeout: 15_000, interval: 50 });

    const rotated = await t.graphql(
      admin.token,
      'mutation($input: RotateWebhookSecretInput!) { rotateWebhookSecret(input: $input) { secret webhook { id } } }',
      {
        input: { webhookId: webhook.id },
      },
    );
    expect(rotated.data.rotateWebhookSecret.secret).toMatch(/^whsec_/);
    expect(rotated.data.rotateWebhookSecret.secret).not.toBe(secret);
    const updated = await t.graphql(
      admin.token,
      'mutation($input: UpdateWebhookInput!) { updateWebhook(input: $input) { secret webhook { events active } } }',
      {
        input: { webhookId: webhook.id, events: ['site_published', 'site_unpublished'], active: false },
      },
    );
    expect(updated.data.updateWebhook).toEqual({ secret: null, webhook: { events: ['site_published', 'site_unpublished'], active: false } });

    // Not an admin: not found through the node, refused on the organization.
    const editor = await member('edit');
    const hidden = await t.graphql(editor.token, 'query($id: ID!) { node(id: $id) { id } }', { id: webhook.id });
    expect(hidden.errors?.[0]?.extensions?.code).toBe(403);

    const deleted = await t.graphql(admin.token, 'mutation($input: DeleteWebhookInput!) { deleteWebhook(input: $input) { deletedWebhookId } }', {
      input: { webhookId: webhook.id },
    });
    expect(deleted.data.deleteWebhook.deletedWebhookId).toBe(webhook.id);
    expect(await t.database.db.webhookSubscription.count({ where: { id: webhook.id } })).toBe(0);
  });
});
