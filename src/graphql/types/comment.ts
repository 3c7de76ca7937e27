import type { CommentRecord, CommentReplyRecord } from '../../db/index.ts';
import { changeRequestUser } from '../../domain/change-requests/service.ts';
import { COMMENT_STATUSES, COMMENT_STATUS_FILTERS } from '../../domain/comments/inputs.ts';
import {
  type CommentTargetFacts,
  type EmojiReactionView,
  commentBodyOf,
  commentLocation,
  commentTarget,
  replyLocation,
} from '../../domain/comments/presenter.ts';
import {
  commentById,
  commentPermissionsOf,
  commentRepliers,
  commentReplyById,
  commentReplyCount,
  commentRevision,
  commentTargetFacts,
  deleteComment,
  listCommentRecords,
  listRepliesOfComment,
  postCommentRecord,
  postCommentReplyRecord,
  reactionsOf,
  updateCommentRecord,
  updateCommentReplyRecord,
} from '../../domain/comments/service.ts';
import { builder } from '../builder.ts';
import { connectionQuery, loadEach, toConnection } from '../connection.ts';
import { ChangeRequest } from './change-request.ts';
import { booleanObject, OrderDirection, urlsObject } from './common.ts';
import { DocumentFormat } from './content.ts';
import { Space } from './space.ts';
import { User } from './user.ts';

const CommentStatus = builder.enumType('CommentStatus', { values: COMMENT_STATUSES });
const CommentStatusFilter = builder.enumType('CommentStatusFilter', { values: COMMENT_STATUS_FILTERS });
const CommentPermissions = booleanObject('CommentPermissions', ['view', 'edit', 'reply', 'delete'] as const);
const CommentUrls = urlsObject('CommentUrls', ['location']);

const EmojiReactionUser = builder.objectRef<EmojiReactionView['users'][number]>('EmojiReactionUser').implement({
  fields: (t) => ({
    user: t.field({ type: User, resolve: (entry, _args, ctx) => changeRequestUser(ctx, entry.userId) }),
    reactedAt: t.field({ type: 'DateTime', resolve: (entry) => entry.reactedAt.toISOString() }),
  }),
});

const EmojiReaction = builder.objectRef<EmojiReactionView>('EmojiReaction').implement({
  description: 'One emoji and the users who reacted with it',
  fields: (t) => ({
    emoji: t.exposeString('emoji'),
    count: t.exposeInt('count'),
    users: t.field({ type: [EmojiReactionUser], resolve: (reaction) => reaction.users }),
  }),
});

const CommentReplier = builder.objectRef<{ userId: string; count: number; updatedAt: Date }>('CommentReplier').implement({
  description: 'A user who replied to a comment: how many replies, and when last',
  fields: (t) => ({
    user: t.field({ type: User, resolve: (replier, _args, ctx) => changeRequestUser(ctx, replier.userId) }),
    count: t.exposeInt('count'),
    updatedAt: t.field({ type: 'DateTime', resolve: (replier) => replier.updatedAt.toISOString() }),
  }),
});

const CommentTargetPage = builder.objectRef<{ comment: CommentRecord; facts: CommentTargetFacts }>('CommentTargetPage').implement({
  description: 'The page a comment is attached to, as the content it is read in has it',
  fields: (t) => ({
    id: t.id({ resolve: ({ comment }) => comment.pageId! }),
    title: t.string({ nullable: true, description: 'Null when the page is no longer in the content', resolve: ({ facts }) => facts.page?.state.title ?? null }),
    emoji: t.string({ nullable: true, resolve: ({ facts }) => facts.page?.state.emoji ?? null }),
    icon: t.string({ nullable: true, resolve: ({ facts }) => facts.page?.state.icon ?? null }),
    path: t.string({ nullable: true, resolve: ({ facts }) => facts.page?.path ?? null }),
    createdAt: t.field({ type: 'DateTime', nullable: true, resolve: ({ facts }) => facts.page?.state.createdAt.toISOString() ?? null }),
    updatedAt: t.field({ type: 'DateTime', nullable: true, resolve: ({ facts }) => facts.page?.state.updatedAt.toISOString() ?? null }),
    outdated: t.boolean({
      description: 'Whether the page was edited after the comment was posted, or is gone',
      resolve: ({ comment, facts }) => (commentTarget(comment, facts).page as { outdated: boolean }).outdated,
    }),
  }),
});

const CommentTargetNode = builder.objectRef<{ comment: CommentRecord; facts: CommentTargetFacts }>('CommentTargetNode').implement({
  description: 'The block of a page a comment is attached to',
  fields: (t) => ({
    id: t.id({ description: "The block's key in the page's structured document", resolve: ({ comment }) => comment.nodeId! }),
    preview: t.string({ description: "The block's text; empty when the block was edited or removed", resolve: ({ facts }) => facts.nodePreview ?? '' }),
  }),
});

const CommentTarget = builder.objectRef<{ comment: CommentRecord }>('CommentTarget').implement({
  description: 'What a comment is attached to',
  fields: (t) => ({
    space: t.field({ type: Space, resolve: ({ comment }) => comment.spaceId }),
    changeRequest: t.field({ type: ChangeRequest, nullable: true, resolve: ({ comment }) => comment.changeRequestId }),
    revision: t.string({ resolve: ({ comment }, _args, ctx) => commentRevision(ctx, comment) }),
    page: t.field({
      type: CommentTargetPage,
      nullable: true,
      resolve: async ({ comment }, _args, ctx) => (comment.pageId ? { comment, facts: await commentTargetFacts(ctx, comment) } : null),
    }),
    node: t.field({
      type: CommentTargetNode,
      nullable: true,
      resolve: async ({ comment }, _args, ctx) => (comment.nodeId ? { comment, facts: await commentTargetFacts(ctx, comment) } : null),
    }),
  }),
});

/** Backed by the comment's row: reactions, counts and permissions are computed when asked, batched per request. */
export const Comment = builder.loadableNodeRef<CommentRecord, string>('Comment', {
  id: { resolve: (comment) => comment.id },
  load: (ids, ctx) => loadEach(ids, (id) => commentById(ctx, id)),
});

export const CommentReply = builder.loadableNodeRef<{ comment: CommentRecord; reply: CommentReplyRecord }, string>('CommentReply', {
  id: { resolve: (row) => row.reply.id },
  load: (ids, ctx) => loadEach(ids, (id) => commentReplyById(ctx, id)),
});

Comment.implement({
  description: 'A comment on a space content or in a change request',
  fields: (t) => ({
    object: t.string({ resolve: () => 'comment' }),
    postedBy: t.field({ type: User, resolve: (comment, _args, ctx) => changeRequestUser(ctx, comment.postedById) }),
    postedAt: t.field({ type: 'DateTime', resolve: (comment) => comment.postedAt.toISOString() }),
    editedAt: t.field({ type: 'DateTime', nullable: true, resolve: (comment) => comment.editedAt?.toISOString() ?? null }),
    body: t.field({
      type: 'JSON',
      description: 'As REST: {markdown} (default) or {document}',
      args: { format: t.arg({ type: DocumentFormat }) },
      resolve: (comment, args) => commentBodyOf(comment.body, args.format ?? undefined),
    }),
    status: t.field({ type: CommentStatus, resolve: (comment) => (comment.status === 'resolved' ? 'resolved' : 'open') }),
    resolvedAt: t.field({ type: 'DateTime', nullable: true, resolve: (comment) => comment.resolvedAt?.toISOString() ?? null }),
    resolvedBy: t.field({
      type: User,
      nullable: true,
      resolve: (comment, _args, ctx) => (comment.status === 'resolved' ? changeRequestUser(ctx, comment.resolvedById) : null),
    }),
    reactions: t.field({ type: [EmojiReaction], resolve: (comment, _args, ctx) => reactionsOf(ctx, comment.id) }),
    replies: t.int({ description: 'Number of replies (the list: repliesConnection)', resolve: (comment, _args, ctx) => commentReplyCount(ctx, comment) }),
    repliers: t.field({ type: [CommentReplier], resolve: (comment, _args, ctx) => commentRepliers(ctx, comment) }),
    target: t.field({ type: CommentTarget, resolve: (comment) => ({ comment }) }),
    urls: t.field({ type: CommentUrls, resolve: (comment, _args, ctx) => ({ location: commentLocation(comment, ctx.urls) }) }),
    permissions: t.field({ type: CommentPermissions, resolve: (comment, _args, ctx) => commentPermissionsOf(ctx, comment) }),
    repliesConnection: t.connection({
      type: CommentReply,
      description: 'Replies, oldest first',
      resolve: async (comment, args, ctx) => {
        const page = await listRepliesOfComment(ctx, comment, connectionQuery(args));
        return toConnection({ ...page, items: page.items.map((reply) => ({ comment, reply })) });
      },
    }),
  }),
});

CommentReply.implement({
  description: 'A reply to a comment',
  fields: (t) => ({
    object: t.string({ resolve: () => 'comment-reply' }),
    comment: t.field({ type: Comment, resolve: (row) => row.comment }),
    postedBy: t.field({ type: User, resolve: (row, _args, ctx) => changeRequestUser(ctx, row.reply.postedById) }),
    postedAt: t.field({ type: 'DateTime', resolve: (row) => row.reply.postedAt.toISOString() }),
    editedAt: t.field({ type: 'DateTime', nullable: true, resolve: (row) => row.reply.editedAt?.toISOString() ?? null }),
    body: t.field({
      type: 'JSON',
      description: 'As REST: {markdown} (default) or {document}',
      args: { format: t.arg({ type: DocumentFormat }) },
      resolve: (row, args) => commentBodyOf(row.reply.body, args.format ?? undefined),
    }),
    reactions: t.field({ type: [EmojiReaction], resolve: (row, _args, ctx) => reactionsOf(ctx, row.reply.id) }),
    urls: t.field({ type: CommentUrls, resolve: (row, _args, ctx) => ({ location: replyLocation(row.comment, row.reply.id, ctx.urls) }) }),
    permissions: t.field({ type: CommentPermissions, resolve: (row, _args, ctx) => commentPermissionsOf(ctx, row.comment, row.reply) }),
  }),
});

const commentListArgs = {
  order: { description: 'By posting time: desc (default) or asc' },
  status: { description: "By the comment's status: all (default), open or resolved" },
  targetPage: { description: 'Only the comments on this page (id)' },
};

builder.objectField(Space, 'commentsConnection', (t) =>
  t.connection({
    type: Comment,
    description: "Comments on the space's own content (not those of its change requests), newest first unless order: asc",
    args: {
      order: t.arg({ type: OrderDirection, description: commentListArgs.order.description }),
      status: t.arg({ type: CommentStatusFilter, description: commentListArgs.status.description }),
      targetPage: t.arg.string({ description: commentListArgs.targetPage.description }),
    },
    resolve: async (space, args, ctx) => toConnection(await listCommentRecords(ctx, space.id, null, connectionQuery(args))),
  }),
);

builder.objectField(ChangeRequest, 'commentsConnection', (t) =>
  t.connection({
    type: Comment,
    description: 'Comments in the change request, newest first unless order: asc',
    args: {
      order: t.arg({ type: OrderDirection, description: commentListArgs.order.description }),
      status: t.arg({ type: CommentStatusFilter, description: commentListArgs.status.description }),
      targetPage: t.arg.string({ description: commentListArgs.targetPage.description }),
    },
    resolve: async (changeRequest, args, ctx) => toConnection(await listCommentRecords(ctx, changeRequest.spaceId, changeRequest.id, connectionQuery(args))),
  }),
);

/** Payloads read the comment (or reply) again, as the viewer sees it now. */
const commentPayload = {
  outputFields: (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, { commentId: string }>) => ({
    comment: t.field({ type: Comment, resolve: (payload, _args, ctx) => commentById(ctx, payload.commentId) }),
  }),
};

const replyPayload = {
  outputFields: (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, { replyId: string }>) => ({
    reply: t.field({ type: CommentReply, resolve: (payload, _args, ctx) => commentReplyById(ctx, payload.replyId) }),
  }),
};

builder.relayMutationField(
  'createComment',
  {
    description: 'Posts a comment on a space content, or in one of its change requests (`comment` level)',
    inputFields: (t) => ({
      spaceId: t.id({ required: true }),
      changeRequestId: t.id({ description: 'A change request of that space' }),
      body: t.string({ required: true, description: 'Markdown' }),
      page: t.id({ description: 'The page it is about' }),
      node: t.id({ description: 'The node (block) of that page it is about' }),
    }),
  },
  {
    resolve: async (_root, { input: { spaceId, changeRequestId, body, page, node } }, ctx) => ({
      commentId: (
        await postCommentRecord(ctx, spaceId, changeRequestId ?? null, {
          body: { markdown: body },
          ...(page != null ? { page } : {}),
          ...(node != null ? { node } : {}),
        })
      ).id,
    }),
  },
  commentPayload,
);

builder.relayMutationField(
  'updateComment',
  {
    description: "Resolves or reopens a comment, edits its body (its author), adds or removes the viewer's reactions (removal wins)",
    inputFields: (t) => ({
      commentId: t.id({ required: true }),
      resolved: t.boolean(),
      body: t.string({ description: 'Markdown' }),
      addedReactions: t.stringList(),
      removedReactions: t.stringList(),
    }),
  },
  {
    resolve: async (_root, { input: { commentId, resolved, body, addedReactions, removedReactions } }, ctx) => {
      const comment = await commentById(ctx, commentId);
      await updateCommentRecord(ctx, comment.spaceId, comment.changeRequestId, commentId, {
        ...(resolved != null ? { resolved } : {}),
        ...(body != null ? { body: { markdown: body } } : {}),
        ...(addedReactions ? { addedReactions } : {}),
        ...(removedReactions ? { removedReactions } : {}),
      });
      return { commentId };
    },
  },
  commentPayload,
);

builder.relayMutationField(
  'deleteComment',
  {
    description: 'Deletes a comment and its replies (`admin` on the space, or its author)',
    inputFields: (t) => ({ commentId: t.id({ required: true }) }),
  },
  {
    resolve: async (_root, { input: { commentId } }, ctx) => {
      const comment = await commentById(ctx, commentId);
      await deleteComment(ctx, comment.spaceId, comment.changeRequestId, commentId);
      return { deletedCommentId: commentId };
    },
  },
  { outputFields: (t) => ({ deletedCommentId: t.exposeID('deletedCommentId') }) },
);

builder.relayMutationField(
  'createCommentReply',
  {
    description: 'Replies to a comment (`comment` level)',
    inputFields: (t) => ({ commentId: t.id({ required: true }), body: t.string({ required: true, description: 'Markdown' }) }),
  },
  {
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
    description: "Edits a reply's body (its author), adds or removes the viewer's reactions (removal wins)",
    inputFields: (t) => ({
      replyId: t.id({ required: true }),
      body: t.string({ description: 'Markdown' }),
      addedReactions: t.stringList(),
      removedReactions: t.stringList(),
    }),
  },
  {
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
