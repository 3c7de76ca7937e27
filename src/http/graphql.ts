import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { GraphQLLimits } from '../config.ts';
import { DEFAULT_GRAPHQL_LIMITS } from '../config.ts';
import { registerGraphiQLAssets } from '../graphql/graphiql.ts';
import type { CompiledReadsOptions, QueryRequest } from '../graphql/compiled/plugin.ts';
import { isCleanInput } from '../lib/text-input.ts';
import type { PersistedOperations } from '../graphql/persisted-operations.ts';
import { withRequestLog, yogaLogger } from './logging.ts';
import type { GraphQLMetrics } from './metrics.ts';
import { GRAPHIQL_CONTENT_SECURITY_POLICY } from './security-headers.ts';

/** Yoga's endpoint (its default). */
const GRAPHQL_PATH = '/graphql';

/** Yoga on Fastify at /graphql, with the request context built by the app's authentication hook. */
export async function graphqlPlugin(
  app: FastifyInstance,
  options: {
    graphiqlToken?: string | undefined;
    limits?: GraphQLLimits | undefined;
    metrics?: GraphQLMetrics | undefined;
    persistedOperations?: PersistedOperations | undefined;
    compiledReads?: CompiledReadsOptions | undefined;
  },
) {
  const limits = options.limits ?? DEFAULT_GRAPHQL_LIMITS;
  const metrics = options.metrics;
  const { graphiqlToken } = options;
  // GraphQL is loaded on the first request to /graphql, not at start: a server answering REST
  // only never needs its packages (about 14 MB of heap), the schema or Yoga, which were most of
  // the CPU time a restart saved (docs/benchmark.md, "Start and idle memory"). bin/build.js
  // bundles the packages so that they load with it.
  let serving: ReturnType<typeof loadGraphQL> | undefined;
  const loadGraphQL = async () => {
    const [{ createGraphQLServer }, { createCompiledReads }, { estimatedCost, responseTooLarge }] = await Promise.all([
      import('../graphql/yoga.ts'),
      import('../graphql/compiled/plugin.ts'),
      import('../graphql/limits.ts'),
    ]);
    const compiledReads = options.compiledReads && createCompiledReads(options.compiledReads);
    const yoga = createGraphQLServer({
      // Only to a page asked for by a loopback name: a page of another site whose
      // name was rebound to 127.0.0.1 (DNS rebinding) is same-origin with this
      // server in the browser, but its requests name that site in Host.
      graphiqlToken: graphiqlToken ? (request) => (isLoopbackHost(request.headers.get('host')) ? graphiqlToken : undefined) : undefined,
      limits,
      onOperation: metrics && ((type, outcome) => metrics.operation(type, outcome)),
      persistedOperations: options.persistedOperations,
      logging: yogaLogger(app.log),
      compiledReads,
    });
    // A query Yoga has answered compiled is answered again straight from its plan, without
    // Yoga's pipeline: not when only registered documents may run (their text is not the key).
    const direct = compiledReads && !options.persistedOperations?.only ? compiledReads : undefined;
    const withinLimits = (schema: GraphQLSchema, document: DocumentNode, request: QueryRequest) => {
      const cost = estimatedCost(schema, document, request.variables, request.operationName);
      return cost !== undefined && cost <= limits.maxCost && isCleanInput(request.variables);
    };
    return { yoga, direct, withinLimits, responseTooLarge };
  };
  const graphql = () =>
    (serving ??= loadGraphQL().catch((error: unknown) => {
      serving = undefined;
      throw error;
    }));

  registerGraphiQLAssets(app);
  app.route({
    url: GRAPHQL_PATH,
    method: ['GET', 'POST'],
    handler: async (req, reply) => {
      // Yoga builds the request's URL from its Host header: one that makes no URL is the client's mistake, not a 500.
      const { host } = req.raw.headers;
      if (host !== undefined && !URL.canParse(`http://${host}/`)) req.raw.headers.host = 'host.invalid';
      const { yoga, direct, withinLimits, responseTooLarge } = await graphql();
      const request = direct && directRequest(req);
      if (request && options.compiledReads?.mode !== 'verify') {
        const started = performance.now();
        // Any failure (the database, say) is left to Yoga, which answers it in its shape.
        const body = await direct.answer(req.ctx!, request, withinLimits).catch(() => null);
        if (body !== null && performance.now() - started <= limits.timeoutMs && body.length <= limits.maxResponseBytes) {
          metrics?.operation('query', 'ok');
          return reply.type('application/json; charset=utf-8').send(body);
        }
      }
      const response = await withRequestLog(req.log, () => yoga.handleNodeRequestAndResponse(req, reply, { req, reply }));
      // Streams (subscriptions, incremental delivery) pass as they are; results are
      // read whole, to bound their size and for the response cache to see their text.
      if (/^(text\/event-stream|multipart\/mixed)/.test(response.headers.get('content-type') ?? '')) {
        // A subscription refused before its stream opened (beyond its owner's limits): an HTTP error
        // with its Retry-After, in the error shape, rather than a stream that opens to say so.
        if (response.status >= 400) {
          const errors = await refusalOf(response);
          const retryAfter = response.headers.get('retry-after');
          if (retryAfter) reply.header('retry-after', retryAfter);
          return reply.code(response.status).send({ errors });
        }
        reply.status(response.status);
        response.headers.forEach((value, name) => {
          // Yoga's `Content-Encoding: none` is no encoding a client knows; a stream is never compressed (@fastify/compress skips event streams).
          if (name.toLowerCase() !== 'content-encoding') reply.header(name, value);
        });
        return reply.send(response.body ? await nodeStreamOf(response.body as unknown as ReadableStream<Uint8Array>) : '');
      }
      const text = await response.text();
      // Yoga refuses an Accept it cannot answer without a word: say which answers there are.
      if (response.status === 406 && text === '') {
        const message = `Accept: ${req.headers.accept ?? ''} names no answer of this endpoint: application/json or application/graphql-response+json, and text/event-stream for subscriptions`;
        return reply.code(406).send({ errors: [{ message, extensions: { code: 406 } }] });
      }
      const bytes = Buffer.byteLength(text);
      if (bytes > limits.maxResponseBytes) {
        const error = responseTooLarge(bytes, limits.maxResponseBytes);
        return reply.code(413).send({ errors: [{ message: error.message, extensions: { code: 413 } }] });
      }
      // The suite checks the direct answer against Yoga's, byte for byte once parsed.
      if (request && options.compiledReads?.mode === 'verify' && response.status === 200) {
        const body = await direct.answer(req.ctx!, request, withinLimits);
        if (body !== null && JSON.stringify(JSON.parse(body.toString())) !== JSON.stringify(JSON.parse(text))) {
          console.error(`direct compiled answer differs from Yoga's:\n  direct: ${body.toString().slice(0, 2000)}\n  yoga: ${text.slice(0, 2000)}`);
          return reply.code(500).send({ errors: [{ message: 'direct compiled answer differs', extensions: { code: 500 } }] });
        }
      }
      reply.status(response.status);
      response.headers.forEach((value, name) => {
        reply.header(name, value);
      });
      if ((response.headers.get('content-type') ?? '').startsWith('text/html')) {
        reply.header('content-security-policy', GRAPHIQL_CONTENT_SECURITY_POLICY);
      }
      return reply.send(text);
    },
  });
}

/** The errors of a subscription Yoga refused with an HTTP error: the one result of its (short) event stream. */
async function refusalOf(response: Response): Promise<unknown[]> {
  const text = await response.text();
  const data = /^event: next\ndata: (.*)$/m.exec(text)?.[1];
  try {
    const errors = data ? (JSON.parse(data) as { errors?: unknown[] }).errors : undefined;
    if (errors?.length) return errors;
  } catch {}
  return [{ message: 'The subscription was refused', extensions: { code: response.status } }];
}

/**
 * Yoga's body (a whatwg-node ReadableStream) as a Node stream for Fastify. Its
 * first chunk is read at once: the web stream starts on its first read, and
 * one cancelled before it started (a client gone while the operation was
 * prepared) throws out of reach and ends the process. Cancelled after that,
 * it returns the subscription's iterator, which releases the stream.
 */
async function nodeStreamOf(body: ReadableStream<Uint8Array>): Promise<Readable> {
  const reader = body.getReader();
  const first = await reader.read();
  let pending: ReadableStreamReadResult<Uint8Array> | undefined = first;
  return new Readable({
    async read() {
      try {
        const { done, value } = pending ?? (await reader.read());
        pending = undefined;
        // The chunk's own bytes, not a copy: a stream's answers are many small writes.
        this.push(done ? null : Buffer.from(value.buffer, value.byteOffset, value.byteLength));
      } catch (error) {
        this.destroy(error as Error);
      }
    },
    destroy(error, callback) {
      reader.cancel().then(
        () => callback(error),
        () => callback(error),
      );
    },
  });
}

/**
 * A POST of a query in JSON that Yoga would answer as application/json (not a
 * stream, not graphql-response+json), without extensions: what the direct path
 * may take; undefined for anything else.
 */
function directRequest(req: FastifyRequest): QueryRequest | undefined {
  if (req.method !== 'POST' || !req.ctx) return undefined;
  const accept = req.headers.accept;
  if (accept !== undefined && !/^(\*\/\*|application\/json)(;[^,]*)?$/.test(accept.trim())) return undefined;
  const body = req.body as { query?: unknown; variables?: unknown; operationName?: unknown; extensions?: unknown } | undefined;
  if (!body || typeof body.query !== 'string' || body.extensions !== undefined) return undefined;
  const variables = body.variables ?? {};
  if (typeof variables !== 'object' || variables === null || Array.isArray(variables)) return undefined;
  if (body.operationName !== undefined && body.operationName !== null && typeof body.operationName !== 'string') return undefined;
  return { query: body.query, variables: variables as Record<string, unknown>, operationName: (body.operationName as string | null) ?? undefined };
}

/**
 * Whether a Host header names this machine's loopback interface: `localhost`,
 * an address of 127.0.0.0/8 (in any form URLs accept, `127.1` say) or `[::1]`,
 * with any port.
 */
export function isLoopbackHost(host: string | null | undefined): boolean {
  // A name or a bracketed IPv6 address, and a port: nothing a URL would read as user info or a path.
  const name = /^(\[[\da-f:.]+\]|[^\s:@/\\?#[\]]+)(?::\d{1,5})?$/i.exec(host ?? '')?.[1];
  if (!name || !URL.canParse(`http://${name}/`)) return false;
  // URLs spell the name one way: lower case, IPv4 in dotted decimal, IPv6 compressed.
  const { hostname } = new URL(`http://${name}/`);
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
