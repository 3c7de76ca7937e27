-- AlterTable
ALTER TABLE "revisions" ADD COLUMN "gitCommit" TEXT;

-- CreateTable
CREATE TABLE "space_git_bindings" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "spaceId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "branch" TEXT NOT NULL,
    "projectDirectory" TEXT NOT NULL DEFAULT '',
    "credentials" TEXT,
    "hookSecret" TEXT NOT NULL,
    "initialSync" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "lastCommit" TEXT,
    "lastRevisionId" TEXT,
    "lastSyncAt" DATETIME,
    "lastError" TEXT,
    "conflictChangeRequestId" TEXT,
    "createdById" TEXT,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "space_git_bindings_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "spaces" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "space_git_bindings_spaceId_key" ON "space_git_bindings"("spaceId");


-- Writes invalidate the cached answers of their scopes (prisma/generation-triggers.ts)
CREATE TRIGGER "space_git_bindings_bump_generations_insert" AFTER INSERT ON "space_git_bindings" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "space_git_bindings_bump_generations_update" AFTER UPDATE ON "space_git_bindings" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "space_git_bindings_bump_generations_delete" AFTER DELETE ON "space_git_bindings" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
