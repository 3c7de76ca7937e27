import type { RequestContext } from '../../context.ts';
import type { AuditFacts } from '../audit/record.ts';
import type { CommentRecord } from '../../db/index.ts';
import { conflict, invalid, notFound } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { type Ordering, type Page, pageRequestOf } from '../../lib/pagination.ts';
import { parseInput } from '../../lib/validation.ts';
import { authorize } from '../access.ts';
import { loadPageTree } from '../content/tree.ts';
import { emitEvent } from '../events/emit.ts';
import { type ChildListing, countsBy, listChildren, mapPage } from '../shared/pages.ts';
import { inTransaction, serializeOn } from '../transaction.ts';
import { requireViewer } from '../users/service.ts';
import { CommentFormatQuery, ListCommentsQuery, PostCommentInput, UpdateCommentInput } from './inputs.ts';
import { type CommentJSON, commentPermissions } from './presenter.ts';
import {
  type CommentScope,
  commentById,
  commentEventScope,
  commentRecords,
  commentScope,
  findComment,
  presentCommentRecord,
  writableScope,
  writeReactions,
} from './records.ts';

/**
 * Comments on a space's content, or inside one of its change requests: the
 * same operations for both scopes (`changeRequestId` null for the space's
 * own). Readers of the space (`read`) see them; `comment` posts, reacts and
 * resolves; authors edit their own; `admin` deletes any (authors their own).
 * Outside the space's readers a comment does not exist (404), as the space
 * does not. Replies are in ./replies.ts; what both share in ./records.ts.
 */

interface CommentFilter {
  order: 'asc' | 'desc';
  status: 'all' | 'open' | 'resolved';
  targetPage?: string | undefined;
}

function commentOrdering(filter: CommentFilter): Ordering<CommentRecord> {
  return {
    name: `comments:postedAt:${filter.order}`,
    keys: [
      { field: 'postedAt', direction: filter.order, type: 'date', value: (row) => row.postedAt },
      { field: 'id', direction: filter.order, type: 'string', value: (row) => row.id },
    ],
  };
}

const commentWhere = (filter: CommentFilter) => ({
  ...(filter.status !== 'all' ? { status: filter.status } : {}),
  ...(filter.targetPage ? { pageId: filter.targetPage } : {}),
});

const commentsOfSpace: ChildListing<CommentRecord, CommentFilter> = {
  name: 'space-comments',
  records: commentRecords,
  ordering: commentOrdering,
  parentOf: (row) => row.spaceId,
  findMany: (ctx, spaceIds, filter, args) =>
    ctx.db.comment.findMany({ ...args, where: { AND: [{ spaceId: { in: spaceIds }, changeRequestId: null, ...commentWhere(filter) }, args.where] } }),
  count: async (ctx, spaceIds, filter) =>
    countsBy(
      await ctx.db.comment.groupBy({
        by: ['spaceId'],
        where: { spaceId: { in: spaceIds }, changeRequestId: null, ...commentWhere(filter) },
        _count: { _all: true },
      }),
      'spaceId',
    ),
};

const commentsOfChangeRequest: ChildListing<CommentRecord, CommentFilter> = {
  name: 'change-request-comments',
  records: commentRecords,
  ordering: commentOrdering,
  parentOf: (row) => row.changeRequestId ?? '',
  findMany: (ctx, changeRequestIds, filter, args) =>
    ctx.db.comment.findMany({ ...args, where: { AND: [{ changeRequestId: { in: changeRequestIds }, ...commentWhere(filter) }, args.where] } }),
  count: async (ctx, changeRequestIds, filter) =>
    countsBy(
      await ctx.db.comment.groupBy({
        by: ['changeRequestId'],
        where: { changeRequestId: { in: changeRequestIds }, ...commentWhere(filter) },
        _count: { _all: true },
      }),
      'changeRequestId',
    ),
};
/** Comments of a space's content (changeRequestId null) or of one of its change requests: newest first unless `order=asc`. */
export async function listCommentRecords(ctx: RequestContext, spaceId: string, changeRequestId: string | null, query: unknown): Promise<Page<CommentRecord>> {
  const { order, status, targetPage, format: _format, ...paging } = parseInput(ListCommentsQuery, query, 'query');
  const scope = await commentScope(ctx, spaceId, changeRequestId);
  const filter: CommentFilter = { order, status, targetPage };
  return scope.changeRequest
    ? listChildren(ctx, commentsOfChangeRequest, scope.changeRequest.id, filter, pageRequestOf(paging))
    : listChildren(ctx, commentsOfSpace, spaceId, filter, pageRequestOf(paging));
}

export async function listComments(ctx: RequestContext, spaceId: string, changeRequestId: string | null, query: unknown): Promise<Page<CommentJSON>> {
  const page = await listCommentRecords(ctx, spaceId, changeRequestId, query);
  const { format } = parseInput(ListCommentsQuery, query, 'query');
  return mapPage(page, (comment) => presentCommentRecord(ctx, comment, format));
}

export async function getComment(
  ctx: RequestContext,
  spaceId: string,
  changeRequestId: string | null,
  commentId: string,
  query: unknown = {},
): Promise<CommentJSON> {
  const { format } = parseInput(CommentFormatQuery, query, 'query');
  const scope = await commentScope(ctx, spaceId, changeRequestId);
  return presentCommentRecord(ctx, await findComment(ctx, scope, commentId), format);
}

/** Checks that a page exists in the revision comments are read in. */
async function checkPage(ctx: RequestContext, scope: CommentScope, pageId: string): Promise<void> {
  const revision = scope.changeRequest?.revisionId ?? scope.space.revisionId;
  const tree = await loadPageTree(ctx, revision);
  if (!tree.pages.has(pageId)) throw invalid(`page: no page "${pageId}" in this ${scope.changeRequest ? 'change request' : 'space'}`);
}

export async function postCommentRecord(ctx: RequestContext, spaceId: string, changeRequestId: string | null, body: unknown): Promise<CommentRecord> {
  const input = parseInput(PostCommentInput, body);
  const viewer = requireViewer(ctx);
  const scope = await writableScope(ctx, spaceId, changeRequestId, 'comment in this space');
  if (input.page) await checkPage(ctx, scope, input.page);
  if (input.node && !input.page) throw invalid('node: needs the page it is in (page)');
  const id = newId('comment');
  const audit: AuditFacts = {
    action: 'comment.post',
    organizationId: scope.space.organizationId,
    target: { type: 'comment', id },
    payload: { spaceId, ...(scope.changeRequest ? { changeRequestId: scope.changeRequest.id } : {}) },
  };
  await inTransaction(ctx, audit, async (tx) => {
    await tx.db.comment.create({
      data: {
        id,
        organizationId: scope.space.organizationId,
        spaceId,
        changeRequestId: scope.changeRequest?.id ?? null,
        pageId: input.page ?? null,
        nodeId: input.node ?? null,
        postedById: viewer.id,
        body: input.body.markdown,
        postedAt: tx.clock.now(),
        status: 'open',
      },
    });
    emitEvent(tx, { kind: 'comment.posted', ...commentEventScope(scope.space.organizationId, spaceId, scope.changeRequest?.id ?? null), subjectId: id });
  });
  return commentById(ctx, id);
}

export async function postComment(ctx: RequestContext, spaceId: string, changeRequestId: string | null, body: unknown): Promise<CommentJSON> {
  return presentCommentRecord(ctx, await postCommentRecord(ctx, spaceId, changeRequestId, body));
}

/**
 * Updates a comment: `resolved` (state table: true sets status, resolvedAt and
 * resolvedBy; false clears them), `body` (its author; sets editedAt), and the
 * viewer's reactions. Any update needs `comment` on the space.
 */
export async function updateCommentRecord(
  ctx: RequestContext,
  spaceId: string,
  changeRequestId: string | null,
  commentId: string,
  body: unknown,
): Promise<CommentRecord> {
  const input = parseInput(UpdateCommentInput, body);
  const viewer = requireViewer(ctx);
  const scope = await writableScope(ctx, spaceId, changeRequestId, 'update comments in this space');
  const comment = await findComment(ctx, scope, commentId);
  if (input.body) authorize(commentPermissions(scope.level, comment.postedById, viewer.id).edit, 'edit this comment (only its author can)');
  const reactions = Boolean(input.addedReactions?.length || input.removedReactions?.length);
  const audit: AuditFacts = {
    action: 'comment.update',
    organizationId: comment.organizationId,
    target: { type: 'comment', id: comment.id },
    payload: { spaceId },
  };
  await inTransaction(ctx, audit, async (tx) => {
    // Reactions on one comment queue here: every user's set stays exact.
    if (reactions) await serializeOn(tx.db, tx.provider, `comment-reactions:${comment.id}`);
    const now = tx.clock.now();
    let edited = false;
    if (input.body) {
      const { count } = await tx.db.comment.updateMany({ where: { id: comment.id }, data: { body: input.body.markdown, editedAt: now } });
      if (count === 0) throw notFound('Comment', commentId);
      edited = true;
    }
    // The status changes only from the other one: of two requests resolving at once, one resolves (and is announced).
    const status =
      input.resolved === true
        ? { from: 'open', data: { status: 'resolved', resolvedAt: now, resolvedById: viewer.id } }
        : input.resolved === false
          ? { from: 'resolved', data: { status: 'open', resolvedAt: null, resolvedById: null } }
          : undefined;
    const changed = status ? (await tx.db.comment.updateMany({ where: { id: comment.id, status: status.from }, data: status.data })).count === 1 : false;
    if (status && !changed && !(await tx.db.comment.findUnique({ where: { id: comment.id }, select: { id: true } }))) throw notFound('Comment', commentId);
    if (edited || changed) {
      const kind = changed && input.resolved === true ? 'comment.resolved' : 'comment.updated';
      emitEvent(tx, { kind, ...commentEventScope(comment.organizationId, comment.spaceId, comment.changeRequestId), subjectId: comment.id });
    }
    if (reactions) {
      await writeReactions(
        tx,
        { organizationId: comment.organizationId, commentId: comment.id, replyId: null },
        viewer.id,
        input.addedReactions ?? [],
        input.removedReactions ?? [],
      );
    }
  });
  return commentById(ctx, commentId);
}

export async function updateComment(
  ctx: RequestContext,
  spaceId: string,
  changeRequestId: string | null,
  commentId: string,
  body: unknown,
): Promise<CommentJSON> {
  return presentCommentRecord(ctx, await updateCommentRecord(ctx, spaceId, changeRequestId, commentId, body));
}

/** Deletes a comment with its replies and reactions: `admin` on the space, or its author. */
export async function deleteComment(ctx: RequestContext, spaceId: string, changeRequestId: string | null, commentId: string): Promise<void> {
  const scope = await commentScope(ctx, spaceId, changeRequestId);
  const comment = await findComment(ctx, scope, commentId);
  authorize(commentPermissions(scope.level, comment.postedById, ctx.viewer?.user.id).delete, 'delete this comment');
  if (scope.space.deletedAt) throw conflict(`space "${spaceId}" is deleted: restore it first`);
  const audit: AuditFacts = {
    action: 'comment.delete',
    organizationId: comment.organizationId,
    target: { type: 'comment', id: comment.id },
    payload: { spaceId },
  };
  await inTransaction(ctx, audit, async (tx) => {
    await tx.db.commentReaction.deleteMany({ where: { commentId: comment.id } });
    await tx.db.commentReply.deleteMany({ where: { commentId: comment.id } });
    const { count } = await tx.db.comment.deleteMany({ where: { id: comment.id } });
    // Deleted meanwhile by a racing request: done, and announced once, by that one.
    if (count === 0) return;
    emitEvent(tx, { kind: 'comment.deleted', ...commentEventScope(comment.organizationId, comment.spaceId, comment.changeRequestId), subjectId: comment.id });
  });
}
