import { createHash } from 'node:crypto';
import type { RequestContext } from '../../context.ts';
import { Prisma } from '../../db/index.ts';
import { defineLoader, loader } from '../loaders.ts';
import { keepStructureTexts, storeStructures, structureText } from './bodies.ts';
import { type ExtractedLink, extractLinks, storeDocumentLinks, storeExtractedLinks } from './links.ts';

/**
 * Page bodies are stored once per space and content: the id is a digest of both,
 * so a revision that keeps a page's body refers to the same row, and two pages
 * with the same body share it.
 */
export function documentIdOf(spaceId: string, markdown: string): string {
  return `doc_${createHash('sha256').update(spaceId).update('\0').update(markdown).digest('base64url')}`;
}

/** Stores the bodies that are not stored yet (another transaction may store the same one: no conflict), with their structure and links. */
export async function storeDocuments(tx: RequestContext, spaceId: string, markdowns: Iterable<string>): Promise<void> {
  const rows = new Map<string, string>();
  for (const markdown of markdowns) rows.set(documentIdOf(spaceId, markdown), markdown);
  const values = [...rows].map(([id, markdown]) => Prisma.sql`(${id}, ${spaceId}, ${markdown})`);
  // Many rows per statement, far below every parameter limit.
  for (let start = 0; start < values.length; start += 300) {
    await tx.db.$executeRaw(Prisma.sql`
      INSERT INTO "documents" ("id", "spaceId", "markdown") VALUES ${Prisma.join(values.slice(start, start + 300))}
      ON CONFLICT ("id") DO NOTHING`);
  }
  await storeDocumentLinks(tx, await storeStructures(tx, rows));
}

/** A body made ready to store ahead of its transaction: its text, its structure's text and its links (nothing left to parse). */
export interface PreparedDocument {
  id: string;
  markdown: string;
  structure: string;
  relativeRefs: boolean;
  /** Its parse went past its budget: the structure is a stand-in (./bodies.ts StructureText). */
  provisional: boolean;
  links: ExtractedLink[];
}

export async function prepareDocument(spaceId: string, markdown: string): Promise<PreparedDocument> {
  const id = documentIdOf(spaceId, markdown);
  const { text, relativeRefs, provisional, document } = await structureText(id, markdown);
  return { id, markdown, structure: text, relativeRefs, provisional, links: extractLinks(document) };
}

/** Stores prepared bodies (as storeDocuments stores bodies): one statement per few hundred rows, no parsing in the transaction. */
export async function storePreparedDocuments(tx: RequestContext, spaceId: string, prepared: PreparedDocument[]): Promise<void> {
  const unique = [...new Map(prepared.map((document) => [document.id, document])).values()];
  const values = unique.map((document) => Prisma.sql`(${document.id}, ${spaceId}, ${document.markdown})`);
  for (let start = 0; start < values.length; start += 300) {
    await tx.db.$executeRaw(Prisma.sql`
      INSERT INTO "documents" ("id", "spaceId", "markdown") VALUES ${Prisma.join(values.slice(start, start + 300))}
      ON CONFLICT ("id") DO NOTHING`);
  }
  await keepStructureTexts(
    tx,
    unique.map((document) => ({ id: document.id, text: document.structure, relativeRefs: document.relativeRefs, provisional: document.provisional })),
  );
  await storeExtractedLinks(tx, new Map(unique.map((document) => [document.id, document.links])));
}

const documents = defineLoader<string, string | null>(async (ctx, ids) => {
  const rows = await ctx.db.document.findMany({ where: { id: { in: [...ids] } }, select: { id: true, markdown: true } });
  const byId = new Map(rows.map((row) => [row.id, row.markdown]));
  return ids.map((id) => byId.get(id) ?? null);
});

/** The markdown of a page body; an empty page (no document) is "". */
export async function markdownOf(ctx: RequestContext, documentId: string | null): Promise<string> {
  if (!documentId) return '';
  return (await loader(ctx, documents).load(documentId)) ?? '';
}

/** How many bytes (UTF-8) the bodies hold in all, as the database knows without reading them: what a PDF would lay out. */
export async function markdownBytes(ctx: RequestContext, documentIds: Iterable<string>): Promise<number> {
  const ids = [...new Set(documentIds)];
  let total = 0;
  for (let start = 0; start < ids.length; start += 500) {
    const [row] = await ctx.db.$queryRaw<Array<{ total: number | bigint | string | null }>>(Prisma.sql`
      SELECT SUM(OCTET_LENGTH("markdown")) AS "total" FROM "documents" WHERE "id" IN (${Prisma.join(ids.slice(start, start + 500))})`);
    total += Number(row?.total ?? 0);
  }
  return total;
}
