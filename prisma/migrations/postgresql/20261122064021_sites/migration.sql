-- AlterTable
-- Edited: existing organizations get a random visitor claims secret.
ALTER TABLE "organizations" ADD COLUMN     "visitorClaimsSecret" TEXT NOT NULL DEFAULT md5(random()::text || clock_timestamp()::text) || md5(random()::text);
ALTER TABLE "organizations" ALTER COLUMN "visitorClaimsSecret" DROP DEFAULT;

-- CreateTable
CREATE TABLE "sites" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "searchTitle" TEXT NOT NULL,
    "type" TEXT NOT NULL DEFAULT 'basic',
    "visibility" TEXT NOT NULL DEFAULT 'public',
    "published" BOOLEAN NOT NULL DEFAULT false,
    "hostname" TEXT,
    "basename" TEXT,
    "proxyOrigin" TEXT,
    "adaptiveContentEnabled" BOOLEAN NOT NULL DEFAULT false,
    "adaptiveSchema" JSONB,
    "adaptiveSchemaUpdatedAt" TIMESTAMP(3),
    "visitorAuthSecret" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "sites_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "site_section_groups" (
    "id" TEXT NOT NULL,
    "siteId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "icon" TEXT,
    "position" TEXT COLLATE "C" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "site_section_groups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "site_sections" (
    "id" TEXT NOT NULL,
    "siteId" TEXT NOT NULL,
    "sectionGroupId" TEXT,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "path" TEXT NOT NULL,
    "condition" TEXT,
    "icon" TEXT,
    "isDefault" BOOLEAN NOT NULL DEFAULT false,
    "position" TEXT COLLATE "C" NOT NULL,
    "topPosition" TEXT COLLATE "C" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "site_sections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "site_spaces" (
    "id" TEXT NOT NULL,
    "siteId" TEXT NOT NULL,
    "sectionId" TEXT,
    "spaceId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "condition" TEXT,
    "isDefault" BOOLEAN NOT NULL DEFAULT false,
    "position" TEXT COLLATE "C" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "site_spaces_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "share_links" (
    "id" TEXT NOT NULL,
    "siteId" TEXT NOT NULL,
    "name" TEXT,
    "key" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "share_links_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "sites_hostname_key" ON "sites"("hostname");

-- CreateIndex
CREATE INDEX "sites_organizationId_createdAt_id_idx" ON "sites"("organizationId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "site_section_groups_siteId_position_id_idx" ON "site_section_groups"("siteId", "position", "id");

-- CreateIndex
CREATE INDEX "site_sections_siteId_topPosition_position_id_idx" ON "site_sections"("siteId", "topPosition", "position", "id");

-- CreateIndex
CREATE INDEX "site_sections_sectionGroupId_position_id_idx" ON "site_sections"("sectionGroupId", "position", "id");

-- CreateIndex
CREATE UNIQUE INDEX "site_sections_siteId_path_key" ON "site_sections"("siteId", "path");

-- CreateIndex
CREATE INDEX "site_spaces_siteId_position_id_idx" ON "site_spaces"("siteId", "position", "id");

-- CreateIndex
CREATE INDEX "site_spaces_sectionId_position_id_idx" ON "site_spaces"("sectionId", "position", "id");

-- CreateIndex
CREATE INDEX "site_spaces_spaceId_idx" ON "site_spaces"("spaceId");

-- CreateIndex
CREATE UNIQUE INDEX "share_links_key_key" ON "share_links"("key");

-- CreateIndex
CREATE INDEX "share_links_siteId_createdAt_id_idx" ON "share_links"("siteId", "createdAt", "id");

-- AddForeignKey
ALTER TABLE "sites" ADD CONSTRAINT "sites_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "site_section_groups" ADD CONSTRAINT "site_section_groups_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "site_sections" ADD CONSTRAINT "site_sections_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "site_sections" ADD CONSTRAINT "site_sections_sectionGroupId_fkey" FOREIGN KEY ("sectionGroupId") REFERENCES "site_section_groups"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "site_spaces" ADD CONSTRAINT "site_spaces_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "site_spaces" ADD CONSTRAINT "site_spaces_sectionId_fkey" FOREIGN KEY ("sectionId") REFERENCES "site_sections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "site_spaces" ADD CONSTRAINT "site_spaces_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE CASCADE;

