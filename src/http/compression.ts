import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';

/**
 * How answers are compressed (@fastify/compress, registered in app.ts), in one
 * place: the response cache compresses what it keeps the same way, once.
 */
export const COMPRESSION = {
  /** Smaller answers go as they are. */
  threshold: 1024,
  encodings: ['br', 'gzip'] as Array<'br' | 'gzip'>,
};

/** @fastify/compress's default: quality 11 costs far more time for little gain. */
const BROTLI_QUALITY = 4;

const negotiator = new Negotiator<'br' | 'gzip'>({ supportedValues: COMPRESSION.encodings });

/** The encoding @fastify/compress would answer `Accept-Encoding` with, if any (`*` and `x-gzip` read as gzip, as it reads them). */
export function negotiatedEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | undefined {
  if (!acceptEncoding) return undefined;
  return negotiator.negotiate(acceptEncoding.toLowerCase().replace(/\*|x-gzip/g, 'gzip')) ?? undefined;
}

export function compressed(body: Buffer, encoding: 'br' | 'gzip'): Buffer {
  return encoding === 'br' ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } }) : gzipSync(body);
}
