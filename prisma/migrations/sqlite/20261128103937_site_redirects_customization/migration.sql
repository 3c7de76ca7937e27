-- AlterTable
ALTER TABLE "sites" ADD COLUMN "customization" JSONB;
ALTER TABLE "sites" ADD COLUMN "customizationUpdatedAt" DATETIME;

-- AlterTable
ALTER TABLE "site_spaces" ADD COLUMN "customization" JSONB;
ALTER TABLE "site_spaces" ADD COLUMN "customizationUpdatedAt" DATETIME;

-- CreateTable
CREATE TABLE "site_redirects" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "siteId" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "draft" BOOLEAN NOT NULL DEFAULT false,
    "captureWildcard" BOOLEAN NOT NULL DEFAULT false,
    "permanent" BOOLEAN NOT NULL DEFAULT false,
    "destination" JSONB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "edited" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "site_redirects_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "sites" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "site_redirects_siteId_createdAt_id_idx" ON "site_redirects"("siteId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "site_redirects_siteId_updatedAt_id_idx" ON "site_redirects"("siteId", "updatedAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "site_redirects_siteId_draft_source_key" ON "site_redirects"("siteId", "draft", "source");


-- Writes invalidate the cached answers of their scopes (prisma/generation-triggers.ts)
CREATE TRIGGER "site_redirects_bump_generations_insert" AFTER INSERT ON "site_redirects" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "site_redirects_bump_generations_update" AFTER UPDATE ON "site_redirects" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId" UNION SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "site_redirects_bump_generations_delete" AFTER DELETE ON "site_redirects" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
