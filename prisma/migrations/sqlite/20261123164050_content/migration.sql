-- CreateTable
CREATE TABLE "revisions" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "spaceId" TEXT NOT NULL,
    "changeRequestId" TEXT,
    "type" TEXT NOT NULL,
    "parents" JSONB NOT NULL,
    "createdById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "revisions_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "spaces" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "revision_pages" (
    "revisionId" TEXT NOT NULL,
    "pageId" TEXT NOT NULL,
    "versionId" TEXT NOT NULL,
    "parentId" TEXT,
    "position" TEXT NOT NULL,

    PRIMARY KEY ("revisionId", "pageId"),
    CONSTRAINT "revision_pages_revisionId_fkey" FOREIGN KEY ("revisionId") REFERENCES "revisions" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "revision_pages_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "page_versions" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "page_versions" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "spaceId" TEXT NOT NULL,
    "pageId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "emoji" TEXT,
    "icon" TEXT,
    "description" TEXT,
    "documentId" TEXT,
    "hidden" BOOLEAN NOT NULL DEFAULT false,
    "noIndex" BOOLEAN NOT NULL DEFAULT false,
    "noRobotsIndex" BOOLEAN NOT NULL DEFAULT false,
    "condition" TEXT,
    "layout" JSONB,
    "cover" JSONB,
    "target" JSONB,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "page_versions_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "spaces" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "documents" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "spaceId" TEXT NOT NULL,
    "markdown" TEXT NOT NULL,
    CONSTRAINT "documents_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "spaces" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "revision_files" (
    "revisionId" TEXT NOT NULL,
    "fileId" TEXT NOT NULL,
    "versionId" TEXT NOT NULL,

    PRIMARY KEY ("revisionId", "fileId"),
    CONSTRAINT "revision_files_revisionId_fkey" FOREIGN KEY ("revisionId") REFERENCES "revisions" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "revision_files_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "file_versions" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "file_versions" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "spaceId" TEXT NOT NULL,
    "fileId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "width" INTEGER,
    "height" INTEGER,
    "sha256" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "file_versions_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "spaces" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "change_requests" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "spaceId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "subject" TEXT NOT NULL DEFAULT '',
    "createdById" TEXT,
    "revisionId" TEXT NOT NULL,
    "revisionInitialId" TEXT NOT NULL,
    "revisionMergedAncestorId" TEXT NOT NULL,
    "revisionMergedId" TEXT,
    "mergedById" TEXT,
    "mergedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "change_requests_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "spaces" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "change_request_contributors" (
    "changeRequestId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,

    PRIMARY KEY ("changeRequestId", "userId"),
    CONSTRAINT "change_request_contributors_changeRequestId_fkey" FOREIGN KEY ("changeRequestId") REFERENCES "change_requests" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
-- Adding a column with a default needs no table rebuild (the rebuild Prisma writes
-- would break the triggers of the tables that read "spaces" while it is renamed).
ALTER TABLE "spaces" ADD COLUMN "changeRequestNumber" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "spaces" ADD COLUMN "changeRequestsOpen" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "spaces" ADD COLUMN "changeRequestsDraft" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "revisions_spaceId_createdAt_idx" ON "revisions"("spaceId", "createdAt");

-- CreateIndex
CREATE INDEX "revision_pages_versionId_idx" ON "revision_pages"("versionId");

-- CreateIndex
CREATE INDEX "page_versions_spaceId_pageId_idx" ON "page_versions"("spaceId", "pageId");

-- CreateIndex
CREATE INDEX "documents_spaceId_idx" ON "documents"("spaceId");

-- CreateIndex
CREATE INDEX "revision_files_versionId_idx" ON "revision_files"("versionId");

-- CreateIndex
CREATE INDEX "file_versions_spaceId_fileId_idx" ON "file_versions"("spaceId", "fileId");

-- CreateIndex
CREATE INDEX "change_requests_spaceId_status_createdAt_id_idx" ON "change_requests"("spaceId", "status", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "change_requests_spaceId_number_key" ON "change_requests"("spaceId", "number");

-- CreateIndex
CREATE INDEX "change_request_contributors_userId_idx" ON "change_request_contributors"("userId");


-- Writes invalidate the cached answers of their scopes (prisma/generation-triggers.ts)
CREATE TRIGGER "revisions_bump_generations_insert" AFTER INSERT ON "revisions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "revisions_bump_generations_update" AFTER UPDATE ON "revisions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "revisions_bump_generations_delete" AFTER DELETE ON "revisions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "page_versions_bump_generations_insert" AFTER INSERT ON "page_versions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "page_versions_bump_generations_update" AFTER UPDATE ON "page_versions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "page_versions_bump_generations_delete" AFTER DELETE ON "page_versions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "documents_bump_generations_insert" AFTER INSERT ON "documents" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "documents_bump_generations_update" AFTER UPDATE ON "documents" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "documents_bump_generations_delete" AFTER DELETE ON "documents" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "file_versions_bump_generations_insert" AFTER INSERT ON "file_versions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "file_versions_bump_generations_update" AFTER UPDATE ON "file_versions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "file_versions_bump_generations_delete" AFTER DELETE ON "file_versions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "change_requests_bump_generations_insert" AFTER INSERT ON "change_requests" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "change_requests_bump_generations_update" AFTER UPDATE ON "change_requests" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "change_requests_bump_generations_delete" AFTER DELETE ON "change_requests" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;

-- Every space starts with the empty revision its revisionId already names.
INSERT INTO "revisions" ("id", "spaceId", "type", "parents", "createdAt")
SELECT "revisionId", "id", 'edits', '[]', "createdAt" FROM "spaces";
