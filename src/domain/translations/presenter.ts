import type { PublicUrls } from '../../config.ts';
import type { TranslationSettingsRecord } from '../../db/index.ts';

export interface TranslationSettingsJSON {
  object: 'translation-settings';
  id: string;
  title: string;
  languages: string[];
  createdAt: string;
  updatedAt: string;
  permissions: { view: boolean; edit: boolean };
  urls: { location: string };
}

export function translationSettingsUrl(settings: Pick<TranslationSettingsRecord, 'id' | 'organizationId'>, urls: PublicUrls): string {
  return `${urls.api}/v1/orgs/${settings.organizationId}/translations/${settings.id}`;
}

export function presentTranslationSettings(
  settings: TranslationSettingsRecord,
  permissions: { view: boolean; edit: boolean },
  urls: PublicUrls,
): TranslationSettingsJSON {
  return {
    object: 'translation-settings',
    id: settings.id,
    title: settings.title,
    languages: settings.languages as string[],
    createdAt: settings.createdAt.toISOString(),
    updatedAt: settings.updatedAt.toISOString(),
    permissions,
    urls: { location: translationSettingsUrl(settings, urls) },
  };
}
