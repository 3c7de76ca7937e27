import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import type { RequestContext } from '../../context.ts';
import { invalid } from '../../errors.ts';
import { holdsMore } from '../../lib/json-weight.ts';
import { markdownFromDocumentInput } from './model/document-input.ts';
import { Prisma } from '../../db/index.ts';
import { defineLoader, loader } from '../loaders.ts';
import { TaskOverBudget, runTask } from '../../workers/pool.ts';
import { documentFromMarkdown, plainDocument } from './model/from-markdown.ts';
import { DEFAULT_PARSE_BUDGET_MS, INLINE_BODY_CHARACTERS, INLINE_STRUCTURE_CHARACTERS } from './model/budgets.ts';
import type { JSONDocument } from './model/nodes.ts';
import { storeDocumentLinks } from './links.ts';
import { hasRelativeReferences, servable } from './model/references.ts';
import { withBlockKeys } from './model/text.ts';

/**
 * A page body's structured document, parsed once from its markdown and kept
 * (`document_structures`): bodies never change, so a kept structure stays right
 * until the content model itself reads markdown differently - then
 * MODEL_VERSION goes up and each body is parsed again, once, when next read.
 * Bodies are parsed when stored; those stored before (or by an older model)
 * are parsed on their first read.
 */

/** Raise whenever the model would read some markdown differently than before. */
export const MODEL_VERSION = 1;
/**
 * The version a body's plain-paragraph stand-in is kept under when its parse went past its budget: below
 * every model's, so the body is parsed again when next read (past `largeParses`' minute), and a parse that
 * went past its budget only because the server was busy leaves no lasting trace.
 */
const PROVISIONAL_VERSION = 0;

let parseBudget = DEFAULT_PARSE_BUDGET_MS;

/** The most a body's parse or write may take on the worker pool: past it, the body reads as plain paragraphs. */
export function parseBudgetMs(): number {
  return parseBudget;
}

/** Sets that budget (the server does at start); stand-ins of parses past the old one are forgotten, as the new one may fit them. */
export function configureParseBudget(ms: number): void {
  parseBudget = ms;
  largeParses.clear();
}

/**
 * The structured document of a body's markdown (front matter already taken off), top-level blocks
 * keyed. A body whose parse goes past its budget (pathological nesting: the parser's cost is not
 * linear in every case) reads as its text in plain paragraphs, which keeps all of it.
 */
export async function parseBody(markdown: string): Promise<JSONDocument> {
  if (markdown.length <= INLINE_BODY_CHARACTERS) return withBlockKeys(documentFromMarkdown(markdown));
  const key = createHash('sha256').update(markdown).digest('base64url');
  let parsing = largeParses.get(key);
  if (!parsing) {
    parsing = runTask('parse-markdown', { markdown }, { budgetMs: parseBudget }).catch((error: unknown) => {
      if (!(error instanceof TaskOverBudget)) throw error;
      const plain = withBlockKeys(plainDocument(markdown));
      provisional.add(plain);
      return plain;
    });
    largeParses.set(key, parsing, { size: markdown.length });
    // A failed parse is not kept: the next caller tries again.
    parsing.catch(() => largeParses.delete(key));
  }
  return parsing;
}

/** Plain-paragraph stand-ins for bodies whose parse went past its budget: kept as provisional (PROVISIONAL_VERSION). */
const provisional = new WeakSet<JSONDocument>();

/** Whether a document is the stand-in of a body whose parse went past its budget (its text in plain paragraphs). */
export function isProvisional(document: JSONDocument): boolean {
  return provisional.has(document);
}

/**
 * Large bodies parsed lately, by content: a content batch reads its bodies before its transaction
 * (./changes.ts prepareChanges), all at once on the pool, so the transaction finds them parsed.
 */
const largeParses = new LRUCache<string, Promise<JSONDocument>>({
  // Bounded by the Markdown parsed (each entry's size, set with it), not by count: a parsed document
  // holds many times its text in objects, and 256 bodies of a megabyte each were gigabytes kept for minutes.
  maxSize: 16 * 1024 * 1024,
  ttl: 60_000,
});

/**
 * The Markdown of a structured document a client sent (src/domain/content/document-input.ts), checked and
 * written here when it is small, on the worker pool otherwise: its cost grows with the document, and a
 * request may send 32 MB of them. A DomainError names `field` when the document is not valid.
 */
export async function markdownOfDocumentInput(input: unknown, field: string): Promise<string> {
  if (!holdsMore(input, INLINE_BODY_CHARACTERS)) return markdownFromDocumentInput(input, field);
  try {
    return await runTask('markdown-of-document-input', { input, field }, { budgetMs: parseBudget });
  } catch (error) {
    if (error instanceof TaskOverBudget) {
      throw invalid(`${field}: too large to read ${error.budget === 'time' ? `within ${parseBudget / 1000} s` : 'within the memory one task may use'}`);
    }
    throw error;
  }
}

/** Parses bodies ahead of storing them, side by side on the worker pool (what is small is parsed when stored). */
export async function parseAhead(markdowns: Iterable<string>): Promise<void> {
  await Promise.all([...markdowns].filter((markdown) => markdown.length > INLINE_BODY_CHARACTERS).map((markdown) => parseBody(markdown)));
}

/** Keeps structures (another transaction, or an older model's instance, may keep the same one: no conflict, newest wins). */
async function keepStructures(ctx: RequestContext, structures: Map<string, JSONDocument>): Promise<void> {
  await keepStructureTexts(
    ctx,
    [...structures].map(([id, document]) => ({
      id,
      text: JSON.stringify(document),
      relativeRefs: hasRelativeReferences(document),
      provisional: isProvisional(document),
    })),
  );
}

/** A structure as it is kept: its JSON text, whether a read must resolve relative references in its revision, and whether it is a stand-in. */
export interface StructureText {
  id: string;
  text: string;
  relativeRefs: boolean;
  /** The body's parse went past its budget: this is its text in plain paragraphs, parsed again when next read. */
  provisional: boolean;
}

/** A body's structure made ahead of the transaction that stores it (parsing is the costly part of storing a body). */
export async function structureText(id: string, markdown: string): Promise<StructureText & { document: JSONDocument }> {
  const document = await parseBody(markdown);
  return { id, text: JSON.stringify(document), relativeRefs: hasRelativeReferences(document), provisional: isProvisional(document), document };
}

/** Keeps structures given as their text (as keepStructures does). */
export async function keepStructureTexts(ctx: RequestContext, structures: StructureText[]): Promise<void> {
  // Whether a read must resolve relative references in its revision (./page-read.ts reads the revision's files only then).
  const relative = (value: boolean) => (ctx.provider === 'postgresql' ? value : value ? 1 : 0);
  const rows = structures.map(
    (row) => Prisma.sql`(${row.id}, ${row.provisional ? PROVISIONAL_VERSION : MODEL_VERSION}, ${row.text}, ${relative(row.relativeRefs)})`,
  );
  for (let start = 0; start < rows.length; start += 100) {
    await ctx.db.$executeRaw(Prisma.sql`
      INSERT INTO "document_structures" ("documentId", "modelVersion", "document", "relativeRefs") VALUES ${Prisma.join(rows.slice(start, start + 100))}
      ON CONFLICT ("documentId") DO UPDATE SET "modelVersion" = excluded."modelVersion", "document" = excluded."document", "relativeRefs" = excluded."relativeRefs"
      WHERE "document_structures"."modelVersion" < excluded."modelVersion"`);
  }
}

/**
 * Parses and keeps the structures of bodies being stored that have none of this model yet (in the
 * storing transaction); returns those it parsed.
 */
export async function storeStructures(tx: RequestContext, bodies: Map<string, string>): Promise<Map<string, JSONDocument>> {
  if (!bodies.size) return new Map();
  const kept = await tx.db.documentStructure.findMany({
    where: { documentId: { in: [...bodies.keys()] }, modelVersion: { gte: MODEL_VERSION } },
    select: { documentId: true },
  });
  const done = new Set(kept.map((row) => row.documentId));
  const parsed = await parseBodies([...bodies].filter(([id]) => !done.has(id)));
  await keepStructures(tx, parsed);
  return parsed;
}

/**
 * Bodies parsed by id: large ones side by side on the pool's threads (a content batch's are
 * parsed ahead of its transaction), small ones here, one at a time, other requests running
 * between them.
 */
async function parseBodies(bodies: Array<[string, string]>): Promise<Map<string, JSONDocument>> {
  const parsed = new Map<string, JSONDocument>();
  const large = Promise.all(
    bodies.filter(([, markdown]) => markdown.length > INLINE_BODY_CHARACTERS).map(async ([id, markdown]) => parsed.set(id, await parseBody(markdown))),
  );
  for (const [id, markdown] of bodies) {
    if (markdown.length > INLINE_BODY_CHARACTERS) continue;
    parsed.set(id, await parseBody(markdown));
    await nextTurn();
  }
  await large;
  return parsed;
}

const EMPTY: JSONDocument = { object: 'document', data: {}, nodes: [] };

/**
 * Structured documents of stored bodies, by document id, in one statement (and one more for those
 * without a structure of this model, parsed now and kept for the next reader, on any instance).
 * Holds nothing: work that goes through many bodies reads them a slice at a time with it.
 */
export async function readStructures(ctx: RequestContext, ids: readonly string[]): Promise<Map<string, JSONDocument>> {
  return readStructuresAs(ctx, ids, (text) => JSON.parse(text) as JSONDocument);
}

/**
 * As readStructures, but a large kept structure is left as its JSON text, for work that reads it on
 * the worker pool: parsing it here, and copying the objects there, held the event loop 0.3-0.4 s a megabyte.
 */
export async function readStructuresLeavingLarge(ctx: RequestContext, ids: readonly string[]): Promise<Map<string, JSONDocument | string>> {
  return readStructuresAs(ctx, ids, (text) => (text.length > INLINE_STRUCTURE_CHARACTERS ? text : (JSON.parse(text) as JSONDocument)));
}

async function readStructuresAs<Kept>(ctx: RequestContext, ids: readonly string[], keptAs: (text: string) => Kept): Promise<Map<string, Kept | JSONDocument>> {
  const kept = await ctx.db.documentStructure.findMany({
    where: { documentId: { in: [...ids] }, modelVersion: { gte: MODEL_VERSION } },
    select: { documentId: true, document: true },
  });
  const found = new Map<string, Kept | JSONDocument>(kept.map((row) => [row.documentId, keptAs(row.document)]));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) {
    const bodies = await ctx.db.document.findMany({ where: { id: { in: missing } }, select: { id: true, markdown: true } });
    const fresh = await parseBodies(bodies.map((body) => [body.id, body.markdown]));
    await keepStructures(ctx, fresh);
    // A body that was kept as a stand-in has no links stored yet: now read, they are (idempotent for the others).
    await storeDocumentLinks(ctx, new Map([...fresh].filter(([, document]) => !isProvisional(document))));
    for (const [id, document] of fresh) {
      if (isProvisional(document)) ctx.standIns?.add(id);
      found.set(id, document);
    }
  }
  return found;
}

/** Structured documents of stored bodies, by document id: one statement for every body a request asks about. */
export const bodyStructures = defineLoader<string, JSONDocument>(async (ctx, ids) => {
  const found = await readStructures(ctx, ids);
  return ids.map((id) => found.get(id) ?? EMPTY);
});

/**
 * Structured documents of stored bodies as their JSON text, unparsed: for work that reads them
 * elsewhere (the PDF export parses them on the worker pool, not on the event loop).
 */
export const bodyStructureTexts = defineLoader<string, string>(async (ctx, ids) => {
  const kept = await ctx.db.documentStructure.findMany({
    where: { documentId: { in: [...ids] }, modelVersion: { gte: MODEL_VERSION } },
    select: { documentId: true, document: true },
  });
  const found = new Map(kept.map((row) => [row.documentId, row.document]));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) {
    const parsed = await loader(ctx, bodyStructures).loadMany(missing);
    missing.forEach((id, index) => {
      const document = parsed[index];
      if (document instanceof Error) throw document;
      found.set(id, JSON.stringify(document));
    });
  }
  return ids.map((id) => found.get(id) ?? JSON.stringify(EMPTY));
});

/** The structured document of a page body; an empty page (no body) has an empty document. */
export async function structureOf(ctx: RequestContext, documentId: string | null): Promise<JSONDocument> {
  if (!documentId) return EMPTY;
  return loader(ctx, bodyStructures).load(documentId);
}

/**
 * Documents of markdown that is not a page body (a comment's): parsed when read, and kept in
 * memory by content, since a listing reads the same comments again and again.
 */
const parsedTexts = new LRUCache<string, JSONDocument>({ maxSize: 8 * 1024 * 1024, sizeCalculation: (_, key) => key.length * 4 + 64 });

export async function documentOfText(markdown: string): Promise<JSONDocument> {
  const key = markdown.length > 256 ? createHash('sha256').update(markdown).digest('base64url') : markdown;
  let document = parsedTexts.get(key);
  if (!document) {
    const parsed = await parseBody(markdown);
    document = servable(parsed);
    // A stand-in is not kept here: largeParses keeps it a minute, then the text is parsed again.
    if (!isProvisional(parsed)) parsedTexts.set(key, document);
  }
  return document;
}
