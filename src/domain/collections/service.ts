import type { RequestContext } from '../../context.ts';
import type { AuditFacts } from '../audit/record.ts';
import type { CollectionRecord } from '../../db/index.ts';
import { invalid, notFound } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { type Ordering, type Page, pageRequestOf } from '../../lib/pagination.ts';
import { parseInput } from '../../lib/validation.ts';
import { type Role, atLeast, authorize } from '../access.ts';
import { loader } from '../loaders.ts';
import { organizationAccess, visibleOrganization } from '../organizations/service.ts';
import { ancestry, collectionNode, collectionRecords, endPosition, levelOn, positionAmongSiblings, spaceNode } from '../shared/content-tree.ts';
import { type ChildListing, countsBy, listChildren, mapPage } from '../shared/pages.ts';
import { moveContentInput, transferInput } from '../shared/schemas.ts';
import { emitEvent, emitSpaceTransfer } from '../events/emit.ts';
import { grantedReach } from '../permissions/grants.ts';
import { inTransaction } from '../transaction.ts';
import { CreateCollectionInput, ListCollectionSpacesQuery, ListCollectionsQuery, UpdateCollectionInput } from './inputs.ts';
import { type CollectionJSON, presentCollection } from './presenter.ts';
import { pushAll } from '../../lib/arrays.ts';

export { collectionRecords };

/** The viewer's level on a collection (null: none). */
export function collectionLevel(ctx: RequestContext, collection: CollectionRecord): Promise<Role | null> {
  return levelOn(ctx, collectionNode(collection));
}

async function present(ctx: RequestContext, collection: CollectionRecord): Promise<CollectionJSON> {
  return presentCollection(collection, await collectionLevel(ctx, collection), ctx.urls);
}

/** A collection the viewer can see, with its level; anything else is a 404. */
export async function visibleCollection(ctx: RequestContext, collectionId: string): Promise<{ collection: CollectionRecord; level: Role }> {
  const collection = await loader(ctx, collectionRecords).load(collectionId);
  const level = collection ? await levelOn(ctx, collectionNode(collection)) : null;
  if (!collection || !level) throw notFound('Collection', collectionId);
  return { collection, level };
}

/** The row of a collection the viewer can see; anything else is a 404. */
export async function collectionRecord(ctx: RequestContext, collectionId: string): Promise<CollectionRecord> {
  return (await visibleCollection(ctx, collectionId)).collection;
}

export async function getCollection(ctx: RequestContext, collectionId: string): Promise<CollectionJSON> {
  const { collection, level } = await visibleCollection(ctx, collectionId);
  return presentCollection(collection, level, ctx.urls);
}

export const collectionsInSiblingOrder: Ordering<CollectionRecord> = {
  name: 'collections',
  keys: [
    { field: 'position', direction: 'asc', type: 'string', value: (row) => row.position },
    { field: 'id', direction: 'asc', type: 'string', value: (row) => row.id },
  ],
};

/** Across parents sibling positions do not compare: the nested listing goes by creation. */
export const collectionsByCreation: Ordering<CollectionRecord> = {
  name: 'collections-by-creation',
  keys: [
    { field: 'createdAt', direction: 'asc', type: 'date', value: (row) => row.createdAt },
    { field: 'id', direction: 'asc', type: 'string', value: (row) => row.id },
  ],
};

const collectionsOfOrganization: ChildListing<CollectionRecord, { nested: boolean }> = {
  name: 'organization-collections',
  records: collectionRecords,
  ordering: ({ nested }) => (nested ? collectionsByCreation : collectionsInSiblingOrder),
  parentOf: (row) => row.organizationId,
  findMany: (ctx, organizationIds, { nested }, args) =>
    ctx.db.collection.findMany({
      ...args,
      where: { AND: [{ organizationId: { in: organizationIds }, ...(nested ? {} : { parentId: null }) }, args.where] },
    }),
  count: async (ctx, organizationIds, { nested }) =>
    countsBy(
      await ctx.db.collection.groupBy({
        by: ['organizationId'],
        where: { organizationId: { in: organizationIds }, ...(nested ? {} : { parentId: null }) },
        _count: { _all: true },
      }),
      'organizationId',
    ),
};

const collectionsOfCollection: ChildListing<CollectionRecord, null> = {
  name: 'collection-collections',
  records: collectionRecords,
  ordering: () => collectionsInSiblingOrder,
  parentOf: (row) => row.parentId!,
  findMany: (ctx, parentIds, _filter, args) => ctx.db.collection.findMany({ ...args, where: { AND: [{ parentId: { in: parentIds } }, args.where] } }),
  count: async (ctx, parentIds) =>
    countsBy(
      await ctx.db.collection.groupBy({
        by: ['parentId'],
        where: { parentId: { in: parentIds } },
        _count: { _all: true },
      }),
      'parentId',
    ),
};

/**
 * Collections of an organization, oldest first; `nested: false` keeps only the
 * top level, in sibling order.
 */
export async function listOrganizationCollectionRecords(ctx: RequestContext, organizationId: string, query: unknown): Promise<Page<CollectionRecord>> {
  const { access } = await visibleOrganization(ctx, organizationId);
  const params = parseInput(ListCollectionsQuery, query, 'query');
  const nested = params.nested ?? true;
  // A guest lists what its grants reach: the collections granted to it and those below them.
  if (access.role === null) {
    const { collectionIds } = await grantedReach(ctx, access.member!);
    return listChildren(ctx, grantedCollectionsOfOrganization, organizationId, { nested, collectionIds }, pageRequestOf(params));
  }
  return listChildren(ctx, collectionsOfOrganization, organizationId, { nested }, pageRequestOf(params));
}

/** Of the collections grants reach, all of them (nested) or the topmost ones: those whose parent they do not reach. */
const grantedCollections = ({ nested, collectionIds }: { nested: boolean; collectionIds: string[] }) =>
  nested ? { id: { in: collectionIds } } : { id: { in: collectionIds }, OR: [{ parentId: null }, { parentId: { notIn: collectionIds } }] };

const grantedCollectionsOfOrganization: ChildListing<CollectionRecord, { nested: boolean; collectionIds: string[] }> = {
  name: 'organization-collections',
  records: collectionRecords,
  ordering: ({ nested }) => (nested ? collectionsByCreation : collectionsInSiblingOrder),
  parentOf: (row) => row.organizationId,
  findMany: (ctx, organizationIds, reach, args) =>
    ctx.db.collection.findMany({ ...args, where: { AND: [{ organizationId: { in: organizationIds } }, grantedCollections(reach), args.where] } }),
  count: async (ctx, organizationIds, reach) =>
    countsBy(
      await ctx.db.collection.groupBy({
        by: ['organizationId'],
        where: { AND: [{ organizationId: { in: organizationIds } }, grantedCollections(reach)] },
        _count: { _all: true },
      }),
      'organizationId',
    ),
};

export async function listOrganizationCollections(ctx: RequestContext, organizationId: string, query: unknown): Promise<Page<CollectionJSON>> {
  return mapPage(await listOrganizationCollectionRecords(ctx, organizationId, query), (row) => present(ctx, row));
}

/** The collections directly inside a collection. */
export async function listSubCollectionRecords(ctx: RequestContext, collectionId: string, query: unknown): Promise<Page<CollectionRecord>> {
  await visibleCollection(ctx, collectionId);
  const params = parseInput(ListCollectionSpacesQuery, query, 'query');
  return listChildren(ctx, collectionsOfCollection, collectionId, null, pageRequestOf(params));
}

export async function listSubCollections(ctx: RequestContext, collectionId: string, query: unknown): Promise<Page<CollectionJSON>> {
  return mapPage(await listSubCollectionRecords(ctx, collectionId, query), (row) => present(ctx, row));
}

/** Where new content may go: the organization root, or a collection of it, with the viewer's level there. */
export async function containerLevel(ctx: RequestContext, organizationId: string, parentId: string | null | undefined, field = 'parent'): Promise<Role | null> {
  if (!parentId) {
    const { role } = await organizationAccess(ctx, organizationId);
    return role;
  }
  const parent = await loader(ctx, collectionRecords).load(parentId);
  if (!parent || parent.organizationId !== organizationId) {
    throw invalid(`${field}: collection "${parentId}" does not exist in this organization`);
  }
  return levelOn(ctx, collectionNode(parent));
}

export async function createCollection(ctx: RequestContext, organizationId: string, body: unknown) {
  await visibleOrganization(ctx, organizationId);
  const input = parseInput(CreateCollectionInput, body);
  const level = await containerLevel(ctx, organizationId, input.parent);
  authorize(atLeast(level, 'create'), input.parent ? 'create content in this collection' : 'create content in this organization');
  const id = newId('collection');
  await inTransaction(ctx, { action: 'collection.create', organizationId, target: { type: 'collection', id, label: input.title } }, async (tx) => {
    await tx.db.collection.create({
      data: {
        id,
        organizationId,
        parentId: input.parent ?? null,
        title: input.title ?? 'Untitled',
        position: await endPosition(tx, organizationId, input.parent ?? null),
      },
    });
  });
  return getCollection(ctx, id);
}

export async function updateCollection(ctx: RequestContext, collectionId: string, body: unknown) {
  const { level, collection } = await visibleCollection(ctx, collectionId);
  const input = parseInput(UpdateCollectionInput, body);
  authorize(atLeast(level, 'admin'), 'update this collection');
  const audit: AuditFacts = {
    action: 'collection.update',
    organizationId: collection.organizationId,
    target: { type: 'collection', id: collectionId, label: collection.title },
  };
  await inTransaction(ctx, audit, (tx) =>
    tx.db.collection.update({
      where: { id: collectionId },
      data: { title: input.title, description: input.description, defaultLevel: input.defaultLevel },
    }),
  );
  return getCollection(ctx, collectionId);
}

/** Ids of a collection and of every collection below it. */
async function subtree(ctx: RequestContext, collectionId: string): Promise<string[]> {
  const ids = [collectionId];
  let level = [collectionId];
  while (level.length > 0) {
    const children = await ctx.db.collection.findMany({ where: { parentId: { in: level } }, select: { id: true } });
    level = children.map((child) => child.id);
    pushAll(ids, level);
  }
  return ids;
}

/**
 * Deleting or transferring a collection acts on everything below it: the viewer
 * must be an admin of each collection and space there, as if acting on each.
 */
async function authorizeSubtree(ctx: RequestContext, collectionId: string, action: string) {
  const ids = await subtree(ctx, collectionId);
  const [collections, spaces] = await Promise.all([
    ctx.db.collection.findMany({ where: { id: { in: ids } } }),
    ctx.db.space.findMany({ where: { parentId: { in: ids }, deletedAt: null } }),
  ]);
  const levels = await Promise.all([...collections.map(collectionNode), ...spaces.map(spaceNode)].map((node) => levelOn(ctx, node)));
  authorize(
    levels.every((level) => atLeast(level, 'admin')),
    `${action}: you are not an admin of everything it contains`,
  );
  return ids;
}

/**
 * Deletes a collection with the collections below it. Their spaces are deleted
 * the way spaces are (restorable for the retention period, at the top level).
 */
export async function deleteCollection(ctx: RequestContext, collectionId: string): Promise<void> {
  const { level, collection } = await visibleCollection(ctx, collectionId);
  authorize(atLeast(level, 'admin'), 'delete this collection');
  await authorizeSubtree(ctx, collectionId, 'delete this collection');
  const audit: AuditFacts = {
    action: 'collection.delete',
    organizationId: collection.organizationId,
    target: { type: 'collection', id: collectionId, label: collection.title },
  };
  await inTransaction(ctx, audit, async (tx) => {
    const ids = await subtree(tx, collectionId);
    // Only those not deleted yet, as the statement finds them: a space deleted meanwhile keeps its
    // deletion date (its retention) and is announced once, by the request that deleted it.
    const deleted = await tx.db.space.updateManyAndReturn({
      where: { parentId: { in: ids }, deletedAt: null },
      data: { deletedAt: ctx.clock.now() },
      select: { id: true, organizationId: true },
    });
    await tx.db.collection.delete({ where: { id: collectionId } });
    for (const space of deleted) emitEvent(tx, { kind: 'space.deleted', organizationId: space.organizationId, spaceId: space.id, subjectId: space.id });
  });
}

export async function moveCollection(ctx: RequestContext, collectionId: string, body: unknown) {
  const { collection, level } = await visibleCollection(ctx, collectionId);
  const input = parseInput(moveContentInput, body);
  authorize(atLeast(level, 'admin'), 'move this collection');
  const parentId = input.parent === undefined ? collection.parentId : input.parent;
  if (parentId) {
    const chain = await ancestry(ctx, parentId);
    if (chain.some((ancestor) => ancestor.id === collectionId)) {
      throw invalid('parent: a collection cannot be moved into itself or one of its descendants');
    }
  }
  if (parentId !== collection.parentId) {
    const targetLevel = await containerLevel(ctx, collection.organizationId, parentId);
    authorize(atLeast(targetLevel, 'create'), 'move content into the target collection');
  }
  const audit: AuditFacts = {
    action: 'collection.move',
    organizationId: collection.organizationId,
    target: { type: 'collection', id: collectionId, label: collection.title },
    payload: { parent: parentId },
  };
  await inTransaction(ctx, audit, async (tx) => {
    const position = await positionAmongSiblings(tx, collection.organizationId, parentId, input.position, collectionId);
    await tx.db.collection.update({ where: { id: collectionId }, data: { parentId, position } });
  });
  return getCollection(ctx, collectionId);
}

/**
 * Moves a collection, with everything below it, to the top level of another
 * organization the viewer administers. Custom field values are dropped: custom
 * fields belong to an organization.
 */
export async function transferCollection(ctx: RequestContext, collectionId: string, body: unknown) {
  const { collection, level } = await visibleCollection(ctx, collectionId);
  const input = parseInput(transferInput, body);
  authorize(atLeast(level, 'admin'), 'transfer this collection');
  const target = await organizationAccess(ctx, input.organization);
  if (!target.member) throw invalid(`organization: organization "${input.organization}" was not found`);
  authorize(target.role === 'admin', 'transfer content to an organization you do not administer');
  if (input.organization === collection.organizationId) {
    throw invalid('organization: the collection already belongs to this organization');
  }
  await authorizeSubtree(ctx, collectionId, 'transfer this collection');
  const audit: AuditFacts[] = [
    {
      action: 'collection.transfer',
      organizationId: collection.organizationId,
      target: { type: 'collection', id: collectionId, label: collection.title },
      payload: { to: input.organization },
    },
    {
      action: 'collection.transfer',
      organizationId: input.organization,
      target: { type: 'collection', id: collectionId, label: collection.title },
      payload: { from: collection.organizationId },
    },
  ];
  await inTransaction(ctx, audit, async (tx) => {
    const position = await endPosition(tx, input.organization, null);
    const ids = await subtree(tx, collectionId);
    await tx.db.spaceCustomFieldValue.deleteMany({ where: { space: { parentId: { in: ids } } } });
    const moved = await tx.db.space.findMany({ where: { parentId: { in: ids } }, select: { id: true } });
    // Grants name members and teams of the organization the content leaves: they stay behind.
    await tx.db.contentGrant.deleteMany({ where: { OR: [{ collectionId: { in: ids } }, { spaceId: { in: moved.map((space) => space.id) } }] } });
    await tx.db.space.updateMany({ where: { parentId: { in: ids } }, data: { organizationId: input.organization } });
    await tx.db.collection.updateMany({ where: { id: { in: ids } }, data: { organizationId: input.organization } });
    for (const space of moved) emitSpaceTransfer(tx, space.id, collection.organizationId, input.organization);
    await tx.db.collection.update({
      where: { id: collectionId },
      data: { parentId: null, position },
    });
  });
  return getCollection(ctx, collectionId);
}
