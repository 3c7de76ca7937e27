import { z } from 'zod';
import { pageParams } from '../../lib/pagination.ts';

/** The contract's slug rule (the official one also allows capitals: the contract wins). */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** Largest source given as text, as large as a fetched one may be by default. */
export const MAX_SOURCE_TEXT_LENGTH = 10 * 1024 * 1024;

export const specSlug = z
  .string()
  .min(1)
  .max(100)
  .regex(SLUG_PATTERN, 'must be lowercase letters and digits in words joined by single hyphens (e.g. "payments-api")');

/** Where a spec comes from: a public http(s) URL fetched by the processing job, or the document itself as text. */
export const specSource = z
  .strictObject({
    url: z
      .url({ protocol: /^https?$/, error: 'must be an http or https URL' })
      .max(2048)
      .optional(),
    text: z.string().min(1).max(MAX_SOURCE_TEXT_LENGTH).optional(),
  })
  .refine((source) => (source.url === undefined) !== (source.text === undefined), {
    message: 'must have either a url or a text (one of them)',
  })
  .meta({ oneOf: [{ required: ['url'] }, { required: ['text'] }] });
export type SpecSource = z.infer<typeof specSource>;

export const ListOpenAPISpecsQuery = z.object({ ...pageParams });
export const ListOpenAPISpecVersionsQuery = z.object({ ...pageParams });

export const CreateOpenAPISpecInput = z.strictObject({ slug: specSlug, source: specSource });
export const PutOpenAPISpecInput = z.strictObject({ source: specSource });
/** The slug in a PUT's path names a spec to create: it must be a valid slug. */
export const SpecSlugParam = z.strictObject({ specSlug });
