import { beforeAll, describe, expect, it } from 'vitest';
import { parseCorsOrigins } from '../../src/config.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { buildTeam } from '../support/factories.ts';

// CORS over HTTP injection: what a browser sees in the headers. The browser
// itself calling both APIs from another origin is test/e2e/cross-origin.test.ts.

const PAGE = 'https://frontend.example';

const preflight = (t: TestApp, url: string, origin = PAGE, method = 'POST') =>
  t.call('OPTIONS', url, {
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization,content-type' },
  });

let anyOrigin: TestApp;
let listed: TestApp;
let closed: TestApp;
let team: Awaited<ReturnType<typeof buildTeam>>;
beforeAll(async () => {
  anyOrigin = await createTestApp();
  listed = await createTestApp({ corsOrigins: [PAGE, 'http://localhost:5173'] });
  closed = await createTestApp({ corsOrigins: [] });
  team = await buildTeam(anyOrigin.database);
});

describe('CORS with any origin allowed (the default)', () => {
  it('answers preflights to REST and GraphQL before authentication, without credentials', async () => {
    for (const url of [`/v1/orgs/${team.organization.id}/spaces`, '/graphql', '/v1/user']) {
      const response = await preflight(anyOrigin, url);
      expect(response.statusCode, `${url}: ${response.body}`).toBe(204);
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(response.headers['access-control-allow-methods']).toBe('GET, HEAD, POST, PUT, PATCH, DELETE');
      expect(response.headers['access-control-allow-headers']).toBe('authorization,content-type');
      expect(response.headers['access-control-max-age']).toBe('7200');
      expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    }
  });

  it('lets the page read REST and GraphQL answers, errors and exposed headers included', async () => {
    const rest = await anyOrigin.call('GET', '/v1/user', { token: team.admin.token, headers: { origin: PAGE } });
    expect(rest.statusCode).toBe(200);
    expect(rest.json()).toMatchObject({ id: team.admin.id });
    expect(rest.headers['access-control-allow-origin']).toBe('*');
    expect(rest.headers['access-control-expose-headers']).toBe('location, x-cache, retry-after, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset');
    expect(rest.headers['access-control-allow-credentials']).toBeUndefined();

    const created = await anyOrigin.call('POST', `/v1/orgs/${team.organization.id}/spaces`, {
      token: team.admin.token,
      body: { title: 'From a browser' },
      headers: { origin: PAGE },
    });
    expect(created.statusCode).toBe(201);
    expect(created.headers['access-control-allow-origin']).toBe('*');
    expect(created.headers.location).toBe(created.json().urls.location);

    const unauthenticated = await anyOrigin.call('GET', '/v1/user', { headers: { origin: PAGE } });
    expect(unauthenticated.statusCode).toBe(401);
    expect(unauthenticated.headers['access-control-allow-origin']).toBe('*');
    expect(unauthenticated.json()).toMatchObject({ error: { code: 401 } });

    const graphql = await anyOrigin.call('POST', '/graphql', {
      token: team.admin.token,
      body: { query: '{ viewer { user { id } } }' },
      headers: { origin: PAGE },
    });
    expect(graphql.statusCode).toBe(200);
    expect(graphql.json()).toEqual({ data: { viewer: { user: { id: expect.any(String) } } } });
    expect(graphql.headers['access-control-allow-origin']).toBe('*');
    expect(graphql.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('never lets another origin read the GraphiQL page, which may carry the demo token', async () => {
    const page = await anyOrigin.call('GET', '/graphql', { headers: { origin: PAGE, accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('changes nothing for requests without an Origin (servers, curl)', async () => {
    const rest = await anyOrigin.call('GET', '/v1/user', { token: team.admin.token });
    expect(rest.statusCode).toBe(200);
    const bare = await anyOrigin.call('OPTIONS', '/v1/user');
    expect(bare.statusCode).not.toBe(401);
  });
});

describe('CORS with a list of origins (CORS_ORIGINS)', () => {
  it('answers listed origins with their own origin, varying on Origin', async () => {
    const response = await preflight(listed, '/graphql', 'http://localhost:5173');
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(response.headers.vary).toMatch(/Origin/);

    const read = await listed.call('GET', '/v1/user', { token: team.admin.token, headers: { origin: PAGE } });
    expect(read.statusCode).toBe(200);
    expect(read.headers['access-control-allow-origin']).toBe(PAGE);
    expect(read.headers.vary).toMatch(/Origin/);
  });

  it('gives other origins no CORS headers, so their browsers refuse the answer', async () => {
    const response = await preflight(listed, '/v1/user', 'https://evil.example', 'GET');
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    const read = await listed.call('GET', '/v1/user', { token: team.admin.token, headers: { origin: 'https://evil.example' } });
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('allows no origin at all with an empty list', async () => {
    const response = await preflight(closed, '/graphql');
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    const read = await closed.call('GET', '/v1/user', { token: team.admin.token, headers: { origin: PAGE } });
    expect(read.statusCode).toBe(200);
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS_ORIGINS', () => {
  it('takes *, or origins separated by commas, and names what is not an origin', () => {
    expect(parseCorsOrigins('*')).toBe('*');
    expect(parseCorsOrigins(' https://a.example , http://localhost:5173/ ')).toEqual(['https://a.example', 'http://localhost:5173']);
    expect(parseCorsOrigins('')).toEqual([]);
    expect(parseCorsOrigins('https://a.example/app')).toEqual({ error: expect.stringContaining('"https://a.example/app" is not an origin') });
    expect(parseCorsOrigins('a.example')).toEqual({ error: expect.stringContaining('"a.example" is not an origin') });
  });
});
