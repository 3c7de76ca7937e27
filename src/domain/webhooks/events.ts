import type { DomainEvent, EventKind } from '../../events/event.ts';

/**
 * The events a webhook may subscribe to, named as GitBook names its
 * integration events where it has one (`space_content_updated`), and in the
 * same style elsewhere. Each comes from the live-update events
 * (src/events/event.ts) of the write that made it.
 */
export const WEBHOOK_EVENTS = [
  'space_content_updated',
  'change_request_opened',
  'change_request_updated',
  'change_request_merged',
  'change_request_closed',
  'change_request_review_submitted',
  'comment_posted',
  'comment_reply_posted',
  'site_published',
  'site_unpublished',
  'git_sync_completed',
  'git_sync_failed',
  'git_sync_conflict',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** When each is sent (docs/api.md, "Webhooks", says the same with its data). */
export const WEBHOOK_EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  space_content_updated: "A revision became a space's content (a merge, an import into the live content)",
  change_request_opened: 'A change request was opened',
  change_request_updated: 'Its subject or status changed, its content moved to a new revision, or it was reopened',
  change_request_merged: 'It was merged',
  change_request_closed: 'It was archived',
  change_request_review_submitted: 'A review of it was submitted',
  comment_posted: 'A comment was posted on a space or a change request',
  comment_reply_posted: 'A reply to a comment was posted',
  site_published: 'A site was published',
  site_unpublished: 'A site was unpublished',
  git_sync_completed: 'A Git import or export of a space ended',
  git_sync_failed: 'A Git import or export of a space failed',
  git_sync_conflict: "A push to a bound space's branch conflicts with edits of the space: it landed as a change request",
};

/** Which webhook event a live-update event is; absent: none. */
const TYPE_OF: Partial<Record<EventKind, WebhookEventType>> = {
  'space.content_updated': 'space_content_updated',
  'change_request.opened': 'change_request_opened',
  'change_request.updated': 'change_request_updated',
  'change_request.content_updated': 'change_request_updated',
  'change_request.reopened': 'change_request_updated',
  'change_request.merged': 'change_request_merged',
  'change_request.archived': 'change_request_closed',
  'change_request.reviewed': 'change_request_review_submitted',
  'comment.posted': 'comment_posted',
  'reply.posted': 'comment_reply_posted',
  'site.published': 'site_published',
  'site.unpublished': 'site_unpublished',
  'space.git_synced': 'git_sync_completed',
  'space.git_sync_failed': 'git_sync_failed',
  'space.git_sync_conflict': 'git_sync_conflict',
};

/** What a delivery's body says: ids and a few facts, never content (a receiver reads that with its own token). */
export interface WebhookPayload {
  type: WebhookEventType;
  /** ISO 8601 time of the write. */
  timestamp: string;
  data: Record<string, string>;
}

/** The webhook event of a live-update event, or undefined when it has none. */
export function webhookEventOf(event: DomainEvent): WebhookPayload | undefined {
  const type = TYPE_OF[event.kind];
  if (!type) return undefined;
  const data: Record<string, string> = { eventId: event.id, organizationId: event.organizationId };
  if (event.spaceId) data.spaceId = event.spaceId;
  if (event.changeRequestId) data.changeRequestId = event.changeRequestId;
  if (event.kind === 'comment.posted') data.commentId = event.subjectId;
  if (event.kind === 'reply.posted') {
    data.replyId = event.subjectId;
    if (typeof event.data?.commentId === 'string') data.commentId = event.data.commentId;
  }
  if (event.kind.startsWith('site.')) data.siteId = event.subjectId;
  if (event.kind === 'space.git_synced' || event.kind === 'space.git_sync_failed' || event.kind === 'space.git_sync_conflict') {
    for (const key of ['direction', 'commit', 'error']) if (typeof event.data?.[key] === 'string') data[key] = event.data[key] as string;
  }
  if (event.kind === 'change_request.reviewed') {
    if (typeof event.data?.reviewId === 'string') data.reviewId = event.data.reviewId;
    if (typeof event.data?.status === 'string') data.status = event.data.status;
  }
  if (typeof event.data?.revisionId === 'string') data.revisionId = event.data.revisionId;
  if (event.kind === 'change_request.reopened') data.status = 'open';
  if (event.actorId) data.actorId = event.actorId;
  return { type, timestamp: event.at, data };
}
