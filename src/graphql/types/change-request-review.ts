import type { ChangeRequestReviewRecord, ChangeRequestReviewerRecord } from '../../db/index.ts';
import type { ReviewStatus } from '../../domain/change-requests/review-inputs.ts';
import { type ContributorView, reviewLocation } from '../../domain/change-requests/review-presenter.ts';
import {
  listContributorViews,
  listRequestedReviewerRecords,
  listReviewRecords,
  removeRequestedReviewer,
  requestReviewerRecords,
  reviewById,
  reviewComment,
  submitReviewRecord,
} from '../../domain/change-requests/reviews.ts';
import { changeRequestById, changeRequestUser } from '../../domain/change-requests/service.ts';
import { builder } from '../builder.ts';
import { connectionQuery, loadEach, toConnection } from '../connection.ts';
import { ChangeRequest } from './change-request.ts';
import { Comment } from './comment.ts';
import { restEnum, urlsObject } from './common.ts';
import { User } from './user.ts';

/**
 * Reviews of change requests, the reviewers asked for them and their
 * contributors (REST `.../change-requests/{changeRequestId}/reviews`,
 * `requested-reviewers` and `contributors`), and the mutations that submit
 * reviews and ask for them: the same domain functions as REST.
 */

const ReviewStatusEnum = restEnum<ReviewStatus>('ChangeRequestReviewStatus', 'What a reviewer said of a change request (REST `ChangeRequestReviewStatus`)', {
  approved: 'The reviewer approved the change request as it was at the review',
  'changes-requested': 'The reviewer asked for changes before it is merged',
});

const ContributorActionType = restEnum<ContributorView['actionType']>(
  'ChangeRequestContributorActionType',
  'How a user contributed to a change request (REST `actionType`)',
  {
    edit: 'Edited its content (the count is their content batches)',
    comment: 'Commented without editing (the count is their comments and replies)',
  },
);

const RequestedReviewerKind = restEnum<'user'>('ChangeRequestRequestedReviewerKind', 'Who was asked to review (REST `kind`)', {
  user: 'A user (teams are not requested here)',
});

const ReviewUrls = urlsObject('ChangeRequestReviewUrls', ['location']);

/** Backed by the review's row; `node(id:)` loads it as REST's getChangeRequestReviewById does. */
export const ChangeRequestReview = builder.loadableNodeRef<ChangeRequestReviewRecord, string>('ChangeRequestReview', {
  id: { resolve: (review) => review.id },
  load: (ids, ctx) => loadEach(ids, (id) => reviewById(ctx, id)),
});

ChangeRequestReview.implement({
  description:
    'A review of a change request: approved or changes requested, with an optional comment (REST `.../change-requests/{changeRequestId}/reviews/{reviewId}`); seen by those who can see its space',
  fields: (t) => ({
    object: t.string({ description: 'Always "change-request-review" (the REST `object`)', resolve: () => 'change-request-review' }),
    revision: t.exposeString('revisionId', { description: 'Id of the revision of the change request that was reviewed' }),
    reviewer: t.field({
      type: User,
      description: 'The user who reviewed (a user who is gone shows as "Deleted user")',
      resolve: (review, _args, ctx) => changeRequestUser(ctx, review.reviewerId),
    }),
    requestedBy: t.field({
      type: User,
      nullable: true,
      description: 'The user who had asked the reviewer for a review; null when the review was not requested',
      resolve: (review, _args, ctx) => (review.requestedById ? changeRequestUser(ctx, review.requestedById) : null),
    }),
    status: t.field({ type: ReviewStatusEnum, description: 'approved or changes_requested', resolve: (review) => review.status as ReviewStatus }),
    outdated: t.exposeBoolean('outdated', {
      description: 'Whether a newer review by the same reviewer, or a new request to them, superseded it (merge rules count current reviews only)',
    }),
    comment: t.field({
      type: Comment,
      nullable: true,
      description: 'The comment posted with it, among the change request comments; null when none was, or it was deleted since',
      resolve: (review, _args, ctx) => reviewComment(ctx, review),
    }),
    changeRequest: t.field({ type: ChangeRequest, description: 'The change request reviewed', resolve: (review) => review.changeRequestId }),
    createdAt: t.field({ type: 'DateTime', description: 'When it was submitted', resolve: (review) => review.createdAt.toISOString() }),
    updatedAt: t.field({
      type: 'DateTime',
      description: 'When it last changed (it became outdated, say)',
      resolve: (review) => review.updatedAt.toISOString(),
    }),
    urls: t.field({
      type: ReviewUrls,
      description: 'Its address in this REST API',
      resolve: (review, _args, ctx) => ({ location: reviewLocation(review, ctx.urls) }),
    }),
  }),
});

export const ChangeRequestRequestedReviewer = builder.objectRef<ChangeRequestReviewerRecord>('ChangeRequestRequestedReviewer').implement({
  description: 'A user asked to review a change request (REST `ChangeRequestRequestedReviewer`)',
  fields: (t) => ({
    object: t.string({
      description: 'Always "change-request-requested-reviewer" (the REST `object`)',
      resolve: () => 'change-request-requested-reviewer',
    }),
    kind: t.field({ type: RequestedReviewerKind, description: 'Always user', resolve: () => 'user' as const }),
    user: t.field({
      type: User,
      description: 'The user asked to review (a user who is gone shows as "Deleted user")',
      resolve: (request, _args, ctx) => changeRequestUser(ctx, request.userId),
    }),
    requestedBy: t.field({
      type: User,
      description: 'The user who asked (a user who is gone shows as "Deleted user")',
      resolve: (request, _args, ctx) => changeRequestUser(ctx, request.requestedById),
    }),
    revision: t.exposeString('revisionId', { description: 'Id of the revision of the change request when it was asked' }),
    createdAt: t.field({
      type: 'DateTime',
      description: 'When it was asked (last asked, when asked again)',
      resolve: (request) => request.createdAt.toISOString(),
    }),
  }),
});

const ChangeRequestContributor = builder.objectRef<ContributorView>('ChangeRequestContributor').implement({
  description: 'A user who contributed to a change request: edited it, or only commented (REST `ChangeRequestUserContributor`)',
  fields: (t) => ({
    user: t.field({
      type: User,
      description: 'The user (a user who is gone shows as "Deleted user")',
      resolve: (contributor, _args, ctx) => changeRequestUser(ctx, contributor.userId),
    }),
    actionType: t.field({ type: ContributorActionType, description: 'edit or comment', resolve: (contributor) => contributor.actionType }),
    count: t.exposeInt('count', { description: 'How many content batches (edit), or comments and replies (comment)' }),
    updatedAt: t.field({ type: 'DateTime', description: 'When they last contributed', resolve: (contributor) => contributor.updatedAt.toISOString() }),
  }),
});

builder.objectFields(ChangeRequest, (t) => ({
  reviews: t.connection({
    type: ChangeRequestReview,
    description: 'Reviews of the change request, newest first (REST `.../change-requests/{changeRequestId}/reviews`)',
    args: { outdated: t.arg.boolean({ description: 'Only the outdated (true) or the current (false) ones; all when absent' }) },
    resolve: async (changeRequest, args, ctx) => toConnection(await listReviewRecords(ctx, changeRequest.spaceId, changeRequest.id, connectionQuery(args))),
  }),
  requestedReviewers: t.connection({
    type: ChangeRequestRequestedReviewer,
    description: 'Users asked to review the change request, in the order asked (REST `.../change-requests/{changeRequestId}/requested-reviewers`)',
    resolve: async (changeRequest, args, ctx) =>
      toConnection(await listRequestedReviewerRecords(ctx, changeRequest.spaceId, changeRequest.id, connectionQuery(args))),
  }),
  contributors: t.field({
    type: [ChangeRequestContributor],
    description:
      'Who contributed to the change request: its editors, then those who only commented, the most recent first (REST `.../change-requests/{changeRequestId}/contributors`)',
    resolve: (changeRequest, _args, ctx) => listContributorViews(ctx, changeRequest.spaceId, changeRequest.id),
  }),
}));

const changeRequestField = (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, { changeRequestId: string }>) =>
  t.field({
    type: ChangeRequest,
    description: 'The change request, read again',
    resolve: async (payload, _args, ctx) => (await changeRequestById(ctx, payload.changeRequestId)).changeRequest,
  });

builder.relayMutationField(
  'submitChangeRequestReview',
  {
    inputFields: (t) => ({
      changeRequestId: t.id({ required: true, description: 'The change request' }),
      status: t.field({ type: ReviewStatusEnum, required: true, description: 'approved or changes_requested' }),
      comment: t.string({ description: 'A comment posted with the review, in Markdown (not blank; up to 100,000 characters); none when absent' }),
    }),
  },
  {
    description:
      "Approves a change request or requests changes, with an optional comment (REST `POST .../change-requests/{changeRequestId}/reviews`; a requested reviewer, or review level on the space; never its author; not once merged or archived); the reviewer's earlier reviews become outdated",
    resolve: async (_root, { input: { changeRequestId, status, comment } }, ctx) => {
      const { space } = await changeRequestById(ctx, changeRequestId);
      const review = await submitReviewRecord(ctx, space.id, changeRequestId, { status, ...(comment != null ? { comment: { markdown: comment } } : {}) });
      return { changeRequestId, review };
    },
  },
  {
    outputFields: (t) => ({
      review: t.field({ type: ChangeRequestReview, description: 'The review submitted', resolve: (payload) => payload.review }),
      changeRequest: changeRequestField(t),
    }),
  },
);

builder.relayMutationField(
  'requestReviewersForChangeRequest',
  {
    inputFields: (t) => ({
      changeRequestId: t.id({ required: true, description: 'The change request' }),
      users: t.idList({ required: true, description: 'The users asked (1 to 50 user ids), each able to read the space and none its author' }),
      subject: t.string({ description: 'A new title for the change request (up to 100 characters); absent keeps it' }),
    }),
  },
  {
    description:
      'Asks users who read the space to review a change request (REST `POST .../change-requests/{changeRequestId}/requested-reviewers`; its author, or edit level on the space; not once merged or archived); their earlier reviews become outdated',
    resolve: async (_root, { input: { changeRequestId, users, subject } }, ctx) => {
      const { space } = await changeRequestById(ctx, changeRequestId);
      const requests = await requestReviewerRecords(ctx, space.id, changeRequestId, { users, ...(subject != null ? { subject } : {}) });
      return { changeRequestId, requests };
    },
  },
  {
    outputFields: (t) => ({
      requestedReviewers: t.field({
        type: [ChangeRequestRequestedReviewer],
        description: 'The requests made (each user once, by user id)',
        resolve: (payload) => payload.requests,
      }),
      changeRequest: changeRequestField(t),
    }),
  },
);

builder.relayMutationField(
  'removeRequestedReviewerFromChangeRequest',
  {
    inputFields: (t) => ({
      changeRequestId: t.id({ required: true, description: 'The change request' }),
      userId: t.id({ required: true, description: 'The user no longer asked to review' }),
    }),
  },
  {
    description:
      'Withdraws a review request (REST `DELETE .../change-requests/{changeRequestId}/requested-reviewers/{userId}`; its author, edit level on the space, or the reviewer themselves); their reviews stay',
    resolve: async (_root, { input: { changeRequestId, userId } }, ctx) => {
      const { space } = await changeRequestById(ctx, changeRequestId);
      return { changeRequestId, removed: await removeRequestedReviewer(ctx, space.id, changeRequestId, userId) };
    },
  },
  {
    outputFields: (t) => ({
      removed: t.exposeBoolean('removed', { description: 'Whether there was a request to withdraw (REST 205); false when there was none (REST 204)' }),
      changeRequest: changeRequestField(t),
    }),
  },
);
