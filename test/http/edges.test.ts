import http from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { isLoopbackHost } from '../../src/http/graphql.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { buildTeam } from '../support/factories.ts';
import { expectError } from '../support/http.ts';

/**
 * The edges of HTTP: methods a path does not have, requests Node's parser
 * refuses, and the GraphiQL page's token under a Host header that is not this
 * machine's. (Requests refused while the server shuts down: shutdown.test.ts.)
 */

let t: TestApp;
let team: Awaited<ReturnType<typeof buildTeam>>;
beforeAll(async () => {
  t = await createTestApp();
  team = await buildTeam(t.database);
});

describe('a method the path does not have', () => {
  it('is 405 with Allow naming the methods the path has, in the one error shape', async () => {
    const cases: Array<[method: string, url: string, allow: string]> = [
      ['PUT', '/v1/user', 'GET, HEAD'],
      ['DELETE', '/v1/user?x=1', 'GET, HEAD'],
      ['POST', `/v1/spaces/${'spc_x'}`, 'GET, HEAD, PATCH, DELETE'],
      ['GET', `/v1/spaces/spc_x/change-requests/cr_x/merge`, 'POST'],
      ['PUT', '/graphql', 'GET, HEAD, POST'],
    ];
    for (const [method, url, allow] of cases) {
      const response = await t.call(method, url, { token: team.admin.token });
      expectError(response, 405, `No operation ${method} ${url.split('?')[0]}: it answers ${allow}`);
      expect(response.headers.allow, `${method} ${url}`).toBe(allow);
      expect(response.headers['x-request-id']).toBeDefined();
    }
    // Authentication comes first, as for every /v1 request.
    expectError(await t.call('PATCH', '/v1/user'), 401);
  });

  it('stays 404 for a path no operation has, and for a routed method that finds nothing', async () => {
    expectError(await t.call('PUT', '/v1/nothing-here', { token: team.admin.token }), 404, 'No operation PUT /v1/nothing-here');
    expectError(await t.call('GET', '/docs/assets/0.0.0/package.json'), 404);
  });
});

describe('a request line and headers larger than Node accepts', () => {
  it('is 431 in the one error shape, with a request id, and the connection closed', async () => {
    const port = Number(new URL(await t.listen()).port);
    for (const [label, path, headers] of [
      ['a long query', `/v1/user?x=${'a'.repeat(17_000)}`, {}],
      ['a long header', '/v1/user', { 'x-padding': 'b'.repeat(17_000) }],
    ] as const) {
      const answer = await new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
        const request = http.request({ host: '127.0.0.1', port, path, headers: { authorization: `Bearer ${team.admin.token}`, ...headers } }, (response) => {
          let body = '';
          response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
        });
        request.on('error', reject).end();
      });
      expect(answer.status, label).toBe(431);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(answer.headers.connection).toBe('close');
      expect(answer.headers['x-request-id']).toMatch(/^[\da-f-]{36}$/);
      expect(JSON.parse(answer.body)).toEqual({
        error: { code: 431, message: expect.stringMatching(/^The request line and headers are larger than 16 KiB together/) },
      });
    }
  });

  it('is declared for every operation of the document', async () => {
    const document = (await t.call('GET', '/v1/openapi.json')).json();
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(item)) {
        expect(operation.responses['431'], `${method} ${path}`).toEqual({ $ref: '#/components/responses/RequestHeaderFieldsTooLarge' });
      }
    }
    expect(document.components.responses.RequestHeaderFieldsTooLarge).toMatchObject({
      description: expect.stringMatching(/larger than 16 KiB together/),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    });
  });
});

describe('the GraphiQL page with a token (npm start --demo, on loopback)', () => {
  let served: TestApp;
  beforeAll(async () => {
    served = await createTestApp({ graphiqlToken: team.admin.token });
  });

  const pageHeaders = async (host: string) => {
    const page = await served.call('GET', '/graphql', { headers: { accept: 'text/html', host } });
    expect(page.statusCode).toBe(200);
    const options = JSON.parse(/<script type="application\/json" id="graphiql-options">([^<]*)<\/script>/.exec(page.body)![1]!);
    return JSON.parse(options.headers).Authorization as string;
  };

  it('carries the token only when Host names a loopback address', async () => {
    for (const host of ['localhost', 'localhost:4000', '127.0.0.1:4000', '127.0.0.2', '[::1]:4000', 'LocalHost:80']) {
      expect(await pageHeaders(host), host).toBe(`Bearer ${team.admin.token}`);
    }
    // A page of another site whose name was rebound to 127.0.0.1 names that site in Host: it gets the page that asks for a token.
    for (const host of ['evil.example:4000', 'evil.example', 'localhost.evil.example:4000', '127.0.0.1.evil.example', '10.0.0.5:4000', 'not a host']) {
      const authorization = await pageHeaders(host);
      expect(authorization, host).toMatch(/^Bearer <paste a token/);
      expect(authorization).not.toContain(team.admin.token);
    }
  });

  it('reads loopback names as URLs spell them', () => {
    expect(['127.1', '[0:0::1]:1', '2130706433'].every(isLoopbackHost)).toBe(true);
    expect(['evil.example:4000@127.0.0.1', '127.0.0.1/x', '::1', '', undefined, '0.0.0.0:4000', '[::ffff:127.0.0.1]'].some(isLoopbackHost)).toBe(false);
  });
});
