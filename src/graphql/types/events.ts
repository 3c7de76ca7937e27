import { reviewRecord } from '../../domain/change-requests/reviews.ts';
import { changeRequestUser } from '../../domain/change-requests/service.ts';
import { type EventItem, changeRequestEvents, organizationEvents, spaceEvents } from '../../domain/events/subscriptions.ts';
import { visibleSpace } from '../../domain/spaces/service.ts';
import { type DomainEvent, EVENT_KINDS, type EventKind as EventKindValue } from '../../events/event.ts';
import { initContextCache } from '@pothos/core';
import type { RequestContext } from '../../context.ts';
import { builder } from '../builder.ts';
import { ChangeRequest } from './change-request.ts';
import { ChangeRequestReview } from './change-request-review.ts';
import { Comment } from './comment.ts';
import { CommentReply } from './comment-reply.ts';
import { Revision } from './content.ts';
import { OpenAPISpec } from './openapi-spec.ts';
import { Site } from './site-common.ts';
import { Space } from './space.ts';
import { User } from './user.ts';

/*
 * Live updates: GraphQL subscriptions, served over Server-Sent Events by Yoga
 * (POST or GET /graphql with `Accept: text/event-stream`). Each event names the
 * objects it concerns; selecting them reads them now, with the subscriber's
 * permissions, through the same loaders as a query.
 */

const KIND_DESCRIPTIONS: Record<EventKindValue, string> = {
  'space.content_updated': "A space's live content moved to a new revision (a merge, or a website imported into it)",
  'change_request.opened': 'A change request was created',
  'change_request.updated': 'Its subject or status (draft, open) changed',
  'change_request.content_updated': 'Its content moved to a new revision: edits, an import, or an update from its space',
  'change_request.merged': 'It was merged into its space (the space announces its new content too)',
  'change_request.archived': 'It was closed without merging',
  'change_request.reopened': 'It was set back to draft or open after being archived',
  'change_request.reviewed': 'A review was submitted (approved or changes requested): `review`',
  'change_request.reviewers_requested': 'Reviewers were requested',
  'change_request.reviewer_removed': 'A requested reviewer was removed',
  'comment.posted': 'A comment was posted',
  'comment.updated': 'Its body changed, or it was reopened',
  'comment.resolved': 'It was marked resolved',
  'comment.deleted': 'It was deleted, with its replies (`comment` is null)',
  'reply.posted': 'A reply to a comment was posted',
  'reply.updated': 'Its body changed',
  'reply.deleted': 'It was deleted (`reply` is null)',
  'space.created': 'A space was created (or duplicated from another)',
  'space.updated': 'Its title, emoji or icon, edit mode, default level, language or merge rules changed',
  'space.moved': 'It moved to another place, or here from another organization',
  'space.transferred_out': 'A space was transferred to another organization (`SpaceTransferredOutEvent`, to the organization it left)',
  'space.deleted': 'It was deleted (it can be restored for 7 days)',
  'space.restored': 'It was restored after a deletion',
  'space.git_synced': 'A Git import or export of the space ended (data: direction, commit)',
  'space.git_sync_failed': 'A Git import or export of the space failed (data: direction, error)',
  'space.git_sync_conflict': 'A push to the bound branch conflicts with edits of the space: it landed as a change request (data: commit, changeRequestId)',
  'site.published': 'A site was published: its audience can read it',
  'site.unpublished': 'It was unpublished',
  'site.deleted': 'A site was deleted (`SiteDeletedEvent`)',
  'openapi_spec.processed': 'An OpenAPI spec finished processing (after it was created or its source changed)',
  'job.finished': 'A job a request asked for (an import, a PDF export) finished',
};

/** `change_request.merged` → `CHANGE_REQUEST_MERGED`. */
const enumName = (kind: string) => kind.replace('.', '_').toUpperCase();

const EventKindEnum = builder.enumType('EventKind', {
  description: 'What happened; the event type of a union member tells which objects it carries',
  values: Object.fromEntries(EVENT_KINDS.map((kind) => [enumName(kind), { value: kind, description: KIND_DESCRIPTIONS[kind] }])),
});

const EventInterface = builder.interfaceRef<DomainEvent>('Event').implement({
  description: 'Something that happened, delivered to subscribers after the write that did it committed',
  fields: (t) => ({
    id: t.exposeID('id', { description: "The event's own id (`evt_…`): unique, so a client can tell what it has seen" }),
    kind: t.field({ type: EventKindEnum, description: 'What happened', resolve: (event) => event.kind as never }),
    at: t.field({ type: 'DateTime', description: 'When the write was made', resolve: (event) => event.at }),
    actor: t.field({
      type: User,
      nullable: true,
      description: 'Who made the change; null for background work (a spec processed by the job queue)',
      resolve: (event, _args, ctx) => (event.actorId ? changeRequestUser(ctx, event.actorId) : null),
    }),
  }),
});

function enumOf(name: string, description: string, values: Record<string, string>) {
  return builder.enumType(name, { description, values: Object.fromEntries(Object.entries(values).map(([value, text]) => [value, { description: text }])) });
}

const JobKind = enumOf('JobKind', 'A kind of background job a request waits for', {
  IMPORT_WEBSITE: 'A website imported into a space or change request',
  RENDER_PDF: 'A PDF export of a change request',
});
const JobOutcome = enumOf('JobOutcome', 'How a job ended', {
  SUCCEEDED: 'It did its work',
  FAILED: 'It failed or was refused; the request that asked for it had the error',
});

function eventObject(name: string, description: string) {
  return builder.objectRef<DomainEvent>(name).implement({ description, interfaces: [EventInterface], fields: () => ({}) });
}

// Fields of the same name have the same type in every member, so that one selection can ask for them across a union.

const SpaceContentEvent = eventObject(
  'SpaceContentEvent',
  "A space's live content moved to a new revision: a change request was merged, or a website imported into it",
);
builder.objectFields(SpaceContentEvent, (t) => ({
  space: t.field({ type: Space, description: 'The space', resolve: (event) => event.spaceId! }),
  revision: t.field({ type: Revision, nullable: true, description: 'Its new current revision', resolve: (event) => String(event.data?.revisionId) }),
  changeRequest: t.field({
    type: ChangeRequest,
    nullable: true,
    description: 'The change request merged, when a merge made it',
    resolve: (event) => event.changeRequestId ?? null,
  }),
}));

const ChangeRequestEvent = eventObject('ChangeRequestEvent', 'A change request was opened, updated, edited, merged, archived or reopened');
builder.objectFields(ChangeRequestEvent, (t) => ({
  changeRequest: t.field({ type: ChangeRequest, nullable: true, description: 'The change request, as it is now', resolve: (event) => event.subjectId }),
  revision: t.field({
    type: Revision,
    nullable: true,
    description: 'The revision made: its new content (CHANGE_REQUEST_CONTENT_UPDATED), or the space revision of the merge (CHANGE_REQUEST_MERGED)',
    resolve: (event) => (event.data?.revisionId ? String(event.data.revisionId) : null),
  }),
  review: t.field({
    type: ChangeRequestReview,
    nullable: true,
    description: 'The review submitted (CHANGE_REQUEST_REVIEWED), as it is now; null for other kinds',
    resolve: (event, _args, ctx) =>
      event.kind === 'change_request.reviewed' && event.data?.reviewId
        ? reviewRecord(ctx, event.spaceId!, event.changeRequestId ?? event.subjectId, String(event.data.reviewId))
        : null,
  }),
}));

const CommentEvent = eventObject('CommentEvent', 'A comment was posted, edited, resolved or deleted');
builder.objectFields(CommentEvent, (t) => ({
  commentId: t.id({ description: "The comment's id (also when it was deleted)", resolve: (event) => event.subjectId }),
  comment: t.field({
    type: Comment,
    nullable: true,
    description: 'The comment as it is now; null once deleted',
    resolve: (event) => (event.kind === 'comment.deleted' ? null : event.subjectId),
  }),
}));

const CommentReplyEvent = eventObject('CommentReplyEvent', 'A reply to a comment was posted, edited or deleted');
builder.objectFields(CommentReplyEvent, (t) => ({
  commentId: t.id({ description: 'The id of the comment it replies to', resolve: (event) => String(event.data?.commentId) }),
  comment: t.field({ type: Comment, nullable: true, description: 'The comment it replies to', resolve: (event) => String(event.data?.commentId) }),
  replyId: t.id({ description: "The reply's id (also when it was deleted)", resolve: (event) => event.subjectId }),
  reply: t.field({
    type: CommentReply,
    nullable: true,
    description: 'The reply as it is now; null once deleted',
    resolve: (event) => (event.kind === 'reply.deleted' ? null : event.subjectId),
  }),
}));

const SpaceLifecycleEvent = eventObject('SpaceLifecycleEvent', 'A space of the organization was created, updated, moved, deleted or restored');
builder.objectFields(SpaceLifecycleEvent, (t) => ({
  space: t.field({ type: Space, description: 'The space as it is now (a deleted one too, until it is purged)', resolve: (event) => event.subjectId }),
}));

const SpaceTransferredOutEvent = eventObject(
  'SpaceTransferredOutEvent',
  "A space left the organization for another one (the other organization's subscribers hear SPACE_MOVED)",
);
builder.objectFields(SpaceTransferredOutEvent, (t) => ({
  spaceId: t.id({ description: "The space's id", resolve: (event) => event.subjectId }),
  toOrganizationId: t.id({ description: 'The organization it belongs to now', resolve: (event) => String(event.data?.toOrganizationId) }),
  // Not `space`: in the union it would clash with SpaceLifecycleEvent's non-null field of that name.
  destinationSpace: t.field({
    type: Space,
    nullable: true,
    description: 'The space in its new organization, when the subscriber may read it there; null otherwise',
    resolve: (event, _args, ctx) =>
      visibleSpace(ctx, event.subjectId).then(
        () => event.subjectId,
        () => null,
      ),
  }),
}));

const SitePublicationEvent = eventObject('SitePublicationEvent', 'A site was published or unpublished');
builder.objectFields(SitePublicationEvent, (t) => ({
  site: t.field({ type: Site, description: 'The site as it is now', resolve: (event) => event.subjectId }),
}));

const SiteDeletedEvent = eventObject('SiteDeletedEvent', 'A site was deleted, with its sections, site spaces and share links');
builder.objectFields(SiteDeletedEvent, (t) => ({
  siteId: t.id({ description: 'The id the site had', resolve: (event) => event.subjectId }),
}));

const OpenAPISpecProcessedEvent = eventObject('OpenAPISpecProcessedEvent', 'An OpenAPI spec finished processing (after it was created or its source changed)');
builder.objectFields(OpenAPISpecProcessedEvent, (t) => ({
  spec: t.field({ type: OpenAPISpec, description: 'The spec, with its processing state and errors', resolve: (event) => event.subjectId }),
  result: t.string({
    description: '"new version", "unchanged", or the error code of a failed processing',
    resolve: (event) => String(event.data?.outcome),
  }),
}));

const JobFinishedEvent = eventObject('JobFinishedEvent', 'A background job asked for by a request (an import, a PDF export) finished');
builder.objectFields(JobFinishedEvent, (t) => ({
  job: t.field({ type: JobKind, description: 'Which job', resolve: (event) => String(event.data?.job).replace('-', '_').toUpperCase() as never }),
  outcome: t.field({ type: JobOutcome, description: 'How it ended', resolve: (event) => String(event.data?.outcome).toUpperCase() as never }),
  space: t.field({ type: Space, description: 'The space it worked on', resolve: (event) => event.spaceId! }),
  changeRequest: t.field({
    type: ChangeRequest,
    nullable: true,
    description: 'The change request it worked on, if any',
    resolve: (event) => event.changeRequestId ?? null,
  }),
}));

const memberOf: Record<string, typeof SpaceContentEvent> = {
  space: SpaceLifecycleEvent,
  change_request: ChangeRequestEvent,
  comment: CommentEvent,
  reply: CommentReplyEvent,
  site: SitePublicationEvent,
  openapi_spec: OpenAPISpecProcessedEvent,
  job: JobFinishedEvent,
};
/** Kinds whose member is not their prefix's. */
const memberOfKind: Partial<Record<EventKindValue, typeof SpaceContentEvent>> = {
  'space.content_updated': SpaceContentEvent,
  'space.transferred_out': SpaceTransferredOutEvent,
  'site.deleted': SiteDeletedEvent,
};
const typeOf = (event: DomainEvent) => memberOfKind[event.kind] ?? memberOf[event.kind.slice(0, event.kind.indexOf('.'))]!;

const SpaceActivity = builder.unionType('SpaceActivity', {
  description: "An event of `spaceEvents`: the space's content, the space itself (updated, moved, deleted, restored), its change requests and their comments",
  types: [SpaceContentEvent, SpaceLifecycleEvent, ChangeRequestEvent, CommentEvent, CommentReplyEvent],
  resolveType: typeOf,
});
const ChangeRequestActivity = builder.unionType('ChangeRequestActivity', {
  description: 'An event of `changeRequestEvents`: the change request itself, its comments and their replies',
  types: [ChangeRequestEvent, CommentEvent, CommentReplyEvent],
  resolveType: typeOf,
});
const OrganizationActivity = builder.unionType('OrganizationActivity', {
  description: 'An event of `organizationEvents`: spaces, sites, OpenAPI specs and jobs',
  types: [SpaceLifecycleEvent, SpaceTransferredOutEvent, SitePublicationEvent, SiteDeletedEvent, OpenAPISpecProcessedEvent, JobFinishedEvent],
  resolveType: typeOf,
});

builder.subscriptionType({
  description:
    'Live updates over Server-Sent Events (`Accept: text/event-stream`): each event once its write committed, on any instance, to those who may read it at that moment. A stream ends with an error when its token or permission goes.',
});

/**
 * The event itself; the item that ends a stream (an error) fails its execution,
 * which the client receives last. Every event's execution starts with empty
 * Pothos caches (loadable nodes are cached per context, and a stream keeps one
 * context): what it selects is read as it is now.
 */
const deliver = (item: EventItem, _args: unknown, ctx: RequestContext) => {
  if (item instanceof Error) throw item;
  Object.assign(ctx, initContextCache());
  return item;
};

builder.subscriptionField('spaceEvents', (t) =>
  t.field({
    type: SpaceActivity,
    description:
      'Events of a space: its content merged, the space updated, moved, deleted or restored, its change requests, and comments and replies on either; for whoever may read the space',
    args: { spaceId: t.arg.id({ required: true, description: 'The space (`spc_…`)' }) },
    subscribe: (_root, args, ctx) => spaceEvents(ctx, args.spaceId),
    resolve: deliver,
  }),
);

builder.subscriptionField('changeRequestEvents', (t) =>
  t.field({
    type: ChangeRequestActivity,
    description: 'Events of one change request: its status, subject and content, and its comments and replies',
    args: { changeRequestId: t.arg.id({ required: true, description: 'The change request (`cr_…`)' }) },
    subscribe: (_root, args, ctx) => changeRequestEvents(ctx, args.changeRequestId),
    resolve: deliver,
  }),
);

builder.subscriptionField('organizationEvents', (t) =>
  t.field({
    type: OrganizationActivity,
    description:
      'Events of an organization: spaces created, updated, moved, deleted, restored or transferred to another organization, sites published, unpublished or deleted, OpenAPI specs processed, imports and PDF exports finished; each only to members who may see its object',
    args: { organizationId: t.arg.id({ required: true, description: 'The organization (`org_…`)' }) },
    subscribe: (_root, args, ctx) => organizationEvents(ctx, args.organizationId),
    resolve: deliver,
  }),
);
