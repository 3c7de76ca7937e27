import type { RequestContext } from '../../context.ts';
import { Prisma } from '../../db/index.ts';
import { bodyStructures } from '../content/bodies.ts';
import type { JSONDocument } from '../content/model/nodes.ts';
import { textSections } from '../content/model/text.ts';
import { loadPageTree } from '../content/tree.ts';

/**
 * What the search index holds (src/domain/search/service.ts queries it): the sections of each
 * space's live pages, as the content model reads their text (src/domain/content/model/text.ts):
 * split at headings, a line per block, list item and table cell, so no two words run together.
 */

/**
 * Makes a space's index its live revision's pages, in the transaction that
 * changed the revision. Every document page is indexed (hidden pages too: they
 * are reachable; `noIndex` pages are not).
 */
export async function reindexSpace(tx: RequestContext, spaceId: string, revisionId: string): Promise<void> {
  await tx.db.$executeRaw(Prisma.sql`DELETE FROM "search_sections" WHERE "spaceId" = ${spaceId}`);
  const tree = await loadPageTree(tx, revisionId);
  const pages = [...tree.pages.values()].filter((page) => page.type === 'document' && !page.noIndex);
  // A slice of pages at a time: their bodies read in one statement, their rows written, then dropped (a space's
  // worth of bodies is never held at once).
  for (let start = 0; start < pages.length; start += INDEX_SLICE) {
    const slice = pages.slice(start, start + INDEX_SLICE);
    const ids = [...new Set(slice.flatMap((page) => (page.documentId ? [page.documentId] : [])))];
    // Not through the request's loader, which would keep every body it read.
    const structures = ids.length ? await bodyStructures.batch(tx, ids) : [];
    const bodies = new Map(ids.map((id, index) => [id, structures[index]!]));
    const rows: Prisma.Sql[] = [];
    for (const page of slice) {
      const path = tree.paths.get(page.pageId) ?? page.slug;
      const body = (page.documentId && bodies.get(page.documentId)) || EMPTY;
      for (const section of textSections(page.title, body)) {
        rows.push(
          Prisma.sql`(${page.title}, ${section.title}, ${section.body}, ${spaceId}, ${page.pageId}, ${section.sectionId}, ${path}, ${section.position})`,
        );
      }
    }
    // A few hundred rows per statement keeps far below every parameter limit.
    for (let from = 0; from < rows.length; from += 500) {
      await tx.db.$executeRaw(Prisma.sql`
        INSERT INTO "search_sections" ("pageTitle", "title", "body", "spaceId", "pageId", "sectionId", "path", "position")
        VALUES ${Prisma.join(rows.slice(from, from + 500))}`);
    }
  }
}

/** Pages indexed per slice. */
const INDEX_SLICE = 100;
const EMPTY: JSONDocument = { object: 'document', data: {}, nodes: [] };
