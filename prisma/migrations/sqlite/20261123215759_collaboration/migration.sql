-- CreateTable
CREATE TABLE "comments" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "spaceId" TEXT NOT NULL,
    "changeRequestId" TEXT,
    "pageId" TEXT,
    "nodeId" TEXT,
    "postedById" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "postedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "editedAt" DATETIME,
    "status" TEXT NOT NULL DEFAULT 'open',
    "resolvedAt" DATETIME,
    "resolvedById" TEXT,
    CONSTRAINT "comments_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "spaces" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "comments_changeRequestId_fkey" FOREIGN KEY ("changeRequestId") REFERENCES "change_requests" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "comments_postedById_fkey" FOREIGN KEY ("postedById") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "comments_resolvedById_fkey" FOREIGN KEY ("resolvedById") REFERENCES "users" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "comment_replies" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "commentId" TEXT NOT NULL,
    "postedById" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "postedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "editedAt" DATETIME,
    CONSTRAINT "comment_replies_commentId_fkey" FOREIGN KEY ("commentId") REFERENCES "comments" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "comment_replies_postedById_fkey" FOREIGN KEY ("postedById") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "comment_reactions" (
    "organizationId" TEXT NOT NULL,
    "commentId" TEXT NOT NULL,
    "replyId" TEXT,
    "targetId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "emoji" TEXT NOT NULL,
    "reactedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("targetId", "userId", "emoji"),
    CONSTRAINT "comment_reactions_commentId_fkey" FOREIGN KEY ("commentId") REFERENCES "comments" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "comment_reactions_replyId_fkey" FOREIGN KEY ("replyId") REFERENCES "comment_replies" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "comment_reactions_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "invites" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "email" TEXT,
    "role" TEXT,
    "createdById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "usedAt" DATETIME,
    CONSTRAINT "invites_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "saml_providers" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "ssoURL" TEXT,
    "entityID" TEXT,
    "certificate" TEXT,
    "defaultTeamId" TEXT,
    "defaultRole" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "saml_providers_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "saml_providers_defaultTeamId_fkey" FOREIGN KEY ("defaultTeamId") REFERENCES "teams" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "translation_settings" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "languages" JSONB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "translation_settings_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "openapi_specs" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "sourceURL" TEXT,
    "sourceText" TEXT,
    "processingState" TEXT NOT NULL DEFAULT 'pending',
    "lastVersionId" TEXT,
    "lastProcessedAt" DATETIME,
    "lastProcessErrorCode" TEXT,
    "lastProcessErrors" JSONB,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "openapi_specs_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "openapi_spec_versions" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "specId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "filesystem" JSONB NOT NULL,
    "digest" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "openapi_spec_versions_specId_fkey" FOREIGN KEY ("specId") REFERENCES "openapi_specs" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "comments_spaceId_changeRequestId_postedAt_id_idx" ON "comments"("spaceId", "changeRequestId", "postedAt", "id");

-- CreateIndex
CREATE INDEX "comments_changeRequestId_postedAt_id_idx" ON "comments"("changeRequestId", "postedAt", "id");

-- CreateIndex
CREATE INDEX "comment_replies_commentId_postedAt_id_idx" ON "comment_replies"("commentId", "postedAt", "id");

-- CreateIndex
CREATE INDEX "comment_reactions_commentId_idx" ON "comment_reactions"("commentId");

-- CreateIndex
CREATE INDEX "comment_reactions_replyId_idx" ON "comment_reactions"("replyId");

-- CreateIndex
CREATE INDEX "invites_organizationId_createdAt_id_idx" ON "invites"("organizationId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "saml_providers_organizationId_createdAt_id_idx" ON "saml_providers"("organizationId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "translation_settings_organizationId_createdAt_id_idx" ON "translation_settings"("organizationId", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "openapi_specs_organizationId_slug_key" ON "openapi_specs"("organizationId", "slug");

-- CreateIndex
CREATE INDEX "openapi_spec_versions_specId_createdAt_id_idx" ON "openapi_spec_versions"("specId", "createdAt", "id");


-- Writes invalidate the cached answers of their scopes (prisma/generation-triggers.ts)
CREATE TRIGGER "comments_bump_generations_insert" AFTER INSERT ON "comments" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "comments_bump_generations_update" AFTER UPDATE ON "comments" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "comments_bump_generations_delete" AFTER DELETE ON "comments" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "comment_replies_bump_generations_insert" AFTER INSERT ON "comment_replies" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "comment_replies_bump_generations_update" AFTER UPDATE ON "comment_replies" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "comment_replies_bump_generations_delete" AFTER DELETE ON "comment_replies" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "comment_reactions_bump_generations_insert" AFTER INSERT ON "comment_reactions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "comment_reactions_bump_generations_update" AFTER UPDATE ON "comment_reactions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "comment_reactions_bump_generations_delete" AFTER DELETE ON "comment_reactions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "invites_bump_generations_insert" AFTER INSERT ON "invites" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "invites_bump_generations_update" AFTER UPDATE ON "invites" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "invites_bump_generations_delete" AFTER DELETE ON "invites" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "saml_providers_bump_generations_insert" AFTER INSERT ON "saml_providers" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "saml_providers_bump_generations_update" AFTER UPDATE ON "saml_providers" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "saml_providers_bump_generations_delete" AFTER DELETE ON "saml_providers" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "translation_settings_bump_generations_insert" AFTER INSERT ON "translation_settings" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "translation_settings_bump_generations_update" AFTER UPDATE ON "translation_settings" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "translation_settings_bump_generations_delete" AFTER DELETE ON "translation_settings" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "openapi_specs_bump_generations_insert" AFTER INSERT ON "openapi_specs" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "openapi_specs_bump_generations_update" AFTER UPDATE ON "openapi_specs" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "openapi_specs_bump_generations_delete" AFTER DELETE ON "openapi_specs" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "openapi_spec_versions_bump_generations_insert" AFTER INSERT ON "openapi_spec_versions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "openapi_specs" p WHERE p."id" = NEW."specId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "openapi_spec_versions_bump_generations_update" AFTER UPDATE ON "openapi_spec_versions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "openapi_specs" p WHERE p."id" = NEW."specId" UNION SELECT p."organizationId" AS "scope" FROM "openapi_specs" p WHERE p."id" = OLD."specId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "openapi_spec_versions_bump_generations_delete" AFTER DELETE ON "openapi_spec_versions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "openapi_specs" p WHERE p."id" = OLD."specId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
