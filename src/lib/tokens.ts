import { createHash, randomBytes } from 'node:crypto';

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

/** The token of an `Authorization: Bearer <token>` header. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}
