import { print } from 'graphql';
import { createClient } from 'graphql-sse';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../support/app.ts';
import { buildTeam } from '../support/factories.ts';
import type { SpaceEventsSubscription, SpaceEventsSubscriptionVariables } from './gql/graphql.ts';
import { SpaceEvents } from './space-events.ts';

/**
 * The typed subscription a frontend writes, run with graphql-sse's client (the
 * one docs/api.md#live-updates shows): its results have the generated type.
 */
describe('the typed space-events subscription', () => {
  it('streams a change request opened and merged, each result typed by SpaceEventsSubscription', async () => {
    const t = await createTestApp();
    const team = await buildTeam(t.database);
    const spaceId: string = (await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Typed' } })).json().id;
    const client = createClient({ url: `${await t.listen()}/graphql`, headers: { Authorization: `Bearer ${team.admin.token}` } });
    const variables: SpaceEventsSubscriptionVariables = { spaceId };
    const events = client.iterate<SpaceEventsSubscription>({ query: print(SpaceEvents), variables });

    const received: SpaceEventsSubscription['spaceEvents'][] = [];
    const reading = (async () => {
      for await (const { data, errors } of events) {
        expect(errors).toBeUndefined();
        received.push(data!.spaceEvents);
        if (received.length === 3) break;
      }
    })();
    // graphql-sse answers once the stream is open; the server counts it then.
    await expect.poll(async () => /^docs_gateway_subscription_streams (\d+)$/m.exec((await t.call('GET', '/metrics')).body)?.[1]).toBe('1');
    const opened = await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { token: team.admin.token, body: { subject: 'Typed' } });
    await t.call('POST', `/v1/spaces/${spaceId}/change-requests/${opened.json().id}/merge`, { token: team.admin.token });
    await reading;
    client.dispose();

    const [first, merged, content] = received;
    // The union narrows on __typename, as the generated types say.
    if (first?.__typename !== 'ChangeRequestEvent' || merged?.__typename !== 'ChangeRequestEvent' || content?.__typename !== 'SpaceContentEvent') {
      throw new Error(`unexpected events: ${JSON.stringify(received)}`);
    }
    expect([first.kind, merged.kind, content.kind]).toEqual(['CHANGE_REQUEST_OPENED', 'CHANGE_REQUEST_MERGED', 'SPACE_CONTENT_UPDATED']);
    expect(merged.changeRequest).toEqual({ number: first.changeRequest!.number, subject: 'Typed', status: 'merged' });
    expect(content.revision?.id).toMatch(/^rev_/);
  });
});
