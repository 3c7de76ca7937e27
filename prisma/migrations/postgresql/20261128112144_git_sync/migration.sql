-- CreateTable
CREATE TABLE "space_git_syncs" (
    "spaceId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "ref" TEXT NOT NULL,
    "projectDirectory" TEXT NOT NULL DEFAULT '',
    "state" TEXT NOT NULL,
    "direction" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "endedAt" TIMESTAMP(3),
    "error" TEXT,
    "commit" TEXT,
    "timestamp" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "space_git_syncs_pkey" PRIMARY KEY ("spaceId")
);

-- AddForeignKey
ALTER TABLE "space_git_syncs" ADD CONSTRAINT "space_git_syncs_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Writes invalidate the cached answers of their scopes (prisma/generation-triggers.ts)
CREATE FUNCTION "space_git_syncs_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "space_git_syncs_bump_generations_insert" AFTER INSERT ON "space_git_syncs" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "space_git_syncs_bump_generations"();
CREATE TRIGGER "space_git_syncs_bump_generations_update" AFTER UPDATE ON "space_git_syncs" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "space_git_syncs_bump_generations"();
CREATE TRIGGER "space_git_syncs_bump_generations_delete" AFTER DELETE ON "space_git_syncs" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "space_git_syncs_bump_generations"();
