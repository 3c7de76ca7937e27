import type { RequestContext } from '../../context.ts';
import type { AuditFacts } from '../audit/record.ts';
import type { CommentRecord, CommentReplyRecord } from '../../db/index.ts';
import { conflict, notFound } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { type Page, pageRequestOf } from '../../lib/pagination.ts';
import { parseInput } from '../../lib/validation.ts';
import { authorize } from '../access.ts';
import { emitEvent } from '../events/emit.ts';
import { type ChildListing, countsBy, listChildren, mapPage } from '../shared/pages.ts';
import { inTransaction, serializeOn } from '../transaction.ts';
import { requireViewer } from '../users/service.ts';
import { CommentFormatQuery, ListCommentRepliesQuery, PostCommentReplyInput, UpdateCommentReplyInput } from './inputs.ts';
import { type CommentReplyJSON, commentPermissions } from './presenter.ts';
import {
  commentEventScope,
  commentReplyById,
  commentReplyRecords,
  commentScope,
  findComment,
  findReply,
  presentReplyRecord,
  writableScope,
  writeReactions,
} from './records.ts';

/**
 * Replies to comments (of a space's content or of a change request), with
 * their reactions: the same rules as comments (./service.ts) — `comment` on
 * the space replies and reacts, authors edit their own, `admin` deletes any.
 */

const repliesOfComment: ChildListing<CommentReplyRecord, null> = {
  name: 'comment-replies',
  records: commentReplyRecords,
  ordering: () => ({
    name: 'comment-replies:postedAt',
    keys: [
      { field: 'postedAt', direction: 'asc', type: 'date', value: (row) => row.postedAt },
      { field: 'id', direction: 'asc', type: 'string', value: (row) => row.id },
    ],
  }),
  parentOf: (row) => row.commentId,
  findMany: (ctx, commentIds, _filter, args) => ctx.db.commentReply.findMany({ ...args, where: { AND: [{ commentId: { in: commentIds } }, args.where] } }),
  count: async (ctx, commentIds) =>
    countsBy(await ctx.db.commentReply.groupBy({ by: ['commentId'], where: { commentId: { in: commentIds } }, _count: { _all: true } }), 'commentId'),
};

export async function listCommentReplyRecords(
  ctx: RequestContext,
  spaceId: string,
  changeRequestId: string | null,
  commentId: string,
  query: unknown,
): Promise<{ comment: CommentRecord; page: Page<CommentReplyRecord> }> {
  const { format: _format, ...paging } = parseInput(ListCommentRepliesQuery, query, 'query');
  const comment = await findComment(ctx, await commentScope(ctx, spaceId, changeRequestId), commentId);
  return { comment, page: await listChildren(ctx, repliesOfComment, comment.id, null, pageRequestOf(paging)) };
}

/** Replies of a comment (GraphQL's repliesConnection): the comment was authorized when loaded. */
export async function listRepliesOfComment(ctx: RequestContext, comment: CommentRecord, query: unknown): Promise<Page<CommentReplyRecord>> {
  const { format: _format, ...paging } = parseInput(ListCommentRepliesQuery, query, 'query');
  return listChildren(ctx, repliesOfComment, comment.id, null, pageRequestOf(paging));
}

export async function listCommentReplies(
  ctx: RequestContext,
  spaceId: string,
  changeRequestId: string | null,
  commentId: string,
  query: unknown,
): Promise<Page<CommentReplyJSON>> {
  const { comment, page } = await listCommentReplyRecords(ctx, spaceId, changeRequestId, commentId, query);
  const { format } = parseInput(ListCommentRepliesQuery, query, 'query');
  return mapPage(page, (reply) => presentReplyRecord(ctx, comment, reply, format));
}

export async function getCommentReply(
  ctx: RequestContext,
  spaceId: string,
  changeRequestId: string | null,
  commentId: string,
  replyId: string,
  query: unknown = {},
): Promise<CommentReplyJSON> {
  const { format } = parseInput(CommentFormatQuery, query, 'query');
  const comment = await findComment(ctx, await commentScope(ctx, spaceId, changeRequestId), commentId);
  return presentReplyRecord(ctx, comment, await findReply(ctx, comment, replyId), format);
}

export async function postCommentReplyRecord(
  ctx: RequestContext,
  spaceId: string,
  changeRequestId: string | null,
  commentId: string,
  body: unknown,
): Promise<{ comment: CommentRecord; reply: CommentReplyRecord }> {
  const input = parseInput(PostCommentReplyInput, body);
  const viewer = requireViewer(ctx);
  const scope = await writableScope(ctx, spaceId, changeRequestId, 'reply to comments in this space');
  const comment = await findComment(ctx, scope, commentId);
  const id = newId('commentReply');
  const audit: AuditFacts = {
    action: 'comment_reply.post',
    organizationId: comment.organizationId,
    target: { type: 'comment-reply', id },
    payload: { commentId: comment.id },
  };
  await inTransaction(ctx, audit, async (tx) => {
    await tx.db.commentReply.create({
      data: { id, organizationId: comment.organizationId, commentId: comment.id, postedById: viewer.id, body: input.body.markdown, postedAt: tx.clock.now() },
    });
    emitEvent(tx, {
      kind: 'reply.posted',
      ...commentEventScope(comment.organizationId, comment.spaceId, comment.changeRequestId),
      subjectId: id,
      data: { commentId: comment.id },
    });
  });
  return commentReplyById(ctx, id);
}

export async function postCommentReply(
  ctx: RequestContext,
  spaceId: string,
  changeRequestId: string | null,
  commentId: string,
  body: unknown,
  query: unknown = {},
): Promise<CommentReplyJSON> {
  const { format } = parseInput(CommentFormatQuery, query, 'query');
  const { comment, reply } = await postCommentReplyRecord(ctx, spaceId, changeRequestId, commentId, body);
  return presentReplyRecord(ctx, comment, reply, format);
}

/** Updates a reply: `body` (its author; sets editedAt) and the viewer's reactions; needs `comment` on the space. */
export async function updateCommentReplyRecord(
  ctx: RequestContext,
  spaceId: string,
  changeRequestId: string | null,
  commentId: string,
  replyId: string,
  body: unknown,
): Promise<{ comment: CommentRecord; reply: CommentReplyRecord }> {
  const input = parseInput(UpdateCommentReplyInput, body);
  const viewer = requireViewer(ctx);
  const scope = await writableScope(ctx, spaceId, changeRequestId, 'update comment replies in this space');
  const comment = await findComment(ctx, scope, commentId);
  const reply = await findReply(ctx, comment, replyId);
  if (input.body) authorize(commentPermissions(scope.level, reply.postedById, viewer.id).edit, 'edit this reply (only its author can)');
  const reactions = Boolean(input.addedReactions?.length || input.removedReactions?.length);
  const audit: AuditFacts = {
    action: 'comment_reply.update',
    organizationId: comment.organizationId,
    target: { type: 'comment-reply', id: reply.id },
    payload: { commentId: comment.id },
  };
  await inTransaction(ctx, audit, async (tx) => {
    if (reactions) await serializeOn(tx.db, tx.provider, `comment-reactions:${reply.id}`);
    if (input.body) {
      const { count } = await tx.db.commentReply.updateMany({ where: { id: reply.id }, data: { body: input.body.markdown, editedAt: tx.clock.now() } });
      if (count === 0) throw notFound('Comment reply', replyId);
      emitEvent(tx, {
        kind: 'reply.updated',
        ...commentEventScope(comment.organizationId, comment.spaceId, comment.changeRequestId),
        subjectId: reply.id,
        data: { commentId: comment.id },
      });
    }
    if (reactions) {
      await writeReactions(
        tx,
        { organizationId: reply.organizationId, commentId: comment.id, replyId: reply.id },
        viewer.id,
        input.addedReactions ?? [],
        input.removedReactions ?? [],
      );
    }
  });
  return commentReplyById(ctx, replyId);
}

/** Deletes a reply with its reactions: `admin` on the space, or its author (with comment level), as for comments. */
export async function deleteCommentReply(
  ctx: RequestContext,
  spaceId: string,
  changeRequestId: string | null,
  commentId: string,
  replyId: string,
): Promise<void> {
  const scope = await commentScope(ctx, spaceId, changeRequestId);
  const comment = await findComment(ctx, scope, commentId);
  const reply = await findReply(ctx, comment, replyId);
  authorize(commentPermissions(scope.level, reply.postedById, ctx.viewer?.user.id).delete, 'delete this reply');
  if (scope.space.deletedAt) throw conflict(`space "${spaceId}" is deleted: restore it first`);
  const audit: AuditFacts = {
    action: 'comment_reply.delete',
    organizationId: comment.organizationId,
    target: { type: 'comment-reply', id: reply.id },
    payload: { commentId: comment.id },
  };
  await inTransaction(ctx, audit, async (tx) => {
    await tx.db.commentReaction.deleteMany({ where: { replyId: reply.id } });
    // Deleted by a racing request meanwhile: announced by that one only.
    const { count } = await tx.db.commentReply.deleteMany({ where: { id: reply.id } });
    if (count === 0) return;
    emitEvent(tx, {
      kind: 'reply.deleted',
      ...commentEventScope(comment.organizationId, comment.spaceId, comment.changeRequestId),
      subjectId: reply.id,
      data: { commentId: comment.id },
    });
  });
}

export async function updateCommentReply(
  ctx: RequestContext,
  spaceId: string,
  changeRequestId: string | null,
  commentId: string,
  replyId: string,
  body: unknown,
): Promise<CommentReplyJSON> {
  const { comment, reply } = await updateCommentReplyRecord(ctx, spaceId, changeRequestId, commentId, replyId, body);
  return presentReplyRecord(ctx, comment, reply);
}
