import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/**
 * Fetching what a client names (website import): only http(s), only public
 * addresses unless allowed (a client must not make the server read its own
 * network: metadata services, databases, admin pages), redirects followed by
 * hand so each hop is checked, bounded in time and size.
 *
 * Known limit: the name is resolved for the check and again by fetch, so a DNS
 * answer that changes in between (rebinding) is not caught.
 */

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
  /** Private, loopback and link-local addresses too (tests serving on 127.0.0.1). */
  allowPrivate: boolean;
}

export class FetchRefused extends Error {}

export interface Fetched {
  url: URL;
  status: number;
  contentType: string;
  body: Buffer;
}

async function assertPublic(url: URL, allowPrivate: boolean): Promise<void> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchRefused(`only http and https addresses can be fetched, not ${url.protocol}`);
  if (allowPrivate) return;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = ipaddr.isValid(host) ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((entry) => entry.address);
  if (!addresses.length) throw new FetchRefused(`the host "${url.hostname}" does not resolve`);
  for (const address of addresses) {
    const parsed = ipaddr.process(address);
    if (parsed.range() !== 'unicast') throw new FetchRefused(`the host "${url.hostname}" is a ${parsed.range()} address, which is not fetched`);
  }
}

/** GETs a URL within the limits; refusals and network failures are FetchRefused with a message for the client. */
export async function fetchBounded(start: URL, limits: FetchLimits): Promise<Fetched> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let url = start;
  for (let hop = 0; hop <= 5; hop++) {
    await assertPublic(url, limits.allowPrivate);
    let response: Response;
    try {
      response = await fetch(url, { redirect: 'manual', signal, headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1', 'user-agent': 'docs-gateway-import' } });
    } catch (error) {
      throw new FetchRefused(signal.aborted ? `${url.href} did not answer within ${limits.timeoutMs} ms` : `${url.href} could not be reached (${(error as Error).cause ?? (error as Error).message})`);
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      url = new URL(location, url);
      continue;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const reader = response.body?.getReader();
    try {
      for (let part = await reader?.read(); reader && part && !part.done; part = await reader.read()) {
        size += part.value.length;
        if (size > limits.maxBytes) {
          await reader.cancel().catch(() => {});
          throw new FetchRefused(`${url.href} is larger than ${limits.maxBytes} bytes`);
        }
        chunks.push(Buffer.from(part.value));
      }
    } catch (error) {
      if (error instanceof FetchRefused) throw error;
      throw new FetchRefused(`${url.href} could not be read (${(error as Error).message})`);
    }
    return { url, status: response.status, contentType: response.headers.get('content-type') ?? '', body: Buffer.concat(chunks) };
  }
  throw new FetchRefused(`${start.href} redirects more than 5 times`);
}
