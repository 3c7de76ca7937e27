import {
  CommentFormatQuery,
  ListCommentRepliesQuery,
  ListCommentsQuery,
  PostCommentInput,
  PostCommentReplyInput,
  UpdateCommentInput,
  UpdateCommentReplyInput,
} from '../../domain/comments/inputs.ts';
import { deleteCommentReply, getCommentReply, listCommentReplies, postCommentReply, updateCommentReply } from '../../domain/comments/replies.ts';
import { deleteComment, getComment, listComments, postComment, updateComment } from '../../domain/comments/service.ts';
import { restList } from '../../lib/pagination.ts';
import { type Route, route } from '../route.ts';

/**
 * Comments on a space's content (`/v1/spaces/{spaceId}/comments`) and in its
 * change requests (`/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments`):
 * the same operations, over the same service, for each scope.
 */
function commentRoutes(scope: 'space' | 'changeRequest'): Route[] {
  const inChangeRequest = scope === 'changeRequest';
  const base = inChangeRequest ? '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments' : '/v1/spaces/{spaceId}/comments';
  const suffix = inChangeRequest ? 'InChangeRequest' : 'InSpace';
  const tag = inChangeRequest ? 'Change request comments' : 'Space comments';
  const where = inChangeRequest ? 'a change request' : "a space's content";
  const changeRequestOf = (params: Record<string, string>) => (inChangeRequest ? params.changeRequestId! : null);
  return [
    route({
      method: 'GET',
      path: base,
      operationId: `listComments${suffix}`,
      summary: `Comments of ${where}, newest first unless order=asc, by status (all, open, resolved) and page`,
      tag,
      query: ListCommentsQuery,
      status: 200,
      response: 'Comment',
      list: true,
      handler: async (ctx, { params, query }) => restList(await listComments(ctx, params.spaceId!, changeRequestOf(params), query)),
    }),
    route({
      method: 'POST',
      path: base,
      operationId: `postComment${suffix}`,
      summary: `Post a comment in ${where} (comment level)`,
      tag,
      body: PostCommentInput,
      status: 200,
      response: 'Comment',
      handler: (ctx, { params, body }) => postComment(ctx, params.spaceId!, changeRequestOf(params), body),
    }),
    route({
      method: 'GET',
      path: `${base}/{commentId}`,
      operationId: `getComment${suffix}`,
      summary: 'A comment',
      tag,
      query: CommentFormatQuery,
      status: 200,
      response: 'Comment',
      handler: (ctx, { params, query }) => getComment(ctx, params.spaceId!, changeRequestOf(params), params.commentId!, query),
    }),
    route({
      method: 'PUT',
      path: `${base}/{commentId}`,
      operationId: `updateComment${suffix}`,
      summary: "Resolve or reopen a comment (comment level), edit its body (its author), add or remove the caller's reactions",
      tag,
      body: UpdateCommentInput,
      status: 200,
      response: 'Comment',
      handler: (ctx, { params, body }) => updateComment(ctx, params.spaceId!, changeRequestOf(params), params.commentId!, body),
    }),
    route({
      method: 'DELETE',
      path: `${base}/{commentId}`,
      operationId: `deleteComment${suffix}`,
      summary: 'Delete a comment and its replies (admin on the space, or its author)',
      tag,
      status: 205,
      handler: (ctx, { params }) => deleteComment(ctx, params.spaceId!, changeRequestOf(params), params.commentId!),
    }),
    route({
      method: 'GET',
      path: `${base}/{commentId}/replies`,
      operationId: `listCommentReplies${suffix}`,
      summary: 'Replies to a comment, oldest first',
      tag,
      query: ListCommentRepliesQuery,
      status: 200,
      response: 'CommentReply',
      list: true,
      handler: async (ctx, { params, query }) => restList(await listCommentReplies(ctx, params.spaceId!, changeRequestOf(params), params.commentId!, query)),
    }),
    route({
      method: 'POST',
      path: `${base}/{commentId}/replies`,
      operationId: `postCommentReply${suffix}`,
      summary: 'Reply to a comment (comment level)',
      tag,
      query: CommentFormatQuery,
      body: PostCommentReplyInput,
      status: 200,
      response: 'CommentReply',
      handler: (ctx, { params, body, query }) => postCommentReply(ctx, params.spaceId!, changeRequestOf(params), params.commentId!, body, query),
    }),
    route({
      method: 'GET',
      path: `${base}/{commentId}/replies/{commentReplyId}`,
      operationId: `getCommentReply${suffix}`,
      summary: 'A reply to a comment',
      tag,
      query: CommentFormatQuery,
      status: 200,
      response: 'CommentReply',
      handler: (ctx, { params, query }) => getCommentReply(ctx, params.spaceId!, changeRequestOf(params), params.commentId!, params.commentReplyId!, query),
    }),
    route({
      method: 'PUT',
      path: `${base}/{commentId}/replies/{commentReplyId}`,
      operationId: `updateCommentReply${suffix}`,
      summary: "Edit a reply's body (its author), add or remove the caller's reactions",
      tag,
      body: UpdateCommentReplyInput,
      status: 200,
      response: 'CommentReply',
      handler: (ctx, { params, body }) => updateCommentReply(ctx, params.spaceId!, changeRequestOf(params), params.commentId!, params.commentReplyId!, body),
    }),
    route({
      method: 'DELETE',
      path: `${base}/{commentId}/replies/{commentReplyId}`,
      operationId: `deleteCommentReply${suffix}`,
      summary: 'Delete a reply and its reactions (admin on the space, or its author)',
      tag,
      status: 205,
      handler: (ctx, { params }) => deleteCommentReply(ctx, params.spaceId!, changeRequestOf(params), params.commentId!, params.commentReplyId!),
    }),
  ];
}

export const spaceCommentRoutes = commentRoutes('space');
export const changeRequestCommentRoutes = commentRoutes('changeRequest');
