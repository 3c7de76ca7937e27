-- CreateTable
CREATE TABLE "data_generation" (
    "id" INTEGER NOT NULL,
    "version" BIGINT NOT NULL,

    CONSTRAINT "data_generation_pkey" PRIMARY KEY ("id")
);


INSERT INTO "data_generation" ("id", "version") VALUES (1, 0);

CREATE FUNCTION bump_data_generation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "data_generation" SET "version" = "version" + 1 WHERE "id" = 1;
  RETURN NULL;
END $$;

-- Writes invalidate cached responses
CREATE TRIGGER "organizations_bump_generation" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "organizations"
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_generation();
CREATE TRIGGER "organization_email_domains_bump_generation" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "organization_email_domains"
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_generation();
CREATE TRIGGER "users_bump_generation" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "users"
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_generation();
CREATE TRIGGER "members_bump_generation" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "members"
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_generation();
CREATE TRIGGER "collections_bump_generation" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "collections"
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_generation();
CREATE TRIGGER "spaces_bump_generation" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "spaces"
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_generation();
CREATE TRIGGER "custom_fields_bump_generation" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "custom_fields"
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_generation();
CREATE TRIGGER "space_custom_field_values_bump_generation" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "space_custom_field_values"
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_generation();
CREATE TRIGGER "sites_bump_generation" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "sites"
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_generation();
CREATE TRIGGER "site_section_groups_bump_generation" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "site_section_groups"
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_generation();
CREATE TRIGGER "site_sections_bump_generation" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "site_sections"
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_generation();
CREATE TRIGGER "site_spaces_bump_generation" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "site_spaces"
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_generation();
CREATE TRIGGER "share_links_bump_generation" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "share_links"
    FOR EACH STATEMENT EXECUTE FUNCTION bump_data_generation();
