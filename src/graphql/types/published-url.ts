import {
  type PublishedContentRedirectJSON,
  type PublishedSiteContentJSON,
  type PublishedSiteContentLookupJSON,
  resolvePublishedUrl,
} from '../../domain/sites/urls.ts';
import { builder } from '../builder.ts';

/** URL resolution (the `publishedContentByUrl` query): REST's `POST /v1/urls/published`. */

const PublishedUrlContent = builder.objectRef<PublishedSiteContentJSON>('PublishedUrlContent').implement({
  description: 'The published content a URL shows, with a site token to read it (REST `PublishedSiteContent`)',
  fields: (t) => ({
    site: t.exposeID('site', { description: 'Id of the site' }),
    siteSection: t.exposeID('siteSection', { nullable: true, description: 'Id of the section, in a site with sections' }),
    siteSpace: t.exposeID('siteSpace', { description: 'Id of the site space' }),
    space: t.exposeID('space', { description: 'Id of the space the site space publishes' }),
    organization: t.exposeID('organization', { description: 'Id of the organization of the site' }),
    pathname: t.exposeString('pathname', { description: 'The page path in the space, after `basePath` ("" for the space root)' }),
    basePath: t.exposeString('basePath', { description: "The URL path up to the site space (the site's, share key, section and site space segments)" }),
    siteBasePath: t.exposeString('siteBasePath', { description: 'The URL path up to the site (its address and share key)' }),
    apiToken: t.exposeString('apiToken', {
      description:
        'A site token: a JWT (HS256) naming the organization, site, site space, space and the visitor claims, expiring within the hour; a bearer token for the REST reads of this site only',
    }),
    shareKey: t.exposeString('shareKey', { nullable: true, description: 'The share key the URL carried, for a share-link site' }),
    complete: t.exposeBoolean('complete', {
      description: 'Whether the URL named every level of the site (no further section or site space segment may follow)',
    }),
    contextId: t.exposeString('contextId', { nullable: true, description: "Changes with the visitor's claims (cache key), for a visitor with a token" }),
    canonicalUrl: t.exposeString('canonicalUrl', { description: 'The canonical address of this content' }),
    preview: t.exposeBoolean('preview', { description: 'Always false: a published URL, not a preview' }),
  }),
});

const PublishedUrlRedirect = builder.objectRef<PublishedContentRedirectJSON>('PublishedUrlRedirect').implement({
  description: 'The URL moved: where to go instead (REST `PublishedContentRedirect`)',
  fields: (t) => ({
    target: t.exposeString('target', { description: '"content" (other content of the site) or "application" (where the visitor signs in)' }),
    redirect: t.exposeString('redirect', { description: 'The address to go to' }),
  }),
});

const PublishedUrlLookup = builder.unionType('PublishedUrlLookup', {
  description: 'What a URL of a published site resolves to: content, or a redirect',
  types: [PublishedUrlContent, PublishedUrlRedirect],
  resolveType: (lookup: PublishedSiteContentLookupJSON) => ('redirect' in lookup ? 'PublishedUrlRedirect' : 'PublishedUrlContent'),
});

builder.queryFields((t) => ({
  publishedContentByUrl: t.field({
    type: PublishedUrlLookup,
    nullable: true,
    description:
      'The published content a URL of a published site shows, as an anonymous visitor (or the visitor of `visitorToken`) may see it; an error 404 for what is not published or not visible (REST `POST /v1/urls/published`)',
    args: {
      url: t.arg.string({ required: true, description: "The address a reader opened: the site's published address or custom hostname, then its path" }),
      visitorToken: t.arg.string({
        description: "The visitor's JWT (REST `visitor.jwtToken`): signed with the site's key or the organization's; its claims drive adaptive content",
      }),
      redirectOnError: t.arg.boolean({
        description:
          "Answer a redirect rather than an error 404: to the site's fallbackURL for a visitor of a visitor-auth site without a valid token, to the closest page above a page path that does not resolve",
      }),
    },
    resolve: (_root, { url, visitorToken, redirectOnError }, ctx) =>
      resolvePublishedUrl(ctx, {
        url,
        ...(visitorToken ? { visitor: { jwtToken: visitorToken } } : {}),
        ...(redirectOnError != null ? { redirectOnError } : {}),
      }),
  }),
}));
