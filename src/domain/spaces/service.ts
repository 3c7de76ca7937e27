import { noteSpaceRead } from '../generations.ts';
import type { RequestContext } from '../../context.ts';
import type { CustomFieldRecord, SpaceRecord } from '../../db/index.ts';
import { conflict, invalid, notFound } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { type Ordering, type Page, pageRequestOf } from '../../lib/pagination.ts';
import { parseInput } from '../../lib/validation.ts';
import { type Role, atLeast, authorize, effectiveLevel } from '../access.ts';
import { containerLevel, visibleCollection } from '../collections/service.ts';
import { presentField, valueProblem } from '../custom-fields/service.ts';
import type { ColumnSource } from '../columns.ts';
import { defineLoader, defineRecordLoader, loader } from '../loaders.ts';
import { organizationAccess, visibleOrganization } from '../organizations/service.ts';
import { endPosition, levelOn, positionAmongSiblings, spaceNode } from '../shared/content-tree.ts';
import { type ChildListing, countsBy, listChildren, mapPage } from '../shared/pages.ts';
import { moveContentInput, transferInput } from '../shared/schemas.ts';
import { grantedReach } from '../permissions/grants.ts';
import { copyRevisionToSpace, writeEmptyRevision } from '../content/revisions.ts';
import { reindexSpace } from '../search/indexing.ts';
import { emitEvent, emitSpaceTransfer } from '../events/emit.ts';
import { inTransaction } from '../transaction.ts';
import { type AuditFacts, spaceTarget } from '../audit/record.ts';
import { CreateSpaceInput, GetSpaceQuery, ListSpacesQuery, UpdateSpaceCustomFieldsInput, UpdateSpaceInput } from './inputs.ts';
import { type SpaceJSON, presentSpace } from './presenter.ts';
import { OPEN_SPACE_COMMENTS, spaceOpenComments } from '../comments/counts.ts';
import {
  equalities,
  grantedRoles,
  inheritedLevel,
  preparedPage,
  preparedRead,
  recordOf,
  reviveRecord,
  seesContent,
  shapeOf,
  slot,
  spaceColumnsOf,
  sqlOf,
  viewerSlots,
} from '../reads.ts';
import { sql } from 'kysely';

/** A deleted space can be restored for this long, then it is purged. */
export const SPACE_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

export const spaceRecords = defineRecordLoader((ctx, ids) =>
  ctx.db.space.findMany({
    where: { id: { in: ids } },
    // Each space's open comments ride along in the same statement (read by spaceOpenComments).
    include: { _count: { select: { comments: { where: { spaceId: { in: ids }, ...OPEN_SPACE_COMMENTS } } } } },
  }),
);

/** Spaces read with the columns a request asks for (src/domain/columns.ts): the organization is always read. */
export const spaceColumns: ColumnSource<SpaceRecord> = {
  always: ['id', 'organizationId'],
  findMany: (ctx, ids, select) => ctx.db.space.findMany({ where: { id: { in: ids } }, ...(select ? { select } : {}) }) as Promise<SpaceRecord[]>,
};

export function spaceLevel(ctx: RequestContext, space: SpaceRecord): Promise<Role | null> {
  // A site token (src/domain/sites/site-tokens.ts) reads the spaces its site publishes to its visitor, and nothing else.
  if (ctx.siteToken) return Promise.resolve(ctx.siteToken.spaceIds.has(space.id) && !space.deletedAt ? 'read' : null);
  return levelOn(ctx, spaceNode(space));
}

/**
 * A space's level from what a statement read with it (src/domain/reads.ts inheritedLevel and
 * grantedRoles), as spaceLevel decides it: a site token's spaces, else the member's level.
 */
export function spaceLevelFromRead(ctx: RequestContext, space: SpaceRecord, read: { inheritedLevel: string | null; granted: string[] }): Role | null {
  if (ctx.siteToken) return ctx.siteToken.spaceIds.has(space.id) && !space.deletedAt ? 'read' : null;
  const member = ctx.viewer?.memberships?.get(space.organizationId) ?? null;
  return effectiveLevel(member, [space.defaultLevel, read.inheritedLevel], read.granted);
}

export async function presentSpaceRecord(ctx: RequestContext, space: SpaceRecord): Promise<SpaceJSON> {
  const [level, openComments] = await Promise.all([spaceLevel(ctx, space), spaceOpenComments(ctx, space)]);
  return presentSpace(space, level, ctx.urls, openComments);
}

/** A space the viewer can see, deleted or not, with its level; anything else is a 404. */
export async function visibleSpace(ctx: RequestContext, spaceId: string): Promise<{ space: SpaceRecord; level: Role }> {
  const space = await loader(ctx, spaceRecords).load(spaceId);
  if (space) noteSpaceRead(ctx, space);
  const level = space ? await spaceLevel(ctx, space) : null;
  if (!space || !level) throw notFound('Space', spaceId);
  return { space, level };
}

/** A space the viewer may change: it must not be deleted, and the viewer needs `required`. */
async function changeableSpace(ctx: RequestContext, spaceId: string, required: Role, action: string) {
  const found = await visibleSpace(ctx, spaceId);
  authorize(atLeast(found.level, required), action);
  if (found.space.deletedAt) throw conflict(`space "${spaceId}" is deleted: restore it first`);
  return found;
}

/** The row of a space the viewer can see; anything else is a 404. */
export async function spaceRecord(ctx: RequestContext, spaceId: string, query: unknown = {}): Promise<SpaceRecord> {
  // Share keys open published content of share-link sites; they never widen access to a space itself.
  parseInput(GetSpaceQuery, query, 'query');
  return (await visibleSpace(ctx, spaceId)).space;
}

/** A space with what REST answers it with, where the viewer sees it (slots: spaceId and src/domain/reads.ts viewerSlots). */
const readSpace = preparedRead<
  { space: Record<string, unknown>; inheritedLevel: string | null; granted: string[]; openComments: number },
  { spaceId: string; contentOf: string[]; memberOf: string[]; userId: string }
>((ctx) => {
  const { json } = sqlOf(ctx);
  return sql`SELECT ${json.text(
    json.object([
      ['space', recordOf(ctx, 'spaces', 's').object],
      ['inheritedLevel', inheritedLevel(sql.ref('s.parentId'))],
      ['granted', grantedRoles(ctx, spaceColumnsOf('s'))],
      ['openComments', sql`(SELECT count(*) FROM "comments" AS c WHERE c."spaceId" = s."id" AND ${equalities('c', OPEN_SPACE_COMMENTS)})`],
    ]),
  )} FROM "spaces" AS s WHERE s."id" = ${slot('spaceId')} AND ${seesContent(ctx, spaceColumnsOf('s'))}`;
});

/**
 * A space as REST answers it, in one statement (src/domain/reads.ts): its row,
 * the default level it inherits, the roles granted to the viewer and its open
 * comments, where the viewer sees it; anything else is a 404.
 */
export async function getSpace(ctx: RequestContext, spaceId: string, query: unknown = {}): Promise<SpaceJSON> {
  parseInput(GetSpaceQuery, query, 'query');
  const viewer = viewerSlots(ctx);
  // Without the memberships read with the token (inside a transaction), through the loaders.
  if (!viewer) return presentSpaceRecord(ctx, await spaceRecord(ctx, spaceId, query));
  const read = await readSpace(ctx, { spaceId, ...viewer });
  if (!read) throw notFound('Space', spaceId);
  const space = reviveRecord<SpaceRecord>(shapeOf(ctx, 'spaces'), read.space);
  noteSpaceRead(ctx, space);
  const member = ctx.viewer!.memberships!.get(space.organizationId) ?? null;
  const level = effectiveLevel(member, [space.defaultLevel, read.inheritedLevel], read.granted);
  if (!level) throw notFound('Space', spaceId);
  return presentSpace(space, level, ctx.urls, Number(read.openComments));
}

/** Spaces that listings show: not deleted (Prisma's `where` and, through src/domain/reads.ts equalities, SQL's). */
export const LISTED_SPACES = { deletedAt: null } as const;

export const spacesInSiblingOrder: Ordering<SpaceRecord> = {
  name: 'spaces',
  keys: [
    { field: 'position', direction: 'asc', type: 'string', value: (row) => row.position },
    { field: 'id', direction: 'asc', type: 'string', value: (row) => row.id },
  ],
};

/** Across collections sibling positions do not compare: organization-wide listings go by creation. */
export const spacesByCreation: Ordering<SpaceRecord> = {
  name: 'spaces-by-creation',
  keys: [
    { field: 'createdAt', direction: 'asc', type: 'date', value: (row) => row.createdAt },
    { field: 'id', direction: 'asc', type: 'string', value: (row) => row.id },
  ],
};

const spacesOfOrganization: ChildListing<SpaceRecord, null> = {
  name: 'organization-spaces',
  records: spaceRecords,
  ordering: () => spacesByCreation,
  parentOf: (row) => row.organizationId,
  findMany: (ctx, organizationIds, _filter, args) =>
    ctx.db.space.findMany({
      ...args,
      where: { AND: [{ organizationId: { in: organizationIds }, ...LISTED_SPACES }, args.where] },
    }),
  count: async (ctx, organizationIds) =>
    countsBy(
      await ctx.db.space.groupBy({
        by: ['organizationId'],
        where: { organizationId: { in: organizationIds }, ...LISTED_SPACES },
        _count: { _all: true },
      }),
      'organizationId',
    ),
};

/** The spaces of an organization that grants reach (src/domain/permissions/grants.ts grantedReach). */
const grantedSpacesOfOrganization: ChildListing<SpaceRecord, { spaceIds: string[]; collectionIds: string[] }> = {
  name: 'organization-spaces',
  records: spaceRecords,
  ordering: () => spacesByCreation,
  parentOf: (row) => row.organizationId,
  findMany: (ctx, organizationIds, reach, args) =>
    ctx.db.space.findMany({ ...args, where: { AND: [{ organizationId: { in: organizationIds }, ...LISTED_SPACES }, grantedSpaces(reach), args.where] } }),
  count: async (ctx, organizationIds, reach) =>
    countsBy(
      await ctx.db.space.groupBy({
        by: ['organizationId'],
        where: { AND: [{ organizationId: { in: organizationIds }, ...LISTED_SPACES }, grantedSpaces(reach)] },
        _count: { _all: true },
      }),
      'organizationId',
    ),
};

const grantedSpaces = (reach: { spaceIds: string[]; collectionIds: string[] }) => ({
  OR: [{ id: { in: reach.spaceIds } }, { parentId: { in: reach.collectionIds } }],
});

const spacesOfCollection: ChildListing<SpaceRecord, null> = {
  name: 'collection-spaces',
  records: spaceRecords,
  ordering: () => spacesInSiblingOrder,
  parentOf: (row) => row.parentId!,
  findMany: (ctx, parentIds, _filter, args) =>
    ctx.db.space.findMany({ ...args, where: { AND: [{ parentId: { in: parentIds }, ...LISTED_SPACES }, args.where] } }),
  count: async (ctx, parentIds) =>
    countsBy(
      await ctx.db.space.groupBy({
        by: ['parentId'],
        where: { parentId: { in: parentIds }, ...LISTED_SPACES },
        _count: { _all: true },
      }),
      'parentId',
    ),
};

/** Every space of an organization (not deleted), oldest first. */
export async function listOrganizationSpaceRecords(ctx: RequestContext, organizationId: string, query: unknown): Promise<Page<SpaceRecord>> {
  const { access } = await visibleOrganization(ctx, organizationId);
  const params = parseInput(ListSpacesQuery, query, 'query');
  // A guest lists what its grants reach.
  if (access.role === null) {
    const reach = await grantedReach(ctx, access.member!);
    return listChildren(ctx, grantedSpacesOfOrganization, organizationId, reach, pageRequestOf(params));
  }
  return listChildren(ctx, spacesOfOrganization, organizationId, null, pageRequestOf(params));
}

/** A page of an organization's spaces the viewer sees, each with what REST answers it with (slots: organizationId and viewerSlots). */
const readOrganizationSpaces = preparedPage<SpaceRecord, { inheritedLevel: string | null; granted: string[]; openComments: number }>((ctx) => ({
  table: 'spaces',
  alias: 's',
  where: [sql`s."organizationId" = ${slot('organizationId')}`, equalities('s', LISTED_SPACES), seesContent(ctx, spaceColumnsOf('s'))],
  ordering: spacesByCreation as Ordering<never>,
  extras: {
    inheritedLevel: inheritedLevel(sql.ref('s.parentId')),
    granted: grantedRoles(ctx, spaceColumnsOf('s')),
    openComments: sql`(SELECT count(*) FROM "comments" AS c WHERE c."spaceId" = s."id" AND ${equalities('c', OPEN_SPACE_COMMENTS)})`,
  },
}));

/**
 * Spaces of an organization as REST lists them, in one statement
 * (src/domain/reads.ts preparedPage): a page of the rows the viewer sees (a
 * guest: those granted to it), each with the level it inherits, the roles
 * granted and its open comments, and the count; the viewer's access from its
 * memberships.
 */
export async function listOrganizationSpaces(ctx: RequestContext, organizationId: string, query: unknown): Promise<Page<SpaceJSON>> {
  const executed = async () => mapPage(await listOrganizationSpaceRecords(ctx, organizationId, query), (space) => presentSpaceRecord(ctx, space));
  const viewer = viewerSlots(ctx);
  if (!viewer) return executed();
  const access = await organizationAccess(ctx, organizationId);
  if (!access.member) throw notFound('Organization', organizationId);
  const params = parseInput(ListSpacesQuery, query, 'query');
  const page = await readOrganizationSpaces(ctx, { organizationId, ...viewer }, pageRequestOf(params));
  if (!page) return executed();
  return mapPage(page, ({ record, extra }) =>
    presentSpace(record, effectiveLevel(access.member, [record.defaultLevel, extra.inheritedLevel], extra.granted), ctx.urls, Number(extra.openComments)),
  );
}

/** The number of spaces of an organization, i.e. the spaces each non-guest member can access. */
export function countOrganizationSpaces(ctx: RequestContext, organizationId: string): Promise<number> {
  return listChildren(ctx, spacesOfOrganization, organizationId, null, { limit: 0 }).then((page) => page.count());
}

/** The spaces directly inside a collection, in sibling order. */
export async function listCollectionSpaceRecords(ctx: RequestContext, collectionId: string, query: unknown): Promise<Page<SpaceRecord>> {
  await visibleCollection(ctx, collectionId);
  const params = parseInput(ListSpacesQuery, query, 'query');
  return listChildren(ctx, spacesOfCollection, collectionId, null, pageRequestOf(params));
}

export async function listCollectionSpaces(ctx: RequestContext, collectionId: string, query: unknown): Promise<Page<SpaceJSON>> {
  return mapPage(await listCollectionSpaceRecords(ctx, collectionId, query), (space) => presentSpaceRecord(ctx, space));
}

export async function createSpace(ctx: RequestContext, organizationId: string, body: unknown): Promise<SpaceJSON> {
  await visibleOrganization(ctx, organizationId);
  const input = parseInput(CreateSpaceInput, body);
  const level = await containerLevel(ctx, organizationId, input.parent);
  authorize(atLeast(level, 'create'), input.parent ? 'create content in this collection' : 'create content in this organization');
  const space = await inTransaction(
    ctx,
    (created: SpaceRecord) => ({ action: 'space.create', organizationId, target: { type: 'space', id: created.id, label: created.title } }),
    (tx) => createSpaceIn(tx, organizationId, input),
  );
  return getSpace(ctx, space.id);
}

/** Writes a new space at the end of its parent, inside the caller's transaction (the caller authorizes). */
export async function createSpaceIn(
  tx: RequestContext,
  organizationId: string,
  input: { title?: string | undefined; emoji?: string | undefined; parent?: string | undefined; language?: string | undefined; editMode?: string | undefined },
): Promise<SpaceRecord> {
  const space = await tx.db.space.create({
    data: {
      id: newId('space'),
      organizationId,
      parentId: input.parent ?? null,
      title: input.title ?? 'Untitled',
      emoji: input.emoji ?? '',
      editMode: input.editMode ?? 'live',
      language: input.language ?? null,
      mergeRules: { type: 'inherit' },
      revisionId: newId('revision'),
      position: await endPosition(tx, organizationId, input.parent ?? null),
    },
  });
  await writeEmptyRevision(tx, space.id, space.revisionId);
  emitEvent(tx, { kind: 'space.created', organizationId, spaceId: space.id, subjectId: space.id });
  return space;
}

export async function updateSpace(ctx: RequestContext, spaceId: string, body: unknown): Promise<SpaceJSON> {
  await visibleSpace(ctx, spaceId);
  const input = parseInput(UpdateSpaceInput, body);
  const { space } = await changeableSpace(ctx, spaceId, 'admin', 'update this space');
  await inTransaction(
    ctx,
    {
      action: 'space.update',
      organizationId: space.organizationId,
      target: spaceTarget(space),
      payload: { fields: Object.keys(input).filter((key) => input[key as keyof typeof input] !== undefined) },
    },
    async (tx) => {
      await tx.db.space.update({
        where: { id: spaceId },
        data: {
          title: input.title,
          // Setting an icon replaces the emoji and the reverse; null removes either.
          ...(input.emoji !== undefined ? { emoji: input.emoji ?? '', ...(input.emoji ? { icon: null } : {}) } : {}),
          ...(input.icon !== undefined ? { icon: input.icon, ...(input.icon ? { emoji: '' } : {}) } : {}),
          editMode: input.editMode,
          defaultLevel: input.defaultLevel,
          language: input.language,
          mergeRules: input.mergeRules,
        },
      });
      // An empty body changes nothing: nothing to announce.
      if (Object.values(input).some((value) => value !== undefined)) {
        emitEvent(tx, { kind: 'space.updated', organizationId: space.organizationId, spaceId, subjectId: spaceId });
      }
    },
  );
  return getSpace(ctx, spaceId);
}

/** Soft delete: the space leaves every listing and can be restored during the retention period. */
export async function deleteSpace(ctx: RequestContext, spaceId: string): Promise<void> {
  const { space, level } = await visibleSpace(ctx, spaceId);
  authorize(atLeast(level, 'admin'), 'delete this space');
  if (space.deletedAt) return;
  await inTransaction(ctx, { action: 'space.delete', organizationId: space.organizationId, target: spaceTarget(space) }, async (tx) => {
    // Deleted by this request only (two deletions at once announce one).
    const { count } = await tx.db.space.updateMany({ where: { id: spaceId, deletedAt: null }, data: { deletedAt: ctx.clock.now() } });
    if (count === 1) emitEvent(tx, { kind: 'space.deleted', organizationId: space.organizationId, spaceId, subjectId: spaceId });
  });
}

export async function restoreSpace(ctx: RequestContext, spaceId: string): Promise<SpaceJSON> {
  const { space, level } = await visibleSpace(ctx, spaceId);
  authorize(atLeast(level, 'admin'), 'restore this space');
  if (!space.deletedAt) throw conflict(`space "${spaceId}" is not deleted`);
  if (ctx.clock.now().getTime() - space.deletedAt.getTime() > SPACE_RETENTION_MS) {
    throw conflict(`space "${spaceId}" was deleted more than 7 days ago and can no longer be restored`);
  }
  await inTransaction(ctx, { action: 'space.restore', organizationId: space.organizationId, target: spaceTarget(space) }, async (tx) => {
    // Its collection may have been deleted meanwhile (the space is then at the top level).
    const position = await endPosition(tx, space.organizationId, space.parentId);
    const { count } = await tx.db.space.updateMany({ where: { id: spaceId, deletedAt: { not: null } }, data: { deletedAt: null, position } });
    if (count === 1) emitEvent(tx, { kind: 'space.restored', organizationId: space.organizationId, spaceId, subjectId: spaceId });
  });
  return getSpace(ctx, spaceId);
}

/** The space to copy, once the viewer may read it and create content where it is (a deleted space is a 409). */
export async function duplicableSpace(ctx: RequestContext, spaceId: string): Promise<SpaceRecord> {
  const { space } = await changeableSpace(ctx, spaceId, 'read', 'duplicate this space');
  const level = await containerLevel(ctx, space.organizationId, space.parentId);
  authorize(atLeast(level, 'create'), 'create content where this space is');
  return space;
}

/** Inside a write: a copy `id` of the space right after it, with its settings, custom field values and content. */
export async function copySpaceIn(tx: RequestContext, space: SpaceRecord, id: string): Promise<void> {
  const position = await positionAmongSiblings(tx, space.organizationId, space.parentId, {
    after: { type: 'space', space: space.id },
  });
  const values = await tx.db.spaceCustomFieldValue.findMany({ where: { spaceId: space.id } });
  const revisionId = newId('revision');
  await tx.db.space.create({
    data: {
      id,
      organizationId: space.organizationId,
      parentId: space.parentId,
      title: `Copy of ${space.title}`.slice(0, 50),
      emoji: space.emoji,
      icon: space.icon,
      visibility: space.visibility,
      editMode: space.editMode,
      defaultLevel: space.defaultLevel,
      language: space.language,
      mergeRules: space.mergeRules as object,
      revisionId,
      position,
      customFieldValues: {
        create: values.map((value) => ({ customFieldId: value.customFieldId, value: value.value as never })),
      },
    },
  });
  await copyRevisionToSpace(tx, space.revisionId, id, revisionId);
  await reindexSpace(tx, id, revisionId);
  emitEvent(tx, { kind: 'space.created', organizationId: space.organizationId, spaceId: id, subjectId: id, data: { duplicateOf: space.id } });
}

/** A copy of the space right after it, with its settings and custom field values. */
export async function duplicateSpace(ctx: RequestContext, spaceId: string): Promise<SpaceJSON> {
  const space = await duplicableSpace(ctx, spaceId);
  const id = newId('space');
  const audit: AuditFacts = { action: 'space.duplicate', organizationId: space.organizationId, target: { type: 'space', id }, payload: { from: space.id } };
  await inTransaction(ctx, audit, (tx) => copySpaceIn(tx, space, id));
  return getSpace(ctx, id);
}

export async function moveSpace(ctx: RequestContext, spaceId: string, body: unknown): Promise<SpaceJSON> {
  await visibleSpace(ctx, spaceId);
  const input = parseInput(moveContentInput, body);
  const { space } = await changeableSpace(ctx, spaceId, 'admin', 'move this space');
  const parentId = input.parent === undefined ? space.parentId : input.parent;
  if (parentId !== space.parentId) {
    const level = await containerLevel(ctx, space.organizationId, parentId);
    authorize(atLeast(level, 'create'), 'move content into the target collection');
  }
  const audit: AuditFacts = { action: 'space.move', organizationId: space.organizationId, target: spaceTarget(space), payload: { parent: parentId } };
  await inTransaction(ctx, audit, async (tx) => {
    const position = await positionAmongSiblings(tx, space.organizationId, parentId, input.position, spaceId);
    await tx.db.space.update({ where: { id: spaceId }, data: { parentId, position } });
    emitEvent(tx, { kind: 'space.moved', organizationId: space.organizationId, spaceId, subjectId: spaceId });
  });
  return getSpace(ctx, spaceId);
}

/** Moves a space to the top level of another organization the viewer administers. */
export async function transferSpace(ctx: RequestContext, spaceId: string, body: unknown): Promise<SpaceJSON> {
  await visibleSpace(ctx, spaceId);
  const input = parseInput(transferInput, body);
  const { space } = await changeableSpace(ctx, spaceId, 'admin', 'transfer this space');
  const target = await organizationAccess(ctx, input.organization);
  if (!target.member) throw invalid(`organization: organization "${input.organization}" was not found`);
  authorize(target.role === 'admin', 'transfer content to an organization you do not administer');
  if (input.organization === space.organizationId) {
    throw invalid('organization: the space already belongs to this organization');
  }
  const audit: AuditFacts[] = [
    { action: 'space.transfer', organizationId: space.organizationId, target: spaceTarget(space), payload: { to: input.organization } },
    { action: 'space.transfer', organizationId: input.organization, target: spaceTarget(space), payload: { from: space.organizationId } },
  ];
  await inTransaction(ctx, audit, async (tx) => {
    const position = await endPosition(tx, input.organization, null);
    // Custom fields belong to an organization: their values stay behind, and so do grants to its members and teams.
    await tx.db.spaceCustomFieldValue.deleteMany({ where: { spaceId } });
    await tx.db.contentGrant.deleteMany({ where: { spaceId } });
    await tx.db.space.update({
      where: { id: spaceId },
      data: { organizationId: input.organization, parentId: null, position },
    });
    emitSpaceTransfer(tx, spaceId, space.organizationId, input.organization);
  });
  return getSpace(ctx, spaceId);
}

/** The custom field values of each space, with their fields, by field name (one statement for many spaces). */
const customFieldValuesOf = defineLoader<string, Array<{ customField: CustomFieldRecord; value: unknown }>>(async (ctx, spaceIds) => {
  const rows = await ctx.db.spaceCustomFieldValue.findMany({
    where: { spaceId: { in: [...spaceIds] } },
    include: { customField: true },
    orderBy: [{ customField: { name: 'asc' } }],
  });
  const bySpace = new Map<string, Array<{ customField: CustomFieldRecord; value: unknown }>>();
  for (const row of rows) bySpace.set(row.spaceId, [...(bySpace.get(row.spaceId) ?? []), { customField: row.customField, value: row.value }]);
  return spaceIds.map((id) => bySpace.get(id) ?? []);
});

export async function getSpaceCustomFields(ctx: RequestContext, spaceId: string) {
  const { space } = await visibleSpace(ctx, spaceId);
  const [access, values] = await Promise.all([organizationAccess(ctx, space.organizationId), loader(ctx, customFieldValuesOf).load(spaceId)]);
  return values.map((entry) => ({ customField: presentField(ctx, entry.customField, access), value: entry.value }));
}

/** Sets custom field values by field name; a null value clears it. All or nothing. */
export async function updateSpaceCustomFields(ctx: RequestContext, spaceId: string, body: unknown): Promise<void> {
  await visibleSpace(ctx, spaceId);
  const input = parseInput(UpdateSpaceCustomFieldsInput, body);
  const { space } = await changeableSpace(ctx, spaceId, 'edit', "edit this space's custom fields");
  authorize(space.editMode !== 'locked', 'edit the custom fields of a locked space');
  const names = Object.keys(input.values);
  const fields = await ctx.db.customField.findMany({
    where: { organizationId: space.organizationId, name: { in: names } },
  });
  const byName = new Map(fields.map((field) => [field.name, field]));
  for (const name of names) {
    const field = byName.get(name);
    if (!field) throw invalid(`values.${name}: no custom field named "${name}" in this organization`);
    const { value } = input.values[name]!;
    const problem = value === null ? undefined : valueProblem(field, value);
    if (problem) throw invalid(`values.${name}.value: ${problem}`);
  }
  const audit: AuditFacts = {
    action: 'space.update_custom_fields',
    organizationId: space.organizationId,
    target: spaceTarget(space),
    payload: { fields: names },
  };
  await inTransaction(ctx, audit, async (tx) => {
    for (const name of names) {
      const field = byName.get(name)!;
      const { value } = input.values[name]!;
      const key = { spaceId_customFieldId: { spaceId, customFieldId: field.id } };
      if (value === null) {
        await tx.db.spaceCustomFieldValue.deleteMany({ where: { spaceId, customFieldId: field.id } });
      } else {
        await tx.db.spaceCustomFieldValue.upsert({
          where: key,
          create: { spaceId, customFieldId: field.id, value },
          update: { value },
        });
      }
    }
  });
}
