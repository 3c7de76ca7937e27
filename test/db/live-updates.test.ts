import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { providerOf } from '../../src/db/client.ts';
import { EVENTS_LISTENER } from '../../src/events/bus.ts';
import { hashApiToken } from '../../src/lib/tokens.ts';
import { createTestApp } from '../support/app.ts';
import { subscribe } from '../support/event-stream.ts';
import { buildTeam } from '../support/factories.ts';
import { REDIS_URL, freePort, redisAvailable } from '../support/network.ts';
import { testDatabaseUrl } from '../support/worker-database.ts';

/**
 * Live updates across instances: two servers on one database, a subscriber on
 * one, the writes on the other. Through Redis when REDIS_URL is set, through
 * PostgreSQL LISTEN/NOTIFY without it; SQLite alone serves one instance and
 * keeps its events in process.
 */

const onPostgres = providerOf(testDatabaseUrl()) === 'postgresql';
const withRedis = await redisAvailable();

const CHANGE_REQUEST_EVENTS = `subscription($id: ID!) {
  changeRequestEvents(changeRequestId: $id) {
    ... on Event { kind }
    ... on ChangeRequestEvent { changeRequest { id status subject } }
    ... on CommentEvent { comment { id } }
  }
}`;

async function twoInstances(events: { redisUrl?: string; redisPrefix?: string }) {
  const one = await createTestApp({ events });
  const two = await createTestApp({ events });
  const team = await buildTeam(one.database);
  const space = await one.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Shared' } });
  const changeRequest = await one.call('POST', `/v1/spaces/${space.json().id}/change-requests`, { token: team.admin.token, body: { subject: 'Across' } });
  return { one, two, team, spaceId: space.json().id as string, changeRequestId: changeRequest.json().id as string };
}

/** Writes on `one` while `two` streams them: a comment, a new subject, the merge. */
async function expectHeardAcross({ one, two, team, spaceId, changeRequestId }: Awaited<ReturnType<typeof twoInstances>>) {
  const stream = await subscribe(await two.listen(), team.admin.token, CHANGE_REQUEST_EVENTS, { id: changeRequestId });
  expect(stream.status).toBe(200);
  const base = `/v1/spaces/${spaceId}/change-requests/${changeRequestId}`;
  // Subscribed once its answer started: a write right after is heard.
  const comment = await one.call('POST', `${base}/comments`, { token: team.admin.token, body: { body: { markdown: 'From the other instance' } } });
  expect(comment.statusCode, comment.body).toBe(200);
  expect((await one.call('PATCH', base, { token: team.admin.token, body: { subject: 'Renamed across' } })).statusCode).toBe(200);
  expect((await one.call('POST', `${base}/merge`, { token: team.admin.token })).statusCode).toBe(200);

  const results = await stream.until(3);
  expect(results.map((result) => result.data!.changeRequestEvents)).toEqual([
    { kind: 'COMMENT_POSTED', comment: { id: comment.json().id } },
    // Objects are read when the event is delivered: by then it may be merged already.
    { kind: 'CHANGE_REQUEST_UPDATED', changeRequest: expect.objectContaining({ id: changeRequestId, subject: 'Renamed across' }) },
    { kind: 'CHANGE_REQUEST_MERGED', changeRequest: { id: changeRequestId, status: 'merged', subject: 'Renamed across' } },
  ]);
  stream.close();
}

describe.skipIf(!withRedis)('live updates through Redis (REDIS_URL)', () => {
  it('reach a subscriber of one instance when another instance makes the write, whatever else is published on the channel', async () => {
    const redisPrefix = `test-${randomUUID()}`;
    const instances = await twoInstances({ redisUrl: REDIS_URL, redisPrefix });
    expect([instances.one.app.events.transport, instances.two.app.events.transport]).toEqual(['redis', 'redis']);
    // Another program's messages on the channel — not JSON, not an event — are ignored, not fatal.
    const { Redis } = await import('ioredis');
    const other = new Redis(REDIS_URL);
    await instances.two.listen();
    await other.publish(`${redisPrefix}:events`, 'hello');
    await other.publish(`${redisPrefix}:events`, JSON.stringify({ origin: 'elsewhere', event: { kind: 'nothing' } }));
    other.disconnect();
    await expectHeardAcross(instances);
  });
});

describe.skipIf(!onPostgres)('live updates through PostgreSQL LISTEN/NOTIFY', () => {
  it('reach a subscriber of one instance when another instance makes the write, the subscribing instance listening on a connection of its own', async () => {
    const instances = await twoInstances({});
    expect([instances.one.app.events.transport, instances.two.app.events.transport]).toEqual(['postgresql', 'postgresql']);
    await expectHeardAcross(instances);
    const listeners = await instances.one.database.readRows<{ count: string }>(
      'SELECT count(*) AS count FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
      [EVENTS_LISTENER],
    );
    // The writer's instance serves no subscription: it holds no listening connection (at least the other one does).
    expect(Number(listeners[0]!.count)).toBeGreaterThanOrEqual(1);
  });
});

describe.skipIf(!onPostgres)('live updates through PostgreSQL LISTEN/NOTIFY, in a burst', () => {
  it('reach the other instance each once, in the order they were published', async () => {
    const { one, two, team, spaceId } = await twoInstances({});
    const stream = await subscribe(await two.listen(), team.admin.token, 'subscription($id: ID!) { spaceEvents(spaceId: $id) { ... on Event { id kind } } }', {
      id: spaceId,
    });
    const { revisionId } = await one.database.db.space.findUniqueOrThrow({ where: { id: spaceId } });
    // Published in one go, faster than one NOTIFY per round trip: they go in batches, in order.
    const ids = Array.from({ length: 60 }, (_, i) => `evt_burst${String(i).padStart(2, '0')}${randomUUID().slice(0, 8)}`);
    const statementsBefore = one.database.statementCount();
    for (const id of ids) {
      one.app.events.publish({
        id,
        at: new Date().toISOString(),
        kind: 'space.content_updated',
        organizationId: team.organization.id,
        spaceId,
        subjectId: spaceId,
        data: { revisionId },
      });
      // One too large for a NOTIFY in the middle: left out, not taking the batch down with it.
      if (id === ids[30])
        one.app.events.publish({
          id: 'evt_toolarge',
          at: new Date().toISOString(),
          kind: 'space.content_updated',
          organizationId: team.organization.id,
          spaceId,
          subjectId: spaceId,
          data: { revisionId: 'x'.repeat(9_000) },
        });
    }
    const results = await stream.until(ids.length);
    expect(results.map((result) => result.data!.spaceEvents.id)).toEqual(ids);
    // The first alone, the rest together once it returned: two statements, not sixty (a few more room for other work).
    expect(one.database.statementCount() - statementsBefore).toBeLessThanOrEqual(10);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stream.results).toHaveLength(ids.length);
  });
});

describe.skipIf(onPostgres)('live updates on SQLite without Redis', () => {
  it('stay in the process: another instance on the same file does not hear them', async () => {
    const { one, two, team, changeRequestId } = await twoInstances({});
    expect(one.app.events.transport).toBe('process');
    const here = await subscribe(await one.listen(), team.admin.token, CHANGE_REQUEST_EVENTS, { id: changeRequestId });
    const there = await subscribe(await two.listen(), team.admin.token, CHANGE_REQUEST_EVENTS, { id: changeRequestId });
    expect(
      (
        await one.call(
          'PATCH',
          `/v1/spaces/${(await one.database.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequestId } })).spaceId}/change-requests/${changeRequestId}`,
          { token: team.admin.token, body: { subject: 'Here only' } },
        )
      ).statusCode,
    ).toBe(200);
    expect((await here.until(1))[0]!.data!.changeRequestEvents.kind).toBe('CHANGE_REQUEST_UPDATED');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(there.results).toEqual([]);
    here.close();
    there.close();
  });
});

describe('live updates with REDIS_URL set and Redis unreachable', () => {
  it('still reach the subscribers of the instance that made the write, whose writes all succeed', async () => {
    // Nothing listens on this port: the bus's clients are refused and keep trying.
    const t = await createTestApp({ events: { redisUrl: `redis://127.0.0.1:${await freePort()}`, redisPrefix: `test-${randomUUID()}` } });
    expect(t.app.events.transport).toBe('redis');
    const team = await buildTeam(t.database);
    const spaceId = (await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Redis down' } })).json().id;
    const changeRequest = await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { token: team.admin.token, body: { subject: 'Local' } });
    expect(changeRequest.statusCode).toBe(201);
    // Answered after a bounded wait for the listener, not never.
    const stream = await subscribe(await t.listen(), team.admin.token, CHANGE_REQUEST_EVENTS, { id: changeRequest.json().id });
    expect(stream.status).toBe(200);
    const comment = await t.call('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequest.json().id}/comments`, {
      token: team.admin.token,
      body: { body: { markdown: 'Heard here' } },
    });
    expect(comment.statusCode).toBe(200);
    expect((await stream.until(1))[0]!.data!.changeRequestEvents).toEqual({ kind: 'COMMENT_POSTED', comment: { id: comment.json().id } });
    // A while of refused connections and failed publishes later, the server still answers.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await t.call('GET', '/healthz')).statusCode).toBe(200);
    stream.close();
  });

  it('survives a client that goes away while its subscription waits for the listener, and frees its slot', async () => {
    const t = await createTestApp({
      events: { redisUrl: `redis://127.0.0.1:${await freePort()}`, redisPrefix: `test-${randomUUID()}`, limits: { maxPerToken: 1 } },
    });
    const team = await buildTeam(t.database);
    const spaceId = (await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Gone' } })).json().id;
    const base = await t.listen();
    // The first subscription waits up to 2 s for a listener that cannot connect; its client leaves before that.
    const leaving = http.request(`${base}/graphql`, {
      method: 'POST',
      headers: { accept: 'text/event-stream', 'content-type': 'application/json', authorization: `Bearer ${team.admin.token}` },
    });
    leaving.on('error', () => {});
    leaving.end(
      JSON.stringify({
        query: CHANGE_REQUEST_EVENTS.replace('changeRequestEvents(changeRequestId: $id)', 'spaceEvents(spaceId: $id)'),
        variables: { id: spaceId },
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    leaving.destroy();
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect((await t.call('GET', '/healthz')).statusCode).toBe(200);
    // Its slot is free again: the token (one stream at most here) subscribes.
    const again = await subscribe(base, team.admin.token, 'subscription($id: ID!) { spaceEvents(spaceId: $id) { ... on Event { kind } } }', { id: spaceId });
    expect(again.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(again.ended).toBe(false);
    again.close();
  });
});

describe.skipIf(!onPostgres)('a subscriber who loses access, on another instance', () => {
  it('has its streams ended at once by the instance that did not make the change, before any later event reaches them', async () => {
    const transports = [{}, ...(withRedis ? [{ redisUrl: REDIS_URL, redisPrefix: `test-${randomUUID()}` }] : [])];
    for (const events of transports) {
      const { one, two, team, spaceId } = await twoInstances(events);
      const query = 'subscription($id: ID!) { spaceEvents(spaceId: $id) { ... on Event { kind } } }';
      const base = await two.listen();
      const removed = await team.member('read');
      const revoked = await team.member('read');
      const removedStream = await subscribe(base, removed.token, query, { id: spaceId });
      const revokedStream = await subscribe(base, revoked.token, query, { id: spaceId });
      // On the other instance: the member removed and the token deleted, then a comment they must not hear of.
      expect((await one.call('DELETE', `/v1/orgs/${team.organization.id}/members/${removed.id}`, { token: team.admin.token })).statusCode).toBe(204);
      expect((await one.database.db.apiToken.deleteMany({ where: { tokenHash: hashApiToken(revoked.token) } })).count).toBe(1);
      const comment = await one.call('POST', `/v1/spaces/${spaceId}/comments`, { token: team.admin.token, body: { body: { markdown: 'Too late' } } });
      expect(comment.statusCode, comment.body).toBe(200);
      await Promise.all([removedStream.closed(), revokedStream.closed()]);
      expect(removedStream.results, JSON.stringify(events)).toEqual([
        expect.objectContaining({ data: null, errors: [expect.objectContaining({ extensions: { code: 404 } })] }),
      ]);
      expect(revokedStream.results, JSON.stringify(events)).toEqual([
        expect.objectContaining({
          data: null,
          errors: [expect.objectContaining({ message: expect.stringMatching(/no longer valid/), extensions: { code: 401 } })],
        }),
      ]);
    }
  });
});
