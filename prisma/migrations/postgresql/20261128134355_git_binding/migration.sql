-- AlterTable
ALTER TABLE "revisions" ADD COLUMN     "gitCommit" TEXT;

-- CreateTable
CREATE TABLE "space_git_bindings" (
    "id" TEXT NOT NULL,
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
    "lastSyncAt" TIMESTAMP(3),
    "lastError" TEXT,
    "conflictChangeRequestId" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "space_git_bindings_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "space_git_bindings_spaceId_key" ON "space_git_bindings"("spaceId");

-- AddForeignKey
ALTER TABLE "space_git_bindings" ADD CONSTRAINT "space_git_bindings_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Writes invalidate the cached answers of their scopes (prisma/generation-triggers.ts)
CREATE FUNCTION "space_git_bindings_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "space_git_bindings_bump_generations_insert" AFTER INSERT ON "space_git_bindings" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "space_git_bindings_bump_generations"();
CREATE TRIGGER "space_git_bindings_bump_generations_update" AFTER UPDATE ON "space_git_bindings" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "space_git_bindings_bump_generations"();
CREATE TRIGGER "space_git_bindings_bump_generations_delete" AFTER DELETE ON "space_git_bindings" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "space_git_bindings_bump_generations"();
