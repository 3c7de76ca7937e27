-- AlterTable
ALTER TABLE "sites" ADD COLUMN     "visitorAuthBackend" TEXT NOT NULL DEFAULT 'custom',
ADD COLUMN     "visitorAuthFallbackUrl" TEXT,
ADD COLUMN     "visitorAuthIntegration" TEXT,
ADD COLUMN     "visitorAuthLogoutUrl" TEXT;

