import { createHash } from 'node:crypto';
import { emitEvent } from '../events/emit.ts';
import { parse as parseYaml } from 'yaml';
import { type RequestContext, withDb } from '../../context.ts';
import { type Db, Prisma, type OpenApiSpecRecord } from '../../db/index.ts';
import type { JobKind } from '../../context.ts';
import { newId } from '../../lib/ids.ts';
import { FetchRefused, fetchBounded } from '../../lib/safe-fetch.ts';
import { runTask } from '../../workers/pool.ts';
import { serializeOn } from '../transaction.ts';
import type { ProcessErrorCode, StoredProcessError } from './presenter.ts';
import { versionLocation } from './presenter.ts';

/**
 * Processing an OpenAPI spec, as a background job queued by every create and
 * update (src/jobs/): fetch the source URL (address-checked and bounded, like
 * website imports) or take the text, parse it as JSON or YAML, validate it as
 * Swagger 2.0 / OpenAPI 3.0 / 3.1 with @readme/openapi-parser (external `$ref`s
 * are not resolved: nothing but the source is fetched), and store the document
 * as a new version when it differs from the last one.
 *
 * States are the official ones: `pending` (queued), `progress` (running),
 * `complete` (done, with or without an error). A failure records
 * `lastProcessErrorCode` (FETCH_TIMEOUT, FETCH_ERROR, PARSE_ERROR) and the
 * parser's errors and keeps `lastVersion`: a source that cannot be fetched or
 * parsed never loses the previous version. Such failures are final for this
 * source (updating the spec processes it again); only unexpected errors (the
 * database) throw, so the queue retries them.
 */

export const DEFAULT_OPENAPI_FETCH = { timeoutMs: 20_000, maxBytes: 10 * 1024 * 1024 };
/** At most this many parser errors are kept on the spec. */
const MAX_ERRORS = 50;

/** How a source is fetched: the bounds and address rule of the server that queued the job. */
export interface SpecFetchSettings {
  timeoutMs: number;
  maxBytes: number;
  allowPrivate: boolean;
}

export interface ProcessSpecData {
  specId: string;
  /**
   * Decided where the job is queued, so that whichever instance runs it
   * fetches as the queuing one was configured to; the runner's own settings
   * when absent.
   */
  fetch?: SpecFetchSettings;
}

export function fetchSettingsOf(ctx: RequestContext): SpecFetchSettings {
  return { ...(ctx.openApiFetch ?? DEFAULT_OPENAPI_FETCH), allowPrivate: ctx.fetchPrivateAddresses === true };
}

export const processOpenAPISpecJob: JobKind<ProcessSpecData> = {
  name: 'process-openapi-spec',
  retryLimit: 3,
  timeoutSeconds: 300,
  run: (ctx, data) => processOpenAPISpec(ctx, data.specId, data.fetch),
};

/** A spec still pending or in progress this long after its last write has lost its job (a restart, a failed send). */
export const STALE_PROCESSING_MS = 10 * 60 * 1000;

/**
 * Periodic (src/jobs/background.ts): processes the specs whose job was lost —
 * on SQLite queued jobs do not survive a restart, and a job may fail to be
 * queued after its write committed — a few at a time, oldest first.
 */
export const resumeOpenAPISpecsJob: JobKind = {
  name: 'resume-openapi-specs',
  retryLimit: 1,
  timeoutSeconds: 600,
  run: async (ctx) => {
    const stale = await ctx.db.openApiSpec.findMany({
      where: { processingState: { in: ['pending', 'progress'] }, updatedAt: { lt: new Date(ctx.clock.now().getTime() - STALE_PROCESSING_MS) } },
      orderBy: { updatedAt: 'asc' },
      take: 20,
      select: { id: true },
    });
    for (const spec of stale) await processOpenAPISpec(ctx, spec.id);
    return { resumed: stale.length };
  },
  idle: (output) => output.resumed === 0,
};

class ProcessFailure extends Error {
  constructor(
    readonly code: ProcessErrorCode,
    readonly errors: StoredProcessError[],
  ) {
    super(errors[0]?.message ?? code);
  }
}

type Source = Pick<OpenApiSpecRecord, 'sourceURL' | 'sourceText'>;
const sameSource = (a: Source, b: Source) => a.sourceURL === b.sourceURL && a.sourceText === b.sourceText;

/** Processes the spec's current source; what the job's log line shows. */
export async function processOpenAPISpec(ctx: RequestContext, specId: string, fetch = fetchSettingsOf(ctx)): Promise<Record<string, unknown>> {
  const spec = await ctx.db.openApiSpec.findUnique({ where: { id: specId } });
  if (!spec) return { specId, outcome: 'deleted' };
  const source: Source = { sourceURL: spec.sourceURL, sourceText: spec.sourceText };
  await ctx.db.openApiSpec.updateMany({ where: { id: specId, ...source }, data: { processingState: 'progress' } });

  const versionId = newId('openApiSpecVersion');
  let document: { url: string; fileName: string; value: object; digest: string };
  try {
    document = await readDocument(ctx, spec, versionId, fetch);
  } catch (error) {
    if (!(error instanceof ProcessFailure)) throw error;
    const recorded = await finish(ctx, spec, source, {
      processingState: 'complete',
      lastProcessedAt: ctx.clock.now(),
      lastProcessErrorCode: error.code,
      lastProcessErrors: error.errors as unknown as Prisma.InputJsonValue,
    });
    if (recorded) announceProcessed(ctx, spec, error.code);
    return { specId, outcome: recorded ? error.code : 'superseded', error: error.message };
  }

  let created = false;
  const recorded = await finish(ctx, spec, source, async (tx) => {
    const current = await tx.db.openApiSpec.findUniqueOrThrow({ where: { id: specId }, select: { lastVersionId: true } });
    const last = current.lastVersionId
      ? await tx.db.openApiSpecVersion.findUnique({ where: { id: current.lastVersionId }, select: { id: true, url: true, digest: true } })
      : null;
    // The same bytes from the same place (the same URL, or text again): no new version.
    const samePlace = last && (spec.sourceURL ? last.url === document.url : last.url === textVersionUrl(spec, last.id, ctx));
    if (!last || last.digest !== document.digest || !samePlace) {
      await tx.db.openApiSpecVersion.create({
        data: {
          id: versionId,
          specId,
          url: document.url,
          filesystem: { [document.fileName]: document.value } as Prisma.InputJsonValue,
          digest: document.digest,
          createdAt: ctx.clock.now(),
        },
      });
      created = true;
    }
    return {
      processingState: 'complete',
      lastVersionId: created ? versionId : last!.id,
      lastProcessedAt: ctx.clock.now(),
      lastProcessErrorCode: null,
      lastProcessErrors: Prisma.DbNull,
    };
  });
  if (recorded) announceProcessed(ctx, spec, created ? 'new version' : 'unchanged');
  return { specId, outcome: recorded ? (created ? 'new version' : 'unchanged') : 'superseded' };
}

/** Its outcome is recorded (committed): subscribers of the organization hear it. */
function announceProcessed(ctx: RequestContext, spec: OpenApiSpecRecord, outcome: string) {
  emitEvent(ctx, { kind: 'openapi_spec.processed', organizationId: spec.organizationId, subjectId: spec.id, data: { outcome } });
}

type SpecUpdate = Prisma.OpenApiSpecUpdateManyMutationInput;

/**
 * Records the outcome, unless the spec was deleted or its source replaced
 * meanwhile (the job queued by that update records its own). False then.
 */
async function finish(
  ctx: RequestContext,
  spec: OpenApiSpecRecord,
  source: Source,
  update: SpecUpdate | ((tx: RequestContext) => Promise<SpecUpdate>),
): Promise<boolean> {
  return ctx.db.$transaction(
    async (db) => {
      const tx = withDb(ctx, db as unknown as Db);
      // Two jobs of one spec (two quick updates) record one after the other.
      await serializeOn(tx.db, tx.provider, `openapi-spec:${spec.id}`);
      const current = await tx.db.openApiSpec.findUnique({ where: { id: spec.id }, select: { sourceURL: true, sourceText: true } });
      if (!current || !sameSource(current, source)) return false;
      const data = typeof update === 'function' ? await update(tx) : update;
      await tx.db.openApiSpec.update({ where: { id: spec.id }, data });
      return true;
    },
    { timeout: 15_000 },
  );
}

/** A document given as text is served from its version's content. */
function textVersionUrl(spec: OpenApiSpecRecord, versionId: string, ctx: RequestContext): string {
  return `${versionLocation(spec, versionId, ctx.urls)}/content`;
}

/** The source's bytes, parsed and validated: the document to store, or a ProcessFailure. */
async function readDocument(ctx: RequestContext, spec: OpenApiSpecRecord, versionId: string, fetch: SpecFetchSettings) {
  let url: string;
  let bytes: Buffer;
  let fileName: string | undefined;
  if (spec.sourceURL) {
    url = spec.sourceURL;
    bytes = await fetchSource(new URL(spec.sourceURL), fetch);
    fileName = fileNameOf(new URL(spec.sourceURL));
  } else {
    url = textVersionUrl(spec, versionId, ctx);
    bytes = Buffer.from(spec.sourceText ?? '', 'utf8');
  }
  const { value, format } = parseDocument(bytes.toString('utf8'));
  await validateDocument(value);
  return { url, fileName: fileName ?? `openapi.${format}`, value, digest: createHash('sha256').update(bytes).digest('hex') };
}

async function fetchSource(url: URL, settings: SpecFetchSettings): Promise<Buffer> {
  try {
    const fetched = await fetchBounded(url, {
      ...settings,
      accept: 'application/json, application/yaml;q=0.9, text/yaml;q=0.9, */*;q=0.1',
    });
    if (fetched.status < 200 || fetched.status >= 300) {
      throw new ProcessFailure('FETCH_ERROR', [{ message: `${fetched.url.href} answered HTTP ${fetched.status}`, code: `HTTP_${fetched.status}` }]);
    }
    return fetched.body;
  } catch (error) {
    if (error instanceof FetchRefused) throw new ProcessFailure(error.timedOut ? 'FETCH_TIMEOUT' : 'FETCH_ERROR', [{ message: error.message }]);
    throw error;
  }
}

/** The file name of a URL ending in .json, .yaml or .yml (e.g. `openapi.yaml`), else none. */
function fileNameOf(url: URL): string | undefined {
  const last = decodeURIComponent(url.pathname.split('/').at(-1) ?? '');
  return /^[\w.-]{1,100}\.(json|ya?ml)$/i.test(last) ? last : undefined;
}

/** JSON when it looks like JSON, YAML otherwise (YAML is a superset: either way one object). */
function parseDocument(text: string): { value: object; format: 'json' | 'yaml' } {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  const format = trimmed.startsWith('{') ? 'json' : 'yaml';
  let value: unknown;
  try {
    value = format === 'json' ? JSON.parse(trimmed) : parseYaml(trimmed, { maxAliasCount: 100, prettyErrors: false });
  } catch (error) {
    throw new ProcessFailure('PARSE_ERROR', [{ message: `The document is not valid ${format === 'json' ? 'JSON' : 'YAML'}: ${(error as Error).message}` }]);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new ProcessFailure('PARSE_ERROR', [{ message: 'The document is not an object (an OpenAPI or Swagger definition)' }]);
  }
  return { value, format };
}

async function validateDocument(value: object): Promise<void> {
  // On a worker (src/workers/tasks/validate-openapi.ts), which gets a copy of the document.
  const result = await runTask('validate-openapi', { value, timeoutMs: VALIDATION_TIMEOUT_MS }, { budgetMs: VALIDATION_TIMEOUT_MS + 5_000 });
  if (result.valid) return;
  if ('failure' in result) throw new ProcessFailure('PARSE_ERROR', [{ message: result.failure }]);
  const errors: StoredProcessError[] = result.errors.slice(0, MAX_ERRORS).map((error) => ({ message: error.message }));
  const more = result.errors.length - errors.length + result.additionalErrors;
  if (more > 0) errors.push({ message: `…and ${more} more errors`, code: 'MORE_ERRORS', omitted: more });
  throw new ProcessFailure('PARSE_ERROR', errors);
}

/** How long the validator may work on one document. */
const VALIDATION_TIMEOUT_MS = 10_000;
