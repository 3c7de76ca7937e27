import type { RequestContext } from '../../context.ts';
import { loadColumns } from '../../domain/columns.ts';
import { loader } from '../../domain/loaders.ts';
import { type SiteSpaceJSON, siteSpacePublishedUrl } from '../../domain/sites/presenter.ts';
import { pagesShownToViewer } from '../../domain/sites/published.ts';
import { sectionRecords } from '../../domain/sites/records.ts';
import { addSiteSpace, deleteSiteSpace, duplicateSiteSpace, moveSiteSpace, siteSpaceById, updateSiteSpace } from '../../domain/sites/site-spaces.ts';
import { spaceColumns } from '../../domain/spaces/service.ts';
import { builder } from '../builder.ts';
import { columnsOf } from '../columns.ts';
import { connectionQuery } from '../connection.ts';
import {
  type FieldBuilder,
  PublishedUrls,
  SitePositionInput,
  SiteSection,
  SiteSpace,
  deletedPayload,
  pathOfSite,
  pointer,
  siteIdField,
  siteOf,
} from './site-common.ts';
import { SPACE_FIELD_COLUMNS, Space } from './space.ts';
import { readByVisitor } from './visitor-pages.ts';
import { nullIsAValue } from '../null-inputs.ts';

/** Site spaces: the spaces a site shows (a site's `siteSpaces`), and their mutations. */

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
      // The site space's own visibility decides: visitors of a published site see its spaces,
      // and of their pages those the conditions of adaptive content show them.
      resolve: async (siteSpace, _args, ctx, info) =>
        readByVisitor(
          (await loadColumns(ctx, spaceColumns, siteSpace.spaceId, columnsOf(info, SPACE_FIELD_COLUMNS)))!,
          pagesShownToViewer(ctx, siteSpace.siteId),
        ),
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

const pathOfSiteSpace = async (ctx: RequestContext, siteSpaceId: string) => pathOfSite(ctx, (await siteSpaceById(ctx, siteSpaceId)).siteId);

const payload = {
  siteSpace: {
    outputFields: (t: FieldBuilder<{ siteSpace: Pick<SiteSpaceJSON, 'id'> }>) => ({
      siteSpace: t.field({ type: SiteSpace, resolve: (p, _args, ctx) => siteSpaceById(ctx, p.siteSpace.id) }),
    }),
  },
  deleted: deletedPayload,
};

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
          'Its path, unique among the site spaces of its section (or root level): URL segments of letters, digits, ".", "_", "~" or "-", none of them "." or ".." (up to 100 characters)',
      }),
      condition: t.string({ ...nullIsAValue, description: 'null removes it; absent keeps it' }),
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

builder.relayMutationField(
  'duplicateSiteSpace',
  { inputFields: (t) => ({ siteSpaceId: t.id({ required: true, description: 'The site space whose space is copied' }) }) },
  {
    description:
      "Copies a site space's space into the site (admins of the organization who may copy the space): a variant right after it, or, when it is the only site space of its section, in a new section right after that one; its condition and customization override come along",
    resolve: async (_root, { input: { siteSpaceId } }, ctx) => ({
      siteSpace: await duplicateSiteSpace(ctx, ...(await pathOfSiteSpace(ctx, siteSpaceId)), siteSpaceId, {}),
    }),
  },
  payload.siteSpace,
);
