import fc from 'fast-check';
import { type Fixtures, type Kind, PARAMETER_KINDS } from './fixtures.ts';
import type { JsonSchema, OpenApiDocument, OpenApiOperation } from './openapi-document.ts';
import { Deep, Huge, KINDS, encodeComponent, hostileJson, hostileString, hugeString, jsonText, pageTokenArb, refOf, resolveText } from './values.ts';

/**
 * REST requests generated from our own OpenAPI document (GET /v1/openapi.json):
 * for each operation, path parameters (real ids of the caller's fixtures
 * mostly; ids of another kind or of an organization it cannot see; hostile
 * strings), query parameters from their schemas plus malformed ones (limits out
 * of range, tampered page tokens, duplicated and unknown parameters), and
 * bodies from their JSON schemas plus mutations (wrong types, missing required
 * fields, unknown fields, ~1 MB strings, deep nesting, non-objects, invalid
 * JSON, other content types).
 */

export interface Operation {
  method: string;
  path: string;
  operation: OpenApiOperation;
}

export function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation: withBodyRefsInlined(operation, document) })),
  );
}

/**
 * The operation with the component schemas its body references inlined, so that bodies are made
 * from them (a structured document's blocks): a schema is inlined at most twice on a path, then
 * any object.
 */
function withBodyRefsInlined(operation: OpenApiOperation, document: OpenApiDocument): OpenApiOperation {
  const body = operation.requestBody?.content['application/json'].schema;
  if (!body) return operation;
  const inline = (node: unknown, path: string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => inline(item, path));
    if (!node || typeof node !== 'object') return node;
    const { $ref } = node as { $ref?: unknown };
    if (typeof $ref === 'string') {
      const name = $ref.replace('#/components/schemas/', '');
      const target = document.components?.schemas?.[name];
      if (!target || path.filter((seen) => seen === name).length >= 2) return { type: 'object' };
      return inline(target, [...path, name]);
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, inline(value, path)]));
  };
  return { ...operation, requestBody: { content: { 'application/json': { schema: inline(body, []) as JsonSchema } } } };
}

export type Body = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; text: string; contentType: string };

/** A path parameter: a generated value (percent-encoded when sent), or text sent as is. */
export type PathValue = { value: unknown } | { raw: string };

/** One generated request. Printed (by fast-check, on failure) without its placeholders resolved. */
export class RestCase {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly operationId: string,
    readonly params: Record<string, PathValue>,
    readonly query: Array<[string, unknown]>,
    readonly body: Body,
  ) {}

  [fc.toStringMethod]() {
    const params = Object.entries(this.params).map(
      ([name, value]) => `${name}=${'raw' in value ? `raw:${JSON.stringify(value.raw)}` : fc.stringify(value.value)}`,
    );
    const query = this.query.map(([name, value]) => `${name}=${fc.stringify(value)}`);
    const body =
      this.body.kind === 'none'
        ? ''
        : ` body=${this.body.kind === 'json' ? clip(fc.stringify(this.body.value)) : `${this.body.contentType}:${clip(JSON.stringify(this.body.text))}`}`;
    return `${this.method} ${this.path} (${this.operationId}) [${params.join(', ')}] ?[${query.join(', ')}]${body}`;
  }
}

const clip = (text: string) => (text.length > 600 ? `${text.slice(0, 600)}… (${text.length} characters)` : text);

/** The request a case stands for, with the fixtures of the moment. */
export function materialize(request: RestCase, fixtures: Fixtures) {
  const path = request.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = request.params[name]!;
    return 'raw' in value ? value.raw : encodeComponent(resolveText(value.value, fixtures));
  });
  const query = request.query.map(([name, value]) => `${encodeComponent(name)}=${encodeComponent(resolveText(value, fixtures))}`).join('&');
  const url = query ? `${path}?${query}` : path;
  const { body } = request;
  if (body.kind === 'none') return { method: request.method, url };
  if (body.kind === 'raw') return { method: request.method, url, payload: body.text, contentType: body.contentType };
  return { method: request.method, url, payload: jsonText(body.value, fixtures), contentType: 'application/json' };
}

// ---------------------------------------------------------------- path parameters

/** Percent-encodings and dot segments sent as they are, not encoded again. */
const RAW_SEGMENTS = [
  '%',
  '%zz',
  '%00',
  '%ED%A0%80',
  '%C0%AF',
  '%F0%9F',
  '%E2%82',
  '..%2F..%2F',
  '..',
  '.',
  '%2e%2e',
  'a%2Fb',
  '%2F',
  '%252F',
  '%u0041',
  '+',
  '%20',
  ';x',
  'a;b=c',
  '@',
  ':',
];

function pathValueArb(name: string): fc.Arbitrary<PathValue> {
  const kind = PARAMETER_KINDS[name];
  const value = (arbitrary: fc.Arbitrary<unknown>) => arbitrary.map((v): PathValue => ({ value: v }));
  return fc.oneof(
    { weight: 24, arbitrary: value(kind ? refOf(kind) : fc.constantFrom(...KINDS).chain((k) => refOf(k))) },
    { weight: 2, arbitrary: value(fc.constantFrom(...KINDS).chain((k) => refOf(k))) },
    { weight: 1, arbitrary: value(kind ? refOf(kind, 'foreign') : fc.constant('x')) },
    { weight: 3, arbitrary: value(hostileString) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS).map((raw): PathValue => ({ raw })) },
  );
}

// ---------------------------------------------------------------- query parameters

const MALFORMED_INTEGERS = [
  '-1',
  '0',
  '1e9',
  '1000000000',
  'abc',
  '1.5',
  '',
  ' 5',
  '5 ',
  '99999999999999999999',
  '0x10',
  'NaN',
  'Infinity',
  '-0',
  '+1',
  '١٢',
  '1,2',
  '1e400',
  '00001',
];
const MALFORMED_BOOLEANS = ['yes', '1', '0', 'TRUE', 'False', '', 'null', 'on'];

/** Id kinds of properties and query parameters, by name. */
export const HINT_KINDS: Record<string, Kind> = {
  parent: 'collection',
  organization: 'organization',
  space: 'space',
  spaceId: 'space',
  spaces: 'space',
  collection: 'collection',
  site: 'site',
  siteSection: 'siteSection',
  sectionId: 'siteSection',
  sections: 'siteSection',
  siteSpace: 'siteSpace',
  defaultSiteSpace: 'siteSpace',
  id: 'siteSection',
  page: 'page',
  revision: 'revision',
  creator: 'user',
  contributor: 'user',
  owner: 'user',
  members: 'user',
  add: 'user',
  remove: 'user',
};

function queryValueArb(name: string, schema: JsonSchema, operationId: string): fc.Arbitrary<unknown> {
  if (name === 'page' || name === 'after' || name === 'before') return pageTokenArb(operationId);
  const types = schemaTypes(schema);
  const malformed: fc.Arbitrary<unknown> =
    types.has('integer') || types.has('number')
      ? fc.oneof(fc.constantFrom(...MALFORMED_INTEGERS), hostileString)
      : types.has('boolean')
        ? fc.oneof(fc.constantFrom(...MALFORMED_BOOLEANS), hostileString)
        : hostileString;
  const valid =
    types.has('integer') || types.has('number')
      ? fc.integer({ min: schema.minimum ?? -10, max: Math.min(schema.maximum ?? 1000, 1000) }).map(String)
      : types.has('boolean')
        ? fc.constantFrom('true', 'false')
        : HINT_KINDS[name]
          ? fc.oneof({ weight: 3, arbitrary: refOf(HINT_KINDS[name]) }, { weight: 1, arbitrary: hostileString })
          : stringLike(schema, name);
  return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: malformed });
}

function schemaTypes(schema: JsonSchema): Set<string> {
  const types = new Set<string>();
  const visit = (s: JsonSchema) => {
    if (typeof s.type === 'string') types.add(s.type);
    if (s.enum || s.const !== undefined) types.add('enum');
    for (const branch of [...(s.anyOf ?? []), ...(s.oneOf ?? [])]) visit(branch);
  };
  visit(schema);
  return types;
}

function queryArb(operation: OpenApiOperation): fc.Arbitrary<Array<[string, unknown]>> {
  const declared = operation.parameters.filter((parameter) => parameter.in === 'query');
  const paged = declared.some((parameter) => parameter.name === 'limit');
  const entries = declared.map((parameter) =>
    fc.option(
      queryValueArb(parameter.name, parameter.schema, operation.operationId).map((value): [string, unknown] => [parameter.name, value]),
      {
        // Page tokens more often than not: tampered ones reach the database's keyset query.
        freq: parameter.name === 'page' ? 4 : 2,
        nil: undefined,
      },
    ),
  );
  const extras = fc.array(
    fc.oneof(
      // Repeated: Fastify makes an array of it.
      ...(declared.length ? [fc.constantFrom(...declared.map((parameter) => parameter.name)).chain((name) => fc.tuple(fc.constant(name), hostileString))] : []),
      // GraphQL's connection arguments, which listings take too.
      ...(paged
        ? [
            fc.tuple(fc.constantFrom('first', 'last'), fc.oneof(fc.constantFrom(...MALFORMED_INTEGERS), fc.nat({ max: 2000 }).map(String))),
            fc.tuple(fc.constantFrom('after', 'before'), pageTokenArb(operation.operationId)),
          ]
        : []),
      fc.tuple(fc.oneof(fc.constantFrom('__proto__', 'constructor', 'limit[]', 'x', ''), fc.string({ maxLength: 8 })), hostileString),
    ),
    { maxLength: 2 },
  );
  return fc
    .tuple(fc.tuple(...entries), fc.oneof({ weight: 4, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: extras }))
    .map(([given, extra]) => [...given.filter((entry): entry is [string, unknown] => entry !== undefined), ...(extra as Array<[string, unknown]>)]);
}

// ---------------------------------------------------------------- bodies

const MARKDOWN_PIECES = [
  '# Title\n',
  '## Sub\n',
  'Some text. ',
  '[a link](./quickstart)',
  '[page](/pages/pg_000000000000000000)',
  '![img](./diagram)',
  '![img](/files/fil_000000000000000000)',
  '[ext](https://example.invalid/x)',
  '[bad](javascript:alert(1))',
  '<script>alert(1)</script>',
  '<div>html</div>',
  '```js\ncode()\n```\n',
  '| a | b |\n|---|---|\n| 1 | 2 |\n',
  '> quote\n',
  '- item\n  - nested\n',
  '1. one\n',
  '{% hint %}\n',
  '\n\n',
  '***',
  '[[wiki]]',
  '[ref]: ./x\n',
  '\u0000',
  '\ud800',
];

const markdownArb = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.array(fc.oneof(fc.constantFrom(...MARKDOWN_PIECES), fc.string({ maxLength: 20 })), { maxLength: 12 }).map((pieces) => pieces.join('')),
  },
  { weight: 1, arbitrary: fc.constantFrom('>'.repeat(5000), '- '.repeat(3000), '['.repeat(5000), `${'*'.repeat(5000)}x${'*'.repeat(5000)}`, '|'.repeat(5000)) },
  { weight: 1, arbitrary: fc.constantFrom(new Huge(900_000, 'a'), new Huge(1_000_001, 'a')) },
);

const conditionArb = fc.oneof(
  fc.constantFrom(
    'visitor.claims.isBeta == true',
    'visitor.claims.plan === "pro"',
    'visitor.claims.unknown.deeper[0] > 1',
    'true',
    '1 +',
    '((((',
    `${'('.repeat(500)}1${')'.repeat(500)}`,
    `${'!'.repeat(1000)}true`,
    `${'a.'.repeat(500)}b`,
    'visitor.claims.x ? 1 : 2',
    'a = 1',
    'this.constructor',
    'visitor["__proto__"]',
    'new Date()',
  ),
  fc.string({ maxLength: 40 }),
);

const adaptiveSchemaArb = fc.oneof(
  fc.constant({ type: 'object', properties: { isBeta: { type: 'boolean' } }, additionalProperties: false }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.constantFrom('boolean', 'string', 'number', 'object', 'nope')).map((attributes) => ({
    type: 'object',
    properties: Object.fromEntries(Object.entries(attributes).map(([name, type]) => [name, { type }])),
  })),
  fc.jsonValue({ maxDepth: 3 }),
);

/** A string for a schema with `name`: matching its pattern or format, of a length at or around its bounds, or any text. */
function stringLike(schema: JsonSchema, name: string): fc.Arbitrary<unknown> {
  if (name === 'markdown') return markdownArb;
  if (name === 'condition') return conditionArb;
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 100;
  const options: Array<fc.WeightedArbitrary<unknown>> = [
    { weight: 4, arbitrary: fc.string({ minLength: min, maxLength: Math.max(min, Math.min(max, 30)) }) },
    { weight: 1, arbitrary: fc.constantFrom(new Huge(max), new Huge(max + 1), new Huge(Math.max(min - 1, 0)), new Huge(Math.ceil(max / 2) + 1, '😀')) },
  ];
  if (schema.pattern) {
    try {
      options.push({ weight: 4, arbitrary: fc.stringMatching(new RegExp(schema.pattern)).map((text) => text.slice(0, max)) });
    } catch {
      // A pattern fast-check cannot generate from: the other strings will do.
    }
  }
  if (schema.format === 'uri') {
    options.push({
      weight: 6,
      arbitrary: fc.oneof(
        fc.constantFrom(
          'https://example.invalid/',
          'http://127.0.0.1:1/',
          'http://localhost:5432/',
          'http://[::1]/',
          'http://169.254.169.254/latest/meta-data/',
          'http://0x7f000001/',
          'http://2130706433/',
          'file:///etc/passwd',
          'ftp://example.invalid/x',
          'javascript:alert(1)',
          'data:text/html,<b>x</b>',
          'gopher://example.invalid/',
          'http://user:pass@example.invalid/',
          'http://example.invalid:99999/',
          'https://xn--nxasmq6b.invalid/',
          'http://[::ffff:127.0.0.1]/',
          'https://example.invalid/a%00b',
          'https://',
          'http:/x',
          'mailto:a@b.c',
        ),
        fc
          .webUrl()
          .filter((url) => !/\/\/(localhost|[\d.]+|\[)/.test(url))
          .map((url) => url.replace(/^(https?:\/\/[^/:?#]+)/, '$1.invalid')),
      ),
    });
  }
  return fc.oneof(...options);
}

export const CUSTOM_FIELD_NAMES = ['fz_text', 'fz_select', 'fz_number', 'fz_multi', 'fz_bool'];
const valuesKeyArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...CUSTOM_FIELD_NAMES, 'missing') },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
);

/** A value valid for `schema`, mostly (patterns and formats are aimed at, not guaranteed); ids are drawn from the fixtures by property name. */
export function fromSchema(schema: JsonSchema, name = '', depth = 0): fc.Arbitrary<unknown> {
  if (schema.not) return hostileJson;
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return fc.oneof(...(branches as JsonSchema[]).map((branch) => fromSchema(branch, name, depth)));
  if (name === 'jsonSchema') return adaptiveSchemaArb;
  switch (schema.type) {
    case 'string': {
      const kind = HINT_KINDS[name];
      return kind
        ? fc.oneof({ weight: 6, arbitrary: refOf(kind) }, { weight: 1, arbitrary: refOf(kind, 'foreign') }, { weight: 1, arbitrary: stringLike(schema, name) })
        : stringLike(schema, name);
    }
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 });
    case 'number':
      return fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.double({ noNaN: true, noDefaultInfinity: true }));
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const items = schema.items ? fromSchema(schema.items, name, depth + 1) : fc.jsonValue({ maxDepth: 1 });
      return fc.array(items, {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, schema.minItems ? schema.minItems + 2 : 4, 4),
        depthIdentifier: 'body',
      });
    }
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
      if (Object.keys(properties).length === 0 && schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        const values = Object.keys(schema.additionalProperties).length
          ? fromSchema(schema.additionalProperties, name, depth + 1)
          : fc.jsonValue({ maxDepth: 2 });
        return fc.dictionary(name === 'values' ? valuesKeyArb : fc.string({ maxLength: 10 }), values, { maxKeys: 3 });
      }
      if (depth > 6) return fc.constant({});
      const required = new Set<string>(schema.required ?? []);
      return fc.record(Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, fromSchema(property, key, depth + 1)])), {
        requiredKeys: Object.keys(properties).filter((key) => required.has(key)),
      });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** An object of fields (fast-check makes them without a prototype), not a placeholder. */
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value) && [null, Object.prototype].includes(Object.getPrototypeOf(value));

/** The containers and leaves of a JSON value, by path. */
function pathsOf(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  const here = prefix.length ? [prefix] : [];
  if (Array.isArray(value)) return [...here, ...value.flatMap((item, index) => pathsOf(item, [...prefix, index]))];
  if (isPlainObject(value)) {
    return [...here, ...Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...prefix, key]))];
  }
  return here;
}

function setAt(value: unknown, path: Array<string | number>, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, index) => (index === head ? setAt(item, rest, replacement) : item));
  const object = value as Record<string, unknown>;
  return { ...object, [head!]: setAt(object[head!], rest, replacement) };
}

function deleteAt(value: unknown, path: Array<string | number>): unknown {
  if (path.length === 1) {
    if (Array.isArray(value)) return value.filter((_, index) => index !== path[0]);
    const { [path[0]!]: _, ...rest } = value as Record<string, unknown>;
    return rest;
  }
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, index) => (index === head ? deleteAt(item, rest) : item));
  const object = value as Record<string, unknown>;
  return { ...object, [head!]: deleteAt(object[head!], rest) };
}

const hostileKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', '', ' ', '\u0000', '\ud800', 'id', 'object', 'organizationId', 'toString'),
  fc.string({ maxLength: 12 }),
);

const RAW_JSON = [
  '',
  '{',
  '{"a":',
  'nul',
  '[',
  '"\\ud800"',
  '{"title":"a","title":1}',
  '\u0000',
  '{}garbage',
  '{"a":1}{"b":2}',
  '\ufeff{}',
  '{"title":"\\u0000"}',
  '{"\\ud800":1}',
  '   ',
  '{"a":1e999999}',
  `[${'1,'.repeat(100_000)}1]`,
];
const OTHER_TYPES: Array<[string, string]> = [
  ['text/plain', 'hello'],
  ['text/plain', '{"title":"x"}'],
  ['application/x-www-form-urlencoded', 'title=x&parent=y'],
  ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--\r\n'],
  ['application/json; charset=utf-16', '{}'],
  ['application/json; charset=latin1', '{"title":"\u00e9"}'],
  ['application/xml', '<a/>'],
  ['application/octet-stream', '\u0000\u0001'],
  ['', '{}'],
  ['application/json, text/plain', '{}'],
];

/** A body for an operation: valid by its schema, or mutated, or malformed. */
function bodyArb(operation: OpenApiOperation): fc.Arbitrary<Body> {
  const json = (arbitrary: fc.Arbitrary<unknown>) => arbitrary.map((value): Body => ({ kind: 'json', value }));
  const raw = fc.oneof(
    fc.constantFrom(...RAW_JSON).map((text): Body => ({ kind: 'raw', text, contentType: 'application/json' })),
    fc.constantFrom(...OTHER_TYPES).map(([contentType, text]): Body => ({ kind: 'raw', text, contentType })),
  );
  const schema = operation.requestBody?.content['application/json'].schema;
  if (!schema) {
    // No body expected: usually none, sometimes one anyway.
    return fc.oneof({ weight: 12, arbitrary: fc.constant<Body>({ kind: 'none' }) }, { weight: 1, arbitrary: json(hostileJson) }, { weight: 1, arbitrary: raw });
  }
  const valid = fromSchema(schema);
  return fc.oneof(
    { weight: 10, arbitrary: json(valid) },
    ...mutationsOf(valid).map(({ weight, arbitrary }) => ({ weight, arbitrary: json(arbitrary) })),
    { weight: 1, arbitrary: json(fc.constantFrom(new Deep(100, 'object'), new Deep(100_000, 'array'))) },
    { weight: 2, arbitrary: raw },
  );
}

/** Valid values mutated once: a value anywhere replaced with one of another type (or hostile text, ~1 MB, deep nesting), a field missing, an unknown field, not an object at all. */
export function mutationsOf(valid: fc.Arbitrary<unknown>): Array<fc.WeightedArbitrary<unknown>> {
  return [
    {
      weight: 4,
      arbitrary: fc
        .tuple(valid, fc.nat(), fc.oneof({ weight: 6, arbitrary: hostileJson }, { weight: 1, arbitrary: hugeString }))
        .map(([value, pick, replacement]) => {
          const paths = pathsOf(value);
          return paths.length ? setAt(value, paths[pick % paths.length]!, replacement) : replacement;
        }),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(valid, fc.nat()).map(([value, pick]) => {
        const paths = pathsOf(value);
        return paths.length ? deleteAt(value, paths[pick % paths.length]!) : value;
      }),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(valid, fc.nat(), hostileKey, hostileJson).map(([value, pick, key, extra]) => {
        const objects = [[], ...pathsOf(value)].filter((path) => {
          let node: any = value;
          for (const part of path) node = node?.[part];
          return isPlainObject(node);
        });
        const path = objects[pick % objects.length] ?? [];
        let node: any = value;
        for (const part of path) node = node[part];
        return setAt(value, path, { ...node, [key]: extra });
      }),
    },
    {
      weight: 1,
      arbitrary: fc.oneof(
        hostileJson,
        valid.map((value) => [value]),
      ),
    },
  ];
}

/** Every request to one operation. */
export function caseArb({ method, path, operation }: Operation): fc.Arbitrary<RestCase> {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name!);
  const params = fc.oneof(
    // The fixtures' own ids, which belong together: the request reaches the operation's domain code.
    {
      weight: 3,
      arbitrary: fc.record(Object.fromEntries(names.map((name) => [name, refOf(PARAMETER_KINDS[name] ?? 'space').map((value): PathValue => ({ value }))]))),
    },
    { weight: 2, arbitrary: fc.record(Object.fromEntries(names.map((name) => [name, pathValueArb(name)]))) },
  ) as fc.Arbitrary<Record<string, PathValue>>;
  // Now and then a method the path does not take.
  const methods = fc.oneof({ weight: 30, arbitrary: fc.constant(method) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE') });
  return fc
    .tuple(methods, params, queryArb(operation), bodyArb(operation))
    .map(([sent, p, query, body]) => new RestCase(sent, path, operation.operationId, p, query, body));
}

/** Operations that take fixtures away (deletions, transfers, removals) are drawn a third as often: the others find them more often. */
export const isDestructive = (name: string) => /^(delete|remove|transfer)/i.test(name);

/** Requests to any operation. */
export function restCaseArb(document: OpenApiDocument): fc.Arbitrary<RestCase> {
  return fc.oneof(
    ...operationsOf(document).map((operation) => ({
      weight: operation.method === 'DELETE' || isDestructive(operation.operation.operationId) ? 1 : 3,
      arbitrary: caseArb(operation),
    })),
  );
}
