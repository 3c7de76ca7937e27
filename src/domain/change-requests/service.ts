import type { RequestContext } from '../../context.ts';
import type { ChangeRequestRecord, SpaceRecord } from '../../db/index.ts';
import { conflict, isDomainError, notFound } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { type Ordering, type Page, pageRequestOf } from '../../lib/pagination.ts';
import { parseInput } from '../../lib/validation.ts';
import { type Role, atLeast, authorize } from '../access.ts';
import { reindexSpace } from '../search/indexing.ts';
import { recountChangeRequests } from './counts.ts';
import { assertMergeRules, currentReviews, effectiveMergeRules } from './merge-rules.ts';
import { changeRequestOpenComments } from '../comments/counts.ts';
import { storeDocuments } from '../content/documents.ts';
import { mergeTrees } from '../content/merge.ts';
import { filesMissingFrom, writeRevision } from '../content/revisions.ts';
import { loadPageTree } from '../content/tree.ts';
import { recordMovedPages } from '../sites/redirects.ts';
import { defineRecordLoader, loader } from '../loaders.ts';
import { type ChildListing, listChildren, mapPage } from '../shared/pages.ts';
import { visibleSpace } from '../spaces/service.ts';
import { afterChangeRequestMerged } from '../git/binding-job.ts';
import { emitEvent } from '../events/emit.ts';
import { inTransaction, serializeOn } from '../transaction.ts';
import { type AuditFacts, changeRequestTarget } from '../audit/record.ts';
import { userRecords } from '../users/service.ts';
import { CreateChangeRequestInput, ListChangeRequestsQuery, UpdateChangeRequestInput } from './inputs.ts';
import { type ChangeRequestJSON, presentAuthor, presentChangeRequest } from './presenter.ts';

export const changeRequestRecords = defineRecordLoader((ctx, ids) => ctx.db.changeRequest.findMany({ where: { id: { in: ids } } }));

export interface ChangeRequestAccess {
  space: SpaceRecord;
  level: Role;
  changeRequest: ChangeRequestRecord;
}

/** A change request of a space the viewer can see, by id or by its number in the space; anything else is a 404. */
export async function visibleChangeRequest(ctx: RequestContext, spaceId: string, idOrNumber: string): Promise<ChangeRequestAccess> {
  const { space, level } = await visibleSpace(ctx, spaceId);
  const changeRequest = /^\d{1,9}$/.test(idOrNumber)
    ? await ctx.db.changeRequest.findUnique({ where: { spaceId_number: { spaceId, number: Number(idOrNumber) } } })
    : await loader(ctx, changeRequestRecords).load(idOrNumber);
  if (!changeRequest || changeRequest.spaceId !== spaceId) throw notFound('Change request', idOrNumber);
  return { space, level, changeRequest };
}

/** A change request whose content the viewer may change: `edit` on the space, and not merged or archived. */
export async function editableChangeRequest(ctx: RequestContext, spaceId: string, idOrNumber: string, action: string) {
  const found = await visibleChangeRequest(ctx, spaceId, idOrNumber);
  authorize(atLeast(found.level, 'edit'), action);
  assertContentWritable(found.space, found.changeRequest);
  return found;
}

/**
 * Whether content may be written: into a change request neither merged nor archived, or into the
 * live content of a space that is not locked; never into a deleted space. Checked again under the
 * content lock by writes that fetched or crawled first: what the request saw may have changed.
 */
export function assertContentWritable(
  space: Pick<SpaceRecord, 'id' | 'deletedAt' | 'editMode'>,
  changeRequest: Pick<ChangeRequestRecord, 'number' | 'status'> | null,
): void {
  if (space.deletedAt) throw conflict(`space "${space.id}" is deleted: restore it first`);
  if (changeRequest && (changeRequest.status === 'merged' || changeRequest.status === 'archived')) {
    throw conflict(`change request #${changeRequest.number} is ${changeRequest.status}: its content can no longer change`);
  }
  if (!changeRequest && space.editMode === 'locked') throw conflict(`space "${space.id}" is locked: import into a change request`);
}

export async function presentChangeRequestRecord(ctx: RequestContext, changeRequest: ChangeRequestRecord): Promise<ChangeRequestJSON> {
  const users = loader(ctx, userRecords);
  const [createdBy, mergedBy, space, openComments] = await Promise.all([
    changeRequest.createdById ? users.load(changeRequest.createdById) : null,
    changeRequest.mergedById ? users.load(changeRequest.mergedById) : null,
    visibleSpace(ctx, changeRequest.spaceId),
    changeRequestOpenComments(ctx, changeRequest.id),
  ]);
  return presentChangeRequest(changeRequest, { createdBy, mergedBy, spaceRevisionId: space.space.revisionId, openComments }, ctx.urls);
}

export async function getChangeRequest(ctx: RequestContext, spaceId: string, idOrNumber: string): Promise<ChangeRequestJSON> {
  return presentChangeRequestRecord(ctx, (await visibleChangeRequest(ctx, spaceId, idOrNumber)).changeRequest);
}

interface ChangeRequestFilter {
  status: string;
  contributor?: string | undefined;
  creator?: string | undefined;
}

const newestFirst: Ordering<ChangeRequestRecord> = {
  name: 'change-requests',
  keys: [
    { field: 'createdAt', direction: 'desc', type: 'date', value: (row) => row.createdAt },
    { field: 'id', direction: 'desc', type: 'string', value: (row) => row.id },
  ],
};

const whereFilter = (filter: ChangeRequestFilter) => ({
  status: filter.status,
  ...(filter.creator ? { createdById: filter.creator } : {}),
  ...(filter.contributor ? { contributors: { some: { userId: filter.contributor } } } : {}),
});

const changeRequestsOfSpace: ChildListing<ChangeRequestRecord, ChangeRequestFilter> = {
  name: 'space-change-requests',
  records: changeRequestRecords,
  ordering: () => newestFirst,
  parentOf: (row) => row.spaceId,
  findMany: (ctx, spaceIds, filter, args) =>
    ctx.db.changeRequest.findMany({ ...args, where: { AND: [{ spaceId: { in: spaceIds }, ...whereFilter(filter) }, args.where] } }),
  count: async (ctx, spaceIds, filter) => {
    const rows = await ctx.db.changeRequest.groupBy({
      by: ['spaceId'],
      where: { spaceId: { in: spaceIds }, ...whereFilter(filter) },
      _count: { _all: true },
    });
    return new Map(rows.map((row) => [row.spaceId, row._count._all]));
  },
};

/** The change requests of a space, newest first, by status (`open` unless asked) and contributor. */
export async function listChangeRequestRecords(ctx: RequestContext, spaceId: string, query: unknown): Promise<Page<ChangeRequestRecord>> {
  await visibleSpace(ctx, spaceId);
  const { status, contributor, creator, ...paging } = parseInput(ListChangeRequestsQuery, query, 'query');
  return listChildren(ctx, changeRequestsOfSpace, spaceId, { status, contributor, creator }, pageRequestOf(paging));
}

export async function listChangeRequests(ctx: RequestContext, spaceId: string, query: unknown): Promise<Page<ChangeRequestJSON>> {
  return mapPage(await listChangeRequestRecords(ctx, spaceId, query), (row) => presentChangeRequestRecord(ctx, row));
}

export async function createChangeRequest(ctx: RequestContext, spaceId: string, body: unknown): Promise<ChangeRequestJSON> {
  const { space, level } = await visibleSpace(ctx, spaceId);
  const input = parseInput(CreateChangeRequestInput, body);
  authorize(atLeast(level, 'edit'), 'open change requests in this space');
  if (space.deletedAt) throw conflict(`space "${spaceId}" is deleted: restore it first`);
  const created = await inTransaction(
    ctx,
    (created: ChangeRequestRecord) => ({ action: 'change_request.create', organizationId: space.organizationId, target: changeRequestTarget(created) }),
    async (tx) => {
      // Creations in one space wait for each other: numbers are consecutive, counts exact.
      await lockSpace(tx, spaceId);
      const counted = await tx.db.space.update({
        where: { id: spaceId },
        data: { changeRequestNumber: { increment: 1 } },
        select: { changeRequestNumber: true, revisionId: true },
      });
      const created = await tx.db.changeRequest.create({
        data: {
          id: newId('changeRequest'),
          spaceId,
          number: counted.changeRequestNumber,
          status: 'open',
          subject: input.subject ?? '',
          createdById: ctx.viewer!.user.id,
          // It starts as the space's content; its first edit starts its own chain of revisions.
          revisionId: counted.revisionId,
          revisionInitialId: counted.revisionId,
          revisionMergedAncestorId: counted.revisionId,
        },
      });
      await recountChangeRequests(tx, spaceId);
      emitEvent(tx, { kind: 'change_request.opened', organizationId: space.organizationId, spaceId, changeRequestId: created.id, subjectId: created.id });
      return created;
    },
  );
  return getChangeRequest(ctx, spaceId, created.id);
}

export async function updateChangeRequest(ctx: RequestContext, spaceId: string, idOrNumber: string, body: unknown): Promise<ChangeRequestJSON> {
  const { space, changeRequest, level } = await visibleChangeRequest(ctx, spaceId, idOrNumber);
  const input = parseInput(UpdateChangeRequestInput, body);
  authorize(atLeast(level, 'edit') || changeRequest.createdById === ctx.viewer?.user.id, 'update this change request');
  if (space.deletedAt) throw conflict(`space "${spaceId}" is deleted: restore it first`);
  const audit: AuditFacts = {
    action: 'change_request.update',
    organizationId: space.organizationId,
    target: changeRequestTarget(changeRequest),
    payload: { ...(input.subject !== undefined ? { subject: input.subject } : {}), ...(input.status ? { status: input.status } : {}) },
  };
  await inTransaction(ctx, audit, async (tx) => {
    await lockSpace(tx, spaceId);
    const current = await tx.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequest.id } });
    if (current.status === 'merged' && input.status) throw conflict(`change request #${current.number} is merged: its status can no longer change`);
    await tx.db.changeRequest.update({
      where: { id: changeRequest.id },
      data: { ...(input.subject !== undefined ? { subject: input.subject } : {}), ...(input.status ? { status: input.status } : {}) },
    });
    await recountChangeRequests(tx, spaceId);
    const kind =
      input.status === 'archived' && current.status !== 'archived'
        ? 'change_request.archived'
        : current.status === 'archived' && input.status && input.status !== 'archived'
          ? 'change_request.reopened'
          : 'change_request.updated';
    // A request that sets what is already there changes nothing to announce.
    const changed = (input.subject !== undefined && input.subject !== current.subject) || (input.status !== undefined && input.status !== current.status);
    if (changed) emitEvent(tx, { kind, organizationId: space.organizationId, spaceId, changeRequestId: current.id, subjectId: current.id });
  });
  return getChangeRequest(ctx, spaceId, changeRequest.id);
}

/** The answer of merge and update: the revision made, and what was done. */
export interface MergeResult {
  revision: string;
  result: 'merge' | 'update';
}

/**
 * Applies a change request to its space as a new space revision. When the space
 * has not moved since the change request was last merged with it, its content
 * becomes the space's as is; otherwise the two are merged three-way from that
 * ancestor (src/domain/content/merge.ts), and a conflict changes nothing.
 * The space's merge rules must pass first (./merge-rules.ts).
 */
export async function mergeChangeRequest(ctx: RequestContext, spaceId: string, idOrNumber: string): Promise<MergeResult> {
  const {
    changeRequest,
    level,
    space: { organizationId },
  } = await editableChangeRequest(ctx, spaceId, idOrNumber, 'merge this change request');
  authorize(atLeast(level, 'review'), 'merge change requests in this space');
  const revision = await inTransaction(
    ctx,
    (revisionId: string) => ({ action: 'change_request.merge', organizationId, target: changeRequestTarget(changeRequest), payload: { revisionId } }),
    async (tx) => {
      const space = await lockSpace(tx, spaceId);
      const current = await tx.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequest.id } });
      if (current.status === 'merged' || current.status === 'archived') throw conflict(`change request #${current.number} is ${current.status}`);
      // The space's merge rules, checked under the content lock: a refused merge changes nothing.
      const organization = await tx.db.organization.findUniqueOrThrow({ where: { id: space.organizationId }, select: { mergeRules: true } });
      assertMergeRules(effectiveMergeRules(space, organization.mergeRules), {
        changeRequest: current,
        spaceRevisionId: space.revisionId,
        reviews: await currentReviews(tx, current.id),
        actorId: tx.viewer!.user.id,
      });
      const [base, ours, theirs] = await Promise.all(
        [current.revisionMergedAncestorId, space.revisionId, current.revisionId].map((id) => loadPageTree(tx, id)),
      );
      const merged =
        space.revisionId === current.revisionMergedAncestorId
          ? { pages: theirs!.pages.values(), markdowns: [] }
          : await mergeTrees(tx, spaceId, base!, ours!, theirs!);
      await storeDocuments(tx, spaceId, merged.markdowns);
      const revisionId = await writeRevision(tx, {
        spaceId,
        changeRequestId: current.id,
        type: 'merge',
        parents: [space.revisionId, current.revisionId],
        base: ours!,
        pages: merged.pages,
        addedFiles: await filesMissingFrom(tx, current.revisionId, space.revisionId),
      });
      await tx.db.space.update({ where: { id: spaceId }, data: { revisionId } });
      await reindexSpace(tx, spaceId, revisionId);
      // Pages moved or renamed on the live content: their old addresses on each site redirect to them.
      await recordMovedPages(tx, spaceId, ours!, await loadPageTree(tx, revisionId));
      await tx.db.changeRequest.update({
        where: { id: current.id },
        data: { status: 'merged', revisionMergedId: revisionId, mergedAt: tx.clock.now(), mergedById: tx.viewer!.user.id },
      });
      await recountChangeRequests(tx, spaceId);
      const scope = { organizationId: space.organizationId, spaceId, changeRequestId: current.id };
      emitEvent(tx, { kind: 'change_request.merged', ...scope, subjectId: current.id, data: { revisionId } });
      emitEvent(tx, { kind: 'space.content_updated', ...scope, subjectId: spaceId, data: { revisionId } });
      return revisionId;
    },
  );
  // A space bound to a repository pushes the merge as one commit (queued: the merge is done either way).
  await afterChangeRequestMerged(ctx, spaceId, changeRequest);
  return { revision, result: 'merge' };
}

/** Pulls the space's current content into a change request (three-way, from their last common revision). */
export async function updateChangeRequestFromSpace(ctx: RequestContext, spaceId: string, idOrNumber: string): Promise<MergeResult> {
  const {
    changeRequest,
    space: { organizationId },
  } = await editableChangeRequest(ctx, spaceId, idOrNumber, 'update this change request');
  const revision = await inTransaction(
    ctx,
    (revisionId: string) => ({
      action: 'change_request.update_from_space',
      organizationId,
      target: changeRequestTarget(changeRequest),
      payload: { revisionId },
    }),
    async (tx) => {
      const space = await lockSpace(tx, spaceId);
      const current = await tx.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequest.id } });
      if (space.revisionId === current.revisionMergedAncestorId) return current.revisionId;
      if (current.revisionId === current.revisionMergedAncestorId) {
        // Nothing edited yet: it simply starts again from the space's content.
        await tx.db.changeRequest.update({ where: { id: current.id }, data: { revisionId: space.revisionId, revisionMergedAncestorId: space.revisionId } });
        emitChangeRequestContent(tx, space, current.id, space.revisionId);
        return space.revisionId;
      }
      const [base, ours, theirs] = await Promise.all(
        [current.revisionMergedAncestorId, current.revisionId, space.revisionId].map((id) => loadPageTree(tx, id)),
      );
      const merged = await mergeTrees(tx, spaceId, base!, ours!, theirs!);
      await storeDocuments(tx, spaceId, merged.markdowns);
      const revisionId = await writeRevision(tx, {
        spaceId,
        changeRequestId: current.id,
        type: 'update',
        parents: [current.revisionId, space.revisionId],
        base: ours!,
        pages: merged.pages,
        addedFiles: await filesMissingFrom(tx, space.revisionId, current.revisionId),
      });
      await tx.db.changeRequest.update({ where: { id: current.id }, data: { revisionId, revisionMergedAncestorId: space.revisionId } });
      emitChangeRequestContent(tx, space, current.id, revisionId);
      return revisionId;
    },
  );
  return { revision, result: 'update' };
}

/** A change request's content moved to a new revision (edits, an update from its space, an import). */
export function emitChangeRequestContent(tx: RequestContext, space: Pick<SpaceRecord, 'id' | 'organizationId'>, changeRequestId: string, revisionId: string) {
  emitEvent(tx, {
    kind: 'change_request.content_updated',
    organizationId: space.organizationId,
    spaceId: space.id,
    changeRequestId,
    subjectId: changeRequestId,
    data: { revisionId },
  });
}

/** Content writes of one space wait for each other until their transaction ends; then the space is read. */
export async function lockSpace(tx: RequestContext, spaceId: string): Promise<SpaceRecord> {
  await serializeOn(tx.db, tx.provider, `space-content:${spaceId}`);
  return tx.db.space.findUniqueOrThrow({ where: { id: spaceId } });
}

/** A change request's author or merger as a User (a user who is gone still shows). */
export async function changeRequestUser(ctx: RequestContext, userId: string | null) {
  const user = userId ? await loader(ctx, userRecords).load(userId) : null;
  return presentAuthor(user, userId, ctx.urls);
}

/** A change request the viewer can see, by its id alone (GraphQL: the id identifies it). */
export async function changeRequestById(ctx: RequestContext, changeRequestId: string): Promise<ChangeRequestAccess> {
  const record = await loader(ctx, changeRequestRecords).load(changeRequestId);
  if (!record) throw notFound('Change request', changeRequestId);
  try {
    return await visibleChangeRequest(ctx, record.spaceId, changeRequestId);
  } catch (error) {
    // Asked by id alone, a change request of a space the viewer cannot see is one that does not exist:
    // the same 404, which names neither its space nor that it is there.
    if (isDomainError(error) && error.status === 404) throw notFound('Change request', changeRequestId);
    throw error;
  }
}
