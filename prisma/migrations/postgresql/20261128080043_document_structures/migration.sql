-- CreateTable
CREATE TABLE "document_structures" (
    "documentId" TEXT NOT NULL,
    "modelVersion" INTEGER NOT NULL,
    "document" TEXT NOT NULL,

    CONSTRAINT "document_structures_pkey" PRIMARY KEY ("documentId")
);

-- AddForeignKey
ALTER TABLE "document_structures" ADD CONSTRAINT "document_structures_documentId_fkey" FOREIGN KEY ("documentId") REFERENCES "documents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

