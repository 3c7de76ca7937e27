-- The one global generation becomes one per scope: drop its triggers first
DROP TRIGGER IF EXISTS "organizations_bump_generation_insert";
DROP TRIGGER IF EXISTS "organizations_bump_generation_update";
DROP TRIGGER IF EXISTS "organizations_bump_generation_delete";
DROP TRIGGER IF EXISTS "organization_email_domains_bump_generation_insert";
DROP TRIGGER IF EXISTS "organization_email_domains_bump_generation_update";
DROP TRIGGER IF EXISTS "organization_email_domains_bump_generation_delete";
DROP TRIGGER IF EXISTS "users_bump_generation_insert";
DROP TRIGGER IF EXISTS "users_bump_generation_update";
DROP TRIGGER IF EXISTS "users_bump_generation_delete";
DROP TRIGGER IF EXISTS "members_bump_generation_insert";
DROP TRIGGER IF EXISTS "members_bump_generation_update";
DROP TRIGGER IF EXISTS "members_bump_generation_delete";
DROP TRIGGER IF EXISTS "collections_bump_generation_insert";
DROP TRIGGER IF EXISTS "collections_bump_generation_update";
DROP TRIGGER IF EXISTS "collections_bump_generation_delete";
DROP TRIGGER IF EXISTS "spaces_bump_generation_insert";
DROP TRIGGER IF EXISTS "spaces_bump_generation_update";
DROP TRIGGER IF EXISTS "spaces_bump_generation_delete";
DROP TRIGGER IF EXISTS "custom_fields_bump_generation_insert";
DROP TRIGGER IF EXISTS "custom_fields_bump_generation_update";
DROP TRIGGER IF EXISTS "custom_fields_bump_generation_delete";
DROP TRIGGER IF EXISTS "space_custom_field_values_bump_generation_insert";
DROP TRIGGER IF EXISTS "space_custom_field_values_bump_generation_update";
DROP TRIGGER IF EXISTS "space_custom_field_values_bump_generation_delete";
DROP TRIGGER IF EXISTS "sites_bump_generation_insert";
DROP TRIGGER IF EXISTS "sites_bump_generation_update";
DROP TRIGGER IF EXISTS "sites_bump_generation_delete";
DROP TRIGGER IF EXISTS "site_section_groups_bump_generation_insert";
DROP TRIGGER IF EXISTS "site_section_groups_bump_generation_update";
DROP TRIGGER IF EXISTS "site_section_groups_bump_generation_delete";
DROP TRIGGER IF EXISTS "site_sections_bump_generation_insert";
DROP TRIGGER IF EXISTS "site_sections_bump_generation_update";
DROP TRIGGER IF EXISTS "site_sections_bump_generation_delete";
DROP TRIGGER IF EXISTS "site_spaces_bump_generation_insert";
DROP TRIGGER IF EXISTS "site_spaces_bump_generation_update";
DROP TRIGGER IF EXISTS "site_spaces_bump_generation_delete";
DROP TRIGGER IF EXISTS "share_links_bump_generation_insert";
DROP TRIGGER IF EXISTS "share_links_bump_generation_update";
DROP TRIGGER IF EXISTS "share_links_bump_generation_delete";

-- DropTable
PRAGMA foreign_keys=off;
DROP TABLE "data_generation";
PRAGMA foreign_keys=on;

-- CreateTable
CREATE TABLE "data_generations" (
    "scope" TEXT NOT NULL PRIMARY KEY,
    "version" BIGINT NOT NULL
);


-- Writes invalidate the cached answers of their scopes (prisma/generation-triggers.ts)
CREATE TRIGGER "organizations_bump_generations_insert" AFTER INSERT ON "organizations" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."id" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "organizations_bump_generations_update" AFTER UPDATE ON "organizations" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."id" AS "scope" UNION SELECT OLD."id" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "organizations_bump_generations_delete" AFTER DELETE ON "organizations" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."id" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "organization_email_domains_bump_generations_insert" AFTER INSERT ON "organization_email_domains" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "organization_email_domains_bump_generations_update" AFTER UPDATE ON "organization_email_domains" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "organization_email_domains_bump_generations_delete" AFTER DELETE ON "organization_email_domains" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "users_bump_generations_insert" AFTER INSERT ON "users" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."id" AS "scope" UNION SELECT m."organizationId" FROM "members" m WHERE m."userId" = NEW."id") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "users_bump_generations_update" AFTER UPDATE ON "users" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."id" AS "scope" UNION SELECT m."organizationId" FROM "members" m WHERE m."userId" = NEW."id" UNION SELECT OLD."id" AS "scope" UNION SELECT m."organizationId" FROM "members" m WHERE m."userId" = OLD."id") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "users_bump_generations_delete" AFTER DELETE ON "users" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."id" AS "scope" UNION SELECT m."organizationId" FROM "members" m WHERE m."userId" = OLD."id") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "members_bump_generations_insert" AFTER INSERT ON "members" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "members_bump_generations_update" AFTER UPDATE ON "members" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "members_bump_generations_delete" AFTER DELETE ON "members" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "collections_bump_generations_insert" AFTER INSERT ON "collections" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "collections_bump_generations_update" AFTER UPDATE ON "collections" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "collections_bump_generations_delete" AFTER DELETE ON "collections" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "spaces_bump_generations_insert" AFTER INSERT ON "spaces" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "spaces_bump_generations_update" AFTER UPDATE ON "spaces" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "spaces_bump_generations_delete" AFTER DELETE ON "spaces" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "custom_fields_bump_generations_insert" AFTER INSERT ON "custom_fields" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "custom_fields_bump_generations_update" AFTER UPDATE ON "custom_fields" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "custom_fields_bump_generations_delete" AFTER DELETE ON "custom_fields" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "space_custom_field_values_bump_generations_insert" AFTER INSERT ON "space_custom_field_values" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "space_custom_field_values_bump_generations_update" AFTER UPDATE ON "space_custom_field_values" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "space_custom_field_values_bump_generations_delete" AFTER DELETE ON "space_custom_field_values" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "sites_bump_generations_insert" AFTER INSERT ON "sites" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "sites_bump_generations_update" AFTER UPDATE ON "sites" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "sites_bump_generations_delete" AFTER DELETE ON "sites" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "site_section_groups_bump_generations_insert" AFTER INSERT ON "site_section_groups" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "site_section_groups_bump_generations_update" AFTER UPDATE ON "site_section_groups" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId" UNION SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "site_section_groups_bump_generations_delete" AFTER DELETE ON "site_section_groups" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "site_sections_bump_generations_insert" AFTER INSERT ON "site_sections" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "site_sections_bump_generations_update" AFTER UPDATE ON "site_sections" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId" UNION SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "site_sections_bump_generations_delete" AFTER DELETE ON "site_sections" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "site_spaces_bump_generations_insert" AFTER INSERT ON "site_spaces" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "site_spaces_bump_generations_update" AFTER UPDATE ON "site_spaces" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId" UNION SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "site_spaces_bump_generations_delete" AFTER DELETE ON "site_spaces" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "share_links_bump_generations_insert" AFTER INSERT ON "share_links" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "share_links_bump_generations_update" AFTER UPDATE ON "share_links" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId" UNION SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "share_links_bump_generations_delete" AFTER DELETE ON "share_links" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
