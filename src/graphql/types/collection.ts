import type { CollectionRecord } from '../../db/index.ts';
import { type CollectionJSON, collectionUrls } from '../../domain/collections/presenter.ts';
import {
  collectionLevel,
  collectionRecord,
  createCollection,
  deleteCollection,
  listOrganizationCollectionRecords,
  listSubCollectionRecords,
  moveCollection,
  transferCollection,
  updateCollection,
} from '../../domain/collections/service.ts';
import { asRole, collectionPermissions } from '../../domain/access.ts';
import { builder } from '../builder.ts';
import { connectionQuery, loadEach, toConnection } from '../connection.ts';
import { ContentPositionInput, MemberRole, booleanObject, urlsObject } from './common.ts';
import { Organization } from './organization.ts';
import { nullIsAValue } from '../null-inputs.ts';

const CollectionUrls = urlsObject('CollectionUrls', ['location', 'app']);
const CollectionPermissions = booleanObject('CollectionPermissions', ['view', 'admin', 'viewInviteLinks', 'create'] as const);

/** Backed by the collection's row (see Space): each field computed when asked. */
export const Collection = builder.loadableNodeRef<CollectionRecord, string>('Collection', {
  id: { resolve: (collection) => collection.id },
  load: (ids, ctx) => loadEach(ids, (id) => collectionRecord(ctx, id)),
});

Collection.implement({
  description: 'A folder of spaces and collections in an organization (REST `/v1/collections/{collectionId}`); seen by members with at least read on it',
  fields: (t) => ({
    object: t.string({ description: 'Always "collection" (the REST `object`)', resolve: () => 'collection' }),
    title: t.exposeString('title', { description: 'Title of the collection' }),
    description: t.exposeString('description', { nullable: true, description: 'Short description of the collection; null when none' }),
    organization: t.field({ type: Organization, description: 'The organization it belongs to', resolve: (collection) => collection.organizationId }),
    parent: t.field({
      type: Collection,
      nullable: true,
      description: 'The collection it is in; null at the top level of the organization',
      resolve: (collection) => collection.parentId,
    }),
    defaultLevel: t.field({
      type: MemberRole,
      nullable: true,
      description: 'Level of organization members here; null inherits',
      resolve: (collection) => asRole(collection.defaultLevel),
    }),
    urls: t.field({
      type: CollectionUrls,
      description: 'Its addresses in this REST API and in the web application',
      resolve: (collection, _args, ctx) => collectionUrls(collection, ctx.urls),
    }),
    permissions: t.field({
      type: CollectionPermissions,
      description: "What the caller may do with it, from the caller's level on it",
      resolve: async (collection, _args, ctx) => collectionPermissions(await collectionLevel(ctx, collection)),
    }),
    collections: t.connection({
      type: Collection,
      description: 'Collections directly inside this one',
      resolve: async (collection, args, ctx) => toConnection(await listSubCollectionRecords(ctx, collection.id, connectionQuery(args))),
    }),
  }),
});

builder.objectField(Organization, 'collections', (t) =>
  t.connection({
    type: Collection,
    description: 'Collections of the organization (callers with a role): all of them, oldest first, or with nested false only the top level, in their order',
    args: { nested: t.arg.boolean({ description: 'Include nested collections (default true)' }) },
    resolve: async (org, args, ctx) => toConnection(await listOrganizationCollectionRecords(ctx, org.id, connectionQuery(args))),
  }),
);

builder.queryField('collection', (t) =>
  t.field({
    type: Collection,
    nullable: true,
    description: 'A collection by id; 404 when the caller cannot see it',
    args: { id: t.arg.id({ required: true, description: 'Id of the collection (`col_…`)' }) },
    resolve: (_root, { id }, ctx) => collectionRecord(ctx, id),
  }),
);

/** A mutation's payload: the collection it acted on, read again as the viewer sees it now. */
const collectionPayload = {
  outputFields: (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, { collection: Pick<CollectionJSON, 'id'> }>) => ({
    collection: t.field({ type: Collection, resolve: (payload, _args, ctx) => collectionRecord(ctx, payload.collection.id) }),
  }),
};

builder.relayMutationField(
  'createCollection',
  {
    inputFields: (t) => ({
      organizationId: t.id({ required: true, description: 'The organization' }),
      title: t.string({ description: 'Title (up to 50 characters); "Untitled" when absent' }),
      parent: t.id({ description: 'Parent collection; the top level when absent' }),
    }),
  },
  {
    description:
      'Creates a collection, last among its siblings (create level where it goes: on the parent collection, or the organization role at the top level)',
    resolve: async (_root, { input: { organizationId, ...body } }, ctx) => ({
      collection: await createCollection(ctx, organizationId, body),
    }),
  },
  collectionPayload,
);

builder.relayMutationField(
  'updateCollection',
  {
    inputFields: (t) => ({
      collectionId: t.id({ required: true, description: 'The collection' }),
      title: t.string({ description: 'New title (up to 50 characters)' }),
      description: t.string({ description: 'New description (up to 100 characters)' }),
      defaultLevel: t.field({ ...nullIsAValue, type: MemberRole, description: 'null inherits from the parent' }),
    }),
  },
  {
    description: 'Changes a collection (admin level on it); fields left out stay as they are',
    resolve: async (_root, { input: { collectionId, ...body } }, ctx) => ({
      collection: await updateCollection(ctx, collectionId, body),
    }),
  },
  collectionPayload,
);

builder.relayMutationField(
  'deleteCollection',
  { inputFields: (t) => ({ collectionId: t.id({ required: true, description: 'The collection' }) }) },
  {
    description: 'Deletes a collection with the collections below it (admin level on each, and on their spaces); their spaces are deleted the restorable way',
    resolve: async (_root, { input: { collectionId } }, ctx) => {
      await deleteCollection(ctx, collectionId);
      return { deletedCollectionId: collectionId };
    },
  },
  { outputFields: (t) => ({ deletedCollectionId: t.exposeID('deletedCollectionId', { description: 'Id of the collection deleted' }) }) },
);

builder.relayMutationField(
  'moveCollection',
  {
    inputFields: (t) => ({
      collectionId: t.id({ required: true, description: 'The collection' }),
      parent: t.id({ ...nullIsAValue, description: 'New parent collection; null for the top level; absent keeps it' }),
      position: t.field({ type: ContentPositionInput, description: 'Where among its siblings under the parent; last when absent' }),
    }),
  },
  {
    description:
      'Moves a collection under another parent and/or among its siblings (admin level on it, and create where it goes); give parent, position or both',
    resolve: async (_root, { input: { collectionId, ...body } }, ctx) => ({
      collection: await moveCollection(ctx, collectionId, body),
    }),
  },
  collectionPayload,
);

builder.relayMutationField(
  'transferCollection',
  {
    inputFields: (t) => ({
      collectionId: t.id({ required: true, description: 'The collection' }),
      organization: t.id({ required: true, description: 'Id of the organization to move it to' }),
    }),
  },
  {
    description:
      'Moves a collection, with everything below it, to the top level of another organization (admin level on everything in it, and admin of the target organization); custom field values of its spaces are dropped',
    resolve: async (_root, { input: { collectionId, ...body } }, ctx) => ({
      collection: await transferCollection(ctx, collectionId, body),
    }),
  },
  collectionPayload,
);
