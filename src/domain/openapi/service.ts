import type { RequestContext } from '../../context.ts';
import { conflict, notFound } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { type Ordering, type Page, pageRequestOf } from '../../lib/pagination.ts';
import { parseInput } from '../../lib/validation.ts';
import { type OrganizationAccess, authorize, organizationPermissions } from '../access.ts';
import { defineRecordLoader, loader } from '../loaders.ts';
import { organizationAccess, visibleOrganization } from '../organizations/service.ts';
import { type ChildListing, countsBy, listChildren, mapPage } from '../shared/pages.ts';
import { inTransaction } from '../transaction.ts';
import { CreateOpenAPISpecInput, ListOpenAPISpecVersionsQuery, ListOpenAPISpecsQuery, PutOpenAPISpecInput, SpecSlugParam, type SpecSource } from './inputs.ts';
import {
  type OpenAPISpecContentJSON,
  type OpenAPISpecJSON,
  type OpenAPISpecVersionJSON,
  type SpecPermissions,
  type SpecRow,
  type VersionRow,
  presentSpec,
  presentVersion,
  presentVersionContent,
} from './presenter.ts';
import { fetchSettingsOf, processOpenAPISpecJob } from './processing.ts';

/**
 * OpenAPI specs of an organization, named by slug. Non-guest members see them
 * and their versions; members with `create` (the organization permission
 * `createOpenAPISpec`) create, update and delete them. Every create or update
 * queues the processing job (./processing.ts), which fetches and validates the
 * source and stores each new document as a version.
 */

/** The columns of a spec presented (not its source text: up to 10 MB each, which the processing job reads). */
const SPEC_COLUMNS = {
  id: true,
  organizationId: true,
  slug: true,
  sourceURL: true,
  processingState: true,
  lastVersionId: true,
  lastProcessedAt: true,
  lastProcessErrorCode: true,
  lastProcessErrors: true,
  createdAt: true,
  updatedAt: true,
} as const;
/** The columns of a version listed (not its files: read by `content` only). */
const VERSION_COLUMNS = { id: true, specId: true, url: true, digest: true, createdAt: true } as const;

export const specRecords = defineRecordLoader<SpecRow>((ctx, ids) => ctx.db.openApiSpec.findMany({ where: { id: { in: ids } }, select: SPEC_COLUMNS }));
export const versionRecords = defineRecordLoader<VersionRow>((ctx, ids) =>
  ctx.db.openApiSpecVersion.findMany({ where: { id: { in: ids } }, select: VERSION_COLUMNS }),
);
/** The files of versions, by version id. */
const versionFiles = defineRecordLoader((ctx, ids) =>
  ctx.db.openApiSpecVersion.findMany({ where: { id: { in: ids } }, select: { id: true, url: true, filesystem: true } }),
);

export function specPermissions(access: OrganizationAccess): SpecPermissions {
  const permissions = organizationPermissions(access);
  return { view: permissions.access, edit: permissions.createOpenAPISpec };
}

/** The caller's access to an organization whose specs it may see (a guest: 403, an outsider: 404). */
async function organizationForSpecs(ctx: RequestContext, organizationId: string): Promise<OrganizationAccess> {
  const { access } = await visibleOrganization(ctx, organizationId);
  authorize(specPermissions(access).view, "read this organization's OpenAPI specs");
  return access;
}

async function organizationForSpecWrites(ctx: RequestContext, organizationId: string): Promise<OrganizationAccess> {
  const access = await organizationForSpecs(ctx, organizationId);
  authorize(specPermissions(access).edit, 'create, update or delete OpenAPI specs in this organization');
  return access;
}

function findSpecBySlug(ctx: RequestContext, organizationId: string, slug: string): Promise<SpecRow | null> {
  return ctx.db.openApiSpec.findUnique({ where: { organizationId_slug: { organizationId, slug } }, select: SPEC_COLUMNS });
}

async function requireSpec(ctx: RequestContext, organizationId: string, slug: string): Promise<SpecRow> {
  const spec = await findSpecBySlug(ctx, organizationId, slug);
  if (!spec) throw notFound('OpenAPI spec', slug);
  loader(ctx, specRecords).prime(spec.id, spec);
  return spec;
}

export async function presentSpecRecord(ctx: RequestContext, spec: SpecRow, access?: OrganizationAccess): Promise<OpenAPISpecJSON> {
  return presentSpec(spec, specPermissions(access ?? (await organizationAccess(ctx, spec.organizationId))), ctx.urls);
}

const bySlug: Ordering<SpecRow> = {
  name: 'openapi-specs:slug',
  keys: [
    { field: 'slug', direction: 'asc', type: 'string', value: (row) => row.slug },
    { field: 'id', direction: 'asc', type: 'string', value: (row) => row.id },
  ],
};

const specsOfOrganization: ChildListing<SpecRow, null> = {
  name: 'organization-openapi-specs',
  records: specRecords,
  ordering: () => bySlug,
  parentOf: (row) => row.organizationId,
  findMany: (ctx, organizationIds, _filter, args) =>
    ctx.db.openApiSpec.findMany({ ...args, where: { AND: [{ organizationId: { in: organizationIds } }, args.where] }, select: SPEC_COLUMNS }),
  count: async (ctx, organizationIds) =>
    countsBy(
      await ctx.db.openApiSpec.groupBy({ by: ['organizationId'], where: { organizationId: { in: organizationIds } }, _count: { _all: true } }),
      'organizationId',
    ),
};

/** Newest first: the first item is the latest version. */
const newestFirst: Ordering<VersionRow> = {
  name: 'openapi-spec-versions:newest',
  keys: [
    { field: 'createdAt', direction: 'desc', type: 'date', value: (row) => row.createdAt },
    { field: 'id', direction: 'desc', type: 'string', value: (row) => row.id },
  ],
};

const versionsOfSpec: ChildListing<VersionRow, null> = {
  name: 'openapi-spec-versions',
  records: versionRecords,
  ordering: () => newestFirst,
  parentOf: (row) => row.specId,
  findMany: (ctx, specIds, _filter, args) =>
    ctx.db.openApiSpecVersion.findMany({ ...args, where: { AND: [{ specId: { in: specIds } }, args.where] }, select: VERSION_COLUMNS }),
  count: async (ctx, specIds) =>
    countsBy(await ctx.db.openApiSpecVersion.groupBy({ by: ['specId'], where: { specId: { in: specIds } }, _count: { _all: true } }), 'specId'),
};

/** Specs of an organization, by slug. */
export async function listSpecRecords(ctx: RequestContext, organizationId: string, query: unknown): Promise<Page<SpecRow>> {
  const params = parseInput(ListOpenAPISpecsQuery, query, 'query');
  await organizationForSpecs(ctx, organizationId);
  return listChildren(ctx, specsOfOrganization, organizationId, null, pageRequestOf(params));
}

export async function listSpecs(ctx: RequestContext, organizationId: string, query: unknown): Promise<Page<OpenAPISpecJSON>> {
  const page = await listSpecRecords(ctx, organizationId, query);
  const access = await organizationForSpecs(ctx, organizationId);
  return mapPage(page, (spec) => presentSpecRecord(ctx, spec, access));
}

export async function specRecord(ctx: RequestContext, organizationId: string, slug: string): Promise<SpecRow> {
  await organizationForSpecs(ctx, organizationId);
  return requireSpec(ctx, organizationId, slug);
}

export async function getSpec(ctx: RequestContext, organizationId: string, slug: string): Promise<OpenAPISpecJSON> {
  const access = await organizationForSpecs(ctx, organizationId);
  return presentSpecRecord(ctx, await requireSpec(ctx, organizationId, slug), access);
}

/** A spec by id alone (GraphQL nodes and mutations): outside the caller's organizations it does not exist. */
export async function specById(ctx: RequestContext, specId: string): Promise<SpecRow> {
  const spec = await loader(ctx, specRecords).load(specId);
  if (!spec) throw notFound('OpenAPI spec', specId);
  await organizationForSpecs(ctx, spec.organizationId);
  return spec;
}

function sourceColumns(source: SpecSource) {
  return source.url !== undefined ? { sourceURL: source.url, sourceText: null } : { sourceURL: null, sourceText: source.text! };
}

/** Queues the processing of a spec whose write has committed. */
async function queueProcessing(ctx: RequestContext, specId: string): Promise<void> {
  await ctx.jobs?.send(processOpenAPISpecJob, { specId, fetch: fetchSettingsOf(ctx) });
}

export async function createSpec(ctx: RequestContext, organizationId: string, body: unknown): Promise<OpenAPISpecJSON> {
  const input = parseInput(CreateOpenAPISpecInput, body);
  const access = await organizationForSpecWrites(ctx, organizationId);
  if (await findSpecBySlug(ctx, organizationId, input.slug)) throw conflict(`slug: an OpenAPI spec "${input.slug}" already exists in this organization`);
  const id = newId('openApiSpec');
  // A slug taken meanwhile violates the unique index: a 409 too.
  const spec = await inTransaction(ctx, { action: 'openapi_spec.create', organizationId, target: { type: 'openapi-spec', id, label: input.slug } }, (tx) =>
    tx.db.openApiSpec.create({ data: { id, organizationId, slug: input.slug, processingState: 'pending', ...sourceColumns(input.source) } }),
  );
  await queueProcessing(ctx, id);
  // As written (pending): the job may already be running.
  return presentSpecRecord(ctx, spec, access);
}

/** Creates the spec, or replaces its source; either way it is processed again (a URL is fetched anew). */
export async function putSpec(ctx: RequestContext, organizationId: string, slug: string, body: unknown): Promise<OpenAPISpecJSON> {
  const input = parseInput(PutOpenAPISpecInput, body);
  const access = await organizationForSpecWrites(ctx, organizationId);
  parseInput(SpecSlugParam, { specSlug: slug }, 'path');
  const id = newId('openApiSpec');
  const spec = await inTransaction(
    ctx,
    (written: { id: string }) => ({ action: 'openapi_spec.update', organizationId, target: { type: 'openapi-spec', id: written.id, label: slug } }),
    (tx) =>
      tx.db.openApiSpec.upsert({
        where: { organizationId_slug: { organizationId, slug } },
        create: { id, organizationId, slug, processingState: 'pending', ...sourceColumns(input.source) },
        update: { processingState: 'pending', ...sourceColumns(input.source) },
      }),
  );
  await queueProcessing(ctx, spec.id);
  // As written (pending): the job may already be running.
  return presentSpecRecord(ctx, spec, access);
}

export async function deleteSpec(ctx: RequestContext, organizationId: string, slug: string): Promise<void> {
  await organizationForSpecWrites(ctx, organizationId);
  const spec = await requireSpec(ctx, organizationId, slug);
  // Its versions go with it (foreign key cascade); a job still queued for it finds nothing.
  await inTransaction(
    ctx,
    {
      action: 'openapi_spec.delete',
      organizationId,
      target: { type: 'openapi-spec', id: spec.id, label: slug },
    },
    (tx) => tx.db.openApiSpec.deleteMany({ where: { id: spec.id } }),
  );
}

/** Versions of a spec, newest first. */
export async function listVersionRecordsOf(ctx: RequestContext, spec: SpecRow, query: unknown): Promise<Page<VersionRow>> {
  const params = parseInput(ListOpenAPISpecVersionsQuery, query, 'query');
  return listChildren(ctx, versionsOfSpec, spec.id, null, pageRequestOf(params));
}

export async function listVersions(ctx: RequestContext, organizationId: string, slug: string, query: unknown): Promise<Page<OpenAPISpecVersionJSON>> {
  const spec = await specRecord(ctx, organizationId, slug);
  const page = await listVersionRecordsOf(ctx, spec, query);
  return mapPage(page, (version) => presentVersion(spec, version, ctx.urls));
}

/** The spec's last version (what its last successful processing stored), or null before any. */
export async function lastVersionOf(ctx: RequestContext, spec: SpecRow): Promise<VersionRow | null> {
  return spec.lastVersionId ? loader(ctx, versionRecords).load(spec.lastVersionId) : null;
}

/** A version of the spec: `latest` or an id. */
async function versionOf(ctx: RequestContext, organizationId: string, slug: string, versionId: string | 'latest') {
  const spec = await specRecord(ctx, organizationId, slug);
  if (versionId === 'latest') {
    const version = await lastVersionOf(ctx, spec);
    if (!version) throw notFound('Version of OpenAPI spec', `${slug}/latest`);
    return { spec, version };
  }
  const version = await loader(ctx, versionRecords).load(versionId);
  if (!version || version.specId !== spec.id) throw notFound('Version of OpenAPI spec', versionId);
  return { spec, version };
}

export async function getVersion(ctx: RequestContext, organizationId: string, slug: string, versionId: string | 'latest'): Promise<OpenAPISpecVersionJSON> {
  const { spec, version } = await versionOf(ctx, organizationId, slug, versionId);
  return presentVersion(spec, version, ctx.urls);
}

export async function getVersionContent(
  ctx: RequestContext,
  organizationId: string,
  slug: string,
  versionId: string | 'latest',
): Promise<OpenAPISpecContentJSON> {
  const { version } = await versionOf(ctx, organizationId, slug, versionId);
  return versionContent(ctx, version);
}

/** The files of a version the caller may see. */
export async function versionContent(ctx: RequestContext, version: VersionRow): Promise<OpenAPISpecContentJSON> {
  const files = await loader(ctx, versionFiles).load(version.id);
  if (!files) throw notFound('Version of OpenAPI spec', version.id);
  return presentVersionContent(files);
}

/** A version by id alone (GraphQL nodes): through its spec, so outside the caller's organizations it does not exist. */
export async function versionById(ctx: RequestContext, versionId: string): Promise<VersionRow> {
  const version = await loader(ctx, versionRecords).load(versionId);
  if (!version) throw notFound('Version of OpenAPI spec', versionId);
  await specById(ctx, version.specId);
  return version;
}
