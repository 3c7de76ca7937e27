import { z } from 'zod';
import { pageParams } from '../../lib/pagination.ts';
import { distinct } from '../../lib/validation.ts';
import { LANGUAGES } from '../shared/languages.ts';

const title = z.string().trim().min(1).max(100);
const languages = distinct(z.array(z.enum(LANGUAGES, { error: `must be one of ${LANGUAGES.join(', ')}` })).max(LANGUAGES.length), 'must not repeat a language');

export const ListTranslationSettingsQuery = z.object({ ...pageParams });
export const CreateTranslationSettingsInput = z.strictObject({ title, languages: languages.optional() });
export const UpdateTranslationSettingsInput = z.strictObject({ title, languages: languages.optional() });
