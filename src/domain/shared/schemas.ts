import emojiRegex from 'emoji-regex';
import { z } from 'zod';
import { ROLES } from '../access.ts';

/** Input pieces used by several resources. */

export const role = z.enum(ROLES);
/** A role, or null: guest for members, "inherit" for content default levels. */
export const roleOrNull = role.nullable();

// emoji-regex is written for non-unicode mode (surrogate pairs), so no 'u' flag here.
const emojiSequence = new RegExp(`^(?:${emojiRegex().source})+$`);
const codepoints = /^[0-9a-f]{4,6}(?:-[0-9a-f]{4,6})*$/;
/** An emoji character sequence, or its code points in hex ("1f389"), as the official API accepts. */
export const emoji = z
  .string()
  .max(50)
  .refine((value) => emojiSequence.test(value) || codepoints.test(value), 'must be an emoji or its hex code points');

export const url = z.url({ error: 'must be an absolute URL' }).max(2048);

export const mergeRule = z.discriminatedUnion('rule', [
  z.strictObject({ rule: z.literal('require_specific_reviewers'), users: z.array(z.string()).max(100) }),
  z.strictObject({ rule: z.literal('require_one_of_specific_reviewers'), users: z.array(z.string()).max(100) }),
  z.strictObject({ rule: z.literal('allow_bypass'), users: z.array(z.string()).max(100) }),
  z.strictObject({
    rule: z.enum([
      'require_at_least_one_review',
      'require_at_least_one_approved_review',
      'require_all_reviews_approved',
      'require_agent_review',
      'require_up_to_date_change_request',
      'require_change_request_subject',
      'require_change_request_description',
      'require_author_to_merge',
    ]),
  }),
  z.strictObject({ rule: z.literal('custom'), expression: z.string().max(1024), message: z.string().max(256).optional() }),
]);

export const standaloneMergeRules = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('rules'), rules: z.array(mergeRule).max(50) }),
  z.strictObject({ type: z.literal('none') }),
]);

export const spaceMergeRules = z.union([z.strictObject({ type: z.literal('inherit') }), standaloneMergeRules]);

const pointer = z.union([
  z.strictObject({ type: z.literal('space'), space: z.string().min(1) }),
  z.strictObject({ type: z.literal('collection'), collection: z.string().min(1) }),
]);

/** Where to place a space or collection among its siblings. */
export const contentPosition = z.strictObject({ before: pointer.optional(), after: pointer.optional() });
export type ContentPosition = z.infer<typeof contentPosition>;

export const moveContentInput = z
  .strictObject({ parent: z.string().min(1).nullable().optional(), position: contentPosition.optional() })
  .refine((body) => body.parent !== undefined || body.position !== undefined, {
    message: 'set parent, position or both',
    path: ['parent'],
  })
  .meta({ minProperties: 1 });

export const transferInput = z.strictObject({ organization: z.string().min(1) });
