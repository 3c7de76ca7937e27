import { pagesShownThrough, readByVisitor } from './visitor-pages.ts';
import type { ChangeRequestRecord } from '../../db/index.ts';
import type { ChangeRequestStatus as ChangeRequestStatusValue } from '../../domain/change-requests/inputs.ts';
import { changeRequestUrls, isOutdated } from '../../domain/change-requests/presenter.ts';
import {
  changeRequestById,
  changeRequestUser,
  createChangeRequest,
  listChangeRequestRecords,
  mergeChangeRequest,
  updateChangeRequest,
  updateChangeRequestFromSpace,
} from '../../domain/change-requests/service.ts';
import { changeRequestOpenComments } from '../../domain/comments/counts.ts';
import type { ChangeOutcome } from '../../domain/content/changes.ts';
import { revisionFiles } from '../../domain/content/files.ts';
import { importContent, updateChangeRequestContent } from '../../domain/content/service.ts';
import { spaceRecord } from '../../domain/spaces/service.ts';
import { builder } from '../builder.ts';
import { connectionQuery, loadEach, toConnection } from '../connection.ts';
import { restEnum, urlsObject } from './common.ts';
import { File, Revision } from './content.ts';
import { Space } from './space.ts';
import { User } from './user.ts';

export const ChangeRequestStatus = restEnum<ChangeRequestStatusValue>(
  'ChangeRequestStatus',
  'Where a change request is in its life (REST `ChangeRequestStatus`); the space counts its draft and open ones',
  {
    draft: 'Being prepared, not yet proposed: its content can change and it can be merged',
    open: 'Proposed for review: its content can change and it can be merged (new change requests start open)',
    archived: 'Closed without merging: its content can no longer change until it is set back to draft or open',
    merged: 'Merged into the space content, for good: only merging sets it, and its status and content can no longer change',
  },
);
const ChangeRequestUrls = urlsObject('ChangeRequestUrls', ['app', 'location'], []);

/** Backed by the change request's row; its revisions and users are loaded when asked. */
export const ChangeRequest = builder.loadableNodeRef<ChangeRequestRecord, string>('ChangeRequest', {
  id: { resolve: (changeRequest) => changeRequest.id },
  load: (ids, ctx) => loadEach(ids, async (id) => (await changeRequestById(ctx, id)).changeRequest),
});

ChangeRequest.implement({
  description:
    'Proposed changes to the content of a space, merged into it when ready (REST `/v1/spaces/{spaceId}/change-requests/{changeRequestId}`); seen by those who can see its space',
  fields: (t) => ({
    object: t.string({ description: 'Always "change-request" (the REST `object`)', resolve: () => 'change-request' }),
    number: t.exposeInt('number', { description: 'Incremental within the space, from 1' }),
    status: t.field({
      type: ChangeRequestStatus,
      description: 'Where it is in its life: draft, open, archived or merged',
      resolve: (changeRequest) => changeRequest.status as ChangeRequestStatusValue,
    }),
    subject: t.exposeString('subject', { description: 'Its title (up to 100 characters); empty when none was given' }),
    createdBy: t.field({
      type: User,
      description: 'The user who opened it (a user who is gone shows as "Deleted user")',
      resolve: (changeRequest, _args, ctx) => changeRequestUser(ctx, changeRequest.createdById),
    }),
    createdAt: t.field({ type: 'DateTime', description: 'When it was opened', resolve: (changeRequest) => changeRequest.createdAt.toISOString() }),
    updatedAt: t.field({
      type: 'DateTime',
      description: 'When it last changed: its subject, status, content or merge',
      resolve: (changeRequest) => changeRequest.updatedAt.toISOString(),
    }),
    mergedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When it was merged; null until it is',
      resolve: (changeRequest) => changeRequest.mergedAt?.toISOString() ?? null,
    }),
    mergedBy: t.field({
      type: User,
      nullable: true,
      description: 'The user who merged it; null until it is merged',
      resolve: (changeRequest, _args, ctx) => (changeRequest.mergedAt ? changeRequestUser(ctx, changeRequest.mergedById) : null),
    }),
    space: t.field({
      type: Space,
      description: 'The space it proposes changes to',
      resolve: (changeRequest, _args, ctx) => spaceRecord(ctx, changeRequest.spaceId),
    }),
    revision: t.exposeString('revisionId', { description: 'Id of its current revision (a revision of the space itself until its first edit)' }),
    revisionInitial: t.exposeString('revisionInitialId', { description: 'Id of the space revision it was created from' }),
    revisionMergedAncestor: t.exposeString('revisionMergedAncestorId', {
      description: 'Id of the space revision it was created from or last updated from (updateChangeRequestFromSpace): the base of its next merge',
    }),
    revisionMerged: t.exposeString('revisionMergedId', { nullable: true, description: 'Id of the space revision its merge made; null until it is merged' }),
    content: t.field({
      type: Revision,
      description: 'Its current revision, with the page tree',
      resolve: (changeRequest) => ({ spaceId: changeRequest.spaceId, revisionId: changeRequest.revisionId }),
    }),
    comments: t.int({
      description: 'Number of open comments in it (REST `comments`; the list: commentsConnection)',
      resolve: (changeRequest, _args, ctx) => changeRequestOpenComments(ctx, changeRequest.id),
    }),
    outdated: t.boolean({
      description: 'Whether the space content has moved on since revisionMergedAncestor, so that merging will be three-way; always false once merged',
      resolve: async (changeRequest, _args, ctx) => isOutdated(changeRequest, (await spaceRecord(ctx, changeRequest.spaceId)).revisionId),
    }),
    urls: t.field({
      type: ChangeRequestUrls,
      description: 'Its addresses in this REST API and in the web application',
      resolve: (changeRequest, _args, ctx) => changeRequestUrls(changeRequest, ctx.urls),
    }),
  }),
});

builder.objectFields(Space, (t) => ({
  content: t.field({
    type: Revision,
    description: 'The space content: its active revision, with the page tree',
    resolve: (space) => readByVisitor({ spaceId: space.id, revisionId: space.revisionId }, pagesShownThrough(space)),
  }),
  changeRequestsConnection: t.connection({
    type: ChangeRequest,
    description: 'Change requests of the space, newest first (REST `/v1/spaces/{spaceId}/change-requests`; `changeRequests` counts the draft and open ones)',
    args: {
      status: t.arg({ type: ChangeRequestStatus, description: 'Only those with this status; open when absent' }),
      contributor: t.arg.id({ description: 'Only those whose content this user edited (user id)' }),
      creator: t.arg.id({ description: 'Only those this user opened (user id)' }),
    },
    resolve: async (space, args, ctx) => toConnection(await listChangeRequestRecords(ctx, space.id, connectionQuery(args))),
  }),
}));

/** A mutation's payload: the change request, read again as the viewer sees it now. */
const changeRequestPayload = {
  outputFields: (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, { id: string }>) => ({
    changeRequest: t.field({ type: ChangeRequest, resolve: async (payload, _args, ctx) => (await changeRequestById(ctx, payload.id)).changeRequest }),
  }),
};

builder.relayMutationField(
  'createChangeRequest',
  {
    inputFields: (t) => ({
      spaceId: t.id({ required: true, description: 'The space' }),
      subject: t.string({ description: 'Its title (up to 100 characters); empty when absent' }),
    }),
  },
  {
    description:
      'Opens a change request from the current space content, with the next number of the space and status open (edit level on the space, which must not be deleted)',
    resolve: async (_root, { input: { spaceId, ...body } }, ctx) => ({ id: (await createChangeRequest(ctx, spaceId, body)).id }),
  },
  changeRequestPayload,
);

builder.relayMutationField(
  'updateChangeRequest',
  {
    inputFields: (t) => ({
      changeRequestId: t.id({ required: true, description: 'The change request' }),
      subject: t.string({ description: 'New title (up to 100 characters); absent keeps it' }),
      status: t.field({
        type: ChangeRequestStatus,
        description: 'New status: draft, open or archived (merged is refused: merging sets it); refused once merged; absent keeps it',
      }),
    }),
  },
  {
    description: 'Changes the subject and/or status of a change request (edit level on the space, or its author); fields left out stay as they are',
    resolve: async (_root, { input: { changeRequestId, ...body } }, ctx) => {
      const { space } = await changeRequestById(ctx, changeRequestId);
      return { id: (await updateChangeRequest(ctx, space.id, changeRequestId, body)).id };
    },
  },
  changeRequestPayload,
);

for (const [name, action, description] of [
  [
    'mergeChangeRequest',
    mergeChangeRequest,
    'Merges a change request into the space content as a new space revision, three-way when the space has moved on, and sets it merged (REST `POST …/change-requests/{changeRequestId}/merge`; review level on the space, which must not be deleted; not once merged or archived); a conflict fails naming the pages and changes nothing',
  ],
  [
    'updateChangeRequestFromSpace',
    updateChangeRequestFromSpace,
    'Brings the current space content into a change request, three-way from their last common revision (REST `POST …/change-requests/{changeRequestId}/update`; edit level on the space, which must not be deleted; not once merged or archived); a conflict fails naming the pages and changes nothing',
  ],
] as const) {
  builder.relayMutationField(
    name,
    { inputFields: (t) => ({ changeRequestId: t.id({ required: true, description: 'The change request' }) }) },
    {
      description,
      resolve: async (_root, { input: { changeRequestId } }, ctx) => {
        const { space } = await changeRequestById(ctx, changeRequestId);
        const { revision } = await action(ctx, space.id, changeRequestId);
        return { id: changeRequestId, revision };
      },
    },
    {
      outputFields: (t) => ({
        changeRequest: t.field({ type: ChangeRequest, resolve: async (payload, _args, ctx) => (await changeRequestById(ctx, payload.id)).changeRequest }),
        revision: t.string({
          description: 'Id of the revision made (updateChangeRequestFromSpace: the current one when there was nothing to bring)',
          resolve: (payload) => payload.revision,
        }),
      }),
    },
  );
}

builder.relayMutationField(
  'updateChangeRequestContent',
  {
    inputFields: (t) => ({
      changeRequestId: t.id({ required: true, description: 'The change request' }),
      changes: t.field({
        type: ['JSON'],
        required: true,
        description: 'The changes (1 to 50), in order, as the REST body `changes` holds them: insert_page, update_page, delete_page, revert_page, insert_files',
      }),
    }),
  },
  {
    description:
      'Applies up to 50 content changes to a change request, all or none, as one new revision (REST `POST …/change-requests/{changeRequestId}/content` with compat=false; edit level on the space, which must not be deleted; not once merged or archived)',
    resolve: async (_root, { input: { changeRequestId, changes } }, ctx) => {
      const { space } = await changeRequestById(ctx, changeRequestId);
      const result = (await updateChangeRequestContent(ctx, space.id, changeRequestId, { changes }, { compat: 'false' })) as {
        changeRequest: { revision: string };
        changes: Array<{ object: ChangeOutcome['object']; page: string | { id: string }; ref?: string }>;
        insertedFiles: Array<{ id: string }>;
      };
      return {
        id: changeRequestId,
        revisionId: result.changeRequest.revision,
        insertedFileIds: result.insertedFiles.map((file) => file.id),
        changes: result.changes.map((change) => ({
          kind: change.object,
          pageId: typeof change.page === 'string' ? change.page : change.page.id,
          ref: change.ref ?? null,
        })),
      };
    },
  },
  {
    outputFields: (t) => ({
      changeRequest: t.field({ type: ChangeRequest, resolve: async (payload, _args, ctx) => (await changeRequestById(ctx, payload.id)).changeRequest }),
      changes: t.expose('changes', {
        type: [ContentChangeOutcome],
        description: 'The pages the batch created, updated or deleted, each once, in the order first touched',
      }),
      insertedFiles: t.field({
        type: [File],
        description: 'The files the batch uploaded (insert_files), with their new ids, in the order given',
        resolve: async (payload, _args, ctx) => {
          if (payload.insertedFileIds.length === 0) return [];
          const byId = new Map((await revisionFiles(ctx, payload.revisionId)).map((file) => [file.fileId, file]));
          return payload.insertedFileIds.map((id) => byId.get(id)!);
        },
      }),
    }),
  },
);

const ContentChangeKind = restEnum<ChangeOutcome['object']>(
  'ContentChangeKind',
  'What a content batch did to a page (the REST `object` of each `changes` item)',
  {
    created_page: 'The page was inserted',
    updated_page: 'The page was changed: content, title, slug, place or other properties',
    deleted_page: "The page was deleted (a deleted page's pages are each listed too)",
  },
);

const ContentChangeOutcome = builder.objectRef<{ kind: ChangeOutcome['object']; pageId: string; ref: string | null }>('ContentChangeOutcome').implement({
  description: 'A page a content batch created, updated or deleted',
  fields: (t) => ({
    kind: t.expose('kind', { type: ContentChangeKind, description: 'created_page, updated_page or deleted_page' }),
    pageId: t.exposeID('pageId', { description: 'Id of the page' }),
    ref: t.exposeString('ref', { nullable: true, description: 'The ref given to an inserted page; null for other pages, or when none was given' }),
  }),
});

const FailedResource = builder.objectRef<{ url: string; reason: string }>('FailedResource').implement({
  description: 'An image or file of an imported site that could not be brought',
  fields: (t) => ({
    url: t.exposeString('url', { description: 'Its address' }),
    reason: t.exposeString('reason', { description: 'Why: outside the site, an HTTP error, refused, too large…' }),
  }),
});

builder.relayMutationField(
  'importWebsite',
  {
    inputFields: (t) => ({
      spaceId: t.id({ required: true, description: 'The space' }),
      changeRequestId: t.id({ description: 'Import into this change request of the space; the space live content when absent' }),
      url: t.string({ required: true, description: 'Absolute http(s) address of the first page to import (up to 2048 characters)' }),
    }),
  },
  {
    description:
      'Imports a website (same origin, under the URL path, up to 50 pages) as one new revision of a change request (not once merged or archived), or of the space live content when no change request is given (not when the space is locked); REST `POST …/content/import` with source website; edit level on the space, which must not be deleted',
    resolve: (_root, { input: { spaceId, changeRequestId, url } }, ctx) =>
      importContent(ctx, { spaceId, ...(changeRequestId ? { changeRequest: changeRequestId } : {}) }, { url, source: 'website' }),
  },
  {
    outputFields: (t) => ({
      revision: t.exposeString('revision', { description: 'Id of the revision made' }),
      importedResources: t.exposeInt('importedResources', { description: 'Pages, images and files imported' }),
      totalResources: t.exposeInt('totalResources', { description: 'Pages, images and files found on the site, imported or not' }),
      failedResources: t.field({
        type: [FailedResource],
        description: 'Images and files that could not be brought, each with why; their links stay as they were',
        resolve: (result) => result.failedResources,
      }),
    }),
  },
);
