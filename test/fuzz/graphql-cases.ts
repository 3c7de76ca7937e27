import fc from 'fast-check';
import {
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
} from 'graphql';
import type { Fixtures, Kind } from './fixtures.ts';
import type { JsonSchema, OpenApiDocument } from './openapi-document.ts';
import { CUSTOM_FIELD_NAMES, HINT_KINDS, fromSchema, mutationsOf, operationsOf } from './rest-cases.ts';
import { Deep, Huge, KINDS, hostileJson, hostileString, jsonText, oddNumbers, refOf } from './values.ts';

/**
 * GraphQL mutations generated from the schema itself (as
 * test/graphql/generated-bombs.test.ts walks it for queries): for every field
 * of Mutation, variables drawn from its argument types — input objects with
 * required fields missing and unknown ones added, wrong scalar types, NUL and
 * lone surrogates, huge lists, unknown enum values, ids of the fixtures, of
 * another kind, of another organization or made up. Where REST takes the same
 * field (`changes`, `visibility`, `jsonSchema`…), its JSON schema from
 * /v1/openapi.json gives the shape of valid values.
 */

/** One generated mutation request. */
export class GraphQLCase {
  constructor(
    readonly field: string,
    readonly query: string,
    readonly variables: unknown,
  ) {}
  [fc.toStringMethod]() {
    const text = fc.stringify(this.variables);
    return `mutation ${this.field} variables=${text.length > 800 ? `${text.slice(0, 800)}… (${text.length} characters)` : text}`;
  }
}

export function graphqlBody(request: GraphQLCase, fixtures: Fixtures): string {
  return `{"query":${JSON.stringify(request.query)},"variables":${request.variables === undefined ? 'null' : jsonText(request.variables, fixtures)}}`;
}

/** Id kinds of GraphQL input fields, by name (REST's names otherwise). */
const ID_KINDS: Record<string, Kind> = {
  ...HINT_KINDS,
  organizationId: 'organization',
  siteId: 'site',
  sectionGroupId: 'siteSectionGroup',
  siteSpaceId: 'siteSpace',
  shareLinkId: 'shareLink',
  collectionId: 'collection',
  changeRequestId: 'changeRequest',
  userId: 'user',
  defaultSiteSection: 'siteSection',
  after: 'siteSection',
  before: 'siteSection',
};

/** The JSON schema of each body property of /v1, by name: what GraphQL's fields of the same name take. */
function restPropertySchemas(document: OpenApiDocument): Map<string, JsonSchema> {
  const found = new Map<string, JsonSchema>();
  const visit = (schema: JsonSchema | undefined) => {
    if (!schema || typeof schema !== 'object') return;
    for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)) {
      if (!found.has(name) && !property.not) found.set(name, property);
      visit(property);
    }
    for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) visit(branch);
    if (schema.items) visit(schema.items);
  };
  for (const { operation } of operationsOf(document)) visit(operation.requestBody?.content['application/json'].schema);
  return found;
}

const isoDates = fc.oneof(
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  fc.constantFrom(
    'not a date',
    '',
    '2024-02-30T00:00:00Z',
    '+275760-09-13T00:00:00.000Z',
    '-271821-04-20T00:00:00.000Z',
    '0000-01-01',
    '2024-01-01T00:00:00.000\u0000Z',
  ),
);

export function graphqlCaseArbs(schema: GraphQLSchema, document: OpenApiDocument): Array<{ field: string; arbitrary: fc.Arbitrary<GraphQLCase> }> {
  const restSchemas = restPropertySchemas(document);

  /** Values of a type, valid but for a few type-aware oddities (unknown enum values, huge lists, wrong ids), for a field named `name`. */
  function inputArb(type: GraphQLInputType, name: string, depth: number, rest: JsonSchema | undefined): fc.Arbitrary<unknown> {
    if (isNonNullType(type)) return namedInputArb(type.ofType, name, depth, rest);
    return fc.oneof({ weight: 12, arbitrary: namedInputArb(type, name, depth, rest) }, { weight: 1, arbitrary: fc.constant(null) });
  }

  function namedInputArb(type: GraphQLInputType, name: string, depth: number, rest: JsonSchema | undefined): fc.Arbitrary<unknown> {
    if (isListType(type)) {
      const item = inputArb(type.ofType, name, depth + 1, rest?.items);
      return fc.oneof(
        { weight: 16, arbitrary: fc.array(item, { maxLength: 3 }) },
        // A list of thousands.
        {
          weight: 1,
          arbitrary: fc
            .array(item, { minLength: 1, maxLength: 2 })
            .map((items) => Array.from({ length: 3000 }, (_, index) => (isLight(items[index % items.length]) ? items[index % items.length] : 'x'))),
        },
        // A single value where a list is expected (GraphQL coerces it).
        { weight: 1, arbitrary: item },
      );
    }
    if (isInputObjectType(type)) {
      if (depth > 4) return fc.constant({});
      const fields = Object.values(type.getFields());
      return fc.record(Object.fromEntries(fields.map((field) => [field.name, inputArb(field.type, field.name, depth + 1, restSchemas.get(field.name))])), {
        requiredKeys: fields.filter((field) => isNonNullType(field.type) && field.defaultValue === undefined).map((field) => field.name),
      });
    }
    if (isEnumType(type)) {
      const values = type.getValues().map((value) => value.name);
      return fc.oneof(
        { weight: 24, arbitrary: fc.constantFrom(...values) },
        { weight: 1, arbitrary: fc.constantFrom('NOPE', '', values[0]!.toLowerCase(), `${values[0]}\u0000`, `${values[0]} `) },
      );
    }
    if (!isScalarType(type)) return hostileJson;
    switch (type.name) {
      case 'ID': {
        const kind = ID_KINDS[name];
        return fc.oneof(
          { weight: 24, arbitrary: kind ? refOf(kind) : fc.constantFrom(...KINDS).chain((k) => refOf(k)) },
          { weight: 1, arbitrary: fc.constantFrom(...KINDS).chain((k) => refOf(k)) },
          { weight: 1, arbitrary: kind ? refOf(kind, 'foreign') : hostileString },
          { weight: 1, arbitrary: hostileString },
          { weight: 1, arbitrary: fc.oneof(fc.integer(), oddNumbers) },
        );
      }
      case 'String': {
        // Custom fields are named by their names: the fixtures'.
        const custom = name === 'name' ? [{ weight: 8, arbitrary: fc.constantFrom(...CUSTOM_FIELD_NAMES) }] : [];
        return fc.oneof({ weight: 12, arbitrary: rest ? fromSchema(rest, name) : fc.string({ maxLength: 30 }) }, ...custom, {
          weight: 1,
          arbitrary: hostileString,
        });
      }
      case 'Int':
        return fc.oneof({ weight: 8, arbitrary: fc.integer({ min: -10, max: 2000 }) }, { weight: 1, arbitrary: oddNumbers });
      case 'Float':
        return fc.oneof({ weight: 8, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) }, { weight: 1, arbitrary: oddNumbers });
      case 'Boolean':
        return fc.oneof({ weight: 12, arbitrary: fc.boolean() }, { weight: 1, arbitrary: fc.constantFrom('true', 0, 1) });
      case 'DateTime':
        return isoDates;
      case 'JSON':
        return fc.oneof(
          { weight: 12, arbitrary: rest ? fromSchema(rest, name) : fc.jsonValue({ maxDepth: 3 }) },
          { weight: 1, arbitrary: fc.constantFrom(new Deep(65, 'object'), new Deep(10_000, 'array')) },
        );
      default:
        return fc.oneof(fc.string(), hostileJson);
    }
  }

  const mutation = schema.getMutationType();
  if (!mutation) return [];
  return Object.values(mutation.getFields()).map((field) => {
    const definitions = field.args.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
    const argumentsText = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
    const query = `mutation${definitions ? `(${definitions})` : ''} { ${field.name}${argumentsText ? `(${argumentsText})` : ''} ${selectionOf(getNamedType(field.type) as GraphQLObjectType, 0)} }`;
    const variables = fc.record(Object.fromEntries(field.args.map((arg) => [arg.name, inputArb(arg.type, arg.name, 0, restSchemas.get(arg.name))])), {
      requiredKeys: [],
    });
    const arbitrary = fc
      .oneof(
        { weight: 12, arbitrary: variables },
        // Mutated once: a value of another type, ~1 MB, nested deep; a field missing; an unknown field.
        ...mutationsOf(variables).slice(0, 3),
        // Variables that are not an object at all.
        { weight: 1, arbitrary: fc.oneof(fc.constantFrom<unknown>(undefined, [], 'x', 1), hostileJson) },
      )
      .map((value) => new GraphQLCase(field.name, query, value));
    return { field: field.name, arbitrary };
  });
}

/** Small enough to repeat thousands of times: no huge or deep placeholder, a short text. */
function isLight(value: unknown): boolean {
  let light = true;
  JSON.stringify(value, (_key, item) => {
    if (item instanceof Huge || item instanceof Deep) light = false;
    return item;
  });
  return light && (JSON.stringify(value)?.length ?? 0) < 500;
}

const isConnection = (type: GraphQLObjectType) => type.name.endsWith('Connection');
const selectable = (field: GraphQLField<unknown, unknown>) => field.args.every((arg) => !isNonNullType(arg.type));

/** Every leaf of the payload, and the leaves of the objects it holds (not connections). */
function selectionOf(type: GraphQLObjectType, depth: number): string {
  const parts: string[] = [];
  for (const field of Object.values(type.getFields())) {
    if (!selectable(field)) continue;
    const named = getNamedType(field.type);
    if (isLeafType(named)) parts.push(field.name);
    else if (isObjectType(named) && !isConnection(named) && depth < 1) parts.push(`${field.name} ${selectionOf(named, depth + 1)}`);
  }
  return `{ __typename ${parts.join(' ')} }`;
}
