import type { RequestContext } from '../../context.ts';
import { sitePermissions } from '../../domain/access.ts';
import { loader } from '../../domain/loaders.ts';
import { organizationAccess, organizationRecord } from '../../domain/organizations/service.ts';
import { NEW_SPACE_VALUES, type SITE_TYPES, type SITE_VISIBILITIES } from '../../domain/sites/inputs.ts';
import {
  SITE_DEFAULT_LEVEL,
  type ShareLinkJSON,
  type SiteJSON,
  type SiteSectionGroupJSON,
  type SiteSectionJSON,
  type SiteSpaceJSON,
  defaultCustomizations,
  sectionPublishedUrl,
  siteProxy,
  siteSpacePublishedUrl,
  siteUrls,
} from '../../domain/sites/presenter.ts';
import { type PublishedContent, type PublishedEntry, publishedContent } from '../../domain/sites/published.ts';
import {
  type SectionGroupView,
  type SectionView,
  type SiteRecord,
  type SiteSpaceRecord,
  sectionRecords,
  shownSectionsOf,
  shownSiteSpacesOf,
  siteRecords,
} from '../../domain/sites/records.ts';
import {
  addSectionToGroup,
  createSectionGroup,
  deleteSectionGroup,
  listSectionGroupViews,
  moveSectionGroup,
  removeSectionFromGroup,
  sectionGroupById,
  updateSectionGroup,
} from '../../domain/sites/section-groups.ts';
import { createSection, deleteSection, listSectionViews, moveSection, sectionById, updateSection } from '../../domain/sites/sections.ts';
import {
  createSite,
  deleteSite,
  getAdaptiveSchema,
  listSiteRecords,
  listSpaceSiteRecords,
  setSitePublished,
  siteById,
  updateAdaptiveSchema,
  updateSite,
} from '../../domain/sites/service.ts';
import { createShareLink, deleteShareLink, listShareLinks, shareLinkById, updateShareLink } from '../../domain/sites/share-links.ts';
import { addSiteSpace, deleteSiteSpace, listSiteSpaceRecords, moveSiteSpace, siteSpaceById, updateSiteSpace } from '../../domain/sites/site-spaces.ts';
import { loadColumns } from '../../domain/columns.ts';
import { spaceColumns } from '../../domain/spaces/service.ts';
import { columnsOf } from '../columns.ts';
import { invalid, nullIfHidden } from '../../errors.ts';
import { builder } from '../builder.ts';
import { connectionQuery, loadEach, toConnection } from '../connection.ts';
import { booleanObject, restEnum, urlsObject } from './common.ts';
import { Organization } from './organization.ts';
import { SPACE_FIELD_COLUMNS, Space } from './space.ts';

/** Sites, their sections, section groups, site spaces and share links; the published tree. */

const SitePermissions = booleanObject('SitePermissions', [
  'view',
  'access',
  'edit',
  'create',
  'admin',
  'installIntegration',
  'viewAdaptiveSchema',
  'editAdaptiveSchema',
] as const);
const SiteUrls = urlsObject('SiteUrls', ['location', 'app', 'preview'], ['published']);
const PublishedUrls = urlsObject('PublishedUrls', [], ['published']);

const SiteProxy = builder.objectRef<{ origin: string; target: string }>('SiteProxy').implement({
  description: 'A reverse proxy that serves the published site under another host and path',
  fields: (t) => ({
    origin: t.exposeString('origin', { description: 'Where the proxy serves the site: a host and path, e.g. example.com/docs' }),
    target: t.exposeString('target', { description: "What the proxy forwards to: the site's own published address" }),
  }),
});
const SiteAdaptiveContent = builder.objectRef<{ enabled: boolean }>('SiteAdaptiveContent').implement({
  description: 'The adaptive content setting of a site: content adapted to visitor claims',
  fields: (t) => ({
    enabled: t.exposeBoolean('enabled', {
      description: 'Whether adaptive content is on (a stored setting: conditions of sections and site spaces are evaluated either way)',
    }),
  }),
});
const SiteAdaptiveSchema = builder.objectRef<{ object: string; jsonSchema: unknown; updatedAt: string }>('SiteAdaptiveSchema').implement({
  description: 'The JSON Schema (draft-07) of the visitor attributes that conditions read',
  fields: (t) => ({
    object: t.exposeString('object', { description: 'Always "site-adaptive-schema"' }),
    jsonSchema: t.field({
      type: 'JSON',
      description: 'The schema: an object schema whose properties are the visitor claims; an empty one (no properties) until one is set',
      resolve: (schema) => schema.jsonSchema,
    }),
    updatedAt: t.field({
      type: 'DateTime',
      description: "When the schema was last replaced; the site's creation until then",
      resolve: (schema) => schema.updatedAt,
    }),
  }),
});

// Each type is backed by rows (sections and groups with the filter of their
// audience): fields are computed when a query asks for them, by the functions
// REST's presenters use, and related rows come from per-request loaders.

export const Site = builder.loadableNodeRef<SiteRecord, string>('Site', {
  id: { resolve: (site) => site.id },
  load: (ids, ctx) => loadEach(ids, (id) => siteById(ctx, id)),
});
export const SiteSection = builder.loadableNodeRef<SectionView, string>('SiteSection', {
  id: { resolve: (view) => view.section.id },
  load: (ids, ctx) => loadEach(ids, (id) => sectionById(ctx, id)),
});
export const SiteSectionGroup = builder.loadableNodeRef<SectionGroupView, string>('SiteSectionGroup', {
  id: { resolve: (view) => view.group.id },
  load: (ids, ctx) => loadEach(ids, (id) => sectionGroupById(ctx, id)),
});
export const SiteSpace = builder.loadableNodeRef<SiteSpaceRecord, string>('SiteSpace', {
  id: { resolve: (siteSpace) => siteSpace.id },
  load: (ids, ctx) => loadEach(ids, (id) => siteSpaceById(ctx, id)),
});

const siteOf = async (ctx: RequestContext, siteId: string) => (await loader(ctx, siteRecords).load(siteId))!;

const ShareLink = builder.objectRef<ShareLinkJSON>('ShareLink').implement({
  description: 'A secret address of a share-link site: its published URL carries the shareKey',
  fields: (t) => ({
    object: t.exposeString('object', { description: 'Always "share-link"' }),
    id: t.exposeID('id', { description: 'The share link id (not its secret key)' }),
    createdAt: t.field({ type: 'DateTime', description: 'When it was created', resolve: (link) => link.createdAt }),
    name: t.exposeString('name', { nullable: true, description: 'A name to tell it apart; null when it has none' }),
    active: t.exposeBoolean('active', { nullable: true, description: 'Whether its key opens the site; an inactive link opens nothing' }),
    urls: t.field({
      type: PublishedUrls,
      description: "Its address: the site's published address with the secret `shareKey` in the query string",
      resolve: (link) => link.urls,
    }),
  }),
});

type SiteTypeValue = (typeof SITE_TYPES)[number];

const SiteType = restEnum('SiteType', 'The plan of a site (REST `type`); this server keeps no billing, so it is only a label', {
  basic: 'Basic (the default)',
  premium: 'Premium',
  ultimate: 'Ultimate',
  sponsored: 'Sponsored',
  'legacy-basic': 'Basic, legacy',
  'legacy-premium': 'Premium, legacy',
});

const SiteVisibility = restEnum('SiteVisibility', 'Who may read a published site (REST `visibility`); members preview it either way', {
  public: 'Anyone (the default)',
  unlisted: 'Anyone with its address (served as public here: no search engine index is kept)',
  'share-link': 'Visitors with the key of an active share link',
  'visitor-auth': 'Visitors with a visitor token',
});

const orgAndSite = (site: SiteRecord) => [site.organizationId, site.id] as const;

Site.implement({
  description: 'A published docs site. Its site spaces are the `siteSpaces` connection (REST: the number `siteSpaces`, here `siteSpaces.totalCount`)',
  fields: (t) => ({
    object: t.string({ description: 'Always "site"', resolve: () => 'site' }),
    type: t.field({ type: SiteType, description: 'Its plan', resolve: (site) => site.type as SiteTypeValue }),
    appliedType: t.field({ type: SiteType, description: 'The plan in effect: always the same as `type` here', resolve: (site) => site.type as SiteTypeValue }),
    title: t.exposeString('title', { description: 'Its title (2 to 128 characters)' }),
    hostname: t.exposeString('hostname', {
      nullable: true,
      description: "Its custom hostname, e.g. docs.example.com; null when it is served at the application's address",
    }),
    basename: t.exposeString('basename', { nullable: true, description: 'A path prefix of its published address; null for none' }),
    proxy: t.field({
      type: SiteProxy,
      nullable: true,
      description: 'The reverse proxy it is served through; null for none',
      resolve: (site, _args, ctx) => siteProxy(site, ctx.urls) ?? null,
    }),
    visibility: t.field({
      type: SiteVisibility,
      description: 'Who may read it once published',
      resolve: (site) => site.visibility as (typeof SITE_VISIBILITIES)[number],
    }),
    defaultLevel: t.string({
      nullable: true,
      description: 'Always "inherit": access to sites follows the organization role, nothing is set per site',
      resolve: () => SITE_DEFAULT_LEVEL,
    }),
    permissions: t.field({
      type: SitePermissions,
      description: "What the caller may do with the site, from its role in the site's organization (all false for visitors)",
      resolve: async (site, _args, ctx) => sitePermissions(await organizationAccess(ctx, site.organizationId)),
    }),
    published: t.exposeBoolean('published', {
      description: 'Whether visitors can reach it (the audience its visibility names); members preview it either way',
    }),
    createdAt: t.field({ type: 'DateTime', description: 'When it was created', resolve: (site) => site.createdAt.toISOString() }),
    adaptiveContent: t.field({
      type: SiteAdaptiveContent,
      nullable: true,
      description: 'Its adaptive content setting (never null here)',
      resolve: (site) => ({ enabled: site.adaptiveContentEnabled }),
    }),
    features: t.field({ type: 'JSON', description: 'Always an empty list (REST `features`: this server has no plan features)', resolve: () => [] }),
    urls: t.field({
      type: SiteUrls,
      description: 'Its addresses: REST, application, preview and, once published, published',
      resolve: (site, _args, ctx) => siteUrls(site, ctx.urls),
    }),
    organization: t.field({
      type: Organization,
      nullable: true,
      description: 'Null for visitors of its published content who are not members',
      resolve: (site, _args, ctx) => nullIfHidden(organizationRecord(ctx, site.organizationId)),
    }),
    adaptiveSchema: t.field({
      type: SiteAdaptiveSchema,
      // Nullable: a visitor asking for it loses this field (with its error), not the published site around it.
      nullable: true,
      description:
        'The JSON Schema of its visitor claims, which conditions read (members who are not guests; null with an error for others, visitors included)',
      resolve: (site, _args, ctx) => getAdaptiveSchema(ctx, ...orgAndSite(site)),
    }),
    sections: t.connection({
      type: SiteSection,
      description: 'Sections in site order',
      resolve: async (site, args, ctx) => toConnection(await listSectionViews(ctx, ...orgAndSite(site), connectionQuery(args))),
    }),
    sectionGroups: t.connection({
      type: SiteSectionGroup,
      description: 'Section groups, in their order among the top-level entries',
      resolve: async (site, args, ctx) => toConnection(await listSectionGroupViews(ctx, ...orgAndSite(site), connectionQuery(args))),
    }),
    siteSpaces: t.connection({
      type: SiteSpace,
      description: 'Its site spaces, of every section and of the root level, oldest first; visitors get those shown to them',
      args: { default: t.arg.boolean({ description: 'true: only default site spaces; false: only the others' }) },
      resolve: async (site, args, ctx) => toConnection(await listSiteSpaceRecords(ctx, ...orgAndSite(site), connectionQuery(args))),
    }),
    shareLinks: t.connection({
      type: ShareLink,
      nullable: true,
      description: 'Share links (admins; an error and null for others)',
      resolve: async (site, args, ctx) => toConnection(await listShareLinks(ctx, ...orgAndSite(site), connectionQuery(args))),
    }),
  }),
});

SiteSection.implement({
  description: 'A section of a site: a top-level entry (or one of a section group) with its own path and site spaces',
  fields: (t) => ({
    object: t.string({ description: 'Always "site-section"', resolve: () => 'site-section' }),
    title: t.string({ description: 'Its title', resolve: ({ section }) => section.title }),
    description: t.string({
      nullable: true,
      description: 'A short description (up to 256 characters); null for none',
      resolve: ({ section }) => section.description,
    }),
    default: t.boolean({
      nullable: true,
      description: 'Whether it is the default section of the site (exactly one is, once the site has sections)',
      resolve: ({ section }) => section.isDefault,
    }),
    draft: t.boolean({ description: 'Always false: this server has no draft sections', resolve: () => false }),
    path: t.string({ description: "Its path under the site's published address, unique among the site's sections", resolve: ({ section }) => section.path }),
    condition: t.string({
      nullable: true,
      description:
        'An expression over the visitor claims, e.g. `visitor.claims.plan === "enterprise"`: visitors see the section only when it holds; null: always shown',
      resolve: ({ section }) => section.condition,
    }),
    icon: t.string({ nullable: true, description: 'Its icon name; null for none', resolve: ({ section }) => section.icon }),
    sectionGroup: t.field({
      type: SiteSectionGroup,
      nullable: true,
      description: 'The section group it belongs to; null at the top level',
      resolve: ({ section }) => section.sectionGroupId,
    }),
    siteSpaces: t.field({
      type: [SiteSpace],
      description: 'Its site spaces, in order (in a published tree, those shown to the visitor)',
      resolve: (view, _args, ctx) => shownSiteSpacesOf(ctx, view),
    }),
    urls: t.field({
      type: PublishedUrls,
      description: "Its published address: the site's, then its path",
      resolve: async ({ section }, _args, ctx) => ({ published: sectionPublishedUrl(await siteOf(ctx, section.siteId), section, ctx.urls) }),
    }),
  }),
});

SiteSectionGroup.implement({
  description: 'A group of sections of a site, one top-level entry holding its sections in order',
  fields: (t) => ({
    object: t.string({ description: 'Always "site-section-group"', resolve: () => 'site-section-group' }),
    title: t.string({ description: 'Its title (1 to 100 characters)', resolve: ({ group }) => group.title }),
    icon: t.string({ nullable: true, description: 'Its icon name; null for none', resolve: ({ group }) => group.icon }),
    draft: t.boolean({ description: 'Always false: this server has no draft section groups', resolve: () => false }),
    sections: t.field({ type: [SiteSection], description: 'Its sections, in order', resolve: (view, _args, ctx) => shownSectionsOf(ctx, view) }),
    children: t.field({
      type: [SiteSection],
      description: 'The same as `sections` (REST has both)',
      resolve: (view, _args, ctx) => shownSectionsOf(ctx, view),
    }),
  }),
});

SiteSpace.implement({
  description: 'A space shown on a site: in a section, or at the root level of a site without sections',
  fields: (t) => ({
    object: t.string({ description: 'Always "site-space"', resolve: () => 'site-space' }),
    path: t.exposeString('path', { description: 'Its path under its section (or the site), unique there' }),
    title: t.string({
      description: "The space's title",
      resolve: async (siteSpace, _args, ctx) => (await loadColumns(ctx, spaceColumns, siteSpace.spaceId, ['title']))!.title,
    }),
    default: t.exposeBoolean('isDefault', {
      nullable: true,
      description: 'Whether it is the default site space of its section (or of the root level): exactly one is there',
    }),
    condition: t.exposeString('condition', {
      nullable: true,
      description: 'An expression over the visitor claims, e.g. `visitor.claims.beta`: visitors see the site space only when it holds; null: always shown',
    }),
    draft: t.boolean({ description: 'Always false: this server has no draft site spaces', resolve: () => false }),
    hasAdvancedCustomizationFeature: t.boolean({
      nullable: true,
      description: 'Always false: this server has no advanced customization',
      resolve: () => false,
    }),
    section: t.field({
      type: SiteSection,
      nullable: true,
      description: 'The section it is in; null at the root level of a site without sections',
      resolve: (siteSpace) => siteSpace.sectionId,
    }),
    space: t.field({
      type: Space,
      description: 'The space it shows (visitors of the published site see it too)',
      // The site space's own visibility decides: visitors of a published site see its spaces.
      resolve: async (siteSpace, _args, ctx, info) => (await loadColumns(ctx, spaceColumns, siteSpace.spaceId, columnsOf(info, SPACE_FIELD_COLUMNS)))!,
    }),
    urls: t.field({
      type: PublishedUrls,
      description: "Its published address: the site's, its section's path, then its path",
      resolve: async (siteSpace, _args, ctx) => {
        const [site, section] = await Promise.all([
          siteOf(ctx, siteSpace.siteId),
          siteSpace.sectionId ? loader(ctx, sectionRecords).load(siteSpace.sectionId) : null,
        ]);
        return { published: siteSpacePublishedUrl(site, section?.path ?? null, siteSpace, ctx.urls) };
      },
    }),
  }),
});

builder.objectField(Organization, 'sites', (t) =>
  t.connection({
    type: Site,
    description: "The organization's sites, oldest first (members who are not guests; an error for guests)",
    args: {
      published: t.arg.boolean({ description: 'true: only published sites; false: only unpublished ones' }),
      title: t.arg.string({ description: 'Case-insensitive part of the title' }),
      space: t.arg.id({ description: 'Only sites showing this space' }),
    },
    resolve: async (org, args, ctx) => toConnection(await listSiteRecords(ctx, org.id, connectionQuery(args))),
  }),
);

builder.objectField(Space, 'sites', (t) =>
  t.connection({
    type: Site,
    description: 'Sites showing this space',
    resolve: async (space, args, ctx) => toConnection(await listSpaceSiteRecords(ctx, space, connectionQuery(args))),
  }),
);

const PublishedSiteEntry = builder.unionType('PublishedSiteEntry', {
  description: 'An entry of a published structure: a section, a section group, or (in a site without sections) a site space',
  types: [SiteSection, SiteSectionGroup, SiteSpace],
  resolveType: (entry: PublishedEntry) => ('kind' in entry ? (entry.kind === 'section' ? 'SiteSection' : 'SiteSectionGroup') : 'SiteSpace'),
});

const PublishedSiteStructure = builder.objectRef<PublishedContent['structure']>('PublishedSiteStructure').implement({
  description: '`sections` (sections and groups) or, for a site without sections, `siteSpaces`',
  fields: (t) => ({
    type: t.field({
      type: restEnum('SiteStructureType', 'What the entries of a published structure are', {
        sections: 'The site has sections: entries are sections and section groups',
        siteSpaces: 'The site has no sections: entries are its root-level site spaces',
      }),
      description: 'What its entries are',
      resolve: (structure) => structure.type,
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
    structure: t.field({
      type: PublishedSiteStructure,
      description: 'Its sections and section groups, or its site spaces, that the audience is shown',
      resolve: (published) => published.structure,
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
  site: t.field({
    type: Site,
    nullable: true,
    description:
      'A site by id, for members of its organization who are not guests, and visitors who opened it with `publishedSite` in the same request; null with a 404 error for others',
    args: { id: t.arg.id({ required: true, description: 'The site id' }) },
    resolve: (_root, { id }, ctx) => siteById(ctx, id),
  }),
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
          "A visitor token, which a visitor-auth site needs from visitors: a JWT (HS256) signed with the site's key or the organization's, expiring within 30 days; its claims are the visitor claims (REST: the X-Visitor-Token header)",
      }),
    },
    resolve: (_root, { siteId, ...query }, ctx) => publishedContent(ctx, null, siteId, connectionQuery(query)),
  }),
}));

// Mutations: one per REST write, with the REST body as input fields.

type InputBuilder = PothosSchemaTypes.InputFieldBuilder<typeof builder.$inferSchemaTypes, 'InputObject'>;
const siteIdField = (t: InputBuilder) => ({ siteId: t.id({ required: true, description: 'The site' }) });

/*
 * Mutations name what they act on by its own id; the domain services take the
 * REST path. These find that path (organization, site), answering a 404 that
 * names the given id when the caller cannot see it.
 */
type SitePath = readonly [organizationId: string, siteId: string];
const pathOfSite = async (ctx: RequestContext, siteId: string): Promise<SitePath> => orgAndSite(await siteById(ctx, siteId));
const pathOfSection = async (ctx: RequestContext, sectionId: string) => pathOfSite(ctx, (await sectionById(ctx, sectionId)).section.siteId);
const pathOfSectionGroup = async (ctx: RequestContext, groupId: string) => pathOfSite(ctx, (await sectionGroupById(ctx, groupId)).group.siteId);
const pathOfSiteSpace = async (ctx: RequestContext, siteSpaceId: string) => pathOfSite(ctx, (await siteSpaceById(ctx, siteSpaceId)).siteId);
const pathOfShareLink = async (ctx: RequestContext, shareLinkId: string) => pathOfSite(ctx, (await shareLinkById(ctx, shareLinkId)).siteId);

const NEW_SPACE_DESCRIPTIONS: Record<(typeof NEW_SPACE_VALUES)[number], string> = {
  empty: 'An empty space, titled like the site',
  sample: 'A space titled "Sample space", with the 📘 emoji',
};

const NewSiteSpace = builder.enumType('NewSiteSpace', {
  description: 'A new space to create with a site, shown at its root level',
  values: Object.fromEntries(NEW_SPACE_VALUES.map((value) => [value, { description: NEW_SPACE_DESCRIPTIONS[value] }])) as Record<
    (typeof NEW_SPACE_VALUES)[number],
    { description: string }
  >,
});

const SiteAdaptiveContentInput = builder.inputType('SiteAdaptiveContentInput', {
  description: 'The adaptive content setting of a site',
  fields: (t) => ({ enabled: t.boolean({ required: true, description: 'true turns adaptive content on, false off' }) }),
});

const SitePositionInput = builder.inputType('SitePositionInput', {
  description: 'Place the entry before and/or after sibling entries, given by id; the end when empty',
  fields: (t) => ({
    before: t.id({ description: 'The id of the sibling to place it just before' }),
    after: t.id({ description: 'The id of the sibling to place it just after' }),
  }),
});

const pointer = (type: string, key: string, position?: { before?: string | null; after?: string | null } | null) =>
  position
    ? {
        position: Object.fromEntries(
          (['before', 'after'] as const).filter((side) => position[side] != null).map((side) => [side, { type, [key]: position[side] }]),
        ),
      }
    : {};

type FieldBuilder<Shape> = PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, Shape>;
/** Mutations' payloads: what a mutation acted on, read again as the viewer sees it now. */
const payload = {
  site: {
    outputFields: (t: FieldBuilder<{ site: Pick<SiteJSON, 'id'> }>) => ({
      site: t.field({ type: Site, resolve: (p, _args, ctx) => siteById(ctx, p.site.id) }),
    }),
  },
  section: {
    outputFields: (t: FieldBuilder<{ section: Pick<SiteSectionJSON, 'id'> }>) => ({
      section: t.field({ type: SiteSection, resolve: (p, _args, ctx) => sectionById(ctx, p.section.id) }),
    }),
  },
  group: {
    outputFields: (t: FieldBuilder<{ sectionGroup: Pick<SiteSectionGroupJSON, 'id'> }>) => ({
      sectionGroup: t.field({ type: SiteSectionGroup, resolve: (p, _args, ctx) => sectionGroupById(ctx, p.sectionGroup.id) }),
    }),
  },
  siteSpace: {
    outputFields: (t: FieldBuilder<{ siteSpace: Pick<SiteSpaceJSON, 'id'> }>) => ({
      siteSpace: t.field({ type: SiteSpace, resolve: (p, _args, ctx) => siteSpaceById(ctx, p.siteSpace.id) }),
    }),
  },
  shareLink: {
    outputFields: (t: FieldBuilder<{ shareLink: ShareLinkJSON }>) => ({
      shareLink: t.field({ type: ShareLink, resolve: (p) => p.shareLink }),
    }),
  },
  deleted: { outputFields: (t: FieldBuilder<{ deletedId: string }>) => ({ deletedId: t.exposeID('deletedId') }) },
};

builder.relayMutationField(
  'createSite',
  {
    inputFields: (t) => ({
      organizationId: t.id({ required: true, description: 'The organization to create the site in' }),
      type: t.field({ type: SiteType, description: 'Its plan; basic when absent' }),
      title: t.string({ description: '2 to 128 characters; "Untitled site" when absent' }),
      visibility: t.field({ type: SiteVisibility, description: 'Who may read it once published; public when absent' }),
      spaces: t.idList({ description: 'Spaces to show at the root level' }),
      newSpace: t.field({ type: NewSiteSpace, description: 'Create a new space for the site instead of showing existing ones' }),
    }),
  },
  {
    description:
      'Creates an unpublished site (members with the create role or above), showing the given spaces at its root level (the first is the default) or a new space',
    resolve: async (_root, { input: { organizationId, newSpace, spaces, ...body } }, ctx) => {
      // REST's `spaces` is either; GraphQL splits it into two inputs.
      if (newSpace != null && spaces != null) throw invalid('newSpace: cannot be combined with spaces');
      return {
        site: await createSite(ctx, organizationId, { ...body, ...(newSpace != null ? { spaces: newSpace } : spaces != null ? { spaces } : {}) }),
      };
    },
  },
  payload.site,
);

builder.relayMutationField(
  'updateSite',
  {
    inputFields: (t) => ({
      ...siteIdField(t),
      title: t.string({ description: '2 to 128 characters' }),
      visibility: t.field({ type: SiteVisibility, description: 'Who may read it once published' }),
      hostname: t.string({ description: 'A custom hostname of at least three labels, lowercase, e.g. docs.example.com; null removes it' }),
      basename: t.string({ description: 'A path prefix of its published address (1 to 100 characters); null removes it' }),
      adaptiveContent: t.field({ type: SiteAdaptiveContentInput, description: 'Turns adaptive content on or off' }),
      defaultSiteSpace: t.id({
        description: 'A site space to make the default of the default section (after `defaultSiteSection`), or of the root level of a site without sections',
      }),
      defaultSiteSection: t.id({ description: 'A section of the site to make its default' }),
      proxy: t.string({ description: 'host/path; null removes the proxy' }),
    }),
  },
  {
    description: "Changes a site's settings (admins of the organization); absent fields keep their value",
    resolve: async (_root, { input: { siteId, ...body } }, ctx) => ({
      site: await updateSite(ctx, ...(await pathOfSite(ctx, siteId)), body),
    }),
  },
  payload.site,
);

builder.relayMutationField(
  'deleteSite',
  { inputFields: siteIdField },
  {
    description: 'Deletes a site with its sections, section groups, site spaces and share links (admins of the organization); its spaces stay',
    resolve: async (_root, { input: { siteId } }, ctx) => {
      await deleteSite(ctx, ...(await pathOfSite(ctx, siteId)));
      return { deletedId: siteId };
    },
  },
  payload.deleted,
);

for (const [name, published, description] of [
  ['publishSite', true, 'Publishes a site (admins of the organization): the audience its visibility names can read it'],
  ['unpublishSite', false, 'Unpublishes a site (admins of the organization): visitors no longer reach it; members still preview it'],
] as const) {
  builder.relayMutationField(
    name,
    { inputFields: siteIdField },
    {
      description,
      resolve: async (_root, { input: { siteId } }, ctx) => ({
        site: await setSitePublished(ctx, ...(await pathOfSite(ctx, siteId)), published),
      }),
    },
    payload.site,
  );
}

builder.relayMutationField(
  'updateSiteAdaptiveSchema',
  {
    inputFields: (t) => ({
      ...siteIdField(t),
      jsonSchema: t.field({
        type: 'JSON',
        required: true,
        description:
          'A draft-07 JSON Schema of `type: "object"` with `additionalProperties: false`, whose `properties` are the claims: boolean, string (optionally with `enum`), number, array or object, each with a `description`',
      }),
    }),
  },
  {
    description: "Replaces the JSON Schema of a site's visitor claims, which conditions read (admins of the organization)",
    resolve: async (_root, { input: { siteId, jsonSchema } }, ctx) => ({
      adaptiveSchema: await updateAdaptiveSchema(ctx, ...(await pathOfSite(ctx, siteId)), { jsonSchema }),
    }),
  },
  {
    outputFields: (t) => ({ adaptiveSchema: t.field({ type: SiteAdaptiveSchema, resolve: (p) => p.adaptiveSchema }) }),
  },
);

builder.relayMutationField(
  'createShareLink',
  {
    inputFields: (t) => ({
      ...siteIdField(t),
      name: t.string({ required: true, description: 'A name to tell it apart (up to 50 characters; empty for none)' }),
    }),
  },
  {
    description: 'Creates an active share link for a share-link site (admins of the organization); its published URL carries its new secret key',
    resolve: async (_root, { input: { siteId, ...body } }, ctx) => ({
      shareLink: await createShareLink(ctx, ...(await pathOfSite(ctx, siteId)), body),
    }),
  },
  payload.shareLink,
);

builder.relayMutationField(
  'updateShareLink',
  {
    inputFields: (t) => ({
      shareLinkId: t.id({ required: true, description: 'The share link' }),
      name: t.string({ description: 'Its new name (up to 50 characters; empty removes it)' }),
      active: t.boolean({ description: 'false: its key opens nothing until it is active again' }),
    }),
  },
  {
    description: 'Renames a share link or (de)activates it (admins of the organization); give name, active or both',
    resolve: async (_root, { input: { shareLinkId, ...body } }, ctx) => ({
      shareLink: await updateShareLink(ctx, ...(await pathOfShareLink(ctx, shareLinkId)), shareLinkId, body),
    }),
  },
  payload.shareLink,
);

builder.relayMutationField(
  'deleteShareLink',
  { inputFields: (t) => ({ shareLinkId: t.id({ required: true, description: 'The share link' }) }) },
  {
    description: 'Revokes a share link (admins of the organization): its key stops working at once',
    resolve: async (_root, { input: { shareLinkId } }, ctx) => {
      await deleteShareLink(ctx, ...(await pathOfShareLink(ctx, shareLinkId)), shareLinkId);
      return { deletedId: shareLinkId };
    },
  },
  payload.deleted,
);

builder.relayMutationField(
  'createSiteSection',
  {
    inputFields: (t) => ({
      ...siteIdField(t),
      spaceId: t.id({ required: true, description: 'A space of the organization, which the section shows as its first site space' }),
      title: t.string({ description: "2 to 64 characters; the space's title when absent" }),
    }),
  },
  {
    description:
      'Adds a section showing a space at the end of the top level of a site (admins of the organization); the first section becomes the default and takes the site spaces of the root level',
    resolve: async (_root, { input: { siteId, ...body } }, ctx) => ({
      section: await createSection(ctx, ...(await pathOfSite(ctx, siteId)), body),
    }),
  },
  payload.section,
);

builder.relayMutationField(
  'updateSiteSection',
  {
    inputFields: (t) => ({
      sectionId: t.id({ required: true, description: 'The section' }),
      title: t.string({ description: '2 to 128 characters' }),
      path: t.string({
        description: 'Its path, unique among the sections of the site: URL segments of letters, digits, ".", "_", "~" or "-" (up to 100 characters)',
      }),
      defaultSiteSpace: t.id({ description: 'A site space of the section to make its default' }),
      condition: t.string({ description: 'null removes it; absent keeps it' }),
      icon: t.string({ description: 'An icon name (up to 50 characters); null removes it' }),
      description: t.string({ description: 'Up to 256 characters; null removes it' }),
    }),
  },
  {
    description: 'Changes a section (admins of the organization); absent fields keep their value',
    resolve: async (_root, { input: { sectionId, ...body } }, ctx) => ({
      section: await updateSection(ctx, ...(await pathOfSection(ctx, sectionId)), sectionId, body),
    }),
  },
  payload.section,
);

builder.relayMutationField(
  'deleteSiteSection',
  { inputFields: (t) => ({ sectionId: t.id({ required: true, description: 'The section' }) }) },
  {
    description: 'Deletes a section and its site spaces (admins of the organization); when it was the default, the first remaining section becomes the default',
    resolve: async (_root, { input: { sectionId } }, ctx) => {
      await deleteSection(ctx, ...(await pathOfSection(ctx, sectionId)), sectionId);
      return { deletedId: sectionId };
    },
  },
  payload.deleted,
);

builder.relayMutationField(
  'moveSiteSection',
  {
    inputFields: (t) => ({
      sectionId: t.id({ required: true, description: 'The section' }),
      position: t.field({
        type: SitePositionInput,
        description: 'Where among its siblings (the top-level sections and groups, or the sections of its group); the end when absent',
      }),
    }),
  },
  {
    description: 'Moves a section among its siblings: the top-level entries, or the sections of its group (admins of the organization)',
    resolve: async (_root, { input: { sectionId, position } }, ctx) => ({
      section: await moveSection(ctx, ...(await pathOfSection(ctx, sectionId)), sectionId, pointer('site-section', 'siteSection', position)),
    }),
  },
  payload.section,
);

builder.relayMutationField(
  'createSiteSectionGroup',
  {
    inputFields: (t) => ({
      ...siteIdField(t),
      title: t.string({ required: true, description: '1 to 100 characters' }),
      icon: t.string({ description: 'An icon name (up to 50 characters)' }),
      sections: t.idList({ description: 'Sections of the site to put in it, in order; each must be in no group yet' }),
    }),
  },
  {
    description: "Adds a section group at the end of a site's top level, holding the given sections (admins of the organization)",
    resolve: async (_root, { input: { siteId, ...body } }, ctx) => ({
      sectionGroup: await createSectionGroup(ctx, ...(await pathOfSite(ctx, siteId)), body),
    }),
  },
  payload.group,
);

builder.relayMutationField(
  'updateSiteSectionGroup',
  {
    inputFields: (t) => ({
      sectionGroupId: t.id({ required: true, description: 'The section group' }),
      title: t.string({ description: '1 to 100 characters' }),
      icon: t.string({ description: 'An icon name (up to 50 characters); null removes it' }),
    }),
  },
  {
    description: 'Renames a section group or changes its icon (admins of the organization); absent fields keep their value',
    resolve: async (_root, { input: { sectionGroupId, ...body } }, ctx) => ({
      sectionGroup: await updateSectionGroup(ctx, ...(await pathOfSectionGroup(ctx, sectionGroupId)), sectionGroupId, body),
    }),
  },
  payload.group,
);

builder.relayMutationField(
  'deleteSiteSectionGroup',
  { inputFields: (t) => ({ sectionGroupId: t.id({ required: true, description: 'The section group' }) }) },
  {
    description: 'Deletes a section group (admins of the organization); its sections stay, at the top level where the group was',
    resolve: async (_root, { input: { sectionGroupId } }, ctx) => {
      await deleteSectionGroup(ctx, ...(await pathOfSectionGroup(ctx, sectionGroupId)), sectionGroupId);
      return { deletedId: sectionGroupId };
    },
  },
  payload.deleted,
);

builder.relayMutationField(
  'addSectionToGroup',
  {
    inputFields: (t) => ({
      sectionGroupId: t.id({ required: true, description: 'The section group' }),
      sectionId: t.id({ required: true, description: 'A section of the site in no group yet' }),
    }),
  },
  {
    description: 'Puts a section at the end of a section group (admins of the organization); a section already in a group is refused',
    resolve: async (_root, { input: { sectionGroupId, sectionId } }, ctx) => ({
      sectionGroup: await addSectionToGroup(ctx, ...(await pathOfSectionGroup(ctx, sectionGroupId)), sectionGroupId, { sectionId }),
    }),
  },
  payload.group,
);

builder.relayMutationField(
  'removeSectionFromGroup',
  {
    inputFields: (t) => ({
      sectionGroupId: t.id({ required: true, description: 'The section group' }),
      sectionId: t.id({ required: true, description: 'A section of that group' }),
    }),
  },
  {
    description: 'Takes a section out of its group (admins of the organization): it goes to the top level, right after the group',
    resolve: async (_root, { input: { sectionGroupId, sectionId } }, ctx) => {
      await removeSectionFromGroup(ctx, ...(await pathOfSectionGroup(ctx, sectionGroupId)), sectionGroupId, sectionId);
      return { sectionGroup: { id: sectionGroupId } };
    },
  },
  payload.group,
);

builder.relayMutationField(
  'moveSiteSectionGroup',
  {
    inputFields: (t) => ({
      sectionGroupId: t.id({ required: true, description: 'The section group' }),
      position: t.field({ type: SitePositionInput, description: 'Where among the top-level entries (sections and groups); the end when absent' }),
    }),
  },
  {
    description: 'Moves a section group among the top-level entries of a site (admins of the organization); its sections follow it',
    resolve: async (_root, { input: { sectionGroupId, position } }, ctx) => ({
      sectionGroup: await moveSectionGroup(ctx, ...(await pathOfSectionGroup(ctx, sectionGroupId)), sectionGroupId, pointer('site-section', 'id', position)),
    }),
  },
  payload.group,
);

builder.relayMutationField(
  'addSiteSpace',
  {
    inputFields: (t) => ({
      ...siteIdField(t),
      spaceId: t.id({ required: true, description: 'A space of the organization, not yet in that section (or root level)' }),
      sectionId: t.id({ description: 'The section to add it to; the default section when absent' }),
    }),
  },
  {
    description:
      'Adds a space to a site (admins of the organization), at the end of the given section, else of the default section, or of the root level of a site without sections; the first site space there becomes its default',
    resolve: async (_root, { input: { siteId, ...body } }, ctx) => ({
      siteSpace: await addSiteSpace(ctx, ...(await pathOfSite(ctx, siteId)), connectionQuery(body)),
    }),
  },
  payload.siteSpace,
);

builder.relayMutationField(
  'updateSiteSpace',
  {
    inputFields: (t) => ({
      siteSpaceId: t.id({ required: true, description: 'The site space' }),
      path: t.string({
        description:
          'Its path, unique among the site spaces of its section (or root level): URL segments of letters, digits, ".", "_", "~" or "-" (up to 100 characters)',
      }),
      condition: t.string({ description: 'null removes it; absent keeps it' }),
    }),
  },
  {
    description: "Changes a site space's path or condition (admins of the organization); absent fields keep their value",
    resolve: async (_root, { input: { siteSpaceId, ...body } }, ctx) => ({
      siteSpace: await updateSiteSpace(ctx, ...(await pathOfSiteSpace(ctx, siteSpaceId)), siteSpaceId, body),
    }),
  },
  payload.siteSpace,
);

builder.relayMutationField(
  'deleteSiteSpace',
  { inputFields: (t) => ({ siteSpaceId: t.id({ required: true, description: 'The site space' }) }) },
  {
    description:
      'Removes a space from a site, not the space itself (admins of the organization); when it was the default of its section (or root level), the next one becomes the default',
    resolve: async (_root, { input: { siteSpaceId } }, ctx) => {
      await deleteSiteSpace(ctx, ...(await pathOfSiteSpace(ctx, siteSpaceId)), siteSpaceId);
      return { deletedId: siteSpaceId };
    },
  },
  payload.deleted,
);

builder.relayMutationField(
  'moveSiteSpace',
  {
    inputFields: (t) => ({
      siteSpaceId: t.id({ required: true, description: 'The site space' }),
      position: t.field({ type: SitePositionInput, description: 'Where among the site spaces of its section (or root level); the end when absent' }),
    }),
  },
  {
    description: 'Moves a site space among the site spaces of its section, or of the root level (admins of the organization)',
    resolve: async (_root, { input: { siteSpaceId, position } }, ctx) => ({
      siteSpace: await moveSiteSpace(ctx, ...(await pathOfSiteSpace(ctx, siteSpaceId)), siteSpaceId, pointer('site-space', 'siteSpace', position)),
    }),
  },
  payload.siteSpace,
);
