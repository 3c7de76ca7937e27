-- CreateTable
CREATE TABLE "space_git_syncs" (
    "spaceId" TEXT NOT NULL PRIMARY KEY,
    "url" TEXT NOT NULL,
    "ref" TEXT NOT NULL,
    "projectDirectory" TEXT NOT NULL DEFAULT '',
    "state" TEXT NOT NULL,
    "direction" TEXT NOT NULL,
    "startedAt" DATETIME NOT NULL,
    "endedAt" DATETIME,
    "error" TEXT,
    "commit" TEXT,
    "timestamp" DATETIME,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "space_git_syncs_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "spaces" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);


-- Writes invalidate the cached answers of their scopes (prisma/generation-triggers.ts)
CREATE TRIGGER "space_git_syncs_bump_generations_insert" AFTER INSERT ON "space_git_syncs" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "space_git_syncs_bump_generations_update" AFTER UPDATE ON "space_git_syncs" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "space_git_syncs_bump_generations_delete" AFTER DELETE ON "space_git_syncs" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
