import { sitePermissions } from '../../domain/access.ts';
import { organizationAccess, organizationRecord } from '../../domain/organizations/service.ts';
import { NEW_SPACE_VALUES, type SITE_TYPES, type SITE_VISIBILITIES } from '../../domain/sites/inputs.ts';
import { SITE_DEFAULT_LEVEL, type SiteJSON, siteProxy, siteUrls } from '../../domain/sites/presenter.ts';
import { listSectionGroupViews } from '../../domain/sites/section-groups.ts';
import { listSectionViews } from '../../domain/sites/sections.ts';
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
import { siteLevel } from '../../domain/sites/records.ts';
import { listShareLinks } from '../../domain/sites/share-links.ts';
import { listSiteSpaceRecords } from '../../domain/sites/site-spaces.ts';
import { invalid, nullIfHidden } from '../../errors.ts';
import { builder } from '../builder.ts';
import { connectionQuery, toConnection } from '../connection.ts';
import { booleanObject, restEnum, urlsObject } from './common.ts';
import { Organization } from './organization.ts';
import {
  ShareLink,
  Site,
  SiteSection,
  SiteSectionGroup,
  SiteSpace,
  type FieldBuilder,
  deletedPayload,
  orgAndSite,
  pathOfSite,
  siteIdField,
} from './site-common.ts';
import { Space } from './space.ts';
import { nullIsAValue } from '../null-inputs.ts';

/**
 * Sites: their settings, the sites of an organization and of a space, and the
 * mutations of a site. Its sections, section groups, site spaces, share links
 * and published tree have their own files (site-*.ts, share-link.ts,
 * published-site.ts); the refs they share are in site-common.ts.
 */

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
const SiteUrls = urlsObject('SiteUrls', ['location', 'app', 'preview'], ['published', 'llms', 'mcp']);

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
    jsonSchema: t.expose('jsonSchema', {
      type: 'JSON',
      description: 'The schema: an object schema whose properties are the visitor claims; an empty one (no properties) until one is set',
    }),
    updatedAt: t.expose('updatedAt', {
      type: 'DateTime',
      description: "When the schema was last replaced; the site's creation until then",
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
      description: 'Always "inherit": access to sites follows the organization role, raised by the roles granted on the site',
      resolve: () => SITE_DEFAULT_LEVEL,
    }),
    permissions: t.field({
      type: SitePermissions,
      description: "What the caller may do with the site, from its role in the site's organization and the roles granted on the site (all false for visitors)",
      resolve: async (site, _args, ctx) => sitePermissions((await organizationAccess(ctx, site.organizationId)).member ? await siteLevel(ctx, site) : null),
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

builder.queryFields((t) => ({
  site: t.field({
    type: Site,
    nullable: true,
    description:
      'A site by id, for members of its organization who are not guests, and visitors who opened it with `publishedSite` in the same request; null with a 404 error for others',
    args: { id: t.arg.id({ required: true, description: 'The site id' }) },
    resolve: (_root, { id }, ctx) => siteById(ctx, id),
  }),
}));

// Mutations: one per REST write, with the REST body as input fields.

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

/** Mutations' payloads: what a mutation acted on, read again as the viewer sees it now. */
const payload = {
  site: {
    outputFields: (t: FieldBuilder<{ site: Pick<SiteJSON, 'id'> }>) => ({
      site: t.field({ type: Site, resolve: (p, _args, ctx) => siteById(ctx, p.site.id) }),
    }),
  },
  deleted: deletedPayload,
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
      hostname: t.string({ ...nullIsAValue, description: 'A custom hostname of at least three labels, lowercase, e.g. docs.example.com; null removes it' }),
      basename: t.string({ ...nullIsAValue, description: 'A path prefix of its published address (1 to 100 characters); null removes it' }),
      adaptiveContent: t.field({ type: SiteAdaptiveContentInput, description: 'Turns adaptive content on or off' }),
      defaultSiteSpace: t.id({
        description: 'A site space to make the default of the default section (after `defaultSiteSection`), or of the root level of a site without sections',
      }),
      defaultSiteSection: t.id({ description: 'A section of the site to make its default' }),
      proxy: t.string({ ...nullIsAValue, description: 'host/path; null removes the proxy' }),
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
    outputFields: (t) => ({ adaptiveSchema: t.expose('adaptiveSchema', { type: SiteAdaptiveSchema }) }),
  },
);
