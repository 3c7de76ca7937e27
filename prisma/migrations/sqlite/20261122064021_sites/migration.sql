-- CreateTable
CREATE TABLE "sites" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "adaptiveSchemaUpdatedAt" DATETIME,
    "visitorAuthSecret" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "sites_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "site_section_groups" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "siteId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "icon" TEXT,
    "position" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "site_section_groups_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "sites" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "site_sections" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "siteId" TEXT NOT NULL,
    "sectionGroupId" TEXT,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "path" TEXT NOT NULL,
    "condition" TEXT,
    "icon" TEXT,
    "isDefault" BOOLEAN NOT NULL DEFAULT false,
    "position" TEXT NOT NULL,
    "topPosition" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "site_sections_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "sites" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "site_sections_sectionGroupId_fkey" FOREIGN KEY ("sectionGroupId") REFERENCES "site_section_groups" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "site_spaces" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "siteId" TEXT NOT NULL,
    "sectionId" TEXT,
    "spaceId" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "condition" TEXT,
    "isDefault" BOOLEAN NOT NULL DEFAULT false,
    "position" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "site_spaces_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "sites" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "site_spaces_sectionId_fkey" FOREIGN KEY ("sectionId") REFERENCES "site_sections" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "site_spaces_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "spaces" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "share_links" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "siteId" TEXT NOT NULL,
    "name" TEXT,
    "key" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "share_links_siteId_fkey" FOREIGN KEY ("siteId") REFERENCES "sites" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_organizations" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "title" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "hostname" TEXT,
    "type" TEXT NOT NULL DEFAULT 'business',
    "useCase" TEXT,
    "communityType" TEXT,
    "defaultRole" TEXT,
    "defaultContentSiteId" TEXT,
    "logo" TEXT,
    "sso" BOOLEAN NOT NULL DEFAULT false,
    "ai" BOOLEAN NOT NULL DEFAULT false,
    "inviteLinks" BOOLEAN NOT NULL DEFAULT true,
    "plan" TEXT NOT NULL DEFAULT 'free',
    "mergeRules" JSONB NOT NULL,
    "visitorClaimsSecret" TEXT NOT NULL
);
-- Edited: existing organizations get a random visitor claims secret.
INSERT INTO "new_organizations" ("ai", "communityType", "createdAt", "defaultContentSiteId", "defaultRole", "hostname", "id", "inviteLinks", "logo", "mergeRules", "plan", "sso", "title", "type", "updatedAt", "useCase", "visitorClaimsSecret") SELECT "ai", "communityType", "createdAt", "defaultContentSiteId", "defaultRole", "hostname", "id", "inviteLinks", "logo", "mergeRules", "plan", "sso", "title", "type", "updatedAt", "useCase", lower(hex(randomblob(32))) FROM "organizations";
DROP TABLE "organizations";
ALTER TABLE "new_organizations" RENAME TO "organizations";
CREATE UNIQUE INDEX "organizations_hostname_key" ON "organizations"("hostname");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

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

