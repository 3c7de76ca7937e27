import type { TranslationSettingsRecord } from '../../db/index.ts';
import { organizationAccess } from '../../domain/organizations/service.ts';
import { translationSettingsUrl } from '../../domain/translations/presenter.ts';
import {
  createTranslationSettings,
  deleteTranslationSettings,
  listTranslationSettingsRecords,
  translationSettingsById,
  translationSettingsPermissions,
  updateTranslationSettings,
} from '../../domain/translations/service.ts';
import { builder } from '../builder.ts';
import { connectionQuery, loadEach, toConnection } from '../connection.ts';
import { Language, booleanObject, urlsObject } from './common.ts';
import type { Language as LanguageCode } from '../../domain/shared/languages.ts';
import { Organization } from './organization.ts';

const TranslationSettingsUrls = urlsObject('TranslationSettingsUrls', ['location']);
const TranslationSettingsPermissions = booleanObject('TranslationSettingsPermissions', ['view', 'edit'] as const);

/** Backed by the settings' row. */
export const TranslationSettings = builder.loadableNodeRef<TranslationSettingsRecord, string>('TranslationSettings', {
  id: { resolve: (settings) => settings.id },
  load: (ids, ctx) => loadEach(ids, (id) => translationSettingsById(ctx, id)),
});

TranslationSettings.implement({
  description: 'Languages an organization translates its content into',
  fields: (t) => ({
    object: t.string({ description: 'Always "translation-settings" (the REST `object`)', resolve: () => 'translation-settings' }),
    title: t.exposeString('title', { description: 'Name of the translation settings' }),
    languages: t.field({ type: [Language], description: 'The languages, in the order given', resolve: (settings) => settings.languages as LanguageCode[] }),
    createdAt: t.field({
      type: 'DateTime',
      description: 'When the translation settings were created',
      resolve: (settings) => settings.createdAt.toISOString(),
    }),
    updatedAt: t.field({
      type: 'DateTime',
      description: 'When the translation settings were last changed',
      resolve: (settings) => settings.updatedAt.toISOString(),
    }),
    organization: t.field({ type: Organization, description: 'The organization they belong to', resolve: (settings) => settings.organizationId }),
    urls: t.field({
      type: TranslationSettingsUrls,
      description: 'Their address in this REST API',
      resolve: (settings, _args, ctx) => ({ location: translationSettingsUrl(settings, ctx.urls) }),
    }),
    permissions: t.field({
      type: TranslationSettingsPermissions,
      description: 'What the caller may do with them: members with a role view them, admins edit them',
      resolve: async (settings, _args, ctx) => translationSettingsPermissions(await organizationAccess(ctx, settings.organizationId)),
    }),
  }),
});

builder.objectField(Organization, 'translations', (t) =>
  t.connection({
    type: TranslationSettings,
    description: 'Translation settings of the organization, oldest first',
    resolve: async (org, args, ctx) => toConnection(await listTranslationSettingsRecords(ctx, org.id, connectionQuery(args))),
  }),
);

const settingsPayload = {
  outputFields: (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, { id: string }>) => ({
    translationSettings: t.field({ type: TranslationSettings, resolve: (payload, _args, ctx) => translationSettingsById(ctx, payload.id) }),
  }),
};

builder.relayMutationField(
  'createTranslationSettings',
  {
    inputFields: (t) => ({
      organizationId: t.id({ required: true, description: 'The organization' }),
      title: t.string({ required: true, description: 'Name of the translation settings (1 to 100 characters)' }),
      languages: t.field({ type: [Language], description: 'The languages, each at most once; none when absent' }),
    }),
  },
  {
    description: 'Creates translation settings in an organization (admins)',
    resolve: async (_root, { input: { organizationId, title, languages } }, ctx) => ({
      id: (await createTranslationSettings(ctx, organizationId, { title, ...(languages ? { languages } : {}) })).id,
    }),
  },
  settingsPayload,
);

builder.relayMutationField(
  'updateTranslationSettings',
  {
    inputFields: (t) => ({
      translationSettingsId: t.id({ required: true, description: 'The translation settings' }),
      title: t.string({ required: true, description: 'Name of the translation settings (1 to 100 characters)' }),
      languages: t.field({ type: [Language], description: 'Replaces the languages, each at most once; absent keeps them' }),
    }),
  },
  {
    description: 'Changes translation settings (admins): their title, and their languages when given',
    resolve: async (_root, { input: { translationSettingsId, title, languages } }, ctx) => {
      const settings = await translationSettingsById(ctx, translationSettingsId);
      await updateTranslationSettings(ctx, settings.organizationId, settings.id, { title, ...(languages ? { languages } : {}) });
      return { id: settings.id };
    },
  },
  settingsPayload,
);

builder.relayMutationField(
  'deleteTranslationSettings',
  { inputFields: (t) => ({ translationSettingsId: t.id({ required: true, description: 'The translation settings' }) }) },
  {
    description: 'Deletes translation settings (admins)',
    resolve: async (_root, { input: { translationSettingsId } }, ctx) => {
      const settings = await translationSettingsById(ctx, translationSettingsId);
      await deleteTranslationSettings(ctx, settings.organizationId, settings.id);
      return { deletedId: settings.id };
    },
  },
  { outputFields: (t) => ({ deletedId: t.exposeID('deletedId', { description: 'Id of the translation settings deleted' }) }) },
);
