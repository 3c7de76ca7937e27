import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { createDemoApp } from '../support/demo.ts';
import { signVisitorToken } from '../support/site-tree.ts';

/**
 * The MCP server of a published site (`…/published/mcp`), driven by the SDK's
 * own client over Streamable HTTP, on the demo data: its tools and resources,
 * and the published site's rules (a visitor sees what `…/published` shows it).
 */

let t: TestApp;
let endpoint: string;
let base: string;
let betaToken: string;
let alice: string;

beforeAll(async () => {
  const demo = await createDemoApp();
  t = demo.t;
  alice = await demo.tokenOf();
  endpoint = await t.listen();
  const portal = await t.database.db.site.findFirstOrThrow({ where: { title: 'Acme Developer Portal' } });
  base = `/v1/orgs/${portal.organizationId}/sites/${portal.id}/published`;
  // Where it is: the site's `urls.mcp`.
  const site = (await t.call('GET', `/v1/orgs/${portal.organizationId}/sites/${portal.id}`, { token: alice })).json();
  expect(site.urls.mcp).toBe(`http://docs-gateway.test${base}/mcp`);
  betaToken = await signVisitorToken(portal.visitorAuthSecret, { betaTester: true });
  // A page only beta testers see.
  const space = await t.database.db.space.findFirstOrThrow({ where: { title: 'GraphQL API' } });
  const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: alice, body: {} })).json();
  await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content?compat=false`, {
    token: alice,
    body: { changes: [{ operation: 'insert_page', title: 'Schema', document: { markdown: '# Schema\n\nOne graph for everything.\n' } }] },
  });
  expect((await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`, { token: alice })).statusCode).toBe(200);
});

async function connect(headers: Record<string, string> = {}) {
  const client = new Client({ name: 'docs-gateway-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${endpoint}${base}/mcp`), { requestInit: { headers } }));
  return client;
}

const textOf = (result: unknown) => ((result as { content: Array<{ text: string }> }).content[0]?.text ?? '') as string;

describe('the MCP server of a published site', () => {
  it('lists its tools, searches the site, reads a page and the table of contents, without a token', async () => {
    const client = await connect();
    expect(client.getInstructions()).toContain('Acme Developer Portal');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['get_page', 'list_pages', 'search']);
    expect(tools.find((tool) => tool.name === 'search')!.inputSchema.required).toEqual(['query']);

    const found = await client.callTool({ name: 'search', arguments: { query: 'work email' } });
    expect(textOf(found)).toContain('## Create an account\npath: guides/getting-started/quickstart/create-an-account');
    const page = await client.callTool({ name: 'get_page', arguments: { path: 'guides/getting-started/quickstart/create-an-account' } });
    expect(textOf(page)).toBe('---\ntitle: Create an account\n---\n\nSign up at the [console](https://console.acme.test) with your work email.\n');
    const toc = textOf(await client.callTool({ name: 'list_pages', arguments: {} }));
    expect(toc.startsWith('# Acme Developer Portal\n')).toBe(true);
    expect(toc).toContain('## Guides');

    // As search shows a path: with its section, and with the extension of its address.
    for (const path of ['guides/getting-started/quickstart/create-an-account#top', 'guides/getting-started/quickstart/create-an-account.md#top'])
      expect(textOf(await client.callTool({ name: 'get_page', arguments: { path } })), path).toContain('with your work email');

    const missing = await client.callTool({ name: 'get_page', arguments: { path: 'no/such/page' } });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('has no page at "no/such/page"');

    const { resources } = await client.listResources();
    const overview = resources.find((resource) => resource.name === 'guides/getting-started/overview')!;
    expect(overview).toMatchObject({ title: 'Overview', mimeType: 'text/markdown' });
    const read = await client.readResource({ uri: overview.uri });
    expect((read.contents[0] as { text: string }).text).toContain('Acme lets you ship **docs**');
    await client.close();
  });

  it('finds the pages a reader is shown, however many pages it is not shown match better', async () => {
    const space = await t.database.db.space.findFirstOrThrow({ where: { title: 'Getting started' } });
    const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: alice, body: {} })).json();
    const hidden = Array.from({ length: 6 }, (_, i) => ({
      operation: 'insert_page',
      title: `Zebrafish notes ${i}`,
      hidden: true,
      document: { markdown: 'Zebrafish zebrafish zebrafish zebrafish zebrafish.\n' },
    }));
    const visible = {
      operation: 'insert_page',
      title: 'Aquarium',
      document: { markdown: 'One zebrafish among many other fish, plants, stones and filters.\n' },
    };
    const edited = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content?compat=false`, {
      token: alice,
      body: { changes: [...hidden, visible] },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`, { token: alice })).statusCode).toBe(200);
    const client = await connect();
    const found = textOf(await client.callTool({ name: 'search', arguments: { query: 'zebrafish', limit: 1 } }));
    expect(found).toContain('## Aquarium\n');
    expect(found).not.toContain('Zebrafish notes');
    await client.close();
  });

  it('gives every hit a snippet, also a page found by its title whose body begins with a heading', async () => {
    const space = await t.database.db.space.findFirstOrThrow({ where: { title: 'Getting started' } });
    const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: alice, body: {} })).json();
    const edited = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content?compat=false`, {
      token: alice,
      body: { changes: [{ operation: 'insert_page', title: 'Quokkas', document: { markdown: '## Limits\n\nAt most ten marsupials a minute.\n' } }] },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`, { token: alice })).statusCode).toBe(200);
    const client = await connect();
    const found = textOf(await client.callTool({ name: 'search', arguments: { query: 'quokkas' } }));
    expect(found).toContain('## Quokkas\n');
    expect(found).toContain('At most ten marsupials a minute.');
    await client.close();
  });

  it('shows a visitor what its visitor token opens, and nothing of a site it may not see', async () => {
    const anonymous = await connect();
    expect((await anonymous.callTool({ name: 'get_page', arguments: { path: 'graphql-api/graphql-api/schema' } })).isError).toBe(true);
    expect(textOf(await anonymous.callTool({ name: 'search', arguments: { query: 'everything' } }))).toContain('No page');
    await anonymous.close();

    const beta = await connect({ 'x-visitor-token': betaToken });
    expect(textOf(await beta.callTool({ name: 'get_page', arguments: { path: 'graphql-api/graphql-api/schema' } }))).toContain('One graph for everything.');
    expect(textOf(await beta.callTool({ name: 'search', arguments: { query: 'everything' } }))).toContain('## Schema');
    await beta.close();

    // A share-link site without its key does not exist for the reader, over MCP as over `…/published`.
    const preview = await t.database.db.site.findFirstOrThrow({ where: { title: 'Partner Preview' } });
    const refused = await fetch(`${endpoint}/v1/orgs/${preview.organizationId}/sites/${preview.id}/published/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    // In the protocol's shape, as every refusal of this endpoint.
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: expect.stringMatching(/was not found/), data: { status: 404 } },
    });
    // A browser's client may call it from another origin: CORS headers come with the SDK's answer.
    const fromBrowser = await fetch(`${endpoint}${base}/mcp`, {
      method: 'POST',
      headers: { origin: 'https://assistant.example', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(fromBrowser.status).toBe(200);
    expect(fromBrowser.headers.get('access-control-allow-origin')).toBeTruthy();
    expect(fromBrowser.headers.get('x-request-id')).toBeTruthy();
    const get = await fetch(`${endpoint}${base}/mcp`);
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
    expect((await get.json()).error).toMatchObject({ code: -32000, data: { status: 405 } });
  });

  it('refuses what it cannot accept as a JSON-RPC error: NUL characters in tool arguments, a body that is not JSON', async () => {
    const send = (body: string) =>
      fetch(`${endpoint}${base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body });
    const nul = await send(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'search', arguments: { query: 'a\u0000b' } } }));
    expect(nul.status).toBe(400);
    expect(await nul.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32602, message: 'params.arguments.query: must not contain NUL characters (U+0000)', data: { status: 400 } },
    });
    // In a batch, named by its place.
    const inBatch = await send(
      JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search', arguments: { query: '\u0000' } } },
      ]),
    );
    expect([inBatch.status, (await inBatch.json()).error]).toEqual([
      400,
      expect.objectContaining({ code: -32602, message: expect.stringMatching(/^1\.params\.arguments\.query: must not contain NUL/) }),
    ]);
    // Elsewhere than in params: an invalid request.
    const inMethod = await send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/\u0000' }));
    expect((await inMethod.json()).error).toMatchObject({ code: -32600, message: 'method: must not contain NUL characters (U+0000)' });
    const notJson = await send('{"jsonrpc": "2.0",');
    expect([notJson.status, (await notJson.json()).error]).toEqual([
      400,
      expect.objectContaining({ code: -32700, message: expect.stringMatching(/^body: is not valid JSON/) }),
    ]);
  });
});
