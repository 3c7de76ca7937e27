-- Full-text search over the sections of the pages of each space's active
-- revision (src/domain/search/): a tsvector per section with a GIN index,
-- ranked by ts_rank. Written by hand: Prisma does not model generated tsvector
-- columns. Rows are replaced when a space's revision changes, in the same
-- transaction (which bumps its organization's data generation), so the table
-- needs no triggers of its own. The 'simple' configuration, as SQLite's
-- unicode61 tokenizer: no stemming, any language.
CREATE TABLE "search_sections" (
  "spaceId" TEXT NOT NULL,
  "pageId" TEXT NOT NULL,
  "sectionId" TEXT NOT NULL,
  "pageTitle" TEXT NOT NULL,
  "title" TEXT NOT NULL,
  "path" TEXT NOT NULL,
  "body" TEXT NOT NULL,
  "position" INTEGER NOT NULL,
  "document" tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('simple', "pageTitle"), 'A') || setweight(to_tsvector('simple', "title"), 'A') || setweight(to_tsvector('simple', "body"), 'B')
  ) STORED
);
CREATE INDEX "search_sections_document_idx" ON "search_sections" USING GIN ("document");
CREATE INDEX "search_sections_spaceId_idx" ON "search_sections" ("spaceId");
