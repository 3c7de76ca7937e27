import { isDeepStrictEqual } from 'node:util';
import type { RequestContext } from '../../context.ts';
import { Prisma } from '../../db/index.ts';
import { newId } from '../../lib/ids.ts';
import { documentIdOf, storeDocuments } from './documents.ts';
import { type PageState, type PageTree, VERSION_FIELDS, loadPageTree } from './tree.ts';

export const REVISION_TYPES = ['edits', 'merge', 'update', 'rollback'] as const;
export type RevisionType = (typeof REVISION_TYPES)[number];

/**
 * A page as a write wants it. With a `versionId` it is that version (a merge
 * taking a page from another revision); without, a new version is written
 * unless its fields are the base's.
 */
export type PageDraft = Omit<PageState, 'versionId'> & { versionId?: string };

export interface NewRevision {
  spaceId: string;
  changeRequestId: string | null;
  type: RevisionType;
  /** The revision it continues first, then any other it merges. */
  parents: string[];
  /** The tree it is written against: its unchanged entries are copied by one statement. */
  base: PageTree;
  /** Every page of the new revision. */
  pages: Iterable<PageDraft>;
  /** Files added by this revision (file id → version id), on top of the base's files. */
  addedFiles?: Map<string, string>;
}

/**
 * Writes an immutable revision inside the caller's transaction. Pages whose
 * fields are unchanged keep their version (shared, not copied); entries the
 * revision does not change are copied from the base in one statement.
 */
export async function writeRevision(tx: RequestContext, revision: NewRevision): Promise<string> {
  const id = newId('revision');
  const now = tx.clock.now();
  await tx.db.revision.create({
    data: {
      id,
      spaceId: revision.spaceId,
      changeRequestId: revision.changeRequestId,
      type: revision.type,
      parents: revision.parents,
      createdById: tx.viewer?.user.id ?? null,
      createdAt: now,
    },
  });

  const changed: Array<{ pageId: string; versionId: string; parentId: string | null; position: string }> = [];
  const newVersions: Prisma.PageVersionCreateManyInput[] = [];
  const kept = new Set<string>();
  for (const page of revision.pages) {
    kept.add(page.pageId);
    const before = revision.base.pages.get(page.pageId);
    let versionId = page.versionId;
    if (!versionId) {
      if (before && VERSION_FIELDS.every((field) => isDeepStrictEqual(page[field], before[field]))) {
        versionId = before.versionId;
      } else {
        versionId = newId('pageVersion');
        newVersions.push(versionRow(revision.spaceId, versionId, page, now));
      }
    }
    if (!before || before.versionId !== versionId || before.parentId !== page.parentId || before.position !== page.position) {
      changed.push({ pageId: page.pageId, versionId, parentId: page.parentId, position: page.position });
    }
  }
  const removed = [...revision.base.pages.keys()].filter((pageId) => !kept.has(pageId));

  // In slices: one statement's payload stays small whatever the revision's size (a large import writes thousands).
  for (const part of slices(newVersions)) await tx.db.pageVersion.createMany({ data: part });
  await tx.db.$executeRaw(Prisma.sql`
    INSERT INTO "revision_pages" ("revisionId", "pageId", "versionId", "parentId", "position")
    SELECT ${id}, "pageId", "versionId", "parentId", "position" FROM "revision_pages" WHERE "revisionId" = ${revision.base.revisionId}`);
  const replaced = [...changed.map((entry) => entry.pageId), ...removed];
  for (const part of slices(replaced)) await tx.db.revisionPage.deleteMany({ where: { revisionId: id, pageId: { in: part } } });
  for (const part of slices(changed)) await tx.db.revisionPage.createMany({ data: part.map((entry) => ({ revisionId: id, ...entry })) });

  await tx.db.$executeRaw(Prisma.sql`
    INSERT INTO "revision_files" ("revisionId", "fileId", "versionId")
    SELECT ${id}, "fileId", "versionId" FROM "revision_files" WHERE "revisionId" = ${revision.base.revisionId}`);
  const added = [...(revision.addedFiles ?? new Map<string, string>())];
  if (added.length) {
    await tx.db.revisionFile.deleteMany({ where: { revisionId: id, fileId: { in: added.map(([fileId]) => fileId) } } });
    await tx.db.revisionFile.createMany({ data: added.map(([fileId, versionId]) => ({ revisionId: id, fileId, versionId })) });
  }
  return id;
}

/** Rows per write statement. */
const WRITE_SLICE = 500;

function* slices<T>(rows: T[]): Generator<T[]> {
  for (let start = 0; start < rows.length; start += WRITE_SLICE) yield rows.slice(start, start + WRITE_SLICE);
}

function versionRow(spaceId: string, id: string, page: PageDraft, now: Date): Prisma.PageVersionCreateManyInput {
  const json = (value: Record<string, unknown> | null) => (value === null ? Prisma.DbNull : (value as Prisma.InputJsonValue));
  return {
    id,
    spaceId,
    pageId: page.pageId,
    type: page.type,
    title: page.title,
    slug: page.slug,
    emoji: page.emoji,
    icon: page.icon,
    description: page.description,
    documentId: page.documentId,
    hidden: page.hidden,
    noIndex: page.noIndex,
    noRobotsIndex: page.noRobotsIndex,
    condition: page.condition,
    layout: json(page.layout),
    cover: json(page.cover),
    variables: json(page.variables),
    target: json(page.target),
    createdAt: page.createdAt,
    updatedAt: now,
  };
}

/** The first revision of a new space: no pages, no files. */
export async function writeEmptyRevision(tx: RequestContext, spaceId: string, revisionId: string): Promise<void> {
  await tx.db.revision.create({
    data: { id: revisionId, spaceId, changeRequestId: null, type: 'edits', parents: [], createdById: tx.viewer?.user.id ?? null, createdAt: tx.clock.now() },
  });
}

/**
 * The content of a revision as the first revision of another space (a
 * duplicate): its own page versions and documents, so that each space's
 * content lives and is purged with it.
 */
export async function copyRevisionToSpace(tx: RequestContext, fromRevisionId: string, spaceId: string, revisionId: string): Promise<void> {
  const tree = await loadPageTree(tx, fromRevisionId);
  const documentIds = [...new Set([...tree.pages.values()].flatMap((page) => (page.documentId ? [page.documentId] : [])))];
  const documents = documentIds.length ? await tx.db.document.findMany({ where: { id: { in: documentIds } } }) : [];
  const copiedDocument = new Map(documents.map((document) => [document.id, documentIdOf(spaceId, document.markdown)]));
  await storeDocuments(
    tx,
    spaceId,
    documents.map((document) => document.markdown),
  );
  await writeEmptyRevision(tx, spaceId, revisionId);
  // Files keep their ids; their versions are the copy's own (the bytes are shared by their digest).
  const files = await tx.db.revisionFile.findMany({ where: { revisionId: fromRevisionId }, include: { version: true } });
  if (files.length) {
    const copies = files.map((file) => ({ ...file.version, id: newId('fileVersion'), spaceId }));
    await tx.db.fileVersion.createMany({ data: copies });
    await tx.db.revisionFile.createMany({ data: copies.map((copy) => ({ revisionId, fileId: copy.fileId, versionId: copy.id })) });
  }
  const pages = [...tree.pages.values()].map((page) => ({ page, versionId: newId('pageVersion') }));
  if (!pages.length) return;
  await tx.db.pageVersion.createMany({
    data: pages.map(({ page, versionId }) =>
      versionRow(spaceId, versionId, { ...page, documentId: page.documentId ? (copiedDocument.get(page.documentId) ?? null) : null }, page.updatedAt),
    ),
  });
  await tx.db.revisionPage.createMany({
    data: pages.map(({ page, versionId }) => ({ revisionId, pageId: page.pageId, versionId, parentId: page.parentId, position: page.position })),
  });
}

/** The file entries of `revisionId` that `intoRevisionId` lacks or has in another version: what a merge carries over. */
export async function filesMissingFrom(tx: RequestContext, revisionId: string, intoRevisionId: string): Promise<Map<string, string>> {
  const [from, into] = await Promise.all(
    [revisionId, intoRevisionId].map((id) => tx.db.revisionFile.findMany({ where: { revisionId: id }, select: { fileId: true, versionId: true } })),
  );
  const present = new Map(into!.map((entry) => [entry.fileId, entry.versionId]));
  return new Map(from!.filter((entry) => present.get(entry.fileId) !== entry.versionId).map((entry) => [entry.fileId, entry.versionId]));
}
