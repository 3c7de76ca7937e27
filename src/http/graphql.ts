import type { FastifyInstance } from 'fastify';
import type { GraphQLLimits } from '../config.ts';
import { DEFAULT_GRAPHQL_LIMITS } from '../config.ts';
import { registerGraphiQLAssets } from '../graphql/graphiql.ts';
import { responseTooLarge } from '../graphql/limits.ts';
import type { PersistedOperations } from '../graphql/persisted-operations.ts';
import { type GraphQLServerOptions, createGraphQLServer } from '../graphql/yoga.ts';
import { withRequestLog, yogaLogger } from './logging.ts';
import type { GraphQLMetrics } from './metrics.ts';
import { GRAPHIQL_CONTENT_SECURITY_POLICY } from './security-headers.ts';

/** Yoga on Fastify at /graphql, with the request context built by the app's authentication hook. */
export async function graphqlPlugin(
  app: FastifyInstance,
  options: {
    graphiqlToken?: string | undefined;
    limits?: GraphQLLimits | undefined;
    metrics?: GraphQLMetrics | undefined;
    persistedOperations?: PersistedOperations | undefined;
    compiledReads?: GraphQLServerOptions['compiledReads'];
  },
) {
  const limits = options.limits ?? DEFAULT_GRAPHQL_LIMITS;
  const metrics = options.metrics;
  const { graphiqlToken } = options;
  const yoga = createGraphQLServer({
    // Only to a page asked for by a loopback name: a page of another site whose
    // name was rebound to 127.0.0.1 (DNS rebinding) is same-origin with this
    // server in the browser, but its requests name that site in Host.
    graphiqlToken: graphiqlToken ? (request) => (isLoopbackHost(request.headers.get('host')) ? graphiqlToken : undefined) : undefined,
    limits,
    onOperation: metrics && ((type, outcome) => metrics.operation(type, outcome)),
    persistedOperations: options.persistedOperations,
    logging: yogaLogger(app.log),
    compiledReads: options.compiledReads,
  });

  registerGraphiQLAssets(app);
  app.route({
    url: yoga.graphqlEndpoint,
    method: ['GET', 'POST'],
    handler: async (req, reply) => {
      // Yoga builds the request's URL from its Host header: one that makes no URL is the client's mistake, not a 500.
      const { host } = req.raw.headers;
      if (host !== undefined && !URL.canParse(`http://${host}/`)) req.raw.headers.host = 'host.invalid';
      const response = await withRequestLog(req.log, () => yoga.handleNodeRequestAndResponse(req, reply, { req, reply }));
      // Streams (subscriptions, incremental delivery) pass as they are; results are
      // read whole, to bound their size and for the response cache to see their text.
      if (/^(text\/event-stream|multipart\/mixed)/.test(response.headers.get('content-type') ?? '')) return response;
      const text = await response.text();
      const bytes = Buffer.byteLength(text);
      if (bytes > limits.maxResponseBytes) {
        const error = responseTooLarge(bytes, limits.maxResponseBytes);
        return reply.code(413).send({ errors: [{ message: error.message, extensions: { code: 413 } }] });
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
