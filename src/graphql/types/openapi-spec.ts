import {
  type OpenAPISpecContentJSON,
  type ProcessErrorCode,
  type ProcessingState,
  type SpecRow,
  type VersionRow,
  processErrorTotal,
  processErrors,
  specUrls,
  versionLocation,
} from '../../domain/openapi/presenter.ts';
import { organizationAccess } from '../../domain/organizations/service.ts';
import {
  createSpec,
  deleteSpec,
  lastVersionOf,
  listSpecRecords,
  listVersionRecordsOf,
  putSpec,
  specById,
  specPermissions,
  versionById,
  versionContent,
} from '../../domain/openapi/service.ts';
import { builder } from '../builder.ts';
import { connectionQuery, loadEach, toConnection } from '../connection.ts';
import { booleanObject, restEnum, urlsObject } from './common.ts';
import { Organization } from './organization.ts';

const OpenAPISpecProcessingState = restEnum<ProcessingState>(
  'OpenAPISpecProcessingState',
  'Where the processing of a spec is (REST `processingState`); every create or update queues it anew',
  {
    pending: 'Queued: waiting for the processing job',
    progress: 'The job is fetching (or reading), parsing and validating the source',
    complete: 'Done, successfully or not (see lastProcessErrorCode)',
  },
);
const OpenAPISpecProcessingErrorCode = restEnum<ProcessErrorCode>(
  'OpenAPISpecProcessingErrorCode',
  'Why a processing failed (REST `lastProcessErrorCode`); the last version is kept',
  {
    FETCH_TIMEOUT: 'The source URL did not answer, or finish answering, within the time limit (`OPENAPI_FETCH_TIMEOUT_MS`, 20 seconds by default)',
    FETCH_ERROR:
      'The source URL could not be fetched: an address that is not public, a network failure, more than 5 redirects, a body over the size limit, or an HTTP error status',
    PARSE_ERROR: 'The document is not valid JSON or YAML, not an object, or not a valid Swagger 2.0 or OpenAPI 3.0 / 3.1 definition',
  },
);
const OpenAPISpecPermissions = booleanObject('OpenAPISpecPermissions', ['view', 'edit'] as const);
const OpenAPISpecUrls = urlsObject('OpenAPISpecUrls', ['location', 'app']);
const OpenAPISpecVersionUrls = urlsObject('OpenAPISpecVersionUrls', ['location']);

const OpenAPIError = builder.objectRef<{ message: string; code?: string }>('OpenAPIError').implement({
  description: 'A problem found by a processing (REST `OpenAPIErrorObject`)',
  fields: (t) => ({
    message: t.exposeString('message', {
      description: 'What went wrong: the fetch failure, the JSON or YAML syntax error, or one error of the OpenAPI validator',
    }),
    code: t.string({
      nullable: true,
      description:
        'A code for the problem, when it has one: `HTTP_<status>` when the source URL answered an error status, `MORE_ERRORS` on the entry counting the errors left out; null otherwise',
      resolve: (error) => error.code ?? null,
    }),
  }),
});

const OpenAPISpecContentUrls = builder.objectRef<{ source: string; public: string | null }>('OpenAPISpecContentUrls').implement({
  description: 'Addresses of the document of a version (REST `urls` of the content)',
  fields: (t) => ({
    source: t.exposeString('source', {
      description: "Where the document was fetched from (for a text source: the version's content in this REST API)",
    }),
    public: t.string({
      nullable: true,
      description: 'Always null: specs are private to their organization (there is no visibility setting here)',
      resolve: (urls) => urls.public,
    }),
  }),
});

const OpenAPISpecContent = builder.objectRef<OpenAPISpecContentJSON>('OpenAPISpecContent').implement({
  description: 'The files of a version (REST `/v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content`)',
  fields: (t) => ({
    filesystem: t.expose('filesystem', {
      type: 'JSON',
      description:
        'File name → parsed document, as one JSON object with a single file: named after the source URL when it ends in .json, .yaml or .yml, else `openapi.json` or `openapi.yaml`; external `$ref`s are left as they are',
    }),
    url: t.exposeString('url', { description: "The version's `url`: where the document was fetched from (the same as `urls.source`)" }),
    urls: t.field({
      type: OpenAPISpecContentUrls,
      description: 'Where the document comes from, and its public address (none)',
      resolve: (content) => content.urls as { source: string; public: string | null },
    }),
  }),
});

/** Backed by the spec's row. */
export const OpenAPISpec = builder.loadableNodeRef<SpecRow, string>('OpenAPISpec', {
  id: { resolve: (spec) => spec.id },
  load: (ids, ctx) => loadEach(ids, (id) => specById(ctx, id)),
});

/** Backed by the version's row; the document itself is read with `content`. */
export const OpenAPISpecVersion = builder.loadableNodeRef<VersionRow, string>('OpenAPISpecVersion', {
  id: { resolve: (version) => version.id },
  load: (ids, ctx) => loadEach(ids, (id) => versionById(ctx, id)),
});

OpenAPISpec.implement({
  description:
    'An OpenAPI document of an organization, fetched from a URL or given as text, and its processed versions (REST `/v1/orgs/{organizationId}/openapi/{specSlug}`); seen by members of the organization who are not guests',
  fields: (t) => ({
    object: t.string({ description: 'Always "openapi-spec" (the REST `object`)', resolve: () => 'openapi-spec' }),
    slug: t.exposeString('slug', { description: 'Slug of the spec, unique in its organization: how REST addresses it' }),
    sourceURL: t.string({
      nullable: true,
      description: 'The URL the processing fetches the document from; null when the document was given as text',
      resolve: (spec) => spec.sourceURL,
    }),
    processingState: t.field({
      type: OpenAPISpecProcessingState,
      description: 'Where its processing is: queued, running or done',
      resolve: (spec) => spec.processingState as ProcessingState,
    }),
    lastProcessedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When its last processing ended, successfully or not; null before the first one ends',
      resolve: (spec) => spec.lastProcessedAt?.toISOString() ?? null,
    }),
    lastProcessErrorCode: t.field({
      type: OpenAPISpecProcessingErrorCode,
      nullable: true,
      description: 'Why the last processing that ended failed (kept while the next one is pending); null when it succeeded or none has ended',
      resolve: (spec) => spec.lastProcessErrorCode as ProcessErrorCode | null,
    }),
    lastProcessedErrors: t.field({
      type: [OpenAPIError],
      description:
        "The problems the last processing that ended found: at most 50 of the validator's, then one `MORE_ERRORS` entry counting the rest; empty after a success (REST leaves it out then)",
      resolve: (spec) => processErrors(spec),
    }),
    lastProcessedErrorCount: t.int({
      description: 'How many errors the last processing found, those left out of lastProcessedErrors included (REST `lastProcessedErrorCount`)',
      resolve: (spec) => processErrorTotal(spec),
    }),
    createdAt: t.field({ type: 'DateTime', description: 'When the spec was created', resolve: (spec) => spec.createdAt.toISOString() }),
    updatedAt: t.field({
      type: 'DateTime',
      description: 'When the spec last changed: its source, or the state or outcome of its processing',
      resolve: (spec) => spec.updatedAt.toISOString(),
    }),
    organization: t.field({ type: Organization, description: 'The organization it belongs to', resolve: (spec) => spec.organizationId }),
    urls: t.field({
      type: OpenAPISpecUrls,
      description: 'Its addresses in this REST API and in the web application',
      resolve: (spec, _args, ctx) => specUrls(spec, ctx.urls),
    }),
    permissions: t.field({
      type: OpenAPISpecPermissions,
      description:
        "What the caller may do with it, from the caller's organization role: view for members who are not guests, edit (update, delete) from the create role up",
      resolve: async (spec, _args, ctx) => specPermissions(await organizationAccess(ctx, spec.organizationId)),
    }),
    lastVersion: t.field({
      type: OpenAPISpecVersion,
      nullable: true,
      description:
        'Its current document: the version its last successful processing stored, or found unchanged; null before any success (REST: its id in `lastVersion`)',
      resolve: (spec, _args, ctx) => lastVersionOf(ctx, spec),
    }),
    versions: t.connection({
      type: OpenAPISpecVersion,
      description:
        'Versions of the spec, newest first: one per document a processing read that differed from the last version (REST `/v1/orgs/{organizationId}/openapi/{specSlug}/versions`)',
      resolve: async (spec, args, ctx) => toConnection(await listVersionRecordsOf(ctx, spec, connectionQuery(args))),
    }),
  }),
});

OpenAPISpecVersion.implement({
  description:
    'One processed document of an OpenAPI spec (REST `/v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}`); seen by whoever sees the spec',
  fields: (t) => ({
    object: t.string({ description: 'Always "openapi-spec-version" (the REST `object`)', resolve: () => 'openapi-spec-version' }),
    url: t.exposeString('url', { description: 'Where the document was fetched from (for a text source: its content in this API)' }),
    createdAt: t.field({
      type: 'DateTime',
      description: 'When the processing stored it',
      resolve: (version) => version.createdAt.toISOString(),
    }),
    spec: t.field({ type: OpenAPISpec, description: 'The spec it is a version of', resolve: (version) => version.specId }),
    urls: t.field({
      type: OpenAPISpecVersionUrls,
      description: 'Its address in this REST API',
      resolve: async (version, _args, ctx) => ({ location: versionLocation(await specById(ctx, version.specId), version.id, ctx.urls) }),
    }),
    content: t.field({
      type: OpenAPISpecContent,
      description: 'Its document, parsed, as REST `…/versions/{versionId}/content` serves it',
      resolve: (version, _args, ctx) => versionContent(ctx, version),
    }),
  }),
});

builder.objectField(Organization, 'openAPISpecs', (t) =>
  t.connection({
    type: OpenAPISpec,
    description:
      'OpenAPI specs of the organization, by slug (REST `/v1/orgs/{organizationId}/openapi`), for members who are not guests (a guest gets a 403 error)',
    resolve: async (org, args, ctx) => toConnection(await listSpecRecords(ctx, org.id, connectionQuery(args))),
  }),
);

const OpenAPISpecSourceInput = builder.inputType('OpenAPISpecSourceInput', {
  description: 'Where the document of a spec comes from: exactly one of a public http(s) URL to fetch it from, or the document as text (JSON or YAML)',
  fields: (t) => ({
    url: t.string({ description: 'A public http or https URL (up to 2048 characters), fetched by each processing; not with text' }),
    text: t.string({ description: 'The document itself, JSON or YAML (up to 10 MB); not with url' }),
  }),
});

const sourceOf = (source: { url?: string | null; text?: string | null }) => ({
  ...(source.url != null ? { url: source.url } : {}),
  ...(source.text != null ? { text: source.text } : {}),
});

/** A mutation's payload: the spec it acted on, read again as the viewer sees it now. */
const specPayload = {
  outputFields: (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, { specId: string }>) => ({
    openAPISpec: t.field({ type: OpenAPISpec, resolve: (payload, _args, ctx) => specById(ctx, payload.specId) }),
  }),
};

builder.relayMutationField(
  'createOpenAPISpec',
  {
    inputFields: (t) => ({
      organizationId: t.id({ required: true, description: 'The organization' }),
      slug: t.string({
        required: true,
        description:
          'Slug of the new spec, unique in the organization: lowercase letters and digits in words joined by single hyphens, up to 100 characters (e.g. "payments-api")',
      }),
      source: t.field({ type: OpenAPISpecSourceInput, required: true, description: 'Where its document comes from' }),
    }),
  },
  {
    description:
      'Creates a spec and queues its processing (REST `POST /v1/orgs/{organizationId}/openapi`), for members with at least the create role; 409 when the slug is taken; the answer usually shows it still pending',
    resolve: async (_root, { input: { organizationId, slug, source } }, ctx) => ({
      specId: (await createSpec(ctx, organizationId, { slug, source: sourceOf(source) })).id,
    }),
  },
  specPayload,
);

builder.relayMutationField(
  'createOrUpdateOpenAPISpec',
  {
    inputFields: (t) => ({
      organizationId: t.id({ required: true, description: 'The organization' }),
      slug: t.string({
        required: true,
        description: 'Slug of the spec to create or update: lowercase letters and digits in words joined by single hyphens, up to 100 characters',
      }),
      source: t.field({ type: OpenAPISpecSourceInput, required: true, description: 'Where its document comes from, replacing the current source' }),
    }),
  },
  {
    description:
      'Creates the spec with this slug, or replaces its source; either way its processing is queued again, a URL fetched anew (REST `PUT /v1/orgs/{organizationId}/openapi/{specSlug}`), for members with at least the create role',
    resolve: async (_root, { input: { organizationId, slug, source } }, ctx) => ({
      specId: (await putSpec(ctx, organizationId, slug, { source: sourceOf(source) })).id,
    }),
  },
  specPayload,
);

builder.relayMutationField(
  'deleteOpenAPISpec',
  { inputFields: (t) => ({ specId: t.id({ required: true, description: 'The spec' }) }) },
  {
    description: 'Deletes a spec and its versions (REST `DELETE /v1/orgs/{organizationId}/openapi/{specSlug}`), for members with at least the create role',
    resolve: async (_root, { input: { specId } }, ctx) => {
      const spec = await specById(ctx, specId);
      await deleteSpec(ctx, spec.organizationId, spec.slug);
      return { deletedOpenAPISpecId: specId };
    },
  },
  { outputFields: (t) => ({ deletedOpenAPISpecId: t.exposeID('deletedOpenAPISpecId', { description: 'Id of the spec deleted' }) }) },
);
