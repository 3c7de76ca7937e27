-- AlterTable
ALTER TABLE "change_request_contributors" ADD COLUMN     "count" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- CreateTable
CREATE TABLE "change_request_reviews" (
    "id" TEXT NOT NULL,
    "spaceId" TEXT NOT NULL,
    "changeRequestId" TEXT NOT NULL,
    "reviewerId" TEXT NOT NULL,
    "requestedById" TEXT,
    "status" TEXT NOT NULL,
    "revisionId" TEXT NOT NULL,
    "commentId" TEXT,
    "outdated" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "change_request_reviews_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "change_request_reviewers" (
    "changeRequestId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "spaceId" TEXT NOT NULL,
    "requestedById" TEXT NOT NULL,
    "revisionId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "change_request_reviewers_pkey" PRIMARY KEY ("changeRequestId","userId")
);

-- CreateTable
CREATE TABLE "audit_events" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "occurredAt" TIMESTAMP(3) NOT NULL,
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

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "change_request_reviews_changeRequestId_createdAt_id_idx" ON "change_request_reviews"("changeRequestId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "change_request_reviewers_changeRequestId_createdAt_userId_idx" ON "change_request_reviewers"("changeRequestId", "createdAt", "userId");

-- CreateIndex
CREATE INDEX "audit_events_organizationId_occurredAt_id_idx" ON "audit_events"("organizationId", "occurredAt", "id");

-- CreateIndex
CREATE INDEX "audit_events_occurredAt_idx" ON "audit_events"("occurredAt");

-- AddForeignKey
ALTER TABLE "change_request_reviews" ADD CONSTRAINT "change_request_reviews_changeRequestId_fkey" FOREIGN KEY ("changeRequestId") REFERENCES "change_requests"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "change_request_reviewers" ADD CONSTRAINT "change_request_reviewers_changeRequestId_fkey" FOREIGN KEY ("changeRequestId") REFERENCES "change_requests"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Writes invalidate the cached answers of their scopes (prisma/generation-triggers.ts)
CREATE FUNCTION "change_request_reviews_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "change_request_reviews_bump_generations_insert" AFTER INSERT ON "change_request_reviews" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "change_request_reviews_bump_generations"();
CREATE TRIGGER "change_request_reviews_bump_generations_update" AFTER UPDATE ON "change_request_reviews" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "change_request_reviews_bump_generations"();
CREATE TRIGGER "change_request_reviews_bump_generations_delete" AFTER DELETE ON "change_request_reviews" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "change_request_reviews_bump_generations"();
CREATE FUNCTION "change_request_reviewers_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "change_request_reviewers_bump_generations_insert" AFTER INSERT ON "change_request_reviewers" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "change_request_reviewers_bump_generations"();
CREATE TRIGGER "change_request_reviewers_bump_generations_update" AFTER UPDATE ON "change_request_reviewers" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "change_request_reviewers_bump_generations"();
CREATE TRIGGER "change_request_reviewers_bump_generations_delete" AFTER DELETE ON "change_request_reviewers" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "change_request_reviewers_bump_generations"();
CREATE FUNCTION "audit_events_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT r."organizationId" FROM old_rows r));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "audit_events_bump_generations_insert" AFTER INSERT ON "audit_events" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_bump_generations"();
CREATE TRIGGER "audit_events_bump_generations_update" AFTER UPDATE ON "audit_events" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_bump_generations"();
CREATE TRIGGER "audit_events_bump_generations_delete" AFTER DELETE ON "audit_events" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_bump_generations"();
