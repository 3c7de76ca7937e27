import type { RequestContext } from '../../context.ts';
import type { AuditFacts } from '../audit/record.ts';
import { conflict, invalid, notFound } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { type Ordering, type Page, pageRequestOf } from '../../lib/pagination.ts';
import { parseInput } from '../../lib/validation.ts';
import { loader } from '../loaders.ts';
import { type ChildListing, countsBy, listChildren, listVisibleChildren, mapPage } from '../shared/pages.ts';
import { copySpaceIn, duplicableSpace, spaceRecords } from '../spaces/service.ts';
import { inTransaction, serializeOn } from '../transaction.ts';
import { checkedCondition } from './conditions.ts';
import { CreateSiteSpaceInput, DuplicateSiteSpaceInput, ListSiteSpacesQuery, MoveSiteSpaceInput, UpdateSiteSpaceInput } from './inputs.ts';
import { topLevelEntries } from './sections.ts';
import { keyBetween } from '../../lib/ordering.ts';
import { type Ordered, bySiblingOrder, endOf, positionAmong } from './positions.ts';
import type { SiteSpaceJSON } from './presenter.ts';
import { shownTo, siteAudience } from './published.ts';
import {
  type SiteSpaceRecord,
  entryOfVisibleSite,
  manageableSite,
  presentSiteSpaceRecord,
  sectionRecords,
  showAll,
  shownToViewer,
  siteSpaceRecords,
  uniquePath,
  visibleSite,
} from './records.ts';

/**
 * Across sections, positions do not compare: the site-wide listing goes by creation.
 * Site spaces created in one instant (a site created with its spaces) share a
 * parent, so their position breaks the tie in the order the site shows them.
 */
export const siteSpacesByCreation: Ordering<SiteSpaceRecord> = {
  name: 'site-spaces',
  keys: [
    { field: 'createdAt', direction: 'asc', type: 'date', value: (row) => row.createdAt },
    { field: 'position', direction: 'asc', type: 'string', value: (row) => row.position },
    { field: 'id', direction: 'asc', type: 'string', value: (row) => row.id },
  ],
};

interface SiteSpaceFilter {
  default?: boolean | undefined;
}

export const siteSpacesOfSite: ChildListing<SiteSpaceRecord, SiteSpaceFilter> = {
  name: 'site-site-spaces',
  records: siteSpaceRecords,
  ordering: () => siteSpacesByCreation,
  parentOf: (row) => row.siteId,
  findMany: (ctx, siteIds, filter, args) =>
    ctx.db.siteSpace.findMany({
      ...args,
      where: {
        AND: [{ siteId: { in: siteIds }, ...(filter.default !== undefined ? { isDefault: filter.default } : {}) }, args.where],
      },
    }),
  count: async (ctx, siteIds, filter) =>
    countsBy(
      await ctx.db.siteSpace.groupBy({
        by: ['siteId'],
        where: { siteId: { in: siteIds }, ...(filter.default !== undefined ? { isDefault: filter.default } : {}) },
        _count: { _all: true },
      }),
      'siteId',
    ),
};

/** Site spaces of a site; `default` keeps only (or leaves out) the default ones. Visitors see those shown to them. */
export async function listSiteSpaceRecords(ctx: RequestContext, organizationId: string, siteId: string, query: unknown): Promise<Page<SiteSpaceRecord>> {
  const params = parseInput(ListSiteSpacesQuery, query, 'query');
  const audience = await siteAudience(ctx, siteId, { shareKey: params.shareKey });
  if (audience.site.organizationId !== organizationId) throw notFound('Site', siteId);
  const filter = { default: params.default };
  if (audience.member) return listChildren(ctx, siteSpacesOfSite, siteId, filter, pageRequestOf(params));
  // A visitor sees the site spaces shown to it, in sections shown to it.
  const shown = shownTo(audience);
  const hiddenSections = new Set(
    (await ctx.db.siteSection.findMany({ where: { siteId }, select: { id: true, condition: true } }))
      .filter((section) => !shown(section))
      .map((section) => section.id),
  );
  const keep = (siteSpace: SiteSpaceRecord) => shown(siteSpace) && !(siteSpace.sectionId && hiddenSections.has(siteSpace.sectionId));
  return listVisibleChildren(ctx, siteSpacesOfSite, siteId, filter, pageRequestOf(params), keep);
}

export async function listSiteSpaces(ctx: RequestContext, organizationId: string, siteId: string, query: unknown): Promise<Page<SiteSpaceJSON>> {
  const page = await listSiteSpaceRecords(ctx, organizationId, siteId, query);
  return mapPage(page, (siteSpace) => presentSiteSpaceRecord(ctx, siteSpace));
}

async function siteSpaceOfSite(ctx: RequestContext, siteId: string, siteSpaceId: string) {
  const siteSpace = await loader(ctx, siteSpaceRecords).load(siteSpaceId);
  if (!siteSpace || siteSpace.siteId !== siteId) throw notFound('Site space', siteSpaceId);
  return siteSpace;
}

/** A site space by its id alone (GraphQL nodes). */
export async function siteSpaceById(ctx: RequestContext, siteSpaceId: string): Promise<SiteSpaceRecord> {
  const siteSpace = await entryOfVisibleSite(ctx, 'Site space', await loader(ctx, siteSpaceRecords).load(siteSpaceId), siteSpaceId);
  // A visitor reaches it only where its published tree shows it: its condition, and its section's, hold.
  const shown = shownToViewer(ctx, siteSpace.siteId);
  if (shown === showAll) return siteSpace;
  const section = siteSpace.sectionId ? await loader(ctx, sectionRecords).load(siteSpace.sectionId) : null;
  if (!shown(siteSpace) || (section && !shown(section))) throw notFound('Site space', siteSpaceId);
  return siteSpace;
}

export async function getSiteSpace(ctx: RequestContext, siteSpaceId: string): Promise<SiteSpaceJSON> {
  return presentSiteSpaceRecord(ctx, await siteSpaceById(ctx, siteSpaceId));
}

const container = (siteId: string, sectionId: string | null) => ({ siteId, sectionId });

/**
 * Adds a space to a site: in the given section, else in the default section, or
 * at the root level of a site without sections. The first one of its place is the default.
 */
export async function addSiteSpace(ctx: RequestContext, organizationId: string, siteId: string, body: unknown) {
  await visibleSite(ctx, organizationId, siteId);
  const input = parseInput(CreateSiteSpaceInput, body);
  await manageableSite(ctx, organizationId, siteId, 'add spaces to this site');
  const space = await loader(ctx, spaceRecords).load(input.spaceId);
  if (!space || space.organizationId !== organizationId || space.deletedAt) {
    throw invalid(`spaceId: space "${input.spaceId}" does not exist in this organization`);
  }
  const id = newId('siteSpace');
  const audit: AuditFacts = { action: 'site_space.create', organizationId, target: { type: 'site-space', id }, payload: { siteId, spaceId: input.spaceId } };
  await inTransaction(ctx, audit, async (tx) => {
    await serializeOn(tx.db, tx.provider, `site:${siteId}`);
    let sectionId: string | null = null;
    if (input.sectionId !== undefined) {
      const section = await tx.db.siteSection.findFirst({ where: { id: input.sectionId, siteId } });
      if (!section) throw invalid(`sectionId: section "${input.sectionId}" is not a section of this site`);
      sectionId = section.id;
    } else {
      sectionId = (await tx.db.siteSection.findFirst({ where: { siteId, isDefault: true } }))?.id ?? null;
    }
    const siblings = await tx.db.siteSpace.findMany({ where: container(siteId, sectionId) });
    if (siblings.some((siteSpace) => siteSpace.spaceId === space.id)) {
      throw conflict(`spaceId: space "${space.id}" is already in this ${sectionId ? 'section' : 'site'}`);
    }
    await tx.db.siteSpace.create({
      data: {
        id,
        siteId,
        sectionId,
        spaceId: space.id,
        path: uniquePath(
          space.title,
          siblings.map((siteSpace) => siteSpace.path),
          'space',
        ),
        position: endOf(siblings),
        isDefault: !siblings.some((siteSpace) => siteSpace.isDefault),
      },
    });
  });
  return getSiteSpace(ctx, id);
}

export async function updateSiteSpace(ctx: RequestContext, organizationId: string, siteId: string, siteSpaceId: string, body: unknown) {
  await visibleSite(ctx, organizationId, siteId);
  const siteSpace = await siteSpaceOfSite(ctx, siteId, siteSpaceId);
  const input = parseInput(UpdateSiteSpaceInput, body);
  await manageableSite(ctx, organizationId, siteId, "change this site's spaces");
  const condition = checkedCondition(input.condition);
  const audit: AuditFacts = { action: 'site_space.update', organizationId, target: { type: 'site-space', id: siteSpaceId }, payload: { siteId } };
  await inTransaction(ctx, audit, async (tx) => {
    await serializeOn(tx.db, tx.provider, `site:${siteId}`);
    if (input.path !== undefined) {
      const taken = await tx.db.siteSpace.findFirst({
        where: { ...container(siteId, siteSpace.sectionId), path: input.path, id: { not: siteSpaceId } },
      });
      if (taken) {
        throw conflict(`path: "${input.path}" is already the path of another site space ${siteSpace.sectionId ? 'of this section' : 'of this site'}`);
      }
    }
    await tx.db.siteSpace.update({ where: { id: siteSpaceId }, data: { path: input.path, condition } });
  });
  return getSiteSpace(ctx, siteSpaceId);
}

/** Removes a space from a site; when it was the default of its place, the next one takes over. */
export async function deleteSiteSpace(ctx: RequestContext, organizationId: string, siteId: string, siteSpaceId: string) {
  await visibleSite(ctx, organizationId, siteId);
  await siteSpaceOfSite(ctx, siteId, siteSpaceId);
  await manageableSite(ctx, organizationId, siteId, "change this site's spaces");
  const audit: AuditFacts = { action: 'site_space.delete', organizationId, target: { type: 'site-space', id: siteSpaceId }, payload: { siteId } };
  await inTransaction(ctx, audit, async (tx) => {
    await serializeOn(tx.db, tx.provider, `site:${siteId}`);
    const removed = await tx.db.siteSpace.delete({ where: { id: siteSpaceId } });
    if (removed.isDefault) {
      const next = await tx.db.siteSpace.findFirst({
        where: container(siteId, removed.sectionId),
        orderBy: [{ position: 'asc' }, { id: 'asc' }],
      });
      if (next) await tx.db.siteSpace.update({ where: { id: next.id }, data: { isDefault: true } });
    }
  });
}

/** Moves a site space among the site spaces of its section (or of the root level). */
export async function moveSiteSpace(ctx: RequestContext, organizationId: string, siteId: string, siteSpaceId: string, body: unknown) {
  await visibleSite(ctx, organizationId, siteId);
  const siteSpace = await siteSpaceOfSite(ctx, siteId, siteSpaceId);
  const input = parseInput(MoveSiteSpaceInput, body);
  await manageableSite(ctx, organizationId, siteId, "change this site's spaces");
  await inTransaction(ctx, { action: 'site_space.move', organizationId, target: { type: 'site-space', id: siteSpaceId }, payload: { siteId } }, async (tx) => {
    await serializeOn(tx.db, tx.provider, `site:${siteId}`);
    const siblings = await tx.db.siteSpace.findMany({
      where: container(siteId, siteSpace.sectionId),
      select: { id: true, position: true },
    });
    const position = positionAmong(siblings, siteSpaceId, {
      before: input.position?.before?.siteSpace,
      after: input.position?.after?.siteSpace,
    });
    await tx.db.siteSpace.update({ where: { id: siteSpaceId }, data: { position } });
  });
  return getSiteSpace(ctx, siteSpaceId);
}

/** The entry right after `id` among its siblings, for a copy placed between them. */
function nextAfter(siblings: Ordered[], id: string): Ordered | undefined {
  const ordered = [...siblings].sort(bySiblingOrder);
  return ordered[ordered.findIndex((sibling) => sibling.id === id) + 1];
}

/**
 * `duplicateSiteSpace`: a copy of the site space's space (as duplicateSpace
 * makes it), shown where the site space is: the only site space of its section
 * is copied into a new section right after that one; otherwise the copy is a
 * variant right after it among its siblings. Its condition and customization
 * override come along. For site admins who may also copy the space.
 */
export async function duplicateSiteSpace(ctx: RequestContext, organizationId: string, siteId: string, siteSpaceId: string, body: unknown) {
  await visibleSite(ctx, organizationId, siteId);
  const original = await siteSpaceOfSite(ctx, siteId, siteSpaceId);
  const input = parseInput(DuplicateSiteSpaceInput, body ?? {});
  if (input.draft) throw invalid('draft: draft site spaces and sections are not supported; leave it out or send false');
  await manageableSite(ctx, organizationId, siteId, "duplicate this site's spaces");
  const space = await duplicableSpace(ctx, original.spaceId);
  const id = newId('siteSpace');
  const spaceId = newId('space');
  const audit: AuditFacts[] = [
    { action: 'site_space.duplicate', organizationId, target: { type: 'site-space', id }, payload: { siteId, from: siteSpaceId, spaceId } },
    { action: 'space.duplicate', organizationId, target: { type: 'space', id: spaceId }, payload: { from: space.id } },
  ];
  await inTransaction(ctx, audit, async (tx) => {
    await serializeOn(tx.db, tx.provider, `site:${siteId}`);
    const current = await tx.db.siteSpace.findUnique({ where: { id: siteSpaceId } });
    if (!current) throw notFound('Site space', siteSpaceId);
    await copySpaceIn(tx, space, spaceId);
    const copy = {
      id,
      siteId,
      spaceId,
      condition: current.condition,
      ...(current.customization === null ? {} : { customization: current.customization as object, customizationUpdatedAt: ctx.clock.now() }),
    };
    const siblings = await tx.db.siteSpace.findMany({ where: container(siteId, current.sectionId), select: { id: true, position: true, path: true } });
    if (current.sectionId && siblings.length === 1) {
      // The only variant of its section: the copy gets a section of its own, right after.
      const section = await tx.db.siteSection.findUniqueOrThrow({ where: { id: current.sectionId } });
      const sectionSiblings = section.sectionGroupId
        ? await tx.db.siteSection.findMany({ where: { sectionGroupId: section.sectionGroupId }, select: { id: true, position: true } })
        : await topLevelEntries(tx, siteId);
      const position = keyBetween(section.position, nextAfter(sectionSiblings, section.id)?.position);
      const sectionPaths = (await tx.db.siteSection.findMany({ where: { siteId }, select: { path: true } })).map((entry) => entry.path);
      const sectionId = newId('siteSection');
      const title = `Copy of ${section.title}`.slice(0, 128);
      await tx.db.siteSection.create({
        data: {
          id: sectionId,
          siteId,
          sectionGroupId: section.sectionGroupId,
          title,
          description: section.description,
          icon: section.icon,
          condition: section.condition,
          path: uniquePath(title, sectionPaths, 'section'),
          position,
          topPosition: section.sectionGroupId ? section.topPosition : position,
          isDefault: false,
        },
      });
      await tx.db.siteSpace.create({ data: { ...copy, sectionId, path: current.path, position: keyBetween(null, null), isDefault: true } });
    } else {
      await tx.db.siteSpace.create({
        data: {
          ...copy,
          sectionId: current.sectionId,
          path: uniquePath(
            `${current.path}-copy`,
            siblings.map((sibling) => sibling.path),
            'space',
          ),
          position: keyBetween(current.position, nextAfter(siblings, current.id)?.position),
          isDefault: false,
        },
      });
    }
  });
  return getSiteSpace(ctx, id);
}
