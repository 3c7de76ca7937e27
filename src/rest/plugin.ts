import type { FastifyInstance } from 'fastify';
import { assertSiteTokenReach } from '../domain/sites/site-tokens.ts';
import { openApiDocumentOf } from './openapi.ts';
import type { Route } from './route.ts';
import { auditRoutes } from './routes/audit.ts';
import { changeRequestRoutes } from './routes/change-requests.ts';
import { collectionRoutes } from './routes/collections.ts';
import { changeRequestCommentRoutes, spaceCommentRoutes } from './routes/comments.ts';
import { changeRequestContentRoutes, revisionRoutes, spaceContentRoutes, spaceLinkRoutes } from './routes/content.ts';
import { customFieldRoutes } from './routes/custom-fields.ts';
import { inviteRoutes } from './routes/invites.ts';
import { memberRoutes } from './routes/members.ts';
import { openApiSpecRoutes } from './routes/openapi-specs.ts';
import { organizationRoutes } from './routes/organizations.ts';
import { collectionPermissionRoutes, sitePermissionRoutes, spacePermissionRoutes } from './routes/permissions.ts';
import { reviewRoutes } from './routes/reviews.ts';
import { samlRoutes } from './routes/saml.ts';
import { siteCustomizationRoutes, siteSearchRoutes } from './routes/site-customization.ts';
import { siteRedirectRoutes } from './routes/site-redirects.ts';
import { siteRoutes } from './routes/sites.ts';
import { spaceGitBindingRoutes, spaceGitRoutes } from './routes/git.ts';
import { spaceRoutes } from './routes/spaces.ts';
import { teamRoutes } from './routes/teams.ts';
import { translationRoutes } from './routes/translations.ts';
import { urlRoutes } from './routes/urls.ts';
import { webhookRoutes } from './routes/webhooks.ts';

/** Routes grouped by tag, each group where its tag first appears, in their order within it: the index and the reference list them so. */
function groupedByTag(routes: Route[]): Route[] {
  const tags = [...new Set(routes.map((route) => route.tag))];
  return tags.flatMap((tag) => routes.filter((route) => route.tag === tag));
}

/** Every REST operation, in documentation order. */
export const restRoutes: Route[] = groupedByTag([
  ...organizationRoutes,
  ...memberRoutes,
  ...teamRoutes,
  ...inviteRoutes,
  ...samlRoutes,
  ...auditRoutes,
  ...collectionRoutes,
  ...collectionPermissionRoutes,
  ...spaceRoutes,
  ...spacePermissionRoutes,
  ...spaceLinkRoutes,
  ...spaceContentRoutes,
  ...spaceGitRoutes,
  ...spaceGitBindingRoutes,
  ...changeRequestRoutes,
  ...reviewRoutes,
  ...changeRequestContentRoutes,
  ...revisionRoutes,
  ...spaceCommentRoutes,
  ...changeRequestCommentRoutes,
  ...customFieldRoutes,
  ...siteRoutes,
  ...sitePermissionRoutes,
  ...siteCustomizationRoutes,
  ...siteSearchRoutes,
  ...siteRedirectRoutes,
  ...urlRoutes,
  ...translationRoutes,
  ...openApiSpecRoutes,
  ...webhookRoutes,
]);

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
        // A site token reaches an allow-list of reads of its one site (403 elsewhere).
        if (request.ctx!.siteToken) await assertSiteTokenReach(request.ctx!, definition.operationId, params);
        const result = await definition.handler(request.ctx!, {
          params: rest === undefined ? params : { ...params, pagePath: rest },
          query: request.query as Record<string, unknown>,
          body: request.body,
          headers: request.headers as Record<string, string | undefined>,
        });
        // A 205 operation answers 204 when there was nothing to remove (the official statuses): its handler returns 204, or false with noContentWhenAbsent.
        if (definition.status === 204 || definition.status === 205) {
          return reply.code((definition.noContentWhenAbsent && result === false) || result === 204 ? 204 : definition.status).send();
        }
        const location = (result as { urls?: { location?: string } } | undefined)?.urls?.location;
        if (definition.status === 201 && location) reply.header('location', location);
        return reply.code(definition.status).send(result);
      },
    });
  }
  app.get(OPENAPI_PATH, async () => openApiDocumentOf(restRoutes, options.publicUrl));
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
