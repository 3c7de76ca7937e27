import type { SpaceRecord } from '../../db/index.ts';
import { changeRequestCountsOf } from '../../domain/change-requests/counts.ts';
import { type SpaceJSON, spaceUrls } from '../../domain/spaces/presenter.ts';
import { spaceOpenComments } from '../../domain/comments/counts.ts';
import {
  createSpace,
  deleteSpace,
  duplicateSpace,
  getSpaceCustomFields,
  listCollectionSpaceRecords,
  listOrganizationSpaceRecords,
  moveSpace,
  restoreSpace,
  spaceLevel,
  spaceRecord,
  transferSpace,
  updateSpace,
  updateSpaceCustomFields,
} from '../../domain/spaces/service.ts';
import { asRole, spacePermissions } from '../../domain/access.ts';
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

/**
 * Backed by the space's row, read by an authorized loader or listing: each field
 * is computed when a query asks for it (the viewer's level for `permissions`,
 * the organization), by the functions REST's presenter uses.
 */
/** The columns each field of Space reads (src/graphql/columns.ts). */
export const SPACE_FIELD_COLUMNS: Record<string, readonly string[]> = {
  __typename: [],
  id: [],
  object: [],
  title: ['title'],
  emoji: ['emoji'],
  visibility: ['visibility'],
  createdAt: ['createdAt'],
  updatedAt: ['updatedAt'],
  deletedAt: ['deletedAt'],
  editMode: ['editMode'],
  mergeRules: ['mergeRules'],
  urls: ['icon'],
  organization: [],
  parent: ['parentId'],
  language: ['language'],
  revision: ['revisionId'],
  defaultLevel: ['defaultLevel'],
  comments: [],
  changeRequests: ['changeRequestsOpen', 'changeRequestsDraft'],
  changeRequestsOpen: ['changeRequestsOpen'],
  changeRequestsDraft: ['changeRequestsDraft'],
  permissions: ['defaultLevel', 'parentId', 'editMode'],
  customFields: [],
  sites: [],
  content: ['revisionId'],
  changeRequestsConnection: [],
  commentsConnection: [],
  search: [],
  links: ['revisionId'],
};

export const Space = builder.loadableNodeRef<SpaceRecord, string>('Space', {
  id: { resolve: (space) => space.id },
  load: (ids, ctx) => loadEach(ids, (id) => spaceRecord(ctx, id)),
});

Space.implement({
  fields: (t) => ({
    object: t.string({ resolve: () => 'space' }),
    title: t.exposeString('title'),
    emoji: t.exposeString('emoji'),
    visibility: t.exposeString('visibility'),
    createdAt: t.field({ type: 'DateTime', resolve: (space) => space.createdAt.toISOString() }),
    updatedAt: t.field({ type: 'DateTime', resolve: (space) => space.updatedAt.toISOString() }),
    deletedAt: t.field({ type: 'DateTime', nullable: true, resolve: (space) => space.deletedAt?.toISOString() ?? null }),
    editMode: t.exposeString('editMode', { nullable: true }),
    mergeRules: t.field({ type: 'JSON', resolve: (space) => space.mergeRules }),
    urls: t.field({ type: SpaceUrls, resolve: (space, _args, ctx) => spaceUrls(space, ctx.urls) }),
    organization: t.field({
      type: Organization,
      nullable: true,
      description: 'Null for visitors of a published site who are not members',
      resolve: (space, _args, ctx) => nullIfHidden(organizationRecord(ctx, space.organizationId)),
    }),
    parent: t.field({ type: Collection, nullable: true, resolve: (space) => space.parentId }),
    language: t.exposeString('language', { nullable: true }),
    revision: t.exposeString('revisionId'),
    defaultLevel: t.field({
      type: MemberRole,
      nullable: true,
      description: 'Level of organization members here; null inherits',
      resolve: (space) => asRole(space.defaultLevel),
    }),
    comments: t.int({
      description: "Open comments on the space's own content (the list: commentsConnection)",
      resolve: (space, _args, ctx) => spaceOpenComments(ctx, space),
    }),
    changeRequests: t.int({ resolve: (space) => changeRequestCountsOf(space).changeRequests }),
    changeRequestsOpen: t.int({ resolve: (space) => space.changeRequestsOpen }),
    changeRequestsDraft: t.int({ resolve: (space) => space.changeRequestsDraft }),
    permissions: t.field({
      type: SpacePermissions,
      resolve: async (space, _args, ctx) => spacePermissions(await spaceLevel(ctx, space), space.editMode),
    }),
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
    resolve: async (org, args, ctx) => toConnection(await listOrganizationSpaceRecords(ctx, org.id, connectionQuery(args))),
  }),
);

builder.objectField(Collection, 'spaces', (t) =>
  t.connection({
    type: Space,
    description: 'Spaces directly inside the collection',
    resolve: async (collection, args, ctx) => toConnection(await listCollectionSpaceRecords(ctx, collection.id, connectionQuery(args))),
  }),
);

builder.queryField('space', (t) =>
  t.field({
    type: Space,
    nullable: true,
    args: { id: t.arg.id({ required: true }), shareKey: t.arg.string() },
    resolve: (_root, { id, ...query }, ctx) => spaceRecord(ctx, id, connectionQuery(query)),
  }),
);

/** A mutation's payload: the space it acted on, read again as the viewer sees it now. */
const spacePayload = {
  outputFields: (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, { space: Pick<SpaceJSON, 'id'> }>) => ({
    space: t.field({ type: Space, resolve: (payload, _args, ctx) => spaceRecord(ctx, payload.space.id) }),
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
      return { space: { id: spaceId } };
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
      return { space: { id: spaceId } };
    },
  },
  spacePayload,
);
