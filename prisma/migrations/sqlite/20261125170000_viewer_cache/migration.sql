-- A membership also belongs to its user, and a token to its user: a cached viewer is read again when either changes
-- (src/domain/users/viewer-cache.ts).
DROP TRIGGER "members_bump_generations_insert";
DROP TRIGGER "members_bump_generations_update";
DROP TRIGGER "members_bump_generations_delete";

-- Writes invalidate the cached answers of their scopes (prisma/generation-triggers.ts)
CREATE TRIGGER "members_bump_generations_insert" AFTER INSERT ON "members" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT NEW."userId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "members_bump_generations_update" AFTER UPDATE ON "members" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT NEW."userId" AS "scope" UNION SELECT OLD."organizationId" AS "scope" UNION SELECT OLD."userId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "members_bump_generations_delete" AFTER DELETE ON "members" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope" UNION SELECT OLD."userId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
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
