import { type Token, lexer } from 'marked';
import slugify from 'slugify';
import type { RequestContext } from '../../context.ts';
import { Prisma } from '../../db/index.ts';
import { markdownOf } from '../content/documents.ts';
import { loadPageTree } from '../content/tree.ts';

/** What the search index holds (src/domain/search/service.ts queries it): the sections of each space's live pages. */

interface Section {
  sectionId: string;
  title: string;
  body: string;
  position: number;
}

/** The sections of a page body: plain text, split at headings. */
export function sectionsOf(pageTitle: string, markdown: string): Section[] {
  const sections: Section[] = [{ sectionId: '', title: pageTitle, body: '', position: 0 }];
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'heading') {
        const title = (token as { text: string }).text;
        sections.push({ sectionId: slugify(title, { lower: true, strict: true }) || `section-${sections.length}`, title, body: '', position: sections.length });
      } else if ('tokens' in token && token.tokens && token.type !== 'code') {
        walk(token.tokens);
        if (token.type === 'paragraph' || token.type === 'list_item') sections.at(-1)!.body += '\n';
      } else if (token.type === 'list') {
        for (const item of (token as { items: Array<{ tokens: Token[] }> }).items) walk(item.tokens);
      } else if ('text' in token && typeof token.text === 'string') {
        sections.at(-1)!.body += token.type === 'code' ? `${token.text}\n` : token.text;
      }
    }
  };
  walk(lexer(markdown));
  return sections.map((section) => ({ ...section, body: section.body.replace(/\n{2,}/g, '\n').trim() })).filter((s, i) => i === 0 || s.body || s.title);
}

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
  const bodies = await Promise.all(pages.map((page) => markdownOf(tx, page.documentId)));
  for (const [index, page] of pages.entries()) {
    const path = tree.paths.get(page.pageId) ?? page.slug;
    for (const section of sectionsOf(page.title, bodies[index]!)) {
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
