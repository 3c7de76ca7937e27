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
import { booleanObject, urlsObject } from './common.ts';
import { Organization } from './organization.ts';

const CustomFieldUrls = urlsObject('CustomFieldUrls', ['location']);
const CustomFieldPermissions = booleanObject('CustomFieldPermissions', ['view', 'edit'] as const);

export const CustomField = builder.loadableNodeRef<CustomFieldJSON, string>('CustomField', {
  id: { resolve: (field) => field.id },
  load: (ids, ctx) => loadEach(ids, (id) => getCustomFieldById(ctx, id)),
});

CustomField.implement({
  description: 'Typed metadata defined by an organization and set on its spaces',
  fields: (t) => ({
    object: t.exposeString('object'),
    name: t.exposeString('name', { description: 'Immutable key of the field' }),
    type: t.exposeString('type', { description: 'text, number, boolean, select or multi-select' }),
    title: t.exposeString('title', { nullable: true }),
    description: t.exposeString('description', { nullable: true }),
    placeholder: t.exposeString('placeholder', { nullable: true }),
    options: t.exposeStringList('options', { nullable: true }),
    createdAt: t.field({ type: 'DateTime', resolve: (field) => field.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (field) => field.updatedAt }),
    urls: t.field({ type: CustomFieldUrls, resolve: (field) => field.urls }),
    permissions: t.field({ type: CustomFieldPermissions, resolve: (field) => field.permissions }),
  }),
});

builder.objectField(Organization, 'customFields', (t) =>
  t.connection({
    type: CustomField,
    resolve: async (org, args, ctx) => toConnection(await listCustomFields(ctx, org.id, connectionQuery(args))),
  }),
);

builder.queryField('customField', (t) =>
  t.field({
    type: CustomField,
    nullable: true,
    args: { organizationId: t.arg.id({ required: true }), name: t.arg.string({ required: true }) },
    resolve: (_root, { organizationId, name }, ctx) => getCustomField(ctx, organizationId, name),
  }),
);

const fieldPayload = {
  outputFields: (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, { customField: CustomFieldJSON }>) => ({
    customField: t.field({ type: CustomField, resolve: (payload) => payload.customField }),
  }),
};

builder.relayMutationField(
  'createCustomField',
  {
    inputFields: (t) => ({
      organizationId: t.id({ required: true }),
      name: t.string({ required: true }),
      type: t.string({ required: true }),
      title: t.string(),
      description: t.string(),
      placeholder: t.string(),
      options: t.stringList(),
    }),
  },
  {
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
      organizationId: t.id({ required: true }),
      name: t.string({ required: true, description: 'Name of the field to update (immutable)' }),
      title: t.string(),
      description: t.string(),
      placeholder: t.string(),
      options: t.stringList(),
    }),
  },
  {
    resolve: async (_root, { input: { organizationId, name, ...body } }, ctx) => ({
      customField: await updateCustomField(ctx, organizationId, name, body),
    }),
  },
  fieldPayload,
);

builder.relayMutationField(
  'deleteCustomField',
  { inputFields: (t) => ({ organizationId: t.id({ required: true }), name: t.string({ required: true }) }) },
  {
    resolve: async (_root, { input: { organizationId, name } }, ctx) => {
      await deleteCustomField(ctx, organizationId, name);
      return { deletedName: name };
    },
  },
  { outputFields: (t) => ({ deletedName: t.exposeString('deletedName') }) },
);
