/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** Where a change request is in its life (REST `ChangeRequestStatus`); the space counts its draft and open ones */
export type ChangeRequestStatus =
  /** Closed without merging: its content can no longer change until it is set back to draft or open */
  | 'archived'
  /** Being prepared, not yet proposed: its content can change and it can be merged */
  | 'draft'
  /** Merged into the space content, for good: only merging sets it, and its status and content can no longer change */
  | 'merged'
  /** Proposed for review: its content can change and it can be merged (new change requests start open) */
  | 'open';

/** What happened; the event type of a union member tells which objects it carries */
export type EventKind =
  /** It was closed without merging */
  | 'CHANGE_REQUEST_ARCHIVED'
  /** Its content moved to a new revision: edits, an import, or an update from its space */
  | 'CHANGE_REQUEST_CONTENT_UPDATED'
  /** It was merged into its space (the space announces its new content too) */
  | 'CHANGE_REQUEST_MERGED'
  /** A change request was created */
  | 'CHANGE_REQUEST_OPENED'
  /** It was set back to draft or open after being archived */
  | 'CHANGE_REQUEST_REOPENED'
  /** A review was submitted (approved or changes requested): `review` */
  | 'CHANGE_REQUEST_REVIEWED'
  /** Reviewers were requested */
  | 'CHANGE_REQUEST_REVIEWERS_REQUESTED'
  /** A requested reviewer was removed */
  | 'CHANGE_REQUEST_REVIEWER_REMOVED'
  /** Its subject or status (draft, open) changed */
  | 'CHANGE_REQUEST_UPDATED'
  /** It was deleted, with its replies (`comment` is null) */
  | 'COMMENT_DELETED'
  /** A comment was posted */
  | 'COMMENT_POSTED'
  /** It was marked resolved */
  | 'COMMENT_RESOLVED'
  /** Its body changed, or it was reopened */
  | 'COMMENT_UPDATED'
  /** A job a request asked for (an import, a PDF export) finished */
  | 'JOB_FINISHED'
  /** An OpenAPI spec finished processing (after it was created or its source changed) */
  | 'OPENAPI_SPEC_PROCESSED'
  /** It was deleted (`reply` is null) */
  | 'REPLY_DELETED'
  /** A reply to a comment was posted */
  | 'REPLY_POSTED'
  /** Its body changed */
  | 'REPLY_UPDATED'
  /** A site was deleted (`SiteDeletedEvent`) */
  | 'SITE_DELETED'
  /** A site was published: its audience can read it */
  | 'SITE_PUBLISHED'
  /** It was unpublished */
  | 'SITE_UNPUBLISHED'
  /** A space's live content moved to a new revision (a merge, or a website imported into it) */
  | 'SPACE_CONTENT_UPDATED'
  /** A space was created (or duplicated from another) */
  | 'SPACE_CREATED'
  /** It was deleted (it can be restored for 7 days) */
  | 'SPACE_DELETED'
  /** A Git import or export of the space ended (data: direction, commit) */
  | 'SPACE_GIT_SYNCED'
  /** A push to the bound branch conflicts with edits of the space: it landed as a change request (data: commit, changeRequestId) */
  | 'SPACE_GIT_SYNC_CONFLICT'
  /** A Git import or export of the space failed (data: direction, error) */
  | 'SPACE_GIT_SYNC_FAILED'
  /** It moved to another place, or here from another organization */
  | 'SPACE_MOVED'
  /** It was restored after a deletion */
  | 'SPACE_RESTORED'
  /** A space was transferred to another organization (`SpaceTransferredOutEvent`, to the organization it left) */
  | 'SPACE_TRANSFERRED_OUT'
  /** Its title, emoji or icon, edit mode, default level, language or merge rules changed */
  | 'SPACE_UPDATED';

export type SiteTreeQueryVariables = Exact<{
  organizationId: string | number;
}>;


export type SiteTreeQuery = { node:
    | { title: string, sites: { edges: Array<{ node: { id: string, title: string, urls: { published: string | null }, sections: { edges: Array<{ node: { title: string, path: string, default: boolean | null, siteSpaces: Array<{ path: string, title: string, space: { id: string, title: string, emoji: string } }> } }> }, sectionGroups: { edges: Array<{ node: { title: string, sections: Array<{ title: string, path: string }> } }> } } }> } }
    | Record<PropertyKey, never>
   | null };

export type SpaceEventsSubscriptionVariables = Exact<{
  spaceId: string | number;
}>;


export type SpaceEventsSubscription = { spaceEvents:
    | { __typename: 'ChangeRequestEvent', id: string, kind: EventKind, at: string, changeRequest: { number: number, subject: string, status: ChangeRequestStatus } | null }
    | { __typename: 'CommentEvent', id: string, kind: EventKind, at: string, commentId: string, comment: { body: unknown } | null }
    | { __typename: 'CommentReplyEvent', id: string, kind: EventKind, at: string }
    | { __typename: 'SpaceContentEvent', id: string, kind: EventKind, at: string, revision: { id: string } | null }
    | { __typename: 'SpaceLifecycleEvent', id: string, kind: EventKind, at: string }
   };


export const SiteTreeDocument = {"__meta__":{"hash":"sha256:39ed7a97952cc34b793dc16001f90c0a79e3fcb2e9b21930b01451a741c34454"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SiteTree"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Organization"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"sites"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"published"},"value":{"kind":"BooleanValue","value":true}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"10"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"urls"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"published"}}]}},{"kind":"Field","name":{"kind":"Name","value":"sections"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"50"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"default"}},{"kind":"Field","name":{"kind":"Name","value":"siteSpaces"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"space"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"emoji"}}]}}]}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"sectionGroups"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"sections"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"title"}},{"kind":"Field","name":{"kind":"Name","value":"path"}}]}}]}}]}}]}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<SiteTreeQuery, SiteTreeQueryVariables>;
export const SpaceEventsDocument = {"__meta__":{"hash":"sha256:3ebf32a8c412671e71128c1ffe20181cfece75fbc962ef6385573b761dd361a1"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"SpaceEvents"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"spaceId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"spaceEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"spaceId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"spaceId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Event"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"at"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ChangeRequestEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"changeRequest"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"subject"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CommentEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"commentId"}},{"kind":"Field","name":{"kind":"Name","value":"comment"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"body"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SpaceContentEvent"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"revision"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]} as unknown as DocumentNode<SpaceEventsSubscription, SpaceEventsSubscriptionVariables>;