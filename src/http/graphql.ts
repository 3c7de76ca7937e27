import type { FastifyInstance } from 'fastify';
import type { GraphQLLimits } from '../config.ts';
import { DEFAULT_GRAPHQL_LIMITS } from '../config.ts';
import { registerGraphiQLAssets } from '../graphql/graphiql.ts';
import { responseTooLarge } from '../graphql/limits.ts';
import type { PersistedOperations } from '../graphql/persisted-operations.ts';
import { createGraphQLServer } from '../graphql/yoga.ts';
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
  },
) {
  const limits = options.limits ?? DEFAULT_GRAPHQL_LIMITS;
  const metrics = options.metrics;
  const yoga = createGraphQLServer({
    graphiqlToken: options.graphiqlToken,
    limits,
    onOperation: metrics && ((type, outcome) => metrics.operation(type, outcome)),
    persistedOperations: options.persistedOperations,
    logging: yogaLogger(app.log),
  });

  registerGraphiQLAssets(app);
  app.route({
    url: yoga.graphqlEndpoint,
    method: ['GET', 'POST'],
    handler: async (req, reply) => {
      // Yoga builds the request's URL from its Host header: one that makes no URL is the client's mistake, not a 500.
      const { host } = req.raw.headers;
      if (host !== undefined && !URL.canParse(`http://${host}/`)) req.raw.headers.host = 'localhost';
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
