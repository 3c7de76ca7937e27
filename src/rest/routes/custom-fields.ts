import { CreateCustomFieldInput, ListCustomFieldsQuery, UpdateCustomFieldInput } from '../../domain/custom-fields/inputs.ts';
import { createCustomField, deleteCustomField, getCustomField, listCustomFields, updateCustomField } from '../../domain/custom-fields/service.ts';
import { restList } from '../../lib/pagination.ts';
import { route } from '../route.ts';

const tag = 'Custom fields';

export const customFieldRoutes = [
  route({
    method: 'GET',
    path: '/v1/orgs/{organizationId}/custom-fields',
    operationId: 'listCustomFields',
    summary: 'Custom fields of an organization, by name',
    tag,
    query: ListCustomFieldsQuery,
    status: 200,
    response: 'CustomField',
    list: true,
    handler: async (ctx, { params, query }) => restList(await listCustomFields(ctx, params.organizationId!, query)),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/{organizationId}/custom-fields',
    operationId: 'createCustomField',
    summary: 'Create a custom field (admins)',
    tag,
    body: CreateCustomFieldInput,
    status: 201,
    response: 'CustomField',
    handler: (ctx, { params, body }) => createCustomField(ctx, params.organizationId!, body),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/{organizationId}/custom-fields/{fieldName}',
    operationId: 'getCustomField',
    summary: 'A custom field',
    tag,
    status: 200,
    response: 'CustomField',
    handler: (ctx, { params }) => getCustomField(ctx, params.organizationId!, params.fieldName!),
  }),
  route({
    method: 'PATCH',
    path: '/v1/orgs/{organizationId}/custom-fields/{fieldName}',
    operationId: 'updateCustomField',
    summary: 'Update a custom field (its name and type are immutable)',
    tag,
    body: UpdateCustomFieldInput,
    status: 200,
    response: 'CustomField',
    handler: (ctx, { params, body }) => updateCustomField(ctx, params.organizationId!, params.fieldName!, body),
  }),
  route({
    method: 'DELETE',
    path: '/v1/orgs/{organizationId}/custom-fields/{fieldName}',
    operationId: 'deleteCustomField',
    summary: 'Delete a custom field and its values on every space',
    tag,
    status: 204,
    handler: (ctx, { params }) => deleteCustomField(ctx, params.organizationId!, params.fieldName!),
  }),
];
