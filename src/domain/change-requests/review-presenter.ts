import type { PublicUrls } from '../../config.ts';
import type { ChangeRequestReviewRecord, ChangeRequestReviewerRecord, UserRecord } from '../../db/index.ts';
import type { CommentJSON } from '../comments/presenter.ts';
import type { Api, Wire } from '../shared/api-types.ts';
import { presentAuthor } from './presenter.ts';

export type ReviewJSON = Wire<Api.ChangeRequestReview>;
export type RequestedReviewerJSON = Wire<Api.ChangeRequestRequestedReviewer>;
export type ContributorJSON = Wire<Api.ChangeRequestUserContributor>;

export function reviewLocation(review: Pick<ChangeRequestReviewRecord, 'id' | 'spaceId' | 'changeRequestId'>, urls: PublicUrls): string {
  return `${urls.api}/v1/spaces/${review.spaceId}/change-requests/${review.changeRequestId}/reviews/${review.id}`;
}

export interface ReviewFacts {
  reviewer: UserRecord | null;
  requestedBy: UserRecord | null;
  comment: CommentJSON | null;
}

export function presentReview(review: ChangeRequestReviewRecord, facts: ReviewFacts, urls: PublicUrls): ReviewJSON {
  return {
    object: 'change-request-review',
    id: review.id,
    revision: review.revisionId,
    reviewer: presentAuthor(facts.reviewer, review.reviewerId, urls),
    ...(review.requestedById ? { requestedBy: presentAuthor(facts.requestedBy, review.requestedById, urls) } : {}),
    status: review.status as ReviewJSON['status'],
    outdated: review.outdated,
    ...(facts.comment ? { comment: facts.comment } : {}),
    createdAt: review.createdAt.toISOString(),
    updatedAt: review.updatedAt.toISOString(),
    urls: { location: reviewLocation(review, urls) },
  };
}

export function presentRequestedReviewer(
  request: ChangeRequestReviewerRecord,
  facts: { user: UserRecord | null; requestedBy: UserRecord | null },
  urls: PublicUrls,
): RequestedReviewerJSON {
  return {
    object: 'change-request-requested-reviewer',
    revision: request.revisionId,
    requestedBy: presentAuthor(facts.requestedBy, request.requestedById, urls),
    createdAt: request.createdAt.toISOString(),
    kind: 'user',
    user: presentAuthor(facts.user, request.userId, urls),
  } as RequestedReviewerJSON;
}

/** A contributor: who edited (`edit`) or, without editing, commented (`comment`), how often and when last. */
export interface ContributorView {
  userId: string;
  actionType: 'edit' | 'comment';
  count: number;
  updatedAt: Date;
}

export function presentContributor(contributor: ContributorView, user: UserRecord | null, urls: PublicUrls): ContributorJSON {
  return {
    updatedAt: contributor.updatedAt.toISOString(),
    count: contributor.count,
    user: presentAuthor(user, contributor.userId, urls),
    actionType: contributor.actionType,
  };
}
