import { type AddressSet, renderAddresses } from '../shared/addresses.ts';
import type { Api, Wire } from '../shared/api-types.ts';
import type { PublicUrls } from '../../config.ts';
import type { CollectionRecord } from '../../db/index.ts';
import { type Role, asRole, collectionPermissions } from '../access.ts';

/** The contract's Collection, which adds `description` to the official one. */
export type CollectionJSON = Wire<Api.Collection> & { description?: string };

/** The addresses of a collection (its `urls`). */
export const COLLECTION_ADDRESSES = {
  location: { address: [{ base: 'api' }, '/v1/collections/', { column: 'id' }] },
  app: { address: [{ base: 'app' }, '/o/', { column: 'organizationId' }, '/c/', { column: 'id' }] },
} satisfies AddressSet;

/** Fields computed from a collection row, shared by REST's presenter and GraphQL's resolvers. */
export function collectionUrls(collection: CollectionRecord, urls: PublicUrls): CollectionJSON['urls'] {
  return renderAddresses(COLLECTION_ADDRESSES, collection, urls) as CollectionJSON['urls'];
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
