-- CreateTable
CREATE TABLE "change_request_reviews" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "spaceId" TEXT NOT NULL,
    "changeRequestId" TEXT NOT NULL,
    "reviewerId" TEXT NOT NULL,
    "requestedById" TEXT,
    "status" TEXT NOT NULL,
    "revisionId" TEXT NOT NULL,
    "commentId" TEXT,
    "outdated" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "change_request_reviews_changeRequestId_fkey" FOREIGN KEY ("changeRequestId") REFERENCES "change_requests" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "change_request_reviewers" (
    "changeRequestId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "spaceId" TEXT NOT NULL,
    "requestedById" TEXT NOT NULL,
    "revisionId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("changeRequestId", "userId"),
    CONSTRAINT "change_request_reviewers_changeRequestId_fkey" FOREIGN KEY ("changeRequestId") REFERENCES "change_requests" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "audit_events" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "occurredAt" DATETIME NOT NULL,
    "action" TEXT NOT NULL,
    "actorType" TEXT NOT NULL,
    "actorId" TEXT NOT NULL,
    "actorLabel" TEXT,
    "tokenId" TEXT,
    "source" TEXT NOT NULL,
    "targetType" TEXT NOT NULL,
    "targetId" TEXT NOT NULL,
    "targetLabel" TEXT,
    "address" TEXT,
    "userAgent" TEXT,
    "correlationId" TEXT,
    "payload" JSONB,
    CONSTRAINT "audit_events_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_change_request_contributors" (
    "changeRequestId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 1,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("changeRequestId", "userId"),
    CONSTRAINT "change_request_contributors_changeRequestId_fkey" FOREIGN KEY ("changeRequestId") REFERENCES "change_requests" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_change_request_contributors" ("changeRequestId", "userId") SELECT "changeRequestId", "userId" FROM "change_request_contributors";
DROP TABLE "change_request_contributors";
ALTER TABLE "new_change_request_contributors" RENAME TO "change_request_contributors";
CREATE INDEX "change_request_contributors_userId_idx" ON "change_request_contributors"("userId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "change_request_reviews_changeRequestId_createdAt_id_idx" ON "change_request_reviews"("changeRequestId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "change_request_reviewers_changeRequestId_createdAt_userId_idx" ON "change_request_reviewers"("changeRequestId", "createdAt", "userId");

-- CreateIndex
CREATE INDEX "audit_events_organizationId_occurredAt_id_idx" ON "audit_events"("organizationId", "occurredAt", "id");

-- CreateIndex
CREATE INDEX "audit_events_occurredAt_idx" ON "audit_events"("occurredAt");


-- Writes invalidate the cached answers of their scopes (prisma/generation-triggers.ts)
CREATE TRIGGER "change_request_reviews_bump_generations_insert" AFTER INSERT ON "change_request_reviews" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "change_request_reviews_bump_generations_update" AFTER UPDATE ON "change_request_reviews" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "change_request_reviews_bump_generations_delete" AFTER DELETE ON "change_request_reviews" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "change_request_reviewers_bump_generations_insert" AFTER INSERT ON "change_request_reviewers" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "change_request_reviewers_bump_generations_update" AFTER UPDATE ON "change_request_reviewers" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "change_request_reviewers_bump_generations_delete" AFTER DELETE ON "change_request_reviewers" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "audit_events_bump_generations_insert" AFTER INSERT ON "audit_events" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "audit_events_bump_generations_update" AFTER UPDATE ON "audit_events" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "audit_events_bump_generations_delete" AFTER DELETE ON "audit_events" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
