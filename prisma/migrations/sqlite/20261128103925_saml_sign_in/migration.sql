-- CreateTable
CREATE TABLE "saml_requests" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "providerId" TEXT NOT NULL,
    "redirect" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,
    CONSTRAINT "saml_requests_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "saml_providers" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "saml_used_assertions" (
    "providerId" TEXT NOT NULL,
    "assertionId" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,

    PRIMARY KEY ("providerId", "assertionId"),
    CONSTRAINT "saml_used_assertions_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "saml_providers" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "saml_identities" (
    "providerId" TEXT NOT NULL,
    "nameID" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("providerId", "nameID"),
    CONSTRAINT "saml_identities_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "saml_providers" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "saml_identities_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "saml_requests_providerId_idx" ON "saml_requests"("providerId");

-- CreateIndex
CREATE INDEX "saml_requests_expiresAt_idx" ON "saml_requests"("expiresAt");

-- CreateIndex
CREATE INDEX "saml_used_assertions_expiresAt_idx" ON "saml_used_assertions"("expiresAt");

-- CreateIndex
CREATE INDEX "saml_identities_userId_idx" ON "saml_identities"("userId");

