import type { CustomFieldJSON } from '../../domain/custom-fields/presenter.ts';
import {
  createCustomField,
  deleteCustomField,
  getCustomField,
  getCustomFieldById,
  listCustomFields,
  updateCustomField,
} from '../../domain/custom-fields/service.ts';
import { builder } from '../builder.ts';
import { connectionQuery, loadEach, toConnection } from '../connection.ts';
import { booleanObject, restEnum, urlsObject } from './common.ts';
import { Organization } from './organization.ts';

const CustomFieldType = restEnum('CustomFieldType', 'The type of a custom field: what value a space takes for it (set at creation only)', {
  text: 'A string',
  number: 'A number',
  boolean: 'true or false',
  select: 'One of its options',
  'multi-select': 'A list of its options',
});

const CustomFieldUrls = urlsObject('CustomFieldUrls', ['location']);
const CustomFieldPermissions = booleanObject('CustomFieldPermissions', ['view', 'edit'] as const);

export const CustomField = builder.loadableNodeRef<CustomFieldJSON, string>('CustomField', {
  id: { resolve: (field) => field.id },
  load: (ids, ctx) => loadEach(ids, (id) => getCustomFieldById(ctx, id)),
});

CustomField.implement({
  description: 'Typed metadata defined by an organization and set on its spaces',
  fields: (t) => ({
    object: t.exposeString('object', { description: 'Always "custom-field" (the REST `object`)' }),
    name: t.exposeString('name', { description: 'Immutable key of the field' }),
    type: t.expose('type', { type: CustomFieldType, description: 'What value a space takes for it' }),
    title: t.exposeString('title', { nullable: true, description: 'Label shown for the field; null when none' }),
    description: t.exposeString('description', { nullable: true, description: 'Help text of the field; null when none' }),
    placeholder: t.exposeString('placeholder', { nullable: true, description: 'Text shown while a space has no value for it; null when none' }),
    options: t.exposeStringList('options', { nullable: true, description: 'The values a select or multi-select field allows; null for other types' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the field was created' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When the field was last changed' }),
    urls: t.expose('urls', { type: CustomFieldUrls, description: 'Its address in this REST API' }),
    permissions: t.expose('permissions', {
      type: CustomFieldPermissions,
      description: 'What the caller may do with it: members with a role view it, admins edit it',
    }),
  }),
});

builder.objectField(Organization, 'customFields', (t) =>
  t.connection({
    type: CustomField,
    description: 'Custom fields of the organization, by name (callers with a role; a guest gets 403)',
    resolve: async (org, args, ctx) => toConnection(await listCustomFields(ctx, org.id, connectionQuery(args))),
  }),
);

builder.queryField('customField', (t) =>
  t.field({
    type: CustomField,
    nullable: true,
    description: 'A custom field of an organization by its name (callers with a role); 404 when there is none',
    args: {
      organizationId: t.arg.id({ required: true, description: 'Id of the organization' }),
      name: t.arg.string({ required: true, description: 'Name (key) of the field' }),
    },
    resolve: (_root, { organizationId, name }, ctx) => getCustomField(ctx, organizationId, name),
  }),
);

const fieldPayload = {
  outputFields: (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, { customField: CustomFieldJSON }>) => ({
    customField: t.expose('customField', { type: CustomField }),
  }),
};

builder.relayMutationField(
  'createCustomField',
  {
    inputFields: (t) => ({
      organizationId: t.id({ required: true, description: 'The organization' }),
      name: t.string({
        required: true,
        description: 'Key of the field, unique in the organization and immutable: up to 50 lowercase letters, digits, "_" and "-"',
      }),
      type: t.field({ type: CustomFieldType, required: true, description: 'What value a space takes for it (immutable)' }),
      title: t.string({ description: 'Label (up to 100 characters)' }),
      description: t.string({ description: 'Help text (up to 200 characters)' }),
      placeholder: t.string({ description: 'Text shown while a space has no value (up to 100 characters)' }),
      options: t.stringList({
        description: 'Allowed values, 1 to 50 distinct ones of up to 100 characters: required for select and multi-select, refused for other types',
      }),
    }),
  },
  {
    description: 'Creates a custom field in an organization (admins)',
    resolve: async (_root, { input: { organizationId, ...body } }, ctx) => ({
      customField: await createCustomField(ctx, organizationId, body),
    }),
  },
  fieldPayload,
);

builder.relayMutationField(
  'updateCustomField',
  {
    inputFields: (t) => ({
      organizationId: t.id({ required: true, description: 'The organization' }),
      name: t.string({ required: true, description: 'Name of the field to update (immutable)' }),
      title: t.string({ description: 'New label (up to 100 characters)' }),
      description: t.string({ description: 'New help text (up to 200 characters)' }),
      placeholder: t.string({ description: 'New placeholder (up to 100 characters)' }),
      options: t.stringList({ description: 'Replaces the allowed values of a select or multi-select field (1 to 50 distinct ones)' }),
    }),
  },
  {
    description: 'Changes a custom field (admins); its name and type never change, fields left out stay as they are',
    resolve: async (_root, { input: { organizationId, name, ...body } }, ctx) => ({
      customField: await updateCustomField(ctx, organizationId, name, body),
    }),
  },
  fieldPayload,
);

builder.relayMutationField(
  'deleteCustomField',
  {
    inputFields: (t) => ({
      organizationId: t.id({ required: true, description: 'The organization' }),
      name: t.string({ required: true, description: 'Name of the field to delete' }),
    }),
  },
  {
    description: 'Deletes a custom field (admins), with its values on every space',
    resolve: async (_root, { input: { organizationId, name } }, ctx) => {
      await deleteCustomField(ctx, organizationId, name);
      return { deletedName: name };
    },
  },
  { outputFields: (t) => ({ deletedName: t.exposeString('deletedName', { description: 'Name of the field deleted' }) }) },
);
