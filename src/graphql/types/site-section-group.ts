import type { RequestContext } from '../../context.ts';
import type { SiteSectionGroupJSON } from '../../domain/sites/presenter.ts';
import { shownSectionsOf } from '../../domain/sites/records.ts';
import {
  addSectionToGroup,
  createSectionGroup,
  deleteSectionGroup,
  moveSectionGroup,
  removeSectionFromGroup,
  sectionGroupById,
  updateSectionGroup,
} from '../../domain/sites/section-groups.ts';
import { builder } from '../builder.ts';
import { type FieldBuilder, SitePositionInput, SiteSection, SiteSectionGroup, deletedPayload, pathOfSite, pointer, siteIdField } from './site-common.ts';
import { nullIsAValue } from '../null-inputs.ts';

/** Section groups of a site (a site's `sectionGroups`), and their mutations. */

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

const pathOfSectionGroup = async (ctx: RequestContext, groupId: string) => pathOfSite(ctx, (await sectionGroupById(ctx, groupId)).group.siteId);

const payload = {
  group: {
    outputFields: (t: FieldBuilder<{ sectionGroup: Pick<SiteSectionGroupJSON, 'id'> }>) => ({
      sectionGroup: t.field({ type: SiteSectionGroup, resolve: (p, _args, ctx) => sectionGroupById(ctx, p.sectionGroup.id) }),
    }),
  },
  deleted: deletedPayload,
};

builder.relayMutationField(
  'createSiteSectionGroup',
  {
    inputFields: (t) => ({
      ...siteIdField(t),
      title: t.string({ required: true, description: '1 to 100 characters' }),
      icon: t.string({ ...nullIsAValue, description: 'An icon name (up to 50 characters); null: none' }),
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
      icon: t.string({ ...nullIsAValue, description: 'An icon name (up to 50 characters); null removes it' }),
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
