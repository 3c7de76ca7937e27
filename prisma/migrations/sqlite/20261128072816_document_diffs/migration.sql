-- CreateTable
CREATE TABLE "document_diffs" (
    "beforeId" TEXT NOT NULL,
    "afterId" TEXT NOT NULL,
    "hunks" TEXT,

    PRIMARY KEY ("beforeId", "afterId"),
    CONSTRAINT "document_diffs_beforeId_fkey" FOREIGN KEY ("beforeId") REFERENCES "documents" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "document_diffs_afterId_fkey" FOREIGN KEY ("afterId") REFERENCES "documents" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "document_diffs_afterId_idx" ON "document_diffs"("afterId");

