import {
  type OpenAPISpecContentJSON,
  PROCESSING_STATES,
  PROCESS_ERROR_CODES,
  type SpecRow,
  type VersionRow,
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
import { booleanObject, urlsObject } from './common.ts';
import { Organization } from './organization.ts';

const OpenAPISpecProcessingState = builder.enumType('OpenAPISpecProcessingState', {
  description: 'pending: waiting to be processed; progress: being processed; complete: processed (see lastProcessErrorCode)',
  values: PROCESSING_STATES,
});
const OpenAPISpecProcessingErrorCode = builder.enumType('OpenAPISpecProcessingErrorCode', { values: PROCESS_ERROR_CODES });
const OpenAPISpecPermissions = booleanObject('OpenAPISpecPermissions', ['view', 'edit'] as const);
const OpenAPISpecUrls = urlsObject('OpenAPISpecUrls', ['location', 'app']);
const OpenAPISpecVersionUrls = urlsObject('OpenAPISpecVersionUrls', ['location']);

const OpenAPIError = builder.objectRef<{ message: string; code?: string }>('OpenAPIError').implement({
  description: 'A problem found by the last processing',
  fields: (t) => ({
    message: t.exposeString('message'),
    code: t.string({ nullable: true, resolve: (error) => error.code ?? null }),
  }),
});

const OpenAPISpecContentUrls = builder.objectRef<{ source: string; public: string | null }>('OpenAPISpecContentUrls').implement({
  fields: (t) => ({
    source: t.exposeString('source'),
    public: t.string({ nullable: true, description: 'Null: specs are private to their organization', resolve: (urls) => urls.public }),
  }),
});

const OpenAPISpecContent = builder.objectRef<OpenAPISpecContentJSON>('OpenAPISpecContent').implement({
  description: 'The files of a version: path → parsed document',
  fields: (t) => ({
    filesystem: t.field({ type: 'JSON', resolve: (content) => content.filesystem }),
    url: t.exposeString('url'),
    urls: t.field({ type: OpenAPISpecContentUrls, resolve: (content) => content.urls as { source: string; public: string | null } }),
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
  description: 'An OpenAPI document of an organization, fetched from a URL or given as text, and its processed versions',
  fields: (t) => ({
    object: t.string({ resolve: () => 'openapi-spec' }),
    slug: t.exposeString('slug'),
    sourceURL: t.string({ nullable: true, resolve: (spec) => spec.sourceURL }),
    processingState: t.field({ type: OpenAPISpecProcessingState, resolve: (spec) => spec.processingState as (typeof PROCESSING_STATES)[number] }),
    lastProcessedAt: t.field({ type: 'DateTime', nullable: true, resolve: (spec) => spec.lastProcessedAt?.toISOString() ?? null }),
    lastProcessErrorCode: t.field({
      type: OpenAPISpecProcessingErrorCode,
      nullable: true,
      resolve: (spec) => spec.lastProcessErrorCode as (typeof PROCESS_ERROR_CODES)[number] | null,
    }),
    lastProcessedErrors: t.field({ type: [OpenAPIError], resolve: (spec) => processErrors(spec) }),
    lastProcessedErrorCount: t.int({ resolve: (spec) => processErrors(spec).length }),
    createdAt: t.field({ type: 'DateTime', resolve: (spec) => spec.createdAt.toISOString() }),
    updatedAt: t.field({ type: 'DateTime', resolve: (spec) => spec.updatedAt.toISOString() }),
    organization: t.field({ type: Organization, resolve: (spec) => spec.organizationId }),
    urls: t.field({ type: OpenAPISpecUrls, resolve: (spec, _args, ctx) => specUrls(spec, ctx.urls) }),
    permissions: t.field({
      type: OpenAPISpecPermissions,
      resolve: async (spec, _args, ctx) => specPermissions(await organizationAccess(ctx, spec.organizationId)),
    }),
    lastVersion: t.field({
      type: OpenAPISpecVersion,
      nullable: true,
      description: 'The version stored by the last successful processing (REST: its id in `lastVersion`)',
      resolve: (spec, _args, ctx) => lastVersionOf(ctx, spec),
    }),
    versions: t.connection({
      type: OpenAPISpecVersion,
      description: 'Versions of the spec, one per processed document, newest first',
      resolve: async (spec, args, ctx) => toConnection(await listVersionRecordsOf(ctx, spec, connectionQuery(args))),
    }),
  }),
});

OpenAPISpecVersion.implement({
  description: 'One processed document of an OpenAPI spec',
  fields: (t) => ({
    object: t.string({ resolve: () => 'openapi-spec-version' }),
    url: t.exposeString('url', { description: 'Where the document was fetched from (for a text source: its content in this API)' }),
    createdAt: t.field({ type: 'DateTime', resolve: (version) => version.createdAt.toISOString() }),
    spec: t.field({ type: OpenAPISpec, resolve: (version) => version.specId }),
    urls: t.field({
      type: OpenAPISpecVersionUrls,
      resolve: async (version, _args, ctx) => ({ location: versionLocation(await specById(ctx, version.specId), version.id, ctx.urls) }),
    }),
    content: t.field({ type: OpenAPISpecContent, resolve: (version, _args, ctx) => versionContent(ctx, version) }),
  }),
});

builder.objectField(Organization, 'openAPISpecs', (t) =>
  t.connection({
    type: OpenAPISpec,
    description: 'OpenAPI specs of the organization, by slug',
    resolve: async (org, args, ctx) => toConnection(await listSpecRecords(ctx, org.id, connectionQuery(args))),
  }),
);

const OpenAPISpecSourceInput = builder.inputType('OpenAPISpecSourceInput', {
  description: 'Exactly one of: a public http(s) URL to fetch the document from, or the document as text (JSON or YAML)',
  fields: (t) => ({ url: t.string(), text: t.string() }),
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
    description: 'Creates a spec (409 when the slug is taken); it is processed in the background',
    inputFields: (t) => ({
      organizationId: t.id({ required: true }),
      slug: t.string({ required: true }),
      source: t.field({ type: OpenAPISpecSourceInput, required: true }),
    }),
  },
  {
    resolve: async (_root, { input: { organizationId, slug, source } }, ctx) => ({
      specId: (await createSpec(ctx, organizationId, { slug, source: sourceOf(source) })).id,
    }),
  },
  specPayload,
);

builder.relayMutationField(
  'createOrUpdateOpenAPISpec',
  {
    description: 'Creates the spec with this slug, or replaces its source; either way it is processed again',
    inputFields: (t) => ({
      organizationId: t.id({ required: true }),
      slug: t.string({ required: true }),
      source: t.field({ type: OpenAPISpecSourceInput, required: true }),
    }),
  },
  {
    resolve: async (_root, { input: { organizationId, slug, source } }, ctx) => ({
      specId: (await putSpec(ctx, organizationId, slug, { source: sourceOf(source) })).id,
    }),
  },
  specPayload,
);

builder.relayMutationField(
  'deleteOpenAPISpec',
  { description: 'Deletes a spec and its versions', inputFields: (t) => ({ specId: t.id({ required: true }) }) },
  {
    resolve: async (_root, { input: { specId } }, ctx) => {
      const spec = await specById(ctx, specId);
      await deleteSpec(ctx, spec.organizationId, spec.slug);
      return { deletedOpenAPISpecId: specId };
    },
  },
  { outputFields: (t) => ({ deletedOpenAPISpecId: t.exposeID('deletedOpenAPISpecId') }) },
);
