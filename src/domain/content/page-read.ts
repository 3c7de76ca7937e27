import { sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { RequestContext } from '../../context.ts';
import type { RevisionRecord } from '../../db/index.ts';
import { notFound } from '../../errors.ts';
import { effectiveLevel } from '../access.ts';
import { defineRecordLoader, loader } from '../loaders.ts';
import {
  grantedRoles,
  inheritedLevel,
  preparedRead,
  recordOf,
  reviveRecord,
  seesContent,
  shapeOf,
  slot,
  spaceColumnsOf,
  sqlOf,
  viewerSlots,
} from '../reads.ts';
import { MODEL_VERSION, bodyStructures } from './bodies.ts';
import { revisionFilesByName } from './links.ts';
import type { JSONDocument } from './model/nodes.ts';
import { type PageRow, type PageState, type PageTree, loadPageTree, pageStateOf, pageTrees, treeOf } from './tree.ts';

/**
 * A page of a revision with what reading its document needs, in one statement
 * (src/domain/reads.ts): whether the viewer sees the space (its organization's
 * content, the level it inherits), the revision (one of the space's, or its
 * current one), the page's entry, its body's kept structure (./bodies.ts), the
 * revision's files by name when that structure names pages or files by relative
 * path, and the revision's page tree unless this instance keeps it already
 * (./tree.ts). What it read is handed to the per-request loaders, so the one
 * place that makes a page's document (./page-document.ts pageDocument) and
 * GraphQL's Revision and Page read it without another statement.
 *
 * A body without a kept structure of this model (stored before it) is parsed
 * and kept by its first read, through the loaders: that read costs more.
 */

/** Rows of revisions by id. */
export const revisionRecords = defineRecordLoader((ctx, ids) => ctx.db.revision.findMany({ where: { id: { in: ids } } }));

interface Answer {
  organizationId: string;
  defaultLevel: string | null;
  inheritedLevel: string | null;
  granted: string[];
  revision: Record<string, unknown> | null;
  /** The page's body: its kept structure and whether it needs the files (null when the page is not in the revision). */
  page: { documentId: string | null; structure: JSONDocument | null; files: Array<{ name: string; fileId: string }> | null } | null;
  /** Every page of the revision, when this instance does not keep its tree. */
  pages: Array<
    Omit<PageRow, 'pageId' | 'parentId' | 'position' | 'versionId'> & { entry: Pick<PageRow, 'pageId' | 'parentId' | 'position' | 'versionId'> }
  > | null;
}

interface Values extends Record<string, unknown> {
  spaceId: string;
  /** A revision of the space; null for its current one. */
  revisionId: string | null;
  pageId: string | null;
  /** The revision whose tree this instance keeps: its rows are not read again. */
  keptRevision: string | null;
  contentOf: string[];
  memberOf: string[];
  userId: string;
}

const read = preparedRead<Answer, Values>((ctx) => {
  const { json } = sqlOf(ctx);
  const version = recordOf(ctx, 'page_versions', 'v');
  const versionColumns = version.shape.columns.filter((column) => column.name !== 'pageId');
  const versionObject = json.object([
    ['entry', json.object(['pageId', 'parentId', 'position', 'versionId'].map((name) => [name, sql.ref(`e.${name}`)] as const))],
    ...versionColumns.map(({ name, kind }) => {
      const column = sql.ref(`v.${name}`);
      const value = kind === 'date' ? json.isoDate(column) : kind === 'boolean' ? json.boolean(column) : kind === 'json' ? json.jsonColumn(column) : column;
      return [name, value] as const;
    }),
  ]);
  const files = sql`(SELECT ${json.arrayAgg(
    json.object([
      ['name', sql.ref('fv.name')],
      ['fileId', sql.ref('rf.fileId')],
    ]),
    sql.ref('rf.fileId'),
  )} FROM "revision_files" AS rf JOIN "file_versions" AS fv ON fv."id" = rf."versionId" WHERE rf."revisionId" = r."id")`;
  // A structure kept before "relativeRefs" was (null) may name files: they are read too.
  const page = sql`(SELECT ${json.object([
    ['documentId', sql.ref('v.documentId')],
    ['structure', sql`CASE WHEN ds."document" IS NULL THEN ${json.null} ELSE ${json.jsonColumn(sql.ref('ds.document'))} END`],
    ['files', sql`CASE WHEN ds."document" IS NOT NULL AND ds."relativeRefs" IS NOT FALSE THEN ${files} ELSE ${json.null} END`],
  ])}
    FROM "revision_pages" AS e JOIN "page_versions" AS v ON v."id" = e."versionId"
    LEFT JOIN "document_structures" AS ds ON ds."documentId" = v."documentId" AND ds."modelVersion" >= ${sql.lit(MODEL_VERSION)}
    WHERE e."revisionId" = r."id" AND e."pageId" = ${slot('pageId')})`;
  const pages = sql`CASE WHEN r."id" = ${slot('keptRevision')} THEN ${json.null} ELSE (SELECT ${json.arrayAgg(versionObject, sql.ref('e.pageId'))}
    FROM "revision_pages" AS e JOIN "page_versions" AS v ON v."id" = e."versionId" WHERE e."revisionId" = r."id") END`;
  return sql`SELECT ${json.text(
    json.object([
      ['organizationId', sql.ref('s.organizationId')],
      ['defaultLevel', sql.ref('s.defaultLevel')],
      ['inheritedLevel', inheritedLevel(sql.ref('s.parentId'))],
      ['granted', grantedRoles(ctx, spaceColumnsOf('s'))],
      ['revision', sql`CASE WHEN r."id" IS NULL THEN ${json.null} ELSE ${recordOf(ctx, 'revisions', 'r').object} END`],
      ['page', sql`CASE WHEN r."id" IS NULL THEN ${json.null} ELSE ${page} END`],
      ['pages', sql`CASE WHEN r."id" IS NULL THEN ${json.null} ELSE ${pages} END`],
    ]),
  )} FROM "spaces" AS s LEFT JOIN "revisions" AS r ON r."id" = COALESCE(${slot('revisionId')}, s."revisionId") AND r."spaceId" = s."id"
  WHERE s."id" = ${slot('spaceId')} AND ${seesContent(ctx, spaceColumnsOf('s'))}`;
});

/** The current revision last read of each space: its tree, when kept, is not read again with it. */
const currentRevisions = new LRUCache<string, string>({ max: 10_000 });

export interface RevisionPageRead {
  revision: RevisionRecord;
  tree: PageTree;
  /** The page, undefined when the revision has none with that id (or none was asked for). */
  page: PageState | undefined;
}

/**
 * A revision of a space (`revisionId`, or its current one when undefined) and a
 * page of it, read as described above: a 404 for a space the viewer does not see
 * or a revision that is not the space's. Null when the viewer's memberships are
 * not at hand (inside a transaction, a visitor): the caller reads through the
 * loaders instead.
 */
export async function readRevisionPage(
  ctx: RequestContext,
  spaceId: string,
  revisionId: string | undefined,
  pageId: string | null,
): Promise<RevisionPageRead | null> {
  const viewer = viewerSlots(ctx);
  if (!viewer) return null;
  const cache = ctx.pageTreeCache;
  const guess = revisionId ?? currentRevisions.get(spaceId) ?? null;
  const keptRevision = guess !== null && cache?.has(guess) ? guess : null;
  const answer = await read(ctx, { spaceId, revisionId: revisionId ?? null, pageId, keptRevision, ...viewer });
  const member = answer ? (ctx.viewer!.memberships!.get(answer.organizationId) ?? null) : null;
  if (!answer || !effectiveLevel(member, [answer.defaultLevel, answer.inheritedLevel], answer.granted)) throw notFound('Space', spaceId);
  if (!answer.revision) throw notFound('Revision', revisionId!);
  const revision = reviveRecord<RevisionRecord>(shapeOf(ctx, 'revisions'), answer.revision);
  if (revisionId === undefined) currentRevisions.set(spaceId, revision.id);
  loader(ctx, revisionRecords).prime(revision.id, revision);

  let tree: PageTree;
  if (answer.pages) {
    const shape = shapeOf(ctx, 'page_versions');
    tree = treeOf(
      revision.id,
      answer.pages.map(({ entry, ...version }) => pageStateOf({ ...reviveRecord<Omit<PageRow, keyof typeof entry>>(shape, version), ...entry })),
    );
    cache?.set(revision.id, tree);
    loader(ctx, pageTrees).prime(revision.id, tree);
  } else {
    // Kept by this instance (evicted since the statement was built: read again).
    tree = (cache?.get(revision.id) as PageTree | undefined) ?? (await loadPageTree(ctx, revision.id));
  }

  const page = pageId === null ? undefined : tree.pages.get(pageId);
  const body = answer.page;
  if (page?.documentId && body?.structure && body.documentId === page.documentId) {
    loader(ctx, bodyStructures).prime(page.documentId, body.structure);
    if (body.files) {
      const byName = new Map<string, string>();
      for (const file of body.files) if (!byName.has(file.name)) byName.set(file.name, file.fileId);
      loader(ctx, revisionFilesByName).prime(revision.id, byName);
    }
  }
  return { revision, tree, page };
}
