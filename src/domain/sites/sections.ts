import type { RequestContext } from '../../context.ts';
import type { AuditFacts } from '../audit/record.ts';
import { conflict, invalid, notFound } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { type Ordering, type Page, pageRequestOf } from '../../lib/pagination.ts';
import { parseInput } from '../../lib/validation.ts';
import { loader } from '../loaders.ts';
import { type ChildListing, countsBy, listChildren, listVisibleChildren, mapPage } from '../shared/pages.ts';
import { spaceRecords } from '../spaces/service.ts';
import { inTransaction, serializeOn } from '../transaction.ts';
import { checkedCondition } from './conditions.ts';
import { CreateSectionInput, ListStructureQuery, MoveSectionInput, UpdateSectionInput } from './inputs.ts';
import { endOf, positionAmong } from './positions.ts';
import type { SiteSectionJSON } from './presenter.ts';
import { shownTo, siteAudience } from './published.ts';
import {
  type SectionRecord,
  type SectionView,
  entryOfVisibleSite,
  manageableSite,
  presentSectionRecord,
  sectionView,
  sectionRecords,
  shownToViewer,
  uniquePath,
  visibleSite,
} from './records.ts';

/** Sections in site order: top-level entries by position, sections of a group after each other. */
export const sectionsInSiteOrder: Ordering<SectionRecord> = {
  name: 'site-sections',
  keys: [
    { field: 'topPosition', direction: 'asc', type: 'string', value: (row) => row.topPosition },
    { field: 'position', direction: 'asc', type: 'string', value: (row) => row.position },
    { field: 'id', direction: 'asc', type: 'string', value: (row) => row.id },
  ],
};

export const sectionsOfSite: ChildListing<SectionRecord, null> = {
  name: 'site-sections',
  records: sectionRecords,
  ordering: () => sectionsInSiteOrder,
  parentOf: (row) => row.siteId,
  findMany: (ctx, siteIds, _filter, args) => ctx.db.siteSection.findMany({ ...args, where: { AND: [{ siteId: { in: siteIds } }, args.where] } }),
  count: async (ctx, siteIds) =>
    countsBy(await ctx.db.siteSection.groupBy({ by: ['siteId'], where: { siteId: { in: siteIds } }, _count: { _all: true } }), 'siteId'),
};

/**
 * Sections of a site, in site order. Members see them all; visitors (with the
 * share key of a share-link site, say) see those whose condition holds for them.
 */
export async function listSectionViews(ctx: RequestContext, organizationId: string, siteId: string, query: unknown): Promise<Page<SectionView>> {
  const params = parseInput(ListStructureQuery, query, 'query');
  const audience = await siteAudience(ctx, siteId, { shareKey: params.shareKey });
  if (audience.site.organizationId !== organizationId) throw notFound('Site', siteId);
  const shown = shownTo(audience);
  const page = audience.member
    ? await listChildren(ctx, sectionsOfSite, siteId, null, pageRequestOf(params))
    : await listVisibleChildren(ctx, sectionsOfSite, siteId, null, pageRequestOf(params), shown);
  return mapPage(page, (section) => sectionView(section, shown));
}

export async function listSections(ctx: RequestContext, organizationId: string, siteId: string, query: unknown): Promise<Page<SiteSectionJSON>> {
  const page = await listSectionViews(ctx, organizationId, siteId, query);
  return mapPage(page, (view) => presentSectionRecord(ctx, view.section, view.shown));
}

async function sectionOfSite(ctx: RequestContext, siteId: string, sectionId: string) {
  const section = await loader(ctx, sectionRecords).load(sectionId);
  if (!section || section.siteId !== siteId) throw notFound('Site section', sectionId);
  return section;
}

/** A section by its id alone (GraphQL nodes), with all its site spaces. */
export async function sectionById(ctx: RequestContext, sectionId: string): Promise<SectionView> {
  const section = await entryOfVisibleSite(ctx, 'Site section', await loader(ctx, sectionRecords).load(sectionId), sectionId);
  // A visitor sees it, and its site spaces, as its published tree shows them.
  const shown = shownToViewer(ctx, section.siteId);
  if (!shown(section)) throw notFound('Site section', sectionId);
  return sectionView(section, shown);
}

export async function getSection(ctx: RequestContext, sectionId: string): Promise<SiteSectionJSON> {
  return presentSectionRecord(ctx, (await sectionById(ctx, sectionId)).section);
}

/** The top-level entries of a site: its groups and the sections in no group. */
export async function topLevelEntries(tx: RequestContext, siteId: string) {
  const [sections, groups] = await Promise.all([
    tx.db.siteSection.findMany({ where: { siteId, sectionGroupId: null }, select: { id: true, position: true } }),
    tx.db.siteSectionGroup.findMany({ where: { siteId }, select: { id: true, position: true } }),
  ]);
  return [...sections, ...groups];
}

/**
 * Adds a section showing a space. The first section of a site becomes its
 * default, and takes the site spaces the site had at its root level.
 */
export async function createSection(ctx: RequestContext, organizationId: string, siteId: string, body: unknown) {
  await visibleSite(ctx, organizationId, siteId);
  const input = parseInput(CreateSectionInput, body);
  await manageableSite(ctx, organizationId, siteId, 'add sections to this site');
  const space = await loader(ctx, spaceRecords).load(input.spaceId);
  if (!space || space.organizationId !== organizationId || space.deletedAt) {
    throw invalid(`spaceId: space "${input.spaceId}" does not exist in this organization`);
  }
  const id = newId('siteSection');
  const audit: AuditFacts = {
    action: 'site_section.create',
    organizationId,
    target: { type: 'site-section', id },
    payload: { siteId, spaceId: input.spaceId },
  };
  await inTransaction(ctx, audit, async (tx) => {
    await serializeOn(tx.db, tx.provider, `site:${siteId}`);
    const existing = await tx.db.siteSection.findMany({ where: { siteId }, select: { path: true } });
    const title = input.title ?? (space.title.trim().length >= 2 ? space.title : 'Untitled section');
    const position = endOf(await topLevelEntries(tx, siteId));
    const first = existing.length === 0;
    await tx.db.siteSection.create({
      data: {
        id,
        siteId,
        title,
        path: uniquePath(
          title,
          existing.map((section) => section.path),
          'section',
        ),
        position,
        topPosition: position,
        isDefault: first,
      },
    });
    if (first) await tx.db.siteSpace.updateMany({ where: { siteId, sectionId: null }, data: { sectionId: id } });
    const inSection = await tx.db.siteSpace.findMany({ where: { sectionId: id } });
    if (!inSection.some((siteSpace) => siteSpace.spaceId === space.id)) {
      await tx.db.siteSpace.create({
        data: {
          id: newId('siteSpace'),
          siteId,
          sectionId: id,
          spaceId: space.id,
          path: uniquePath(
            space.title,
            inSection.map((siteSpace) => siteSpace.path),
            'space',
          ),
          position: endOf(inSection),
          isDefault: !inSection.some((siteSpace) => siteSpace.isDefault),
        },
      });
    }
  });
  return getSection(ctx, id);
}

export async function updateSection(ctx: RequestContext, organizationId: string, siteId: string, sectionId: string, body: unknown) {
  await visibleSite(ctx, organizationId, siteId);
  await sectionOfSite(ctx, siteId, sectionId);
  const input = parseInput(UpdateSectionInput, body);
  await manageableSite(ctx, organizationId, siteId, "change this site's sections");
  const condition = checkedCondition(input.condition);
  const audit: AuditFacts = { action: 'site_section.update', organizationId, target: { type: 'site-section', id: sectionId }, payload: { siteId } };
  await inTransaction(ctx, audit, async (tx) => {
    await serializeOn(tx.db, tx.provider, `site:${siteId}`);
    if (input.path !== undefined) {
      const taken = await tx.db.siteSection.findFirst({ where: { siteId, path: input.path, id: { not: sectionId } } });
      if (taken) throw conflict(`path: "${input.path}" is already the path of another section of this site`);
    }
    if (input.defaultSiteSpace !== undefined) {
      const siteSpace = await tx.db.siteSpace.findFirst({ where: { id: input.defaultSiteSpace, sectionId } });
      if (!siteSpace) throw invalid(`defaultSiteSpace: site space "${input.defaultSiteSpace}" is not in this section`);
      await tx.db.siteSpace.updateMany({ where: { sectionId }, data: { isDefault: false } });
      await tx.db.siteSpace.update({ where: { id: siteSpace.id }, data: { isDefault: true } });
    }
    await tx.db.siteSection.update({
      where: { id: sectionId },
      data: {
        title: input.title,
        path: input.path,
        condition,
        icon: input.icon,
        description: input.description,
      },
    });
  });
  return getSection(ctx, sectionId);
}

/** Deletes a section and its site spaces; when it was the default, the first remaining section takes over. */
export async function deleteSection(ctx: RequestContext, organizationId: string, siteId: string, sectionId: string) {
  await visibleSite(ctx, organizationId, siteId);
  await sectionOfSite(ctx, siteId, sectionId);
  await manageableSite(ctx, organizationId, siteId, "change this site's sections");
  const audit: AuditFacts = { action: 'site_section.delete', organizationId, target: { type: 'site-section', id: sectionId }, payload: { siteId } };
  await inTransaction(ctx, audit, async (tx) => {
    await serializeOn(tx.db, tx.provider, `site:${siteId}`);
    const section = await tx.db.siteSection.delete({ where: { id: sectionId } });
    if (section.isDefault) {
      const next = await tx.db.siteSection.findFirst({
        where: { siteId },
        orderBy: [{ topPosition: 'asc' }, { position: 'asc' }, { id: 'asc' }],
      });
      if (next) await tx.db.siteSection.update({ where: { id: next.id }, data: { isDefault: true } });
    }
  });
}

/** Moves a section among its siblings: the top-level entries, or the sections of its group. */
export async function moveSection(ctx: RequestContext, organizationId: string, siteId: string, sectionId: string, body: unknown) {
  await visibleSite(ctx, organizationId, siteId);
  await sectionOfSite(ctx, siteId, sectionId);
  const input = parseInput(MoveSectionInput, body);
  await manageableSite(ctx, organizationId, siteId, "change this site's sections");
  const audit: AuditFacts = { action: 'site_section.move', organizationId, target: { type: 'site-section', id: sectionId }, payload: { siteId } };
  await inTransaction(ctx, audit, async (tx) => {
    await serializeOn(tx.db, tx.provider, `site:${siteId}`);
    const section = await tx.db.siteSection.findUniqueOrThrow({ where: { id: sectionId } });
    const siblings = section.sectionGroupId
      ? await tx.db.siteSection.findMany({ where: { sectionGroupId: section.sectionGroupId }, select: { id: true, position: true } })
      : await topLevelEntries(tx, siteId);
    const position = positionAmong(siblings, sectionId, {
      before: input.position?.before?.siteSection,
      after: input.position?.after?.siteSection,
    });
    await tx.db.siteSection.update({
      where: { id: sectionId },
      data: { position, ...(section.sectionGroupId ? {} : { topPosition: position }) },
    });
  });
  return getSection(ctx, sectionId);
}
