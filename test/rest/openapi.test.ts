import { beforeAll, describe, expect, it } from 'vitest';
import { OUTSIDE_ROUTE_TABLE } from '../../src/rest/openapi.ts';
import { restRoutes } from '../../src/rest/plugin.ts';
import { TEST_URLS, createTestApp, type TestApp } from '../support/app.ts';
import { buildTeam } from '../support/factories.ts';

let t: TestApp;
let document: any;
beforeAll(async () => {
  t = await createTestApp();
  const response = await t.call('GET', '/v1/openapi.json');
  expect(response.statusCode, response.body).toBe(200);
  document = response.json();
});

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every operation of the document as [path, method, operation]. */
function operations(): Array<[string, string, any]> {
  return Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]): [string, string, any] => [path, method, operation]),
  );
}

function operation(method: string, path: string) {
  const found = document.paths?.[path]?.[method.toLowerCase()];
  expect(found, `${method} ${path} in /v1/openapi.json`).toBeDefined();
  return found;
}

function requestBodySchema(method: string, path: string) {
  const body = operation(method, path).requestBody;
  expect(body, `${method} ${path} has a request body`).toBeDefined();
  return resolve(body.content['application/json'].schema);
}

/** Follows a local $ref (a JSON pointer into the document), or returns the node itself. */
function resolve(node: any): any {
  if (node && typeof node === 'object' && typeof node.$ref === 'string') return resolve(pointer(node.$ref));
  return node;
}

function pointer(ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  const parts = ref
    .slice(1)
    .split('/')
    .slice(1)
    .map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: unknown = document;
  for (const part of parts) {
    if (!node || typeof node !== 'object' || !Object.hasOwn(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

function collectRefs(node: unknown, at: string, into: Array<{ ref: string; at: string }>) {
  if (Array.isArray(node)) node.forEach((item, index) => collectRefs(item, `${at}/${index}`, into));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref') into.push({ ref: String(value), at });
      else collectRefs(value, `${at}/${key}`, into);
    }
  }
  return into;
}

describe('GET /v1/openapi.json', () => {
  it('is public JSON: an OpenAPI 3.1 document of this server', async () => {
    const anonymous = await t.call('GET', '/v1/openapi.json');
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.headers['content-type']).toMatch(/^application\/json/);
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(document.servers).toEqual([{ url: TEST_URLS.api }]);
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.security).toEqual([{ bearerAuth: [] }]);

    // The same document with a token, even an unknown one.
    const { admin } = await buildTeam(t.database);
    const authenticated = await t.call('GET', '/v1/openapi.json', { token: admin.token });
    expect(authenticated.statusCode).toBe(200);
    expect(authenticated.json()).toEqual(document);
    const unknownToken = await t.call('GET', '/v1/openapi.json', { token: 'dgw_unknown' });
    expect(unknownToken.statusCode).toBe(200);
    expect(unknownToken.json()).toEqual(document);
  });

  it('lists every route of the route table with its operationId, and nothing else', () => {
    expect(restRoutes.length).toBeGreaterThan(0);
    for (const route of restRoutes) {
      const found = operation(route.method, route.path);
      expect(found.operationId, `${route.method} ${route.path}`).toBe(route.operationId);
      expect(found.tags).toEqual([route.tag]);
      expect(typeof found.summary).toBe('string');
    }
    const documented = operations().map(([path, method, found]) => `${method.toUpperCase()} ${path} ${found.operationId}`);
    const routed = restRoutes.map((route) => `${route.method} ${route.path} ${route.operationId}`);
    // And the push webhook a Git host calls (src/rest/git-hooks.ts), outside the route table.
    expect(OUTSIDE_ROUTE_TABLE.map(({ operation }) => operation.operationId)).toEqual(['receiveGitPush']);
    const outside = OUTSIDE_ROUTE_TABLE.map(({ path, method, operation }) => `${method.toUpperCase()} ${path} ${operation.operationId}`);
    expect(documented.sort()).toEqual([...routed, ...outside].sort());
    const ids = operations().map(([, , found]) => found.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('documents the path parameters, the success status and the response of every route', () => {
    for (const route of restRoutes) {
      const found = operation(route.method, route.path);
      const names = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
      const pathParameters = (found.parameters ?? []).filter((parameter: any) => parameter.in === 'path');
      expect(
        pathParameters.map((parameter: any) => parameter.name),
        `${route.method} ${route.path}`,
      ).toEqual(names);
      expect(pathParameters.every((parameter: any) => parameter.required === true)).toBe(true);

      const success = found.responses[String(route.status)];
      expect(success, `${route.method} ${route.path} → ${route.status}`).toBeDefined();
      const schema = success.content?.['application/json']?.schema;
      if (route.status === 204 || route.status === 205 || !route.response) {
        expect(schema, `${route.method} ${route.path} has no content`).toBeUndefined();
      } else if (route.list) {
        expect(schema).toMatchObject({
          type: 'object',
          required: expect.arrayContaining(['count', 'items']),
          properties: { items: { type: 'array', items: { $ref: `#/components/schemas/${route.response}` } } },
        });
      } else {
        expect(schema).toEqual({ $ref: `#/components/schemas/${route.response}` });
      }
      for (const status of ['400', '401', '404']) {
        expect(resolve(resolve(found.responses[status])?.content?.['application/json']?.schema)).toMatchObject({
          required: ['error'],
        });
      }
      if (route.body) expect(found.requestBody?.required).toBe(true);
      else expect(found.requestBody).toBeUndefined();
    }
  });

  it('carries the zod limits of the request bodies', () => {
    const collection = requestBodySchema('POST', '/v1/orgs/{organizationId}/collections');
    expect(collection.properties.title).toMatchObject({ type: 'string', maxLength: 50 });
    expect(collection.additionalProperties).toBe(false);
    expect(requestBodySchema('PATCH', '/v1/collections/{collectionId}').properties).toMatchObject({
      title: { type: 'string', maxLength: 50 },
      description: { type: 'string', maxLength: 100 },
    });
    expect(requestBodySchema('POST', '/v1/orgs/{organizationId}/spaces').properties.title).toMatchObject({
      type: 'string',
      maxLength: 50,
    });

    const field = requestBodySchema('POST', '/v1/orgs/{organizationId}/custom-fields');
    expect(field.required?.slice().sort()).toEqual(['name', 'type']);
    expect(field.properties.name).toMatchObject({ type: 'string', minLength: 1, maxLength: 50 });
    expect(new RegExp(field.properties.name.pattern).test('review-cycle_2')).toBe(true);
    expect(new RegExp(field.properties.name.pattern).test('Review')).toBe(false);
    expect(field.properties.type.enum.slice().sort()).toEqual(['boolean', 'multi-select', 'number', 'select', 'text']);
    expect(field.properties.title).toMatchObject({ maxLength: 100 });
    expect(field.properties.description).toMatchObject({ maxLength: 200 });
    expect(field.properties.placeholder).toMatchObject({ maxLength: 100 });
    expect(field.properties.options).toMatchObject({ type: 'array', minItems: 1, maxItems: 50 });
    expect(field.additionalProperties).toBe(false);

    const fieldUpdate = requestBodySchema('PATCH', '/v1/orgs/{organizationId}/custom-fields/{fieldName}');
    expect(fieldUpdate.required ?? []).toEqual([]);
    expect(fieldUpdate.properties.options).toMatchObject({ minItems: 1, maxItems: 50 });

    const values = requestBodySchema('PATCH', '/v1/spaces/{spaceId}/custom-fields');
    expect(values.required).toEqual(['values']);
    expect(JSON.stringify(values.properties.values)).toContain('"maxLength":256');

    // Listings document page and limit (at most 1000), not GraphQL's connection arguments.
    const listing = operation('GET', '/v1/orgs/{organizationId}/custom-fields');
    const query = Object.fromEntries(
      listing.parameters.filter((parameter: any) => parameter.in === 'query').map((parameter: any) => [parameter.name, parameter]),
    );
    expect(Object.keys(query).sort()).toEqual(['limit', 'page']);
    expect(query.limit.schema).toMatchObject({ maximum: 1000 });
    // Contributors of one change request are answered whole, as the official operation has no paging parameters.
    const answeredWhole = new Set(['getContributorsByChangeRequestId']);
    for (const route of restRoutes.filter((candidate) => candidate.list && !answeredWhole.has(candidate.operationId))) {
      const names = operation(route.method, route.path)
        .parameters.filter((parameter: any) => parameter.in === 'query')
        .map((parameter: any) => parameter.name);
      expect(names, `${route.method} ${route.path}`).toEqual(expect.arrayContaining(['page', 'limit']));
      expect(names).not.toContain('after');
      expect(names).not.toContain('first');
    }
  });

  it('says what the server enforces: required query parameters, distinct items, email addresses, non-empty bodies, at least one field', () => {
    const queryParameter = (method: string, path: string, name: string) =>
      operation(method, path).parameters.find((parameter: any) => parameter.in === 'query' && parameter.name === name);
    // Search needs its query.
    for (const path of ['/v1/orgs/{organizationId}/search', '/v1/spaces/{spaceId}/search']) {
      expect(queryParameter('GET', path, 'query'), path).toMatchObject({ required: true, schema: { type: 'string', minLength: 1, maxLength: 512 } });
      expect(queryParameter('GET', path, 'page').required).toBe(false);
    }
    // Lists whose items must differ.
    expect(requestBodySchema('POST', '/v1/orgs/{organizationId}/translations').properties.languages).toMatchObject({ uniqueItems: true });
    expect(requestBodySchema('PUT', '/v1/orgs/{organizationId}/translations/{translationSettingsId}').properties.languages).toMatchObject({
      uniqueItems: true,
    });
    expect(requestBodySchema('POST', '/v1/orgs/{organizationId}/custom-fields').properties.options).toMatchObject({ uniqueItems: true });
    expect(requestBodySchema('PATCH', '/v1/orgs/{organizationId}/custom-fields/{fieldName}').properties.options).toMatchObject({ uniqueItems: true });
    expect(requestBodySchema('POST', '/v1/orgs/{organizationId}/sites/{siteId}/section-groups').properties.sections).toMatchObject({ uniqueItems: true });
    // Invited addresses are email addresses, given alone or with a role.
    const emails = requestBodySchema('POST', '/v1/orgs/{organizationId}/invites').properties.emails;
    expect(emails.items.anyOf).toEqual([
      expect.objectContaining({ type: 'string', format: 'email' }),
      expect.objectContaining({ properties: expect.objectContaining({ email: expect.objectContaining({ format: 'email' }) }) }),
    ]);
    // A comment or reply says something.
    for (const [method, path] of [
      ['POST', '/v1/spaces/{spaceId}/comments'],
      ['POST', '/v1/spaces/{spaceId}/comments/{commentId}/replies'],
    ]) {
      expect(requestBodySchema(method!, path!).properties.body.properties.markdown, path).toMatchObject({ type: 'string', minLength: 1, pattern: '\\S' });
    }
    // Updates that must change something.
    expect(requestBodySchema('PATCH', '/v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}')).toMatchObject({ minProperties: 1 });
    expect(requestBodySchema('POST', '/v1/spaces/{spaceId}/move')).toMatchObject({ minProperties: 1 });
    // An OpenAPI spec's source is a url or a text, one of them.
    expect(requestBodySchema('POST', '/v1/orgs/{organizationId}/openapi').properties.source.oneOf).toEqual([{ required: ['url'] }, { required: ['text'] }]);
    // A PDF of one page alone needs the page.
    const pdf = '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf';
    expect(queryParameter('GET', pdf, 'page').description).toMatch(/required when `only=true`/);
    expect(queryParameter('GET', pdf, 'only').description).toMatch(/`page` is then required/);
    // A content batch's `compat` (the walk-throughs send compat=false) says what each value answers.
    const compat = queryParameter('POST', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content', 'compat');
    expect(compat).toMatchObject({ required: false, schema: { type: 'boolean' } });
    expect(compat.description).toMatch(/`true` \(the default.*`ChangeRequest`.*`false`.*`ChangeRequestContentUpdate`/);
    // No query parameter keeps its description inside its schema.
    for (const [path, method, found] of operations()) {
      for (const parameter of found.parameters ?? []) expect(parameter.schema.description, `${method} ${path} ${parameter.name}`).toBeUndefined();
    }
  });

  it('resolves every $ref inside the document', () => {
    const refs = collectRefs(document, '#', []);
    expect(refs.length).toBeGreaterThan(0);
    const broken = refs.filter(({ ref }) => pointer(ref) === undefined);
    expect(broken).toEqual([]);
    // Every schema the operations use is in components, and the custom field schemas are there.
    for (const name of ['CustomField', 'SpaceCustomFieldValues', 'CustomFieldValue', 'Error']) {
      expect(document.components.schemas[name], name).toBeDefined();
    }
  });
});

/** The schemas of components.schemas that `name` references directly. */
function referencedSchemas(name: string): string[] {
  return collectRefs(document.components.schemas[name], '#', [])
    .map(({ ref }) => ref)
    .filter((ref) => ref.startsWith('#/components/schemas/'))
    .map((ref) => ref.slice('#/components/schemas/'.length));
}

/** The strongly connected components of the schemas' references that hold a cycle (Tarjan's algorithm). */
function recursiveGroups(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const state = new Map<string, { index: number; low: number; onStack: boolean }>();
  const groups: string[][] = [];
  const visit = (node: string) => {
    state.set(node, { index, low: index, onStack: true });
    index += 1;
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!state.has(next)) {
        visit(next);
        state.get(node)!.low = Math.min(state.get(node)!.low, state.get(next)!.low);
      } else if (state.get(next)!.onStack) state.get(node)!.low = Math.min(state.get(node)!.low, state.get(next)!.index);
    }
    if (state.get(node)!.low === state.get(node)!.index) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        state.get(member)!.onStack = false;
        group.push(member);
      } while (member !== node);
      if (group.length > 1 || (graph.get(node) ?? []).includes(node)) groups.push(group);
    }
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return groups;
}

/** Whether the references among `members`, `without` left out, have no cycle. */
function acyclicWithout(graph: Map<string, string[]>, members: string[], without: string): boolean {
  const inside = new Set(members.filter((member) => member !== without));
  const done = new Set<string>();
  const path = new Set<string>();
  const cyclic = (node: string): boolean => {
    if (path.has(node)) return true;
    if (done.has(node)) return false;
    path.add(node);
    const found = (graph.get(node) ?? []).some((next) => inside.has(next) && cyclic(next));
    path.delete(node);
    done.add(node);
    return found;
  };
  return ![...inside].some(cyclic);
}

/**
 * How many JSON nodes an operation becomes once each $ref is inlined down each path until it
 * repeats on that path — what Swagger UI's resolver does with an operation it opens, and what a
 * fuzzer generating bodies walks. Counting stops past `limit`.
 */
function expandedSize(operation: unknown, limit: number): number {
  let count = 0;
  const path: string[] = [];
  const walk = (node: unknown) => {
    if (++count > limit) return;
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      const { $ref } = node as { $ref?: unknown };
      if (typeof $ref === 'string') {
        if (path.includes($ref)) return;
        path.push($ref);
        walk(pointer($ref));
        path.pop();
      } else Object.values(node).forEach(walk);
    }
  };
  walk(operation);
  return count;
}

describe('what /v1/openapi.json holds once', () => {
  it('defines the error answers every operation shares in components, each operation referencing them', () => {
    for (const route of restRoutes) {
      const found = operation(route.method, route.path);
      const errors = Object.entries(found.responses as Record<string, any>).filter(([status]) => Number(status) >= 400);
      expect(errors.map(([status]) => status).sort()).toEqual(
        ['400', '401', '403', '404', '409', ...(route.body ? ['413'] : []), '414', '429', '431', '503'].sort(),
      );
      for (const [status, response] of errors) {
        expect(Object.keys(response), `${route.method} ${route.path} ${status}`).toEqual(['$ref']);
        const shared = resolve(response);
        expect(shared.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
        expect(resolve(shared.headers['x-request-id']).schema).toEqual({ type: 'string' });
      }
      // The body limit its 413 names is the route's.
      if (route.body) {
        const limit = `${Math.round((route.bodyLimit ?? 1024 * 1024) / 1024 / 1024)} MiB`;
        expect(resolve(found.responses['413']).description).toBe(`The body is larger than ${limit}`);
      }
    }
    expect(resolve(operation('GET', '/v1/user').responses['429']).headers['retry-after']).toEqual({ $ref: '#/components/headers/Retry-After' });
  });

  it('describes the structured document once, as its answers and its input, with one schema every cycle passes through', () => {
    // Input: a content change's structured document is the JSONDocument component.
    const change = requestBodySchema('POST', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content').properties.changes.items.oneOf[0];
    const bodies = change.properties.document.anyOf;
    expect(bodies.map((body: any) => Object.keys(body.properties ?? {}))).toEqual([['markdown'], ['document'], []]);
    expect(bodies[1].properties.document).toEqual({ $ref: '#/components/schemas/JSONDocument' });
    // Answers: a page's Document holds the same JSONDocument, ours (src/domain/content/document-schema.ts), not the official one.
    expect(JSON.stringify(document.components.schemas.Document)).toContain('"$ref":"#/components/schemas/JSONDocument"');
    expect(resolve(document.components.schemas.JSONDocument.properties.nodes.items)).toMatchObject({ description: 'A block' });
    expect(document.components.schemas.DocumentBlocksTopLevels).toBeUndefined();

    const graph = new Map(Object.keys(document.components.schemas).map((name) => [name, referencedSchemas(name)]));
    const groups = recursiveGroups(graph);
    // The document's blocks are recursive (quotes and list items hold blocks), through the hub only.
    const blocks = groups.find((group) => group.includes('DocumentBlock'));
    expect(blocks).toEqual(expect.arrayContaining(['DocumentBlock', 'DocumentBlockQuote', 'DocumentBlockListItem', 'DocumentBlockListOrdered']));
    for (const group of groups) {
      const hubs = group.filter((member) => acyclicWithout(graph, group, member));
      expect(hubs, `a schema every cycle of ${group.join(', ')} passes through`).not.toEqual([]);
    }
  });

  it('is a document the tools can expand: every operation, its references inlined as Swagger UI resolves them, stays small', () => {
    const limit = 100_000;
    const sizes = operations().map(([path, method, found]) => [`${method} ${path}`, expandedSize(found, limit)] as const);
    expect(sizes.filter(([, size]) => size > limit)).toEqual([]);
    // And the whole document: a few hundred KB, where the official document structures inlined made it 934 KB.
    expect(JSON.stringify(document).length).toBeLessThan(600_000);
  });
});

describe('GET /v1', () => {
  it('lists every operation of the route table by tag, with the reference, without a token', async () => {
    const response = await t.call('GET', '/v1');
    expect(response.statusCode).toBe(200);
    const index = response.json();
    expect(index).toMatchObject({ openapi: 'http://docs-gateway.test/v1/openapi.json', authentication: 'Authorization: Bearer <token>' });
    const listed = index.resources.flatMap((resource: { operations: Array<{ operationId: string }> }) =>
      resource.operations.map((operation) => operation.operationId),
    );
    expect(listed).toEqual(restRoutes.map((route) => route.operationId));
    expect(index.resources.map((resource: { tag: string }) => resource.tag)).toEqual([...new Set(restRoutes.map((route) => route.tag))]);
    expect(index.resources[0].operations[0]).toEqual({
      method: restRoutes[0]!.method,
      path: restRoutes[0]!.path,
      operationId: restRoutes[0]!.operationId,
      summary: restRoutes[0]!.summary,
    });
  });
});
