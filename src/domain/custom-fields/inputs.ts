import { z } from 'zod';
import { pageParams } from '../../lib/pagination.ts';
import { distinct } from '../../lib/validation.ts';

/**
 * Custom field types, and the value each takes on a space:
 * text → string (≤ 256), number → number, boolean → boolean,
 * select → one of `options`, multi-select → an array of `options`.
 */
export const CUSTOM_FIELD_TYPES = ['text', 'number', 'boolean', 'select', 'multi-select'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];
export const typesWithOptions: readonly CustomFieldType[] = ['select', 'multi-select'];

export const customFieldName = z
  .string()
  .min(1)
  .max(50)
  .regex(/^[a-z_\-0-9]+$/, 'must contain only lowercase letters, digits, "_" and "-"');

const options = distinct(z.array(z.string().min(1).max(100)).min(1).max(50), 'must not repeat a value');

export const ListCustomFieldsQuery = z.object({ ...pageParams });

export const CreateCustomFieldInput = z.strictObject({
  name: customFieldName,
  type: z.enum(CUSTOM_FIELD_TYPES),
  title: z.string().max(100).optional(),
  description: z.string().max(200).optional(),
  placeholder: z.string().max(100).optional(),
  options: options.optional(),
});

export const UpdateCustomFieldInput = z.strictObject({
  name: z.never({ error: 'is immutable: it is the key of the field' }).optional(),
  type: z.never({ error: 'is immutable: it is set at creation only' }).optional(),
  title: z.string().max(100).optional(),
  description: z.string().max(200).optional(),
  placeholder: z.string().max(100).optional(),
  options: options.optional(),
});
