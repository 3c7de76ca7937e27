import type { Api, Wire } from '../shared/api-types.ts';
import type { PublicUrls } from '../../config.ts';
import type { CollectionRecord } from '../../db/index.ts';
import { type Role, asRole, collectionPermissions } from '../access.ts';

/** The contract's Collection, which adds `description` to the official one. */
export type CollectionJSON = Wire<Api.Collection> & { description?: string };

export function presentCollection(collection: CollectionRecord, level: Role | null, urls: PublicUrls): CollectionJSON {
  return {
    object: 'collection',
    id: collection.id,
    title: collection.title,
    ...(collection.description ? { description: collection.description } : {}),
    organization: collection.organizationId,
    ...(collection.parentId ? { parent: collection.parentId } : {}),
    defaultLevel: asRole(collection.defaultLevel),
    urls: {
      location: `${urls.api}/v1/collections/${collection.id}`,
      app: `${urls.app}/o/${collection.organizationId}/c/${collection.id}`,
    },
    permissions: collectionPermissions(level),
  };
}
