-- AlterTable
ALTER TABLE "sites" ADD COLUMN     "customization" JSONB,
ADD COLUMN     "customizationUpdatedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "site_spaces" ADD COLUMN     "customization" JSONB,
ADD COLUMN     "customizationUpdatedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "site_redirects" (
    "id" TEXT NOT NULL,
    "siteId" TEXT NOT NULL,
    "source" TEXT COLLATE "C" NOT NULL,
    "draft" BOOLEAN NOT NULL DEFAULT false,
    "captureWildcard" BOOLEAN NOT NULL DEFAULT false,
    "permanent" BOOLEAN NOT NULL DEFAULT false,
    "destination" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "edited" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "site_redirects_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "site_redirects_siteId_createdAt_id_idx" ON "site_redirects"("siteId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "site_redirects_siteId_updatedAt_id_idx" ON "site_redirects"("siteId", "updatedAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "site_redirects_siteId_draft_source_key" ON "site_redirects"("siteId", "draft", "source");

-- AddForeignKey
ALTER TABLE "site_redirects" ADD CONSTRAINT "site_redirects_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Writes invalidate the cached answers of their scopes (prisma/generation-triggers.ts)
CREATE FUNCTION "site_redirects_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId"));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId" UNION SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId"));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId"));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "site_redirects_bump_generations_insert" AFTER INSERT ON "site_redirects" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "site_redirects_bump_generations"();
CREATE TRIGGER "site_redirects_bump_generations_update" AFTER UPDATE ON "site_redirects" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "site_redirects_bump_generations"();
CREATE TRIGGER "site_redirects_bump_generations_delete" AFTER DELETE ON "site_redirects" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "site_redirects_bump_generations"();
