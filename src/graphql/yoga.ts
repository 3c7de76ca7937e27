import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GraphQLError } from 'graphql';
import { type Plugin, createYoga } from 'graphql-yoga';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import type { RequestContext } from '../context.ts';
import { DomainError } from '../errors.ts';
import { schema } from './schema.ts';

interface ServerContext {
  req: FastifyRequest;
  reply: FastifyReply;
}

/** Errors in the query document itself (unknown fields, wrong argument types) are the client's: code 400. */
const validationErrorsAre400: Plugin = {
  onValidate: () => ({ valid, result }) => {
    if (valid) return;
    for (const error of result) {
      (error as { extensions: Record<string, unknown> }).extensions ??= {};
      error.extensions.code ??= 400;
    }
  },
};

const isGraphQLError = (error: unknown): error is GraphQLError =>
  // By name: a second copy of graphql (a bundler's ESM build) has its own class.
  error instanceof Error && error.name === 'GraphQLError';

/** Yoga on Fastify at /graphql, with the request context built by the app's authentication hook. */
export async function graphqlPlugin(app: FastifyInstance, options: { graphiqlToken?: string | undefined }) {
  const yoga = createYoga<ServerContext, RequestContext>({
    schema,
    plugins: [validationErrorsAre400],
    logging: app.log,
    // CORS is the app's (src/cors.ts), the same for REST and GraphQL.
    cors: false,
    context: ({ req }) => req.ctx!,
    // GraphiQL served from the package itself: the page works without reaching a CDN.
    renderGraphiQL,
    graphiql: {
      title: 'docs-gateway',
      headers: JSON.stringify(
        { Authorization: `Bearer ${options.graphiqlToken ?? '<paste a token: npx docs-gateway bootstrap --help>'}` },
        null,
        2,
      ),
    },
    maskedErrors: {
      // Domain errors reach the client with the status REST would answer; anything else is masked.
      maskError: (error, message) => {
        const original = isGraphQLError(error) ? error.originalError : error;
        if (original instanceof DomainError) {
          return new GraphQLError(original.message, {
            ...(isGraphQLError(error) ? { nodes: error.nodes, path: error.path } : {}),
            extensions: { code: original.status },
          });
        }
        // Parse, validation and input-coercion errors are the client's: they have no resolver path.
        if (isGraphQLError(error) && (!error.originalError || !error.path)) {
          return new GraphQLError(error.message, { nodes: error.nodes, extensions: { ...error.extensions, code: 400 } });
        }
        return new GraphQLError(message, {
          ...(isGraphQLError(error) ? { nodes: error.nodes, path: error.path } : {}),
          extensions: { code: 500 },
        });
      },
    },
  });

  app.route({
    url: yoga.graphqlEndpoint,
    method: ['GET', 'POST'],
    handler: async (req, reply) => {
      const response = await yoga.handleNodeRequestAndResponse(req, reply, { req, reply });
      if (req.responseCacheKey === null) return response;
      // A cacheable result is read whole, so that the response cache sees its text.
      reply.status(response.status);
      response.headers.forEach((value, name) => reply.header(name, value));
      return reply.send(await response.text());
    },
  });
}
