import {
  CreateCollectionInput,
  ListCollectionSpacesQuery,
  ListCollectionsQuery,
  UpdateCollectionInput,
} from '../../domain/collections/inputs.ts';
import {
  createCollection,
  deleteCollection,
  getCollection,
  listOrganizationCollections,
  moveCollection,
  transferCollection,
  updateCollection,
} from '../../domain/collections/service.ts';
import { moveContentInput, transferInput } from '../../domain/shared/schemas.ts';
import { listCollectionSpaces } from '../../domain/spaces/service.ts';
import { restList } from '../../lib/pagination.ts';
import { route } from '../route.ts';

const tag = 'Collections';

export const collectionRoutes = [
  route({
    method: 'GET',
    path: '/v1/orgs/{organizationId}/collections',
    operationId: 'listCollectionsInOrganizationById',
    summary: 'Collections of an organization (nested ones too unless nested=false)',
    tag,
    query: ListCollectionsQuery,
    status: 200,
    response: 'Collection',
    list: true,
    handler: async (ctx, { params, query }) =>
      restList(await listOrganizationCollections(ctx, params.organizationId!, query)),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/{organizationId}/collections',
    operationId: 'createCollection',
    summary: 'Create a collection',
    tag,
    body: CreateCollectionInput,
    status: 201,
    response: 'Collection',
    handler: (ctx, { params, body }) => createCollection(ctx, params.organizationId!, body),
  }),
  route({
    method: 'GET',
    path: '/v1/collections/{collectionId}',
    operationId: 'getCollectionById',
    summary: 'A collection',
    tag,
    status: 200,
    response: 'Collection',
    handler: (ctx, { params }) => getCollection(ctx, params.collectionId!),
  }),
  route({
    method: 'PATCH',
    path: '/v1/collections/{collectionId}',
    operationId: 'updateCollectionById',
    summary: 'Update a collection',
    tag,
    body: UpdateCollectionInput,
    status: 200,
    response: 'Collection',
    handler: (ctx, { params, body }) => updateCollection(ctx, params.collectionId!, body),
  }),
  route({
    method: 'DELETE',
    path: '/v1/collections/{collectionId}',
    operationId: 'deleteCollectionById',
    summary: 'Delete a collection, the collections below it, and (restorably) their spaces',
    tag,
    status: 205,
    handler: (ctx, { params }) => deleteCollection(ctx, params.collectionId!),
  }),
  route({
    method: 'GET',
    path: '/v1/collections/{collectionId}/spaces',
    operationId: 'listSpacesInCollectionById',
    summary: 'Spaces directly in a collection',
    tag,
    query: ListCollectionSpacesQuery,
    status: 200,
    response: 'Space',
    list: true,
    handler: async (ctx, { params, query }) => restList(await listCollectionSpaces(ctx, params.collectionId!, query)),
  }),
  route({
    method: 'POST',
    path: '/v1/collections/{collectionId}/move',
    operationId: 'moveCollection',
    summary: 'Move a collection under another parent and/or among its siblings',
    tag,
    body: moveContentInput,
    status: 200,
    response: 'Collection',
    handler: (ctx, { params, body }) => moveCollection(ctx, params.collectionId!, body),
  }),
  route({
    method: 'POST',
    path: '/v1/collections/{collectionId}/transfer',
    operationId: 'transferCollection',
    summary: 'Transfer a collection to another organization the caller administers',
    tag,
    body: transferInput,
    status: 200,
    response: 'Collection',
    handler: (ctx, { params, body }) => transferCollection(ctx, params.collectionId!, body),
  }),
];
