import type { PublicUrls } from '../../config.ts';
import type { CommentReactionRecord, CommentRecord, CommentReplyRecord, UserRecord } from '../../db/index.ts';
import { type Role, atLeast } from '../access.ts';
import { presentAuthor } from '../change-requests/presenter.ts';
import { documentOfText } from '../content/bodies.ts';
import type { PageState } from '../content/tree.ts';
import type { Api, Wire } from '../shared/api-types.ts';

export type CommentJSON = Wire<Api.Comment>;
export type CommentReplyJSON = Wire<Api.CommentReply>;
export type CommentFormat = 'markdown' | 'document';

export interface CommentPermissions {
  /** See the comment (whoever is shown it). */
  view: boolean;
  /** Edit its body: its author, while they may still comment. */
  edit: boolean;
  /** Reply, react, resolve: `comment` on the space. */
  reply: boolean;
  /** Delete it: `admin` on the space, or its author. */
  delete: boolean;
}

/** What the viewer may do with a comment or reply, from their level on the space and who posted it. */
export function commentPermissions(level: Role | null, postedById: string, viewerId: string | undefined): CommentPermissions {
  const comment = atLeast(level, 'comment');
  const author = viewerId !== undefined && postedById === viewerId;
  return {
    view: atLeast(level, 'read'),
    edit: comment && author,
    reply: comment,
    delete: atLeast(level, 'admin') || (comment && author),
  };
}

/** Where a comment lives, in the API. */
export function commentLocation(comment: Pick<CommentRecord, 'id' | 'spaceId' | 'changeRequestId'>, urls: PublicUrls): string {
  const scope = comment.changeRequestId ? `/v1/spaces/${comment.spaceId}/change-requests/${comment.changeRequestId}` : `/v1/spaces/${comment.spaceId}`;
  return `${urls.api}${scope}/comments/${comment.id}`;
}

export function replyLocation(comment: Pick<CommentRecord, 'id' | 'spaceId' | 'changeRequestId'>, replyId: string, urls: PublicUrls): string {
  return `${commentLocation(comment, urls)}/replies/${replyId}`;
}

/** A body in the requested format: markdown (the default) or the structured document. */
export async function commentBodyOf(markdown: string, format: CommentFormat | undefined): Promise<CommentJSON['body']> {
  return (format === 'document' ? { document: await documentOfText(markdown) } : { markdown }) as CommentJSON['body'];
}

export interface EmojiReactionView {
  emoji: string;
  count: number;
  users: Array<{ user: UserRecord | null; userId: string; reactedAt: Date }>;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Reactions grouped by emoji, in the order each emoji was first used (then by emoji); users in the order they reacted. */
export function groupReactions(rows: CommentReactionRecord[], users: Map<string, UserRecord | null>): EmojiReactionView[] {
  const sorted = [...rows].sort((a, b) => a.reactedAt.getTime() - b.reactedAt.getTime() || compare(a.emoji, b.emoji) || compare(a.userId, b.userId));
  const byEmoji = new Map<string, EmojiReactionView>();
  for (const row of sorted) {
    let group = byEmoji.get(row.emoji);
    if (!group) byEmoji.set(row.emoji, (group = { emoji: row.emoji, count: 0, users: [] }));
    group.users.push({ user: users.get(row.userId) ?? null, userId: row.userId, reactedAt: row.reactedAt });
    group.count = group.users.length;
  }
  return [...byEmoji.values()];
}

export function presentReactions(reactions: EmojiReactionView[], urls: PublicUrls): CommentJSON['reactions'] {
  return reactions.map((reaction) => ({
    emoji: reaction.emoji,
    count: reaction.count,
    users: reaction.users.map((entry) => ({ user: presentAuthor(entry.user, entry.userId, urls), reactedAt: entry.reactedAt.toISOString() })),
  }));
}

export interface CommentFacts {
  postedBy: UserRecord | null;
  resolvedBy: UserRecord | null;
  reactions: EmojiReactionView[];
  replies: number;
  repliers: Array<{ user: UserRecord | null; userId: string; count: number; updatedAt: Date }>;
  target: CommentTargetFacts;
  permissions: CommentPermissions;
}

/** The content a comment's target is read in. */
export interface CommentTargetFacts {
  /** The revision: its change request's, or the space's. */
  revision: string;
  /** The page it is attached to, as that revision has it; null when the page is no longer there. */
  page: { state: PageState; path: string } | null;
  /** The text of the block it is attached to; null when no block of the page has its key any more. */
  nodePreview: string | null;
}

/**
 * A page is outdated for a comment when it was edited after the comment was
 * posted, or is gone from the content; the node's preview is empty when its
 * block is gone (edited or removed).
 */
export function commentTarget(comment: CommentRecord, facts: CommentTargetFacts) {
  const page = facts.page;
  return {
    space: comment.spaceId,
    revision: facts.revision,
    ...(comment.changeRequestId ? { changeRequest: comment.changeRequestId } : {}),
    ...(comment.pageId
      ? {
          page: page
            ? {
                id: comment.pageId,
                title: page.state.title,
                ...(page.state.emoji ? { emoji: page.state.emoji } : {}),
                ...(page.state.icon ? { icon: page.state.icon } : {}),
                createdAt: page.state.createdAt.toISOString(),
                updatedAt: page.state.updatedAt.toISOString(),
                path: page.path,
                outdated: page.state.updatedAt > comment.postedAt,
              }
            : { id: comment.pageId, outdated: true },
        }
      : {}),
    ...(comment.nodeId ? { node: { id: comment.nodeId, preview: facts.nodePreview ?? '' } } : {}),
  };
}

export async function presentComment(comment: CommentRecord, facts: CommentFacts, format: CommentFormat | undefined, urls: PublicUrls): Promise<CommentJSON> {
  const common = {
    object: 'comment' as const,
    id: comment.id,
    postedBy: presentAuthor(facts.postedBy, comment.postedById, urls),
    postedAt: comment.postedAt.toISOString(),
    ...(comment.editedAt ? { editedAt: comment.editedAt.toISOString() } : {}),
    reactions: presentReactions(facts.reactions, urls),
    replies: facts.replies,
    repliers: facts.repliers.map((replier) => ({
      user: presentAuthor(replier.user, replier.userId, urls),
      count: replier.count,
      updatedAt: replier.updatedAt.toISOString(),
    })),
    body: await commentBodyOf(comment.body, format),
    target: commentTarget(comment, facts.target),
    urls: { location: commentLocation(comment, urls) },
    permissions: facts.permissions,
  };
  if (comment.status === 'resolved' && comment.resolvedAt) {
    return {
      ...common,
      status: 'resolved',
      resolvedAt: comment.resolvedAt.toISOString(),
      resolvedBy: presentAuthor(facts.resolvedBy, comment.resolvedById, urls),
    };
  }
  return { ...common, status: 'open' };
}

export interface CommentReplyFacts {
  postedBy: UserRecord | null;
  reactions: EmojiReactionView[];
  permissions: CommentPermissions;
}

export async function presentCommentReply(
  comment: CommentRecord,
  reply: CommentReplyRecord,
  facts: CommentReplyFacts,
  format: CommentFormat | undefined,
  urls: PublicUrls,
): Promise<CommentReplyJSON> {
  return {
    object: 'comment-reply',
    id: reply.id,
    postedBy: presentAuthor(facts.postedBy, reply.postedById, urls),
    postedAt: reply.postedAt.toISOString(),
    ...(reply.editedAt ? { editedAt: reply.editedAt.toISOString() } : {}),
    reactions: presentReactions(facts.reactions, urls),
    body: await commentBodyOf(reply.body, format),
    urls: { location: replyLocation(comment, reply.id, urls) },
    permissions: facts.permissions,
  };
}
