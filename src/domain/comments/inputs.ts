import { z } from 'zod';
import { pageParams } from '../../lib/pagination.ts';
import { DOCUMENT_FORMATS } from '../content/inputs.ts';
import { emoji } from '../shared/schemas.ts';

export const COMMENT_ORDERS = ['asc', 'desc'] as const;
export const COMMENT_STATUS_FILTERS = ['all', 'open', 'resolved'] as const;
/** Stored and presented statuses (the official Comment schema: `open` or `resolved`). */
export const COMMENT_STATUSES = ['open', 'resolved'] as const;
export type CommentStatus = (typeof COMMENT_STATUSES)[number];

const format = z.enum(DOCUMENT_FORMATS).optional();

/** A comment body: the markdown form only (the structured Document form is refused with a 400 naming `body`). */
export const commentBody = z.strictObject(
  {
    document: z.undefined({ error: 'structured documents are not accepted as input: send {"markdown": "…"}' }).optional(),
    // Documented as minLength 1 and a pattern: some character that is not blank space.
    markdown: z.string().min(1, { error: 'must not be empty', abort: true }).max(100_000).regex(/\S/, 'must not be empty'),
  },
  { error: 'must be {"markdown": "…"}' },
);

const hexCodepoints = /^[0-9a-f]{4,6}(?:-[0-9a-f]{4,6})*$/;
/** An emoji, stored as its characters: "1f389" and "🎉" are the same reaction. */
export const reactionEmoji = emoji.transform((value) =>
  hexCodepoints.test(value) ? String.fromCodePoint(...value.split('-').map((hex) => Number.parseInt(hex, 16))) : value,
);
const reactions = z.array(reactionEmoji).max(50);

export const ListCommentsQuery = z.object({
  ...pageParams,
  order: z.enum(COMMENT_ORDERS).default('desc'),
  status: z.enum(COMMENT_STATUS_FILTERS).default('all'),
  format,
  targetPage: z.string().min(1).max(100).optional(),
});

export const CommentFormatQuery = z.object({ format });

export const ListCommentRepliesQuery = z.object({ ...pageParams, format });

export const PostCommentInput = z.strictObject({
  node: z.string().min(1).max(100).optional(),
  page: z.string().min(1).max(100).optional(),
  body: commentBody,
});

export const UpdateCommentInput = z.strictObject({
  resolved: z.boolean().optional(),
  body: commentBody.optional(),
  addedReactions: reactions.optional(),
  removedReactions: reactions.optional(),
});

export const PostCommentReplyInput = z.strictObject({ body: commentBody });

export const UpdateCommentReplyInput = z.strictObject({
  body: commentBody.optional(),
  addedReactions: reactions.optional(),
  removedReactions: reactions.optional(),
});
