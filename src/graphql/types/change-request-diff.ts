import { type ChangeType, type ChangedPage, type ContentChange, type PageSide, changeRequestChanges } from '../../domain/change-requests/diff.ts';
import { revisionChanges } from '../../domain/content/revision-changes.ts';
import { builder } from '../builder.ts';
import { connectionQuery, toConnection } from '../connection.ts';
import { ChangeRequest } from './change-request.ts';
import { restEnum } from './common.ts';
import { Revision } from './content.ts';

/**
 * What a change request changes (REST `…/change-requests/{changeRequestId}/changes`, src/domain/change-requests/diff.ts),
 * and what a revision changed (REST `…/revisions/{revisionId}/changes`).
 */

const ContentChangeType = restEnum<ChangeType>('ContentChangeType', 'What a change is (REST `type`)', {
  page_created: 'A page added',
  page_edited: 'A page whose fields or body changed (`attributes`, `diff`)',
  page_moved: 'A page under another parent or at another place among its siblings (`parent`)',
  page_deleted: 'A page removed',
  file_created: 'A file added',
  file_deleted: 'A file removed',
});

const ChangedPageRef = builder.objectRef<ChangedPage>('ChangedPage').implement({
  description: 'A page as a change names it (REST `ChangedRevisionPage`)',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Id of the page' }),
    type: t.exposeString('type', { description: 'What it is: document, group or link' }),
    title: t.exposeString('title', { description: 'Its title' }),
    path: t.exposeString('path', { description: 'Its path' }),
  }),
});

const PageChangeSide = builder.objectRef<PageSide>('PageChangeSide').implement({
  description: 'A page on one side of a change',
  fields: (t) => ({
    title: t.exposeString('title', { description: 'Its title on this side' }),
    path: t.exposeString('path', { description: 'Its path on this side' }),
  }),
});

const ParentChange = builder.objectRef<NonNullable<ContentChange['parent']>>('ParentChange').implement({
  description: 'The parent of a moved page on each side; null on a side where it is at the top level',
  fields: (t) => ({
    before: t.expose('before', { type: ChangedPageRef, nullable: true, description: 'Its parent before' }),
    after: t.expose('after', { type: ChangedPageRef, nullable: true, description: 'Its parent after' }),
  }),
});

const ChangedFile = builder.objectRef<NonNullable<ContentChange['file']>>('ChangedFile').implement({
  description: 'A file added or removed (REST `ChangedRevisionFile`)',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Id of the file' }),
    name: t.exposeString('name', { description: 'Its name' }),
    contentType: t.exposeString('contentType', { description: 'Its MIME type' }),
    downloadURL: t.exposeString('downloadURL', { description: 'Where to download it' }),
  }),
});

const ContentChangeRef = builder.objectRef<ContentChange>('ContentChange').implement({
  description:
    'One change of a change request or a revision: a page created, edited, moved or deleted, or a file created or deleted (an item of REST `…/changes`)',
  fields: (t) => ({
    type: t.expose('type', { type: ContentChangeType, description: 'What it is' }),
    page: t.expose('page', { type: ChangedPageRef, nullable: true, description: 'The page (as it is now; a deleted one as it was); null for a file' }),
    before: t.expose('before', { type: PageChangeSide, nullable: true, description: 'The page before; null when created, or for a file' }),
    after: t.expose('after', { type: PageChangeSide, nullable: true, description: 'The page after; null when deleted, or for a file' }),
    attributes: t.expose('attributes', {
      type: 'JSON',
      nullable: true,
      description: 'page_edited: each field that changed as `{before, after}` (`document` is the body’s document id); null otherwise',
    }),
    parent: t.expose('parent', { type: ParentChange, nullable: true, description: 'page_moved: its parent on each side; null otherwise' }),
    diff: t.exposeString('diff', {
      nullable: true,
      description:
        'A unified diff of its markdown (`a/<path>.md` → `b/<path>.md`); null when its body did not change, for a file, or when an edited body changed too many lines to diff (over 5,000, fewer for very long bodies)',
    }),
    file: t.expose('file', { type: ChangedFile, nullable: true, description: 'The file of a file change; null for a page' }),
  }),
});

builder.objectField(ChangeRequest, 'changes', (t) =>
  t.connection({
    type: ContentChangeRef,
    description:
      'What it changes since its base (the space revision it was created or last updated from; once merged, what its merge changed): pages in the table-of-contents order of the new side, then deleted pages, then files (REST `…/change-requests/{changeRequestId}/changes`, whose `next.page` tokens are the cursors)',
    resolve: async (changeRequest, args, ctx) =>
      toConnection((await changeRequestChanges(ctx, changeRequest.spaceId, changeRequest.id, connectionQuery(args))).changes),
  }),
);

builder.objectField(Revision, 'changes', (t) =>
  t.connection({
    type: ContentChangeRef,
    description:
      'What it changed against its parent (the revision it was written on; a first revision: against no content), as a change request’s changes are listed (REST `…/revisions/{revisionId}/changes`, whose `next.page` tokens are the cursors); for whoever sees its space, not visitors of a published site',
    resolve: async (revision, args, ctx) => toConnection((await revisionChanges(ctx, revision.spaceId, revision.revisionId, connectionQuery(args))).changes),
  }),
);
