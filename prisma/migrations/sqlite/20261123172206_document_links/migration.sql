-- CreateTable
CREATE TABLE "document_links" (
    "documentId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "target" TEXT NOT NULL,

    PRIMARY KEY ("documentId", "position"),
    CONSTRAINT "document_links_documentId_fkey" FOREIGN KEY ("documentId") REFERENCES "documents" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "document_links_kind_target_idx" ON "document_links"("kind", "target");

