import { createRequire } from 'node:module';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';
import { restRoutes } from '../../src/rest/plugin.ts';
import { DOCUMENT_SCHEMAS_READ_AS_MEANT } from '../../src/domain/content/model/official-schema.ts';
import { buildOpenApiDocument, relaxAttributesOneOf } from '../../src/rest/openapi.ts';

/**
 * Response validation against the official OpenAPI document of @gitbook/api for
 * every operation it has, and against our own /v1/openapi.json for the
 * operations only the contract describes, formats included (ajv-formats).
 * Every successful REST answer of `t.call` is checked (test/support/app.ts);
 * tests call it for answers that reach them otherwise (the official client).
 */

type Json = Record<string, any>;
const official = createRequire(import.meta.url)('@gitbook/api/spec/openapi.json') as Json;
const ours = buildOpenApiDocument(restRoutes, 'http://docs-gateway.test') as Json;

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
// The official document's own formats: an emoji code and an icon name; their
// rules are ours to check at input (src/domain/*/inputs.ts), any string here.
ajv.addFormat('emoji', true);
ajv.addFormat('icon', true);

function withBase(node: unknown, base: string): unknown {
  if (Array.isArray(node)) return node.map((item) => withBase(item, base));
  if (node && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [
        key,
        key === '$ref' && typeof value === 'string' && value.startsWith('#') ? `${base}${value}` : withBase(value, base),
      ]),
    );
  }
  return node;
}

// The one unsatisfiable official schema, read as meant (src/rest/openapi.ts officialChanges).
const officialComponents = structuredClone(official.components) as Json;
officialComponents.schemas.RevisionSemanticChangePageEdited = relaxAttributesOneOf(officialComponents.schemas.RevisionSemanticChangePageEdited);
for (const [name, change] of Object.entries(DOCUMENT_SCHEMAS_READ_AS_MEANT)) officialComponents.schemas[name] = change(officialComponents.schemas[name]);
ajv.addSchema({ $id: 'official', components: withBase(officialComponents, 'official') as Json });
ajv.addSchema({ $id: 'ours', components: withBase(ours.components, 'ours') as Json });

const cache = new Map<string, ValidateFunction>();

function responseSchema(document: Json, base: string, method: string, path: string, status: number) {
  const operation = document.paths?.[path]?.[method.toLowerCase()];
  if (!operation) return undefined;
  const responses = operation.responses as Json;
  const response = responses[String(status)] ?? responses['200'] ?? responses['201'];
  const schema = response?.content?.['application/json']?.schema;
  return schema ? withBase(schema, base) : undefined;
}

/**
 * Paths where the contract describes other objects than the official document
 * (the contract wins): translation settings; SAML providers, whose `ssoURL`,
 * `entityID` and `certificate` are absent until set; adaptive schemas, which
 * may have an `$id` (src/rest/openapi.ts).
 */
const CONTRACT_OVERRIDES = [
  /^\/v1\/orgs\/\{organizationId\}\/translations(\/|$)/,
  /^\/v1\/orgs\/\{organizationId\}\/saml(\/|$)/,
  /^\/v1\/orgs\/\{organizationId\}\/sites\/\{siteId\}\/adaptive-schema$/,
];

/** Which document describes this operation: 'official' when @gitbook/api has it, unless the contract overrides it. */
export function describedBy(method: string, path: string): 'official' | 'ours' {
  if (CONTRACT_OVERRIDES.some((pattern) => pattern.test(path))) return 'ours';
  return official.paths[path.replace(/^\/v1/, '')]?.[method.toLowerCase()] ? 'official' : 'ours';
}

/**
 * Asserts that a response body matches the response schema of the operation
 * (`path` in OpenAPI form, e.g. /v1/spaces/{spaceId}).
 */
export function expectMatchesSchema(method: string, path: string, status: number, body: unknown) {
  const key = `${method} ${path} ${status}`;
  let validate = cache.get(key);
  if (!validate) {
    const source = describedBy(method, path);
    const schema =
      source === 'official'
        ? responseSchema(official, 'official', method, path.replace(/^\/v1/, ''), status)
        : responseSchema(ours, 'ours', method, path, status);
    if (!schema) throw new Error(`No response schema for ${key} in the ${source} document`);
    validate = ajv.compile(schema as Json);
    cache.set(key, validate);
  }
  const valid = validate(body);
  expect(valid ? [] : validate.errors, `${key} response must match its schema`).toEqual([]);
}

/** Asserts that a value matches a component schema of our /v1/openapi.json (e.g. `JSONDocument`). */
export function expectMatchesComponent(name: string, value: unknown) {
  const key = `component ${name}`;
  let validate = cache.get(key);
  if (!validate) {
    if (!ours.components.schemas[name]) throw new Error(`No component ${name} in /v1/openapi.json`);
    validate = ajv.compile({ $ref: `ours#/components/schemas/${name}` });
    cache.set(key, validate);
  }
  const valid = validate(value);
  expect(valid ? [] : validate.errors, `${name} must match its schema`).toEqual([]);
}
