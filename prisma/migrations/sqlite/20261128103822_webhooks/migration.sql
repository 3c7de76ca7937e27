-- CreateTable
CREATE TABLE "webhook_subscriptions" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "createdById" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "previousSecret" TEXT,
    "previousSecretExpiresAt" DATETIME,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "disabledReason" TEXT,
    "failingSince" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "webhook_subscriptions_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "webhook_subscriptions_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organizationId" TEXT NOT NULL,
    "subscriptionId" TEXT NOT NULL,
    "messageId" TEXT NOT NULL,
    "eventType" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL,
    "lockedUntil" DATETIME,
    "lastResponseCode" INTEGER,
    "lastDurationMs" INTEGER,
    "lastError" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "webhook_deliveries_subscriptionId_fkey" FOREIGN KEY ("subscriptionId") REFERENCES "webhook_subscriptions" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "webhook_attempts" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "deliveryId" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "responseCode" INTEGER,
    "durationMs" INTEGER NOT NULL,
    "error" TEXT,
    "at" DATETIME NOT NULL,
    CONSTRAINT "webhook_attempts_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "webhook_deliveries" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "webhook_subscriptions_organizationId_createdAt_id_idx" ON "webhook_subscriptions"("organizationId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_nextAttemptAt_idx" ON "webhook_deliveries"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "webhook_deliveries_subscriptionId_createdAt_id_idx" ON "webhook_deliveries"("subscriptionId", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_attempts_deliveryId_attempt_key" ON "webhook_attempts"("deliveryId", "attempt");


-- Writes invalidate the cached answers of their scopes (prisma/generation-triggers.ts)
CREATE TRIGGER "webhook_subscriptions_bump_generations_insert" AFTER INSERT ON "webhook_subscriptions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "webhook_subscriptions_bump_generations_update" AFTER UPDATE ON "webhook_subscriptions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT NEW."organizationId" AS "scope" UNION SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
  ON CONFLICT ("scope") DO UPDATE SET "version" = "version" + 1;
END;
CREATE TRIGGER "webhook_subscriptions_bump_generations_delete" AFTER DELETE ON "webhook_subscriptions" BEGIN
  INSERT INTO "data_generations" ("scope", "version") SELECT "scope", 1 FROM (SELECT OLD."organizationId" AS "scope") WHERE "scope" IS NOT NULL
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
