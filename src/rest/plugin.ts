import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument } from './openapi.ts';
import type { Route } from './route.ts';
import { changeRequestRoutes } from './routes/change-requests.ts';
import { collectionRoutes } from './routes/collections.ts';
import { changeRequestCommentRoutes, spaceCommentRoutes } from './routes/comments.ts';
import { changeRequestContentRoutes, spaceContentRoutes, spaceLinkRoutes } from './routes/content.ts';
import { customFieldRoutes } from './routes/custom-fields.ts';
import { inviteRoutes } from './routes/invites.ts';
import { memberRoutes } from './routes/members.ts';
import { openApiSpecRoutes } from './routes/openapi-specs.ts';
import { organizationRoutes } from './routes/organizations.ts';
import { samlRoutes } from './routes/saml.ts';
import { siteRoutes } from './routes/sites.ts';
import { spaceRoutes } from './routes/spaces.ts';
import { teamRoutes } from './routes/teams.ts';
import { translationRoutes } from './routes/translations.ts';

/** Every REST operation, in documentation order. */
export const restRoutes: Route[] = [
  ...organizationRoutes,
  ...memberRoutes,
  ...teamRoutes,
  ...inviteRoutes,
  ...samlRoutes,
  ...collectionRoutes,
  ...spaceRoutes,
  ...spaceLinkRoutes,
  ...spaceContentRoutes,
  ...changeRequestRoutes,
  ...changeRequestContentRoutes,
  ...spaceCommentRoutes,
  ...changeRequestCommentRoutes,
  ...customFieldRoutes,
  ...siteRoutes,
  ...translationRoutes,
  ...openApiSpecRoutes,
];

export const OPENAPI_PATH = '/v1/openapi.json';

/** Mounts the route table on Fastify: request → domain service → JSON (or an empty 204/205). */
export async function restPlugin(app: FastifyInstance, options: { publicUrl: string }) {
  for (const definition of restRoutes) {
    app.route({
      method: definition.method,
      // A page path is slugs joined by "/": the rest of the URL, slashes and all.
      url: definition.path.replace(/\{pagePath\}$/, '*').replace(/\{(\w+)\}/g, ':$1'),
      ...(definition.bodyLimit ? { bodyLimit: definition.bodyLimit } : {}),
      handler: async (request, reply) => {
        const { '*': rest, ...params } = request.params as Record<string, string>;
        const result = await definition.handler(request.ctx!, {
          params: rest === undefined ? params : { ...params, pagePath: rest },
          query: request.query as Record<string, unknown>,
          body: request.body,
          headers: request.headers as Record<string, string | undefined>,
        });
        if (definition.status === 204 || definition.status === 205) return reply.code(definition.status).send();
        const location = (result as { urls?: { location?: string } } | undefined)?.urls?.location;
        if (definition.status === 201 && location) reply.header('location', location);
        return reply.code(definition.status).send(result);
      },
    });
  }
  let document: object | undefined;
  app.get(OPENAPI_PATH, async () => (document ??= buildOpenApiDocument(restRoutes, options.publicUrl)));
  // The base address answers with what lives under it: every operation by tag, and the reference.
  const index = restIndex(options.publicUrl);
  app.get('/v1', async () => index);
}

/** Every operation of the route table grouped by tag, in documentation order. */
function restIndex(publicUrl: string) {
  const tags = new Map<string, Array<{ method: string; path: string; operationId: string; summary: string }>>();
  for (const { tag, method, path, operationId, summary } of restRoutes) {
    tags.set(tag, [...(tags.get(tag) ?? []), { method, path, operationId, summary }]);
  }
  return {
    name: 'docs-gateway REST API v1',
    openapi: `${publicUrl}${OPENAPI_PATH}`,
    authentication: 'Authorization: Bearer <token>',
    resources: [...tags].map(([tag, operations]) => ({ tag, operations })),
  };
}
