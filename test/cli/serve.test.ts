import http from 'node:http';
import type net from 'node:net';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { subscribe } from '../support/event-stream.ts';
import { rawRequest } from '../support/http.ts';
import { freePort } from '../support/network.ts';
import { BIN, BUNDLE, CLI_TEST_TIMEOUT, graphiqlPage, listening, serverProcesses } from './support.ts';

/** `serve`: starts, migrates, serves, and stops cleanly on SIGTERM. */

describe('docs-gateway serve', () => {
  const servers = serverProcesses();

  it.each([
    ['bin/docs-gateway.js', () => BIN, false],
    ['the bundle as the container runs it, --demo', () => BUNDLE, true],
  ])(
    'migrates, serves on --port, and stops with exit code 0 on SIGTERM, its database closed (%s)',
    async (_name, entryPoint, demo) => {
      const dir = servers.temporaryDirectory();
      const file = path.join(dir, 'x.db');
      const port = await freePort();
      const { child, output, exit } = servers.start(entryPoint(), ['--port', String(port), ...(demo ? ['--demo'] : [])], file);
      const base = `http://127.0.0.1:${port}`;
      const root = await listening(base, child, output);
      expect(root.status).toBe(200);
      expect(root.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await root.json()).toEqual({
        name: 'docs-gateway',
        rest: `http://localhost:${port}/v1`,
        openapi: `http://localhost:${port}/v1/openapi.json`,
        graphql: `http://localhost:${port}/graphql`,
        docs: `http://localhost:${port}/docs`,
      });
      expect(output.stdout).toMatch(/applied migration /);
      // Not a terminal: every line is pino JSON with an ISO time, the start-up lines too.
      const lines = output.stdout.split('\n').filter((line) => line.trim() !== '');
      for (const line of lines)
        expect(JSON.parse(line), line).toMatchObject({ level: expect.any(Number), time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), msg: expect.any(String) });
      expect(lines.map((line) => JSON.parse(line).msg)).toContain(`REST     http://127.0.0.1:${port}/v1`);

      // The API is up, on the migrated database.
      const openapi = await fetch(`${base}/v1/openapi.json`);
      expect(openapi.status).toBe(200);
      expect((await openapi.json()).openapi).toBe('3.1.0');
      const anonymous = await fetch(`${base}/v1/user`);
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toMatchObject({ error: { code: 401 } });
      if (demo) {
        // The printed token is the demo admin's.
        const token = /token {4}(dgw_\S+)/.exec(output.stdout)?.[1];
        expect(token, output.stdout).toBeDefined();
        const user = await fetch(`${base}/v1/user`, { headers: { authorization: `Bearer ${token}` } });
        expect(user.status).toBe(200);
        expect(await user.json()).toMatchObject({ email: 'alice@acme.test' });
        // On loopback, GraphiQL opens with it in its headers.
        expect(await graphiqlPage(base)).toContain(token);
        // The demo spec, seeded from text, is fetched from this server's own /v1/openapi.json by the job queue.
        expect(output.stdout).toContain(`the demo OpenAPI spec is fetched from ${base}/v1/openapi.json`);
        const headers = { authorization: `Bearer ${token}` };
        const organizations = (await (await fetch(`${base}/v1/orgs`, { headers })).json()) as { items: Array<{ id: string; title: string }> };
        const acme = organizations.items.find((organization) => organization.title === 'Acme Docs')!;
        const spec = `${base}/v1/orgs/${acme.id}/openapi/docs-gateway-api`;
        await vi.waitUntil(async () => ((await (await fetch(`${spec}/versions`, { headers })).json()) as { items: unknown[] }).items.length === 2, {
          timeout: 30_000,
          interval: 200,
        });
        expect(await (await fetch(spec, { headers })).json()).toMatchObject({ processingState: 'complete' });
        expect(await (await fetch(`${spec}/versions/latest`, { headers })).json()).toMatchObject({ url: `${base}/v1/openapi.json` });
        // A Host header that makes no URL is the client's mistake, not a 500.
        const query = JSON.stringify({ query: '{ viewer { user { email } } }' });
        for (const host of ['undefined:undefined', 'a b']) {
          const answer = await rawRequest(
            port,
            `POST /graphql HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${query.length}\r\n\r\n${query}`,
          );
          expect(answer.status, `${host}: ${answer.body}`).toBe(200);
        }
      }

      child.kill('SIGTERM');
      const { code, signal } = await exit;
      expect({ code, signal }, `${output.stdout}\n${output.stderr}`).toEqual({ code: 0, signal: null });
      expect(fs.existsSync(`${file}-wal`), 'the database was left open').toBe(false);
      // It no longer listens.
      await expect(fetch(`${base}/`)).rejects.toThrow();
    },
    CLI_TEST_TIMEOUT,
  );

  it(
    'finishes the requests in flight when it is told to stop (SIGTERM), delivers their events to live streams, ends the streams, then exits 0',
    async () => {
      const dir = servers.temporaryDirectory();
      // A website that takes a second to answer: an import of it is in flight when the signal arrives.
      const slowSite = http.createServer((_request, response) => {
        setTimeout(
          () => response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><main><h1>Slow</h1><p>Late page.</p></main></body></html>'),
          1_000,
        );
      });
      await new Promise<void>((resolve) => slowSite.listen(0, '127.0.0.1', resolve));
      try {
        const port = await freePort();
        const { child, output, exit } = servers.start(BIN, ['--port', String(port), '--demo'], path.join(dir, 'x.db'), { FETCH_PRIVATE_ADDRESSES: 'true' });
        const base = `http://127.0.0.1:${port}`;
        await listening(base, child, output);
        const token = /token {4}(dgw_\S+)/.exec(output.stdout)?.[1];
        const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
        const organizations = (await (await fetch(`${base}/v1/orgs`, { headers })).json()) as { items: Array<{ id: string }> };
        const spaces = (await (await fetch(`${base}/v1/orgs/${organizations.items[0]!.id}/spaces`, { headers })).json()) as { items: Array<{ id: string }> };
        const siteUrl = `http://127.0.0.1:${(slowSite.address() as net.AddressInfo).port}/`;
        // A subscriber of the space the import writes to.
        const stream = await subscribe(base, token, 'subscription($id: ID!) { spaceEvents(spaceId: $id) { ... on Event { kind } } }', {
          id: spaces.items[0]!.id,
        });
        expect(stream.status).toBe(200);
        const inFlight = fetch(`${base}/v1/spaces/${spaces.items[0]!.id}/content/import`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ source: 'website', url: siteUrl }),
        });
        await new Promise((resolve) => setTimeout(resolve, 300));
        child.kill('SIGTERM');
        const answer = await inFlight;
        expect(answer.status, await answer.clone().text()).toBe(201);
        expect(await answer.json()).toMatchObject({ importedResources: 1 });
        expect(await exit, `${output.stdout}\n${output.stderr}`).toEqual({ code: 0, signal: null });
        // Nothing lost: the import's event, then the reason the stream ends, then its end.
        await stream.closed();
        expect(stream.results).toEqual([
          { data: { spaceEvents: { kind: 'SPACE_CONTENT_UPDATED' } } },
          expect.objectContaining({ data: null, errors: [expect.objectContaining({ extensions: { code: 503 } })] }),
        ]);
      } finally {
        slowSite.close();
      }
    },
    CLI_TEST_TIMEOUT,
  );
});
