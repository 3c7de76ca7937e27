-- CreateTable
CREATE TABLE "comments" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "spaceId" TEXT NOT NULL,
    "changeRequestId" TEXT,
    "pageId" TEXT,
    "nodeId" TEXT,
    "postedById" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "postedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "editedAt" TIMESTAMP(3),
    "status" TEXT NOT NULL DEFAULT 'open',
    "resolvedAt" TIMESTAMP(3),
    "resolvedById" TEXT,

    CONSTRAINT "comments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "comment_replies" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "commentId" TEXT NOT NULL,
    "postedById" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "postedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "editedAt" TIMESTAMP(3),

    CONSTRAINT "comment_replies_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "comment_reactions" (
    "organizationId" TEXT NOT NULL,
    "commentId" TEXT NOT NULL,
    "replyId" TEXT,
    "targetId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "emoji" TEXT NOT NULL,
    "reactedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "comment_reactions_pkey" PRIMARY KEY ("targetId","userId","emoji")
);

-- CreateTable
CREATE TABLE "invites" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "email" TEXT,
    "role" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "usedAt" TIMESTAMP(3),

    CONSTRAINT "invites_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "saml_providers" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "ssoURL" TEXT,
    "entityID" TEXT,
    "certificate" TEXT,
    "defaultTeamId" TEXT,
    "defaultRole" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "saml_providers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "translation_settings" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "languages" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "translation_settings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "openapi_specs" (
    "id" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "sourceURL" TEXT,
    "sourceText" TEXT,
    "processingState" TEXT NOT NULL DEFAULT 'pending',
    "lastVersionId" TEXT,
    "lastProcessedAt" TIMESTAMP(3),
    "lastProcessErrorCode" TEXT,
    "lastProcessErrors" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "openapi_specs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "openapi_spec_versions" (
    "id" TEXT NOT NULL,
    "specId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "filesystem" JSONB NOT NULL,
    "digest" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "openapi_spec_versions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "comments_spaceId_changeRequestId_postedAt_id_idx" ON "comments"("spaceId", "changeRequestId", "postedAt", "id");

-- CreateIndex
CREATE INDEX "comments_changeRequestId_postedAt_id_idx" ON "comments"("changeRequestId", "postedAt", "id");

-- CreateIndex
CREATE INDEX "comment_replies_commentId_postedAt_id_idx" ON "comment_replies"("commentId", "postedAt", "id");

-- CreateIndex
CREATE INDEX "comment_reactions_commentId_idx" ON "comment_reactions"("commentId");

-- CreateIndex
CREATE INDEX "comment_reactions_replyId_idx" ON "comment_reactions"("replyId");

-- CreateIndex
CREATE INDEX "invites_organizationId_createdAt_id_idx" ON "invites"("organizationId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "saml_providers_organizationId_createdAt_id_idx" ON "saml_providers"("organizationId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "translation_settings_organizationId_createdAt_id_idx" ON "translation_settings"("organizationId", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "openapi_specs_organizationId_slug_key" ON "openapi_specs"("organizationId", "slug");

-- CreateIndex
CREATE INDEX "openapi_spec_versions_specId_createdAt_id_idx" ON "openapi_spec_versions"("specId", "createdAt", "id");

-- AddForeignKey
ALTER TABLE "comments" ADD CONSTRAINT "comments_spaceId_fkey" FOREIGN KEY ("spaceId") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comments" ADD CONSTRAINT "comments_changeRequestId_fkey" FOREIGN KEY ("changeRequestId") REFERENCES "change_requests"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comments" ADD CONSTRAINT "comments_postedById_fkey" FOREIGN KEY ("postedById") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comments" ADD CONSTRAINT "comments_resolvedById_fkey" FOREIGN KEY ("resolvedById") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comment_replies" ADD CONSTRAINT "comment_replies_commentId_fkey" FOREIGN KEY ("commentId") REFERENCES "comments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comment_replies" ADD CONSTRAINT "comment_replies_postedById_fkey" FOREIGN KEY ("postedById") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comment_reactions" ADD CONSTRAINT "comment_reactions_commentId_fkey" FOREIGN KEY ("commentId") REFERENCES "comments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comment_reactions" ADD CONSTRAINT "comment_reactions_replyId_fkey" FOREIGN KEY ("replyId") REFERENCES "comment_replies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "comment_reactions" ADD CONSTRAINT "comment_reactions_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invites" ADD CONSTRAINT "invites_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "saml_providers" ADD CONSTRAINT "saml_providers_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "saml_providers" ADD CONSTRAINT "saml_providers_defaultTeamId_fkey" FOREIGN KEY ("defaultTeamId") REFERENCES "teams"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "translation_settings" ADD CONSTRAINT "translation_settings_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "openapi_specs" ADD CONSTRAINT "openapi_specs_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "openapi_spec_versions" ADD CONSTRAINT "openapi_spec_versions_specId_fkey" FOREIGN KEY ("specId") REFERENCES "openapi_specs"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Writes invalidate the cached answers of their scopes (prisma/generation-triggers.ts)
CREATE FUNCTION "comments_bump_generations"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT r."organizationId" FROM old_rows r));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r));
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
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT r."organizationId" FROM old_rows r));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r));
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
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT r."organizationId" FROM old_rows r));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r));
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
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT r."organizationId" FROM old_rows r));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r));
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
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT r."organizationId" FROM old_rows r));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r));
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
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT r."organizationId" FROM old_rows r));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r));
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
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM new_rows r UNION SELECT r."organizationId" FROM old_rows r));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT r."organizationId" FROM old_rows r));
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
  IF TG_OP = 'INSERT' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "openapi_specs" p ON p."id" = r."specId"));
  ELSIF TG_OP = 'UPDATE' THEN PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM new_rows r JOIN "openapi_specs" p ON p."id" = r."specId" UNION SELECT p."organizationId" FROM old_rows r JOIN "openapi_specs" p ON p."id" = r."specId"));
  ELSE PERFORM bump_data_generations(ARRAY(SELECT p."organizationId" FROM old_rows r JOIN "openapi_specs" p ON p."id" = r."specId"));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "openapi_spec_versions_bump_generations_insert" AFTER INSERT ON "openapi_spec_versions" REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "openapi_spec_versions_bump_generations"();
CREATE TRIGGER "openapi_spec_versions_bump_generations_update" AFTER UPDATE ON "openapi_spec_versions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "openapi_spec_versions_bump_generations"();
CREATE TRIGGER "openapi_spec_versions_bump_generations_delete" AFTER DELETE ON "openapi_spec_versions" REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION "openapi_spec_versions_bump_generations"();
