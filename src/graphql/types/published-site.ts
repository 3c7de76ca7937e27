import { getSiteCustomization, getSiteSpaceCustomization } from '../../domain/sites/customization.ts';
import { type PublishedContent, type PublishedEntry, publishedContent, publishedCustomizationsFor } from '../../domain/sites/published.ts';
import { builder } from '../builder.ts';
import { connectionQuery } from '../connection.ts';
import { restEnum } from './common.ts';
import { Site, SiteSection, SiteSectionGroup, SiteSpace, orgAndSite, siteOf } from './site-common.ts';

/** The published tree: a site as its audience sees it (the `publishedSite` query). */

const PublishedSiteEntry = builder.unionType('PublishedSiteEntry', {
  description: 'An entry of a published structure: a section, a section group, or (in a site without sections) a site space',
  types: [SiteSection, SiteSectionGroup, SiteSpace],
  resolveType: (entry: PublishedEntry) => ('kind' in entry ? (entry.kind === 'section' ? 'SiteSection' : 'SiteSectionGroup') : 'SiteSpace'),
});

const PublishedSiteStructure = builder.objectRef<PublishedContent['structure']>('PublishedSiteStructure').implement({
  description: '`sections` (sections and groups) or, for a site without sections, `siteSpaces`',
  fields: (t) => ({
    type: t.expose('type', {
      type: restEnum('SiteStructureType', 'What the entries of a published structure are', {
        sections: 'The site has sections: entries are sections and section groups',
        siteSpaces: 'The site has no sections: entries are its root-level site spaces',
      }),
      description: 'What its entries are',
    }),
    structure: t.field({
      type: [PublishedSiteEntry],
      description: 'The top-level entries shown to the audience, in order; a section group is shown when one of its sections is',
      resolve: (structure) => structure.entries,
    }),
  }),
});

const PublishedContentSite = builder.objectRef<PublishedContent>('PublishedContentSite').implement({
  description: 'A site as its audience sees it: the site, its published structure and its customizations (REST `GET …/sites/{siteId}/published`)',
  fields: (t) => ({
    object: t.string({ description: 'Always "published-content-site"', resolve: () => 'published-content-site' }),
    site: t.field({
      type: Site,
      description: 'The site; its connections list what the audience is shown',
      resolve: (published) => published.audience.site,
    }),
    structure: t.expose('structure', {
      type: PublishedSiteStructure,
      description: 'Its sections and section groups, or its site spaces, that the audience is shown',
    }),
    customizations: t.field({
      type: 'JSON',
      description: "Its customizations as REST gives them, `{site, siteSpaces}`: the site's settings, and those of each site space with an override",
      resolve: (published, _args, ctx) => publishedCustomizationsFor(ctx, published.audience),
    }),
    scripts: t.field({ type: 'JSON', description: 'Always an empty list: this server has no integration scripts', resolve: () => [] }),
  }),
});

builder.queryFields((t) => ({
  publishedSite: t.field({
    type: PublishedContentSite,
    nullable: true,
    description:
      'A site as its audience sees it: a share key opens share-link sites, a visitor token visitor-auth ones; conditions are evaluated on the token claims',
    args: {
      siteId: t.arg.id({ required: true, description: 'The site id' }),
      shareKey: t.arg.string({
        description: 'The key of an active share link, which a share-link site needs from visitors (the `shareKey` of its published URL)',
      }),
      visitorToken: t.arg.string({
        description:
          "A visitor token, which a visitor-auth site needs from visitors: a JWT (HS256) signed with the site's key or the organization's, expiring within 30 days; its claims are the visitor claims (REST: the visitorToken query parameter, or the X-Visitor-Token header)",
      }),
    },
    resolve: (_root, { siteId, ...query }, ctx) => publishedContent(ctx, null, siteId, connectionQuery(query)),
  }),
}));

// The structure and customization of a site, as REST's getSiteStructure and getSiteCustomizationById answer them.

builder.objectField(Site, 'structure', (t) =>
  t.field({
    type: PublishedSiteStructure,
    description:
      'Its sections and section groups, or its site spaces (REST `GET …/structure`): all of them for members, those shown to a visitor who opened it',
    resolve: async (site, _args, ctx) => (await publishedContent(ctx, site.organizationId, site.id, {})).structure,
  }),
);

builder.objectField(Site, 'customization', (t) =>
  t.field({
    type: 'JSON',
    description: 'Its customization settings, the official SiteCustomizationSettings (REST `GET …/customization`): the defaults until set',
    resolve: (site, _args, ctx) => getSiteCustomization(ctx, ...orgAndSite(site)),
  }),
);

builder.objectField(SiteSpace, 'customization', (t) =>
  t.field({
    type: 'JSON',
    description: "Its customization settings: the site's with this site space's override (REST `GET …/site-spaces/{siteSpaceId}/customization`)",
    resolve: async (siteSpace, _args, ctx) => {
      const site = await siteOf(ctx, siteSpace.siteId);
      return getSiteSpaceCustomization(ctx, site.organizationId, site.id, siteSpace.id);
    },
  }),
);
