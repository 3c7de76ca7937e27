import type { RequestContext } from '../../context.ts';
import type { AuditFacts } from '../audit/record.ts';
import { conflict, invalid, notFound } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { type Ordering, type Page, pageRequestOf } from '../../lib/pagination.ts';
import { parseInput } from '../../lib/validation.ts';
import { loader } from '../loaders.ts';
import { type ChildListing, countsBy, listChildren, mapPage } from '../shared/pages.ts';
import { inTransaction, serializeOn } from '../transaction.ts';
import { AddSectionToGroupInput, CreateSectionGroupInput, ListStructureQuery, MoveSectionGroupInput, UpdateSectionGroupInput } from './inputs.ts';
import { bySiblingOrder, endOf, keysBetween, positionAmong } from './positions.ts';
import type { SiteSectionGroupJSON } from './presenter.ts';
import {
  type SectionGroupRecord,
  type SectionGroupView,
  entryOfVisibleSite,
  groupView,
  manageableSite,
  presentSectionGroupRecord,
  sectionGroupRecords,
  sectionsOfGroup,
  showAll,
  shownToViewer,
  visibleSite,
} from './records.ts';
import { shownTo, siteAudience } from './published.ts';
import { topLevelEntries } from './sections.ts';

const inOrder: Ordering<SectionGroupRecord> = {
  name: 'site-section-groups',
  keys: [
    { field: 'position', direction: 'asc', type: 'string', value: (row) => row.position },
    { field: 'id', direction: 'asc', type: 'string', value: (row) => row.id },
  ],
};

export const groupsOfSite: ChildListing<SectionGroupRecord, null> = {
  name: 'site-section-groups',
  records: sectionGroupRecords,
  ordering: () => inOrder,
  parentOf: (row) => row.siteId,
  findMany: (ctx, siteIds, _filter, args) => ctx.db.siteSectionGroup.findMany({ ...args, where: { AND: [{ siteId: { in: siteIds } }, args.where] } }),
  count: async (ctx, siteIds) =>
    countsBy(await ctx.db.siteSectionGroup.groupBy({ by: ['siteId'], where: { siteId: { in: siteIds } }, _count: { _all: true } }), 'siteId'),
};

export async function listSectionGroupViews(ctx: RequestContext, organizationId: string, siteId: string, query: unknown): Promise<Page<SectionGroupView>> {
  const params = parseInput(ListStructureQuery, query, 'query');
  const audience = await siteAudience(ctx, siteId, { shareKey: params.shareKey });
  if (audience.site.organizationId !== organizationId) throw notFound('Site', siteId);
  const shown = shownTo(audience);
  const page = await listChildren(ctx, groupsOfSite, siteId, null, pageRequestOf(params));
  return mapPage(page, (group) => groupView(group, shown));
}

export async function listSectionGroups(ctx: RequestContext, organizationId: string, siteId: string, query: unknown): Promise<Page<SiteSectionGroupJSON>> {
  const page = await listSectionGroupViews(ctx, organizationId, siteId, query);
  return mapPage(page, (view) => presentSectionGroupRecord(ctx, view.group, view.shown, view.shown));
}

async function groupOfSite(ctx: RequestContext, siteId: string, groupId: string) {
  const group = await loader(ctx, sectionGroupRecords).load(groupId);
  if (!group || group.siteId !== siteId) throw notFound('Site section group', groupId);
  return group;
}

/** A section group by its id alone (GraphQL nodes), with all its sections. */
export async function sectionGroupById(ctx: RequestContext, groupId: string): Promise<SectionGroupView> {
  const group = await entryOfVisibleSite(ctx, 'Site section group', await loader(ctx, sectionGroupRecords).load(groupId), groupId);
  // A visitor sees it when one of its sections is shown to it, and those sections only.
  const shown = shownToViewer(ctx, group.siteId);
  if (shown !== showAll && !(await loader(ctx, sectionsOfGroup).load(group.id)).some(shown)) throw notFound('Site section group', groupId);
  return groupView(group, shown);
}

export async function getSectionGroup(ctx: RequestContext, groupId: string): Promise<SiteSectionGroupJSON> {
  return presentSectionGroupRecord(ctx, (await sectionGroupById(ctx, groupId)).group);
}

/** Puts sections, in order, at the end of a group. A section belongs to at most one group. */
async function addSections(tx: RequestContext, siteId: string, group: { id: string; position: string }, sectionIds: string[], field: string) {
  const sections = await tx.db.siteSection.findMany({ where: { id: { in: sectionIds } } });
  const inGroup = await tx.db.siteSection.findMany({ where: { sectionGroupId: group.id }, select: { id: true, position: true } });
  for (const [index, sectionId] of sectionIds.entries()) {
    const section = sections.find((candidate) => candidate.id === sectionId);
    const name = field === 'sections' ? `sections.${index}` : field;
    if (!section || section.siteId !== siteId) throw invalid(`${name}: section "${sectionId}" is not a section of this site`);
    if (section.sectionGroupId === group.id) throw conflict(`${name}: section "${sectionId}" is already in this group`);
    if (section.sectionGroupId) {
      throw conflict(`${name}: section "${sectionId}" already belongs to group "${section.sectionGroupId}"`);
    }
    const position = endOf(inGroup);
    inGroup.push({ id: sectionId, position });
    await tx.db.siteSection.update({
      where: { id: sectionId },
      data: { sectionGroupId: group.id, position, topPosition: group.position },
    });
  }
}

export async function createSectionGroup(ctx: RequestContext, organizationId: string, siteId: string, body: unknown) {
  await visibleSite(ctx, organizationId, siteId);
  const input = parseInput(CreateSectionGroupInput, body);
  await manageableSite(ctx, organizationId, siteId, "change this site's sections");
  const sectionIds = input.sections ?? [];
  const id = newId('siteSectionGroup');
  const audit: AuditFacts = {
    action: 'site_section_group.create',
    organizationId,
    target: { type: 'site-section-group', id, label: input.title },
    payload: { siteId },
  };
  await inTransaction(ctx, audit, async (tx) => {
    await serializeOn(tx.db, tx.provider, `site:${siteId}`);
    const position = endOf(await topLevelEntries(tx, siteId));
    await tx.db.siteSectionGroup.create({ data: { id, siteId, title: input.title, icon: input.icon ?? null, position } });
    await addSections(tx, siteId, { id, position }, sectionIds, 'sections');
  });
  return getSectionGroup(ctx, id);
}

export async function updateSectionGroup(ctx: RequestContext, organizationId: string, siteId: string, groupId: string, body: unknown) {
  await visibleSite(ctx, organizationId, siteId);
  await groupOfSite(ctx, siteId, groupId);
  const input = parseInput(UpdateSectionGroupInput, body);
  await manageableSite(ctx, organizationId, siteId, "change this site's sections");
  await inTransaction(
    ctx,
    {
      action: 'site_section_group.update',
      organizationId,
      target: { type: 'site-section-group', id: groupId },
      payload: { siteId },
    },
    (tx) => tx.db.siteSectionGroup.update({ where: { id: groupId }, data: { title: input.title, icon: input.icon } }),
  );
  return getSectionGroup(ctx, groupId);
}

/** Deletes a group; its sections stay, at the top level where the group was. */
export async function deleteSectionGroup(ctx: RequestContext, organizationId: string, siteId: string, groupId: string) {
  await visibleSite(ctx, organizationId, siteId);
  await groupOfSite(ctx, siteId, groupId);
  await manageableSite(ctx, organizationId, siteId, "change this site's sections");
  const audit: AuditFacts = { action: 'site_section_group.delete', organizationId, target: { type: 'site-section-group', id: groupId }, payload: { siteId } };
  await inTransaction(ctx, audit, async (tx) => {
    await serializeOn(tx.db, tx.provider, `site:${siteId}`);
    const group = await tx.db.siteSectionGroup.findUniqueOrThrow({ where: { id: groupId } });
    const members = (await tx.db.siteSection.findMany({ where: { sectionGroupId: groupId } })).sort(bySiblingOrder);
    const topLevel = (await topLevelEntries(tx, siteId)).sort(bySiblingOrder);
    const index = topLevel.findIndex((entry) => entry.id === groupId);
    const keys = keysBetween(group.position, topLevel[index + 1]?.position ?? null, members.length);
    for (const [i, section] of members.entries()) {
      await tx.db.siteSection.update({
        where: { id: section.id },
        data: { sectionGroupId: null, position: keys[i]!, topPosition: keys[i]! },
      });
    }
    await tx.db.siteSectionGroup.delete({ where: { id: groupId } });
  });
}

export async function addSectionToGroup(ctx: RequestContext, organizationId: string, siteId: string, groupId: string, body: unknown) {
  await visibleSite(ctx, organizationId, siteId);
  await groupOfSite(ctx, siteId, groupId);
  const input = parseInput(AddSectionToGroupInput, body);
  await manageableSite(ctx, organizationId, siteId, "change this site's sections");
  const audit: AuditFacts = {
    action: 'site_section_group.add_section',
    organizationId,
    target: { type: 'site-section-group', id: groupId },
    payload: { siteId, sectionId: input.sectionId },
  };
  await inTransaction(ctx, audit, async (tx) => {
    await serializeOn(tx.db, tx.provider, `site:${siteId}`);
    const group = await tx.db.siteSectionGroup.findUniqueOrThrow({ where: { id: groupId } });
    await addSections(tx, siteId, group, [input.sectionId], 'sectionId');
  });
  return getSectionGroup(ctx, groupId);
}

/** Takes a section out of its group: it goes to the top level right after the group. */
export async function removeSectionFromGroup(ctx: RequestContext, organizationId: string, siteId: string, groupId: string, sectionId: string) {
  await visibleSite(ctx, organizationId, siteId);
  await groupOfSite(ctx, siteId, groupId);
  await manageableSite(ctx, organizationId, siteId, "change this site's sections");
  const audit: AuditFacts = {
    action: 'site_section_group.remove_section',
    organizationId,
    target: { type: 'site-section-group', id: groupId },
    payload: { siteId, sectionId },
  };
  await inTransaction(ctx, audit, async (tx) => {
    await serializeOn(tx.db, tx.provider, `site:${siteId}`);
    const section = await tx.db.siteSection.findFirst({ where: { id: sectionId, sectionGroupId: groupId } });
    if (!section) throw notFound('Site section in this group', sectionId);
    const position = positionAmong(await topLevelEntries(tx, siteId), sectionId, { after: groupId });
    await tx.db.siteSection.update({
      where: { id: sectionId },
      data: { sectionGroupId: null, position, topPosition: position },
    });
  });
}

/** Moves a group among the top-level entries; its sections follow it in site order. */
export async function moveSectionGroup(ctx: RequestContext, organizationId: string, siteId: string, groupId: string, body: unknown) {
  await visibleSite(ctx, organizationId, siteId);
  await groupOfSite(ctx, siteId, groupId);
  const input = parseInput(MoveSectionGroupInput, body);
  await manageableSite(ctx, organizationId, siteId, "change this site's sections");
  const audit: AuditFacts = { action: 'site_section_group.move', organizationId, target: { type: 'site-section-group', id: groupId }, payload: { siteId } };
  await inTransaction(ctx, audit, async (tx) => {
    await serializeOn(tx.db, tx.provider, `site:${siteId}`);
    const position = positionAmong(await topLevelEntries(tx, siteId), groupId, {
      before: input.position?.before?.id,
      after: input.position?.after?.id,
    });
    await tx.db.siteSectionGroup.update({ where: { id: groupId }, data: { position } });
    await tx.db.siteSection.updateMany({ where: { sectionGroupId: groupId }, data: { topPosition: position } });
  });
  return getSectionGroup(ctx, groupId);
}
