import { expect } from 'vitest';

/**
 * Assertions on REST responses. Every REST test file checked error bodies the
 * same way, so the check lives here once.
 */

/** The parts of an HTTP response (Fastify's injection, say) the assertions read. */
export interface Reply {
  statusCode: number;
  body: string;
  json(): any;
}

/**
 * A REST error: this HTTP status, the same status as `error.code`, and, when
 * given, the message (a string must match exactly, a RegExp must match).
 */
export function expectError(response: Reply, status: number, message?: RegExp | string) {
  expect(response.statusCode, response.body).toBe(status);
  const { error } = response.json();
  expect(error.code).toBe(status);
  if (typeof message === 'string') expect(error.message).toBe(message);
  else if (message) expect(error.message).toMatch(message);
}
