-- AlterTable
ALTER TABLE "spaces" ADD COLUMN     "changeRequestNumber" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "changeRequestsOpen" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "changeRequestsDraft" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "revisions" (
    "id" TEXT NOT NULL,
    "spaceId" TEXT NOT NULL,
    "changeRequestId" TEXT,
    "type" TEXT NOT NULL,
    "parents" JSONB NOT NULL,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "revisions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "revision_pages" (
    "revisionId" TEXT NOT NULL,
    "pageId" TEXT NOT NULL,
    "versionId" TEXT NOT NULL,
    "parentId" TEXT,
    "position" TEXT COLLATE "C" NOT NULL,

    CONSTRAINT "revision_pages_pkey" PRIMARY KEY ("revisionId","pageId")
);

-- CreateTable
CREATE TABLE "page_versions" (
    "id" TEXT NOT NULL,
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
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "page_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "documents" (
    "id" TEXT NOT NULL,
    "spaceId" TEXT NOT NULL,
    "markdown" TEXT NOT NULL,

    CONSTRAINT "documents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "revision_files" (
    "revisionId" TEXT NOT NULL,
    "fileId" TEXT NOT NULL,
    "versionId" TEXT NOT NULL,

    CONSTRAINT "revision_files_pkey" PRIMARY KEY ("revisionId","fileId")
);

-- CreateTable
CREATE TABLE "file_versions" (
    "id" TEXT NOT NULL,
    "spaceId" TEXT NOT NULL,
    "fileId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "width" INTEGER,
    "height" INTEGER,
    "sha256" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "file_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "change_requests" (
    "id" TEXT NOT NULL,
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
    "mergedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "change_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "change_request_contributors" (
    "changeRequestId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,

    CONSTRAINT "change_request_contributors_pkey" PRIMARY KEY ("changeRequestId","userId")
);

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

-- AddForeignKey
ALTER TABLE "revisions" ADD CONSTRAINT "revisions_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "revision_pages" ADD CONSTRAINT "revision_pages_revisionId_fkey" FOREIGN KEY ("revisionId") REFERENCES "revisions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "revision_pages" ADD CONSTRAINT "revision_pages_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "page_versions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "page_versions" ADD CONSTRAINT "page_versions_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "documents" ADD CONSTRAINT "documents_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "revision_files" ADD CONSTRAINT "revision_files_revisionId_fkey" FOREIGN KEY ("revisionId") REFERENCES "revisions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "revision_files" ADD CONSTRAINT "revision_files_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "file_versions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "file_versions" ADD CONSTRAINT "file_versions_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "change_requests" ADD CONSTRAINT "change_requests_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "change_request_contributors" ADD CONSTRAINT "change_request_contributors_changeRequestId_fkey" FOREIGN KEY ("changeRequestId") REFERENCES "change_requests"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Writes invalidate the cached answers of their scopes (prisma/generation-triggers.ts)
CREATE FUNCTION "revisions_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "revisions_bump_generations_insert" AFTER INSERT ON "revisions" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "revisions_bump_generations"();
CREATE TRIGGER "revisions_bump_generations_update" AFTER UPDATE ON "revisions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "revisions_bump_generations"();
CREATE TRIGGER "revisions_bump_generations_delete" AFTER DELETE ON "revisions" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "revisions_bump_generations"();
CREATE FUNCTION "page_versions_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "page_versions_bump_generations_insert" AFTER INSERT ON "page_versions" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "page_versions_bump_generations"();
CREATE TRIGGER "page_versions_bump_generations_update" AFTER UPDATE ON "page_versions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "page_versions_bump_generations"();
CREATE TRIGGER "page_versions_bump_generations_delete" AFTER DELETE ON "page_versions" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "page_versions_bump_generations"();
CREATE FUNCTION "documents_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "documents_bump_generations_insert" AFTER INSERT ON "documents" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "documents_bump_generations"();
CREATE TRIGGER "documents_bump_generations_update" AFTER UPDATE ON "documents" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "documents_bump_generations"();
CREATE TRIGGER "documents_bump_generations_delete" AFTER DELETE ON "documents" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "documents_bump_generations"();
CREATE FUNCTION "file_versions_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "file_versions_bump_generations_insert" AFTER INSERT ON "file_versions" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "file_versions_bump_generations"();
CREATE TRIGGER "file_versions_bump_generations_update" AFTER UPDATE ON "file_versions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "file_versions_bump_generations"();
CREATE TRIGGER "file_versions_bump_generations_delete" AFTER DELETE ON "file_versions" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "file_versions_bump_generations"();
CREATE FUNCTION "change_requests_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "change_requests_bump_generations_insert" AFTER INSERT ON "change_requests" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "change_requests_bump_generations"();
CREATE TRIGGER "change_requests_bump_generations_update" AFTER UPDATE ON "change_requests" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "change_requests_bump_generations"();
CREATE TRIGGER "change_requests_bump_generations_delete" AFTER DELETE ON "change_requests" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "change_requests_bump_generations"();

-- Every space starts with the empty revision its revisionId already names.
INSERT INTO "revisions" ("id", "spaceId", "type", "parents", "createdAt")
SELECT "revisionId", "id", 'edits', '[]', "createdAt" FROM "spaces";
