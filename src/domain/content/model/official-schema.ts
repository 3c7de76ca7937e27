import { createRequire } from 'node:module';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';

/**
 * The official `JSONDocument` schema (@gitbook/api's OpenAPI document), compiled
 * once, on first use: what a structured document given as input must be, and
 * what every document served is (the tests check it of every one).
 */

type Json = Record<string, unknown>;

const anyOfValues = (holder: { additionalProperties: Json }) => {
  const { oneOf, ...rest } = holder.additionalProperties;
  return Array.isArray(oneOf) ? { ...holder, additionalProperties: { ...rest, anyOf: oneOf } } : holder;
};

/**
 * Schemas of the official document that no value can satisfy, read as meant (the REST document
 * and the tests read them so too: src/rest/openapi.ts, test/support/contract.ts):
 * - a table record's value is `oneOf` a content reference and an image record, both of which
 *   include URL and file references (read literally, no card could link to a URL): any of them;
 * - a PlainObject's value (an integration block's props) is `oneOf` a PlainObject - which, with
 *   no `type`, any string also is - or a string: any of them;
 * - a button's data is its label and kind `allOf` a reference or an action, each branch closed
 *   (`additionalProperties: false`) against the label and kind: open.
 */
export const DOCUMENT_SCHEMAS_READ_AS_MEANT: Record<string, (schema: Json) => Json> = {
  DocumentTableRecord: (schema) => {
    const properties = schema.properties as { values: { additionalProperties: Json } };
    return { ...schema, properties: { ...properties, values: anyOfValues(properties.values) } };
  },
  PlainObject: (schema) => anyOfValues(schema as { additionalProperties: Json }),
  DocumentInlineButton: (schema) => {
    const properties = schema.properties as { data: { allOf: Json[] } };
    const allOf = properties.data.allOf.map((part) =>
      Array.isArray(part.oneOf) ? { ...part, oneOf: (part.oneOf as Json[]).map(({ additionalProperties: _, ...branch }) => branch) } : part,
    );
    return { ...schema, properties: { ...properties, data: { ...properties.data, allOf } } };
  },
};

function readAsMeant(components: Json): Json {
  const schemas = { ...(components.schemas as Record<string, Json>) };
  for (const [name, change] of Object.entries(DOCUMENT_SCHEMAS_READ_AS_MEANT)) schemas[name] = change(schemas[name]!);
  return { ...components, schemas };
}

interface Compiled {
  document: ValidateFunction;
  /** A validator per node type (`hint` -> DocumentBlockHint), and for texts. */
  byType: Map<string, ValidateFunction>;
}

let compiledSchemas: Compiled | undefined;

function compiled(): Compiled {
  if (compiledSchemas) return compiledSchemas;
  const spec = createRequire(import.meta.url)('@gitbook/api/spec/openapi.json') as { components: Json };
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
  const components = readAsMeant(spec.components);
  ajv.addSchema({ $id: 'gitbook', components });
  const byType = new Map<string, ValidateFunction>();
  for (const [name, schema] of Object.entries(components.schemas as Record<string, { properties?: { type?: { enum?: string[] } } }>)) {
    if (!/^Document(Block|Inline)/.test(name)) continue;
    const type = schema.properties?.type?.enum;
    if (type?.length === 1 && !byType.has(type[0]!)) byType.set(type[0]!, ajv.compile({ $ref: `gitbook#/components/schemas/${name}` }));
  }
  byType.set('#text', ajv.compile({ $ref: 'gitbook#/components/schemas/DocumentText' }));
  compiledSchemas = { document: ajv.compile({ $ref: 'gitbook#/components/schemas/JSONDocument' }), byType };
  return compiledSchemas;
}

const describe = (error: ErrorObject | undefined, at: string) =>
  error ? `${at}${error.instancePath || ''}: ${error.message ?? 'is not valid'}` : `${at || '/'}: is not valid`;

/**
 * Null when the document is a valid official JSONDocument, else where and why not
 * (`/nodes/2/data: must have required property 'style'`): the first node, deepest first, that its
 * own type's schema refuses - a whole-document error would only say that no alternative matched.
 */
export function officialDocumentError(document: unknown): string | null {
  const { document: validate, byType } = compiled();
  if (validate(document)) return null;
  type Visit = { node: unknown; path: string; done: boolean };
  const pending: Visit[] = [{ node: document, path: '', done: false }];
  while (pending.length) {
    const visit = pending.pop()!;
    const node = visit.node as { object?: unknown; type?: unknown; nodes?: unknown; fragments?: unknown } | null;
    if (!node || typeof node !== 'object') continue;
    if (!visit.done) {
      pending.push({ ...visit, done: true });
      for (const key of ['nodes', 'fragments'] as const) {
        const children = node[key];
        if (!Array.isArray(children)) continue;
        for (const [index, child] of children.entries()) {
          if (key !== 'fragments') {
            pending.push({ node: child, path: `${visit.path}/${key}/${index}`, done: false });
            continue;
          }
          const nodes = (child as { nodes?: unknown }).nodes;
          if (!Array.isArray(nodes)) continue;
          for (const [inner, each] of nodes.entries()) pending.push({ node: each, path: `${visit.path}/fragments/${index}/nodes/${inner}`, done: false });
        }
      }
      continue;
    }
    const check = node.object === 'text' ? byType.get('#text') : typeof node.type === 'string' ? byType.get(node.type) : undefined;
    if (check && !check(node)) return describe(deepest(check.errors), visit.path);
    if (!check && visit.path && node.object !== 'fragment') return `${visit.path}/type: must be a node type of the official document`;
  }
  return describe(deepest(validate.errors), '');
}

function deepest(errors: ErrorObject[] | null | undefined): ErrorObject | undefined {
  return (errors ?? []).reduce<ErrorObject | undefined>(
    (best, error) => (!best || error.instancePath.length > best.instancePath.length ? error : best),
    undefined,
  );
}
