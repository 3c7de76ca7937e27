import dns from 'node:dns';
import type { IncomingMessage } from 'node:http';
import { http, https } from './node-http.ts';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Fetching what a client names (website import, file URLs): only http(s), only
 * public addresses unless allowed (a client must not make the server read its
 * own network: metadata services, databases, admin pages), redirects followed
 * by hand so each hop is checked, bounded in time and size.
 *
 * The address is checked where the connection is made: the request resolves
 * the name through `publicOnlyLookup`, so the address checked is the address
 * connected to, and a DNS answer that changes between a check and a connect
 * (rebinding) has nothing to slip through.
 */

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
  /** Private, loopback and link-local addresses too (tests serving on 127.0.0.1, FETCH_PRIVATE_ADDRESSES). */
  allowPrivate: boolean;
  /** The Accept header; HTML first by default (website imports). */
  accept?: string;
}

export class FetchRefused extends Error {
  /** The address did not answer (or finish answering) within the time limit. */
  readonly timedOut: boolean;
  constructor(message: string, options: { timedOut?: boolean } = {}) {
    super(message);
    this.timedOut = options.timedOut ?? false;
  }
}

export interface Fetched {
  url: URL;
  status: number;
  contentType: string;
  body: Buffer;
}

function refusalOf(host: string, address: string): FetchRefused | undefined {
  const range = ipaddr.process(address).range();
  return range === 'unicast' ? undefined : new FetchRefused(`the host "${host}" is a ${range} address, which is not fetched`);
}

/** Resolves names for a request, failing it when any address is not public. */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(new FetchRefused(`the host "${hostname}" does not resolve`), '', 4);
    for (const { address } of addresses) {
      const refused = refusalOf(hostname, address);
      if (refused) return callback(refused, '', 4);
    }
    if (options.all) return (callback as unknown as (error: null, all: dns.LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};

/** Names are checked when connecting; literal addresses (no lookup happens) are checked here. */
function assertFetchable(url: URL, allowPrivate: boolean): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchRefused(`only http and https addresses can be fetched, not ${url.protocol}`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && ipaddr.isValid(host)) {
    const refused = refusalOf(url.hostname, host);
    if (refused) throw refused;
  }
}

/**
 * The connections of public-only fetches, pooled apart: a kept-alive socket is
 * reused without a lookup, so one opened by a fetch allowed private addresses
 * (or by other code on the global agent) must never carry a public-only one.
 * Every socket here was checked by `publicOnlyLookup` when it connected.
 */
const publicOnlyAgents = {
  'http:': new http.Agent({ keepAlive: true, scheduling: 'lifo', timeout: 5_000 }),
  'https:': new https.Agent({ keepAlive: true, scheduling: 'lifo', timeout: 5_000 }),
};

interface Answer {
  status: number;
  location: string | undefined;
  contentType: string;
  body: Buffer;
}

/** One GET, its body read up to `maxBytes`. */
function get(url: URL, limits: FetchLimits, signal: AbortSignal): Promise<Answer> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(
      url,
      {
        signal,
        headers: { accept: limits.accept ?? 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1', 'user-agent': 'docs-gateway-import' },
        ...(limits.allowPrivate ? {} : { lookup: publicOnlyLookup, agent: publicOnlyAgents[url.protocol as 'http:' | 'https:'] }),
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400 && response.headers.location) {
          response.resume();
          return resolve({ status, location: response.headers.location, contentType: '', body: Buffer.alloc(0) });
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > limits.maxBytes) {
            // Rejected first: what destroying the request emits then finds the promise settled.
            reject(new FetchRefused(`${url.href} is larger than ${limits.maxBytes} bytes`));
            request.destroy();
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => {
          if (size <= limits.maxBytes)
            resolve({ status, location: undefined, contentType: response.headers['content-type'] ?? '', body: Buffer.concat(chunks) });
        });
        response.on('error', reject);
      },
    );
    request.on('error', reject);
  });
}

/** GETs a URL within the limits; refusals and network failures are FetchRefused with a message for the client. */
export async function fetchBounded(start: URL, limits: FetchLimits): Promise<Fetched> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let url = start;
  for (let hop = 0; hop <= 5; hop++) {
    assertFetchable(url, limits.allowPrivate);
    let answer: Answer;
    try {
      answer = await get(url, limits, signal);
    } catch (error) {
      if (error instanceof FetchRefused) throw error;
      const cause = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      if (signal.aborted) throw new FetchRefused(`${url.href} did not answer within ${limits.timeoutMs} ms`, { timedOut: true });
      throw new FetchRefused(`${url.href} could not be reached (${cause})`);
    }
    if (answer.location !== undefined) {
      try {
        url = new URL(answer.location, url);
      } catch {
        throw new FetchRefused(`${url.href} redirects to "${answer.location}", which is not a valid address`);
      }
      continue;
    }
    return { url, status: answer.status, contentType: answer.contentType, body: answer.body };
  }
  throw new FetchRefused(`${start.href} redirects more than 5 times`);
}

/** A request of a protocol client (Git over smart HTTP) through the fetcher's rules. */
export interface GuardedRequest {
  url: string;
  method?: string | undefined;
  headers?: Record<string, string> | undefined;
  body?: AsyncIterable<Uint8Array> | undefined;
}

export interface GuardedResponse {
  url: string;
  method: string;
  statusCode: number;
  statusMessage: string;
  headers: Record<string, string>;
  body: AsyncIterableIterator<Uint8Array>;
}

/**
 * One HTTP request with the fetcher's rules (http(s) only, public addresses only unless allowed,
 * checked where the connection is made), its answer streamed and bounded: past `maxBytes` in all
 * (`counter` adds up several requests) it fails with FetchRefused. Redirects are not followed.
 */
export async function guardedRequest(
  request: GuardedRequest,
  limits: Pick<FetchLimits, 'allowPrivate' | 'timeoutMs'> & { counter: { bytes: number; maxBytes: number; tooLarge: () => string } },
): Promise<GuardedResponse> {
  const url = new URL(request.url);
  assertFetchable(url, limits.allowPrivate);
  const client = url.protocol === 'https:' ? https : http;
  const method = request.method ?? 'GET';
  const chunks: Uint8Array[] = [];
  if (request.body) for await (const chunk of request.body) chunks.push(chunk);
  const signal = AbortSignal.timeout(limits.timeoutMs);
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const sent = client.request(
      url,
      {
        method,
        signal,
        headers: { 'user-agent': 'git/docs-gateway', ...request.headers },
        ...(limits.allowPrivate ? {} : { lookup: publicOnlyLookup, agent: publicOnlyAgents[url.protocol as 'http:' | 'https:'] }),
      },
      resolve,
    );
    sent.on('error', (error) => {
      if (error instanceof FetchRefused) return reject(error);
      if (signal.aborted) return reject(new FetchRefused(`${url.origin} did not answer within ${limits.timeoutMs} ms`, { timedOut: true }));
      reject(new FetchRefused(`${url.origin} could not be reached (${(error as NodeJS.ErrnoException).code ?? error.message})`));
    });
    for (const chunk of chunks) sent.write(chunk);
    sent.end();
  });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  const counter = limits.counter;
  async function* body(): AsyncIterableIterator<Uint8Array> {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      counter.bytes += chunk.length;
      if (counter.bytes > counter.maxBytes) {
        response.destroy();
        throw new FetchRefused(counter.tooLarge());
      }
      yield new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    }
  }
  return { url: request.url, method, statusCode: response.statusCode ?? 0, statusMessage: response.statusMessage ?? '', headers, body: body() };
}

export interface Posted {
  status: number;
  /** The first bytes of the answer's body (for a delivery log), at most `maxBytes`. */
  body: string;
}

/**
 * POSTs a body to a URL within the same rules as fetchBounded (http(s) only,
 * public addresses unless allowed, checked where the connection is made),
 * without following redirects (a 3xx is the answer), within `timeoutMs`.
 * Refusals and network failures are FetchRefused.
 */
export async function postBounded(url: URL, request: { headers: Record<string, string>; body: string }, limits: FetchLimits): Promise<Posted> {
  assertFetchable(url, limits.allowPrivate);
  const signal = AbortSignal.timeout(limits.timeoutMs);
  const client = url.protocol === 'https:' ? https : http;
  try {
    return await new Promise<Posted>((resolve, reject) => {
      const outgoing = client.request(
        url,
        {
          method: 'POST',
          signal,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'docs-gateway-webhooks',
            ...request.headers,
            'content-length': Buffer.byteLength(request.body),
          },
          ...(limits.allowPrivate ? {} : { lookup: publicOnlyLookup, agent: publicOnlyAgents[url.protocol as 'http:' | 'https:'] }),
        },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            // What is past the limit is read and dropped: the status is what counts.
            if (size < limits.maxBytes) chunks.push(chunk.subarray(0, limits.maxBytes - size));
            size += chunk.length;
          });
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
          response.on('error', reject);
        },
      );
      outgoing.on('error', reject);
      outgoing.end(request.body);
    });
  } catch (error) {
    if (error instanceof FetchRefused) throw error;
    if (signal.aborted) throw new FetchRefused(`${url.href} did not answer within ${limits.timeoutMs} ms`, { timedOut: true });
    const cause = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new FetchRefused(`${url.href} could not be reached (${cause})`);
  }
}

/** Whether `url` may be fetched under these rules, as far as can be told without connecting (names are checked when connecting). */
export function fetchableUrl(url: URL, allowPrivate: boolean): string | undefined {
  try {
    assertFetchable(url, allowPrivate);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
