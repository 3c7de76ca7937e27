import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GraphQLError } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import type { RequestContext } from '../context.ts';
import { DomainError } from '../errors.ts';
import { schema } from './schema.ts';

interface ServerContext {
  req: FastifyRequest;
  reply: FastifyReply;
}

/** Yoga on Fastify at /graphql, with the request context built by the app's authentication hook. */
export async function graphqlPlugin(app: FastifyInstance, options: { graphiqlToken?: string | undefined }) {
  const yoga = createYoga<ServerContext, RequestContext>({
    schema,
    logging: app.log,
    context: ({ req }) => req.ctx!,
    // GraphiQL served from the package itself: the page works without reaching a CDN.
    renderGraphiQL,
    graphiql: {
      title: 'docs-gateway',
      ...(options.graphiqlToken
        ? { headers: JSON.stringify({ Authorization: `Bearer ${options.graphiqlToken}` }) }
        : {}),
    },
    maskedErrors: {
      // Domain errors reach the client with the status REST would answer; anything else is masked.
      maskError: (error, message) => {
        const original = error instanceof GraphQLError ? error.originalError : error;
        if (original instanceof DomainError) {
          return new GraphQLError(original.message, {
            ...(error instanceof GraphQLError ? { nodes: error.nodes, path: error.path } : {}),
            extensions: { code: original.status },
          });
        }
        // Parse, validation and input-coercion errors are the client's: they have no resolver path.
        if (error instanceof GraphQLError && (!error.originalError || !error.path)) {
          return new GraphQLError(error.message, { nodes: error.nodes, extensions: { ...error.extensions, code: 400 } });
        }
        return new GraphQLError(message, {
          ...(error instanceof GraphQLError ? { nodes: error.nodes, path: error.path } : {}),
          extensions: { code: 500 },
        });
      },
    },
  });

  app.route({
    url: yoga.graphqlEndpoint,
    method: ['GET', 'POST', 'OPTIONS'],
    handler: (req, reply) => yoga.handleNodeRequestAndResponse(req, reply, { req, reply }),
  });
}
