import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { MCP_MAX_ANSWER_BYTES, MCP_RESOURCES_PAGE_SIZE } from '../../src/rest/published-mcp.ts';
import { type TestApp, createTestApp } from '../support/app.ts';
import { buildSiteWorld } from '../support/sites.ts';

/**
 * The MCP server of a large published site (2,000 pages) under batches of 100
 * messages (issue 32, finding 5): `resources/list` answers a page of resources
 * at a time, a batch's answer is capped, its messages run one at a time (memory
 * bounded, the server answering others meanwhile), each counted by the rate limit.
 */

const PAGES = 2_000;
let t: TestApp;
let base: string;
let endpoint: string;
let sitePath: string;

beforeAll(async () => {
  t = await createTestApp();
  const world = await buildSiteWorld(t);
  const space = await world.space('Large');
  const changeRequest = await world.rest('POST', `/v1/spaces/${space.id}/change-requests`, {}, 201);
  for (let start = 0; start < PAGES; start += 50) {
    const changes = Array.from({ length: 50 }, (_, i) => ({
      operation: 'insert_page',
      title: `Page number ${start + i} of the large site`,
      description: `What page ${start + i} is about, in a sentence of some length for its listing`,
      document: { markdown: `Body of page ${start + i}.\n` },
    }));
    await world.rest('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content?compat=false`, { changes });
  }
  await world.rest('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
  const site = await world.site({ title: 'Large site' });
  await world.siteSpace(site.id, space.id);
  await world.publish(site.id);
  base = await t.listen();
  sitePath = world.url(site.id, '/published/mcp');
  endpoint = `${base}${sitePath}`;
}, 300_000);

const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const post = async (body: unknown) => {
  const response = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: response.status, text: await response.text() };
};
const batchOf = (count: number, method: string, params: Record<string, unknown> = {}) =>
  Array.from({ length: count }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method, params }));

/** A batch POSTed by curl, another process: its answer's size, without this process holding it. */
async function curlSize(body: unknown): Promise<number> {
  const { stdout } = await promisify(execFile)('curl', [
    '-s',
    '-o',
    '/dev/null',
    '-w',
    '%{size_download}',
    '-X',
    'POST',
    endpoint,
    ...Object.entries(headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]),
    '--data-binary',
    JSON.stringify(body),
  ]);
  return Number(stdout);
}

describe('the MCP server of a large published site', () => {
  it('lists its resources a page at a time, every page once, following nextCursor', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let answers = 0;
    do {
      const { status, text } = await post({ jsonrpc: '2.0', id: 1, method: 'resources/list', params: cursor ? { cursor } : {} });
      expect(status).toBe(200);
      const { result } = JSON.parse(text);
      expect(result.resources.length).toBeLessThanOrEqual(MCP_RESOURCES_PAGE_SIZE);
      seen.push(...result.resources.map((resource: { uri: string }) => resource.uri));
      cursor = result.nextCursor;
      answers++;
    } while (cursor);
    expect(answers).toBe(PAGES / MCP_RESOURCES_PAGE_SIZE);
    expect(new Set(seen).size).toBe(PAGES);
    // A resource listed is one that reads.
    const read = JSON.parse((await post({ jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: seen.at(-1) } })).text);
    expect(read.result.contents[0]).toMatchObject({ uri: seen.at(-1), mimeType: 'text/markdown', text: expect.stringContaining('Body of page 1999.') });
    // A cursor this server did not give: invalid params.
    const bad = JSON.parse((await post({ jsonrpc: '2.0', id: 3, method: 'resources/list', params: { cursor: 'bm9uc2Vuc2U' } })).text);
    expect(bad.error).toMatchObject({ code: -32602, message: expect.stringMatching(/cursor: is not one this server gave/) });
  });

  it('caps the answer to a batch: what would exceed it is a JSON-RPC error, and the rest do not run', { timeout: 120_000 }, async () => {
    // The table of contents of 2,000 pages is about 400 KB: a hundred of them would be 40 MB.
    const { status, text } = await post(batchOf(100, 'tools/call', { name: 'list_pages', arguments: {} }));
    expect(status).toBe(200);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MCP_MAX_ANSWER_BYTES + 100 * 500);
    const answers = JSON.parse(text) as Array<{ id: number; result?: unknown; error?: { code: number; message: string } }>;
    // Every message answered once, in order; the first ones in full, then the cap's error.
    expect(answers.map((answer) => answer.id)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    const full = answers.filter((answer) => answer.result !== undefined);
    expect(full.length).toBeGreaterThan(5);
    expect(answers.slice(full.length).every((answer) => answer.error?.code === -32000)).toBe(true);
    expect(answers.at(-1)!.error!.message).toMatch(/^The answers to this batch reached the 8388608 bytes one answer may hold/);
  });

  it('measures six batches of 100 resources/list at once: answer sizes, memory, and the server answering meanwhile', { timeout: 120_000 }, async () => {
    const started = performance.now();
    const one = await curlSize(batchOf(100, 'resources/list'));
    const oneTook = performance.now() - started;
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const health: number[] = [];
    let running = true;
    const probing = (async () => {
      while (running) {
        const sent = performance.now();
        await fetch(`${base}/healthz`).then((response) => response.text());
        health.push(performance.now() - sent);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const batchesStarted = performance.now();
    const sizes = await Promise.all(Array.from({ length: 6 }, () => curlSize(batchOf(100, 'resources/list'))));
    const batchesTook = performance.now() - batchesStarted;
    running = false;
    await probing;
    clearInterval(sampler);
    console.log(
      `MCP, 100 × resources/list on ${PAGES} pages: ${(one / 1e6).toFixed(2)} MB in ${oneTook.toFixed(0)} ms; six at once: ` +
        `${sizes.map((size) => (size / 1e6).toFixed(2)).join(', ')} MB, RSS +${((peak - rssBefore) / 1e6).toFixed(0)} MB at its peak, ` +
        `/healthz meanwhile at most ${Math.max(...health).toFixed(0)} ms (${health.length} probes in ${batchesTook.toFixed(0)} ms)`,
    );
    for (const size of [one, ...sizes]) expect(size).toBeLessThanOrEqual(MCP_MAX_ANSWER_BYTES);
    // The server answered meanwhile: /healthz came back more than once while the
    // six batches ran, no wait near their whole time when they are long, and none
    // past 1.5 s when they are short (six answers of 3.5 MB written at once on a
    // loaded machine queue for some hundreds of milliseconds).
    expect(health.length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...health)).toBeLessThan(Math.max(1_500, batchesTook / 2));
  });
});

describe('an MCP batch and the rate limit', () => {
  it('counts each message of a batch, refusing the batch that goes beyond with 429 and Retry-After as a JSON-RPC error', async () => {
    const limited = await createTestApp({ databaseUrl: t.database.url, rateLimits: { perMinute: 20, failedAuthenticationsPerMinute: 0 } });
    const limitedEndpoint = `${await limited.listen()}${sitePath}`;
    const send = (body: unknown) => fetch(limitedEndpoint, { method: 'POST', headers, body: JSON.stringify(body) });
    const first = await send(batchOf(15, 'tools/list'));
    expect(first.status).toBe(200);
    expect(await first.json()).toHaveLength(15);
    const second = await send(batchOf(10, 'tools/list'));
    expect([second.status, Number(second.headers.get('retry-after'))]).toEqual([429, expect.any(Number)]);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await second.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32000,
        message: expect.stringMatching(/^Too many requests: at most 20 per minute, each message of a batch counting as one/),
        data: { status: 429 },
      },
    });
    // Spent: a single message is refused too.
    expect((await send({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(429);
  });
});
