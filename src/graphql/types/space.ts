import type { SpaceJSON } from '../../domain/spaces/presenter.ts';
import {
  createSpace,
  deleteSpace,
  duplicateSpace,
  getSpace,
  getSpaceCustomFields,
  listCollectionSpaces,
  listOrganizationSpaces,
  moveSpace,
  restoreSpace,
  transferSpace,
  updateSpace,
  updateSpaceCustomFields,
} from '../../domain/spaces/service.ts';
import { asRole } from '../../domain/access.ts';
import { organizationRecord } from '../../domain/organizations/service.ts';
import { nullIfHidden } from '../../errors.ts';
import { builder } from '../builder.ts';
import { connectionQuery, loadEach, toConnection } from '../connection.ts';
import { Collection } from './collection.ts';
import { ContentPositionInput, MemberRole, booleanObject, urlsObject } from './common.ts';
import { CustomField } from './custom-field.ts';
import { Organization } from './organization.ts';

const SpaceUrls = urlsObject('SpaceUrls', ['location', 'app'], ['published', 'public', 'icon']);
const SpacePermissions = booleanObject('SpacePermissions', [
  'view',
  'access',
  'admin',
  'viewInviteLinks',
  'edit',
  'triggerGitSync',
  'comment',
  'merge',
  'review',
  'installIntegration',
] as const);

type CustomFieldValue = Awaited<ReturnType<typeof getSpaceCustomFields>>[number];

const SpaceCustomFieldValue = builder.objectRef<CustomFieldValue>('SpaceCustomFieldValue').implement({
  fields: (t) => ({
    customField: t.field({ type: CustomField, resolve: (entry) => entry.customField }),
    value: t.field({ type: 'JSON', resolve: (entry) => entry.value }),
  }),
});

export const Space = builder.loadableNodeRef<SpaceJSON, string>('Space', {
  id: { resolve: (space) => space.id },
  load: (ids, ctx) => loadEach(ids, (id) => getSpace(ctx, id)),
});

Space.implement({
  fields: (t) => ({
    object: t.exposeString('object'),
    title: t.exposeString('title'),
    emoji: t.exposeString('emoji'),
    visibility: t.exposeString('visibility'),
    createdAt: t.field({ type: 'DateTime', resolve: (space) => space.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (space) => space.updatedAt }),
    deletedAt: t.field({ type: 'DateTime', nullable: true, resolve: (space) => space.deletedAt ?? null }),
    editMode: t.exposeString('editMode', { nullable: true }),
    mergeRules: t.field({ type: 'JSON', resolve: (space) => space.mergeRules }),
    urls: t.field({ type: SpaceUrls, resolve: (space) => space.urls }),
    organization: t.field({
      type: Organization,
      nullable: true,
      description: 'Null for visitors of a published site who are not members',
      resolve: (space, _args, ctx) => nullIfHidden(organizationRecord(ctx, space.organization)),
    }),
    parent: t.field({ type: Collection, nullable: true, resolve: (space) => space.parent ?? null }),
    language: t.exposeString('language', { nullable: true }),
    revision: t.exposeString('revision'),
    defaultLevel: t.field({
      type: MemberRole,
      nullable: true,
      description: 'Level of organization members here; null inherits',
      resolve: (space) => asRole(space.defaultLevel),
    }),
    comments: t.exposeInt('comments'),
    changeRequests: t.exposeInt('changeRequests'),
    changeRequestsOpen: t.exposeInt('changeRequestsOpen'),
    changeRequestsDraft: t.exposeInt('changeRequestsDraft'),
    permissions: t.field({ type: SpacePermissions, resolve: (space) => space.permissions }),
    customFields: t.field({
      type: [SpaceCustomFieldValue],
      description: 'Custom field values set on the space',
      resolve: (space, _args, ctx) => getSpaceCustomFields(ctx, space.id),
    }),
  }),
});

builder.objectField(Organization, 'spaces', (t) =>
  t.connection({
    type: Space,
    resolve: async (org, args, ctx) => toConnection(await listOrganizationSpaces(ctx, org.id, connectionQuery(args))),
  }),
);

builder.objectField(Collection, 'spaces', (t) =>
  t.connection({
    type: Space,
    description: 'Spaces directly inside the collection',
    resolve: async (collection, args, ctx) =>
      toConnection(await listCollectionSpaces(ctx, collection.id, connectionQuery(args))),
  }),
);

builder.queryField('space', (t) =>
  t.field({
    type: Space,
    nullable: true,
    args: { id: t.arg.id({ required: true }), shareKey: t.arg.string() },
    resolve: (_root, { id, ...query }, ctx) => getSpace(ctx, id, connectionQuery(query)),
  }),
);

const spacePayload = {
  outputFields: (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, { space: SpaceJSON }>) => ({
    space: t.field({ type: Space, resolve: (payload) => payload.space }),
  }),
};

builder.relayMutationField(
  'createSpace',
  {
    inputFields: (t) => ({
      organizationId: t.id({ required: true }),
      title: t.string(),
      emoji: t.string(),
      parent: t.id({ description: 'Parent collection; the top level when absent' }),
      language: t.string(),
      editMode: t.string(),
    }),
  },
  {
    resolve: async (_root, { input: { organizationId, ...body } }, ctx) => ({
      space: await createSpace(ctx, organizationId, body),
    }),
  },
  spacePayload,
);

builder.relayMutationField(
  'updateSpace',
  {
    inputFields: (t) => ({
      spaceId: t.id({ required: true }),
      title: t.string(),
      emoji: t.string({ description: 'null removes it' }),
      icon: t.string({ description: 'URL of an icon; null removes it' }),
      editMode: t.string(),
      defaultLevel: t.field({ type: MemberRole, description: 'null inherits from the parent' }),
      language: t.string(),
      mergeRules: t.field({ type: 'JSON' }),
    }),
  },
  {
    resolve: async (_root, { input: { spaceId, ...body } }, ctx) => ({ space: await updateSpace(ctx, spaceId, body) }),
  },
  spacePayload,
);

builder.relayMutationField(
  'deleteSpace',
  {
    description: 'Deletes a space; it can be restored for 7 days',
    inputFields: (t) => ({ spaceId: t.id({ required: true }) }),
  },
  {
    resolve: async (_root, { input: { spaceId } }, ctx) => {
      await deleteSpace(ctx, spaceId);
      return { space: await getSpace(ctx, spaceId) };
    },
  },
  spacePayload,
);

for (const [name, action, description] of [
  ['restoreSpace', restoreSpace, 'Restores a space deleted less than 7 days ago'],
  ['duplicateSpace', duplicateSpace, 'Copies a space next to it; the payload holds the copy'],
] as const) {
  builder.relayMutationField(
    name,
    { description, inputFields: (t) => ({ spaceId: t.id({ required: true }) }) },
    { resolve: async (_root, { input: { spaceId } }, ctx) => ({ space: await action(ctx, spaceId) }) },
    spacePayload,
  );
}

builder.relayMutationField(
  'moveSpace',
  {
    inputFields: (t) => ({
      spaceId: t.id({ required: true }),
      parent: t.id({ description: 'New parent collection; null for the top level; absent keeps it' }),
      position: t.field({ type: ContentPositionInput }),
    }),
  },
  {
    resolve: async (_root, { input: { spaceId, ...body } }, ctx) => ({ space: await moveSpace(ctx, spaceId, body) }),
  },
  spacePayload,
);

builder.relayMutationField(
  'transferSpace',
  { inputFields: (t) => ({ spaceId: t.id({ required: true }), organization: t.id({ required: true }) }) },
  {
    resolve: async (_root, { input: { spaceId, ...body } }, ctx) => ({ space: await transferSpace(ctx, spaceId, body) }),
  },
  spacePayload,
);

const CustomFieldValueInput = builder.inputType('CustomFieldValueInput', {
  fields: (t) => ({
    name: t.string({ required: true, description: 'Name of the custom field' }),
    value: t.field({ type: 'JSON', description: 'A value of the field type; null clears it' }),
  }),
});

builder.relayMutationField(
  'updateSpaceCustomFields',
  {
    inputFields: (t) => ({
      spaceId: t.id({ required: true }),
      values: t.field({ type: [CustomFieldValueInput], required: true }),
    }),
  },
  {
    resolve: async (_root, { input: { spaceId, values } }, ctx) => {
      const byName = Object.fromEntries(values.map((entry) => [entry.name, { value: entry.value ?? null }]));
      await updateSpaceCustomFields(ctx, spaceId, { values: byName });
      return { space: await getSpace(ctx, spaceId) };
    },
  },
  spacePayload,
);
