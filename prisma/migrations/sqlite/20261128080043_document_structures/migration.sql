-- CreateTable
CREATE TABLE "document_structures" (
    "documentId" TEXT NOT NULL PRIMARY KEY,
    "modelVersion" INTEGER NOT NULL,
    "document" TEXT NOT NULL,
    CONSTRAINT "document_structures_documentId_fkey" FOREIGN KEY ("documentId") REFERENCES "documents" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

