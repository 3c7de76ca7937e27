-- Writes also bump finer scopes: s:<space> for a space's row and content, o:<organization> for the organization's
-- own rows (prisma/generation-triggers.ts FINE_SCOPES), so that a cached answer that read one space
-- outlives writes in the organization's other spaces (src/http/response-cache.ts).
DROP TRIGGER "api_tokens_bump_generations_insert" ON "api_tokens";
DROP TRIGGER "api_tokens_bump_generations_update" ON "api_tokens";
DROP TRIGGER "api_tokens_bump_generations_delete" ON "api_tokens";
DROP FUNCTION "api_tokens_bump_generations"();
DROP TRIGGER "organizations_bump_generations_insert" ON "organizations";
DROP TRIGGER "organizations_bump_generations_update" ON "organizations";
DROP TRIGGER "organizations_bump_generations_delete" ON "organizations";
DROP FUNCTION "organizations_bump_generations"();
DROP TRIGGER "organization_email_domains_bump_generations_insert" ON "organization_email_domains";
DROP TRIGGER "organization_email_domains_bump_generations_update" ON "organization_email_domains";
DROP TRIGGER "organization_email_domains_bump_generations_delete" ON "organization_email_domains";
DROP FUNCTION "organization_email_domains_bump_generations"();
DROP TRIGGER "users_bump_generations_insert" ON "users";
DROP TRIGGER "users_bump_generations_update" ON "users";
DROP TRIGGER "users_bump_generations_delete" ON "users";
DROP FUNCTION "users_bump_generations"();
DROP TRIGGER "members_bump_generations_insert" ON "members";
DROP TRIGGER "members_bump_generations_update" ON "members";
DROP TRIGGER "members_bump_generations_delete" ON "members";
DROP FUNCTION "members_bump_generations"();
DROP TRIGGER "collections_bump_generations_insert" ON "collections";
DROP TRIGGER "collections_bump_generations_update" ON "collections";
DROP TRIGGER "collections_bump_generations_delete" ON "collections";
DROP FUNCTION "collections_bump_generations"();
DROP TRIGGER "spaces_bump_generations_insert" ON "spaces";
DROP TRIGGER "spaces_bump_generations_update" ON "spaces";
DROP TRIGGER "spaces_bump_generations_delete" ON "spaces";
DROP FUNCTION "spaces_bump_generations"();
DROP TRIGGER "custom_fields_bump_generations_insert" ON "custom_fields";
DROP TRIGGER "custom_fields_bump_generations_update" ON "custom_fields";
DROP TRIGGER "custom_fields_bump_generations_delete" ON "custom_fields";
DROP FUNCTION "custom_fields_bump_generations"();
DROP TRIGGER "teams_bump_generations_insert" ON "teams";
DROP TRIGGER "teams_bump_generations_update" ON "teams";
DROP TRIGGER "teams_bump_generations_delete" ON "teams";
DROP FUNCTION "teams_bump_generations"();
DROP TRIGGER "team_members_bump_generations_insert" ON "team_members";
DROP TRIGGER "team_members_bump_generations_update" ON "team_members";
DROP TRIGGER "team_members_bump_generations_delete" ON "team_members";
DROP FUNCTION "team_members_bump_generations"();
DROP TRIGGER "content_grants_bump_generations_insert" ON "content_grants";
DROP TRIGGER "content_grants_bump_generations_update" ON "content_grants";
DROP TRIGGER "content_grants_bump_generations_delete" ON "content_grants";
DROP FUNCTION "content_grants_bump_generations"();
DROP TRIGGER "comments_bump_generations_insert" ON "comments";
DROP TRIGGER "comments_bump_generations_update" ON "comments";
DROP TRIGGER "comments_bump_generations_delete" ON "comments";
DROP FUNCTION "comments_bump_generations"();
DROP TRIGGER "comment_replies_bump_generations_insert" ON "comment_replies";
DROP TRIGGER "comment_replies_bump_generations_update" ON "comment_replies";
DROP TRIGGER "comment_replies_bump_generations_delete" ON "comment_replies";
DROP FUNCTION "comment_replies_bump_generations"();
DROP TRIGGER "comment_reactions_bump_generations_insert" ON "comment_reactions";
DROP TRIGGER "comment_reactions_bump_generations_update" ON "comment_reactions";
DROP TRIGGER "comment_reactions_bump_generations_delete" ON "comment_reactions";
DROP FUNCTION "comment_reactions_bump_generations"();
DROP TRIGGER "invites_bump_generations_insert" ON "invites";
DROP TRIGGER "invites_bump_generations_update" ON "invites";
DROP TRIGGER "invites_bump_generations_delete" ON "invites";
DROP FUNCTION "invites_bump_generations"();
DROP TRIGGER "saml_providers_bump_generations_insert" ON "saml_providers";
DROP TRIGGER "saml_providers_bump_generations_update" ON "saml_providers";
DROP TRIGGER "saml_providers_bump_generations_delete" ON "saml_providers";
DROP FUNCTION "saml_providers_bump_generations"();
DROP TRIGGER "translation_settings_bump_generations_insert" ON "translation_settings";
DROP TRIGGER "translation_settings_bump_generations_update" ON "translation_settings";
DROP TRIGGER "translation_settings_bump_generations_delete" ON "translation_settings";
DROP FUNCTION "translation_settings_bump_generations"();
DROP TRIGGER "openapi_specs_bump_generations_insert" ON "openapi_specs";
DROP TRIGGER "openapi_specs_bump_generations_update" ON "openapi_specs";
DROP TRIGGER "openapi_specs_bump_generations_delete" ON "openapi_specs";
DROP FUNCTION "openapi_specs_bump_generations"();
DROP TRIGGER "openapi_spec_versions_bump_generations_insert" ON "openapi_spec_versions";
DROP TRIGGER "openapi_spec_versions_bump_generations_update" ON "openapi_spec_versions";
DROP TRIGGER "openapi_spec_versions_bump_generations_delete" ON "openapi_spec_versions";
DROP FUNCTION "openapi_spec_versions_bump_generations"();
DROP TRIGGER "space_custom_field_values_bump_generations_insert" ON "space_custom_field_values";
DROP TRIGGER "space_custom_field_values_bump_generations_update" ON "space_custom_field_values";
DROP TRIGGER "space_custom_field_values_bump_generations_delete" ON "space_custom_field_values";
DROP FUNCTION "space_custom_field_values_bump_generations"();
DROP TRIGGER "sites_bump_generations_insert" ON "sites";
DROP TRIGGER "sites_bump_generations_update" ON "sites";
DROP TRIGGER "sites_bump_generations_delete" ON "sites";
DROP FUNCTION "sites_bump_generations"();
DROP TRIGGER "site_section_groups_bump_generations_insert" ON "site_section_groups";
DROP TRIGGER "site_section_groups_bump_generations_update" ON "site_section_groups";
DROP TRIGGER "site_section_groups_bump_generations_delete" ON "site_section_groups";
DROP FUNCTION "site_section_groups_bump_generations"();
DROP TRIGGER "site_sections_bump_generations_insert" ON "site_sections";
DROP TRIGGER "site_sections_bump_generations_update" ON "site_sections";
DROP TRIGGER "site_sections_bump_generations_delete" ON "site_sections";
DROP FUNCTION "site_sections_bump_generations"();
DROP TRIGGER "site_spaces_bump_generations_insert" ON "site_spaces";
DROP TRIGGER "site_spaces_bump_generations_update" ON "site_spaces";
DROP TRIGGER "site_spaces_bump_generations_delete" ON "site_spaces";
DROP FUNCTION "site_spaces_bump_generations"();
DROP TRIGGER "share_links_bump_generations_insert" ON "share_links";
DROP TRIGGER "share_links_bump_generations_update" ON "share_links";
DROP TRIGGER "share_links_bump_generations_delete" ON "share_links";
DROP FUNCTION "share_links_bump_generations"();
DROP TRIGGER "site_redirects_bump_generations_insert" ON "site_redirects";
DROP TRIGGER "site_redirects_bump_generations_update" ON "site_redirects";
DROP TRIGGER "site_redirects_bump_generations_delete" ON "site_redirects";
DROP FUNCTION "site_redirects_bump_generations"();
DROP TRIGGER "revisions_bump_generations_insert" ON "revisions";
DROP TRIGGER "revisions_bump_generations_update" ON "revisions";
DROP TRIGGER "revisions_bump_generations_delete" ON "revisions";
DROP FUNCTION "revisions_bump_generations"();
DROP TRIGGER "page_versions_bump_generations_insert" ON "page_versions";
DROP TRIGGER "page_versions_bump_generations_update" ON "page_versions";
DROP TRIGGER "page_versions_bump_generations_delete" ON "page_versions";
DROP FUNCTION "page_versions_bump_generations"();
DROP TRIGGER "documents_bump_generations_insert" ON "documents";
DROP TRIGGER "documents_bump_generations_update" ON "documents";
DROP TRIGGER "documents_bump_generations_delete" ON "documents";
DROP FUNCTION "documents_bump_generations"();
DROP TRIGGER "file_versions_bump_generations_insert" ON "file_versions";
DROP TRIGGER "file_versions_bump_generations_update" ON "file_versions";
DROP TRIGGER "file_versions_bump_generations_delete" ON "file_versions";
DROP FUNCTION "file_versions_bump_generations"();
DROP TRIGGER "change_requests_bump_generations_insert" ON "change_requests";
DROP TRIGGER "change_requests_bump_generations_update" ON "change_requests";
DROP TRIGGER "change_requests_bump_generations_delete" ON "change_requests";
DROP FUNCTION "change_requests_bump_generations"();
DROP TRIGGER "space_git_syncs_bump_generations_insert" ON "space_git_syncs";
DROP TRIGGER "space_git_syncs_bump_generations_update" ON "space_git_syncs";
DROP TRIGGER "space_git_syncs_bump_generations_delete" ON "space_git_syncs";
DROP FUNCTION "space_git_syncs_bump_generations"();
DROP TRIGGER "space_git_bindings_bump_generations_insert" ON "space_git_bindings";
DROP TRIGGER "space_git_bindings_bump_generations_update" ON "space_git_bindings";
DROP TRIGGER "space_git_bindings_bump_generations_delete" ON "space_git_bindings";
DROP FUNCTION "space_git_bindings_bump_generations"();
DROP TRIGGER "change_request_reviews_bump_generations_insert" ON "change_request_reviews";
DROP TRIGGER "change_request_reviews_bump_generations_update" ON "change_request_reviews";
DROP TRIGGER "change_request_reviews_bump_generations_delete" ON "change_request_reviews";
DROP FUNCTION "change_request_reviews_bump_generations"();
DROP TRIGGER "change_request_reviewers_bump_generations_insert" ON "change_request_reviewers";
DROP TRIGGER "change_request_reviewers_bump_generations_update" ON "change_request_reviewers";
DROP TRIGGER "change_request_reviewers_bump_generations_delete" ON "change_request_reviewers";
DROP FUNCTION "change_request_reviewers_bump_generations"();
DROP TRIGGER "audit_events_bump_generations_insert" ON "audit_events";
DROP TRIGGER "audit_events_bump_generations_update" ON "audit_events";
DROP TRIGGER "audit_events_bump_generations_delete" ON "audit_events";
DROP FUNCTION "audit_events_bump_generations"();
DROP TRIGGER "webhook_subscriptions_bump_generations_insert" ON "webhook_subscriptions";
DROP TRIGGER "webhook_subscriptions_bump_generations_update" ON "webhook_subscriptions";
DROP TRIGGER "webhook_subscriptions_bump_generations_delete" ON "webhook_subscriptions";
DROP FUNCTION "webhook_subscriptions_bump_generations"();
DROP TRIGGER "webhook_deliveries_bump_generations_insert" ON "webhook_deliveries";
DROP TRIGGER "webhook_deliveries_bump_generations_update" ON "webhook_deliveries";
DROP TRIGGER "webhook_deliveries_bump_generations_delete" ON "webhook_deliveries";
DROP FUNCTION "webhook_deliveries_bump_generations"();

-- Writes invalidate the cached answers of their scopes (prisma/generation-triggers.ts)
CREATE FUNCTION "api_tokens_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."userId" FROM new_rows r));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."userId" FROM new_rows r UNION SELECT r."userId" FROM old_rows r));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."userId" FROM old_rows r));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "api_tokens_bump_generations_insert" AFTER INSERT ON "api_tokens" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "api_tokens_bump_generations"();
CREATE TRIGGER "api_tokens_bump_generations_update" AFTER UPDATE ON "api_tokens" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "api_tokens_bump_generations"();
CREATE TRIGGER "api_tokens_bump_generations_delete" AFTER DELETE ON "api_tokens" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "api_tokens_bump_generations"();
CREATE FUNCTION "organizations_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."id" FROM new_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."id" FROM new_rows r) AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."id" FROM new_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."id" FROM new_rows r) AS f(s) UNION SELECT r."id" FROM old_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."id" FROM old_rows r) AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."id" FROM old_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."id" FROM old_rows r) AS f(s)));
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
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM new_rows r) AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM new_rows r) AS f(s) UNION SELECT r."organizationId" FROM old_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM old_rows r) AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM old_rows r) AS f(s)));
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
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."id" FROM new_rows r UNION SELECT m."organizationId" FROM new_rows r JOIN "members" m ON m."userId" = r."id" UNION SELECT 'o:' || f.s FROM (SELECT m."organizationId" FROM new_rows r JOIN "members" m ON m."userId" = r."id") AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."id" FROM new_rows r UNION SELECT m."organizationId" FROM new_rows r JOIN "members" m ON m."userId" = r."id" UNION SELECT 'o:' || f.s FROM (SELECT m."organizationId" FROM new_rows r JOIN "members" m ON m."userId" = r."id") AS f(s) UNION SELECT r."id" FROM old_rows r UNION SELECT m."organizationId" FROM old_rows r JOIN "members" m ON m."userId" = r."id" UNION SELECT 'o:' || f.s FROM (SELECT m."organizationId" FROM old_rows r JOIN "members" m ON m."userId" = r."id") AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."id" FROM old_rows r UNION SELECT m."organizationId" FROM old_rows r JOIN "members" m ON m."userId" = r."id" UNION SELECT 'o:' || f.s FROM (SELECT m."organizationId" FROM old_rows r JOIN "members" m ON m."userId" = r."id") AS f(s)));
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
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT r."userId" FROM new_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM new_rows r) AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT r."userId" FROM new_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM new_rows r) AS f(s) UNION SELECT r."organizationId" FROM old_rows r UNION SELECT r."userId" FROM old_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM old_rows r) AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r UNION SELECT r."userId" FROM old_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM old_rows r) AS f(s)));
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
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM new_rows r) AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM new_rows r) AS f(s) UNION SELECT r."organizationId" FROM old_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM old_rows r) AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM old_rows r) AS f(s)));
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
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 's:' || f.s FROM (SELECT r."id" FROM new_rows r) AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 's:' || f.s FROM (SELECT r."id" FROM new_rows r) AS f(s) UNION SELECT r."organizationId" FROM old_rows r UNION SELECT 's:' || f.s FROM (SELECT r."id" FROM old_rows r) AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r UNION SELECT 's:' || f.s FROM (SELECT r."id" FROM old_rows r) AS f(s)));
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
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM new_rows r) AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM new_rows r) AS f(s) UNION SELECT r."organizationId" FROM old_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM old_rows r) AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM old_rows r) AS f(s)));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "custom_fields_bump_generations_insert" AFTER INSERT ON "custom_fields" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "custom_fields_bump_generations"();
CREATE TRIGGER "custom_fields_bump_generations_update" AFTER UPDATE ON "custom_fields" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "custom_fields_bump_generations"();
CREATE TRIGGER "custom_fields_bump_generations_delete" AFTER DELETE ON "custom_fields" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "custom_fields_bump_generations"();
CREATE FUNCTION "teams_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM new_rows r) AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM new_rows r) AS f(s) UNION SELECT r."organizationId" FROM old_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM old_rows r) AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM old_rows r) AS f(s)));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "teams_bump_generations_insert" AFTER INSERT ON "teams" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "teams_bump_generations"();
CREATE TRIGGER "teams_bump_generations_update" AFTER UPDATE ON "teams" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "teams_bump_generations"();
CREATE TRIGGER "teams_bump_generations_delete" AFTER DELETE ON "teams" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "teams_bump_generations"();
CREATE FUNCTION "team_members_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM new_rows r) AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM new_rows r) AS f(s) UNION SELECT r."organizationId" FROM old_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM old_rows r) AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM old_rows r) AS f(s)));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "team_members_bump_generations_insert" AFTER INSERT ON "team_members" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "team_members_bump_generations"();
CREATE TRIGGER "team_members_bump_generations_update" AFTER UPDATE ON "team_members" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "team_members_bump_generations"();
CREATE TRIGGER "team_members_bump_generations_delete" AFTER DELETE ON "team_members" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "team_members_bump_generations"();
CREATE FUNCTION "content_grants_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM new_rows r) AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM new_rows r) AS f(s) UNION SELECT r."organizationId" FROM old_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM old_rows r) AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM old_rows r) AS f(s)));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "content_grants_bump_generations_insert" AFTER INSERT ON "content_grants" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "content_grants_bump_generations"();
CREATE TRIGGER "content_grants_bump_generations_update" AFTER UPDATE ON "content_grants" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "content_grants_bump_generations"();
CREATE TRIGGER "content_grants_bump_generations_delete" AFTER DELETE ON "content_grants" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "content_grants_bump_generations"();
CREATE FUNCTION "comments_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM new_rows r) AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM new_rows r) AS f(s) UNION SELECT r."organizationId" FROM old_rows r UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM old_rows r) AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM old_rows r) AS f(s)));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "comments_bump_generations_insert" AFTER INSERT ON "comments" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "comments_bump_generations"();
CREATE TRIGGER "comments_bump_generations_update" AFTER UPDATE ON "comments" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "comments_bump_generations"();
CREATE TRIGGER "comments_bump_generations_delete" AFTER DELETE ON "comments" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "comments_bump_generations"();
CREATE FUNCTION "comment_replies_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 's:' || f.s FROM (SELECT p."spaceId" FROM new_rows r JOIN "comments" p ON p."id" = r."commentId") AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 's:' || f.s FROM (SELECT p."spaceId" FROM new_rows r JOIN "comments" p ON p."id" = r."commentId") AS f(s) UNION SELECT r."organizationId" FROM old_rows r UNION SELECT 's:' || f.s FROM (SELECT p."spaceId" FROM old_rows r JOIN "comments" p ON p."id" = r."commentId") AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r UNION SELECT 's:' || f.s FROM (SELECT p."spaceId" FROM old_rows r JOIN "comments" p ON p."id" = r."commentId") AS f(s)));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "comment_replies_bump_generations_insert" AFTER INSERT ON "comment_replies" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "comment_replies_bump_generations"();
CREATE TRIGGER "comment_replies_bump_generations_update" AFTER UPDATE ON "comment_replies" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "comment_replies_bump_generations"();
CREATE TRIGGER "comment_replies_bump_generations_delete" AFTER DELETE ON "comment_replies" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "comment_replies_bump_generations"();
CREATE FUNCTION "comment_reactions_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 's:' || f.s FROM (SELECT p."spaceId" FROM new_rows r JOIN "comments" p ON p."id" = r."commentId") AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 's:' || f.s FROM (SELECT p."spaceId" FROM new_rows r JOIN "comments" p ON p."id" = r."commentId") AS f(s) UNION SELECT r."organizationId" FROM old_rows r UNION SELECT 's:' || f.s FROM (SELECT p."spaceId" FROM old_rows r JOIN "comments" p ON p."id" = r."commentId") AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r UNION SELECT 's:' || f.s FROM (SELECT p."spaceId" FROM old_rows r JOIN "comments" p ON p."id" = r."commentId") AS f(s)));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "comment_reactions_bump_generations_insert" AFTER INSERT ON "comment_reactions" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "comment_reactions_bump_generations"();
CREATE TRIGGER "comment_reactions_bump_generations_update" AFTER UPDATE ON "comment_reactions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "comment_reactions_bump_generations"();
CREATE TRIGGER "comment_reactions_bump_generations_delete" AFTER DELETE ON "comment_reactions" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "comment_reactions_bump_generations"();
CREATE FUNCTION "invites_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM new_rows r) AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM new_rows r) AS f(s) UNION SELECT r."organizationId" FROM old_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM old_rows r) AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM old_rows r) AS f(s)));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "invites_bump_generations_insert" AFTER INSERT ON "invites" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "invites_bump_generations"();
CREATE TRIGGER "invites_bump_generations_update" AFTER UPDATE ON "invites" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "invites_bump_generations"();
CREATE TRIGGER "invites_bump_generations_delete" AFTER DELETE ON "invites" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "invites_bump_generations"();
CREATE FUNCTION "saml_providers_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM new_rows r) AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM new_rows r) AS f(s) UNION SELECT r."organizationId" FROM old_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM old_rows r) AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM old_rows r) AS f(s)));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "saml_providers_bump_generations_insert" AFTER INSERT ON "saml_providers" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "saml_providers_bump_generations"();
CREATE TRIGGER "saml_providers_bump_generations_update" AFTER UPDATE ON "saml_providers" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "saml_providers_bump_generations"();
CREATE TRIGGER "saml_providers_bump_generations_delete" AFTER DELETE ON "saml_providers" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "saml_providers_bump_generations"();
CREATE FUNCTION "translation_settings_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM new_rows r) AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM new_rows r) AS f(s) UNION SELECT r."organizationId" FROM old_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM old_rows r) AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM old_rows r) AS f(s)));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "translation_settings_bump_generations_insert" AFTER INSERT ON "translation_settings" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "translation_settings_bump_generations"();
CREATE TRIGGER "translation_settings_bump_generations_update" AFTER UPDATE ON "translation_settings" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "translation_settings_bump_generations"();
CREATE TRIGGER "translation_settings_bump_generations_delete" AFTER DELETE ON "translation_settings" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "translation_settings_bump_generations"();
CREATE FUNCTION "openapi_specs_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM new_rows r) AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM new_rows r) AS f(s) UNION SELECT r."organizationId" FROM old_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM old_rows r) AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM old_rows r) AS f(s)));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "openapi_specs_bump_generations_insert" AFTER INSERT ON "openapi_specs" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "openapi_specs_bump_generations"();
CREATE TRIGGER "openapi_specs_bump_generations_update" AFTER UPDATE ON "openapi_specs" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "openapi_specs_bump_generations"();
CREATE TRIGGER "openapi_specs_bump_generations_delete" AFTER DELETE ON "openapi_specs" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "openapi_specs_bump_generations"();
CREATE FUNCTION "openapi_spec_versions_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "openapi_specs" p ON p."id" = r."specId" UNION SELECT 'o:' || f.s FROM (SELECT p."organizationId" FROM new_rows r JOIN "openapi_specs" p ON p."id" = r."specId") AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "openapi_specs" p ON p."id" = r."specId" UNION SELECT 'o:' || f.s FROM (SELECT p."organizationId" FROM new_rows r JOIN "openapi_specs" p ON p."id" = r."specId") AS f(s) UNION SELECT p."organizationId" FROM old_rows r JOIN "openapi_specs" p ON p."id" = r."specId" UNION SELECT 'o:' || f.s FROM (SELECT p."organizationId" FROM old_rows r JOIN "openapi_specs" p ON p."id" = r."specId") AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "openapi_specs" p ON p."id" = r."specId" UNION SELECT 'o:' || f.s FROM (SELECT p."organizationId" FROM old_rows r JOIN "openapi_specs" p ON p."id" = r."specId") AS f(s)));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "openapi_spec_versions_bump_generations_insert" AFTER INSERT ON "openapi_spec_versions" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "openapi_spec_versions_bump_generations"();
CREATE TRIGGER "openapi_spec_versions_bump_generations_update" AFTER UPDATE ON "openapi_spec_versions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "openapi_spec_versions_bump_generations"();
CREATE TRIGGER "openapi_spec_versions_bump_generations_delete" AFTER DELETE ON "openapi_spec_versions" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "openapi_spec_versions_bump_generations"();
CREATE FUNCTION "space_custom_field_values_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM new_rows r) AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM new_rows r) AS f(s) UNION SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM old_rows r) AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM old_rows r) AS f(s)));
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
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM new_rows r) AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM new_rows r) AS f(s) UNION SELECT r."organizationId" FROM old_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM old_rows r) AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM old_rows r) AS f(s)));
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
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId" UNION SELECT 'o:' || f.s FROM (SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId") AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId" UNION SELECT 'o:' || f.s FROM (SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId") AS f(s) UNION SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId" UNION SELECT 'o:' || f.s FROM (SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId") AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId" UNION SELECT 'o:' || f.s FROM (SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId") AS f(s)));
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
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId" UNION SELECT 'o:' || f.s FROM (SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId") AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId" UNION SELECT 'o:' || f.s FROM (SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId") AS f(s) UNION SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId" UNION SELECT 'o:' || f.s FROM (SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId") AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId" UNION SELECT 'o:' || f.s FROM (SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId") AS f(s)));
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
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId" UNION SELECT 'o:' || f.s FROM (SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId") AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId" UNION SELECT 'o:' || f.s FROM (SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId") AS f(s) UNION SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId" UNION SELECT 'o:' || f.s FROM (SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId") AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId" UNION SELECT 'o:' || f.s FROM (SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId") AS f(s)));
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
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId" UNION SELECT 'o:' || f.s FROM (SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId") AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId" UNION SELECT 'o:' || f.s FROM (SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId") AS f(s) UNION SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId" UNION SELECT 'o:' || f.s FROM (SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId") AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId" UNION SELECT 'o:' || f.s FROM (SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId") AS f(s)));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "share_links_bump_generations_insert" AFTER INSERT ON "share_links" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "share_links_bump_generations"();
CREATE TRIGGER "share_links_bump_generations_update" AFTER UPDATE ON "share_links" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "share_links_bump_generations"();
CREATE TRIGGER "share_links_bump_generations_delete" AFTER DELETE ON "share_links" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "share_links_bump_generations"();
CREATE FUNCTION "site_redirects_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId" UNION SELECT 'o:' || f.s FROM (SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId") AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId" UNION SELECT 'o:' || f.s FROM (SELECT p."organizationId" FROM new_rows r JOIN "sites" p ON p."id" = r."siteId") AS f(s) UNION SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId" UNION SELECT 'o:' || f.s FROM (SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId") AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId" UNION SELECT 'o:' || f.s FROM (SELECT p."organizationId" FROM old_rows r JOIN "sites" p ON p."id" = r."siteId") AS f(s)));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "site_redirects_bump_generations_insert" AFTER INSERT ON "site_redirects" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "site_redirects_bump_generations"();
CREATE TRIGGER "site_redirects_bump_generations_update" AFTER UPDATE ON "site_redirects" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "site_redirects_bump_generations"();
CREATE TRIGGER "site_redirects_bump_generations_delete" AFTER DELETE ON "site_redirects" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "site_redirects_bump_generations"();
CREATE FUNCTION "revisions_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM new_rows r) AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM new_rows r) AS f(s) UNION SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM old_rows r) AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM old_rows r) AS f(s)));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "revisions_bump_generations_insert" AFTER INSERT ON "revisions" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "revisions_bump_generations"();
CREATE TRIGGER "revisions_bump_generations_update" AFTER UPDATE ON "revisions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "revisions_bump_generations"();
CREATE TRIGGER "revisions_bump_generations_delete" AFTER DELETE ON "revisions" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "revisions_bump_generations"();
CREATE FUNCTION "page_versions_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM new_rows r) AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM new_rows r) AS f(s) UNION SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM old_rows r) AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM old_rows r) AS f(s)));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "page_versions_bump_generations_insert" AFTER INSERT ON "page_versions" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "page_versions_bump_generations"();
CREATE TRIGGER "page_versions_bump_generations_update" AFTER UPDATE ON "page_versions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "page_versions_bump_generations"();
CREATE TRIGGER "page_versions_bump_generations_delete" AFTER DELETE ON "page_versions" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "page_versions_bump_generations"();
CREATE FUNCTION "documents_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM new_rows r) AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM new_rows r) AS f(s) UNION SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM old_rows r) AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM old_rows r) AS f(s)));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "documents_bump_generations_insert" AFTER INSERT ON "documents" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "documents_bump_generations"();
CREATE TRIGGER "documents_bump_generations_update" AFTER UPDATE ON "documents" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "documents_bump_generations"();
CREATE TRIGGER "documents_bump_generations_delete" AFTER DELETE ON "documents" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "documents_bump_generations"();
CREATE FUNCTION "file_versions_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM new_rows r) AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM new_rows r) AS f(s) UNION SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM old_rows r) AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM old_rows r) AS f(s)));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "file_versions_bump_generations_insert" AFTER INSERT ON "file_versions" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "file_versions_bump_generations"();
CREATE TRIGGER "file_versions_bump_generations_update" AFTER UPDATE ON "file_versions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "file_versions_bump_generations"();
CREATE TRIGGER "file_versions_bump_generations_delete" AFTER DELETE ON "file_versions" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "file_versions_bump_generations"();
CREATE FUNCTION "change_requests_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM new_rows r) AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM new_rows r) AS f(s) UNION SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM old_rows r) AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM old_rows r) AS f(s)));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "change_requests_bump_generations_insert" AFTER INSERT ON "change_requests" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "change_requests_bump_generations"();
CREATE TRIGGER "change_requests_bump_generations_update" AFTER UPDATE ON "change_requests" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "change_requests_bump_generations"();
CREATE TRIGGER "change_requests_bump_generations_delete" AFTER DELETE ON "change_requests" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "change_requests_bump_generations"();
CREATE FUNCTION "space_git_syncs_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM new_rows r) AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM new_rows r) AS f(s) UNION SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM old_rows r) AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM old_rows r) AS f(s)));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "space_git_syncs_bump_generations_insert" AFTER INSERT ON "space_git_syncs" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "space_git_syncs_bump_generations"();
CREATE TRIGGER "space_git_syncs_bump_generations_update" AFTER UPDATE ON "space_git_syncs" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "space_git_syncs_bump_generations"();
CREATE TRIGGER "space_git_syncs_bump_generations_delete" AFTER DELETE ON "space_git_syncs" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "space_git_syncs_bump_generations"();
CREATE FUNCTION "space_git_bindings_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM new_rows r) AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM new_rows r) AS f(s) UNION SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM old_rows r) AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM old_rows r) AS f(s)));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "space_git_bindings_bump_generations_insert" AFTER INSERT ON "space_git_bindings" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "space_git_bindings_bump_generations"();
CREATE TRIGGER "space_git_bindings_bump_generations_update" AFTER UPDATE ON "space_git_bindings" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "space_git_bindings_bump_generations"();
CREATE TRIGGER "space_git_bindings_bump_generations_delete" AFTER DELETE ON "space_git_bindings" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "space_git_bindings_bump_generations"();
CREATE FUNCTION "change_request_reviews_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM new_rows r) AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM new_rows r) AS f(s) UNION SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM old_rows r) AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM old_rows r) AS f(s)));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "change_request_reviews_bump_generations_insert" AFTER INSERT ON "change_request_reviews" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "change_request_reviews_bump_generations"();
CREATE TRIGGER "change_request_reviews_bump_generations_update" AFTER UPDATE ON "change_request_reviews" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "change_request_reviews_bump_generations"();
CREATE TRIGGER "change_request_reviews_bump_generations_delete" AFTER DELETE ON "change_request_reviews" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "change_request_reviews_bump_generations"();
CREATE FUNCTION "change_request_reviewers_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM new_rows r) AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM new_rows r) AS f(s) UNION SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM old_rows r) AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "spaces" p ON p."id" = r."spaceId" UNION SELECT 's:' || f.s FROM (SELECT r."spaceId" FROM old_rows r) AS f(s)));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "change_request_reviewers_bump_generations_insert" AFTER INSERT ON "change_request_reviewers" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "change_request_reviewers_bump_generations"();
CREATE TRIGGER "change_request_reviewers_bump_generations_update" AFTER UPDATE ON "change_request_reviewers" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "change_request_reviewers_bump_generations"();
CREATE TRIGGER "change_request_reviewers_bump_generations_delete" AFTER DELETE ON "change_request_reviewers" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "change_request_reviewers_bump_generations"();
CREATE FUNCTION "audit_events_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT r."organizationId" FROM old_rows r));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "audit_events_bump_generations_insert" AFTER INSERT ON "audit_events" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_bump_generations"();
CREATE TRIGGER "audit_events_bump_generations_update" AFTER UPDATE ON "audit_events" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_bump_generations"();
CREATE TRIGGER "audit_events_bump_generations_delete" AFTER DELETE ON "audit_events" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_bump_generations"();
CREATE FUNCTION "webhook_subscriptions_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM new_rows r) AS f(s)));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM new_rows r) AS f(s) UNION SELECT r."organizationId" FROM old_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM old_rows r) AS f(s)));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r UNION SELECT 'o:' || f.s FROM (SELECT r."organizationId" FROM old_rows r) AS f(s)));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "webhook_subscriptions_bump_generations_insert" AFTER INSERT ON "webhook_subscriptions" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "webhook_subscriptions_bump_generations"();
CREATE TRIGGER "webhook_subscriptions_bump_generations_update" AFTER UPDATE ON "webhook_subscriptions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "webhook_subscriptions_bump_generations"();
CREATE TRIGGER "webhook_subscriptions_bump_generations_delete" AFTER DELETE ON "webhook_subscriptions" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "webhook_subscriptions_bump_generations"();
CREATE FUNCTION "webhook_deliveries_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT r."organizationId" FROM old_rows r));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "webhook_deliveries_bump_generations_insert" AFTER INSERT ON "webhook_deliveries" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "webhook_deliveries_bump_generations"();
CREATE TRIGGER "webhook_deliveries_bump_generations_update" AFTER UPDATE ON "webhook_deliveries" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "webhook_deliveries_bump_generations"();
CREATE TRIGGER "webhook_deliveries_bump_generations_delete" AFTER DELETE ON "webhook_deliveries" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "webhook_deliveries_bump_generations"();
