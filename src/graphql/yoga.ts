import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Plugin, createYoga } from 'graphql-yoga';
import type { RequestContext } from '../context.ts';
import { DomainError } from '../errors.ts';
import { type GraphQLLimits, DEFAULT_GRAPHQL_LIMITS, REQUEST_ERROR, graphqlLimitPlugins, responseTooLarge } from './limits.ts';
import { GRAPHIQL_EXAMPLE_QUERY, registerGraphiQLAssets, renderGraphiQLPage } from './graphiql.ts';
import { DOCUMENT_ID_PARAMETER, type PersistedOperations, persistedOperationsPlugin } from './persisted-operations.ts';
import { schema } from './schema.ts';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { GraphQLError, getOperationAST, getVariableValues, visit } from 'graphql';
import { DATABASE_UNAVAILABLE_MESSAGE, RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/unavailable.ts';
import { assertCleanInput } from '../lib/text-input.ts';
import { withRequestLog, yogaLogger } from '../logging.ts';
import { GRAPHIQL_CONTENT_SECURITY_POLICY } from '../security-headers.ts';
import type { GraphQLMetrics } from '../metrics.ts';

interface ServerContext {
  req: FastifyRequest;
  reply: FastifyReply;
}

/** Errors in the query document itself (unknown fields, wrong argument types) are the client's: code 400. */
const validationErrorsAre400: Plugin = {
  onValidate:
    () =>
    ({ valid, result }) => {
      if (valid) return;
      for (const error of result) {
        const extensions = ((error as { extensions: Record<string, unknown> }).extensions ??= {});
        extensions.code ??= 400;
        // A request error: HTTP 400 for application/graphql-response+json, 200 for application/json.
        extensions.http ??= REQUEST_ERROR.http;
      }
    },
};

/**
 * Variables are coerced by graphql-js before graphql-jit runs the operation, so
 * that their errors name the field and type as the GraphQL specification's
 * reference words them ('Variable "$input" got invalid value …; Field "siteId"
 * of required type "ID!" was not provided.').
 */
const coerceVariablesFirst: Plugin = {
  onExecute({ args, setResultAndStopExecution }) {
    const operation = getOperationAST(args.document, args.operationName ?? undefined);
    if (!operation?.variableDefinitions?.length) return;
    const coerced = getVariableValues(args.schema, operation.variableDefinitions, (args.variableValues ?? {}) as Record<string, unknown>, {
      maxErrors: 50,
    });
    if (coerced.errors) {
      setResultAndStopExecution({
        errors: coerced.errors.map((error) => new GraphQLError(error.message, { nodes: error.nodes, extensions: REQUEST_ERROR })),
      });
    }
  },
};

/** Strings a client sends, as variables or literals, are storable text (src/lib/text-input.ts), as over REST. */
const cleanTextOnly: Plugin = {
  onExecute({ args, setResultAndStopExecution }) {
    try {
      assertCleanInput(args.variableValues ?? {}, 'variables');
      visit(args.document, {
        StringValue(node) {
          assertCleanInput(node.value, 'a string in the document');
        },
      });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      setResultAndStopExecution({ errors: [new GraphQLError(error.message, { extensions: REQUEST_ERROR })] });
    }
  },
};

const isGraphQLError = (error: unknown): error is GraphQLError =>
  // By name: a second copy of graphql (a bundler's ESM build) has its own class.
  error instanceof Error && error.name === 'GraphQLError';

/** Counts each executed operation by type (query, mutation) and outcome for /metrics. */
function countOperations(metrics: GraphQLMetrics): Plugin {
  return {
    onExecute({ args }) {
      const type = getOperationAST(args.document, args.operationName)?.operation ?? 'unknown';
      return {
        onExecuteDone({ result }) {
          const errors = 'errors' in result && result.errors && result.errors.length > 0;
          metrics.operation(type, errors ? 'error' : 'ok');
        },
      };
    },
  };
}

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
  const yoga = createYoga<ServerContext, RequestContext>({
    schema,
    // Clients of persisted operations send the hash of a registered document instead of its text.
    extraParamNames: [DOCUMENT_ID_PARAMETER],
    plugins: [
      ...(options.persistedOperations ? [persistedOperationsPlugin(options.persistedOperations)] : []),
      validationErrorsAre400,
      ...graphqlLimitPlugins(limits),
      cleanTextOnly,
      coerceVariablesFirst,
      // Compiles each operation once into a function: less work per field than
      // the reference executor (measured: the site tree in about 0.6× the time).
      useGraphQlJit(),
      ...(options.metrics ? [countOperations(options.metrics)] : []),
    ],
    logging: yogaLogger(app.log),
    // CORS is the app's (src/cors.ts), the same for REST and GraphQL.
    cors: false,
    context: ({ req }) => req.ctx!,
    // GraphiQL's build served by this server (src/graphql/graphiql.ts): no CDN, cacheable files.
    renderGraphiQL: (graphiqlOptions) => renderGraphiQLPage(graphiqlOptions as Record<string, unknown>),
    graphiql: {
      title: 'docs-gateway',
      defaultQuery: GRAPHIQL_EXAMPLE_QUERY,
      headers: JSON.stringify({ Authorization: `Bearer ${options.graphiqlToken ?? '<paste a token: npx docs-gateway bootstrap --help>'}` }, null, 2),
    },
    maskedErrors: {
      // Domain errors reach the client with the status REST would answer; anything else is masked.
      maskError: (error, message) => {
        const original = isGraphQLError(error) ? error.originalError : error;
        if (isDatabaseUnavailable(original)) {
          return new GraphQLError(DATABASE_UNAVAILABLE_MESSAGE, {
            ...(isGraphQLError(error) ? { nodes: error.nodes, path: error.path } : {}),
            extensions: { code: 503, http: { status: 503, headers: { 'retry-after': String(RETRY_AFTER_SECONDS) } } },
          });
        }
        if (original instanceof DomainError) {
          return new GraphQLError(original.message, {
            ...(isGraphQLError(error) ? { nodes: error.nodes, path: error.path } : {}),
            extensions: { code: original.status },
          });
        }
        // Parse, validation and input-coercion errors are the client's: they have no resolver path.
        if (isGraphQLError(error) && (!error.originalError || !error.path)) {
          return new GraphQLError(error.message, {
            nodes: error.nodes,
            extensions: { ...error.extensions, code: typeof error.extensions.code === 'number' ? error.extensions.code : 400 },
          });
        }
        return new GraphQLError(message, {
          ...(isGraphQLError(error) ? { nodes: error.nodes, path: error.path } : {}),
          extensions: { code: 500 },
        });
      },
    },
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
