-- AlterTable
ALTER TABLE "space_git_bindings" ADD COLUMN "lastSyncStartedAt" DATETIME;

