-- AlterTable
ALTER TABLE "members" ADD COLUMN     "reachedByGrants" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "content_grants" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "spaceId" TEXT,
    "collectionId" TEXT,
    "siteId" TEXT,
    "userId" TEXT,
    "teamId" TEXT,
    "role" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "content_grants_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "content_grants_organizationId_userId_idx" ON "content_grants"("organizationId", "userId");

-- CreateIndex
CREATE INDEX "content_grants_teamId_idx" ON "content_grants"("teamId");

-- CreateIndex
CREATE UNIQUE INDEX "content_grants_spaceId_userId_key" ON "content_grants"("spaceId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "content_grants_spaceId_teamId_key" ON "content_grants"("spaceId", "teamId");

-- CreateIndex
CREATE UNIQUE INDEX "content_grants_collectionId_userId_key" ON "content_grants"("collectionId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "content_grants_collectionId_teamId_key" ON "content_grants"("collectionId", "teamId");

-- CreateIndex
CREATE UNIQUE INDEX "content_grants_siteId_userId_key" ON "content_grants"("siteId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "content_grants_siteId_teamId_key" ON "content_grants"("siteId", "teamId");

-- AddForeignKey
ALTER TABLE "content_grants" ADD CONSTRAINT "content_grants_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "content_grants" ADD CONSTRAINT "content_grants_collectionId_fkey" FOREIGN KEY ("collectionId") REFERENCES "collections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "content_grants" ADD CONSTRAINT "content_grants_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "content_grants" ADD CONSTRAINT "content_grants_organizationId_userId_fkey" FOREIGN KEY ("organizationId", "userId") REFERENCES "members"("organizationId", "userId") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "content_grants" ADD CONSTRAINT "content_grants_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "teams"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Writes invalidate the cached answers of their scopes (prisma/generation-triggers.ts)
CREATE FUNCTION "content_grants_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT r."organizationId" FROM old_rows r));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "content_grants_bump_generations_insert" AFTER INSERT ON "content_grants" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "content_grants_bump_generations"();
CREATE TRIGGER "content_grants_bump_generations_update" AFTER UPDATE ON "content_grants" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "content_grants_bump_generations"();
CREATE TRIGGER "content_grants_bump_generations_delete" AFTER DELETE ON "content_grants" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "content_grants_bump_generations"();
