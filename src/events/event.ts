/**
 * What happened, once, after the transaction that did it committed: the unit
 * that live updates carry (GraphQL subscriptions, src/graphql/types/events.ts).
 * An event names the objects it concerns by id only; a subscriber reads them
 * again, with its own permissions, when the event reaches it. Small and plain
 * JSON: it travels through Redis or PostgreSQL NOTIFY between instances.
 */
export interface DomainEvent {
  /** `evt_…`, unique: a client that reconnects can tell what it has seen. */
  id: string;
  /** ISO 8601 time of the write. */
  at: string;
  kind: EventKind;
  organizationId: string;
  spaceId?: string | undefined;
  changeRequestId?: string | undefined;
  /** The object the event concerns: a change request, comment, reply, space, site, spec or job. */
  subjectId: string;
  /** Who made the change; absent for background work (a job, a spec processed). */
  actorId?: string | undefined;
  /** A few facts of the kind: the revision made, the job's kind and outcome, the spec's state, the comment of a reply. */
  data?: Record<string, string | number | null> | undefined;
}

export const EVENT_KINDS = [
  // A space's content moved to a new revision (a merge, an import into the live content).
  'space.content_updated',
  'change_request.opened',
  'change_request.updated',
  'change_request.content_updated',
  'change_request.merged',
  'change_request.archived',
  'change_request.reopened',
  // A review was submitted (data: reviewId, status); reviewers were requested or one removed.
  'change_request.reviewed',
  'change_request.reviewers_requested',
  'change_request.reviewer_removed',
  'comment.posted',
  'comment.updated',
  'comment.resolved',
  'comment.deleted',
  'reply.posted',
  'reply.updated',
  'reply.deleted',
  'space.created',
  'space.updated',
  'space.moved',
  // A space left the organization for another one (the other one hears space.moved).
  'space.transferred_out',
  'space.deleted',
  'space.restored',
  // A Git sync of the space ended (data: direction, commit; or error).
  'space.git_synced',
  'space.git_sync_failed',
  // A push to a bound branch conflicts with the space's edits: it landed as a change request (data: commit, changeRequestId).
  'space.git_sync_conflict',
  'site.published',
  'site.unpublished',
  'site.deleted',
  'openapi_spec.processed',
  'job.finished',
] as const;

export type EventKind = (typeof EVENT_KINDS)[number];

/** Where a write's events go once it committed: the app's bus (src/events/bus.ts). */
export interface EventSink {
  publish(event: DomainEvent): void;
}
