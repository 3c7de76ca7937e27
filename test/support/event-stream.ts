import { onTestFinished, vi } from 'vitest';

/** One GraphQL result of a subscription, as the server sent it in an SSE `next` event. */
export interface StreamResult {
  data?: Record<string, any> | null;
  errors?: Array<{ message: string; extensions?: { code?: number } }>;
}

export interface Subscription {
  /** The HTTP status and headers of the answer. */
  status: number;
  contentType: string;
  headers: Headers;
  /** Results received so far, in order. */
  results: StreamResult[];
  /** Keep-alive comments (`:`) received so far. */
  pings: number;
  /** Whether the server sent `complete` (or closed the stream). */
  readonly ended: boolean;
  /** Waits until `count` results arrived (or fails after `timeoutMs`), and returns them all. */
  until(count: number, timeoutMs?: number): Promise<StreamResult[]>;
  /** Waits until the stream ended. */
  closed(timeoutMs?: number): Promise<void>;
  /** Closes it from the client's side. */
  close(): void;
}

/**
 * A GraphQL subscription over Server-Sent Events against a listening server
 * (Yoga's distinct-connections mode: one POST per subscription, `Accept:
 * text/event-stream`), read with fetch as a browser would.
 */
export async function subscribe(
  base: string,
  token: string | undefined,
  query: string,
  variables: Record<string, unknown> = {},
  { accept = 'text/event-stream' }: { accept?: string } = {},
): Promise<Subscription> {
  const abort = new AbortController();
  // Closed when the test ends, passed or failed: a stream left open would count against its token's
  // allowance in the tests after it. (Outside a test, for example in a hook, the caller closes it.)
  try {
    onTestFinished(() => abort.abort());
  } catch {}
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: {
      accept,
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ query, variables }),
    signal: abort.signal,
  });
  let ended = false;
  const subscription: Subscription = {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    headers: response.headers,
    results: [],
    pings: 0,
    get ended() {
      return ended;
    },
    async until(count, timeoutMs = 10_000) {
      await vi.waitUntil(() => subscription.results.length >= count || ended, { timeout: timeoutMs, interval: 10 });
      if (subscription.results.length < count) {
        throw new Error(`the stream ended after ${subscription.results.length} results, ${count} expected: ${JSON.stringify(subscription.results)}`);
      }
      return subscription.results;
    },
    async closed(timeoutMs = 10_000) {
      await vi.waitUntil(() => ended, { timeout: timeoutMs, interval: 10 });
    },
    close: () => abort.abort(),
  };
  if (!response.body) {
    ended = true;
    return subscription;
  }
  // Events are separated by a blank line; `event: next` carries one result in `data:`.
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith(':')) {
            subscription.pings++;
            continue;
          }
          const event = /^event: (\w+)$/m.exec(block)?.[1];
          const data = block
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trimStart())
            .join('\n');
          if (event === 'next') subscription.results.push(JSON.parse(data));
          if (event === 'complete') ended = true;
        }
      }
    } catch {
      // Aborted by the client.
    } finally {
      ended = true;
    }
  })();
  return subscription;
}
