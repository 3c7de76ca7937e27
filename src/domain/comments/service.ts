import type { RequestContext } from '../../context.ts';
import type { ChangeRequestRecord, CommentReactionRecord, CommentRecord, CommentReplyRecord, SpaceRecord } from '../../db/index.ts';
import { conflict, invalid, notFound } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { type Ordering, type Page, pageRequestOf } from '../../lib/pagination.ts';
import { parseInput } from '../../lib/validation.ts';
import { type Role, authorize } from '../access.ts';
import { changeRequestRecords, visibleChangeRequest } from '../change-requests/service.ts';
import { blockPreview } from '../content/document-format.ts';
import { markdownOf } from '../content/documents.ts';
import { loadPageTree } from '../content/tree.ts';
import { defineLoader, defineRecordLoader, loader } from '../loaders.ts';
import { type ChildListing, countsBy, listChildren, mapPage } from '../shared/pages.ts';
import { spaceRecords, visibleSpace } from '../spaces/service.ts';
import { emitEvent } from '../events/emit.ts';
import { inTransaction, serializeOn } from '../transaction.ts';
import { requireViewer, userRecords } from '../users/service.ts';
import {
  CommentFormatQuery,
  ListCommentRepliesQuery,
  ListCommentsQuery,
  PostCommentInput,
  PostCommentReplyInput,
  UpdateCommentInput,
  UpdateCommentReplyInput,
} from './inputs.ts';
import {
  type CommentFacts,
  type CommentTargetFacts,
  type CommentFormat,
  type CommentJSON,
  type CommentPermissions,
  type CommentReplyJSON,
  type EmojiReactionView,
  commentPermissions,
  groupReactions,
  presentComment,
  presentCommentReply,
} from './presenter.ts';

/**
 * Comments on a space's content, or inside one of its change requests, with
 * their replies and emoji reactions. Readers of the space (`read`) see them;
 * `comment` posts, replies, reacts and resolves; authors edit their own;
 * `admin` deletes any (authors their own). Outside the space's readers a
 * comment does not exist (404), as the space does not.
 */

export const commentRecords = defineRecordLoader((ctx, ids) => ctx.db.comment.findMany({ where: { id: { in: ids } } }));
export const commentReplyRecords = defineRecordLoader((ctx, ids) => ctx.db.commentReply.findMany({ where: { id: { in: ids } } }));

/** Reactions on comments or replies, by target id (the comment's or the reply's). */
const reactionsOfTargets = defineLoader<string, CommentReactionRecord[]>(async (ctx, targetIds) => {
  const rows = await ctx.db.commentReaction.findMany({ where: { targetId: { in: [...targetIds] } } });
  return targetIds.map((id) => rows.filter((row) => row.targetId === id));
});

const replyCounts = defineLoader<string, number>(async (ctx, commentIds) => {
  const counts = countsBy(
    await ctx.db.commentReply.groupBy({ by: ['commentId'], where: { commentId: { in: [...commentIds] } }, _count: { _all: true } }),
    'commentId',
  );
  return commentIds.map((id) => counts.get(id) ?? 0);
});

interface Replier {
  userId: string;
  count: number;
  updatedAt: Date;
}

/** Who replied to each comment: how many replies, and their latest. */
const repliersOfComments = defineLoader<string, Replier[]>(async (ctx, commentIds) => {
  const rows = await ctx.db.commentReply.groupBy({
    by: ['commentId', 'postedById'],
    where: { commentId: { in: [...commentIds] } },
    _count: { _all: true },
    _max: { postedAt: true },
  });
  return commentIds.map((id) =>
    rows
      .filter((row) => row.commentId === id)
      .map((row) => ({ userId: row.postedById, count: row._count._all, updatedAt: row._max.postedAt ?? new Date(0) }))
      .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime()),
  );
});

export interface CommentScope {
  space: SpaceRecord;
  level: Role;
  /** Null for comments on the space's own content. */
  changeRequest: ChangeRequestRecord | null;
}

/** The space (or its change request) the viewer reads comments of; anything it cannot see is a 404. */
async function commentScope(ctx: RequestContext, spaceId: string, changeRequestId: string | null): Promise<CommentScope> {
  if (changeRequestId === null) return { ...(await visibleSpace(ctx, spaceId)), changeRequest: null };
  return visibleChangeRequest(ctx, spaceId, changeRequestId);
}

/** A scope the viewer may write comments in: `comment` on the space, and the space not deleted. */
async function writableScope(ctx: RequestContext, spaceId: string, changeRequestId: string | null, action: string) {
  const scope = await commentScope(ctx, spaceId, changeRequestId);
  authorize(commentPermissions(scope.level, '', undefined).reply, action);
  if (scope.space.deletedAt) throw conflict(`space "${spaceId}" is deleted: restore it first`);
  return scope;
}

async function findComment(ctx: RequestContext, scope: CommentScope, commentId: string): Promise<CommentRecord> {
  const comment = await loader(ctx, commentRecords).load(commentId);
  if (!comment || comment.spaceId !== scope.space.id || comment.changeRequestId !== (scope.changeRequest?.id ?? null)) {
    throw notFound('Comment', commentId);
  }
  return comment;
}

async function findReply(ctx: RequestContext, comment: CommentRecord, replyId: string): Promise<CommentReplyRecord> {
  const reply = await loader(ctx, commentReplyRecords).load(replyId);
  if (!reply || reply.commentId !== comment.id) throw notFound('Comment reply', replyId);
  return reply;
}

// ---------------------------------------------------------------------------
// Per-field pieces (REST presents with them, GraphQL resolves each field with them)

/** The level of the viewer on a comment's space (the comment was authorized when loaded). */
async function levelOnComment(ctx: RequestContext, comment: CommentRecord): Promise<Role> {
  return (await commentScope(ctx, comment.spaceId, comment.changeRequestId)).level;
}

export async function commentPermissionsOf(ctx: RequestContext, comment: CommentRecord, reply?: CommentReplyRecord): Promise<CommentPermissions> {
  return commentPermissions(await levelOnComment(ctx, comment), (reply ?? comment).postedById, ctx.viewer?.user.id);
}

export async function reactionsOf(ctx: RequestContext, targetId: string): Promise<EmojiReactionView[]> {
  const rows = await loader(ctx, reactionsOfTargets).load(targetId);
  const users = loader(ctx, userRecords);
  const ids = [...new Set(rows.map((row) => row.userId))];
  const found = await Promise.all(ids.map((id) => users.load(id)));
  return groupReactions(rows, new Map(ids.map((id, index) => [id, found[index] ?? null])));
}

export function commentReplyCount(ctx: RequestContext, comment: CommentRecord): Promise<number> {
  return loader(ctx, replyCounts).load(comment.id);
}

export async function commentRepliers(ctx: RequestContext, comment: CommentRecord) {
  const repliers = await loader(ctx, repliersOfComments).load(comment.id);
  const users = loader(ctx, userRecords);
  return Promise.all(repliers.map(async (replier) => ({ ...replier, user: await users.load(replier.userId) })));
}

/** The revision a comment's target is read in: its change request's, or its space's. */
export async function commentRevision(ctx: RequestContext, comment: CommentRecord): Promise<string> {
  if (comment.changeRequestId) return (await loader(ctx, changeRequestRecords).load(comment.changeRequestId))?.revisionId ?? '';
  return (await loader(ctx, spaceRecords).load(comment.spaceId))?.revisionId ?? '';
}

/** The page and node a comment is attached to, as the content it is read in has them. */
export async function commentTargetFacts(ctx: RequestContext, comment: CommentRecord): Promise<CommentTargetFacts> {
  const revision = await commentRevision(ctx, comment);
  if (!comment.pageId || !revision) return { revision, page: null, nodePreview: null };
  const tree = await loadPageTree(ctx, revision);
  const state = tree.pages.get(comment.pageId);
  const page = state ? { state, path: tree.paths.get(comment.pageId) ?? state.slug } : null;
  const nodePreview = comment.nodeId && state ? blockPreview(await markdownOf(ctx, state.documentId), comment.nodeId) : null;
  return { revision, page, nodePreview };
}

async function commentFacts(ctx: RequestContext, comment: CommentRecord): Promise<CommentFacts> {
  const users = loader(ctx, userRecords);
  const [postedBy, resolvedBy, reactions, replies, repliers, target, permissions] = await Promise.all([
    users.load(comment.postedById),
    comment.resolvedById ? users.load(comment.resolvedById) : null,
    reactionsOf(ctx, comment.id),
    commentReplyCount(ctx, comment),
    commentRepliers(ctx, comment),
    commentTargetFacts(ctx, comment),
    commentPermissionsOf(ctx, comment),
  ]);
  return { postedBy, resolvedBy, reactions, replies, repliers, target, permissions };
}

export async function presentCommentRecord(ctx: RequestContext, comment: CommentRecord, format?: CommentFormat): Promise<CommentJSON> {
  return presentComment(comment, await commentFacts(ctx, comment), format, ctx.urls);
}

export async function presentReplyRecord(
  ctx: RequestContext,
  comment: CommentRecord,
  reply: CommentReplyRecord,
  format?: CommentFormat,
): Promise<CommentReplyJSON> {
  const [postedBy, reactions, permissions] = await Promise.all([
    loader(ctx, userRecords).load(reply.postedById),
    reactionsOf(ctx, reply.id),
    commentPermissionsOf(ctx, comment, reply),
  ]);
  return presentCommentReply(comment, reply, { postedBy, reactions, permissions }, format, ctx.urls);
}

// ---------------------------------------------------------------------------
// Listings

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

/** A comment by id alone (GraphQL nodes and mutations): one the viewer cannot see does not exist. */
export async function commentById(ctx: RequestContext, commentId: string): Promise<CommentRecord> {
  const comment = await loader(ctx, commentRecords).load(commentId);
  if (!comment) throw notFound('Comment', commentId);
  return findComment(ctx, await commentScope(ctx, comment.spaceId, comment.changeRequestId), commentId);
}

/** A reply by id alone, with its comment. */
export async function commentReplyById(ctx: RequestContext, replyId: string): Promise<{ comment: CommentRecord; reply: CommentReplyRecord }> {
  const reply = await loader(ctx, commentReplyRecords).load(replyId);
  if (!reply) throw notFound('Comment reply', replyId);
  const comment = await commentById(ctx, reply.commentId).catch(() => {
    throw notFound('Comment reply', replyId);
  });
  return { comment, reply };
}

// ---------------------------------------------------------------------------
// Writes

/** Adds and removes the viewer's reactions on one target; a reaction both added and removed is removed. Idempotent per user. */
async function writeReactions(
  tx: RequestContext,
  target: { organizationId: string; commentId: string; replyId: string | null },
  userId: string,
  added: string[],
  removed: string[],
): Promise<void> {
  const targetId = target.replyId ?? target.commentId;
  const removing = new Set(removed);
  const adding = [...new Set(added)].filter((emoji) => !removing.has(emoji));
  if (adding.length) {
    const present = new Set(
      (await tx.db.commentReaction.findMany({ where: { targetId, userId, emoji: { in: adding } }, select: { emoji: true } })).map((row) => row.emoji),
    );
    const missing = adding.filter((emoji) => !present.has(emoji));
    const now = tx.clock.now();
    if (missing.length) {
      await tx.db.commentReaction.createMany({
        data: missing.map((emoji) => ({ ...target, targetId, userId, emoji, reactedAt: now })),
      });
    }
  }
  if (removing.size) await tx.db.commentReaction.deleteMany({ where: { targetId, userId, emoji: { in: [...removing] } } });
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
  await inTransaction(ctx, async (tx) => {
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
  await inTransaction(ctx, async (tx) => {
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
  await inTransaction(ctx, async (tx) => {
    await tx.db.commentReaction.deleteMany({ where: { commentId: comment.id } });
    await tx.db.commentReply.deleteMany({ where: { commentId: comment.id } });
    const { count } = await tx.db.comment.deleteMany({ where: { id: comment.id } });
    // Deleted meanwhile by a racing request: done, and announced once, by that one.
    if (count === 0) return;
    emitEvent(tx, { kind: 'comment.deleted', ...commentEventScope(comment.organizationId, comment.spaceId, comment.changeRequestId), subjectId: comment.id });
  });
}

// ---------------------------------------------------------------------------
// Replies

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
  await inTransaction(ctx, async (tx) => {
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
  await inTransaction(ctx, async (tx) => {
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
  await inTransaction(ctx, async (tx) => {
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

/** Where a comment's events are heard: its space, and its change request when it is on one. */
function commentEventScope(organizationId: string, spaceId: string, changeRequestId: string | null) {
  return { organizationId, spaceId, ...(changeRequestId ? { changeRequestId } : {}) };
}
