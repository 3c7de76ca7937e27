-- Writes also bump finer scopes: s:<space> for a space's row and content, o:<organization> for the organization's
-- own rows (prisma/generation-triggers.ts FINE_SCOPES), so that a cached answer that read one space
-- outlives writes in the organization's other spaces (src/http/response-cache.ts).
DROP TRIGGER "api_tokens_bump_generations_insert";
DROP TRIGGER "api_tokens_bump_generations_update";
DROP TRIGGER "api_tokens_bump_generations_delete";
DROP TRIGGER "organizations_bump_generations_insert";
DROP TRIGGER "organizations_bump_generations_update";
DROP TRIGGER "organizations_bump_generations_delete";
DROP TRIGGER "organization_email_domains_bump_generations_insert";
DROP TRIGGER "organization_email_domains_bump_generations_update";
DROP TRIGGER "organization_email_domains_bump_generations_delete";
DROP TRIGGER "users_bump_generations_insert";
DROP TRIGGER "users_bump_generations_update";
DROP TRIGGER "users_bump_generations_delete";
DROP TRIGGER "members_bump_generations_insert";
DROP TRIGGER "members_bump_generations_update";
DROP TRIGGER "members_bump_generations_delete";
DROP TRIGGER "collections_bump_generations_insert";
DROP TRIGGER "collections_bump_generations_update";
DROP TRIGGER "collections_bump_generations_delete";
DROP TRIGGER "spaces_bump_generations_insert";
DROP TRIGGER "spaces_bump_generations_update";
DROP TRIGGER "spaces_bump_generations_delete";
DROP TRIGGER "custom_fields_bump_generations_insert";
DROP TRIGGER "custom_fields_bump_generations_update";
DROP TRIGGER "custom_fields_bump_generations_delete";
DROP TRIGGER "teams_bump_generations_insert";
DROP TRIGGER "teams_bump_generations_update";
DROP TRIGGER "teams_bump_generations_delete";
DROP TRIGGER "team_members_bump_generations_insert";
DROP TRIGGER "team_members_bump_generations_update";
DROP TRIGGER "team_members_bump_generations_delete";
DROP TRIGGER "content_grants_bump_generations_insert";
DROP TRIGGER "content_grants_bump_generations_update";
DROP TRIGGER "content_grants_bump_generations_delete";
DROP TRIGGER "comments_bump_generations_insert";
DROP TRIGGER "comments_bump_generations_update";
DROP TRIGGER "comments_bump_generations_delete";
DROP TRIGGER "comment_replies_bump_generations_insert";
DROP TRIGGER "comment_replies_bump_generations_update";
DROP TRIGGER "comment_replies_bump_generations_delete";
DROP TRIGGER "comment_reactions_bump_generations_insert";
DROP TRIGGER "comment_reactions_bump_generations_update";
DROP TRIGGER "comment_reactions_bump_generations_delete";
DROP TRIGGER "invites_bump_generations_insert";
DROP TRIGGER "invites_bump_generations_update";
DROP TRIGGER "invites_bump_generations_delete";
DROP TRIGGER "saml_providers_bump_generations_insert";
DROP TRIGGER "saml_providers_bump_generations_update";
DROP TRIGGER "saml_providers_bump_generations_delete";
DROP TRIGGER "translation_settings_bump_generations_insert";
DROP TRIGGER "translation_settings_bump_generations_update";
DROP TRIGGER "translation_settings_bump_generations_delete";
DROP TRIGGER "openapi_specs_bump_generations_insert";
DROP TRIGGER "openapi_specs_bump_generations_update";
DROP TRIGGER "openapi_specs_bump_generations_delete";
DROP TRIGGER "openapi_spec_versions_bump_generations_insert";
DROP TRIGGER "openapi_spec_versions_bump_generations_update";
DROP TRIGGER "openapi_spec_versions_bump_generations_delete";
DROP TRIGGER "space_custom_field_values_bump_generations_insert";
DROP TRIGGER "space_custom_field_values_bump_generations_update";
DROP TRIGGER "space_custom_field_values_bump_generations_delete";
DROP TRIGGER "sites_bump_generations_insert";
DROP TRIGGER "sites_bump_generations_update";
DROP TRIGGER "sites_bump_generations_delete";
DROP TRIGGER "site_section_groups_bump_generations_insert";
DROP TRIGGER "site_section_groups_bump_generations_update";
DROP TRIGGER "site_section_groups_bump_generations_delete";
DROP TRIGGER "site_sections_bump_generations_insert";
DROP TRIGGER "site_sections_bump_generations_update";
DROP TRIGGER "site_sections_bump_generations_delete";
DROP TRIGGER "site_spaces_bump_generations_insert";
DROP TRIGGER "site_spaces_bump_generations_update";
DROP TRIGGER "site_spaces_bump_generations_delete";
DROP TRIGGER "share_links_bump_generations_insert";
DROP TRIGGER "share_links_bump_generations_update";
DROP TRIGGER "share_links_bump_generations_delete";
DROP TRIGGER "site_redirects_bump_generations_insert";
DROP TRIGGER "site_redirects_bump_generations_update";
DROP TRIGGER "site_redirects_bump_generations_delete";
DROP TRIGGER "revisions_bump_generations_insert";
DROP TRIGGER "revisions_bump_generations_update";
DROP TRIGGER "revisions_bump_generations_delete";
DROP TRIGGER "page_versions_bump_generations_insert";
DROP TRIGGER "page_versions_bump_generations_update";
DROP TRIGGER "page_versions_bump_generations_delete";
DROP TRIGGER "documents_bump_generations_insert";
DROP TRIGGER "documents_bump_generations_update";
DROP TRIGGER "documents_bump_generations_delete";
DROP TRIGGER "file_versions_bump_generations_insert";
DROP TRIGGER "file_versions_bump_generations_update";
DROP TRIGGER "file_versions_bump_generations_delete";
DROP TRIGGER "change_requests_bump_generations_insert";
DROP TRIGGER "change_requests_bump_generations_update";
DROP TRIGGER "change_requests_bump_generations_delete";
DROP TRIGGER "space_git_syncs_bump_generations_insert";
DROP TRIGGER "space_git_syncs_bump_generations_update";
DROP TRIGGER "space_git_syncs_bump_generations_delete";
DROP TRIGGER "space_git_bindings_bump_generations_insert";
DROP TRIGGER "space_git_bindings_bump_generations_update";
DROP TRIGGER "space_git_bindings_bump_generations_delete";
DROP TRIGGER "change_request_reviews_bump_generations_insert";
DROP TRIGGER "change_request_reviews_bump_generations_update";
DROP TRIGGER "change_request_reviews_bump_generations_delete";
DROP TRIGGER "change_request_reviewers_bump_generations_insert";
DROP TRIGGER "change_request_reviewers_bump_generations_update";
DROP TRIGGER "change_request_reviewers_bump_generations_delete";
DROP TRIGGER "audit_events_bump_generations_insert";
DROP TRIGGER "audit_events_bump_generations_update";
DROP TRIGGER "audit_events_bump_generations_delete";
DROP TRIGGER "webhook_subscriptions_bump_generations_insert";
DROP TRIGGER "webhook_subscriptions_bump_generations_update";
DROP TRIGGER "webhook_subscriptions_bump_generations_delete";
DROP TRIGGER "webhook_deliveries_bump_generations_insert";
DROP TRIGGER "webhook_deliveries_bump_generations_update";
DROP TRIGGER "webhook_deliveries_bump_generations_delete";

-- Writes invalidate the cached answers of their scopes (prisma/generation-triggers.ts)
CREATE TRIGGER "api_tokens_bump_generations_insert" AFTER INSERT ON "api_tokens" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."userId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "api_tokens_bump_generations_update" AFTER UPDATE ON "api_tokens" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."userId" AS "scope" UNION SELECT OLD."userId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "api_tokens_bump_generations_delete" AFTER DELETE ON "api_tokens" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."userId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "organizations_bump_generations_insert" AFTER INSERT ON "organizations" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."id" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT NEW."id" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "organizations_bump_generations_update" AFTER UPDATE ON "organizations" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."id" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT NEW."id" AS "scope") UNION SELECT OLD."id" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT OLD."id" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "organizations_bump_generations_delete" AFTER DELETE ON "organizations" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."id" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT OLD."id" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "organization_email_domains_bump_generations_insert" AFTER INSERT ON "organization_email_domains" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT NEW."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "organization_email_domains_bump_generations_update" AFTER UPDATE ON "organization_email_domains" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT NEW."organizationId" AS "scope") UNION SELECT OLD."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT OLD."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "organization_email_domains_bump_generations_delete" AFTER DELETE ON "organization_email_domains" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT OLD."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "users_bump_generations_insert" AFTER INSERT ON "users" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."id" AS "scope" UNION SELECT m."organizationId" FROM "members" m WHERE m."userId" = NEW."id" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT m."organizationId" AS "scope" FROM "members" m WHERE m."userId" = NEW."id")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "users_bump_generations_update" AFTER UPDATE ON "users" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."id" AS "scope" UNION SELECT m."organizationId" FROM "members" m WHERE m."userId" = NEW."id" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT m."organizationId" AS "scope" FROM "members" m WHERE m."userId" = NEW."id") UNION SELECT OLD."id" AS "scope" UNION SELECT m."organizationId" FROM "members" m WHERE m."userId" = OLD."id" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT m."organizationId" AS "scope" FROM "members" m WHERE m."userId" = OLD."id")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "users_bump_generations_delete" AFTER DELETE ON "users" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."id" AS "scope" UNION SELECT m."organizationId" FROM "members" m WHERE m."userId" = OLD."id" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT m."organizationId" AS "scope" FROM "members" m WHERE m."userId" = OLD."id")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "members_bump_generations_insert" AFTER INSERT ON "members" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT NEW."userId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT NEW."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "members_bump_generations_update" AFTER UPDATE ON "members" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT NEW."userId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT NEW."organizationId" AS "scope") UNION SELECT OLD."organizationId" AS "scope" UNION SELECT OLD."userId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT OLD."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "members_bump_generations_delete" AFTER DELETE ON "members" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope" UNION SELECT OLD."userId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT OLD."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "collections_bump_generations_insert" AFTER INSERT ON "collections" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT NEW."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "collections_bump_generations_update" AFTER UPDATE ON "collections" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT NEW."organizationId" AS "scope") UNION SELECT OLD."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT OLD."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "collections_bump_generations_delete" AFTER DELETE ON "collections" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT OLD."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "spaces_bump_generations_insert" AFTER INSERT ON "spaces" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT NEW."id" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "spaces_bump_generations_update" AFTER UPDATE ON "spaces" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT NEW."id" AS "scope") UNION SELECT OLD."organizationId" AS "scope" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT OLD."id" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "spaces_bump_generations_delete" AFTER DELETE ON "spaces" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT OLD."id" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "custom_fields_bump_generations_insert" AFTER INSERT ON "custom_fields" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT NEW."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "custom_fields_bump_generations_update" AFTER UPDATE ON "custom_fields" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT NEW."organizationId" AS "scope") UNION SELECT OLD."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT OLD."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "custom_fields_bump_generations_delete" AFTER DELETE ON "custom_fields" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT OLD."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "teams_bump_generations_insert" AFTER INSERT ON "teams" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT NEW."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "teams_bump_generations_update" AFTER UPDATE ON "teams" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT NEW."organizationId" AS "scope") UNION SELECT OLD."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT OLD."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "teams_bump_generations_delete" AFTER DELETE ON "teams" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT OLD."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "team_members_bump_generations_insert" AFTER INSERT ON "team_members" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT NEW."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "team_members_bump_generations_update" AFTER UPDATE ON "team_members" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT NEW."organizationId" AS "scope") UNION SELECT OLD."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT OLD."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "team_members_bump_generations_delete" AFTER DELETE ON "team_members" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT OLD."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "content_grants_bump_generations_insert" AFTER INSERT ON "content_grants" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT NEW."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "content_grants_bump_generations_update" AFTER UPDATE ON "content_grants" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT NEW."organizationId" AS "scope") UNION SELECT OLD."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT OLD."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "content_grants_bump_generations_delete" AFTER DELETE ON "content_grants" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT OLD."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "comments_bump_generations_insert" AFTER INSERT ON "comments" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT NEW."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "comments_bump_generations_update" AFTER UPDATE ON "comments" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT NEW."spaceId" AS "scope") UNION SELECT OLD."organizationId" AS "scope" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT OLD."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "comments_bump_generations_delete" AFTER DELETE ON "comments" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT OLD."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "comment_replies_bump_generations_insert" AFTER INSERT ON "comment_replies" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT p."spaceId" AS "scope" FROM "comments" p WHERE p."id" = NEW."commentId")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "comment_replies_bump_generations_update" AFTER UPDATE ON "comment_replies" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT p."spaceId" AS "scope" FROM "comments" p WHERE p."id" = NEW."commentId") UNION SELECT OLD."organizationId" AS "scope" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT p."spaceId" AS "scope" FROM "comments" p WHERE p."id" = OLD."commentId")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "comment_replies_bump_generations_delete" AFTER DELETE ON "comment_replies" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT p."spaceId" AS "scope" FROM "comments" p WHERE p."id" = OLD."commentId")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "comment_reactions_bump_generations_insert" AFTER INSERT ON "comment_reactions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT p."spaceId" AS "scope" FROM "comments" p WHERE p."id" = NEW."commentId")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "comment_reactions_bump_generations_update" AFTER UPDATE ON "comment_reactions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT p."spaceId" AS "scope" FROM "comments" p WHERE p."id" = NEW."commentId") UNION SELECT OLD."organizationId" AS "scope" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT p."spaceId" AS "scope" FROM "comments" p WHERE p."id" = OLD."commentId")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "comment_reactions_bump_generations_delete" AFTER DELETE ON "comment_reactions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT p."spaceId" AS "scope" FROM "comments" p WHERE p."id" = OLD."commentId")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "invites_bump_generations_insert" AFTER INSERT ON "invites" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT NEW."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "invites_bump_generations_update" AFTER UPDATE ON "invites" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT NEW."organizationId" AS "scope") UNION SELECT OLD."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT OLD."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "invites_bump_generations_delete" AFTER DELETE ON "invites" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT OLD."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "saml_providers_bump_generations_insert" AFTER INSERT ON "saml_providers" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT NEW."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "saml_providers_bump_generations_update" AFTER UPDATE ON "saml_providers" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT NEW."organizationId" AS "scope") UNION SELECT OLD."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT OLD."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "saml_providers_bump_generations_delete" AFTER DELETE ON "saml_providers" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT OLD."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "translation_settings_bump_generations_insert" AFTER INSERT ON "translation_settings" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT NEW."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "translation_settings_bump_generations_update" AFTER UPDATE ON "translation_settings" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT NEW."organizationId" AS "scope") UNION SELECT OLD."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT OLD."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "translation_settings_bump_generations_delete" AFTER DELETE ON "translation_settings" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT OLD."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "openapi_specs_bump_generations_insert" AFTER INSERT ON "openapi_specs" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT NEW."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "openapi_specs_bump_generations_update" AFTER UPDATE ON "openapi_specs" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT NEW."organizationId" AS "scope") UNION SELECT OLD."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT OLD."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "openapi_specs_bump_generations_delete" AFTER DELETE ON "openapi_specs" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT OLD."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "openapi_spec_versions_bump_generations_insert" AFTER INSERT ON "openapi_spec_versions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "openapi_specs" p WHERE p."id" = NEW."specId" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT p."organizationId" AS "scope" FROM "openapi_specs" p WHERE p."id" = NEW."specId")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "openapi_spec_versions_bump_generations_update" AFTER UPDATE ON "openapi_spec_versions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "openapi_specs" p WHERE p."id" = NEW."specId" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT p."organizationId" AS "scope" FROM "openapi_specs" p WHERE p."id" = NEW."specId") UNION SELECT p."organizationId" AS "scope" FROM "openapi_specs" p WHERE p."id" = OLD."specId" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT p."organizationId" AS "scope" FROM "openapi_specs" p WHERE p."id" = OLD."specId")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "openapi_spec_versions_bump_generations_delete" AFTER DELETE ON "openapi_spec_versions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "openapi_specs" p WHERE p."id" = OLD."specId" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT p."organizationId" AS "scope" FROM "openapi_specs" p WHERE p."id" = OLD."specId")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "space_custom_field_values_bump_generations_insert" AFTER INSERT ON "space_custom_field_values" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT NEW."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "space_custom_field_values_bump_generations_update" AFTER UPDATE ON "space_custom_field_values" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT NEW."spaceId" AS "scope") UNION SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT OLD."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "space_custom_field_values_bump_generations_delete" AFTER DELETE ON "space_custom_field_values" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT OLD."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "sites_bump_generations_insert" AFTER INSERT ON "sites" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT NEW."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "sites_bump_generations_update" AFTER UPDATE ON "sites" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT NEW."organizationId" AS "scope") UNION SELECT OLD."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT OLD."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "sites_bump_generations_delete" AFTER DELETE ON "sites" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT OLD."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "site_section_groups_bump_generations_insert" AFTER INSERT ON "site_section_groups" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "site_section_groups_bump_generations_update" AFTER UPDATE ON "site_section_groups" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId") UNION SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "site_section_groups_bump_generations_delete" AFTER DELETE ON "site_section_groups" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "site_sections_bump_generations_insert" AFTER INSERT ON "site_sections" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "site_sections_bump_generations_update" AFTER UPDATE ON "site_sections" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId") UNION SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "site_sections_bump_generations_delete" AFTER DELETE ON "site_sections" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "site_spaces_bump_generations_insert" AFTER INSERT ON "site_spaces" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "site_spaces_bump_generations_update" AFTER UPDATE ON "site_spaces" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId") UNION SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "site_spaces_bump_generations_delete" AFTER DELETE ON "site_spaces" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "share_links_bump_generations_insert" AFTER INSERT ON "share_links" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "share_links_bump_generations_update" AFTER UPDATE ON "share_links" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId") UNION SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "share_links_bump_generations_delete" AFTER DELETE ON "share_links" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "site_redirects_bump_generations_insert" AFTER INSERT ON "site_redirects" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "site_redirects_bump_generations_update" AFTER UPDATE ON "site_redirects" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = NEW."siteId") UNION SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "site_redirects_bump_generations_delete" AFTER DELETE ON "site_redirects" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT p."organizationId" AS "scope" FROM "sites" p WHERE p."id" = OLD."siteId")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "revisions_bump_generations_insert" AFTER INSERT ON "revisions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT NEW."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "revisions_bump_generations_update" AFTER UPDATE ON "revisions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT NEW."spaceId" AS "scope") UNION SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT OLD."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "revisions_bump_generations_delete" AFTER DELETE ON "revisions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT OLD."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "page_versions_bump_generations_insert" AFTER INSERT ON "page_versions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT NEW."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "page_versions_bump_generations_update" AFTER UPDATE ON "page_versions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT NEW."spaceId" AS "scope") UNION SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT OLD."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "page_versions_bump_generations_delete" AFTER DELETE ON "page_versions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT OLD."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "documents_bump_generations_insert" AFTER INSERT ON "documents" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT NEW."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "documents_bump_generations_update" AFTER UPDATE ON "documents" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT NEW."spaceId" AS "scope") UNION SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT OLD."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "documents_bump_generations_delete" AFTER DELETE ON "documents" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT OLD."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "file_versions_bump_generations_insert" AFTER INSERT ON "file_versions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT NEW."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "file_versions_bump_generations_update" AFTER UPDATE ON "file_versions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT NEW."spaceId" AS "scope") UNION SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT OLD."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "file_versions_bump_generations_delete" AFTER DELETE ON "file_versions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT OLD."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "change_requests_bump_generations_insert" AFTER INSERT ON "change_requests" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT NEW."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "change_requests_bump_generations_update" AFTER UPDATE ON "change_requests" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT NEW."spaceId" AS "scope") UNION SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT OLD."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "change_requests_bump_generations_delete" AFTER DELETE ON "change_requests" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT OLD."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "space_git_syncs_bump_generations_insert" AFTER INSERT ON "space_git_syncs" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT NEW."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "space_git_syncs_bump_generations_update" AFTER UPDATE ON "space_git_syncs" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT NEW."spaceId" AS "scope") UNION SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT OLD."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "space_git_syncs_bump_generations_delete" AFTER DELETE ON "space_git_syncs" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT OLD."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "space_git_bindings_bump_generations_insert" AFTER INSERT ON "space_git_bindings" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT NEW."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "space_git_bindings_bump_generations_update" AFTER UPDATE ON "space_git_bindings" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT NEW."spaceId" AS "scope") UNION SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT OLD."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "space_git_bindings_bump_generations_delete" AFTER DELETE ON "space_git_bindings" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT OLD."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "change_request_reviews_bump_generations_insert" AFTER INSERT ON "change_request_reviews" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT NEW."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "change_request_reviews_bump_generations_update" AFTER UPDATE ON "change_request_reviews" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT NEW."spaceId" AS "scope") UNION SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT OLD."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "change_request_reviews_bump_generations_delete" AFTER DELETE ON "change_request_reviews" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT OLD."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "change_request_reviewers_bump_generations_insert" AFTER INSERT ON "change_request_reviewers" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT NEW."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "change_request_reviewers_bump_generations_update" AFTER UPDATE ON "change_request_reviewers" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = NEW."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT NEW."spaceId" AS "scope") UNION SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT OLD."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "change_request_reviewers_bump_generations_delete" AFTER DELETE ON "change_request_reviewers" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT p."organizationId" AS "scope" FROM "spaces" p WHERE p."id" = OLD."spaceId" UNION SELECT 's:' || "scope" AS "scope" FROM (SELECT OLD."spaceId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "audit_events_bump_generations_insert" AFTER INSERT ON "audit_events" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "audit_events_bump_generations_update" AFTER UPDATE ON "audit_events" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "audit_events_bump_generations_delete" AFTER DELETE ON "audit_events" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "webhook_subscriptions_bump_generations_insert" AFTER INSERT ON "webhook_subscriptions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT NEW."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "webhook_subscriptions_bump_generations_update" AFTER UPDATE ON "webhook_subscriptions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT NEW."organizationId" AS "scope") UNION SELECT OLD."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT OLD."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "webhook_subscriptions_bump_generations_delete" AFTER DELETE ON "webhook_subscriptions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope" UNION SELECT 'o:' || "scope" AS "scope" FROM (SELECT OLD."organizationId" AS "scope")) WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "webhook_deliveries_bump_generations_insert" AFTER INSERT ON "webhook_deliveries" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "webhook_deliveries_bump_generations_update" AFTER UPDATE ON "webhook_deliveries" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "webhook_deliveries_bump_generations_delete" AFTER DELETE ON "webhook_deliveries" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
