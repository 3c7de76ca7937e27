-- The one global generation becomes one per scope: drop its triggers first
DROP TRIGGER IF EXISTS "organizations_bump_generation" ON "organizations";
DROP TRIGGER IF EXISTS "organization_email_domains_bump_generation" ON "organization_email_domains";
DROP TRIGGER IF EXISTS "users_bump_generation" ON "users";
DROP TRIGGER IF EXISTS "members_bump_generation" ON "members";
DROP TRIGGER IF EXISTS "collections_bump_generation" ON "collections";
DROP TRIGGER IF EXISTS "spaces_bump_generation" ON "spaces";
DROP TRIGGER IF EXISTS "custom_fields_bump_generation" ON "custom_fields";
DROP TRIGGER IF EXISTS "space_custom_field_values_bump_generation" ON "space_custom_field_values";
DROP TRIGGER IF EXISTS "sites_bump_generation" ON "sites";
DROP TRIGGER IF EXISTS "site_section_groups_bump_generation" ON "site_section_groups";
DROP TRIGGER IF EXISTS "site_sections_bump_generation" ON "site_sections";
DROP TRIGGER IF EXISTS "site_spaces_bump_generation" ON "site_spaces";
DROP TRIGGER IF EXISTS "share_links_bump_generation" ON "share_links";
DROP FUNCTION IF EXISTS bump_data_generation();

-- DropTable
DROP TABLE "data_generation";

-- CreateTable
CREATE TABLE "data_generations" (
    "scope" TEXT NOT NULL,
    "version" BIGINT NOT NULL,

    CONSTRAINT "data_generations_pkey" PRIMARY KEY ("scope")
);


CREATE FUNCTION bump_data_generations(scopes TEXT[]) RETURNS void LANGUAGE sql AS $$
  -- In scope order, so that transactions bumping several scopes never wait on each other in a cycle.
  INSERT INTO "data_generations" ("scope", "version")
  SELECT DISTINCT s, 1 FROM unnest(scopes) s WHERE s IS NOT NULL ORDER BY s
  ON CONFLICT ("scope") DO UPDATE SET "version" = "data_generations"."version" + 1
$$;

-- Writes invalidate the cached answers of their scopes (prisma/generation-triggers.ts)
CREATE FUNCTION "organizations_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."id" FROM new_rows r));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."id" FROM new_rows r UNION SELECT r."id" FROM old_rows r));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."id" FROM old_rows r));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "organizations_bump_generations_insert" AFTER INSERT ON "organizations" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "organizations_bump_generations"();
CREATE TRIGGER "organizations_bump_generations_update" AFTER UPDATE ON "organizations" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "organizations_bump_generations"();
CREATE TRIGGER "organizations_bump_generations_delete" AFTER DELETE ON "organizations" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "organizations_bump_generations"();
CREATE FUNCTION "organization_email_domains_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT r."organizationId" FROM old_rows r));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "organization_email_domains_bump_generations_insert" AFTER INSERT ON "organization_email_domains" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "organization_email_domains_bump_generations"();
CREATE TRIGGER "organization_email_domains_bump_generations_update" AFTER UPDATE ON "organization_email_domains" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "organization_email_domains_bump_generations"();
CREATE TRIGGER "organization_email_domains_bump_generations_delete" AFTER DELETE ON "organization_email_domains" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "organization_email_domains_bump_generations"();
CREATE FUNCTION "users_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."id" FROM new_rows r UNION SELECT m."organizationId" FROM new_rows r JOIN "members" m ON m."userId" = r."id"));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."id" FROM new_rows r UNION SELECT m."organizationId" FROM new_rows r JOIN "members" m ON m."userId" = r."id" UNION SELECT r."id" FROM old_rows r UNION SELECT m."organizationId" FROM old_rows r JOIN "members" m ON m."userId" = r."id"));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."id" FROM old_rows r UNION SELECT m."organizationId" FROM old_rows r JOIN "members" m ON m."userId" = r."id"));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "users_bump_generations_insert" AFTER INSERT ON "users" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "users_bump_generations"();
CREATE TRIGGER "users_bump_generations_update" AFTER UPDATE ON "users" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "users_bump_generations"();
CREATE TRIGGER "users_bump_generations_delete" AFTER DELETE ON "users" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "users_bump_generations"();
CREATE FUNCTION "members_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT r."organizationId" FROM old_rows r));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "members_bump_generations_insert" AFTER INSERT ON "members" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "members_bump_generations"();
CREATE TRIGGER "members_bump_generations_update" AFTER UPDATE ON "members" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "members_bump_generations"();
CREATE TRIGGER "members_bump_generations_delete" AFTER DELETE ON "members" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "members_bump_generations"();
CREATE FUNCTION "collections_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT r."organizationId" FROM old_rows r));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "collections_bump_generations_insert" AFTER INSERT ON "collections" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "collections_bump_generations"();
CREATE TRIGGER "collections_bump_generations_update" AFTER UPDATE ON "collections" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "collections_bump_generations"();
CREATE TRIGGER "collections_bump_generations_delete" AFTER DELETE ON "collections" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "collections_bump_generations"();
CREATE FUNCTION "spaces_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT r."organizationId" FROM old_rows r));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "spaces_bump_generations_insert" AFTER INSERT ON "spaces" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "spaces_bump_generations"();
CREATE TRIGGER "spaces_bump_generations_update" AFTER UPDATE ON "spaces" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "spaces_bump_generations"();
CREATE TRIGGER "spaces_bump_generations_delete" AFTER DELETE ON "spaces" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "spaces_bump_generations"();
CREATE FUNCTION "custom_fields_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT r."organizationId" FROM old_rows r));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "custom_fields_bump_generations_insert" AFTER INSERT ON "custom_fields" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "custom_fields_bump_generations"();
CREATE TRIGGER "custom_fields_bump_generations_update" AFTER UPDATE ON "custom_fields" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "custom_fields_bump_generations"();
CREATE TRIGGER "custom_fields_bump_generations_delete" AFTER DELETE ON "custom_fields" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "custom_fields_bump_generations"();
CREATE FUNCTION "space_custom_field_values_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId"));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "space_custom_field_values_bump_generations_insert" AFTER INSERT ON "space_custom_field_values" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "space_custom_field_values_bump_generations"();
CREATE TRIGGER "space_custom_field_values_bump_generations_update" AFTER UPDATE ON "space_custom_field_values" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "space_custom_field_values_bump_generations"();
CREATE TRIGGER "space_custom_field_values_bump_generations_delete" AFTER DELETE ON "space_custom_field_values" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "space_custom_field_values_bump_generations"();
CREATE FUNCTION "sites_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT r."organizationId" FROM old_rows r));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "sites_bump_generations_insert" AFTER INSERT ON "sites" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "sites_bump_generations"();
CREATE TRIGGER "sites_bump_generations_update" AFTER UPDATE ON "sites" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "sites_bump_generations"();
CREATE TRIGGER "sites_bump_generations_delete" AFTER DELETE ON "sites" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "sites_bump_generations"();
CREATE FUNCTION "site_section_groups_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId"));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId" UNION SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId"));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId"));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "site_section_groups_bump_generations_insert" AFTER INSERT ON "site_section_groups" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "site_section_groups_bump_generations"();
CREATE TRIGGER "site_section_groups_bump_generations_update" AFTER UPDATE ON "site_section_groups" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "site_section_groups_bump_generations"();
CREATE TRIGGER "site_section_groups_bump_generations_delete" AFTER DELETE ON "site_section_groups" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "site_section_groups_bump_generations"();
CREATE FUNCTION "site_sections_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId"));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId" UNION SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId"));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId"));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "site_sections_bump_generations_insert" AFTER INSERT ON "site_sections" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "site_sections_bump_generations"();
CREATE TRIGGER "site_sections_bump_generations_update" AFTER UPDATE ON "site_sections" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "site_sections_bump_generations"();
CREATE TRIGGER "site_sections_bump_generations_delete" AFTER DELETE ON "site_sections" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "site_sections_bump_generations"();
CREATE FUNCTION "site_spaces_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId"));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId" UNION SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId"));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId"));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "site_spaces_bump_generations_insert" AFTER INSERT ON "site_spaces" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "site_spaces_bump_generations"();
CREATE TRIGGER "site_spaces_bump_generations_update" AFTER UPDATE ON "site_spaces" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "site_spaces_bump_generations"();
CREATE TRIGGER "site_spaces_bump_generations_delete" AFTER DELETE ON "site_spaces" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "site_spaces_bump_generations"();
CREATE FUNCTION "share_links_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId"));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId" UNION SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId"));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId"));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "share_links_bump_generations_insert" AFTER INSERT ON "share_links" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "share_links_bump_generations"();
CREATE TRIGGER "share_links_bump_generations_update" AFTER UPDATE ON "share_links" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "share_links_bump_generations"();
CREATE TRIGGER "share_links_bump_generations_delete" AFTER DELETE ON "share_links" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "share_links_bump_generations"();
