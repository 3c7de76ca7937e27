import type { Api, Wire } from '../shared/api-types.ts';
import type { PublicUrls } from '../../config.ts';
import type { CollectionRecord } from '../../db/index.ts';
import { type Role, asRole, collectionPermissions } from '../access.ts';

/** The contract's Collection, which adds `description` to the official one. */
export type CollectionJSON = Wire<Api.Collection> & { description?: string };

/** Fields computed from a collection row, shared by REST's presenter and GraphQL's resolvers. */
export function collectionUrls(collection: CollectionRecord, urls: PublicUrls): CollectionJSON['urls'] {
  return {
    location: `${urls.api}/v1/collections/${collection.id}`,
    app: `${urls.app}/o/${collection.organizationId}/c/${collection.id}`,
  };
}

export function presentCollection(collection: CollectionRecord, level: Role | null, urls: PublicUrls): CollectionJSON {
  return {
    object: 'collection',
    id: collection.id,
    title: collection.title,
    ...(collection.description ? { description: collection.description } : {}),
    organization: collection.organizationId,
    ...(collection.parentId ? { parent: collection.parentId } : {}),
    defaultLevel: asRole(collection.defaultLevel),
    urls: collectionUrls(collection, urls),
    permissions: collectionPermissions(level),
  };
}
