import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../support/app.ts';
import { buildTeam } from '../support/factories.ts';

/** What operators see: request ids, metrics, and answers compressed for the network. */

const lines: Array<Record<string, any>> = [];
let t: TestApp;
let team: Awaited<ReturnType<typeof buildTeam>>;
beforeAll(async () => {
  t = await createTestApp({ logLevel: 'info', logStream: { write: (line) => lines.push(JSON.parse(line)) }, responseCacheBytes: 1024 * 1024 });
  team = await buildTeam(t.database);
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request ids', () => {
  it("answers each request with its id, the caller's when it is sane, and logs every line of the request with it", async () => {
    const generated = await t.call('GET', `/v1/orgs/${team.organization.id}`, { token: team.admin.token });
    expect(generated.headers['x-request-id']).toMatch(UUID);

    lines.length = 0;
    const chosen = await t.call('GET', `/v1/orgs/${team.organization.id}`, { token: team.admin.token, headers: { 'x-request-id': 'edge-7f3a.42' } });
    expect(chosen.headers['x-request-id']).toBe('edge-7f3a.42');
    const logged = lines.filter((line) => line.reqId === 'edge-7f3a.42').map((line) => line.msg);
    // One record per request, with its method, URL, status and time.
    expect(logged).toEqual(['request completed']);

    // Anything else is replaced, never echoed.
    for (const bad of ['x'.repeat(129), 'a b', 'id\u0001', '']) {
      const replaced = await t.call('GET', '/healthz', { headers: { 'x-request-id': bad } });
      expect(replaced.headers['x-request-id']).toMatch(UUID);
    }
    // Errors carry it too.
    expect((await t.call('GET', '/v1/orgs/org_missing', { token: team.admin.token })).headers['x-request-id']).toMatch(UUID);
  });
});

describe('GET /metrics', () => {
  it('counts requests by route pattern and status, GraphQL operations, cache hits, without a token', async () => {
    const path = `/v1/orgs/${team.organization.id}/spaces`;
    await t.call('GET', path, { token: team.admin.token });
    await t.call('GET', path, { token: team.admin.token });
    await t.call('GET', `/v1/spaces/spc_unknown${Date.now()}`, { token: team.admin.token });
    await t.call('GET', `/random/${Date.now()}`);
    await t.graphql(team.admin.token, '{ viewer { user { id } } }');
    await t.graphql(team.admin.token, '{ organization(id: "org_nope") { id } }');

    const response = await t.call('GET', '/metrics');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.body;
    const value = (series: string) => Number(new RegExp(`^${series.replace(/[{}"/.]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? 'NaN');
    expect(value('docs_gateway_http_requests_total{method="GET",route="/v1/orgs/:organizationId/spaces",status="200"}')).toBeGreaterThanOrEqual(2);
    expect(value('docs_gateway_http_requests_total{method="GET",route="/v1/spaces/:spaceId",status="404"}')).toBeGreaterThanOrEqual(1);
    expect(value('docs_gateway_http_requests_total{method="GET",route="unmatched",status="404"}')).toBeGreaterThanOrEqual(1);
    expect(value('docs_gateway_http_request_duration_seconds_count{method="GET",route="/v1/orgs/:organizationId/spaces"}')).toBeGreaterThanOrEqual(2);
    expect(value('docs_gateway_response_cache_total{result="hit"}')).toBeGreaterThanOrEqual(1);
    expect(value('docs_gateway_graphql_operations_total{type="query",outcome="ok"}')).toBeGreaterThanOrEqual(1);
    expect(value('docs_gateway_graphql_operations_total{type="query",outcome="error"}')).toBeGreaterThanOrEqual(1);
    // The process' and Node's standard metrics under their usual names; the prefix is for ours only.
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^process_cpu_seconds_total \S+/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \S+/m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes \d+/m);
    const names = new Set([...text.matchAll(/^# TYPE (\S+)/gm)].map((match) => match[1]!));
    expect([...names].filter((name) => !/^(docs_gateway|process|nodejs)_/.test(name))).toEqual([]);
    expect([...names].filter((name) => /^docs_gateway_(process|nodejs)_/.test(name))).toEqual([]);
    // No object ids in label values: one series per route, not per object.
    expect(text).not.toContain(team.organization.id);
    if (t.database.provider === 'postgresql') expect(text).toMatch(/^docs_gateway_db_pool_connections\{state="total"\} \d+/m);
  });
});

describe('compression', () => {
  it('compresses JSON with br or gzip as the client accepts, and leaves small answers alone', async () => {
    for (let i = 0; i < 30; i++) await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: `Space ${i}` } });
    const url = `/v1/orgs/${team.organization.id}/spaces?limit=30`;
    const plain = await t.call('GET', url, { token: team.admin.token, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();

    const br = await t.call('GET', url, { token: team.admin.token, headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);

    const gzip = await t.call('GET', url, { token: team.admin.token, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(plain.json());

    const small = await t.call('GET', '/healthz', { headers: { 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('serves GraphiQL as a small page that runs nothing inline, its build as files', async () => {
    const page = await t.call('GET', '/graphql', { headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.rawPayload.length).toBeLessThan(2_048);
    const scripts = [...page.body.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)];
    expect(scripts.map(([, attributes]) => attributes!.trim())).toEqual([
      'type="application/json" id="graphiql-options"',
      expect.stringMatching(/^src="\/graphql\/assets\/[\d.]+\/graphiql\.js"$/),
      expect.stringMatching(/^src="\/graphql\/assets\/[\d.]+\/start\.js"$/),
    ]);
    // The options: the example, and where a token goes.
    const options = JSON.parse(scripts[0]![2]!);
    expect(options).toMatchObject({ title: 'docs-gateway', defaultQuery: expect.stringContaining('sites(published: true') });
    expect(JSON.parse(options.headers)).toEqual({ Authorization: expect.stringMatching(/^Bearer <paste a token/) });
  });
});
