import type { CommentRecord, CommentReplyRecord } from '../../db/index.ts';
import { changeRequestUser } from '../../domain/change-requests/service.ts';
import { commentBodyOf, replyLocation } from '../../domain/comments/presenter.ts';
import { commentById, commentPermissionsOf, commentReplyById, reactionsOf } from '../../domain/comments/records.ts';
import { deleteCommentReply, listRepliesOfComment, postCommentReplyRecord, updateCommentReplyRecord } from '../../domain/comments/replies.ts';
import { builder } from '../builder.ts';
import { connectionQuery, loadEach, toConnection } from '../connection.ts';
import { Comment, CommentPermissions, CommentUrls, EmojiReaction } from './comment.ts';
import { DocumentFormat } from './content.ts';
import { User } from './user.ts';

/** Replies to comments (a comment's `repliesConnection`), and their mutations. */

export const CommentReply = builder.loadableNodeRef<{ comment: CommentRecord; reply: CommentReplyRecord }, string>('CommentReply', {
  id: { resolve: (row) => row.reply.id },
  load: (ids, ctx) => loadEach(ids, (id) => commentReplyById(ctx, id)),
});

CommentReply.implement({
  description: 'A reply to a comment (REST `…/comments/{commentId}/replies/{commentReplyId}`); seen by those who can see its space',
  fields: (t) => ({
    object: t.string({ description: 'Always "comment-reply" (the REST `object`)', resolve: () => 'comment-reply' }),
    comment: t.expose('comment', { type: Comment, description: 'The comment it replies to' }),
    postedBy: t.field({
      type: User,
      description: 'The user who posted it (a user who is gone shows as "Deleted user")',
      resolve: (row, _args, ctx) => changeRequestUser(ctx, row.reply.postedById),
    }),
    postedAt: t.field({ type: 'DateTime', description: 'When it was posted', resolve: (row) => row.reply.postedAt.toISOString() }),
    editedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When its body was last edited; null when it never was',
      resolve: (row) => row.reply.editedAt?.toISOString() ?? null,
    }),
    body: t.field({
      type: 'JSON',
      description: 'As REST: {markdown} (default) or {document}',
      args: { format: t.arg({ type: DocumentFormat, description: 'markdown (default) or document: the structured form' }) },
      resolve: (row, args) => commentBodyOf(row.reply.body, args.format ?? undefined),
    }),
    reactions: t.field({
      type: [EmojiReaction],
      description: 'Emoji reactions to it, each emoji with its users, in the order each emoji was first used',
      resolve: (row, _args, ctx) => reactionsOf(ctx, row.reply.id),
    }),
    urls: t.field({
      type: CommentUrls,
      description: 'Its address in this REST API',
      resolve: (row, _args, ctx) => ({ location: replyLocation(row.comment, row.reply.id, ctx.urls) }),
    }),
    permissions: t.field({
      type: CommentPermissions,
      description:
        'What the caller may do with it: react with comment level on the space; edit its body as its author; delete it as its author or with admin level (deleteCommentReply)',
      resolve: (row, _args, ctx) => commentPermissionsOf(ctx, row.comment, row.reply),
    }),
  }),
});

builder.objectField(Comment, 'repliesConnection', (t) =>
  t.connection({
    type: CommentReply,
    description: 'Replies to it, oldest first (REST `…/comments/{commentId}/replies`)',
    resolve: async (comment, args, ctx) => {
      const page = await listRepliesOfComment(ctx, comment, connectionQuery(args));
      return toConnection({ ...page, items: page.items.map((reply) => ({ comment, reply })) });
    },
  }),
);

/** Payloads read the reply again, as the viewer sees it now. */
const replyPayload = {
  outputFields: (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, { replyId: string }>) => ({
    reply: t.field({ type: CommentReply, resolve: (payload, _args, ctx) => commentReplyById(ctx, payload.replyId) }),
  }),
};

builder.relayMutationField(
  'createCommentReply',
  {
    inputFields: (t) => ({
      commentId: t.id({ required: true, description: 'The comment to reply to' }),
      body: t.string({ required: true, description: 'The text, in Markdown (not blank; up to 100,000 characters)' }),
    }),
  },
  {
    description: 'Replies to a comment (REST `POST …/comments/{commentId}/replies`; comment level on the space, which must not be deleted)',
    resolve: async (_root, { input: { commentId, body } }, ctx) => {
      const comment = await commentById(ctx, commentId);
      const { reply } = await postCommentReplyRecord(ctx, comment.spaceId, comment.changeRequestId, commentId, { body: { markdown: body } });
      return { replyId: reply.id };
    },
  },
  replyPayload,
);

builder.relayMutationField(
  'updateCommentReply',
  {
    inputFields: (t) => ({
      replyId: t.id({ required: true, description: 'The reply' }),
      body: t.string({ description: 'New text, in Markdown (its author only; not blank; up to 100,000 characters); absent keeps it' }),
      addedReactions: t.stringList({ description: "Emojis to add to the caller's reactions (up to 50), as characters or hex code points such as 1f389" }),
      removedReactions: t.stringList({ description: "Emojis to remove from the caller's reactions (up to 50); one both added and removed is removed" }),
    }),
  },
  {
    description:
      "Edits a reply's body, adds or removes the caller's reactions (REST `PUT …/comments/{commentId}/replies/{commentReplyId}`; comment level on the space, which must not be deleted; only its author edits the body)",
    resolve: async (_root, { input: { replyId, body, addedReactions, removedReactions } }, ctx) => {
      const { comment } = await commentReplyById(ctx, replyId);
      await updateCommentReplyRecord(ctx, comment.spaceId, comment.changeRequestId, comment.id, replyId, {
        ...(body != null ? { body: { markdown: body } } : {}),
        ...(addedReactions ? { addedReactions } : {}),
        ...(removedReactions ? { removedReactions } : {}),
      });
      return { replyId };
    },
  },
  replyPayload,
);

builder.relayMutationField(
  'deleteCommentReply',
  {
    inputFields: (t) => ({ replyId: t.id({ required: true, description: 'The reply' }) }),
  },
  {
    description:
      'Deletes a reply with its reactions (REST `DELETE …/comments/{commentId}/replies/{commentReplyId}`; admin level on the space, or its author with comment level; the space must not be deleted)',
    resolve: async (_root, { input: { replyId } }, ctx) => {
      const { comment } = await commentReplyById(ctx, replyId);
      await deleteCommentReply(ctx, comment.spaceId, comment.changeRequestId, comment.id, replyId);
      return { deletedReplyId: replyId };
    },
  },
  { outputFields: (t) => ({ deletedReplyId: t.exposeID('deletedReplyId', { description: 'Id of the reply deleted' }) }) },
);
