import type { ChangeRequestRecord } from '../../db/index.ts';
import { CHANGE_REQUEST_STATUSES } from '../../domain/change-requests/inputs.ts';
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
import { importContent, updateChangeRequestContent } from '../../domain/content/service.ts';
import { spaceRecord } from '../../domain/spaces/service.ts';
import { builder } from '../builder.ts';
import { connectionQuery, loadEach, toConnection } from '../connection.ts';
import { urlsObject } from './common.ts';
import { Revision } from './content.ts';
import { Space } from './space.ts';
import { User } from './user.ts';

export const ChangeRequestStatus = builder.enumType('ChangeRequestStatus', { values: CHANGE_REQUEST_STATUSES });
const ChangeRequestUrls = urlsObject('ChangeRequestUrls', ['app', 'location'], []);

/** Backed by the change request's row; its revisions and users are loaded when asked. */
export const ChangeRequest = builder.loadableNodeRef<ChangeRequestRecord, string>('ChangeRequest', {
  id: { resolve: (changeRequest) => changeRequest.id },
  load: (ids, ctx) => loadEach(ids, async (id) => (await changeRequestById(ctx, id)).changeRequest),
});

ChangeRequest.implement({
  description: 'Proposed changes to a space content, merged into it when ready',
  fields: (t) => ({
    object: t.string({ resolve: () => 'change-request' }),
    number: t.exposeInt('number', { description: 'Incremental within the space, from 1' }),
    status: t.field({ type: ChangeRequestStatus, resolve: (changeRequest) => changeRequest.status as never }),
    subject: t.exposeString('subject'),
    createdBy: t.field({ type: User, resolve: (changeRequest, _args, ctx) => changeRequestUser(ctx, changeRequest.createdById) }),
    createdAt: t.field({ type: 'DateTime', resolve: (changeRequest) => changeRequest.createdAt.toISOString() }),
    updatedAt: t.field({ type: 'DateTime', resolve: (changeRequest) => changeRequest.updatedAt.toISOString() }),
    mergedAt: t.field({ type: 'DateTime', nullable: true, resolve: (changeRequest) => changeRequest.mergedAt?.toISOString() ?? null }),
    mergedBy: t.field({
      type: User,
      nullable: true,
      resolve: (changeRequest, _args, ctx) => (changeRequest.mergedAt ? changeRequestUser(ctx, changeRequest.mergedById) : null),
    }),
    space: t.field({ type: Space, resolve: (changeRequest, _args, ctx) => spaceRecord(ctx, changeRequest.spaceId) }),
    revision: t.exposeString('revisionId', { description: 'Id of its current revision' }),
    revisionInitial: t.exposeString('revisionInitialId', { description: 'Id of the space revision it was created from' }),
    revisionMergedAncestor: t.exposeString('revisionMergedAncestorId', { description: 'Id of the space revision it was last merged with' }),
    revisionMerged: t.exposeString('revisionMergedId', { nullable: true, description: 'Id of the space revision its merge made' }),
    content: t.field({
      type: Revision,
      description: 'Its current revision, with the page tree',
      resolve: (changeRequest) => ({ spaceId: changeRequest.spaceId, revisionId: changeRequest.revisionId }),
    }),
    comments: t.int({
      description: 'Open comments (the list: commentsConnection)',
      resolve: (changeRequest, _args, ctx) => changeRequestOpenComments(ctx, changeRequest.id),
    }),
    outdated: t.boolean({
      description: 'True when the space has moved since it was last merged with it',
      resolve: async (changeRequest, _args, ctx) => isOutdated(changeRequest, (await spaceRecord(ctx, changeRequest.spaceId)).revisionId),
    }),
    urls: t.field({ type: ChangeRequestUrls, resolve: (changeRequest, _args, ctx) => changeRequestUrls(changeRequest, ctx.urls) }),
  }),
});

builder.objectFields(Space, (t) => ({
  content: t.field({
    type: Revision,
    description: 'The space content: its active revision, with the page tree',
    resolve: (space) => ({ spaceId: space.id, revisionId: space.revisionId }),
  }),
  changeRequestsConnection: t.connection({
    type: ChangeRequest,
    description: 'Change requests of the space, newest first (`changeRequests` is their count)',
    args: {
      status: t.arg({ type: ChangeRequestStatus, description: 'open when absent' }),
      contributor: t.arg.id({ description: 'Only those this user changed the content of' }),
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
  { inputFields: (t) => ({ spaceId: t.id({ required: true }), subject: t.string() }) },
  { resolve: async (_root, { input: { spaceId, ...body } }, ctx) => ({ id: (await createChangeRequest(ctx, spaceId, body)).id }) },
  changeRequestPayload,
);

builder.relayMutationField(
  'updateChangeRequest',
  {
    inputFields: (t) => ({
      changeRequestId: t.id({ required: true }),
      subject: t.string(),
      status: t.field({ type: ChangeRequestStatus, description: 'draft, open or archived (merging sets merged)' }),
    }),
  },
  {
    resolve: async (_root, { input: { changeRequestId, ...body } }, ctx) => {
      const { space } = await changeRequestById(ctx, changeRequestId);
      return { id: (await updateChangeRequest(ctx, space.id, changeRequestId, body)).id };
    },
  },
  changeRequestPayload,
);

for (const [name, action, description] of [
  ['mergeChangeRequest', mergeChangeRequest, 'Merges it into the space content (a conflict fails naming the pages, changing nothing)'],
  ['updateChangeRequestFromSpace', updateChangeRequestFromSpace, 'Brings the space content into it (a conflict fails naming the pages)'],
] as const) {
  builder.relayMutationField(
    name,
    { description, inputFields: (t) => ({ changeRequestId: t.id({ required: true }) }) },
    {
      resolve: async (_root, { input: { changeRequestId } }, ctx) => {
        const { space } = await changeRequestById(ctx, changeRequestId);
        const { revision } = await action(ctx, space.id, changeRequestId);
        return { id: changeRequestId, revision };
      },
    },
    {
      outputFields: (t) => ({
        changeRequest: t.field({ type: ChangeRequest, resolve: async (payload, _args, ctx) => (await changeRequestById(ctx, payload.id)).changeRequest }),
        revision: t.string({ description: 'Id of the revision made', resolve: (payload) => payload.revision }),
      }),
    },
  );
}

builder.relayMutationField(
  'updateChangeRequestContent',
  {
    description: 'Applies up to 50 content changes, all or none, as one new revision (the REST batch: insert_page, update_page, delete_page, revert_page)',
    inputFields: (t) => ({
      changeRequestId: t.id({ required: true }),
      changes: t.field({ type: ['JSON'], required: true, description: 'The changes, as the REST body `changes` holds them' }),
    }),
  },
  {
    resolve: async (_root, { input: { changeRequestId, changes } }, ctx) => {
      const { space } = await changeRequestById(ctx, changeRequestId);
      const result = (await updateChangeRequestContent(ctx, space.id, changeRequestId, { changes }, { compat: 'false' })) as {
        changes: Array<{ object: string; page: string | { id: string }; ref?: string }>;
      };
      return {
        id: changeRequestId,
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
      changes: t.field({ type: [ContentChangeOutcome], resolve: (payload) => payload.changes }),
    }),
  },
);

const ContentChangeOutcome = builder.objectRef<{ kind: string; pageId: string; ref: string | null }>('ContentChangeOutcome').implement({
  description: 'A page a content batch created, updated or deleted',
  fields: (t) => ({
    kind: t.exposeString('kind', { description: 'created_page, updated_page or deleted_page' }),
    pageId: t.exposeID('pageId'),
    ref: t.exposeString('ref', { nullable: true, description: 'The ref given to an inserted page' }),
  }),
});

builder.relayMutationField(
  'importWebsite',
  {
    description:
      'Imports a website (same origin, under the URL path, up to 50 pages) into a change request, or into the space content when no change request is given',
    inputFields: (t) => ({
      spaceId: t.id({ required: true }),
      changeRequestId: t.id({ description: 'Import into this change request; the space live content when absent' }),
      url: t.string({ required: true }),
    }),
  },
  {
    resolve: (_root, { input: { spaceId, changeRequestId, url } }, ctx) =>
      importContent(ctx, { spaceId, ...(changeRequestId ? { changeRequest: changeRequestId } : {}) }, { url, source: 'website' }),
  },
  {
    outputFields: (t) => ({
      revision: t.exposeString('revision', { description: 'Id of the revision made' }),
      importedResources: t.exposeInt('importedResources'),
      totalResources: t.exposeInt('totalResources', { description: 'Pages found on the site, imported or not' }),
    }),
  },
);
