import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { buildTeam } from '../support/factories.ts';
import { REDIS_URL, redisAvailable } from '../support/network.ts';

/** Rate limits: per token (or address), stricter for failed authentications, shared through Redis. */

let team: Awaited<ReturnType<typeof buildTeam>>;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ rateLimits: { perMinute: 5, failedAuthenticationsPerMinute: 3 } });
  team = await buildTeam(t.database);
});

function expectLimited(response: { statusCode: number; headers: Record<string, unknown>; json(): any }, message: RegExp) {
  expect(response.statusCode).toBe(429);
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  expect(response.json()).toEqual({ error: { code: 429, message: expect.stringMatching(message) } });
}

describe('the per-client limit', () => {
  it('answers 429 with Retry-After once a token spent its budget, other tokens unaffected', async () => {
    const user = `/v1/orgs/${team.organization.id}`;
    for (let request = 0; request < 5; request++) {
      const response = await t.call('GET', user, { token: team.admin.token });
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-ratelimit-remaining']).toBe(String(4 - request));
    }
    expectLimited(await t.call('GET', user, { token: team.admin.token }), /^Too many requests: at most 5 per minute/);
    const other = await team.member('read');
    expect((await t.call('GET', user, { token: other.token })).statusCode).toBe(200);
    // GraphQL counts the same way, and answers in its own shape.
    const graphql = await t.call('POST', '/graphql', { token: team.admin.token, body: { query: '{ viewer { user { id } } }' } });
    expect(graphql.statusCode).toBe(429);
    expect(graphql.json().errors[0].extensions.code).toBe(429);
  });
});

describe('failed authentications', () => {
  it('answer 401 until the address spent its stricter budget, then 429', async () => {
    const failing = await createTestApp({ rateLimits: { perMinute: 1000, failedAuthenticationsPerMinute: 3 } });
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await failing.call('GET', '/v1/user', { token: `guess-${attempt}` })).statusCode).toBe(401);
    }
    expectLimited(await failing.call('GET', '/v1/user', { token: 'guess-4' }), /^Too many failed authentications from this address: at most 3 per minute/);
    expectLimited(await failing.call('GET', '/v1/user', {}), /^Too many failed authentications/);
  });
});

describe('across instances', async () => {
  const available = await redisAvailable();
  it.skipIf(!available)('shares the counts through Redis (REDIS_URL)', async () => {
    const shared = { perMinute: 4, failedAuthenticationsPerMinute: 100, redisUrl: REDIS_URL, redisPrefix: `test-${randomUUID()}` };
    const first = await createTestApp({ rateLimits: shared });
    const second = await createTestApp({ rateLimits: shared });
    const path = `/v1/orgs/${team.organization.id}`;
    for (const instance of [first, second, first, second]) {
      expect((await instance.call('GET', path, { token: team.admin.token })).statusCode).toBe(200);
    }
    expectLimited(await first.call('GET', path, { token: team.admin.token }), /^Too many requests/);
    expectLimited(await second.call('GET', path, { token: team.admin.token }), /^Too many requests/);
  });
});
