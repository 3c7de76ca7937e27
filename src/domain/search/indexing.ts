import type { RequestContext } from '../../context.ts';
import { Prisma } from '../../db/index.ts';
import { structureOf } from '../content/bodies.ts';
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
  const rows: Prisma.Sql[] = [];
  const pages = [...tree.pages.values()].filter((page) => page.type === 'document' && !page.noIndex);
  // Asked together, the bodies load in one statement.
  const bodies = await Promise.all(pages.map((page) => structureOf(tx, page.documentId)));
  for (const [index, page] of pages.entries()) {
    const path = tree.paths.get(page.pageId) ?? page.slug;
    for (const section of textSections(page.title, bodies[index]!)) {
      rows.push(Prisma.sql`(${page.title}, ${section.title}, ${section.body}, ${spaceId}, ${page.pageId}, ${section.sectionId}, ${path}, ${section.position})`);
    }
  }
  // A few hundred rows per statement keeps far below every parameter limit.
  for (let start = 0; start < rows.length; start += 500) {
    await tx.db.$executeRaw(Prisma.sql`
      INSERT INTO "search_sections" ("pageTitle", "title", "body", "spaceId", "pageId", "sectionId", "path", "position")
      VALUES ${Prisma.join(rows.slice(start, start + 500))}`);
  }
}
