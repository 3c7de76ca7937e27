import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks (https://www.standardwebhooks.com): secrets are `whsec_`
 * followed by the base64 of the signing key; a message is signed with
 * HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<body>` and sent as
 * `webhook-signature: v1,<base64 signature>`, several separated by spaces
 * (while a rotated secret still signs, both are sent).
 */

export const SECRET_PREFIX = 'whsec_';

/** A new secret: 24 random bytes, as receivers' libraries read it. */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
}

/** `v1,<base64 HMAC-SHA256>` of one message with one secret. */
export function signature(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64')}`;
}

/** The three headers of a message, signed with every secret given (the current one first). */
export function webhookHeaders(secrets: string[], messageId: string, timestampSeconds: number, body: string): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((secret) => signature(secret, messageId, timestampSeconds, body)).join(' '),
  };
}
