import type { RequestContext } from '../../context.ts';
import { sectionPublishedUrl, type SiteSectionJSON } from '../../domain/sites/presenter.ts';
import { shownSiteSpacesOf } from '../../domain/sites/records.ts';
import { createSection, deleteSection, moveSection, sectionById, updateSection } from '../../domain/sites/sections.ts';
import { builder } from '../builder.ts';
import {
  type FieldBuilder,
  PublishedUrls,
  SitePositionInput,
  SiteSection,
  SiteSectionGroup,
  SiteSpace,
  deletedPayload,
  pathOfSite,
  pointer,
  siteIdField,
  siteOf,
} from './site-common.ts';
import { nullIsAValue } from '../null-inputs.ts';

/** Sections of a site (a site's `sections`), and their mutations. */

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

const pathOfSection = async (ctx: RequestContext, sectionId: string) => pathOfSite(ctx, (await sectionById(ctx, sectionId)).section.siteId);

const payload = {
  section: {
    outputFields: (t: FieldBuilder<{ section: Pick<SiteSectionJSON, 'id'> }>) => ({
      section: t.field({ type: SiteSection, resolve: (p, _args, ctx) => sectionById(ctx, p.section.id) }),
    }),
  },
  deleted: deletedPayload,
};

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
        description:
          'Its path, unique among the sections of the site: URL segments of letters, digits, ".", "_", "~" or "-", none of them "." or ".." (up to 100 characters)',
      }),
      defaultSiteSpace: t.id({ description: 'A site space of the section to make its default' }),
      condition: t.string({ ...nullIsAValue, description: 'null removes it; absent keeps it' }),
      icon: t.string({ ...nullIsAValue, description: 'An icon name (up to 50 characters); null removes it' }),
      description: t.string({ ...nullIsAValue, description: 'Up to 256 characters; null removes it' }),
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
