-- AlterTable (columns added in place: redefining "sites" would break the triggers of the tables that read it)
ALTER TABLE "sites" ADD COLUMN "visitorAuthBackend" TEXT NOT NULL DEFAULT 'custom';
ALTER TABLE "sites" ADD COLUMN "visitorAuthIntegration" TEXT;
ALTER TABLE "sites" ADD COLUMN "visitorAuthFallbackUrl" TEXT;
ALTER TABLE "sites" ADD COLUMN "visitorAuthLogoutUrl" TEXT;
