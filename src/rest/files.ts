import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/index.ts';
import type { FileStorage } from '../storage/files.ts';

/**
 * File bytes at their `downloadURL`: `/files/{versionId}/{name}`. The version id
 * is random and never reused, so the address itself is the permission (as
 * `<img src>` and downloads need, without a token) and the bytes behind it never
 * change: cacheable for good.
 */
export function registerFileDownloads(app: FastifyInstance, { database, storage }: { database: Database; storage: FileStorage | undefined }) {
  app.get<{ Params: { versionId: string; name: string } }>('/files/:versionId/:name', async (request, reply) => {
    const { versionId, name } = request.params;
    const missing = () => reply.code(404).send({ error: { code: 404, message: `File "${versionId}/${name}" was not found` } });
    const version = await database.db.fileVersion.findUnique({ where: { id: versionId } });
    if (!version || version.name !== name || !storage) return missing();
    const bytes = await storage.get(version.sha256);
    if (!bytes) return missing();
    return (
      reply
        .header('content-type', version.contentType)
        .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(version.name)}`)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        // Uploaded HTML or SVG must not run scripts on this origin.
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .send(bytes)
    );
  });

  // Exports (PDFs) by the digest of their bytes: unguessable, and never changing.
  app.get<{ Params: { sha256: string; name: string } }>('/exports/:sha256/:name', async (request, reply) => {
    const { sha256, name } = request.params;
    const bytes = /^[0-9a-f]{64}$/.test(sha256) && name.endsWith('.pdf') ? await storage?.get(sha256) : null;
    // The storage also holds uploads: only a PDF is served here.
    if (bytes?.subarray(0, 5).toString('latin1') !== '%PDF-')
      return reply.code(404).send({ error: { code: 404, message: `Export "${sha256}/${name}" was not found` } });
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(name)}`)
      .header('cache-control', 'private, max-age=31536000, immutable')
      .send(bytes);
  });
}
