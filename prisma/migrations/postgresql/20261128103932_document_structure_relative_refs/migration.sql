-- AlterTable
ALTER TABLE "document_structures" ADD COLUMN     "relativeRefs" BOOLEAN;

