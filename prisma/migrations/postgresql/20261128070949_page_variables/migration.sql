-- AlterTable
ALTER TABLE "page_versions" ADD COLUMN     "variables" JSONB;

