import { createHash } from 'node:crypto';
import type { RequestContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { type Ordering, type Page, pageRequestOf } from '../../lib/pagination.ts';
import type { UploadedFile } from './changes.ts';
import type { ContentPresentation } from './presenter.ts';
import { type ChildListing, listChildren } from '../shared/pages.ts';

/** A file of a revision: its entry and the version it points at. */
export interface FileRow {
  revisionId: string;
  fileId: string;
  version: { id: string; name: string; contentType: string; size: number; width: number | null; height: number | null; sha256: string };
}

/** Where a file version's bytes are served: an unguessable address (the version id is random), as `<img src>` needs. */
export function downloadUrl(urls: { api: string }, versionId: string, name: string): string {
  return `${urls.api}/files/${versionId}/${encodeURIComponent(name)}`;
}

/** A file as the official RevisionFile. */
export function presentFile(file: FileRow, options: Pick<ContentPresentation, 'urls' | 'metadata'>) {
  const { version } = file;
  return {
    id: file.fileId,
    name: version.name,
    contentType: version.contentType,
    downloadURL: downloadUrl(options.urls, version.id, version.name),
    size: version.size,
    ...(version.width && version.height ? { dimensions: { width: version.width, height: version.height } } : {}),
    ...(options.metadata
      ? { git: { oid: createHash('sha1').update(`blob ${version.size}\0`).update(version.sha256).digest('hex'), path: `.gitbook/assets/${version.name}` } }
      : {}),
  };
}

const byFileId: Ordering<FileRow> = {
  name: 'revision-files',
  keys: [{ field: 'fileId', direction: 'asc', type: 'string', value: (row) => row.fileId }],
};

const VERSION_SELECT = { id: true, name: true, contentType: true, size: true, width: true, height: true, sha256: true } as const;

const filesOfRevision: ChildListing<FileRow, null> = {
  name: 'revision-files',
  ordering: () => byFileId,
  parentOf: (row) => row.revisionId,
  findMany: (ctx, revisionIds, _filter, args) =>
    ctx.db.revisionFile.findMany({
      ...args,
      where: { AND: [{ revisionId: { in: revisionIds } }, args.where] },
      select: { revisionId: true, fileId: true, version: { select: VERSION_SELECT } },
    }),
  count: async (ctx, revisionIds) => {
    const rows = await ctx.db.revisionFile.groupBy({ by: ['revisionId'], where: { revisionId: { in: revisionIds } }, _count: { _all: true } });
    return new Map(rows.map((row) => [row.revisionId, row._count._all]));
  },
};

export function listRevisionFiles(ctx: RequestContext, revisionId: string, paging: Parameters<typeof pageRequestOf>[0]): Promise<Page<FileRow>> {
  return listChildren(ctx, filesOfRevision, revisionId, null, pageRequestOf(paging));
}

/** Every file of a revision, by id (a revision's `files`). */
export function revisionFiles(ctx: RequestContext, revisionId: string): Promise<FileRow[]> {
  return ctx.db.revisionFile.findMany({
    where: { revisionId },
    orderBy: { fileId: 'asc' },
    select: { revisionId: true, fileId: true, version: { select: VERSION_SELECT } },
  });
}

export async function revisionFile(ctx: RequestContext, revisionId: string, fileId: string): Promise<FileRow> {
  const row = await ctx.db.revisionFile.findUnique({
    where: { revisionId_fileId: { revisionId, fileId } },
    select: { revisionId: true, fileId: true, version: { select: VERSION_SELECT } },
  });
  if (!row) throw notFound('File', fileId);
  return row;
}

/**
 * Stores uploaded bytes and writes their versions, inside the batch's
 * transaction: the bytes go first (content-addressed, so a batch that fails
 * later leaves only unreferenced bytes, never a row without its bytes).
 */
export async function storeUploadedFiles(tx: RequestContext, spaceId: string, files: UploadedFile[]): Promise<Map<string, string>> {
  if (!files.length) return new Map();
  if (!tx.storage) throw new Error('this server has no file storage configured');
  for (const file of files) await tx.storage.put(file.sha256, file.bytes);
  await tx.db.fileVersion.createMany({
    data: files.map((file) => ({
      id: file.versionId,
      spaceId,
      fileId: file.fileId,
      name: file.name,
      contentType: file.contentType,
      size: file.bytes.length,
      width: file.width,
      height: file.height,
      sha256: file.sha256,
      createdAt: tx.clock.now(),
    })),
  });
  return new Map(files.map((file) => [file.fileId, file.versionId]));
}

/** The uploaded files as the batch's `insertedFiles`. */
export function presentUploadedFiles(files: UploadedFile[], options: Pick<ContentPresentation, 'urls' | 'metadata'>) {
  return files.map((file) =>
    presentFile(
      {
        revisionId: '',
        fileId: file.fileId,
        version: {
          id: file.versionId,
          name: file.name,
          contentType: file.contentType,
          size: file.bytes.length,
          width: file.width,
          height: file.height,
          sha256: file.sha256,
        },
      },
      options,
    ),
  );
}
