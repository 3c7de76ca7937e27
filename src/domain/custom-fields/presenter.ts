import type { PublicUrls } from '../../config.ts';
import type { CustomFieldRecord } from '../../db/index.ts';
import type { CustomFieldType } from './inputs.ts';

/** The contract's Custom field (no official counterpart). */
export interface CustomFieldJSON {
  object: 'custom-field';
  id: string;
  name: string;
  type: CustomFieldType;
  title?: string;
  description?: string;
  placeholder?: string;
  options?: string[];
  createdAt: string;
  updatedAt: string;
  urls: { location: string };
  permissions: { view: boolean; edit: boolean };
}

export function presentCustomField(field: CustomFieldRecord, permissions: CustomFieldJSON['permissions'], urls: PublicUrls): CustomFieldJSON {
  return {
    object: 'custom-field',
    id: field.id,
    name: field.name,
    type: field.type as CustomFieldType,
    ...(field.title ? { title: field.title } : {}),
    ...(field.description ? { description: field.description } : {}),
    ...(field.placeholder ? { placeholder: field.placeholder } : {}),
    ...(Array.isArray(field.options) ? { options: field.options as string[] } : {}),
    createdAt: field.createdAt.toISOString(),
    updatedAt: field.updatedAt.toISOString(),
    urls: { location: `${urls.api}/v1/orgs/${field.organizationId}/custom-fields/${field.name}` },
    permissions,
  };
}
