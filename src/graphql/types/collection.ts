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

const CollectionUrls = urlsObject('CollectionUrls', ['location', 'app']);
const CollectionPermissions = booleanObject('CollectionPermissions', ['view', 'admin', 'viewInviteLinks', 'create'] as const);

/** Backed by the collection's row (see Space): each field computed when asked. */
export const Collection = builder.loadableNodeRef<CollectionRecord, string>('Collection', {
  id: { resolve: (collection) => collection.id },
  load: (ids, ctx) => loadEach(ids, (id) => collectionRecord(ctx, id)),
});

Collection.implement({
  fields: (t) => ({
    object: t.string({ resolve: () => 'collection' }),
    title: t.exposeString('title'),
    description: t.exposeString('description', { nullable: true }),
    organization: t.field({ type: Organization, resolve: (collection) => collection.organizationId }),
    parent: t.field({ type: Collection, nullable: true, resolve: (collection) => collection.parentId }),
    defaultLevel: t.field({
      type: MemberRole,
      nullable: true,
      description: 'Level of organization members here; null inherits',
      resolve: (collection) => asRole(collection.defaultLevel),
    }),
    urls: t.field({ type: CollectionUrls, resolve: (collection, _args, ctx) => collectionUrls(collection, ctx.urls) }),
    permissions: t.field({
      type: CollectionPermissions,
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
    args: { nested: t.arg.boolean({ description: 'Include nested collections (default true)' }) },
    resolve: async (org, args, ctx) => toConnection(await listOrganizationCollectionRecords(ctx, org.id, connectionQuery(args))),
  }),
);

builder.queryField('collection', (t) =>
  t.field({
    type: Collection,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
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
      organizationId: t.id({ required: true }),
      title: t.string(),
      parent: t.id({ description: 'Parent collection; the top level when absent' }),
    }),
  },
  {
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
      collectionId: t.id({ required: true }),
      title: t.string(),
      description: t.string(),
      defaultLevel: t.field({ type: MemberRole, description: 'null inherits from the parent' }),
    }),
  },
  {
    resolve: async (_root, { input: { collectionId, ...body } }, ctx) => ({
      collection: await updateCollection(ctx, collectionId, body),
    }),
  },
  collectionPayload,
);

builder.relayMutationField(
  'deleteCollection',
  { inputFields: (t) => ({ collectionId: t.id({ required: true }) }) },
  {
    resolve: async (_root, { input: { collectionId } }, ctx) => {
      await deleteCollection(ctx, collectionId);
      return { deletedCollectionId: collectionId };
    },
  },
  { outputFields: (t) => ({ deletedCollectionId: t.exposeID('deletedCollectionId') }) },
);

builder.relayMutationField(
  'moveCollection',
  {
    inputFields: (t) => ({
      collectionId: t.id({ required: true }),
      parent: t.id({ description: 'New parent collection; null for the top level; absent keeps it' }),
      position: t.field({ type: ContentPositionInput }),
    }),
  },
  {
    resolve: async (_root, { input: { collectionId, ...body } }, ctx) => ({
      collection: await moveCollection(ctx, collectionId, body),
    }),
  },
  collectionPayload,
);

builder.relayMutationField(
  'transferCollection',
  { inputFields: (t) => ({ collectionId: t.id({ required: true }), organization: t.id({ required: true }) }) },
  {
    resolve: async (_root, { input: { collectionId, ...body } }, ctx) => ({
      collection: await transferCollection(ctx, collectionId, body),
    }),
  },
  collectionPayload,
);
