-- CreateTable
CREATE TABLE "saml_requests" (
    "id" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "redirect" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "saml_requests_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "saml_used_assertions" (
    "providerId" TEXT NOT NULL,
    "assertionId" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "saml_used_assertions_pkey" PRIMARY KEY ("providerId","assertionId")
);

-- CreateTable
CREATE TABLE "saml_identities" (
    "providerId" TEXT NOT NULL,
    "nameID" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "saml_identities_pkey" PRIMARY KEY ("providerId","nameID")
);

-- CreateIndex
CREATE INDEX "saml_requests_providerId_idx" ON "saml_requests"("providerId");

-- CreateIndex
CREATE INDEX "saml_requests_expiresAt_idx" ON "saml_requests"("expiresAt");

-- CreateIndex
CREATE INDEX "saml_used_assertions_expiresAt_idx" ON "saml_used_assertions"("expiresAt");

-- CreateIndex
CREATE INDEX "saml_identities_userId_idx" ON "saml_identities"("userId");

-- AddForeignKey
ALTER TABLE "saml_requests" ADD CONSTRAINT "saml_requests_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "saml_providers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "saml_used_assertions" ADD CONSTRAINT "saml_used_assertions_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "saml_providers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "saml_identities" ADD CONSTRAINT "saml_identities_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "saml_providers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "saml_identities" ADD CONSTRAINT "saml_identities_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

