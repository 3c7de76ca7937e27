import { ResolveUrlInput, ResolveUrlQuery, getPublishedUrl, resolvePublishedUrl } from '../../domain/sites/urls.ts';
import { route } from '../route.ts';

/** Where URLs of published sites are resolved: answered without a token too (src/http/app.ts tokenPolicy). */
export const PUBLISHED_URL_PATH = '/v1/urls/published';

export const urlRoutes = [
  route({
    method: 'POST',
    path: PUBLISHED_URL_PATH,
    operationId: 'resolvePublishedContentByUrl',
    summary:
      'The published content a URL shows (site, section, site space, space, page path) with a site token to read it (`apiToken`); no token needed; `visitor.jwtToken` for visitor-auth sites and adaptive content',
    tag: 'URLs',
    body: ResolveUrlInput,
    status: 200,
    response: 'PublishedSiteContentLookup',
    handler: (ctx, { body }) => resolvePublishedUrl(ctx, body),
  }),
  route({
    method: 'GET',
    path: PUBLISHED_URL_PATH,
    operationId: 'getPublishedContentByUrl',
    summary: 'The published content a URL shows, as its POST does (`visitorAuthToken` for the visitor token); no token needed',
    tag: 'URLs',
    query: ResolveUrlQuery,
    status: 200,
    response: 'PublishedSiteContentLookup',
    handler: (ctx, { query }) => getPublishedUrl(ctx, query),
  }),
];
