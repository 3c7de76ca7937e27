import type { RequestContext } from '../../context.ts';
import type { ChangeRequestRecord, CommentReactionRecord, CommentRecord, CommentReplyRecord, SpaceRecord } from '../../db/index.ts';
import { conflict, notFound } from '../../errors.ts';
import { type Role, authorize } from '../access.ts';
import { changeRequestRecords, visibleChangeRequest } from '../change-requests/service.ts';
import { structureOf } from '../content/bodies.ts';
import { blockPreview } from '../content/model/text.ts';
import { loadPageTree } from '../content/tree.ts';
import { defineLoader, defineRecordLoader, loader } from '../loaders.ts';
import { countsBy } from '../shared/pages.ts';
import { spaceRecords, visibleSpace } from '../spaces/service.ts';
import { userRecords } from '../users/service.ts';
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
 * What comments and their replies share (as src/domain/sites/records.ts is
 * for sites): record loaders, the scope a comment lives in (a space's content
 * or one of its change requests) and how the viewer reaches it, the per-field
 * pieces REST presents with and GraphQL resolves with, reactions, and where
 * events are heard. Comments themselves are in ./service.ts, replies in
 * ./replies.ts.
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
export async function commentScope(ctx: RequestContext, spaceId: string, changeRequestId: string | null): Promise<CommentScope> {
  if (changeRequestId === null) return { ...(await visibleSpace(ctx, spaceId)), changeRequest: null };
  return visibleChangeRequest(ctx, spaceId, changeRequestId);
}

/** A scope the viewer may write comments in: `comment` on the space, and the space not deleted. */
export async function writableScope(ctx: RequestContext, spaceId: string, changeRequestId: string | null, action: string) {
  const scope = await commentScope(ctx, spaceId, changeRequestId);
  authorize(commentPermissions(scope.level, '', undefined).reply, action);
  if (scope.space.deletedAt) throw conflict(`space "${spaceId}" is deleted: restore it first`);
  return scope;
}

export async function findComment(ctx: RequestContext, scope: CommentScope, commentId: string): Promise<CommentRecord> {
  const comment = await loader(ctx, commentRecords).load(commentId);
  if (!comment || comment.spaceId !== scope.space.id || comment.changeRequestId !== (scope.changeRequest?.id ?? null)) {
    throw notFound('Comment', commentId);
  }
  return comment;
}

export async function findReply(ctx: RequestContext, comment: CommentRecord, replyId: string): Promise<CommentReplyRecord> {
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
  const nodePreview = comment.nodeId && state ? blockPreview(await structureOf(ctx, state.documentId), comment.nodeId) : null;
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

/** Adds and removes the viewer's reactions on one target; a reaction both added and removed is removed. Idempotent per user. */
export async function writeReactions(
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

/** Where a comment's events are heard: its space, and its change request when it is on one. */
export function commentEventScope(organizationId: string, spaceId: string, changeRequestId: string | null) {
  return { organizationId, spaceId, ...(changeRequestId ? { changeRequestId } : {}) };
}
