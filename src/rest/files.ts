import { Readable } from 'node:stream';
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
    const stored = await storage.open(version.sha256);
    if (!stored) return missing();
    return (
      reply
        .header('content-type', version.contentType)
        .header('content-length', stored.size)
        .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(version.name)}`)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        // Uploaded HTML or SVG must not run scripts on this origin.
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .send(stored.stream)
    );
  });

  // Exports (PDFs) by the digest of their bytes: unguessable, and never changing.
  app.get<{ Params: { sha256: string; name: string } }>('/exports/:sha256/:name', async (request, reply) => {
    const { sha256, name } = request.params;
    const stored = /^[0-9a-f]{64}$/.test(sha256) && name.endsWith('.pdf') ? await storage?.open(sha256) : null;
    // The storage also holds uploads: only a PDF is served here, known by its first bytes.
    const pdf = stored ? await startingWith(stored.stream, '%PDF-') : null;
    if (!stored || !pdf) return reply.code(404).send({ error: { code: 404, message: `Export "${sha256}/${name}" was not found` } });
    return reply
      .header('content-type', 'application/pdf')
      .header('content-length', stored.size)
      .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(name)}`)
      .header('cache-control', 'private, max-age=31536000, immutable')
      .send(pdf);
  });
}

/**
 * The stream again, whole, when its bytes start with `prefix`; null (and the stream closed) otherwise.
 * Reads only as far as the prefix: the rest is streamed on.
 */
async function startingWith(stream: Readable, prefix: string): Promise<Readable | null> {
  const expected = Buffer.from(prefix, 'latin1');
  const head: Buffer[] = [];
  let length = 0;
  const chunks = stream[Symbol.asyncIterator]();
  while (length < expected.length) {
    const next = await chunks.next();
    if (next.done) break;
    head.push(next.value as Buffer);
    length += (next.value as Buffer).length;
  }
  if (!Buffer.concat(head).subarray(0, expected.length).equals(expected)) {
    stream.destroy();
    return null;
  }
  return Readable.from(
    (async function* () {
      try {
        yield* head;
        for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value as Buffer;
      } finally {
        // A client gone mid-download: the file (or the bucket's answer) is let go.
        await chunks.return?.();
      }
    })(),
    { objectMode: false },
  );
}
