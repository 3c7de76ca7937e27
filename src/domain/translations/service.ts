import type { RequestContext } from '../../context.ts';
import type { TranslationSettingsRecord } from '../../db/index.ts';
import { notFound } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { type Ordering, type Page, pageRequestOf } from '../../lib/pagination.ts';
import { parseInput } from '../../lib/validation.ts';
import { type OrganizationAccess, authorize } from '../access.ts';
import { defineRecordLoader, loader } from '../loaders.ts';
import { visibleOrganization } from '../organizations/service.ts';
import { type ChildListing, countsBy, listChildren, mapPage } from '../shared/pages.ts';
import { inTransaction } from '../transaction.ts';
import { CreateTranslationSettingsInput, ListTranslationSettingsQuery, UpdateTranslationSettingsInput } from './inputs.ts';
import { type TranslationSettingsJSON, presentTranslationSettings } from './presenter.ts';

/** Translation settings of an organization: read by non-guest members, managed by admins. */

export const translationSettingsRecords = defineRecordLoader((ctx, ids) => ctx.db.translationSettings.findMany({ where: { id: { in: ids } } }));

export function translationSettingsPermissions(access: OrganizationAccess) {
  return { view: access.role !== null, edit: access.role === 'admin' };
}

export function presentSettings(ctx: RequestContext, settings: TranslationSettingsRecord, access: OrganizationAccess): TranslationSettingsJSON {
  return presentTranslationSettings(settings, translationSettingsPermissions(access), ctx.urls);
}

async function organizationForTranslations(ctx: RequestContext, organizationId: string) {
  const { access } = await visibleOrganization(ctx, organizationId);
  authorize(access.role !== null, "read this organization's translation settings");
  return access;
}

async function findSettings(ctx: RequestContext, organizationId: string, id: string): Promise<TranslationSettingsRecord> {
  const settings = await loader(ctx, translationSettingsRecords).load(id);
  if (!settings || settings.organizationId !== organizationId) throw notFound('Translation settings', id);
  return settings;
}

const byCreation: Ordering<TranslationSettingsRecord> = {
  name: 'translation-settings',
  keys: [
    { field: 'createdAt', direction: 'asc', type: 'date', value: (row) => row.createdAt },
    { field: 'id', direction: 'asc', type: 'string', value: (row) => row.id },
  ],
};

const settingsOfOrganization: ChildListing<TranslationSettingsRecord, null> = {
  name: 'organization-translation-settings',
  records: translationSettingsRecords,
  ordering: () => byCreation,
  parentOf: (row) => row.organizationId,
  findMany: (ctx, organizationIds, _filter, args) =>
    ctx.db.translationSettings.findMany({ ...args, where: { AND: [{ organizationId: { in: organizationIds } }, args.where] } }),
  count: async (ctx, organizationIds) =>
    countsBy(
      await ctx.db.translationSettings.groupBy({ by: ['organizationId'], where: { organizationId: { in: organizationIds } }, _count: { _all: true } }),
      'organizationId',
    ),
};

export async function listTranslationSettingsRecords(ctx: RequestContext, organizationId: string, query: unknown): Promise<Page<TranslationSettingsRecord>> {
  const params = parseInput(ListTranslationSettingsQuery, query, 'query');
  await organizationForTranslations(ctx, organizationId);
  return listChildren(ctx, settingsOfOrganization, organizationId, null, pageRequestOf(params));
}

export async function listTranslationSettings(ctx: RequestContext, organizationId: string, query: unknown): Promise<Page<TranslationSettingsJSON>> {
  const page = await listTranslationSettingsRecords(ctx, organizationId, query);
  const access = await organizationForTranslations(ctx, organizationId);
  return mapPage(page, (settings) => presentSettings(ctx, settings, access));
}

export async function getTranslationSettings(ctx: RequestContext, organizationId: string, id: string): Promise<TranslationSettingsJSON> {
  const access = await organizationForTranslations(ctx, organizationId);
  return presentSettings(ctx, await findSettings(ctx, organizationId, id), access);
}

/** Translation settings by id alone (GraphQL): outside the caller's organizations they do not exist. */
export async function translationSettingsById(ctx: RequestContext, id: string): Promise<TranslationSettingsRecord> {
  const settings = await loader(ctx, translationSettingsRecords).load(id);
  if (!settings) throw notFound('Translation settings', id);
  await organizationForTranslations(ctx, settings.organizationId);
  return settings;
}

async function manageableOrganization(ctx: RequestContext, organizationId: string, action: string) {
  const access = await organizationForTranslations(ctx, organizationId);
  authorize(translationSettingsPermissions(access).edit, action);
  return access;
}

export async function createTranslationSettings(ctx: RequestContext, organizationId: string, body: unknown): Promise<TranslationSettingsJSON> {
  const input = parseInput(CreateTranslationSettingsInput, body);
  await manageableOrganization(ctx, organizationId, 'create translation settings in this organization');
  const id = newId('translationSettings');
  await inTransaction(
    ctx,
    {
      action: 'translation.create',
      organizationId,
      target: { type: 'translation-settings', id, label: input.title },
    },
    (tx) => tx.db.translationSettings.create({ data: { id, organizationId, title: input.title, languages: input.languages ?? [] } }),
  );
  return getTranslationSettings(ctx, organizationId, id);
}

export async function updateTranslationSettings(ctx: RequestContext, organizationId: string, id: string, body: unknown): Promise<TranslationSettingsJSON> {
  const input = parseInput(UpdateTranslationSettingsInput, body);
  await manageableOrganization(ctx, organizationId, "change this organization's translation settings");
  await findSettings(ctx, organizationId, id);
  await inTransaction(ctx, { action: 'translation.update', organizationId, target: { type: 'translation-settings', id } }, (tx) =>
    tx.db.translationSettings.update({
      where: { id },
      data: { title: input.title, ...(input.languages ? { languages: input.languages } : {}) },
    }),
  );
  return getTranslationSettings(ctx, organizationId, id);
}

export async function deleteTranslationSettings(ctx: RequestContext, organizationId: string, id: string): Promise<void> {
  await manageableOrganization(ctx, organizationId, "delete this organization's translation settings");
  await findSettings(ctx, organizationId, id);
  await inTransaction(
    ctx,
    {
      action: 'translation.delete',
      organizationId,
      target: { type: 'translation-settings', id },
    },
    (tx) => tx.db.translationSettings.deleteMany({ where: { id } }),
  );
}
