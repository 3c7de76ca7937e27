-- Full-text search over the sections of the pages of each space's active
-- revision (src/domain/search/): SQLite's FTS5, ranked by bm25. Written by hand:
-- Prisma does not model virtual tables. Rows are replaced when a space's
-- revision changes, in the same transaction (which bumps its organization's
-- data generation), so the table needs no triggers of its own.
CREATE VIRTUAL TABLE "search_sections" USING fts5(
  "pageTitle", "title", "body",
  "spaceId" UNINDEXED, "pageId" UNINDEXED, "sectionId" UNINDEXED, "path" UNINDEXED, "position" UNINDEXED,
  tokenize = 'unicode61 remove_diacritics 2'
);
