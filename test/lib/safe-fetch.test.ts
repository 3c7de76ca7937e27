import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FetchRefused, fetchBounded } from '../../src/lib/safe-fetch.ts';

/** The fetcher behind website imports and file URLs, against a server of the test's own on 127.0.0.1. */

let server: http.Server;
let port: number;
const received: string[] = [];
beforeAll(async () => {
  server = http.createServer((request, response) => {
    received.push(request.url ?? '');
    if (request.url === '/redirect') return response.writeHead(302, { location: `http://127.0.0.1:${port}/page` }).end();
    if (request.url === '/large') return response.writeHead(200).end(Buffer.alloc(4096));
    response.writeHead(200, { 'content-type': 'text/html' }).end('<p>ok</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  vi.restoreAllMocks();
  received.length = 0;
});

const limits = { timeoutMs: 2_000, maxBytes: 1024, allowPrivate: false };

describe('fetchBounded', () => {
  it('refuses loopback and private addresses, by name or literal, unless allowed', async () => {
    await expect(fetchBounded(new URL(`http://localhost:${port}/`), limits)).rejects.toThrow(/the host "localhost" is a loopback address/);
    await expect(fetchBounded(new URL(`http://127.0.0.1:${port}/`), limits)).rejects.toThrow(/is a loopback address/);
    await expect(fetchBounded(new URL('http://10.0.0.1/'), limits)).rejects.toThrow(/is a private address/);
    await expect(fetchBounded(new URL('http://[::1]/'), limits)).rejects.toThrow(/is a loopback address/);
    await expect(fetchBounded(new URL('file:///etc/passwd'), limits)).rejects.toThrow(/only http and https/);
    expect(received).toEqual([]);
    const allowed = await fetchBounded(new URL(`http://localhost:${port}/page`), { ...limits, allowPrivate: true });
    expect(allowed).toMatchObject({ status: 200, contentType: 'text/html' });
    expect(allowed.body.toString()).toBe('<p>ok</p>');
  });

  it('checks the address it connects to: a name that answers public, then private (DNS rebinding), reaches nothing private', async () => {
    const lookups: string[] = [];
    const real = dns.lookup;
    vi.spyOn(dns, 'lookup').mockImplementation(((hostname: string, options: object, callback: (...args: unknown[]) => void) => {
      lookups.push(hostname);
      if (hostname !== 'rebind.test') return (real as (...args: unknown[]) => void)(hostname, options, callback);
      // First answer public (what a separate check would see), every later one loopback.
      const address = lookups.filter((name) => name === 'rebind.test').length === 1 ? '192.0.2.10' : '127.0.0.1';
      callback(null, [{ address, family: 4 }]);
    }) as never);
    await expect(fetchBounded(new URL(`http://rebind.test:${port}/secret`), limits)).rejects.toBeInstanceOf(FetchRefused);
    expect(received).toEqual([]);
    expect(lookups.filter((name) => name === 'rebind.test')).toHaveLength(1);
  });

  it('checks every redirect hop, and bounds the size', async () => {
    await expect(fetchBounded(new URL(`http://127.0.0.1:${port}/redirect`), { ...limits, allowPrivate: true })).resolves.toMatchObject({ status: 200 });
    await expect(fetchBounded(new URL(`http://127.0.0.1:${port}/large`), { ...limits, allowPrivate: true })).rejects.toThrow(/is larger than 1024 bytes/);
  });
});
