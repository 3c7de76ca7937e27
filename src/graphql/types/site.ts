import type { RequestContext } from '../../context.ts';
import { sitePermissions } from '../../domain/access.ts';
import { loader } from '../../domain/loaders.ts';
import { organizationAccess, organizationRecord } from '../../domain/organizations/service.ts';
import { NEW_SPACE_VALUES } from '../../domain/sites/inputs.ts';
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
import { createShareLink, deleteShareLink, listShareLinks, updateShareLink } from '../../domain/sites/share-links.ts';
import { addSiteSpace, deleteSiteSpace, listSiteSpaceRecords, moveSiteSpace, siteSpaceById, updateSiteSpace } from '../../domain/sites/site-spaces.ts';
import { loadColumns } from '../../domain/columns.ts';
import { spaceColumns } from '../../domain/spaces/service.ts';
import { columnsOf } from '../columns.ts';
import { invalid, nullIfHidden } from '../../errors.ts';
import { builder } from '../builder.ts';
import { connectionQuery, loadEach, toConnection } from '../connection.ts';
import { booleanObject, urlsObject } from './common.ts';
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
  fields: (t) => ({ origin: t.exposeString('origin'), target: t.exposeString('target') }),
});
const SiteAdaptiveContent = builder.objectRef<{ enabled: boolean }>('SiteAdaptiveContent').implement({
  fields: (t) => ({ enabled: t.exposeBoolean('enabled') }),
});
const SiteAdaptiveSchema = builder.objectRef<{ object: string; jsonSchema: unknown; updatedAt: string }>('SiteAdaptiveSchema').implement({
  description: 'The JSON Schema (draft-07) of the visitor attributes that conditions read',
  fields: (t) => ({
    object: t.exposeString('object'),
    jsonSchema: t.field({ type: 'JSON', resolve: (schema) => schema.jsonSchema }),
    updatedAt: t.field({ type: 'DateTime', resolve: (schema) => schema.updatedAt }),
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
    object: t.exposeString('object'),
    id: t.exposeID('id'),
    createdAt: t.field({ type: 'DateTime', resolve: (link) => link.createdAt }),
    name: t.exposeString('name', { nullable: true }),
    active: t.exposeBoolean('active', { nullable: true }),
    urls: t.field({ type: PublishedUrls, resolve: (link) => link.urls }),
  }),
});

const orgAndSite = (site: SiteRecord) => [site.organizationId, site.id] as const;

Site.implement({
  description: 'A published docs site. Its site spaces are the `siteSpaces` connection (REST: the number `siteSpaces`, here `siteSpaces.totalCount`)',
  fields: (t) => ({
    object: t.string({ resolve: () => 'site' }),
    type: t.exposeString('type'),
    appliedType: t.exposeString('type'),
    title: t.exposeString('title'),
    hostname: t.exposeString('hostname', { nullable: true }),
    basename: t.exposeString('basename', { nullable: true }),
    proxy: t.field({ type: SiteProxy, nullable: true, resolve: (site, _args, ctx) => siteProxy(site, ctx.urls) ?? null }),
    visibility: t.exposeString('visibility'),
    defaultLevel: t.string({ nullable: true, resolve: () => SITE_DEFAULT_LEVEL }),
    permissions: t.field({
      type: SitePermissions,
      resolve: async (site, _args, ctx) => sitePermissions(await organizationAccess(ctx, site.organizationId)),
    }),
    published: t.exposeBoolean('published'),
    createdAt: t.field({ type: 'DateTime', resolve: (site) => site.createdAt.toISOString() }),
    adaptiveContent: t.field({ type: SiteAdaptiveContent, nullable: true, resolve: (site) => ({ enabled: site.adaptiveContentEnabled }) }),
    features: t.field({ type: 'JSON', resolve: () => [] }),
    urls: t.field({ type: SiteUrls, resolve: (site, _args, ctx) => siteUrls(site, ctx.urls) }),
    organization: t.field({
      type: Organization,
      nullable: true,
      description: 'Null for visitors of its published content who are not members',
      resolve: (site, _args, ctx) => nullIfHidden(organizationRecord(ctx, site.organizationId)),
    }),
    adaptiveSchema: t.field({
      type: SiteAdaptiveSchema,
      resolve: (site, _args, ctx) => getAdaptiveSchema(ctx, ...orgAndSite(site)),
    }),
    sections: t.connection({
      type: SiteSection,
      description: 'Sections in site order',
      resolve: async (site, args, ctx) => toConnection(await listSectionViews(ctx, ...orgAndSite(site), connectionQuery(args))),
    }),
    sectionGroups: t.connection({
      type: SiteSectionGroup,
      resolve: async (site, args, ctx) => toConnection(await listSectionGroupViews(ctx, ...orgAndSite(site), connectionQuery(args))),
    }),
    siteSpaces: t.connection({
      type: SiteSpace,
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
  fields: (t) => ({
    object: t.string({ resolve: () => 'site-section' }),
    title: t.string({ resolve: ({ section }) => section.title }),
    description: t.string({ nullable: true, resolve: ({ section }) => section.description }),
    default: t.boolean({ nullable: true, resolve: ({ section }) => section.isDefault }),
    draft: t.boolean({ resolve: () => false }),
    path: t.string({ resolve: ({ section }) => section.path }),
    condition: t.string({ nullable: true, resolve: ({ section }) => section.condition }),
    icon: t.string({ nullable: true, resolve: ({ section }) => section.icon }),
    sectionGroup: t.field({ type: SiteSectionGroup, nullable: true, resolve: ({ section }) => section.sectionGroupId }),
    siteSpaces: t.field({
      type: [SiteSpace],
      description: 'Its site spaces, in order (in a published tree, those shown to the visitor)',
      resolve: (view, _args, ctx) => shownSiteSpacesOf(ctx, view),
    }),
    urls: t.field({
      type: PublishedUrls,
      resolve: async ({ section }, _args, ctx) => ({ published: sectionPublishedUrl(await siteOf(ctx, section.siteId), section, ctx.urls) }),
    }),
  }),
});

SiteSectionGroup.implement({
  fields: (t) => ({
    object: t.string({ resolve: () => 'site-section-group' }),
    title: t.string({ resolve: ({ group }) => group.title }),
    icon: t.string({ nullable: true, resolve: ({ group }) => group.icon }),
    draft: t.boolean({ resolve: () => false }),
    sections: t.field({ type: [SiteSection], description: 'Its sections, in order', resolve: (view, _args, ctx) => shownSectionsOf(ctx, view) }),
    children: t.field({
      type: [SiteSection],
      description: 'The same as `sections` (REST has both)',
      resolve: (view, _args, ctx) => shownSectionsOf(ctx, view),
    }),
  }),
});

SiteSpace.implement({
  fields: (t) => ({
    object: t.string({ resolve: () => 'site-space' }),
    path: t.exposeString('path'),
    title: t.string({
      description: "The space's title",
      resolve: async (siteSpace, _args, ctx) => (await loadColumns(ctx, spaceColumns, siteSpace.spaceId, ['title']))!.title,
    }),
    default: t.exposeBoolean('isDefault', { nullable: true }),
    condition: t.exposeString('condition', { nullable: true }),
    draft: t.boolean({ resolve: () => false }),
    hasAdvancedCustomizationFeature: t.boolean({ nullable: true, resolve: () => false }),
    section: t.field({ type: SiteSection, nullable: true, resolve: (siteSpace) => siteSpace.sectionId }),
    space: t.field({
      type: Space,
      // The site space's own visibility decides: visitors of a published site see its spaces.
      resolve: async (siteSpace, _args, ctx, info) => (await loadColumns(ctx, spaceColumns, siteSpace.spaceId, columnsOf(info, SPACE_FIELD_COLUMNS)))!,
    }),
    urls: t.field({
      type: PublishedUrls,
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
    args: {
      published: t.arg.boolean(),
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
  types: [SiteSection, SiteSectionGroup, SiteSpace],
  resolveType: (entry: PublishedEntry) => ('kind' in entry ? (entry.kind === 'section' ? 'SiteSection' : 'SiteSectionGroup') : 'SiteSpace'),
});

const PublishedSiteStructure = builder.objectRef<PublishedContent['structure']>('PublishedSiteStructure').implement({
  description: '`sections` (sections and groups) or, for a site without sections, `siteSpaces`',
  fields: (t) => ({
    type: t.exposeString('type'),
    structure: t.field({ type: [PublishedSiteEntry], resolve: (structure) => structure.entries }),
  }),
});

const PublishedContentSite = builder.objectRef<PublishedContent>('PublishedContentSite').implement({
  fields: (t) => ({
    object: t.string({ resolve: () => 'published-content-site' }),
    site: t.field({ type: Site, resolve: (published) => published.audience.site }),
    structure: t.field({ type: PublishedSiteStructure, resolve: (published) => published.structure }),
    customizations: t.field({
      type: 'JSON',
      resolve: (published) => ({ site: defaultCustomizations(published.audience.site), siteSpaces: {} }),
    }),
    scripts: t.field({ type: 'JSON', resolve: () => [] }),
  }),
});

builder.queryFields((t) => ({
  site: t.field({
    type: Site,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => siteById(ctx, id),
  }),
  publishedSite: t.field({
    type: PublishedContentSite,
    nullable: true,
    description:
      'A site as its audience sees it: a share key opens share-link sites, a visitor token visitor-auth ones; conditions are evaluated on the token claims',
    args: {
      siteId: t.arg.id({ required: true }),
      shareKey: t.arg.string(),
      visitorToken: t.arg.string(),
    },
    resolve: (_root, { siteId, ...query }, ctx) => publishedContent(ctx, null, siteId, connectionQuery(query)),
  }),
}));

// Mutations: one per REST write, with the REST body as input fields.

type InputBuilder = PothosSchemaTypes.InputFieldBuilder<typeof builder.$inferSchemaTypes, 'InputObject'>;
const ids = (t: InputBuilder) => ({ organizationId: t.id({ required: true }), siteId: t.id({ required: true }) });

const NewSiteSpace = builder.enumType('NewSiteSpace', { values: NEW_SPACE_VALUES });

const SiteAdaptiveContentInput = builder.inputType('SiteAdaptiveContentInput', {
  fields: (t) => ({ enabled: t.boolean({ required: true }) }),
});

const SitePositionInput = builder.inputType('SitePositionInput', {
  description: 'Place the entry before and/or after sibling entries, given by id; the end when empty',
  fields: (t) => ({ before: t.id(), after: t.id() }),
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
      organizationId: t.id({ required: true }),
      type: t.string(),
      title: t.string(),
      visibility: t.string(),
      spaces: t.idList({ description: 'Spaces to show at the root level' }),
      newSpace: t.field({ type: NewSiteSpace, description: 'Create a new space for the site instead of showing existing ones' }),
    }),
  },
  {
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
      ...ids(t),
      title: t.string(),
      visibility: t.string(),
      hostname: t.string(),
      basename: t.string(),
      adaptiveContent: t.field({ type: SiteAdaptiveContentInput }),
      defaultSiteSpace: t.id(),
      defaultSiteSection: t.id(),
      proxy: t.string({ description: 'host/path; null removes the proxy' }),
    }),
  },
  {
    resolve: async (_root, { input: { organizationId, siteId, ...body } }, ctx) => ({
      site: await updateSite(ctx, organizationId, siteId, body),
    }),
  },
  payload.site,
);

builder.relayMutationField(
  'deleteSite',
  { inputFields: ids },
  {
    resolve: async (_root, { input: { organizationId, siteId } }, ctx) => {
      await deleteSite(ctx, organizationId, siteId);
      return { deletedId: siteId };
    },
  },
  payload.deleted,
);

for (const [name, published] of [
  ['publishSite', true],
  ['unpublishSite', false],
] as const) {
  builder.relayMutationField(
    name,
    { inputFields: ids },
    {
      resolve: async (_root, { input: { organizationId, siteId } }, ctx) => ({
        site: await setSitePublished(ctx, organizationId, siteId, published),
      }),
    },
    payload.site,
  );
}

builder.relayMutationField(
  'updateSiteAdaptiveSchema',
  { inputFields: (t) => ({ ...ids(t), jsonSchema: t.field({ type: 'JSON', required: true }) }) },
  {
    resolve: async (_root, { input: { organizationId, siteId, jsonSchema } }, ctx) => ({
      adaptiveSchema: await updateAdaptiveSchema(ctx, organizationId, siteId, { jsonSchema }),
    }),
  },
  {
    outputFields: (t) => ({ adaptiveSchema: t.field({ type: SiteAdaptiveSchema, resolve: (p) => p.adaptiveSchema }) }),
  },
);

builder.relayMutationField(
  'createShareLink',
  { inputFields: (t) => ({ ...ids(t), name: t.string({ required: true }) }) },
  {
    resolve: async (_root, { input: { organizationId, siteId, ...body } }, ctx) => ({
      shareLink: await createShareLink(ctx, organizationId, siteId, body),
    }),
  },
  payload.shareLink,
);

builder.relayMutationField(
  'updateShareLink',
  { inputFields: (t) => ({ ...ids(t), shareLinkId: t.id({ required: true }), name: t.string(), active: t.boolean() }) },
  {
    resolve: async (_root, { input: { organizationId, siteId, shareLinkId, ...body } }, ctx) => ({
      shareLink: await updateShareLink(ctx, organizationId, siteId, shareLinkId, body),
    }),
  },
  payload.shareLink,
);

builder.relayMutationField(
  'deleteShareLink',
  { inputFields: (t) => ({ ...ids(t), shareLinkId: t.id({ required: true }) }) },
  {
    resolve: async (_root, { input: { organizationId, siteId, shareLinkId } }, ctx) => {
      await deleteShareLink(ctx, organizationId, siteId, shareLinkId);
      return { deletedId: shareLinkId };
    },
  },
  payload.deleted,
);

builder.relayMutationField(
  'createSiteSection',
  { inputFields: (t) => ({ ...ids(t), spaceId: t.id({ required: true }), title: t.string() }) },
  {
    resolve: async (_root, { input: { organizationId, siteId, ...body } }, ctx) => ({
      section: await createSection(ctx, organizationId, siteId, body),
    }),
  },
  payload.section,
);

builder.relayMutationField(
  'updateSiteSection',
  {
    inputFields: (t) => ({
      ...ids(t),
      sectionId: t.id({ required: true }),
      title: t.string(),
      path: t.string(),
      defaultSiteSpace: t.id(),
      condition: t.string({ description: 'null removes it; absent keeps it' }),
      icon: t.string(),
      description: t.string(),
    }),
  },
  {
    resolve: async (_root, { input: { organizationId, siteId, sectionId, ...body } }, ctx) => ({
      section: await updateSection(ctx, organizationId, siteId, sectionId, body),
    }),
  },
  payload.section,
);

builder.relayMutationField(
  'deleteSiteSection',
  { inputFields: (t) => ({ ...ids(t), sectionId: t.id({ required: true }) }) },
  {
    resolve: async (_root, { input: { organizationId, siteId, sectionId } }, ctx) => {
      await deleteSection(ctx, organizationId, siteId, sectionId);
      return { deletedId: sectionId };
    },
  },
  payload.deleted,
);

builder.relayMutationField(
  'moveSiteSection',
  { inputFields: (t) => ({ ...ids(t), sectionId: t.id({ required: true }), position: t.field({ type: SitePositionInput }) }) },
  {
    resolve: async (_root, { input: { organizationId, siteId, sectionId, position } }, ctx) => ({
      section: await moveSection(ctx, organizationId, siteId, sectionId, pointer('site-section', 'siteSection', position)),
    }),
  },
  payload.section,
);

builder.relayMutationField(
  'createSiteSectionGroup',
  { inputFields: (t) => ({ ...ids(t), title: t.string({ required: true }), icon: t.string(), sections: t.idList() }) },
  {
    resolve: async (_root, { input: { organizationId, siteId, ...body } }, ctx) => ({
      sectionGroup: await createSectionGroup(ctx, organizationId, siteId, body),
    }),
  },
  payload.group,
);

builder.relayMutationField(
  'updateSiteSectionGroup',
  { inputFields: (t) => ({ ...ids(t), sectionGroupId: t.id({ required: true }), title: t.string(), icon: t.string() }) },
  {
    resolve: async (_root, { input: { organizationId, siteId, sectionGroupId, ...body } }, ctx) => ({
      sectionGroup: await updateSectionGroup(ctx, organizationId, siteId, sectionGroupId, body),
    }),
  },
  payload.group,
);

builder.relayMutationField(
  'deleteSiteSectionGroup',
  { inputFields: (t) => ({ ...ids(t), sectionGroupId: t.id({ required: true }) }) },
  {
    resolve: async (_root, { input: { organizationId, siteId, sectionGroupId } }, ctx) => {
      await deleteSectionGroup(ctx, organizationId, siteId, sectionGroupId);
      return { deletedId: sectionGroupId };
    },
  },
  payload.deleted,
);

builder.relayMutationField(
  'addSectionToGroup',
  { inputFields: (t) => ({ ...ids(t), sectionGroupId: t.id({ required: true }), sectionId: t.id({ required: true }) }) },
  {
    resolve: async (_root, { input: { organizationId, siteId, sectionGroupId, sectionId } }, ctx) => ({
      sectionGroup: await addSectionToGroup(ctx, organizationId, siteId, sectionGroupId, { sectionId }),
    }),
  },
  payload.group,
);

builder.relayMutationField(
  'removeSectionFromGroup',
  { inputFields: (t) => ({ ...ids(t), sectionGroupId: t.id({ required: true }), sectionId: t.id({ required: true }) }) },
  {
    resolve: async (_root, { input: { organizationId, siteId, sectionGroupId, sectionId } }, ctx) => {
      await removeSectionFromGroup(ctx, organizationId, siteId, sectionGroupId, sectionId);
      return { sectionGroup: { id: sectionGroupId } };
    },
  },
  payload.group,
);

builder.relayMutationField(
  'moveSiteSectionGroup',
  {
    inputFields: (t) => ({ ...ids(t), sectionGroupId: t.id({ required: true }), position: t.field({ type: SitePositionInput }) }),
  },
  {
    resolve: async (_root, { input: { organizationId, siteId, sectionGroupId, position } }, ctx) => ({
      sectionGroup: await moveSectionGroup(ctx, organizationId, siteId, sectionGroupId, pointer('site-section', 'id', position)),
    }),
  },
  payload.group,
);

builder.relayMutationField(
  'addSiteSpace',
  { inputFields: (t) => ({ ...ids(t), spaceId: t.id({ required: true }), sectionId: t.id() }) },
  {
    resolve: async (_root, { input: { organizationId, siteId, ...body } }, ctx) => ({
      siteSpace: await addSiteSpace(ctx, organizationId, siteId, connectionQuery(body)),
    }),
  },
  payload.siteSpace,
);

builder.relayMutationField(
  'updateSiteSpace',
  {
    inputFields: (t) => ({
      ...ids(t),
      siteSpaceId: t.id({ required: true }),
      path: t.string(),
      condition: t.string({ description: 'null removes it; absent keeps it' }),
    }),
  },
  {
    resolve: async (_root, { input: { organizationId, siteId, siteSpaceId, ...body } }, ctx) => ({
      siteSpace: await updateSiteSpace(ctx, organizationId, siteId, siteSpaceId, body),
    }),
  },
  payload.siteSpace,
);

builder.relayMutationField(
  'deleteSiteSpace',
  { inputFields: (t) => ({ ...ids(t), siteSpaceId: t.id({ required: true }) }) },
  {
    resolve: async (_root, { input: { organizationId, siteId, siteSpaceId } }, ctx) => {
      await deleteSiteSpace(ctx, organizationId, siteId, siteSpaceId);
      return { deletedId: siteSpaceId };
    },
  },
  payload.deleted,
);

builder.relayMutationField(
  'moveSiteSpace',
  { inputFields: (t) => ({ ...ids(t), siteSpaceId: t.id({ required: true }), position: t.field({ type: SitePositionInput }) }) },
  {
    resolve: async (_root, { input: { organizationId, siteId, siteSpaceId, position } }, ctx) => ({
      siteSpace: await moveSiteSpace(ctx, organizationId, siteId, siteSpaceId, pointer('site-space', 'siteSpace', position)),
    }),
  },
  payload.siteSpace,
);
