import { CreateTranslationSettingsInput, ListTranslationSettingsQuery, UpdateTranslationSettingsInput } from '../../domain/translations/inputs.ts';
import {
  createTranslationSettings,
  deleteTranslationSettings,
  getTranslationSettings,
  listTranslationSettings,
  updateTranslationSettings,
} from '../../domain/translations/service.ts';
import { restList } from '../../lib/pagination.ts';
import { route } from '../route.ts';

const tag = 'Translations';
const settings = '/v1/orgs/{organizationId}/translations/{translationSettingsId}';

export const translationRoutes = [
  route({
    method: 'GET',
    path: '/v1/orgs/{organizationId}/translations',
    operationId: 'listTranslations',
    summary: 'Translation settings of an organization, oldest first',
    tag,
    query: ListTranslationSettingsQuery,
    status: 200,
    response: 'TranslationSettings',
    list: true,
    handler: async (ctx, { params, query }) => restList(await listTranslationSettings(ctx, params.organizationId!, query)),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/{organizationId}/translations',
    operationId: 'createTranslation',
    summary: 'Create translation settings: a title and the languages to translate into (admins)',
    tag,
    body: CreateTranslationSettingsInput,
    status: 201,
    response: 'TranslationSettings',
    handler: (ctx, { params, body }) => createTranslationSettings(ctx, params.organizationId!, body),
  }),
  route({
    method: 'GET',
    path: settings,
    operationId: 'getTranslation',
    summary: 'Translation settings',
    tag,
    status: 200,
    response: 'TranslationSettings',
    handler: (ctx, { params }) => getTranslationSettings(ctx, params.organizationId!, params.translationSettingsId!),
  }),
  route({
    method: 'PUT',
    path: settings,
    operationId: 'updateTranslation',
    summary: 'Change the title (and languages) of translation settings (admins)',
    tag,
    body: UpdateTranslationSettingsInput,
    status: 200,
    response: 'TranslationSettings',
    handler: (ctx, { params, body }) => updateTranslationSettings(ctx, params.organizationId!, params.translationSettingsId!, body),
  }),
  route({
    method: 'DELETE',
    path: settings,
    operationId: 'deleteTranslation',
    summary: 'Delete translation settings (admins)',
    tag,
    status: 205,
    handler: (ctx, { params }) => deleteTranslationSettings(ctx, params.organizationId!, params.translationSettingsId!),
  }),
];
