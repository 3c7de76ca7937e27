-- Bumps are announced to every instance once committed (NOTIFY docs_gateway_generations), so that
-- each keeps the viewers behind tokens and the data generations in memory (src/domain/users/viewer-cache.ts).
CREATE OR REPLACE FUNCTION bump_data_generations(scopes TEXT[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  announced TEXT;
BEGIN
  -- In scope order, so that transactions bumping several scopes never wait on each other in a cycle.
  WITH bumped AS (
    INSERT INTO "data_generations" ("scope", "version")
    SELECT DISTINCT s, 1 FROM unnest(scopes) s WHERE s IS NOT NULL ORDER BY s
    ON CONFLICT ("scope") DO UPDATE SET "version" = "data_generations"."version" + 1
    RETURNING "scope", "version"
  )
  SELECT string_agg("scope" || ':' || "version", ',') INTO announced FROM bumped;
  IF announced IS NOT NULL THEN
    -- A notification holds at most 8,000 bytes: '*' tells listeners to forget every generation.
    PERFORM pg_notify('docs_gateway_generations', CASE WHEN octet_length(announced) > 7900 THEN '*' ELSE announced END);
  END IF;
END $$;

-- A membership also belongs to its user, and a token to its user: a cached viewer is read again when either changes.
DROP TRIGGER "members_bump_generations_insert" ON "members";
DROP TRIGGER "members_bump_generations_update" ON "members";
DROP TRIGGER "members_bump_generations_delete" ON "members";
DROP FUNCTION "members_bump_generations"();

-- Writes invalidate the cached answers of their scopes (prisma/generation-triggers.ts)
CREATE FUNCTION "members_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT r."userId" FROM new_rows r));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT r."userId" FROM new_rows r UNION SELECT r."organizationId" FROM old_rows r UNION SELECT r."userId" FROM old_rows r));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r UNION SELECT r."userId" FROM old_rows r));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "members_bump_generations_insert" AFTER INSERT ON "members" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "members_bump_generations"();
CREATE TRIGGER "members_bump_generations_update" AFTER UPDATE ON "members" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "members_bump_generations"();
CREATE TRIGGER "members_bump_generations_delete" AFTER DELETE ON "members" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "members_bump_generations"();
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
