import { z } from 'zod';

/**
 * Zod schemas that /v1/openapi.json defines once, as `components/schemas/<id>`,
 * and references (`$ref`) wherever a request or an answer uses them. This is
 * how a recursive structure is described — a document's blocks hold blocks —
 * so that the tools reading the document (Swagger UI, Redocly, code
 * generators, fuzzers) can follow it: the conversion refuses a cycle that does
 * not pass through a registered schema (src/rest/openapi.ts), and a test
 * checks that every cycle of the document passes through one schema, its hub
 * (test/rest/openapi.test.ts). A registered id that is also the name of an
 * official schema (@gitbook/api) replaces it in our document.
 */

const components = new Map<string, z.ZodType>();
const documented = new WeakMap<z.core.$ZodType, z.ZodType>();

/** Registers `schema` as the component `id` (zod's `id` metadata) and returns it, for `export const X = openApiComponent('X', z.object(…))`. */
export function openApiComponent<T extends z.ZodType>(id: string, schema: T): T {
  const existing = components.get(id);
  if (existing && existing !== schema) throw new Error(`Two schemas are registered as the OpenAPI component ${id}`);
  components.set(id, schema);
  z.globalRegistry.add(schema, { ...z.globalRegistry.get(schema), id });
  return schema;
}

/** The registered component named `id`, if any. */
export function registeredComponent(id: string): z.ZodType | undefined {
  return components.get(id);
}

/**
 * `schema` as it is, documented as `component`: for input that zod takes as it
 * comes and another check reads node by node (a structured document, checked
 * as it is turned into Markdown, with errors naming the node): the document
 * describes it precisely without zod walking it twice.
 */
export function documentedAs<T extends z.ZodType>(schema: T, component: z.ZodType): T {
  if (!z.globalRegistry.get(component)?.id) throw new Error('documentedAs: the component must be registered with openApiComponent');
  documented.set(schema, component);
  return schema;
}

/** The component a schema is documented as (documentedAs), if any. */
export function documentedComponent(schema: z.core.$ZodType): z.ZodType | undefined {
  return documented.get(schema);
}
