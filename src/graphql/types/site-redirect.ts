import {
  type SITE_REDIRECT_ORDERS,
  type SiteRedirectJSON,
  createSiteRedirect,
  deleteSiteRedirect,
  listSiteRedirects,
  updateSiteRedirect,
} from '../../domain/sites/redirects.ts';
import { notFound } from '../../errors.ts';
import { builder } from '../builder.ts';
import { connectionQuery, toConnection } from '../connection.ts';
import { type FieldBuilder, Site, deletedPayload, orgAndSite, pathOfSite, siteIdField } from './site-common.ts';

/** Site redirects (a site's `redirects`), and their mutations: the REST site-redirect operations over GraphQL. */

const SiteRedirect = builder.objectRef<SiteRedirectJSON>('SiteRedirect');

SiteRedirect.implement({
  description: 'A redirect of a site: readers asking for its source path are sent to its destination',
  fields: (t) => ({
    object: t.exposeString('object', { description: 'Always "site-redirect"' }),
    id: t.exposeID('id', { description: 'The redirect id' }),
    source: t.exposeString('source', {
      description: 'The path it matches, relative to the site ("/old/page"); ending with "*" it matches every path that starts so',
    }),
    destination: t.expose('destination', {
      type: 'JSON',
      description:
        'Where it sends readers (the official SiteRedirectDestination): {kind: "site-section", siteSectionId}, {kind: "site-space", siteSpaceId}, {kind: "site-page", siteSpaceId, pageId} or {kind: "external", url}',
    }),
    draft: t.exposeBoolean('draft', { description: 'Whether it is a draft, not yet applied to readers' }),
    captureWildcard: t.exposeBoolean('captureWildcard', { description: 'Whether what a wildcard source matched is appended to the destination' }),
    permanent: t.exposeBoolean('permanent', { description: 'Whether readers get a permanent redirect (308) rather than a temporary one (307)' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', nullable: true, description: 'When it was last changed; null until it is' }),
  }),
});

const SiteRedirectOrder = builder.enumType('SiteRedirectOrder', {
  description: 'The order of a listing of redirects',
  values: {
    createdAt: { description: 'Newest first' },
    updatedAt: { description: 'Most recently changed first' },
    source: { description: 'By source path, alphabetically' },
  } satisfies Record<(typeof SITE_REDIRECT_ORDERS)[number], { description: string }>,
});

builder.objectField(Site, 'redirects', (t) =>
  t.connection({
    type: SiteRedirect,
    description: "The site's redirects (members who see the site), newest first unless `orderBy` says",
    args: {
      search: t.arg.string({ description: 'Only redirects whose source contains this text' }),
      draft: t.arg.boolean({ description: 'true: the draft redirects; false or absent: the live ones' }),
      orderBy: t.arg({ type: SiteRedirectOrder, description: 'The order; createdAt when absent' }),
    },
    resolve: async (site, args, ctx) => toConnection(await listSiteRedirects(ctx, ...orgAndSite(site), connectionQuery(args))),
  }),
);

const payload = {
  siteRedirect: {
    outputFields: (t: FieldBuilder<{ siteRedirect: SiteRedirectJSON }>) => ({
      siteRedirect: t.expose('siteRedirect', { type: SiteRedirect }),
    }),
  },
  deleted: deletedPayload,
};

const SOURCE = 'Its source path, relative to the site ("/old/page", or ending with "*" for every path that starts so)';

builder.relayMutationField(
  'createSiteRedirect',
  {
    inputFields: (t) => ({
      ...siteIdField(t),
      source: t.string({ required: true, description: SOURCE }),
      destination: t.field({
        type: 'JSON',
        required: true,
        description:
          'Where it sends readers: a SiteRedirectDestination, or {kind: "path", spaceId, path} for a page of a space the site shows, named by its path',
      }),
      captureWildcard: t.boolean({ description: 'Append what a wildcard source matched to the destination' }),
      draft: t.boolean({ description: 'Create it as a draft, not yet applied to readers' }),
      permanent: t.boolean({ description: 'A permanent redirect (308) rather than a temporary one (307)' }),
    }),
  },
  {
    description: 'Creates a redirect of a site (admins of the organization); a source is unique among the live (or the draft) redirects',
    resolve: async (_root, { input: { siteId, ...body } }, ctx) => ({
      siteRedirect: await createSiteRedirect(ctx, ...(await pathOfSite(ctx, siteId)), connectionQuery(body)),
    }),
  },
  payload.siteRedirect,
);

builder.relayMutationField(
  'updateSiteRedirect',
  {
    inputFields: (t) => ({
      ...siteIdField(t),
      siteRedirectId: t.id({ required: true, description: 'The redirect' }),
      source: t.string({ description: SOURCE }),
      destination: t.field({ type: 'JSON', description: 'Where it sends readers: a SiteRedirectDestination' }),
      captureWildcard: t.boolean({ description: 'Append what a wildcard source matched to the destination' }),
      draft: t.boolean({ description: 'Whether it is a draft' }),
      permanent: t.boolean({ description: 'A permanent redirect (308) rather than a temporary one (307)' }),
    }),
  },
  {
    description: 'Changes a redirect of a site (admins of the organization); absent fields keep their value',
    resolve: async (_root, { input: { siteId, siteRedirectId, ...body } }, ctx) => ({
      siteRedirect: await updateSiteRedirect(ctx, ...(await pathOfSite(ctx, siteId)), siteRedirectId, connectionQuery(body)),
    }),
  },
  payload.siteRedirect,
);

builder.relayMutationField(
  'deleteSiteRedirect',
  { inputFields: (t) => ({ ...siteIdField(t), siteRedirectId: t.id({ required: true, description: 'The redirect' }) }) },
  {
    description: 'Deletes a redirect of a site (admins of the organization): readers asking for its source are no longer sent anywhere',
    resolve: async (_root, { input: { siteId, siteRedirectId } }, ctx) => {
      const status = await deleteSiteRedirect(ctx, ...(await pathOfSite(ctx, siteId)), siteRedirectId);
      if (status === 204) throw notFound('Site redirect', siteRedirectId);
      return { deletedId: siteRedirectId };
    },
  },
  payload.deleted,
);
