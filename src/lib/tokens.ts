import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API tokens carry 256 random bits, so a fast SHA-256 digest is a safe way to
 * store them (no password-style stretching is needed for high-entropy secrets).
 */
export function generateApiToken(): string {
  return `dgw_${randomBytes(32).toString('base64url')}`;
}

export function hashApiToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Whether two secrets are equal, in a time that depends on neither: their
 * digests (equal lengths) are compared with timingSafeEqual. API tokens need
 * no such care: they are looked up by digest, which reveals nothing of the token.
 */
export function sameSecret(known: string, given: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(known), digest(given));
}

/** The token of an `Authorization: Bearer <token>` header. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}
