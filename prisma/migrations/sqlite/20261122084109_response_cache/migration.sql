-- CreateTable
CREATE TABLE "data_generation" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "version" BIGINT NOT NULL
);


INSERT INTO "data_generation" ("id", "version") VALUES (1, 0);

-- Writes invalidate cached responses
CREATE TRIGGER "organizations_bump_generation_insert" AFTER INSERT ON "organizations"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "organizations_bump_generation_update" AFTER UPDATE ON "organizations"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "organizations_bump_generation_delete" AFTER DELETE ON "organizations"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "organization_email_domains_bump_generation_insert" AFTER INSERT ON "organization_email_domains"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "organization_email_domains_bump_generation_update" AFTER UPDATE ON "organization_email_domains"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "organization_email_domains_bump_generation_delete" AFTER DELETE ON "organization_email_domains"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "users_bump_generation_insert" AFTER INSERT ON "users"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "users_bump_generation_update" AFTER UPDATE ON "users"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "users_bump_generation_delete" AFTER DELETE ON "users"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "members_bump_generation_insert" AFTER INSERT ON "members"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "members_bump_generation_update" AFTER UPDATE ON "members"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "members_bump_generation_delete" AFTER DELETE ON "members"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "collections_bump_generation_insert" AFTER INSERT ON "collections"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "collections_bump_generation_update" AFTER UPDATE ON "collections"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "collections_bump_generation_delete" AFTER DELETE ON "collections"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "spaces_bump_generation_insert" AFTER INSERT ON "spaces"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "spaces_bump_generation_update" AFTER UPDATE ON "spaces"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "spaces_bump_generation_delete" AFTER DELETE ON "spaces"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "custom_fields_bump_generation_insert" AFTER INSERT ON "custom_fields"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "custom_fields_bump_generation_update" AFTER UPDATE ON "custom_fields"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "custom_fields_bump_generation_delete" AFTER DELETE ON "custom_fields"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "space_custom_field_values_bump_generation_insert" AFTER INSERT ON "space_custom_field_values"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "space_custom_field_values_bump_generation_update" AFTER UPDATE ON "space_custom_field_values"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "space_custom_field_values_bump_generation_delete" AFTER DELETE ON "space_custom_field_values"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "sites_bump_generation_insert" AFTER INSERT ON "sites"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "sites_bump_generation_update" AFTER UPDATE ON "sites"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "sites_bump_generation_delete" AFTER DELETE ON "sites"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "site_section_groups_bump_generation_insert" AFTER INSERT ON "site_section_groups"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "site_section_groups_bump_generation_update" AFTER UPDATE ON "site_section_groups"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "site_section_groups_bump_generation_delete" AFTER DELETE ON "site_section_groups"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "site_sections_bump_generation_insert" AFTER INSERT ON "site_sections"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "site_sections_bump_generation_update" AFTER UPDATE ON "site_sections"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "site_sections_bump_generation_delete" AFTER DELETE ON "site_sections"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "site_spaces_bump_generation_insert" AFTER INSERT ON "site_spaces"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "site_spaces_bump_generation_update" AFTER UPDATE ON "site_spaces"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "site_spaces_bump_generation_delete" AFTER DELETE ON "site_spaces"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "share_links_bump_generation_insert" AFTER INSERT ON "share_links"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "share_links_bump_generation_update" AFTER UPDATE ON "share_links"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
CREATE TRIGGER "share_links_bump_generation_delete" AFTER DELETE ON "share_links"
  BEGIN UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1; END;
