import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import type { FastifyRequest } from 'fastify';

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

/** @fastify/compress's default of the types it compresses. */
const COMPRESSIBLE_TYPES = /^text\/(?!event-stream)|(?:\+|\/)json(?:;|$)|(?:\+|\/)text(?:;|$)|(?:\+|\/)xml(?:;|$)|octet-stream(?:;|$)/;

/**
 * The encoding @fastify/compress would answer a request for `contentType` in, if any: as it
 * negotiates `Accept-Encoding` (`*` and `x-gzip` read as gzip), and none when the client sends
 * `X-No-Compression`.
 */
export function requestedEncoding(request: FastifyRequest, contentType: string): 'br' | 'gzip' | undefined {
  const acceptEncoding = request.headers['accept-encoding'];
  if (!acceptEncoding || request.headers['x-no-compression'] !== undefined || !COMPRESSIBLE_TYPES.test(contentType)) return undefined;
  return negotiator.negotiate(acceptEncoding.toLowerCase().replace(/\*|x-gzip/g, 'gzip')) ?? undefined;
}

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** On libuv's thread pool, not the event loop: an answer can be megabytes. */
export function compressed(body: Buffer, encoding: 'br' | 'gzip'): Promise<Buffer> {
  return encoding === 'br' ? brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } }) : gzipped(body);
}
