import type { CommentRecord } from '../../db/index.ts';
import { changeRequestUser } from '../../domain/change-requests/service.ts';
import type { COMMENT_STATUS_FILTERS, CommentStatus as CommentStatusValue } from '../../domain/comments/inputs.ts';
import { type CommentTargetFacts, type EmojiReactionView, commentBodyOf, commentLocation, commentTarget } from '../../domain/comments/presenter.ts';
import {
  commentById,
  commentPermissionsOf,
  commentRepliers,
  commentReplyCount,
  commentRevision,
  commentTargetFacts,
  reactionsOf,
} from '../../domain/comments/records.ts';
import { deleteComment, listCommentRecords, postCommentRecord, updateCommentRecord } from '../../domain/comments/service.ts';
import { builder } from '../builder.ts';
import { connectionQuery, loadEach, toConnection } from '../connection.ts';
import { ChangeRequest } from './change-request.ts';
import { booleanObject, OrderDirection, restEnum, urlsObject } from './common.ts';
import { DocumentFormat } from './content.ts';
import { Space } from './space.ts';
import { User } from './user.ts';

/**
 * Comments on the content of a space or of a change request, the objects they
 * share with their replies (reactions, permissions, urls), and their mutations.
 * Replies, with a comment's `repliesConnection`, are in comment-reply.ts.
 */

const CommentStatus = restEnum<CommentStatusValue>('CommentStatus', 'Whether a comment still awaits resolution (REST `status` of a comment)', {
  open: 'Awaiting resolution: new comments are open, and reopening sets it back',
  resolved: 'Marked resolved (updateComment with resolved: true), with who did it and when',
});
const CommentStatusFilter = restEnum<(typeof COMMENT_STATUS_FILTERS)[number]>(
  'CommentStatusFilter',
  'Which comments a listing returns, by status (REST `status` query)',
  {
    all: 'Open and resolved comments',
    open: 'Only open comments',
    resolved: 'Only resolved comments',
  },
);
export const CommentPermissions = booleanObject('CommentPermissions', ['view', 'edit', 'reply', 'delete'] as const);
export const CommentUrls = urlsObject('CommentUrls', ['location']);

const EmojiReactionUser = builder.objectRef<EmojiReactionView['users'][number]>('EmojiReactionUser').implement({
  description: 'A user who reacted with an emoji, and when',
  fields: (t) => ({
    user: t.field({
      type: User,
      description: 'The user who reacted (a user who is gone shows as "Deleted user")',
      resolve: (entry, _args, ctx) => changeRequestUser(ctx, entry.userId),
    }),
    reactedAt: t.field({ type: 'DateTime', description: 'When they reacted', resolve: (entry) => entry.reactedAt.toISOString() }),
  }),
});

export const EmojiReaction = builder.objectRef<EmojiReactionView>('EmojiReaction').implement({
  description: 'One emoji and the users who reacted with it',
  fields: (t) => ({
    emoji: t.exposeString('emoji', { description: 'The emoji, as its characters (one given as hex code points, such as 1f389, is stored as its characters)' }),
    count: t.exposeInt('count', { description: 'Number of users who reacted with it' }),
    users: t.expose('users', {
      type: [EmojiReactionUser],
      description: 'The users who reacted with it, in the order they reacted',
    }),
  }),
});

const CommentReplier = builder.objectRef<{ userId: string; count: number; updatedAt: Date }>('CommentReplier').implement({
  description: 'A user who replied to a comment: how many replies, and when last',
  fields: (t) => ({
    user: t.field({
      type: User,
      description: 'The user who replied (a user who is gone shows as "Deleted user")',
      resolve: (replier, _args, ctx) => changeRequestUser(ctx, replier.userId),
    }),
    count: t.exposeInt('count', { description: 'Number of replies this user posted to the comment' }),
    updatedAt: t.field({ type: 'DateTime', description: 'When this user last replied to the comment', resolve: (replier) => replier.updatedAt.toISOString() }),
  }),
});

const CommentTargetPage = builder.objectRef<{ comment: CommentRecord; facts: CommentTargetFacts }>('CommentTargetPage').implement({
  description: 'The page a comment is attached to, as the content it is read in has it',
  fields: (t) => ({
    id: t.id({ description: 'Id of the page, even when it is no longer in the content', resolve: ({ comment }) => comment.pageId! }),
    title: t.string({
      nullable: true,
      description: 'Title of the page; null when the page is no longer in the content',
      resolve: ({ facts }) => facts.page?.state.title ?? null,
    }),
    emoji: t.string({
      nullable: true,
      description: 'Emoji shown before the title; null when none, or when the page is no longer in the content',
      resolve: ({ facts }) => facts.page?.state.emoji ?? null,
    }),
    icon: t.string({
      nullable: true,
      description: 'Icon shown before the title; null when none, or when the page is no longer in the content',
      resolve: ({ facts }) => facts.page?.state.icon ?? null,
    }),
    path: t.string({
      nullable: true,
      description: 'Path of the page in the content (the slugs from the top, joined by /); null when the page is no longer in the content',
      resolve: ({ facts }) => facts.page?.path ?? null,
    }),
    createdAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the page was created; null when the page is no longer in the content',
      resolve: ({ facts }) => facts.page?.state.createdAt.toISOString() ?? null,
    }),
    updatedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the page was last edited; null when the page is no longer in the content',
      resolve: ({ facts }) => facts.page?.state.updatedAt.toISOString() ?? null,
    }),
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
  description: 'What a comment is attached to (REST `target`)',
  fields: (t) => ({
    space: t.field({ type: Space, description: 'The space the comment is in', resolve: ({ comment }) => comment.spaceId }),
    changeRequest: t.field({
      type: ChangeRequest,
      nullable: true,
      description: "The change request the comment was posted in; null when it is on the space's own content",
      resolve: ({ comment }) => comment.changeRequestId,
    }),
    revision: t.string({
      description: "Id of the revision its page and block are read in: the change request's current one, or the space's",
      resolve: ({ comment }, _args, ctx) => commentRevision(ctx, comment),
    }),
    page: t.field({
      type: CommentTargetPage,
      nullable: true,
      description: 'The page it is about; null when it is about no page in particular',
      resolve: async ({ comment }, _args, ctx) => (comment.pageId ? { comment, facts: await commentTargetFacts(ctx, comment) } : null),
    }),
    node: t.field({
      type: CommentTargetNode,
      nullable: true,
      description: 'The block of that page it is about; null when it is about no block in particular',
      resolve: async ({ comment }, _args, ctx) => (comment.nodeId ? { comment, facts: await commentTargetFacts(ctx, comment) } : null),
    }),
  }),
});

/** Backed by the comment's row: reactions, counts and permissions are computed when asked, batched per request. */
export const Comment = builder.loadableNodeRef<CommentRecord, string>('Comment', {
  id: { resolve: (comment) => comment.id },
  load: (ids, ctx) => loadEach(ids, (id) => commentById(ctx, id)),
});

Comment.implement({
  description:
    'A comment on the content of a space or of one of its change requests (REST `/v1/spaces/{spaceId}/comments/{commentId}`, or under `change-requests/{changeRequestId}`); seen by those who can see its space',
  fields: (t) => ({
    object: t.string({ description: 'Always "comment" (the REST `object`)', resolve: () => 'comment' }),
    postedBy: t.field({
      type: User,
      description: 'The user who posted it (a user who is gone shows as "Deleted user")',
      resolve: (comment, _args, ctx) => changeRequestUser(ctx, comment.postedById),
    }),
    postedAt: t.field({ type: 'DateTime', description: 'When it was posted', resolve: (comment) => comment.postedAt.toISOString() }),
    editedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When its body was last edited; null when it never was',
      resolve: (comment) => comment.editedAt?.toISOString() ?? null,
    }),
    body: t.field({
      type: 'JSON',
      description: 'As REST: {markdown} (default) or {document}',
      args: { format: t.arg({ type: DocumentFormat, description: 'markdown (default) or document: the structured form' }) },
      resolve: (comment, args) => commentBodyOf(comment.body, args.format ?? undefined),
    }),
    status: t.field({
      type: CommentStatus,
      description: 'open or resolved',
      resolve: (comment) => (comment.status === 'resolved' ? 'resolved' : 'open'),
    }),
    resolvedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When it was resolved; null while it is open',
      resolve: (comment) => comment.resolvedAt?.toISOString() ?? null,
    }),
    resolvedBy: t.field({
      type: User,
      nullable: true,
      description: 'The user who resolved it; null while it is open',
      resolve: (comment, _args, ctx) => (comment.status === 'resolved' ? changeRequestUser(ctx, comment.resolvedById) : null),
    }),
    reactions: t.field({
      type: [EmojiReaction],
      description: 'Emoji reactions to it, each emoji with its users, in the order each emoji was first used',
      resolve: (comment, _args, ctx) => reactionsOf(ctx, comment.id),
    }),
    replies: t.int({ description: 'Number of replies (the list: repliesConnection)', resolve: (comment, _args, ctx) => commentReplyCount(ctx, comment) }),
    repliers: t.field({
      type: [CommentReplier],
      description: 'The users who replied to it, with how many replies each, the latest to reply first',
      resolve: (comment, _args, ctx) => commentRepliers(ctx, comment),
    }),
    target: t.field({
      type: CommentTarget,
      description: 'What it is attached to: its space, change request, page and block',
      resolve: (comment) => ({ comment }),
    }),
    urls: t.field({
      type: CommentUrls,
      description: 'Its address in this REST API',
      resolve: (comment, _args, ctx) => ({ location: commentLocation(comment, ctx.urls) }),
    }),
    permissions: t.field({
      type: CommentPermissions,
      description:
        'What the caller may do with it: reply, react and resolve with comment level on the space; edit its body as its author; delete it as its author or with admin level',
      resolve: (comment, _args, ctx) => commentPermissionsOf(ctx, comment),
    }),
  }),
});

const commentListArgs = {
  order: { description: 'By posting time: desc (default, newest first) or asc' },
  status: { description: "By the comment's status: all (default), open or resolved" },
  targetPage: { description: 'Only the comments on this page (page id)' },
};

builder.objectField(Space, 'commentsConnection', (t) =>
  t.connection({
    type: Comment,
    description: "Comments on the space's own content, not those of its change requests (REST `/v1/spaces/{spaceId}/comments`), newest first unless order: asc",
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
    description: 'Comments in the change request (REST `…/change-requests/{changeRequestId}/comments`), newest first unless order: asc',
    args: {
      order: t.arg({ type: OrderDirection, description: commentListArgs.order.description }),
      status: t.arg({ type: CommentStatusFilter, description: commentListArgs.status.description }),
      targetPage: t.arg.string({ description: commentListArgs.targetPage.description }),
    },
    resolve: async (changeRequest, args, ctx) => toConnection(await listCommentRecords(ctx, changeRequest.spaceId, changeRequest.id, connectionQuery(args))),
  }),
);

/** Payloads read the comment again, as the viewer sees it now. */
const commentPayload = {
  outputFields: (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, { commentId: string }>) => ({
    comment: t.field({ type: Comment, resolve: (payload, _args, ctx) => commentById(ctx, payload.commentId) }),
  }),
};

builder.relayMutationField(
  'createComment',
  {
    inputFields: (t) => ({
      spaceId: t.id({ required: true, description: 'The space' }),
      changeRequestId: t.id({ description: "Post in this change request of the space; on the space's own content when absent" }),
      body: t.string({ required: true, description: 'The text, in Markdown (not blank; up to 100,000 characters)' }),
      page: t.id({ description: 'The page it is about, which must be in the content it is posted on; none when absent' }),
      node: t.id({ description: 'The node (block) of that page it is about, by its key; needs page' }),
    }),
  },
  {
    description:
      'Posts an open comment on the content of a space, or in one of its change requests (REST `POST …/comments`; comment level on the space, which must not be deleted)',
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
    inputFields: (t) => ({
      commentId: t.id({ required: true, description: 'The comment' }),
      resolved: t.boolean({ description: 'true resolves it (as the caller, now), false reopens it; absent keeps its status' }),
      body: t.string({ description: 'New text, in Markdown (its author only; not blank; up to 100,000 characters); absent keeps it' }),
      addedReactions: t.stringList({ description: "Emojis to add to the caller's reactions (up to 50), as characters or hex code points such as 1f389" }),
      removedReactions: t.stringList({ description: "Emojis to remove from the caller's reactions (up to 50); one both added and removed is removed" }),
    }),
  },
  {
    description:
      "Resolves or reopens a comment, edits its body, adds or removes the caller's reactions (REST `PUT …/comments/{commentId}`; comment level on the space, which must not be deleted; only its author edits the body)",
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
    inputFields: (t) => ({ commentId: t.id({ required: true, description: 'The comment' }) }),
  },
  {
    description:
      'Deletes a comment with its replies and reactions (REST `DELETE …/comments/{commentId}`; admin level on the space, or its author with comment level)',
    resolve: async (_root, { input: { commentId } }, ctx) => {
      const comment = await commentById(ctx, commentId);
      await deleteComment(ctx, comment.spaceId, comment.changeRequestId, commentId);
      return { deletedCommentId: commentId };
    },
  },
  { outputFields: (t) => ({ deletedCommentId: t.exposeID('deletedCommentId', { description: 'Id of the comment deleted' }) }) },
);
