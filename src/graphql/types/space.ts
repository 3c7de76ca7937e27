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
import type { SPACE_EDIT_MODES } from '../../domain/spaces/inputs.ts';
import type { Language as LanguageCode } from '../../domain/shared/languages.ts';
import { organizationRecord } from '../../domain/organizations/service.ts';
import { nullIfHidden } from '../../errors.ts';
import { builder } from '../builder.ts';
import { connectionQuery, loadEach, toConnection } from '../connection.ts';
import { Collection } from './collection.ts';
import { ContentPositionInput, Language, MemberRole, booleanObject, restEnum, urlsObject } from './common.ts';
import { CustomField } from './custom-field.ts';
import { Organization } from './organization.ts';
import { nullIsAValue } from '../null-inputs.ts';

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

const SpaceVisibility = restEnum('SpaceVisibility', 'Who may read a space (REST `visibility`)', {
  public: 'Anyone, through a published site',
  unlisted: 'Anyone with its address, through a published site',
  'share-link': 'Anyone with a share link of its site',
  'visitor-auth': 'Visitors authenticated by its site',
  'in-collection': 'As its collection decides',
  private: 'Members only (the default: access here follows member roles)',
});

const SpaceEditMode = restEnum('SpaceEditMode', 'How the content of a space is edited (REST `editMode`)', {
  live: 'Members with edit may change the content directly (the default)',
  locked: 'Nobody edits the content or custom fields; change requests still merge',
});

type CustomFieldValue = Awaited<ReturnType<typeof getSpaceCustomFields>>[number];

const SpaceCustomFieldValue = builder.objectRef<CustomFieldValue>('SpaceCustomFieldValue').implement({
  description: 'The value of one custom field on a space',
  fields: (t) => ({
    customField: t.expose('customField', { type: CustomField, description: 'The custom field' }),
    value: t.expose('value', {
      type: 'JSON',
      description: 'Its value, of the field type: a string, number, boolean, or list of option names for multi-select',
    }),
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
  page: ['revisionId'],
  // Their own reads (of the sync state; of the binding and the space, for the viewer's level).
  gitSync: [],
  gitBinding: [],
  // Grants (types/permission.ts): their own reads, the space's level for the viewer among them.
  userPermissions: [],
  teamPermissions: [],
  permissionsAggregate: [],
};

export const Space = builder.loadableNodeRef<SpaceRecord, string>('Space', {
  id: { resolve: (space) => space.id },
  load: (ids, ctx) => loadEach(ids, (id) => spaceRecord(ctx, id)),
});

Space.implement({
  description:
    'A body of content: a tree of pages and files, changed directly or through change requests (REST `/v1/spaces/{spaceId}`); seen by members with at least read on it, and by visitors of a site publishing it',
  fields: (t) => ({
    object: t.string({ description: 'Always "space" (the REST `object`)', resolve: () => 'space' }),
    title: t.exposeString('title', { description: 'Title of the space' }),
    emoji: t.exposeString('emoji', { description: 'Emoji shown before the title; empty when none' }),
    visibility: t.field({ type: SpaceVisibility, description: 'Who may read it', resolve: (space) => space.visibility as SpaceJSON['visibility'] }),
    createdAt: t.field({ type: 'DateTime', description: 'When it was created', resolve: (space) => space.createdAt.toISOString() }),
    updatedAt: t.field({ type: 'DateTime', description: 'When its settings last changed', resolve: (space) => space.updatedAt.toISOString() }),
    deletedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When it was deleted (it can be restored for 7 days); null unless deleted',
      resolve: (space) => space.deletedAt?.toISOString() ?? null,
    }),
    editMode: t.field({
      type: SpaceEditMode,
      nullable: true,
      description: 'How its content is edited',
      resolve: (space) => space.editMode as (typeof SPACE_EDIT_MODES)[number],
    }),
    mergeRules: t.expose('mergeRules', {
      type: 'JSON',
      description: 'Rules for merging change requests: `{type: "inherit"}` from the organization, or its own (REST `mergeRules`)',
    }),
    urls: t.field({
      type: SpaceUrls,
      description: 'Its addresses in this REST API and in the web application',
      resolve: (space, _args, ctx) => spaceUrls(space, ctx.urls),
    }),
    organization: t.field({
      type: Organization,
      nullable: true,
      description: 'Null for visitors of a published site who are not members',
      resolve: (space, _args, ctx) => nullIfHidden(organizationRecord(ctx, space.organizationId)),
    }),
    parent: t.field({
      type: Collection,
      nullable: true,
      description: 'The collection it is in; null at the top level of the organization',
      resolve: (space) => space.parentId,
    }),
    language: t.field({
      type: Language,
      nullable: true,
      description: 'Language of its content; null when not set',
      resolve: (space) => space.language as LanguageCode | null,
    }),
    revision: t.exposeString('revisionId', { description: 'Id of its current revision (the content itself: `content`)' }),
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
    changeRequests: t.int({
      description: 'Change requests open or in draft (the list: changeRequestsConnection)',
      resolve: (space) => changeRequestCountsOf(space).changeRequests,
    }),
    changeRequestsOpen: t.int({ description: 'Change requests open for review', resolve: (space) => space.changeRequestsOpen }),
    changeRequestsDraft: t.int({ description: 'Change requests in draft', resolve: (space) => space.changeRequestsDraft }),
    permissions: t.field({
      type: SpacePermissions,
      description: "What the caller may do with it, from the caller's level on it and its edit mode",
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
    description: 'Spaces of the organization the caller can see, in any collection, oldest first (deleted ones excluded)',
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
    description: 'A space by id; 404 when the caller cannot see it',
    args: {
      id: t.arg.id({ required: true, description: 'Id of the space' }),
      shareKey: t.arg.string({ description: 'A share link key (accepted as in REST; it opens published content, never a space itself)' }),
    },
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
      organizationId: t.id({ required: true, description: 'The organization' }),
      title: t.string({ description: 'Title (1 to 50 characters, not blank); "Untitled" when absent' }),
      emoji: t.string({ description: 'Emoji shown before the title' }),
      parent: t.id({ description: 'Parent collection; the top level when absent' }),
      language: t.field({ type: Language, description: 'Language of its content' }),
      editMode: t.field({ type: SpaceEditMode, description: 'How its content is edited; live when absent' }),
    }),
  },
  {
    description:
      'Creates an empty space, last among its siblings (create level where it goes: on the parent collection, or the organization role at the top level)',
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
      spaceId: t.id({ required: true, description: 'The space' }),
      title: t.string({ description: 'New title (1 to 50 characters, not blank)' }),
      emoji: t.string({ ...nullIsAValue, description: 'Emoji shown before the title (replaces the icon); null removes it' }),
      icon: t.string({ ...nullIsAValue, description: 'URL of an icon (replaces the emoji); null removes it' }),
      editMode: t.field({ type: SpaceEditMode, description: 'How its content is edited' }),
      defaultLevel: t.field({ ...nullIsAValue, type: MemberRole, description: 'null inherits from the parent' }),
      language: t.field({ type: Language, description: 'Language of its content' }),
      mergeRules: t.field({
        type: 'JSON',
        description: '`{type: "inherit"}` follows the organization; otherwise its own rules, as in REST `mergeRules`',
      }),
    }),
  },
  {
    description: 'Changes the settings of a space (admins of the space); absent fields are kept',
    resolve: async (_root, { input: { spaceId, ...body } }, ctx) => ({ space: await updateSpace(ctx, spaceId, body) }),
  },
  spacePayload,
);

builder.relayMutationField(
  'deleteSpace',
  {
    inputFields: (t) => ({ spaceId: t.id({ required: true, description: 'The space' }) }),
  },
  {
    description: 'Deletes a space (admins of the space); it can be restored for 7 days. Deleting a deleted space changes nothing',
    resolve: async (_root, { input: { spaceId } }, ctx) => {
      await deleteSpace(ctx, spaceId);
      return { space: { id: spaceId } };
    },
  },
  spacePayload,
);

for (const [name, action, description] of [
  ['restoreSpace', restoreSpace, 'Restores a space deleted less than 7 days ago (admins of the space), last among its siblings'],
  [
    'duplicateSpace',
    duplicateSpace,
    'Copies a space, its content and custom field values right after it (create level where it is); the payload holds the copy',
  ],
] as const) {
  builder.relayMutationField(
    name,
    { inputFields: (t) => ({ spaceId: t.id({ required: true, description: 'The space' }) }) },
    { description, resolve: async (_root, { input: { spaceId } }, ctx) => ({ space: await action(ctx, spaceId) }) },
    spacePayload,
  );
}

builder.relayMutationField(
  'moveSpace',
  {
    inputFields: (t) => ({
      spaceId: t.id({ required: true, description: 'The space' }),
      parent: t.id({ ...nullIsAValue, description: 'New parent collection; null for the top level; absent keeps it' }),
      position: t.field({ type: ContentPositionInput, description: 'Where among its new siblings; the end when absent' }),
    }),
  },
  {
    description: 'Moves a space to another collection of its organization or among its siblings (admins of the space, create on a new parent)',
    resolve: async (_root, { input: { spaceId, ...body } }, ctx) => ({ space: await moveSpace(ctx, spaceId, body) }),
  },
  spacePayload,
);

builder.relayMutationField(
  'transferSpace',
  {
    inputFields: (t) => ({
      spaceId: t.id({ required: true, description: 'The space' }),
      organization: t.id({ required: true, description: 'The organization to move it to, which the caller administers' }),
    }),
  },
  {
    description: 'Moves a space to the top level of another organization (admins of the space and of the target); its custom field values stay behind',
    resolve: async (_root, { input: { spaceId, ...body } }, ctx) => ({ space: await transferSpace(ctx, spaceId, body) }),
  },
  spacePayload,
);

const CustomFieldValueInput = builder.inputType('CustomFieldValueInput', {
  description: 'A value for one custom field, by name',
  fields: (t) => ({
    name: t.string({ required: true, description: 'Name of the custom field' }),
    value: t.field({ ...nullIsAValue, type: 'JSON', description: 'A value of the field type; null clears it' }),
  }),
});

builder.relayMutationField(
  'updateSpaceCustomFields',
  {
    inputFields: (t) => ({
      spaceId: t.id({ required: true, description: 'The space' }),
      values: t.field({ type: [CustomFieldValueInput], required: true, description: 'The values to set or clear (up to 100); others are kept' }),
    }),
  },
  {
    description: 'Sets or clears custom field values of a space, all or none (edit level; not on a locked space)',
    resolve: async (_root, { input: { spaceId, values } }, ctx) => {
      const byName = Object.fromEntries(values.map((entry) => [entry.name, { value: entry.value ?? null }]));
      await updateSpaceCustomFields(ctx, spaceId, { values: byName });
      return { space: { id: spaceId } };
    },
  },
  spacePayload,
);
