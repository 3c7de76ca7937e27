import type { RequestContext } from '../../context.ts';
import type { ChangeRequestRecord, ChangeRequestReviewRecord, ChangeRequestReviewerRecord, CommentRecord, SpaceRecord } from '../../db/index.ts';
import { conflict, forbidden, invalid, notFound } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { type Ordering, type Page, pageRequestOf } from '../../lib/pagination.ts';
import { parseInput } from '../../lib/validation.ts';
import { atLeast, authorize } from '../access.ts';
import { auditWrite } from '../audit/record.ts';
import { commentBody } from '../comments/inputs.ts';
import { commentRecords, presentCommentRecord } from '../comments/records.ts';
import { markdownOfDocumentInput } from '../content/bodies.ts';
import { emitEvent } from '../events/emit.ts';
import { defineLoader, defineRecordLoader, loader } from '../loaders.ts';
import { type ChildListing, countsBy, listChildren, mapPage } from '../shared/pages.ts';
import { spaceLevel } from '../spaces/service.ts';
import { inTransaction } from '../transaction.ts';
import { requireViewer, userRecords } from '../users/service.ts';
import {
  ListRequestedReviewersQuery,
  ListReviewsQuery,
  RequestReviewersInput,
  ReviewFormatQuery,
  type ReviewStatus,
  SubmitReviewInput,
} from './review-inputs.ts';
import {
  type ContributorJSON,
  type ContributorView,
  type RequestedReviewerJSON,
  type ReviewJSON,
  presentContributor,
  presentRequestedReviewer,
  presentReview,
} from './review-presenter.ts';
import { lockSpace, visibleChangeRequest } from './service.ts';

/**
 * Reviews of change requests and the reviewers asked for them. Whoever reads
 * the space reads them; a review is submitted by a requested reviewer or by
 * anyone with `review` on the space, never by the change request's author;
 * reviewers are requested (and removed) by its author or anyone with `edit`.
 * A reviewer's newer review, or a new request to them, makes their earlier
 * reviews outdated: merge rules (./merge-rules.ts) count current reviews only.
 */

export const reviewRecords = defineRecordLoader((ctx, ids) => ctx.db.changeRequestReview.findMany({ where: { id: { in: ids } } }));

interface ReviewFilter {
  outdated?: boolean | undefined;
}

const newestFirst: Ordering<ChangeRequestReviewRecord> = {
  name: 'change-request-reviews',
  keys: [
    { field: 'createdAt', direction: 'desc', type: 'date', value: (row) => row.createdAt },
    { field: 'id', direction: 'desc', type: 'string', value: (row) => row.id },
  ],
};

const reviewWhere = (filter: ReviewFilter) => (filter.outdated === undefined ? {} : { outdated: filter.outdated });

const reviewsOfChangeRequest: ChildListing<ChangeRequestReviewRecord, ReviewFilter> = {
  name: 'change-request-reviews',
  records: reviewRecords,
  ordering: () => newestFirst,
  parentOf: (row) => row.changeRequestId,
  findMany: (ctx, ids, filter, args) =>
    ctx.db.changeRequestReview.findMany({ ...args, where: { AND: [{ changeRequestId: { in: ids }, ...reviewWhere(filter) }, args.where] } }),
  count: async (ctx, ids, filter) =>
    countsBy(
      await ctx.db.changeRequestReview.groupBy({
        by: ['changeRequestId'],
        where: { changeRequestId: { in: ids }, ...reviewWhere(filter) },
        _count: { _all: true },
      }),
      'changeRequestId',
    ),
};

const requestsOldestFirst: Ordering<ChangeRequestReviewerRecord> = {
  name: 'change-request-reviewers',
  keys: [
    { field: 'createdAt', direction: 'asc', type: 'date', value: (row) => row.createdAt },
    { field: 'userId', direction: 'asc', type: 'string', value: (row) => row.userId },
  ],
};

const reviewersOfChangeRequest: ChildListing<ChangeRequestReviewerRecord, Record<string, never>> = {
  name: 'change-request-reviewers',
  ordering: () => requestsOldestFirst,
  parentOf: (row) => row.changeRequestId,
  findMany: (ctx, ids, _filter, args) => ctx.db.changeRequestReviewer.findMany({ ...args, where: { AND: [{ changeRequestId: { in: ids } }, args.where] } }),
  count: async (ctx, ids) =>
    countsBy(
      await ctx.db.changeRequestReviewer.groupBy({ by: ['changeRequestId'], where: { changeRequestId: { in: ids } }, _count: { _all: true } }),
      'changeRequestId',
    ),
};

/** The comment posted with a review; null when it had none, or the comment was deleted since. */
export async function reviewComment(ctx: RequestContext, review: ChangeRequestReviewRecord): Promise<CommentRecord | null> {
  return review.commentId ? ((await loader(ctx, commentRecords).load(review.commentId)) ?? null) : null;
}

export async function presentReviewRecord(ctx: RequestContext, review: ChangeRequestReviewRecord, format?: 'markdown' | 'document'): Promise<ReviewJSON> {
  const users = loader(ctx, userRecords);
  const [reviewer, requestedBy, commentRow] = await Promise.all([
    users.load(review.reviewerId),
    review.requestedById ? users.load(review.requestedById) : null,
    reviewComment(ctx, review),
  ]);
  const comment = commentRow ? await presentCommentRecord(ctx, commentRow, format) : null;
  return presentReview(review, { reviewer, requestedBy, comment }, ctx.urls);
}

/** The reviews of a change request, newest first; `outdated` filters them. */
export async function listReviewRecords(
  ctx: RequestContext,
  spaceId: string,
  changeRequestId: string,
  query: unknown,
): Promise<Page<ChangeRequestReviewRecord>> {
  const { outdated, format: _format, ...paging } = parseInput(ListReviewsQuery, query, 'query');
  const { changeRequest } = await visibleChangeRequest(ctx, spaceId, changeRequestId);
  return listChildren(ctx, reviewsOfChangeRequest, changeRequest.id, { outdated }, pageRequestOf(paging));
}

export async function listReviews(ctx: RequestContext, spaceId: string, changeRequestId: string, query: unknown): Promise<Page<ReviewJSON>> {
  const { format } = parseInput(ListReviewsQuery, query, 'query');
  return mapPage(await listReviewRecords(ctx, spaceId, changeRequestId, query), (review) => presentReviewRecord(ctx, review, format));
}

export async function reviewRecord(ctx: RequestContext, spaceId: string, changeRequestId: string, reviewId: string): Promise<ChangeRequestReviewRecord> {
  const { changeRequest } = await visibleChangeRequest(ctx, spaceId, changeRequestId);
  const review = await loader(ctx, reviewRecords).load(reviewId);
  if (!review || review.changeRequestId !== changeRequest.id) throw notFound('Review', reviewId);
  return review;
}

export async function getReview(ctx: RequestContext, spaceId: string, changeRequestId: string, reviewId: string, query: unknown = {}): Promise<ReviewJSON> {
  const { format } = parseInput(ReviewFormatQuery, query, 'query');
  return presentReviewRecord(ctx, await reviewRecord(ctx, spaceId, changeRequestId, reviewId), format);
}

/** A review by its id alone (GraphQL `node`): seen by those who read its space, a 404 for others. */
export async function reviewById(ctx: RequestContext, reviewId: string): Promise<ChangeRequestReviewRecord> {
  const review = await loader(ctx, reviewRecords).load(reviewId);
  if (!review) throw notFound('Review', reviewId);
  return reviewRecord(ctx, review.spaceId, review.changeRequestId, reviewId);
}

/** A change request still under review: neither merged nor archived. */
function assertReviewable(changeRequest: Pick<ChangeRequestRecord, 'number' | 'status'>): void {
  if (changeRequest.status === 'merged' || changeRequest.status === 'archived') {
    throw conflict(`change request #${changeRequest.number} is ${changeRequest.status}: it can no longer be reviewed`);
  }
}

/** The markdown of a review's comment: `{"markdown"}` as a comment's body, or a structured document. */
async function commentMarkdown(comment: Record<string, unknown> | undefined): Promise<string | undefined> {
  if (comment === undefined) return undefined;
  if ('markdown' in comment) {
    const parsed = commentBody.safeParse(comment);
    if (!parsed.success) throw invalid(`comment: ${parsed.error.issues[0]?.message ?? 'is not valid'}`);
    return parsed.data.markdown;
  }
  const markdown = await markdownOfDocumentInput(comment, 'comment');
  if (!/\S/.test(markdown)) throw invalid('comment: must not be empty');
  return markdown;
}

export async function submitReviewRecord(ctx: RequestContext, spaceId: string, changeRequestId: string, body: unknown): Promise<ChangeRequestReviewRecord> {
  const input = parseInput(SubmitReviewInput, body);
  const viewer = requireViewer(ctx);
  const { space, level, changeRequest } = await visibleChangeRequest(ctx, spaceId, changeRequestId);
  const markdown = await commentMarkdown(input.comment);
  const requested = await ctx.db.changeRequestReviewer.findUnique({
    where: { changeRequestId_userId: { changeRequestId: changeRequest.id, userId: viewer.id } },
  });
  if (changeRequest.createdById === viewer.id) throw forbidden('You are not allowed to review your own change request');
  authorize(atLeast(level, 'review') || requested !== null, 'review this change request (ask for review rights, or to be requested as a reviewer)');
  const id = newId('changeRequestReview');
  await inTransaction(ctx, 'recorded-by-work', async (tx) => {
    await lockSpace(tx, spaceId);
    const current = await tx.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequest.id } });
    assertReviewable(current);
    let commentId: string | null = null;
    if (markdown !== undefined) {
      commentId = newId('comment');
      await tx.db.comment.create({
        data: {
          id: commentId,
          organizationId: space.organizationId,
          spaceId,
          changeRequestId: current.id,
          postedById: viewer.id,
          body: markdown,
          postedAt: tx.clock.now(),
          status: 'open',
        },
      });
    }
    // The reviewer's earlier reviews no longer count.
    await tx.db.changeRequestReview.updateMany({ where: { changeRequestId: current.id, reviewerId: viewer.id, outdated: false }, data: { outdated: true } });
    await tx.db.changeRequestReview.create({
      data: {
        id,
        spaceId,
        changeRequestId: current.id,
        reviewerId: viewer.id,
        requestedById: requested?.requestedById ?? null,
        status: input.status satisfies ReviewStatus,
        revisionId: current.revisionId,
        commentId,
        outdated: false,
        createdAt: tx.clock.now(),
      },
    });
    const scope = { organizationId: space.organizationId, spaceId, changeRequestId: current.id };
    emitEvent(tx, { kind: 'change_request.reviewed', ...scope, subjectId: current.id, data: { reviewId: id, status: input.status } });
    if (commentId) emitEvent(tx, { kind: 'comment.posted', ...scope, subjectId: commentId });
    auditWrite(tx, {
      action: 'change_request.review',
      organizationId: space.organizationId,
      target: { type: 'change-request', id: current.id, label: `#${current.number} ${current.subject}`.trim() },
      payload: { reviewId: id, status: input.status },
    });
  });
  return (await loader(ctx, reviewRecords).load(id))!;
}

export async function submitReview(ctx: RequestContext, spaceId: string, changeRequestId: string, body: unknown): Promise<ReviewJSON> {
  return presentReviewRecord(ctx, await submitReviewRecord(ctx, spaceId, changeRequestId, body));
}

/** Who may ask for reviews (and withdraw a request): the change request's author, or `edit` on the space. */
function authorizeRequesting(ctx: RequestContext, level: string, changeRequest: ChangeRequestRecord, action: string): void {
  authorize(atLeast(level as never, 'edit') || changeRequest.createdById === ctx.viewer?.user.id, action);
}

/** Whether a user reads a space (a reviewer must): their level on it, as the viewer's is computed. */
async function readsSpace(ctx: RequestContext, space: SpaceRecord, userId: string): Promise<boolean> {
  const user = await loader(ctx, userRecords).load(userId);
  if (!user) return false;
  const level = await spaceLevel({ ...ctx, viewer: { user }, loaders: new Map() }, space);
  return atLeast(level, 'read');
}

export async function requestReviewerRecords(
  ctx: RequestContext,
  spaceId: string,
  changeRequestId: string,
  body: unknown,
): Promise<ChangeRequestReviewerRecord[]> {
  const input = parseInput(RequestReviewersInput, body);
  const viewer = requireViewer(ctx);
  const { space, level, changeRequest } = await visibleChangeRequest(ctx, spaceId, changeRequestId);
  authorizeRequesting(ctx, level, changeRequest, 'request reviewers for this change request');
  const users = [...new Set(input.users)];
  for (const [index, userId] of input.users.entries()) {
    if (userId === changeRequest.createdById) throw invalid(`users[${index}]: "${userId}" is the change request's author, who cannot review it`);
    if (!(await readsSpace(ctx, space, userId))) throw invalid(`users[${index}]: no user "${userId}" can read this space`);
  }
  await inTransaction(ctx, 'recorded-by-work', async (tx) => {
    await lockSpace(tx, spaceId);
    const current = await tx.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequest.id } });
    assertReviewable(current);
    if (input.subject !== undefined && input.subject !== current.subject) {
      await tx.db.changeRequest.update({ where: { id: current.id }, data: { subject: input.subject } });
    }
    const now = tx.clock.now();
    for (const userId of users) {
      await tx.db.changeRequestReviewer.upsert({
        where: { changeRequestId_userId: { changeRequestId: current.id, userId } },
        create: { changeRequestId: current.id, userId, spaceId, requestedById: viewer.id, revisionId: current.revisionId, createdAt: now },
        update: { requestedById: viewer.id, revisionId: current.revisionId, createdAt: now },
      });
    }
    // A new request supersedes what the reviewer said before.
    await tx.db.changeRequestReview.updateMany({
      where: { changeRequestId: current.id, reviewerId: { in: users }, outdated: false },
      data: { outdated: true },
    });
    const scope = { organizationId: space.organizationId, spaceId, changeRequestId: current.id };
    emitEvent(tx, { kind: 'change_request.reviewers_requested', ...scope, subjectId: current.id, data: { users: users.join(',') } });
    auditWrite(tx, {
      action: 'change_request.request_reviewers',
      organizationId: space.organizationId,
      target: { type: 'change-request', id: current.id, label: `#${current.number} ${current.subject}`.trim() },
      payload: { users },
    });
  });
  return ctx.db.changeRequestReviewer.findMany({ where: { changeRequestId: changeRequest.id, userId: { in: users } }, orderBy: { userId: 'asc' } });
}

export async function presentRequestedReviewerRecord(ctx: RequestContext, request: ChangeRequestReviewerRecord): Promise<RequestedReviewerJSON> {
  const users = loader(ctx, userRecords);
  const [user, requestedBy] = await Promise.all([users.load(request.userId), users.load(request.requestedById)]);
  return presentRequestedReviewer(request, { user, requestedBy }, ctx.urls);
}

export async function requestReviewers(
  ctx: RequestContext,
  spaceId: string,
  changeRequestId: string,
  body: unknown,
): Promise<{ users: RequestedReviewerJSON[] }> {
  const requests = await requestReviewerRecords(ctx, spaceId, changeRequestId, body);
  return { users: await Promise.all(requests.map((request) => presentRequestedReviewerRecord(ctx, request))) };
}

export async function listRequestedReviewerRecords(
  ctx: RequestContext,
  spaceId: string,
  changeRequestId: string,
  query: unknown,
): Promise<Page<ChangeRequestReviewerRecord>> {
  const paging = parseInput(ListRequestedReviewersQuery, query, 'query');
  const { changeRequest } = await visibleChangeRequest(ctx, spaceId, changeRequestId);
  return listChildren(ctx, reviewersOfChangeRequest, changeRequest.id, {}, pageRequestOf(paging));
}

export async function listRequestedReviewers(
  ctx: RequestContext,
  spaceId: string,
  changeRequestId: string,
  query: unknown,
): Promise<Page<RequestedReviewerJSON>> {
  return mapPage(await listRequestedReviewerRecords(ctx, spaceId, changeRequestId, query), (request) => presentRequestedReviewerRecord(ctx, request));
}

/** Withdraws a review request: true when there was one (205), false when not (204). The reviewer may withdraw themselves. */
export async function removeRequestedReviewer(ctx: RequestContext, spaceId: string, changeRequestId: string, userId: string): Promise<boolean> {
  const viewer = requireViewer(ctx);
  const { space, level, changeRequest } = await visibleChangeRequest(ctx, spaceId, changeRequestId);
  if (userId !== viewer.id) authorizeRequesting(ctx, level, changeRequest, 'remove reviewers from this change request');
  return inTransaction(ctx, 'recorded-by-work', async (tx) => {
    const { count } = await tx.db.changeRequestReviewer.deleteMany({ where: { changeRequestId: changeRequest.id, userId } });
    if (count === 0) return false;
    const scope = { organizationId: space.organizationId, spaceId, changeRequestId: changeRequest.id };
    emitEvent(tx, { kind: 'change_request.reviewer_removed', ...scope, subjectId: changeRequest.id, data: { userId } });
    auditWrite(tx, {
      action: 'change_request.remove_reviewer',
      organizationId: space.organizationId,
      target: { type: 'change-request', id: changeRequest.id, label: `#${changeRequest.number} ${changeRequest.subject}`.trim() },
      payload: { userId },
    });
    return true;
  });
}

interface PostingGroup {
  postedById: string;
  _count: { _all: number };
  _max: { postedAt: Date | null };
}

/** Contributors of change requests by id, read for all of them at once (a list of change requests costs the same as one). */
const contributorViewsOf = defineLoader<string, ContributorView[]>(async (ctx, ids) => {
  const changeRequestIds = [...ids];
  const [editors, commenters, replierGroups] = await Promise.all([
    ctx.db.changeRequestContributor.findMany({ where: { changeRequestId: { in: changeRequestIds } } }),
    ctx.db.comment.groupBy({
      by: ['changeRequestId', 'postedById'],
      where: { changeRequestId: { in: changeRequestIds } },
      _count: { _all: true },
      _max: { postedAt: true },
    }),
    ctx.db.commentReply.groupBy({
      by: ['commentId', 'postedById'],
      where: { comment: { changeRequestId: { in: changeRequestIds } } },
      _count: { _all: true },
      _max: { postedAt: true },
    }),
  ]);
  // Read here, not through the comment loader: its batches also carry reviews' comments, in waves that vary with timing.
  const repliedComments = replierGroups.length
    ? await ctx.db.comment.findMany({
        where: { id: { in: [...new Set(replierGroups.map((group) => group.commentId))] } },
        select: { id: true, changeRequestId: true },
      })
    : [];
  const changeRequestOfComment = new Map(repliedComments.map((comment) => [comment.id, comment.changeRequestId]));
  const postings = new Map<string, PostingGroup[]>();
  const addPosting = (changeRequestId: string | null | undefined, group: PostingGroup) => {
    if (changeRequestId) postings.set(changeRequestId, [...(postings.get(changeRequestId) ?? []), group]);
  };
  for (const group of commenters) addPosting(group.changeRequestId, group);
  for (const group of replierGroups) addPosting(changeRequestOfComment.get(group.commentId), group);
  return changeRequestIds.map((changeRequestId) =>
    contributorViews(
      editors.filter((editor) => editor.changeRequestId === changeRequestId),
      postings.get(changeRequestId) ?? [],
    ),
  );
});

/** Editors first met as `edit`; commenters and repliers, who did not edit, summed as `comment`; most recent first. */
function contributorViews(editors: Array<{ userId: string; count: number; updatedAt: Date }>, postings: PostingGroup[]): ContributorView[] {
  const views = new Map<string, ContributorView>();
  for (const editor of editors) views.set(editor.userId, { userId: editor.userId, actionType: 'edit', count: editor.count, updatedAt: editor.updatedAt });
  for (const row of postings) {
    if (views.get(row.postedById)?.actionType === 'edit') continue;
    const known = views.get(row.postedById);
    const at = row._max.postedAt ?? new Date(0);
    views.set(row.postedById, {
      userId: row.postedById,
      actionType: 'comment',
      count: (known?.count ?? 0) + row._count._all,
      updatedAt: known && known.updatedAt > at ? known.updatedAt : at,
    });
  }
  return [...views.values()].sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || a.userId.localeCompare(b.userId));
}

/**
 * Who contributed to a change request: its editors (`edit`: their content batches),
 * then those who only commented (`comment`: comments and replies), most recent first.
 */
export async function listContributorViews(ctx: RequestContext, spaceId: string, changeRequestId: string): Promise<ContributorView[]> {
  const { changeRequest } = await visibleChangeRequest(ctx, spaceId, changeRequestId);
  return loader(ctx, contributorViewsOf).load(changeRequest.id);
}

export async function listContributors(ctx: RequestContext, spaceId: string, changeRequestId: string): Promise<{ count: number; items: ContributorJSON[] }> {
  const views = await listContributorViews(ctx, spaceId, changeRequestId);
  const users = loader(ctx, userRecords);
  const items = await Promise.all(views.map(async (view) => presentContributor(view, await users.load(view.userId), ctx.urls)));
  return { count: items.length, items };
}
