import type { RequestContext } from '../../context.ts';
import type { AuditFacts } from '../audit/record.ts';
import type { CustomFieldRecord } from '../../db/index.ts';
import { conflict, invalid, notFound } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { type Ordering, type Page, pageRequestOf } from '../../lib/pagination.ts';
import { parseInput } from '../../lib/validation.ts';
import { type OrganizationAccess, authorize } from '../access.ts';
import { defineRecordLoader, loader } from '../loaders.ts';
import { organizationAccess, visibleOrganization } from '../organizations/service.ts';
import { type ChildListing, countsBy, listChildren, mapPage } from '../shared/pages.ts';
import { inTransaction } from '../transaction.ts';
import { CreateCustomFieldInput, type CustomFieldType, ListCustomFieldsQuery, UpdateCustomFieldInput, typesWithOptions } from './inputs.ts';
import { type CustomFieldJSON, presentCustomField } from './presenter.ts';

export const customFieldRecords = defineRecordLoader((ctx, ids) => ctx.db.customField.findMany({ where: { id: { in: ids } } }));

export function customFieldPermissions(access: OrganizationAccess) {
  return { view: access.role !== null, edit: access.role === 'admin' };
}

export function presentField(ctx: RequestContext, field: CustomFieldRecord, access: OrganizationAccess) {
  return presentCustomField(field, customFieldPermissions(access), ctx.urls);
}

/** Custom fields are read by non-guest members and managed by admins. */
async function organizationForFields(ctx: RequestContext, organizationId: string) {
  const { access } = await visibleOrganization(ctx, organizationId);
  authorize(access.role !== null, "read this organization's custom fields");
  return access;
}

async function findField(ctx: RequestContext, organizationId: string, name: string) {
  const field = await ctx.db.customField.findUnique({ where: { organizationId_name: { organizationId, name } } });
  if (!field) throw notFound('Custom field', name);
  return field;
}

const byName: Ordering<CustomFieldRecord> = {
  name: 'custom-fields',
  keys: [{ field: 'name', direction: 'asc', type: 'string', value: (row) => row.name }],
};

const fieldsOfOrganization: ChildListing<CustomFieldRecord, null> = {
  name: 'organization-custom-fields',
  records: customFieldRecords,
  ordering: () => byName,
  parentOf: (row) => row.organizationId,
  findMany: (ctx, organizationIds, _filter, args) =>
    ctx.db.customField.findMany({ ...args, where: { AND: [{ organizationId: { in: organizationIds } }, args.where] } }),
  count: async (ctx, organizationIds) =>
    countsBy(
      await ctx.db.customField.groupBy({
        by: ['organizationId'],
        where: { organizationId: { in: organizationIds } },
        _count: { _all: true },
      }),
      'organizationId',
    ),
};

export async function listCustomFields(ctx: RequestContext, organizationId: string, query: unknown): Promise<Page<CustomFieldJSON>> {
  const { access } = await visibleOrganization(ctx, organizationId);
  const params = parseInput(ListCustomFieldsQuery, query, 'query');
  authorize(access.role !== null, "list this organization's custom fields");
  const page = await listChildren(ctx, fieldsOfOrganization, organizationId, null, pageRequestOf(params));
  return mapPage(page, (field) => presentField(ctx, field, access));
}

export async function getCustomField(ctx: RequestContext, organizationId: string, name: string) {
  const access = await organizationForFields(ctx, organizationId);
  return presentField(ctx, await findField(ctx, organizationId, name), access);
}

/** A custom field by id (GraphQL nodes). */
export async function getCustomFieldById(ctx: RequestContext, id: string) {
  const field = await loader(ctx, customFieldRecords).load(id);
  // Outside its organization a field does not exist, whichever organization it is in.
  const { member, role } = field ? await organizationAccess(ctx, field.organizationId) : { member: null, role: null };
  if (!field || !member) throw notFound('Custom field', id);
  authorize(role !== null, "read this organization's custom fields");
  return presentField(ctx, field, { member, role });
}

function checkOptions(type: CustomFieldType, options: string[] | undefined) {
  const takesOptions = typesWithOptions.includes(type);
  if (takesOptions && !options) throw invalid(`options: is required for a ${type} field`);
  if (!takesOptions && options) throw invalid(`options: only select and multi-select fields have options`);
}

export async function createCustomField(ctx: RequestContext, organizationId: string, body: unknown) {
  const access = await organizationForFields(ctx, organizationId);
  const input = parseInput(CreateCustomFieldInput, body);
  authorize(access.role === 'admin', 'create custom fields in this organization');
  checkOptions(input.type, input.options);
  const existing = await ctx.db.customField.findUnique({
    where: { organizationId_name: { organizationId, name: input.name } },
    select: { id: true },
  });
  if (existing) throw conflict(`name: a custom field named "${input.name}" already exists`);
  const created = await inTransaction(
    ctx,
    (created: CustomFieldRecord) => ({ action: 'custom_field.create', organizationId, target: { type: 'custom-field', id: created.id, label: created.name } }),
    (tx) =>
      tx.db.customField.create({
        data: {
          id: newId('customField'),
          organizationId,
          name: input.name,
          type: input.type,
          title: input.title ?? null,
          description: input.description ?? null,
          placeholder: input.placeholder ?? null,
          ...(input.options ? { options: input.options } : {}),
        },
      }),
  );
  return presentField(ctx, created, access);
}

export async function updateCustomField(ctx: RequestContext, organizationId: string, name: string, body: unknown) {
  const access = await organizationForFields(ctx, organizationId);
  const field = await findField(ctx, organizationId, name);
  const input = parseInput(UpdateCustomFieldInput, body);
  authorize(access.role === 'admin', 'update custom fields in this organization');
  if (input.options) checkOptions(field.type as CustomFieldType, input.options);
  const audit: AuditFacts = { action: 'custom_field.update', organizationId, target: { type: 'custom-field', id: field.id, label: field.name } };
  const updated = await inTransaction(ctx, audit, (tx) =>
    tx.db.customField.update({
      where: { id: field.id },
      data: { title: input.title, description: input.description, placeholder: input.placeholder, options: input.options },
    }),
  );
  return presentField(ctx, updated, access);
}

export async function deleteCustomField(ctx: RequestContext, organizationId: string, name: string): Promise<void> {
  const access = await organizationForFields(ctx, organizationId);
  const field = await findField(ctx, organizationId, name);
  authorize(access.role === 'admin', 'delete custom fields in this organization');
  await inTransaction(
    ctx,
    {
      action: 'custom_field.delete',
      organizationId,
      target: { type: 'custom-field', id: field.id, label: field.name },
    },
    (tx) => tx.db.customField.delete({ where: { id: field.id } }),
  );
}

/** Checks a value against its field's type; returns the message of the broken rule, if any. */
export function valueProblem(field: CustomFieldRecord, value: unknown): string | undefined {
  const options = Array.isArray(field.options) ? (field.options as string[]) : [];
  switch (field.type as CustomFieldType) {
    case 'text':
      return typeof value === 'string' ? undefined : 'must be a string for a text field';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a number for a number field';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false for a boolean field';
    case 'select':
      return typeof value === 'string' && options.includes(value)
        ? undefined
        : `must be one of the field's options: ${options.map((o) => `"${o}"`).join(', ')}`;
    case 'multi-select':
      return Array.isArray(value) && value.every((item) => typeof item === 'string' && options.includes(item))
        ? undefined
        : `must be an array of the field's options: ${options.map((o) => `"${o}"`).join(', ')}`;
  }
}
