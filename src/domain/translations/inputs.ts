import { z } from 'zod';
import { pageParams } from '../../lib/pagination.ts';

/** The language codes translations accept (the official API's TranslationLanguage). */
export const LANGUAGES = [
  'en',
  'fr',
  'de',
  'es',
  'it',
  'pt',
  'pt-br',
  'ru',
  'ja',
  'zh',
  'zh-tw',
  'yue',
  'ko',
  'ar',
  'hi',
  'nl',
  'pl',
  'tr',
  'sv',
  'no',
  'da',
  'fi',
  'el',
  'cs',
  'hu',
  'ro',
  'th',
  'vi',
  'id',
  'ms',
  'he',
  'uk',
  'sk',
  'bg',
  'hr',
  'lt',
  'lv',
  'et',
  'sl',
] as const;

const title = z.string().trim().min(1).max(100);
const languages = z
  .array(z.enum(LANGUAGES, { error: `must be one of ${LANGUAGES.join(', ')}` }))
  .max(LANGUAGES.length)
  .refine((codes) => new Set(codes).size === codes.length, 'must not repeat a language');

export const ListTranslationSettingsQuery = z.object({ ...pageParams });
export const CreateTranslationSettingsInput = z.strictObject({ title, languages: languages.optional() });
export const UpdateTranslationSettingsInput = z.strictObject({ title, languages: languages.optional() });
