-- CreateTable
CREATE TABLE "document_links" (
    "documentId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "target" TEXT NOT NULL,

    CONSTRAINT "document_links_pkey" PRIMARY KEY ("documentId","position")
);

-- CreateIndex
CREATE INDEX "document_links_kind_target_idx" ON "document_links"("kind", "target");

-- AddForeignKey
ALTER TABLE "document_links" ADD CONSTRAINT "document_links_documentId_fkey" FOREIGN KEY ("documentId") REFERENCES "documents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

