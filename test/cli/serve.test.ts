import http from 'node:http';
import type net from 'node:net';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { subscribe } from '../support/event-stream.ts';
import { rawRequest } from '../support/http.ts';
import { freePort } from '../support/network.ts';
import { BIN, BUNDLE, CLI_TEST_TIMEOUT, cli, graphiqlPage, jsonLine, listening, prettyLines, printed, serveChildren } from './support.ts';

/** `serve`: starts, migrates, serves, and stops cleanly on SIGTERM. */

describe('docs-gateway serve', () => {
  const servers = serveChildren();

  it(
    'serves the demo as npm start does: a line for the migrations, a line per job, the addresses and token last; a restart (here on every interface) prints a new token, the old one stays valid, and GraphiQL carries none beyond loopback',
    async () => {
      const dir = servers.temporaryDirectory();
      const file = path.join(dir, 'x.db');
      // What a person sees at a terminal: pretty lines, at info (npm start's defaults).
      const terminal = { LOG_FORMAT: 'pretty', LOG_LEVEL: 'info' };
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const first = servers.start(BIN, ['--port', String(port), '--demo'], file, terminal, { forcedGc: false });
      await printed(first.child, first.output, /token {4}dgw_\S+ .*\n/);
      const startUp = prettyLines(first.output.stdout);
      expect(startUp).toEqual([
        expect.stringMatching(/^INFO: applied \d+ migrations \(\d+_init … \d+_\w+\)$/),
        'INFO: loaded the demo data',
        // The demo's OpenAPI spec, fetched from the server itself by a job, before the lines a person looks for.
        expect.stringMatching(/^INFO: GET \/v1\/openapi\.json 200 [\d.]+ ms$/),
        expect.stringMatching(/^INFO: job done: process-openapi-spec, \d+ ms \{.*"outcome":"new version"\}$/),
        `INFO: the demo OpenAPI spec was fetched from ${base}/v1/openapi.json`,
        `INFO: REST     ${base}/v1`,
        `INFO: GraphiQL ${base}/graphql`,
        expect.stringMatching(/^INFO: token {4}dgw_\S+ {3}\(alice@acme\.test, admin of the demo organizations\)$/),
      ]);
      const token = /token {4}(dgw_\S+)/.exec(first.output.stdout)![1]!;
      const headers = { authorization: `Bearer ${token}` };

      const root = await fetch(`${base}/`);
      expect(root.status).toBe(200);
      expect(await root.json()).toEqual({
        name: 'docs-gateway',
        rest: `http://localhost:${port}/v1`,
        openapi: `http://localhost:${port}/v1/openapi.json`,
        graphql: `http://localhost:${port}/graphql`,
        docs: `http://localhost:${port}/docs`,
      });
      // The printed token is the demo admin's; on loopback, GraphiQL opens with it in its headers.
      const user = await fetch(`${base}/v1/user`, { headers });
      expect(user.status).toBe(200);
      expect(await user.json()).toMatchObject({ email: 'alice@acme.test' });
      expect(await graphiqlPage(base)).toContain(token);
      // The demo spec, seeded from text, was fetched from this server's own /v1/openapi.json by the job queue.
      const organizations = (await (await fetch(`${base}/v1/orgs`, { headers })).json()) as { items: Array<{ id: string; title: string }> };
      const acme = organizations.items.find((organization) => organization.title === 'Acme Docs')!;
      const spec = `${base}/v1/orgs/${acme.id}/openapi/docs-gateway-api`;
      expect(((await (await fetch(`${spec}/versions`, { headers })).json()) as { items: unknown[] }).items).toHaveLength(2);
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
      // After the start-up, a line per request and nothing else.
      expect(prettyLines(first.output.stdout).slice(startUp.length)).toEqual(
        prettyLines(first.output.stdout)
          .slice(startUp.length)
          .map(() => expect.stringMatching(/^INFO: (GET|POST) \S+ \d{3} [\d.]+ ms$/)),
      );
      first.child.kill('SIGTERM');
      expect(await first.exit, `${first.output.stdout}\n${first.output.stderr}`).toEqual({ code: 0, signal: null });
      expect(fs.existsSync(`${file}-wal`), 'the database was left open').toBe(false);

      // Started again, listening on every interface: nothing to set up, so the addresses and a new token only.
      const againPort = await freePort();
      const again = servers.start(BIN, ['--port', String(againPort), '--demo'], file, { ...terminal, HOST: '0.0.0.0' }, { forcedGc: false });
      const againBase = `http://127.0.0.1:${againPort}`;
      await printed(again.child, again.output, /token {4}dgw_\S+ .*\n/);
      expect(prettyLines(again.output.stdout)).toEqual([
        `INFO: listening on every interface (0.0.0.0), port ${againPort}; on this machine:`,
        `INFO: REST     ${againBase}/v1`,
        `INFO: GraphiQL ${againBase}/graphql`,
        expect.stringMatching(/^INFO: token {4}dgw_\S+ {3}\(alice@acme\.test, admin of the demo organizations\)$/),
      ]);
      const newToken = /token {4}(dgw_\S+)/.exec(again.output.stdout)![1]!;
      expect(newToken).not.toBe(token);
      for (const valid of [token, newToken]) {
        const answer = await fetch(`${againBase}/v1/user`, { headers: { authorization: `Bearer ${valid}` } });
        expect(answer.status).toBe(200);
        expect(await answer.json()).toMatchObject({ email: 'alice@acme.test' });
      }
      // Beyond loopback the demo token never goes into GraphiQL: the page says where a token comes from instead.
      const page = await graphiqlPage(againBase);
      expect(page).not.toMatch(/dgw_/);
      expect(page).toContain('paste a token: docs-gateway bootstrap --help (npx docs-gateway … in a checkout, docker run … docs-gateway … with the image)');
      expect(again.output.stdout).not.toContain('0.0.0.0:');
      again.child.kill('SIGTERM');
      expect(await again.exit, `${again.output.stdout}\n${again.output.stderr}`).toEqual({ code: 0, signal: null });
    },
    CLI_TEST_TIMEOUT,
  );

  it(
    'migrates, serves on --port, and stops with exit code 0 on SIGTERM, its database closed (the bundle, as the container runs it): pino JSON lines, the hint for a first token last',
    async () => {
      const dir = servers.temporaryDirectory();
      const file = path.join(dir, 'x.db');
      const port = await freePort();
      const { child, output, exit } = servers.start(BUNDLE, ['--port', String(port)], file);
      const base = `http://127.0.0.1:${port}`;
      await printed(child, output, /bootstrap --org/);
      // Not a terminal: every line is pino JSON with an ISO time, the start-up lines too.
      const lines = output.stdout.split('\n').filter((line) => line.trim() !== '');
      for (const line of lines)
        expect(JSON.parse(line), line).toMatchObject({ level: expect.any(Number), time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), msg: expect.any(String) });
      expect(lines.map((line) => JSON.parse(line).msg)).toEqual([
        expect.stringMatching(/^applied \d+ migrations /),
        `REST     ${base}/v1`,
        `GraphiQL ${base}/graphql`,
        `no organization or user yet: create them and a token with  DATABASE_URL=file:${file} npx docs-gateway bootstrap --org <title> --email <email>`,
      ]);

      // The API is up, on the migrated database.
      const openapi = await fetch(`${base}/v1/openapi.json`);
      expect(openapi.status).toBe(200);
      expect((await openapi.json()).openapi).toBe('3.1.0');
      const anonymous = await fetch(`${base}/v1/user`);
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toMatchObject({ error: { code: 401 } });

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
        // An organization, its admin and a token, made as a person makes them (a space follows, over REST).
        const file = path.join(dir, 'x.db');
        const { organizationId, token } = jsonLine(
          await cli(['bootstrap', '--org', 'In flight', '--email', 'admin@example.test', '--json'], { DATABASE_URL: `file:${file}` }),
        );
        const { child, output, exit } = servers.start(BIN, ['--port', String(port)], file, { FETCH_PRIVATE_ADDRESSES: 'true' });
        const base = `http://127.0.0.1:${port}`;
        await listening(base, child, output);
        const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
        const space = (await (
          await fetch(`${base}/v1/orgs/${organizationId}/spaces`, { method: 'POST', headers, body: JSON.stringify({ title: 'Imported' }) })
        ).json()) as {
          id: string;
        };
        const siteUrl = `http://127.0.0.1:${(slowSite.address() as net.AddressInfo).port}/`;
        // A subscriber of the space the import writes to.
        const stream = await subscribe(base, token, 'subscription($id: ID!) { spaceEvents(spaceId: $id) { ... on Event { kind } } }', {
          id: space.id,
        });
        expect(stream.status).toBe(200);
        const inFlight = fetch(`${base}/v1/spaces/${space.id}/content/import`, {
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
