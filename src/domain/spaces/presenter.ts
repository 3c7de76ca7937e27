import { type AddressSet, renderAddresses } from '../shared/addresses.ts';
import type { Api, Wire } from '../shared/api-types.ts';
import type { PublicUrls } from '../../config.ts';
import type { SpaceRecord } from '../../db/index.ts';
import { type Role, asRole, spacePermissions } from '../access.ts';
import { changeRequestCountsOf } from '../change-requests/counts.ts';

export type SpaceJSON = Wire<Api.Space>;

/** The addresses of a space (its `urls`). */
export const SPACE_ADDRESSES = {
  location: { address: [{ base: 'api' }, '/v1/spaces/', { column: 'id' }] },
  app: { address: [{ base: 'app' }, '/s/', { column: 'id' }] },
  icon: { address: [{ column: 'icon' }], when: 'icon' },
} satisfies AddressSet;

/** Fields computed from a space row, shared by REST's presenter and GraphQL's resolvers. */
export function spaceUrls(space: SpaceRecord, urls: PublicUrls): SpaceJSON['urls'] {
  return renderAddresses(SPACE_ADDRESSES, space, urls) as SpaceJSON['urls'];
}

/**
 * `openComments`: the open comments on the space's own content (those of its
 * change requests count on each change request), see src/domain/comments/counts.ts.
 */
export function presentSpace(space: SpaceRecord, level: Role | null, urls: PublicUrls, openComments: number): SpaceJSON {
  return {
    object: 'space',
    id: space.id,
    title: space.title,
    emoji: space.emoji,
    visibility: space.visibility as SpaceJSON['visibility'],
    createdAt: space.createdAt.toISOString(),
    updatedAt: space.updatedAt.toISOString(),
    ...(space.deletedAt ? { deletedAt: space.deletedAt.toISOString() } : {}),
    editMode: space.editMode as SpaceJSON['editMode'],
    mergeRules: space.mergeRules as unknown as SpaceJSON['mergeRules'],
    urls: spaceUrls(space, urls),
    organization: space.organizationId,
    ...(space.parentId ? { parent: space.parentId } : {}),
    ...(space.language ? { language: space.language as SpaceJSON['language'] } : {}),
    revision: space.revisionId,
    defaultLevel: asRole(space.defaultLevel),
    comments: openComments,
    ...changeRequestCountsOf(space),
    permissions: spacePermissions(level, space.editMode),
  };
}
