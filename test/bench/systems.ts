// How each system under test is started. Every one is a `node` process on the
// same Node version with the same polyfill, in production mode.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { BENCH_DIR, REPO_DIR, type RunningSystem, httpOk, startSystem } from './processes.ts';

const BIN = path.join(BENCH_DIR, 'node_modules', '.bin');
const graphqlPing = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{__typename}"}' };

/**
 * docs-gateway as `npm start` runs it (the bundle); `responseCacheMB: 0` measures
 * every request executed, `contentCacheMB: 0` every page tree read from the database.
 */
export function startDocsGateway(
  name: string,
  databaseUrl: string,
  options: { responseCacheMB?: number; contentCacheMB?: number } = {},
): Promise<RunningSystem> {
  return startSystem({
    name,
    args: [path.join(REPO_DIR, 'dist', 'cli', 'docs-gateway.mjs'), 'serve'],
    env: {
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      // One token at thousands of requests per second: the load generator is not a client to limit.
      RATE_LIMIT_PER_MINUTE: '0',
      ...(options.responseCacheMB === undefined ? {} : { RESPONSE_CACHE_MB: String(options.responseCacheMB) }),
      ...(options.contentCacheMB === undefined ? {} : { CONTENT_CACHE_MB: String(options.contentCacheMB) }),
    },
    ready: (url) => httpOk(`${url}/`),
  });
}

export function startFastifyConstant(): Promise<RunningSystem> {
  return startSystem({
    name: 'fastify-constant',
    args: [path.join(BENCH_DIR, 'peers', 'fastify-constant.mjs')],
    cwd: BENCH_DIR,
    ready: (url) => httpOk(`${url}/v1/spaces/x`),
  });
}

export function startFastifySqlite(sqliteFile: string): Promise<RunningSystem> {
  return startSystem({
    name: 'fastify-sqlite',
    args: [path.join(BENCH_DIR, 'peers', 'fastify-sqlite.mjs')],
    cwd: BENCH_DIR,
    env: { SQLITE_FILE: sqliteFile },
    ready: async (url) => (await fetch(`${url}/v1/spaces/x`)).status === 404,
  });
}

export function startPostGraphile(databaseUrl: string): Promise<RunningSystem> {
  return startSystem({
    name: 'postgraphile',
    args: [realBin('postgraphile'), '-P', 'postgraphile/presets/amber', '-c', databaseUrl, '-s', 'public', '--host', '127.0.0.1'],
    cwd: BENCH_DIR,
    ready: (url) => httpOk(`${url}/graphql`, graphqlPing),
    portArgument: '--port',
  });
}

/**
 * Hive Gateway serving a supergraph that GraphQL Mesh composes from
 * docs-gateway's own OpenAPI document, reduced to the operations the tree needs
 * (the full document also holds the official schemas Mesh cannot all convert).
 */
export async function startMesh(docsGateway: RunningSystem, organizationId: string): Promise<RunningSystem> {
  const meshDir = path.join(BENCH_DIR, 'peers', 'mesh');
  const dataDir = path.join(BENCH_DIR, 'data');
  const openapiFile = path.join(dataDir, 'mesh-openapi.json');
  const supergraphFile = path.join(dataDir, 'supergraph.graphql');
  const document = (await (await fetch(`${docsGateway.url}/v1/openapi.json`)).json()) as OpenApiDocument;
  fs.writeFileSync(
    openapiFile,
    JSON.stringify(reduceOpenApi(document, ['getOrganizationById', 'listSites', 'getSiteById', 'listSiteSections', 'getSpaceById', 'listPages'])),
  );
  await promisify(execFile)(process.execPath, [realBin('mesh-compose')], {
    cwd: meshDir,
    env: {
      ...process.env,
      OPENAPI_FILE: openapiFile,
      SUPERGRAPH_FILE: supergraphFile,
      DOCS_GATEWAY_URL: docsGateway.url,
      TREE_ORGANIZATION_ID: organizationId,
    },
    timeout: 120_000,
  });
  return startSystem({
    name: 'mesh',
    args: [realBin('hive-gateway'), 'supergraph', supergraphFile, '--host', '127.0.0.1'],
    cwd: meshDir,
    ready: (url) => httpOk(`${url}/graphql`, graphqlPing),
    portArgument: '--port',
  });
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, unknown> }>>;
  components?: { schemas?: Record<string, Schema> };
}

interface Schema {
  $ref?: string;
  oneOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  enum?: unknown[];
  discriminator?: { propertyName: string; mapping?: Record<string, string> };
  [key: string]: unknown;
}

/**
 * Mesh resolves a `oneOf` by its discriminator's mapping; the official document
 * names the property (`type`) but no mapping, and nested page lists name neither,
 * so Mesh cannot tell a page's type. A user would add the mapping, so we do:
 * from each alternative's single `type` value.
 */
function addDiscriminatorMappings(document: OpenApiDocument) {
  const schemas = document.components?.schemas ?? {};
  const typeValue = (schema: Schema | undefined, seen = 0): unknown => {
    if (!schema || seen > 5) return undefined;
    if (schema.$ref) return typeValue(schemas[schema.$ref.split('/').pop()!], seen + 1);
    const own = schema.properties?.type?.enum;
    if (own?.length === 1) return own[0];
    for (const part of schema.allOf ?? []) {
      const value = typeValue(part, seen + 1);
      if (value !== undefined) return value;
    }
    return undefined;
  };
  const visit = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    const schema = node as Schema;
    if (schema.oneOf?.every((option) => option.$ref) && !schema.discriminator?.mapping) {
      const values = schema.oneOf.map((option) => typeValue(option));
      if (values.every((value) => typeof value === 'string') && new Set(values).size === values.length) {
        schema.discriminator = { propertyName: 'type', mapping: Object.fromEntries(values.map((value, index) => [value, schema.oneOf![index]!.$ref!])) };
      }
    }
    for (const value of Object.values(node)) visit(value);
  };
  visit(document);
}

/** Keeps the GET operations named, with their success responses only. */
function reduceOpenApi(document: OpenApiDocument, operationIds: string[]): OpenApiDocument {
  addDiscriminatorMappings(document);
  const paths: OpenApiDocument['paths'] = {};
  for (const [route, operations] of Object.entries(document.paths)) {
    const operation = operations.get;
    if (!operation?.operationId || !operationIds.includes(operation.operationId)) continue;
    const responses = Object.fromEntries(Object.entries(operation.responses ?? {}).filter(([status]) => status.startsWith('2')));
    paths[route] = { get: { ...operation, responses } };
  }
  return { ...document, paths };
}

/** The script behind a package's bin, run with our node (not its shebang). */
function realBin(name: string): string {
  return fs.realpathSync(path.join(BIN, name));
}
