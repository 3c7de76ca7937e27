import net from 'node:net';
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

/**
 * Sends `request` as it is on a socket and reads the whole answer: the request
 * must let the server close the connection (HTTP/1.0, or `Connection: close`).
 * The socket stays open for writing meanwhile: a server may take a client that
 * half-closes for one that went away.
 */
export async function rawRequest(port: number, request: string): Promise<{ status: number; body: string }> {
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let data = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (data += chunk));
    socket.on('end', () => resolve(data)).on('error', reject);
  });
  const [head, ...body] = answer.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.\d (\d{3})/.exec(head!)?.[1]), body: body.join('\r\n\r\n') };
}
