import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Plugin, type YogaLogger, createYoga } from 'graphql-yoga';
import type { RequestContext } from '../context.ts';
import { DomainError, TooManyRequests } from '../errors.ts';
import { DEFAULT_GRAPHQL_LIMITS, type GraphQLLimits } from '../config.ts';
import { REQUEST_ERROR, graphqlLimitPlugins } from './limits.ts';
import { GRAPHIQL_EXAMPLE_QUERY, renderGraphiQLPage } from './graphiql.ts';
import type { PersistedOperations } from './persisted-operations.ts';
import { DOCUMENT_ID_PARAMETER, persistedOperationsPlugin } from './persisted-operations-plugin.ts';
import { schema } from './schema.ts';
import { useGraphQlJit } from '@envelop/graphql-jit';
import type { CompiledReads } from './compiled/plugin.ts';
import { shareEventAnswers } from './event-results.ts';
import { type DocumentNode, GraphQLError, getOperationAST, getVariableValues, visit } from 'graphql';
import { DATABASE_UNAVAILABLE_MESSAGE, RETRY_AFTER_SECONDS, isDatabaseUnavailable } from '../db/unavailable.ts';
import { assertCleanInput } from '../lib/text-input.ts';

export interface ServerContext {
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
type OperationArgs = Parameters<NonNullable<Plugin['onExecute']>>[0]['args'];
type StopWith = (result: { errors: GraphQLError[] }) => void;

function refuseUncoercibleVariables(args: OperationArgs, stop: StopWith) {
  const operation = getOperationAST(args.document, args.operationName ?? undefined);
  if (!operation?.variableDefinitions?.length) return;
  const coerced = getVariableValues(args.schema, operation.variableDefinitions, (args.variableValues ?? {}) as Record<string, unknown>, {
    maxErrors: 50,
  });
  if (coerced.errors) {
    stop({ errors: coerced.errors.map((error) => new GraphQLError(error.message, { nodes: error.nodes, extensions: REQUEST_ERROR })) });
  }
}

const coerceVariablesFirst: Plugin = {
  onExecute: ({ args, setResultAndStopExecution }) => refuseUncoercibleVariables(args, setResultAndStopExecution),
  onSubscribe: ({ args, setResultAndStopExecution }) => refuseUncoercibleVariables(args as OperationArgs, setResultAndStopExecution),
};

/** Documents whose literal strings were found clean (Yoga parses each text once). */
const cleanDocuments = new WeakSet<DocumentNode>();

/** Strings a client sends, as variables or literals, are storable text (src/lib/text-input.ts), as over REST. */
function refuseUncleanText(args: OperationArgs, stop: StopWith) {
  try {
    assertCleanInput(args.variableValues ?? {}, 'variables');
    if (!cleanDocuments.has(args.document)) {
      visit(args.document, {
        StringValue(node) {
          assertCleanInput(node.value, 'a string in the document');
        },
      });
      cleanDocuments.add(args.document);
    }
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    stop({ errors: [new GraphQLError(error.message, { extensions: REQUEST_ERROR })] });
  }
}

const cleanTextOnly: Plugin = {
  onExecute: ({ args, setResultAndStopExecution }) => refuseUncleanText(args, setResultAndStopExecution),
  onSubscribe: ({ args, setResultAndStopExecution }) => refuseUncleanText(args as OperationArgs, setResultAndStopExecution),
};

const isGraphQLError = (error: unknown): error is GraphQLError =>
  // By name: a second copy of graphql (a bundler's ESM build) has its own class.
  error instanceof Error && error.name === 'GraphQLError';

/**
 * Yoga starts a subscription before it picks an answer format, and answers 406 when the
 * Accept header names none (src/http/graphql.ts words it): that subscription's stream
 * would keep its token's slot and queue events no one reads. Ended here instead.
 * Last among the plugins: by then Yoga's own result processors have had their say.
 */
const endUnansweredSubscriptions: Plugin = {
  onResultProcess({ result, resultProcessor }) {
    if (!resultProcessor && isAsyncIterable(result)) result.return?.()?.catch(() => {});
  },
};

const isAsyncIterable = (value: unknown): value is AsyncIterableIterator<unknown> =>
  typeof value === 'object' && value !== null && Symbol.asyncIterator in value;

/** Reports each executed operation by type (query, mutation) and outcome (for /metrics). */
function countOperations(onOperation: OperationCounter): Plugin {
  return {
    onExecute({ args }) {
      const type = getOperationAST(args.document, args.operationName)?.operation ?? 'unknown';
      return {
        onExecuteDone({ result }) {
          const errors = 'errors' in result && result.errors && result.errors.length > 0;
          onOperation(type, errors ? 'error' : 'ok');
        },
      };
    },
  };
}

/**
 * GraphiQL's Authorization header when the page carries no token: where a token
 * comes from, for the command as a checkout runs it and as the container image does.
 */
const GRAPHIQL_TOKEN_HINT = '<paste a token: docs-gateway bootstrap --help (npx docs-gateway … in a checkout, docker run … docs-gateway … with the image)>';

/** Counts one executed GraphQL operation. */
export type OperationCounter = (type: string, outcome: 'ok' | 'error') => void;

export interface GraphQLServerOptions {
  /** The token GraphiQL's page opens with for this request; the page asks for one when absent. */
  graphiqlToken?: ((request: Request) => string | undefined) | undefined;
  limits?: GraphQLLimits | undefined;
  onOperation?: OperationCounter | undefined;
  persistedOperations?: PersistedOperations | undefined;
  /** Where Yoga logs (src/http/logging.ts gives the request's logger). */
  logging: YogaLogger;
  /** Queries answered by one SQL statement per root field (src/graphql/compiled/); off when absent. */
  compiledReads?: CompiledReads | undefined;
}

/** The GraphQL server over the schema, with its limits and plugins; src/http/graphql.ts serves it at /graphql. */
export function createGraphQLServer(options: GraphQLServerOptions) {
  const limits = options.limits ?? DEFAULT_GRAPHQL_LIMITS;
  return createYoga<ServerContext, RequestContext>({
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
      // the reference executor (measured: the site tree in about 0.6 times the time).
      // Before the executor: a query it can answer in one statement per root field never reaches it.
      ...(options.compiledReads ? [options.compiledReads.plugin] : []),
      // Subscriptions run on graphql-js: graphql-jit does not hand their root field its arguments.
      useGraphQlJit({}, { enableIf: (args) => getOperationAST(args.document, args.operationName)?.operation !== 'subscription' }),
      ...(options.onOperation ? [countOperations(options.onOperation)] : []),
      shareEventAnswers,
      endUnansweredSubscriptions,
    ],
    logging: options.logging,
    // CORS is the app's (src/http/cors.ts), the same for REST and GraphQL.
    cors: false,
    context: ({ req }) => req.ctx!,
    // GraphiQL's build served by this server (src/graphql/graphiql.ts): no CDN, cacheable files.
    renderGraphiQL: (graphiqlOptions) => renderGraphiQLPage(graphiqlOptions as Record<string, unknown>),
    // The page is made per request: whether it may carry a token depends on the request (src/http/graphql.ts).
    graphiql: (request) => ({
      title: 'docs-gateway',
      defaultQuery: GRAPHIQL_EXAMPLE_QUERY,
      headers: JSON.stringify({ Authorization: `Bearer ${options.graphiqlToken?.(request) ?? GRAPHIQL_TOKEN_HINT}` }, null, 2),
    }),
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
        // Refused before anything ran (a stream beyond its owner's limits): the HTTP answer is the 429 itself.
        if (original instanceof TooManyRequests) {
          return new GraphQLError(original.message, {
            ...(isGraphQLError(error) ? { nodes: error.nodes, path: error.path } : {}),
            extensions: { code: 429, http: { status: 429, headers: { 'retry-after': String(original.retryAfterSeconds) } } },
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
}
