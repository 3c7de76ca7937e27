-- CreateTable
CREATE TABLE "content_grants" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "spaceId" TEXT,
    "collectionId" TEXT,
    "siteId" TEXT,
    "userId" TEXT,
    "teamId" TEXT,
    "role" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "content_grants_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "spaces" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "content_grants_collectionId_fkey" FOREIGN KEY ("collectionId") REFERENCES "collections" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "content_grants_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "sites" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "content_grants_organizationId_userId_fkey" FOREIGN KEY ("organizationId", "userId") REFERENCES "members" ("organizationId", "userId") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "content_grants_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "teams" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- AlterTable (by hand: Prisma redefines the table, and renaming the copy fails on the triggers
-- of other tables that name "members"; SQLite adds a NOT NULL column with a constant default in place,
-- and the table keeps its own triggers)
ALTER TABLE "members" ADD COLUMN "reachedByGrants" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE INDEX "content_grants_organizationId_userId_idx" ON "content_grants"("organizationId", "userId");

-- CreateIndex
CREATE INDEX "content_grants_teamId_idx" ON "content_grants"("teamId");

-- CreateIndex
CREATE UNIQUE INDEX "content_grants_spaceId_userId_key" ON "content_grants"("spaceId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "content_grants_spaceId_teamId_key" ON "content_grants"("spaceId", "teamId");

-- CreateIndex
CREATE UNIQUE INDEX "content_grants_collectionId_userId_key" ON "content_grants"("collectionId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "content_grants_collectionId_teamId_key" ON "content_grants"("collectionId", "teamId");

-- CreateIndex
CREATE UNIQUE INDEX "content_grants_siteId_userId_key" ON "content_grants"("siteId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "content_grants_siteId_teamId_key" ON "content_grants"("siteId", "teamId");


-- Writes invalidate the cached answers of their scopes (prisma/generation-triggers.ts)
CREATE TRIGGER "content_grants_bump_generations_insert" AFTER INSERT ON "content_grants" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "content_grants_bump_generations_update" AFTER UPDATE ON "content_grants" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "content_grants_bump_generations_delete" AFTER DELETE ON "content_grants" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
