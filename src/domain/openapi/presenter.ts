import type { PublicUrls } from '../../config.ts';
import type { OpenApiSpecRecord, OpenApiSpecVersionRecord } from '../../db/index.ts';
import type { Api, Wire } from '../shared/api-types.ts';

export type OpenAPISpecJSON = Wire<Api.OpenAPISpec>;
export type OpenAPISpecVersionJSON = Wire<Api.OpenAPISpecVersion>;
/** The official content (`urls`) plus the contract's `url`: both documents are satisfied. */
export type OpenAPISpecContentJSON = Wire<Api.OpenAPISpecContent> & { url: string };

export const PROCESSING_STATES = ['pending', 'progress', 'complete'] as const;
export type ProcessingState = (typeof PROCESSING_STATES)[number];
export const PROCESS_ERROR_CODES = ['FETCH_TIMEOUT', 'FETCH_ERROR', 'PARSE_ERROR'] as const;
export type ProcessErrorCode = (typeof PROCESS_ERROR_CODES)[number];

export interface SpecPermissions {
  view: boolean;
  edit: boolean;
}

/** One problem of the last processing, as the official `OpenAPIErrorObject`. */
export interface ProcessError {
  message: string;
  code?: string;
}

/** As stored: the `MORE_ERRORS` entry also keeps how many errors it stands for. */
export interface StoredProcessError extends ProcessError {
  omitted?: number;
}

const storedErrors = (spec: Pick<OpenApiSpecRecord, 'lastProcessErrors'>) =>
  Array.isArray(spec.lastProcessErrors) ? (spec.lastProcessErrors as unknown as StoredProcessError[]) : [];

type SpecKey = Pick<OpenApiSpecRecord, 'organizationId' | 'slug'>;
/** A spec as read for presenting: everything but the source text (up to 10 MB, read by the processing job only). */
export type SpecRow = Omit<OpenApiSpecRecord, 'sourceText'>;
/** A version as listed: everything but its files (read by `content` only). */
export type VersionRow = Omit<OpenApiSpecVersionRecord, 'filesystem'>;

export function specUrls(spec: SpecKey, urls: PublicUrls) {
  return {
    location: `${urls.api}/v1/orgs/${spec.organizationId}/openapi/${spec.slug}`,
    app: `${urls.app}/o/${spec.organizationId}/openapi/${spec.slug}`,
  };
}

export function versionLocation(spec: SpecKey, versionId: string, urls: PublicUrls): string {
  return `${specUrls(spec, urls).location}/versions/${versionId}`;
}

/** The errors recorded by the last processing (none after a success). */
export function processErrors(spec: Pick<OpenApiSpecRecord, 'lastProcessErrors'>): ProcessError[] {
  return storedErrors(spec).map(({ message, code }) => ({ message, ...(code ? { code } : {}) }));
}

/** How many errors the last processing found, before the list was cut to 50 (the official `lastProcessedErrorCount`). */
export function processErrorTotal(spec: Pick<OpenApiSpecRecord, 'lastProcessErrors'>): number {
  return storedErrors(spec).reduce((total, error) => total + (error.code === 'MORE_ERRORS' ? (error.omitted ?? 1) : 1), 0);
}

export function presentSpec(spec: SpecRow, permissions: SpecPermissions, urls: PublicUrls): OpenAPISpecJSON {
  const errors = processErrors(spec);
  return {
    object: 'openapi-spec',
    id: spec.id,
    createdAt: spec.createdAt.toISOString(),
    updatedAt: spec.updatedAt.toISOString(),
    slug: spec.slug,
    ...(spec.sourceURL ? { sourceURL: spec.sourceURL } : {}),
    processingState: spec.processingState as ProcessingState,
    ...(spec.lastVersionId ? { lastVersion: spec.lastVersionId } : {}),
    ...(spec.lastProcessedAt ? { lastProcessedAt: spec.lastProcessedAt.toISOString() } : {}),
    ...(spec.lastProcessErrorCode ? { lastProcessErrorCode: spec.lastProcessErrorCode as ProcessErrorCode } : {}),
    ...(errors.length ? { lastProcessedErrors: errors } : {}),
    lastProcessedErrorCount: processErrorTotal(spec),
    permissions,
    urls: specUrls(spec, urls),
  };
}

export function presentVersion(spec: SpecKey, version: VersionRow, urls: PublicUrls): OpenAPISpecVersionJSON {
  return {
    object: 'openapi-spec-version',
    id: version.id,
    createdAt: version.createdAt.toISOString(),
    url: version.url,
    urls: { location: versionLocation(spec, version.id, urls) },
  };
}

/** A version's files; `public` is null: specs are private to their organization (no visibility setting here). */
export function presentVersionContent(version: Pick<OpenApiSpecVersionRecord, 'url' | 'filesystem'>): OpenAPISpecContentJSON {
  return {
    filesystem: version.filesystem as Record<string, unknown>,
    url: version.url,
    urls: { source: version.url, public: null },
  };
}
