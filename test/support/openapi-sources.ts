import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { stringify } from 'yaml';
import { closeWhenFileEnds } from './cleanup.ts';

/**
 * Fetch bounds small enough for tests: the slow source times out in 1.5 s (a bound a loaded CI
 * machine still meets when it fetches a document from 127.0.0.1; at 400 ms it once did not).
 */
export const TEST_OPENAPI_FETCH = { timeoutMs: 1_500, maxBytes: 64 * 1024 };

export const petstore = (version: string) => ({
  openapi: '3.0.3',
  info: { title: 'Petstore', version },
  paths: {
    '/pets/{petId}': {
      get: {
        operationId: 'getPet',
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'A pet', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } },
      },
    },
  },
  components: { schemas: { Pet: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } },
});

/** Valid JSON, but not a valid OpenAPI document: `info` lacks its version, a path parameter is not declared. */
export const INVALID_DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Broken' },
  paths: { '/pets/{petId}': { get: { responses: { '200': { description: 'A pet' } } } } },
};

/**
 * OpenAPI documents served on 127.0.0.1 for the processing job: a valid one
 * (JSON), another (YAML), an invalid one, one that is not even YAML, a 404, a
 * source that never answers, one that stops halfway, a source too large, and the address of a closed port.
 * `documents` can be changed by the test (the served body follows).
 */
export async function serveOpenAPISources() {
  const documents: Record<string, { type: string; body: string }> = {
    '/petstore.json': { type: 'application/json', body: JSON.stringify(petstore('1.0.0')) },
    '/petstore-2.yaml': { type: 'application/yaml', body: stringify(petstore('2.0.0')) },
    '/invalid.json': { type: 'application/json', body: JSON.stringify(INVALID_DOCUMENT) },
    '/not-yaml.yaml': { type: 'application/yaml', body: 'openapi: 3.0.3\ninfo: [unclosed\n  : :' },
    '/large.json': { type: 'application/json', body: JSON.stringify({ ...petstore('1.0.0'), padding: 'x'.repeat(TEST_OPENAPI_FETCH.maxBytes) }) },
  };
  const server = http.createServer((request, response) => {
    const path = request.url!.split('?')[0]!;
    if (path === '/slow.json') return; // Never answers: the fetch times out.
    // Answers, then stops in the middle of the body: the fetch times out too.
    if (path === '/stalled.json') return void response.writeHead(200, { 'content-type': 'application/json' }).write('{"openapi": "3.0.3", ');
    const document = documents[path];
    if (!document) return response.writeHead(404, { 'content-type': 'text/plain' }).end('missing');
    response.writeHead(200, { 'content-type': document.type }).end(document.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closeWhenFileEnds(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const closedPort = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, documents, unreachable: `http://127.0.0.1:${closedPort}/petstore.json` };
}
