import http from 'node:http';
import { createRequire } from 'node:module';
import { z } from 'zod';
import type { Route } from './route.ts';

/**
 * The OpenAPI 3.1 document of our /v1, generated from the route table: request
 * parameters and bodies come from the domain's zod input schemas; responses use
 * the official component schemas (@gitbook/api) that our presenters conform to,
 * plus our own for the operations the official document does not have.
 */

type JsonSchema = Record<string, unknown>;

type OfficialSpec = { components: { schemas: Record<string, JsonSchema> } };
let officialSpecRead: OfficialSpec | undefined;
/** Read when the document is first built: several megabytes a server that is never asked for it need not hold. */
const officialSpec = (): OfficialSpec => (officialSpecRead ??= createRequire(import.meta.url)('@gitbook/api/spec/openapi.json') as OfficialSpec);

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const errorSchema: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'integer' }, message: { type: 'string' } },
    },
  },
};

/** Response shapes of operations that the official document does not describe. */
const ownSchemas: Record<string, JsonSchema> = {
  // The contract's translation settings (the official document's translations differ: the contract wins).
  TranslationSettings: {
    type: 'object',
    required: ['object', 'id', 'title', 'languages', 'createdAt', 'updatedAt', 'permissions', 'urls'],
    properties: {
      object: { type: 'string', enum: ['translation-settings'] },
      id: { type: 'string' },
      title: { type: 'string', minLength: 1, maxLength: 100 },
      languages: { type: 'array', items: { type: 'string' } },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
      permissions: { type: 'object', required: ['view', 'edit'], properties: { view: { type: 'boolean' }, edit: { type: 'boolean' } } },
      urls: { type: 'object', required: ['location'], properties: { location: { type: 'string', format: 'uri' } } },
    },
  },
  CustomField: {
    type: 'object',
    required: ['object', 'id', 'name', 'type', 'createdAt', 'updatedAt', 'urls', 'permissions'],
    properties: {
      object: { type: 'string', enum: ['custom-field'] },
      id: { type: 'string' },
      name: { type: 'string', minLength: 1, maxLength: 50, pattern: '^[a-z_\\-0-9]+$' },
      type: { type: 'string', enum: ['text', 'number', 'boolean', 'select', 'multi-select'] },
      title: { type: 'string', maxLength: 100 },
      description: { type: 'string', maxLength: 200 },
      placeholder: { type: 'string', maxLength: 100 },
      options: { type: 'array', minItems: 1, maxItems: 50, items: { type: 'string' } },
      createdAt: ref('Timestamp'),
      updatedAt: ref('Timestamp'),
      urls: { type: 'object', required: ['location'], properties: { location: { type: 'string', format: 'uri' } } },
      permissions: {
        type: 'object',
        required: ['view', 'edit'],
        properties: { view: { type: 'boolean' }, edit: { type: 'boolean' } },
      },
    },
  },
  CustomFieldValue: {
    oneOf: [{ type: 'string', maxLength: 256 }, { type: 'number' }, { type: 'boolean' }, { type: 'array', items: { type: 'string' } }],
  },
  SpaceCustomFieldValues: {
    type: 'array',
    items: {
      type: 'object',
      required: ['customField', 'value'],
      properties: { customField: ref('CustomField'), value: ref('CustomFieldValue') },
    },
  },
  OrganizationsOfEmailDomain: {
    type: 'object',
    required: ['organizations'],
    properties: { organizations: { type: 'array', items: ref('Organization') } },
  },
  PingResult: {
    type: 'object',
    properties: { docsVisitorClaims: { type: 'string', description: 'A JWT holding the claims to attach to the user' } },
  },
  MemberTeam: {
    type: 'object',
    required: ['team', 'member'],
    properties: { team: ref('OrganizationTeam'), member: ref('TeamMember') },
  },
  RevisionPages: {
    type: 'object',
    required: ['pages'],
    properties: { pages: { type: 'array', items: ref('RevisionPage') } },
  },
  ChangeRequestMergeResult: {
    type: 'object',
    required: ['revision', 'result'],
    properties: { revision: { type: 'string' }, result: { type: 'string', enum: ['merge', 'update'] } },
  },
  ChangeRequestContentResult: {
    description: 'The change request (`compat=true`, the default), or with the pages changed (`compat=false`).',
    oneOf: [ref('ChangeRequest'), ref('ChangeRequestContentUpdate')],
  },
  ImportResult: {
    type: 'object',
    required: ['revision', 'importedResources', 'totalResources'],
    properties: {
      revision: { type: 'string' },
      importedResources: { type: 'number', description: 'Pages, images and files imported' },
      totalResources: { type: 'number', description: 'Pages, images and files the import found' },
      failedResources: {
        type: 'array',
        description: 'Images and files that could not be brought (outside the site, missing, refused, too large), each with why; their links stay as they were',
        items: { type: 'object', required: ['url', 'reason'], properties: { url: { type: 'string' }, reason: { type: 'string' } } },
      },
    },
  },
  ExportUrl: {
    type: 'object',
    required: ['url'],
    properties: { url: { type: 'string', format: 'uri' } },
  },
  ContentReference: {
    type: 'object',
    required: ['kind', 'organization', 'space', 'versionContext', 'page'],
    properties: {
      kind: { type: 'string', enum: ['page'] },
      organization: { type: 'string' },
      space: { type: 'string' },
      versionContext: {
        type: 'object',
        required: ['type', 'revision'],
        properties: { type: { type: 'string', enum: ['revision'] }, revision: { type: 'string' } },
      },
      page: { type: 'string' },
    },
  },
  ContentLinks: {
    type: 'object',
    required: ['count', 'items', 'stats'],
    properties: {
      next: { type: 'object', required: ['page'], properties: { page: { type: 'string' } } },
      count: { type: 'number' },
      items: {
        type: 'array',
        items: {
          type: 'object',
          required: ['status', 'relation', 'targetReference', 'locationReferences'],
          properties: {
            status: { type: 'string', enum: ['ok', 'broken', 'in-app'] },
            relation: { type: 'string', enum: ['page', 'file', 'external'] },
            targetReference: {
              oneOf: [ref('ContentRefPage'), ref('ContentRefFile'), ref('ContentRefURL')],
            },
            locationReferences: { type: 'array', items: ref('ContentReference') },
          },
        },
      },
      stats: {
        type: 'object',
        required: ['total', 'broken'],
        properties: {
          total: { type: 'number' },
          broken: { type: 'object', required: ['total', 'changeRequest'], properties: { total: { type: 'number' }, changeRequest: { type: 'number' } } },
        },
      },
    },
  },
  SSOProviderLogins: {
    type: 'object',
    required: ['items'],
    properties: { items: { type: 'array', items: ref('OrganizationSSOProviderLogin') } },
  },
  InviteUsersResult: {
    type: 'object',
    required: ['users', 'invited', 'invites', 'alreadyMembers'],
    properties: {
      users: { type: 'array', items: { type: 'string' }, description: 'Users added by this call: none, invited users join with their invite' },
      invited: { type: 'number', description: 'Addresses invited (new invites, or unused ones reused)' },
      invites: {
        type: 'array',
        items: { allOf: [ref('InviteLinkToOrganization'), { type: 'object', required: ['email'], properties: { email: { type: 'string' } } }] },
      },
      alreadyMembers: { type: 'array', items: { type: 'string' }, description: 'Addresses skipped: their user is already a member' },
    },
  },
  JoinOrganizationResult: { type: 'object', properties: {} },
  Error: errorSchema,
};

/** Official schemas the contract differs from, changed where it does (their descriptions say how). */
const officialChanges: Record<string, (schema: JsonSchema) => JsonSchema> = {
  // The official `attributes` is oneOf three schemas that no object can tell apart (every object
  // valid for a document's attributes is valid for a group's): anyOf says what is meant.
  RevisionSemanticChangePageEdited: relaxAttributesOneOf,
  // The contract creates a provider from its label alone; an empty string is no URI.
  OrganizationSAMLProvider: (schema) => ({
    ...schema,
    description:
      'A SAML identity provider. `ssoURL`, `entityID` and `certificate` are absent until set: a provider created with its label alone is `pending` until all three are.',
    required: (schema.required as string[]).filter((name) => !['ssoURL', 'entityID', 'certificate'].includes(name)),
  }),
  // The contract lists `$id` among the fields of an adaptive schema.
  SiteAdaptiveJSONSchema: (schema) => ({
    ...schema,
    properties: { ...(schema.properties as JsonSchema), $id: { type: 'string', maxLength: 2048, description: 'The identifier of the schema, kept as given' } },
  }),
};

export function relaxAttributesOneOf(schema: JsonSchema): JsonSchema {
  const properties = schema.properties as Record<string, JsonSchema>;
  const { oneOf, ...attributes } = properties.attributes!;
  return { ...schema, properties: { ...properties, attributes: { ...attributes, anyOf: oneOf } } };
}

/** Adds `name` and every schema it references to `into`. */
function collectSchema(name: string, into: Record<string, JsonSchema>) {
  if (into[name]) return;
  const official = officialSpec().components.schemas[name];
  const schema = ownSchemas[name] ?? (official && officialChanges[name] ? officialChanges[name](official) : official);
  if (!schema) throw new Error(`No schema named ${name} for /v1/openapi.json`);
  into[name] = schema;
  const visit = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') collectSchema(value.split('/').at(-1)!, into);
        else visit(value);
      }
    }
  };
  visit(schema);
}

function inputSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return json;
}

/** GraphQL's connection arguments are accepted by REST listings too, but documented with GraphQL. */
const graphqlOnly = new Set(['first', 'after', 'last', 'before']);

/** `spaceId` → "The id of the space"; the path names say what they identify. */
function describePathParameter(name: string): string {
  const known: Record<string, string> = {
    pagePath: 'The path of the page in the content, its slugs joined by "/"',
    specSlug: 'The slug of the OpenAPI spec in its organization',
    changeRequestId: 'The id or the number of the change request',
    versionId: 'The id of the OpenAPI spec version',
  };
  if (known[name]) return known[name];
  const words = name
    .replace(/Id$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return `The id of the ${words}`;
}

function parameters(route: Route) {
  const path = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    description: describePathParameter(name!),
    schema: { type: 'string', maxLength: 200 },
  }));
  const json = route.query ? inputSchema(route.query) : {};
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  const query = Object.entries(properties)
    .filter(([name]) => !graphqlOnly.has(name))
    .map(([name, { description, ...schema }]) => {
      // The parameter's own description (zod's .describe()), else what the name means in every listing.
      const said = (description as string | undefined) ?? QUERY_DESCRIPTIONS[name];
      return { name, in: 'query', required: required.has(name), ...(said ? { description: said } : {}), schema };
    });
  const headers = (route.headers ?? []).map(({ name, description, schema }) => ({ name, in: 'header', required: false, description, schema }));
  return [...path, ...query, ...headers];
}

/** What the query parameters many listings share mean. */
const QUERY_DESCRIPTIONS: Record<string, string> = {
  page: 'A page token: the `next.page` of the previous answer',
  limit: 'How many items per page (0 to 1000; 100 by default; 0 answers only the count)',
  format: 'The format of bodies: markdown (default) or document',
  order: 'asc or desc',
  metadata: 'Whether to include the metadata of pages',
  shareKey: 'The key of an active share link, for a share-link site',
  visitorToken:
    "A visitor token, for a visitor-auth site: a JWT (HS256, expiring within 30 days) signed with the site's key or the organization's (`docsVisitorClaims` of ping); the `X-Visitor-Token` header may carry it instead",
};

const REQUEST_ID_HEADER = {
  'x-request-id': {
    description: "The request's id: the caller's `X-Request-Id` when it is a sane token, else a new UUID; on every log line of the request",
    schema: { type: 'string' },
  },
};
const RETRY_AFTER_HEADER = { 'retry-after': { description: 'Seconds to wait before trying again', schema: { type: 'integer' } } };

function responses(route: Route) {
  const error = (description: string, headers: Record<string, unknown> = {}) => ({
    description,
    headers: { ...REQUEST_ID_HEADER, ...headers },
    content: { 'application/json': { schema: ref('Error') } },
  });
  const errors = {
    400: error('Invalid input: the message names the field and the rule'),
    401: error('Missing or unknown API token'),
    403: error('The caller may see the resource but not do this'),
    404: error('No such resource, or one the caller cannot see'),
    409: error('The request conflicts with the current state'),
    ...(route.body ? { 413: error(`The body is larger than ${route.bodyLimit ? `${Math.round(route.bodyLimit / 1024 / 1024)} MiB` : '1 MiB'}`) } : {}),
    414: error('A path parameter is longer than 200 characters'),
    429: error('Too many requests from this token or address (or failed authentications): wait as Retry-After says', RETRY_AFTER_HEADER),
    431: error(`The request line (path and query) and the headers are larger than ${http.maxHeaderSize / 1024} KiB together; the connection is closed`),
    503: error('The database is unavailable or too slow to answer, the server is busy, or it is shutting down: try again shortly', RETRY_AFTER_HEADER),
  };
  if (route.status === 204 || route.status === 205 || !route.response) {
    return { [route.status]: { description: 'Done (no content)', headers: REQUEST_ID_HEADER }, ...errors };
  }
  const item = ref(route.response);
  const schema = route.list
    ? {
        type: 'object',
        required: ['count', 'items'],
        properties: {
          next: { type: 'object', required: ['page'], properties: { page: { type: 'string', description: 'The token of the next page: send it as `page`' } } },
          count: { type: 'number', description: 'How many items the whole listing has' },
          items: { type: 'array', items: item },
        },
      }
    : item;
  return { [route.status]: { description: 'OK', headers: REQUEST_ID_HEADER, content: { 'application/json': { schema } } }, ...errors };
}

export function buildOpenApiDocument(routes: Route[], serverUrl: string) {
  const schemas: Record<string, JsonSchema> = {};
  collectSchema('Error', schemas);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (route.response) collectSchema(route.response, schemas);
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = {
      operationId: route.operationId,
      summary: route.summary,
      tags: [route.tag],
      parameters: parameters(route),
      ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: inputSchema(route.body) } } } } : {}),
      responses: responses(route),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'docs-gateway REST API',
      version: '1',
      description: 'REST /v1 of docs-gateway. Listings are keyset-paginated: pass `next.page` back as `page`.',
    },
    servers: [{ url: serverUrl }],
    security: [{ bearerAuth: [] }],
    paths,
    components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } }, schemas },
  };
}
