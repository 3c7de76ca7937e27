import { http } from '../lib/node-http.ts';
import { createRequire } from 'node:module';
import { z } from 'zod';
import { GIT_HOOK_OPERATION } from './git-hooks.ts';
import { documentedComponent, registeredComponent } from '../lib/openapi-components.ts';
import type { Route } from './route.ts';
import { WEBHOOK_EVENTS } from '../domain/webhooks/events.ts';
import { DOCUMENT_SCHEMAS_READ_AS_MEANT } from '../domain/content/model/official-schema.ts';

/**
 * The OpenAPI 3.1 document of our /v1, generated from the route table: request
 * parameters and bodies come from the domain's zod input schemas; responses use
 * the official component schemas (@gitbook/api) that our presenters conform to,
 * plus our own for the operations the official document does not have, and the
 * zod schemas registered as components (src/lib/openapi-components.ts), which
 * replace official schemas of the same name (the structured document's).
 * What every operation shares - its error answers, their headers - is defined
 * once in components and referenced, so that the document stays small enough
 * for the tools that read it (Swagger UI resolves each operation it opens).
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
  // The official listTeamPermissionsIn* answers describe their items inline; this is that item.
  TeamContentPermission: {
    type: 'object',
    required: ['permission', 'team'],
    properties: { permission: { $ref: '#/components/schemas/MemberRole' }, team: { $ref: '#/components/schemas/OrganizationTeam' } },
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
  ChangeRequestReviewersRequested: {
    type: 'object',
    required: ['users'],
    properties: { users: { type: 'array', description: 'The review requests made', items: ref('ChangeRequestRequestedReviewer') } },
  },
  AuditEventActions: {
    type: 'object',
    required: ['items'],
    properties: { items: { type: 'array', items: ref('AuditEventAction') } },
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
  SiteRedirectWithTarget: {
    type: 'object',
    required: ['redirect', 'target'],
    properties: { redirect: { $ref: '#/components/schemas/SiteRedirect' }, target: { type: 'string', description: 'URL of the destination of the redirect' } },
  },
  SiteRedirectBulkResults: {
    type: 'object',
    required: ['results'],
    properties: {
      results: {
        type: 'array',
        items: {
          type: 'object',
          required: ['status', 'source', 'draft'],
          properties: {
            status: { type: 'string', enum: ['created', 'updated', 'deleted', 'published', 'error'] },
            source: { $ref: '#/components/schemas/SiteRedirectSourcePath' },
            draft: { type: 'boolean' },
            id: { type: 'string', description: 'The redirect (all but error)' },
            error: { type: 'string', description: 'Why the entry did nothing (error)' },
          },
        },
      },
    },
  },
  GitBinding: {
    type: 'object',
    description:
      "docs-gateway's own: a space bound to a Git repository's branch. Merges into the space are pushed as commits, pushes to the branch become revisions; its credentials are kept encrypted and never answered.",
    required: [
      'object',
      'id',
      'spaceId',
      'url',
      'branch',
      'projectDirectory',
      'hasCredentials',
      'initialSync',
      'hookUrl',
      'status',
      'createdAt',
      'updatedAt',
      'urls',
    ],
    properties: {
      object: { type: 'string', enum: ['git-binding'] },
      id: { type: 'string' },
      spaceId: { type: 'string' },
      url: { type: 'string', format: 'uri', description: 'The repository, without credentials' },
      branch: { type: 'string' },
      projectDirectory: { type: 'string', description: 'Where the content lives in the repository ("" for its root)' },
      hasCredentials: { type: 'boolean', description: 'Whether credentials are kept (they are never answered)' },
      initialSync: { type: 'string', enum: ['space', 'repository'], description: 'Which side won the first sync' },
      hookUrl: { type: 'string', format: 'uri', description: 'Where the repository host sends push webhooks (GitHub, GitLab or Gitea signatures)' },
      hookSecret: { type: 'string', description: "The push webhook's secret: only in the answer that made the binding" },
      status: {
        type: 'object',
        required: ['state'],
        properties: {
          state: {
            type: 'string',
            enum: ['idle', 'running', 'synced', 'failed', 'conflict'],
            description: 'conflict: a push conflicts with edits of the space and waits in the change request conflictChangeRequestId',
          },
          lastCommit: { type: 'string', description: 'The commit the space and the branch were last the same at' },
          lastSyncAt: ref('Timestamp'),
          lastError: { type: 'string', description: 'Why the last sync failed (never the credentials)' },
          conflictChangeRequestId: { type: 'string' },
        },
      },
      createdAt: ref('Timestamp'),
      updatedAt: ref('Timestamp'),
      urls: { type: 'object', required: ['location'], properties: { location: { type: 'string', format: 'uri' } } },
    },
  },
  Webhook: {
    type: 'object',
    description: "docs-gateway's own: an organization's subscription to its events, delivered as Standard Webhooks (signed HTTP POSTs).",
    required: ['object', 'id', 'url', 'events', 'active', 'createdBy', 'createdAt', 'updatedAt', 'urls'],
    properties: {
      object: { type: 'string', enum: ['webhook'] },
      id: { type: 'string' },
      url: { type: 'string', format: 'uri', description: 'Where deliveries are POSTed (http or https)' },
      events: { type: 'array', uniqueItems: true, minItems: 1, items: { type: 'string', enum: [...WEBHOOK_EVENTS] } },
      active: { type: 'boolean', description: 'false: nothing is delivered (disabled by an admin, or by the server after a 410 or a day of failures)' },
      disabledReason: { type: 'string', description: 'Why the server disabled it; absent while active or when an admin did' },
      createdBy: { type: 'string', description: 'Id of the admin who made it: deliveries carry only what this user may read' },
      createdAt: ref('Timestamp'),
      updatedAt: ref('Timestamp'),
      previousSecretExpiresAt: { allOf: [ref('Timestamp')], description: 'Until when the secret before the last rotation still signs' },
      secret: {
        type: 'string',
        pattern: '^whsec_[A-Za-z0-9+/=]+$',
        description: 'The signing secret (`whsec_` and base64): only in the answers of creation and rotation',
      },
      urls: {
        type: 'object',
        required: ['location', 'deliveries'],
        properties: { location: { type: 'string', format: 'uri' }, deliveries: { type: 'string', format: 'uri' } },
      },
    },
  },
  WebhookDelivery: {
    type: 'object',
    description: 'One event for one webhook, and its log of attempts.',
    required: ['object', 'id', 'messageId', 'event', 'status', 'attempts', 'createdAt', 'updatedAt', 'payload', 'log'],
    properties: {
      object: { type: 'string', enum: ['webhook-delivery'] },
      id: { type: 'string' },
      messageId: { type: 'string', description: 'The `webhook-id` header: the same for a redelivery of the same event' },
      event: { type: 'string', enum: [...WEBHOOK_EVENTS] },
      status: {
        type: 'string',
        enum: ['pending', 'succeeded', 'failed', 'skipped'],
        description:
          "pending: an attempt is due at nextAttemptAt; failed: no attempt left, or the webhook disabled; skipped: its owner may not read the event's space",
      },
      attempts: { type: 'number', description: 'Attempts made so far' },
      nextAttemptAt: ref('Timestamp'),
      lastResponseCode: { type: 'number' },
      lastDurationMs: { type: 'number' },
      lastError: { type: 'string' },
      createdAt: ref('Timestamp'),
      updatedAt: ref('Timestamp'),
      payload: {
        type: 'object',
        required: ['type', 'timestamp', 'data'],
        properties: {
          type: { type: 'string', enum: [...WEBHOOK_EVENTS] },
          timestamp: ref('Timestamp'),
          data: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
      log: {
        type: 'array',
        items: {
          type: 'object',
          required: ['attempt', 'status', 'durationMs', 'at'],
          properties: {
            attempt: { type: 'number' },
            status: { type: 'string', enum: ['succeeded', 'failed'] },
            responseCode: { type: 'number' },
            durationMs: { type: 'number' },
            error: { type: 'string' },
            at: ref('Timestamp'),
          },
        },
      },
    },
  },
  SitePublishingPreview: {
    type: 'object',
    required: ['url'],
    properties: { url: { type: 'string', format: 'uri', description: 'The address that previews the site for an hour (a preview token in its query)' } },
  },
  Error: errorSchema,
};

/** Official schemas the contract differs from, changed where it does (their descriptions say how). */
const officialChanges: Record<string, (schema: JsonSchema) => JsonSchema> = {
  // Document schemas no value satisfies as written (src/domain/content/model/official-schema.ts).
  ...(DOCUMENT_SCHEMAS_READ_AS_MEANT as Record<string, (schema: JsonSchema) => JsonSchema>),
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

/** Adds `name` and every schema it references to `into`: a registered zod component, one of ours, or an official one. */
function collectSchema(name: string, into: Record<string, JsonSchema>) {
  if (into[name]) return;
  const component = registeredComponent(name);
  if (component) {
    jsonSchemaOf(component, into);
    return;
  }
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

const componentRef = (id: string) => `#/components/schemas/${id}`;

/**
 * A zod input schema as the document's JSON Schema: the registered components it uses (zod's `id`
 * metadata, which it defines in `$defs`) are added to `into` and referenced there, and a schema
 * documentedAs a component references it. A cycle must pass through a registered component: zod
 * would otherwise define it inside the schema, where no reference of the document reaches.
 */
function jsonSchemaOf(schema: z.ZodType, into: Record<string, JsonSchema>): JsonSchema {
  const documented = new Set<z.ZodType>();
  const converted = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const component = documentedComponent(zodSchema);
      if (!component) return;
      for (const key of Object.keys(jsonSchema)) delete (jsonSchema as JsonSchema)[key];
      (jsonSchema as JsonSchema).$ref = componentRef(z.globalRegistry.get(component)!.id as string);
      documented.add(component);
    },
  }) as JsonSchema;
  const { $schema: _, $defs, ...json } = converted;
  for (const [id, definition] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
    if (!registeredComponent(id)) {
      throw new Error(`${id} is defined inside a request schema: register the schema a cycle passes through with openApiComponent`);
    }
    const referenced = withComponentRefs(definition);
    if (into[id] && JSON.stringify(into[id]) !== JSON.stringify(referenced)) throw new Error(`Two definitions of the component ${id}`);
    into[id] = referenced;
  }
  for (const component of documented) collectSchema(z.globalRegistry.get(component)!.id as string, into);
  return withComponentRefs(json);
}

/** zod's references to its `$defs` as references to the document's components (no other reference is made). */
function withComponentRefs(node: JsonSchema): JsonSchema {
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit);
    if (!value || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => {
        if (key !== '$ref' || typeof inner !== 'string') return [key, visit(inner)];
        if (inner.startsWith(componentRef(''))) return [key, inner];
        const defined = /^#\/\$defs\/([\w.-]+)$/.exec(inner);
        if (!defined) throw new Error(`A request schema refers to ${inner}: register the recursive schema with openApiComponent`);
        return [key, componentRef(defined[1]!)];
      }),
    );
  };
  return visit(node) as JsonSchema;
}

/** GraphQL's connection arguments are accepted by REST listings too, but documented with GraphQL. */
const graphqlOnly = new Set(['first', 'after', 'last', 'before']);

/** `spaceId` -> "The id of the space"; the path names say what they identify. */
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

function parameters(route: Route, schemas: Record<string, JsonSchema>) {
  const path = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    description: describePathParameter(name!),
    schema: { type: 'string', maxLength: 200 },
  }));
  const json = route.query ? jsonSchemaOf(route.query, schemas) : {};
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

/** Headers of the answers, defined once in components. */
const HEADERS = {
  'X-Request-Id': {
    description: "The request's id: the caller's `X-Request-Id` when it is a sane token, else a new UUID; on every log line of the request",
    schema: { type: 'string' },
  },
  'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' } },
};
const headerRef = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });
const REQUEST_ID_HEADER = { 'x-request-id': headerRef('X-Request-Id') };
const RETRY_AFTER_HEADER = { 'retry-after': headerRef('Retry-After') };

/** An error answer, in the one error shape. */
const errorResponse = (description: string, headers: Record<string, unknown> = {}) => ({
  description,
  headers: { ...REQUEST_ID_HEADER, ...headers },
  content: { 'application/json': { schema: ref('Error') } },
});

/** The error answers every operation may give, by status: defined once in components, referenced by each operation. */
const ERROR_RESPONSES: Record<number, [name: string, response: ReturnType<typeof errorResponse>]> = {
  400: ['BadRequest', errorResponse('Invalid input: the message names the field and the rule')],
  401: ['Unauthorized', errorResponse('Missing or unknown API token')],
  403: ['Forbidden', errorResponse('The caller may see the resource but not do this')],
  404: ['NotFound', errorResponse('No such resource, or one the caller cannot see')],
  409: ['Conflict', errorResponse('The request conflicts with the current state')],
  414: ['UriTooLong', errorResponse('A path parameter is longer than 200 characters')],
  429: [
    'TooManyRequests',
    errorResponse('Too many requests from this token or address (or failed authentications): wait as Retry-After says', RETRY_AFTER_HEADER),
  ],
  431: [
    'RequestHeaderFieldsTooLarge',
    errorResponse(`The request line (path and query) and the headers are larger than ${http.maxHeaderSize / 1024} KiB together; the connection is closed`),
  ],
  503: [
    'ServiceUnavailable',
    errorResponse('The database is unavailable or too slow to answer, the server is busy, or it is shutting down: try again shortly', RETRY_AFTER_HEADER),
  ],
};

/** The 413 of a body limit, named by its size (one per limit the routes have). */
function contentTooLarge(route: Route): [string, ReturnType<typeof errorResponse>] {
  const mebibytes = Math.round((route.bodyLimit ?? 1024 * 1024) / 1024 / 1024);
  return [`ContentTooLarge${mebibytes}MiB`, errorResponse(`The body is larger than ${mebibytes} MiB`)];
}

function responses(route: Route, shared: Record<string, unknown>) {
  const errors: Record<string, { $ref: string }> = {};
  const statuses = Object.entries(ERROR_RESPONSES).map(([status, named]) => [Number(status), named] as const);
  if (route.body) statuses.push([413, contentTooLarge(route)]);
  for (const [status, [name, response]] of statuses.sort(([a], [b]) => a - b)) {
    shared[name] ??= response;
    errors[status] = { $ref: `#/components/responses/${name}` };
  }
  if (route.status === 204 || route.status === 205 || !route.response) {
    const absent = route.noContentWhenAbsent ? { 204: { description: 'There was nothing to remove', headers: REQUEST_ID_HEADER } } : {};
    return { ...absent, [route.status]: { description: 'Done (no content)', headers: REQUEST_ID_HEADER }, ...errors };
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

/** Called by others than API clients (a Git host), so not routes of the table, and documented all the same. */
export const OUTSIDE_ROUTE_TABLE = [GIT_HOOK_OPERATION];

const builtDocuments = new WeakMap<Route[], Map<string, ReturnType<typeof buildOpenApiDocument>>>();

/**
 * The document of a route table at an address, built once per process (a few hundred milliseconds):
 * `/v1/openapi.json` and the demo's spec, which the first start seeds from it, share it. Not to be modified.
 */
export function openApiDocumentOf(routes: Route[], serverUrl: string): ReturnType<typeof buildOpenApiDocument> {
  let byUrl = builtDocuments.get(routes);
  if (!byUrl) builtDocuments.set(routes, (byUrl = new Map()));
  let document = byUrl.get(serverUrl);
  if (!document) byUrl.set(serverUrl, (document = buildOpenApiDocument(routes, serverUrl)));
  return document;
}

export function buildOpenApiDocument(routes: Route[], serverUrl: string) {
  const schemas: Record<string, JsonSchema> = {};
  const sharedResponses: Record<string, unknown> = {};
  collectSchema('Error', schemas);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (route.response) collectSchema(route.response, schemas);
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = {
      operationId: route.operationId,
      summary: route.summary,
      tags: [route.tag],
      parameters: parameters(route, schemas),
      ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchemaOf(route.body, schemas) } } } } : {}),
      responses: responses(route, sharedResponses),
    };
  }
  for (const { path, method, operation } of OUTSIDE_ROUTE_TABLE) paths[path] = { ...paths[path], [method]: operation };
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
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
      schemas,
      responses: Object.fromEntries(Object.entries(sharedResponses).sort(([a], [b]) => a.localeCompare(b))),
      headers: HEADERS,
    },
  };
}
