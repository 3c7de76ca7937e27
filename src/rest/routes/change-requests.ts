import {
  createChangeRequest,
  getChangeRequest,
  listChangeRequests,
  mergeChangeRequest,
  updateChangeRequest,
  updateChangeRequestFromSpace,
} from '../../domain/change-requests/service.ts';
import { CreateChangeRequestInput, ListChangeRequestsQuery, UpdateChangeRequestInput } from '../../domain/change-requests/inputs.ts';
import { ChangesQuery, changeRequestChanges, presentChanges } from '../../domain/change-requests/diff.ts';
import { UpdateContentInput, UpdateContentQuery } from '../../domain/content/inputs.ts';
import { PdfQuery, exportChangeRequestPdf, updateChangeRequestContent } from '../../domain/content/service.ts';
import { restList } from '../../lib/pagination.ts';
import { route } from '../route.ts';

const tag = 'Change requests';
const base = '/v1/spaces/{spaceId}/change-requests';

export const changeRequestRoutes = [
  route({
    method: 'GET',
    path: base,
    operationId: 'listChangeRequestsForSpace',
    summary: 'Change requests of a space, newest first (open ones unless `status` says otherwise)',
    tag,
    query: ListChangeRequestsQuery,
    status: 200,
    response: 'ChangeRequest',
    list: true,
    handler: async (ctx, { params, query }) => restList(await listChangeRequests(ctx, params.spaceId!, query)),
  }),
  route({
    method: 'POST',
    path: base,
    operationId: 'createChangeRequest',
    summary: 'Open a change request from the space content',
    tag,
    body: CreateChangeRequestInput,
    status: 201,
    response: 'ChangeRequest',
    handler: (ctx, { params, body }) => createChangeRequest(ctx, params.spaceId!, body),
  }),
  route({
    method: 'GET',
    path: `${base}/{changeRequestId}`,
    operationId: 'getChangeRequestById',
    summary: 'A change request, by id or by its number in the space',
    tag,
    status: 200,
    response: 'ChangeRequest',
    handler: (ctx, { params }) => getChangeRequest(ctx, params.spaceId!, params.changeRequestId!),
  }),
  route({
    method: 'PATCH',
    path: `${base}/{changeRequestId}`,
    operationId: 'updateChangeRequestById',
    summary: 'Change the subject or status of a change request',
    tag,
    body: UpdateChangeRequestInput,
    status: 200,
    response: 'ChangeRequest',
    handler: (ctx, { params, body }) => updateChangeRequest(ctx, params.spaceId!, params.changeRequestId!, body),
  }),
  route({
    method: 'GET',
    path: `${base}/{changeRequestId}/changes`,
    operationId: 'getChangeRequestChanges',
    summary:
      'What a change request changes since its base (once merged: what its merge changed): pages created, edited, moved or deleted, with a unified diff of their markdown, then files; `limit` (10 by default) and `page` page through them',
    tag,
    query: ChangesQuery,
    status: 200,
    response: 'RevisionSemanticChanges',
    handler: async (ctx, { params, query }) => presentChanges(await changeRequestChanges(ctx, params.spaceId!, params.changeRequestId!, query)),
  }),
  route({
    method: 'POST',
    path: `${base}/{changeRequestId}/merge`,
    operationId: 'mergeChangeRequest',
    summary: 'Merge a change request into the space content (409 naming the pages on a conflict)',
    tag,
    status: 200,
    response: 'ChangeRequestMergeResult',
    handler: (ctx, { params }) => mergeChangeRequest(ctx, params.spaceId!, params.changeRequestId!),
  }),
  route({
    method: 'POST',
    path: `${base}/{changeRequestId}/update`,
    operationId: 'updateChangeRequest',
    summary: 'Bring the space content into a change request (409 naming the pages on a conflict)',
    tag,
    status: 200,
    response: 'ChangeRequestMergeResult',
    handler: (ctx, { params }) => updateChangeRequestFromSpace(ctx, params.spaceId!, params.changeRequestId!),
  }),
  route({
    method: 'POST',
    path: `${base}/{changeRequestId}/content`,
    operationId: 'updateChangeRequestContent',
    summary: 'Apply a batch of up to 50 content changes to a change request, all or none, as one revision',
    tag,
    query: UpdateContentQuery,
    body: UpdateContentInput,
    // 20 files of 1 MB each, base64, and the pages around them.
    bodyLimit: 32 * 1024 * 1024,
    status: 200,
    response: 'ChangeRequestContentResult',
    handler: (ctx, { params, body, query }) => updateChangeRequestContent(ctx, params.spaceId!, params.changeRequestId!, body, query),
  }),
  route({
    method: 'GET',
    path: `${base}/{changeRequestId}/pdf`,
    operationId: 'getChangeRequestPDF',
    summary: 'The content as a PDF (all pages, one page with `only`, or a page with its pages): its URL',
    tag,
    query: PdfQuery,
    status: 200,
    response: 'ExportUrl',
    handler: (ctx, { params, query }) => exportChangeRequestPdf(ctx, params.spaceId!, params.changeRequestId!, query),
  }),
];
