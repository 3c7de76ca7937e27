import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
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
    if (request.url === '/malformed-redirect') return response.writeHead(302, { location: 'http://[bad' }).end();
    if (request.url === '/large') return response.writeHead(200).end(Buffer.alloc(4096));
    // /chain/3 redirects to /chain/2, … to /chain/0, which answers: 3 redirects.
    const chain = /^\/chain\/(\d+)$/.exec(request.url ?? '');
    if (chain && Number(chain[1]) > 0) return response.writeHead(302, { location: `/chain/${Number(chain[1]) - 1}` }).end();
    const redirect = redirects()[request.url ?? ''];
    if (redirect) return response.writeHead(302, { location: redirect }).end();
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

/** Redirects the server answers, to addresses a public fetch must not reach. */
const redirects = (): Record<string, string> => ({
  '/to-loopback': `http://127.0.0.1:${port}/secret`,
  '/to-localhost': `http://localhost:${port}/secret`,
  '/to-ipv6-loopback': `http://[::1]:${port}/secret`,
  '/to-metadata': 'http://169.254.169.254/latest/meta-data/',
  '/to-private': 'http://10.0.0.1/admin',
});

const limits = { timeoutMs: 2_000, maxBytes: 1024, allowPrivate: false };

/** An address of ipaddr.js's range "unicast": public, fetched. */
const PUBLIC_ADDRESS = '93.184.215.14';

/** DNS answers for the tests' names (`lookup` counts from 1); other names resolve for real. Returns the lookups of each test name. */
function stubDns(answers: Record<string, (lookup: number) => { address: string; family: 4 | 6 }>): Record<string, number> {
  const lookups: Record<string, number> = {};
  const real = dns.lookup;
  vi.spyOn(dns, 'lookup').mockImplementation(((hostname: string, options: object, callback: (...args: unknown[]) => void) => {
    const answer = answers[hostname];
    if (!answer) return (real as (...args: unknown[]) => void)(hostname, options, callback);
    lookups[hostname] = (lookups[hostname] ?? 0) + 1;
    callback(null, [answer(lookups[hostname])]);
  }) as never);
  return lookups;
}

/**
 * Plays the network for connections to `host`: the fetcher's own lookup (its
 * address check) runs, the addresses it hands the socket are recorded, and the
 * socket is delivered to this test's server (`deliver`), or fails as
 * unreachable (without it). Returns the recorded addresses.
 */
function routeConnections(host: string, { deliver }: { deliver: boolean }): string[] {
  const handed: string[] = [];
  const createConnection = http.Agent.prototype.createConnection;
  vi.spyOn(http.Agent.prototype, 'createConnection').mockImplementation(function (this: http.Agent, options, callback) {
    const checked = (options as { lookup?: LookupFunction }).lookup;
    if (options.host !== host || !checked) return createConnection.call(this, options, callback);
    const lookup: LookupFunction = (hostname, lookupOptions, done) =>
      checked(hostname, lookupOptions, (error, address, family) => {
        if (error) return done(error, '', 4);
        const all = Array.isArray(address);
        handed.push(...(all ? address.map((entry) => entry.address) : [address]));
        if (!deliver) return done(Object.assign(new Error(`connect ECONNREFUSED ${hostname}`), { code: 'ECONNREFUSED' }), '', 4);
        if (all) return (done as unknown as (error: null, addresses: dns.LookupAddress[]) => void)(null, [{ address: '127.0.0.1', family: 4 }]);
        done(null, '127.0.0.1', family ?? 4);
      });
    return createConnection.call(this, { ...options, lookup } as never, callback);
  });
  return handed;
}

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

  it('refuses link-local (the cloud metadata service), IPv6 loopback and unspecified addresses, by literal or by name', async () => {
    await expect(fetchBounded(new URL('http://169.254.169.254/latest/meta-data/'), limits)).rejects.toThrow(
      /the host "169.254.169.254" is a linkLocal address/,
    );
    await expect(fetchBounded(new URL('http://[fe80::1]/'), limits)).rejects.toThrow(/is a linkLocal address/);
    await expect(fetchBounded(new URL(`http://[::1]:${port}/`), limits)).rejects.toThrow(/the host "\[::1\]" is a loopback address/);
    // IPv4 loopback written as IPv6 is still loopback.
    await expect(fetchBounded(new URL(`http://[::ffff:127.0.0.1]:${port}/`), limits)).rejects.toThrow(/is a loopback address/);
    await expect(fetchBounded(new URL(`http://0.0.0.0:${port}/`), limits)).rejects.toThrow(/is a unspecified address/);

    const lookups = stubDns({ 'metadata.test': () => ({ address: '169.254.169.254', family: 4 }), 'six.test': () => ({ address: '::1', family: 6 }) });
    await expect(fetchBounded(new URL('http://metadata.test/latest/meta-data/'), limits)).rejects.toThrow(/the host "metadata.test" is a linkLocal address/);
    await expect(fetchBounded(new URL(`http://six.test:${port}/`), limits)).rejects.toThrow(/the host "six.test" is a loopback address/);
    expect(lookups).toEqual({ 'metadata.test': 1, 'six.test': 1 });
    expect(received).toEqual([]);
  });

  it('checks the address it connects to: a name that answers public, then private (DNS rebinding), reaches nothing private', async () => {
    // First answer public (what a separate check would see), every later one loopback.
    const lookups = stubDns({ 'rebind.test': (lookup) => ({ address: lookup === 1 ? PUBLIC_ADDRESS : '127.0.0.1', family: 4 }) });
    const handed = routeConnections('rebind.test', { deliver: false });
    const refused = fetchBounded(new URL(`http://rebind.test:${port}/secret`), limits);
    await expect(refused).rejects.toBeInstanceOf(FetchRefused);
    await expect(refused).rejects.toThrow(/could not be reached \(ECONNREFUSED\)/);
    // One lookup, checked, and its public answer is what the socket was given.
    expect(lookups).toEqual({ 'rebind.test': 1 });
    expect(handed).toEqual([PUBLIC_ADDRESS]);
    expect(received).toEqual([]);
  });

  it('checks every redirect hop, and bounds the size', async () => {
    await expect(fetchBounded(new URL(`http://127.0.0.1:${port}/redirect`), { ...limits, allowPrivate: true })).resolves.toMatchObject({ status: 200 });
    await expect(fetchBounded(new URL(`http://127.0.0.1:${port}/large`), { ...limits, allowPrivate: true })).rejects.toThrow(/is larger than 1024 bytes/);
  });

  it('refuses a redirect from a public host to a loopback, private or link-local address, without requesting it', async () => {
    stubDns({ 'public.test': () => ({ address: PUBLIC_ADDRESS, family: 4 }) });
    const handed = routeConnections('public.test', { deliver: true });
    // The public host itself is fetched: what is refused below is the redirect.
    const page = await fetchBounded(new URL(`http://public.test:${port}/page`), limits);
    expect(page).toMatchObject({ status: 200, url: new URL(`http://public.test:${port}/page`) });
    expect(handed).toEqual([PUBLIC_ADDRESS]);

    const cases: Array<[string, RegExp]> = [
      ['/to-loopback', /^the host "127.0.0.1" is a loopback address/],
      ['/to-localhost', /^the host "localhost" is a loopback address/],
      ['/to-ipv6-loopback', /^the host "\[::1\]" is a loopback address/],
      ['/to-metadata', /^the host "169.254.169.254" is a linkLocal address/],
      ['/to-private', /^the host "10.0.0.1" is a private address/],
    ];
    for (const [path, message] of cases) {
      received.length = 0;
      const refused = fetchBounded(new URL(`http://public.test:${port}${path}`), limits);
      await expect(refused, path).rejects.toBeInstanceOf(FetchRefused);
      await expect(refused, path).rejects.toThrow(message);
      // The redirect was answered; its target never asked.
      expect(received, path).toEqual([path]);
    }
  });

  it('follows up to 5 redirects, relative ones too, and refuses a sixth', async () => {
    const allowed = { ...limits, allowPrivate: true };
    const five = await fetchBounded(new URL(`http://127.0.0.1:${port}/chain/5`), allowed);
    expect(five).toMatchObject({ status: 200, url: new URL(`http://127.0.0.1:${port}/chain/0`) });
    expect(five.body.toString()).toBe('<p>ok</p>');
    expect(received).toEqual(['/chain/5', '/chain/4', '/chain/3', '/chain/2', '/chain/1', '/chain/0']);

    received.length = 0;
    const start = new URL(`http://127.0.0.1:${port}/chain/6`);
    const six = fetchBounded(start, allowed);
    await expect(six).rejects.toBeInstanceOf(FetchRefused);
    await expect(six).rejects.toThrow(`${start.href} redirects more than 5 times`);
    // Six requests, the sixth redirect not followed.
    expect(received).toEqual(['/chain/6', '/chain/5', '/chain/4', '/chain/3', '/chain/2', '/chain/1']);
  });

  it('refuses a redirect whose Location is not a valid address', async () => {
    const start = new URL(`http://127.0.0.1:${port}/malformed-redirect`);
    const refused = fetchBounded(start, { ...limits, allowPrivate: true });
    await expect(refused).rejects.toBeInstanceOf(FetchRefused);
    await expect(refused).rejects.toThrow(`${start.href} redirects to "http://[bad", which is not a valid address`);
  });

  it('applies each call its own address rule: a connection kept alive for a call allowed private addresses is not reused by one that is not', async () => {
    await expect(fetchBounded(new URL(`http://localhost:${port}/page`), { ...limits, allowPrivate: true })).resolves.toMatchObject({ status: 200 });
    received.length = 0;
    await expect(fetchBounded(new URL(`http://localhost:${port}/secret`), limits)).rejects.toThrow(/the host "localhost" is a loopback address/);
    expect(received).toEqual([]);
  });
});
