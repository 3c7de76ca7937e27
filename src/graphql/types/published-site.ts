import { defaultCustomizations } from '../../domain/sites/presenter.ts';
import { type PublishedContent, type PublishedEntry, publishedContent } from '../../domain/sites/published.ts';
import { builder } from '../builder.ts';
import { connectionQuery } from '../connection.ts';
import { restEnum } from './common.ts';
import { Site, SiteSection, SiteSectionGroup, SiteSpace } from './site-common.ts';

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
      description: 'Its customizations as REST gives them, `{site, siteSpaces}`: always the defaults here (this server stores none)',
      resolve: (published) => ({ site: defaultCustomizations(published.audience.site), siteSpaces: {} }),
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
