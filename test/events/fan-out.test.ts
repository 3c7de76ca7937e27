import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../support/app.ts';
import { type TestUser, addMember, buildTeam, buildUser } from '../support/factories.ts';

/**
 * The measurement (issue 32, finding 4): 1,000 `spaceEvents` streams
 * over 100 tokens from one address, 10 comments posted, and a request sent
 * meanwhile. Every stream hears every comment; the request answers promptly.
 */

const TOKENS = 100;
const STREAMS_PER_TOKEN = 10;
const COMMENTS = 10;

const SPACE_EVENTS = `subscription($spaceId: ID!) {
  spaceEvents(spaceId: $spaceId) {
    __typename
    ... on Event { id kind at actor { id } }
    ... on CommentEvent { commentId comment { id status } }
  }
}`;

const NEXT = Buffer.from('event: next\n');

/** An SSE stream read by counting its `event: next` blocks: as cheap a client as there is. */
function openStream(base: string, token: string, spaceId: string): Promise<{ events: () => number; close: () => void }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${base}/graphql`, {
      method: 'POST',
      agent: false,
      headers: { accept: 'text/event-stream', 'content-type': 'application/json', authorization: `Bearer ${token}` },
    });
    request.once('error', reject);
    request.end(JSON.stringify({ query: SPACE_EVENTS, variables: { spaceId } }));
    request.once('response', (response) => {
      if (response.statusCode !== 200) return reject(new Error(`stream answered ${response.statusCode}`));
      let events = 0;
      // The end of the previous chunk: a marker may straddle two.
      let tail: Buffer = Buffer.alloc(0);
      response.on('data', (chunk: Buffer) => {
        const bytes = tail.length ? Buffer.concat([tail, chunk]) : chunk;
        for (let at = bytes.indexOf(NEXT); at >= 0; at = bytes.indexOf(NEXT, at + NEXT.length)) events++;
        tail = bytes.subarray(Math.max(0, bytes.length - NEXT.length + 1));
      });
      response.on('error', () => {});
      resolve({ events: () => events, close: () => request.destroy() });
    });
  });
}

async function timed(url: string, token: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  await response.text();
  expect(response.status).toBe(200);
  return performance.now() - started;
}

describe('the fan-out of an event to many streams', () => {
  it('leaves the server answering: a request sent while 1,000 streams hear 10 comments answers within 1 s', { timeout: 180_000 }, async () => {
    // The caps raised for the measurement: all of it comes from one address.
    const t = await createTestApp({
      events: { limits: { maxPerToken: STREAMS_PER_TOKEN, maxPerUser: STREAMS_PER_TOKEN, maxPerAddress: TOKENS * STREAMS_PER_TOKEN } },
    });
    const base = await t.listen();
    const team = await buildTeam(t.database);
    const space = await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Followed' } });
    const spaceId = space.json().id as string;
    const readers: TestUser[] = [];
    for (let i = 0; i < TOKENS; i++) readers.push(await addMember(t.database, team.organization.id, await buildUser(t.database, 'reader'), 'read'));
    const streams: Array<{ events: () => number; close: () => void }> = [];
    // Yoga pings each stream every 300 ms under NODE_ENV=test (every 12 s otherwise): a thousand streams
    // would send 3,000 pings a second, which is no part of the measurement.
    const environment = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      for (let batch = 0; batch < TOKENS * STREAMS_PER_TOKEN; batch += 50) {
        streams.push(...(await Promise.all(Array.from({ length: 50 }, (_, i) => openStream(base, readers[(batch + i) % TOKENS]!.token, spaceId)))));
      }
      const probe = await buildUser(t.database, 'probe');
      // Warm: the probe's first answer, and the first comment's (on a space no one follows), are not what is measured.
      await timed(`${base}/v1/user`, probe.token);
      const elsewhere = await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Unfollowed' } });
      await t.call('POST', `/v1/spaces/${elsewhere.json().id}/comments`, { token: team.admin.token, body: { body: { markdown: 'Warm' } } });

      const expected = TOKENS * STREAMS_PER_TOKEN * COMMENTS;
      const delivered = () => streams.reduce((sum, stream) => sum + stream.events(), 0);
      const started = performance.now();
      // Requests sent one after another from the first comment until every event is out: each must answer promptly.
      const latencies: number[] = [];
      const probing = (async () => {
        while (delivered() < expected && performance.now() - started < 150_000) latencies.push(await timed(`${base}/v1/user`, probe.token));
      })();
      for (let i = 0; i < COMMENTS; i++) {
        const posted = await t.call('POST', `/v1/spaces/${spaceId}/comments`, { token: team.admin.token, body: { body: { markdown: `Comment ${i}` } } });
        expect(posted.statusCode, posted.body).toBe(200);
      }
      const posting = performance.now() - started;
      await probing;
      const fanOut = performance.now() - started;
      console.log(
        `fan-out (${t.database.provider}): ${expected} deliveries in ${fanOut.toFixed(0)} ms (the 10 comments posted in ${posting.toFixed(0)} ms); ` +
          `GET /v1/user meanwhile: ${latencies.length} requests, slowest ${Math.max(...latencies).toFixed(0)} ms, median ${latencies.sort((a, b) => a - b)[latencies.length >> 1]?.toFixed(0)} ms`,
      );
      expect(delivered()).toBe(expected);
      expect(latencies.length).toBeGreaterThan(0);
      expect(Math.max(...latencies)).toBeLessThan(1_000);
    } finally {
      process.env.NODE_ENV = environment;
      for (const stream of streams) stream.close();
    }
  });
});
