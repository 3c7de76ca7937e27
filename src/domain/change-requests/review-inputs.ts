import { z } from 'zod';
import { pageParams } from '../../lib/pagination.ts';
import { queryBool } from '../../lib/validation.ts';
import { DOCUMENT_FORMATS } from '../content/inputs.ts';
import { changeRequestSubject } from './inputs.ts';

/** The official ChangeRequestReviewStatus. */
export const REVIEW_STATUSES = ['approved', 'changes-requested'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

const format = z.enum(DOCUMENT_FORMATS).optional();

export const ListReviewsQuery = z.object({ ...pageParams, format, outdated: queryBool().optional() });
export const ReviewFormatQuery = z.object({ format });
export const ListRequestedReviewersQuery = z.object({ ...pageParams });

/**
 * Body of the official `POST …/change-requests/{changeRequestId}/reviews`. The comment is a
 * document: `{"markdown": "…"}`, or the official structured Document (read into markdown).
 */
export const SubmitReviewInput = z.strictObject({
  status: z.enum(REVIEW_STATUSES, { error: 'must be approved or changes-requested' }),
  comment: z.record(z.string(), z.unknown(), { error: 'must be a document: {"markdown": "…"} or a structured Document' }).optional(),
});

/** At most this many reviewers are requested by one call. */
export const MAX_REQUESTED_REVIEWERS = 50;

/** Body of the official `POST …/change-requests/{changeRequestId}/requested-reviewers`. */
export const RequestReviewersInput = z.strictObject({
  users: z
    .array(z.string().min(1).max(100))
    .min(1, 'must name at least one user')
    .max(MAX_REQUESTED_REVIEWERS, `must name at most ${MAX_REQUESTED_REVIEWERS} users`),
  subject: changeRequestSubject.optional(),
  /** Accepted for the official client; change requests here have no description to keep. */
  description: z.unknown().optional(),
});
