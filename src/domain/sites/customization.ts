import { createRequire } from 'node:module';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { RequestContext } from '../../context.ts';
import { Prisma } from '../../db/index.ts';
import { invalid, notFound } from '../../errors.ts';
import { loader } from '../loaders.ts';
import { inTransaction, serializeOn } from '../transaction.ts';
import { defaultCustomizations } from './presenter.ts';
import { type SiteRecord, type SiteSpaceRecord, manageableSite, siteSpaceRecords, visibleSite } from './records.ts';

/**
 * Customization of a published site in the official SiteCustomizationSettings
 * shape (title, styling, themes, header and footer links, favicon, pagination,
 * feedback, trademark, privacy policy...): the site's settings, replaced as a
 * whole (`updateSiteCustomizationById`), and per site space an override of
 * some of them (`overrideSiteSpaceCustomizationById`), which a renderer reads
 * merged over the site's. Input is checked against the official schemas (ajv),
 * then against what this server can honour: it has no AI features, so `ai.mode`
 * must be "none". Settings are stored as given and read back exactly.
 */

type Json = Record<string, unknown>;

interface Validators {
  settings: ValidateFunction;
  override: ValidateFunction;
}
let compiled: Validators | undefined;

function validators(): Validators {
  if (compiled) return compiled;
  const spec = createRequire(import.meta.url)('@gitbook/api/spec/openapi.json') as {
    components: Json;
    paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: Json }> } }>>;
  };
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  // The official formats: addresses are http(s) URLs; emoji codes and icon names are checked where they are drawn.
  ajv.addFormat('uri', (value: string) => /^https?:\/\//i.test(value) && URL.canParse(value));
  ajv.addFormat('date-time', (value: string) => !Number.isNaN(Date.parse(value)));
  ajv.addFormat('emoji', true);
  ajv.addFormat('icon', true);
  ajv.addSchema({ $id: 'gitbook', components: spec.components });
  const override =
    spec.paths['/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization']!.patch!.requestBody.content['application/json']!.schema;
  const rebased = JSON.parse(JSON.stringify(override).replaceAll('"#/components/', '"gitbook#/components/')) as Json;
  compiled = {
    settings: ajv.compile({ $ref: 'gitbook#/components/schemas/SiteCustomizationSettingsInput' }),
    override: ajv.compile({ ...rebased, additionalProperties: false }),
  };
  return compiled;
}

/** The deepest error (the most precise), as "field.path: rule". */
function describeError(errors: ErrorObject[] | null | undefined): string {
  const error = (errors ?? []).reduce<ErrorObject | undefined>(
    (best, each) => (!best || each.instancePath.length > best.instancePath.length ? each : best),
    undefined,
  );
  if (!error) return 'body: is not valid customization settings';
  const path = error.instancePath.split('/').filter(Boolean).join('.');
  const missing = error.keyword === 'required' ? (error.params as { missingProperty?: string }).missingProperty : undefined;
  const extra = error.keyword === 'additionalProperties' ? (error.params as { additionalProperty?: string }).additionalProperty : undefined;
  const field = [path, missing ?? extra].filter(Boolean).join('.') || 'body';
  if (missing) return `${field}: is required`;
  if (extra) return `${field}: is not a customization setting`;
  const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues;
  return `${field}: ${error.message ?? 'is not valid'}${allowed ? ` (${allowed.map(String).join(', ')})` : ''}`;
}

/** What this server can honour of valid settings (or of an override). */
function assertHonoured(settings: Json) {
  const ai = settings.ai as { mode?: unknown } | undefined;
  if (ai && ai.mode !== undefined && ai.mode !== null && ai.mode !== 'none') {
    throw invalid('ai.mode: must be "none": this server has no AI search or assistant');
  }
  const advanced = settings.advancedCustomization as { enabled?: unknown } | undefined;
  if (advanced?.enabled === true) throw invalid('advancedCustomization.enabled: must be false: this server serves no custom scripts or styles');
}

export function checkedSettings(body: unknown): Json {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalid('body: must be an object of customization settings');
  const { settings } = validators();
  if (!settings(body)) throw invalid(describeError(settings.errors));
  assertHonoured(body as Json);
  return body as Json;
}

function checkedOverride(body: unknown): Json {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalid('body: must be an object of customization settings');
  const { override } = validators();
  if (!override(body)) throw invalid(describeError(override.errors));
  assertHonoured(body as Json);
  return body as Json;
}

/** A site's settings: as set, else the defaults (`updatedAt` once set). */
export function siteCustomizationOf(site: SiteRecord): Json {
  const stored = site.customization as Json | null;
  if (!stored) return defaultCustomizations(site);
  return { ...stored, ...(site.customizationUpdatedAt ? { updatedAt: site.customizationUpdatedAt.toISOString() } : {}) };
}

/**
 * Settings whose value is one whole (a title, a favicon, an announcement): an
 * override replaces them. The others are groups (styling, header, footer...):
 * an override replaces those of their fields it names.
 */
const WHOLE = new Set(['title', 'localizedTitle', 'favicon', 'announcement']);
const isObject = (value: unknown): value is Json => !!value && typeof value === 'object' && !Array.isArray(value);

/** An override changed by a patch: null removes what it names, other values replace it (a group field by field). */
export function patchedOverride(current: Json, patch: Json): Json {
  const next: Json = structuredClone(current);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete next[key];
    else if (WHOLE.has(key) || !isObject(value)) next[key] = value;
    else {
      const group: Json = isObject(next[key]) ? { ...(next[key] as Json) } : {};
      for (const [field, inner] of Object.entries(value)) {
        if (inner === null) delete group[field];
        else group[field] = inner;
      }
      if (Object.keys(group).length) next[key] = group;
      else delete next[key];
    }
  }
  return next;
}

/** A site space's settings: the site's with its override applied (updatedAt: the later of the two). */
export function siteSpaceCustomizationOf(site: SiteRecord, siteSpace: SiteSpaceRecord): Json {
  const base = siteCustomizationOf(site);
  const override = siteSpace.customization as Json | null;
  if (!override) return base;
  const merged: Json = structuredClone(base);
  for (const [key, value] of Object.entries(override)) {
    merged[key] = !WHOLE.has(key) && isObject(value) && isObject(merged[key]) ? { ...(merged[key] as Json), ...value } : value;
  }
  const times = [site.customizationUpdatedAt, siteSpace.customizationUpdatedAt].filter((time): time is Date => !!time);
  if (times.length) merged.updatedAt = new Date(Math.max(...times.map((time) => time.getTime()))).toISOString();
  return merged;
}

const asJson = (value: Json) => value as Prisma.InputJsonValue;

/** The customizations of a published site: the site's, and each overridden site space's among `siteSpaces`. */
export function publishedCustomizations(site: SiteRecord, siteSpaces: SiteSpaceRecord[]) {
  const overridden = siteSpaces.filter((siteSpace) => siteSpace.customization !== null);
  return {
    site: siteCustomizationOf(site),
    siteSpaces: Object.fromEntries(overridden.map((siteSpace) => [siteSpace.id, siteSpaceCustomizationOf(site, siteSpace)])),
  };
}

export async function getSiteCustomization(ctx: RequestContext, organizationId: string, siteId: string) {
  const { site } = await visibleSite(ctx, organizationId, siteId, { visitors: true });
  return siteCustomizationOf(site);
}

/** Replaces a site's settings (admins). */
export async function updateSiteCustomization(ctx: RequestContext, organizationId: string, siteId: string, body: unknown) {
  await visibleSite(ctx, organizationId, siteId);
  const settings = checkedSettings(body);
  await manageableSite(ctx, organizationId, siteId, "change this site's customization");
  await inTransaction(ctx, { action: 'site.update_customization', organizationId, target: { type: 'site', id: siteId } }, (tx) =>
    tx.db.site.update({ where: { id: siteId }, data: { customization: asJson(settings), customizationUpdatedAt: tx.clock.now() } }),
  );
  return getSiteCustomization(ctx, organizationId, siteId);
}

async function siteSpaceOf(ctx: RequestContext, siteId: string, siteSpaceId: string) {
  const siteSpace = await loader(ctx, siteSpaceRecords).load(siteSpaceId);
  if (!siteSpace || siteSpace.siteId !== siteId) throw notFound('Site space', siteSpaceId);
  return siteSpace;
}

export async function getSiteSpaceCustomization(ctx: RequestContext, organizationId: string, siteId: string, siteSpaceId: string) {
  const { site } = await visibleSite(ctx, organizationId, siteId, { visitors: true });
  return siteSpaceCustomizationOf(site, await siteSpaceOf(ctx, siteId, siteSpaceId));
}

/** Changes the override of a site space (admins): named settings replace the site's, null ones go back to it. */
export async function overrideSiteSpaceCustomization(ctx: RequestContext, organizationId: string, siteId: string, siteSpaceId: string, body: unknown) {
  await visibleSite(ctx, organizationId, siteId);
  await siteSpaceOf(ctx, siteId, siteSpaceId);
  const patch = checkedOverride(body);
  await manageableSite(ctx, organizationId, siteId, "change this site's customization");
  await inTransaction(ctx, { action: 'site_space.update_customization', organizationId, target: { type: 'site-space', id: siteSpaceId } }, async (tx) => {
    await serializeOn(tx.db, tx.provider, `site:${siteId}`);
    const row = await tx.db.siteSpace.findUnique({ where: { id: siteSpaceId }, select: { customization: true } });
    if (!row) throw notFound('Site space', siteSpaceId);
    const next = patchedOverride((row.customization as Json | null) ?? {}, patch);
    await tx.db.siteSpace.update({
      where: { id: siteSpaceId },
      data: Object.keys(next).length
        ? { customization: asJson(next), customizationUpdatedAt: tx.clock.now() }
        : { customization: Prisma.DbNull, customizationUpdatedAt: null },
    });
  });
  return getSiteSpaceCustomization(ctx, organizationId, siteId, siteSpaceId);
}

/** Removes the override of a site space (admins): 205, or 204 when it had none. */
export async function deleteSiteSpaceCustomization(ctx: RequestContext, organizationId: string, siteId: string, siteSpaceId: string): Promise<204 | 205> {
  await visibleSite(ctx, organizationId, siteId);
  await siteSpaceOf(ctx, siteId, siteSpaceId);
  await manageableSite(ctx, organizationId, siteId, "change this site's customization");
  const { count } = await inTransaction(
    ctx,
    { action: 'site_space.delete_customization', organizationId, target: { type: 'site-space', id: siteSpaceId } },
    (tx) =>
      tx.db.siteSpace.updateMany({
        where: { id: siteSpaceId, NOT: { customizationUpdatedAt: null } },
        data: { customization: Prisma.DbNull, customizationUpdatedAt: null },
      }),
  );
  return count ? 205 : 204;
}
