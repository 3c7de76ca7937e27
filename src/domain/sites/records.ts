import slugify from 'slugify';
import type { RequestContext } from '../../context.ts';
import type { Prisma } from '../../db/index.ts';
import { isDomainError, notFound } from '../../errors.ts';
import { conditionHolds } from '../../lib/conditions.ts';
import { type OrganizationAccess, type Role, authorize, highestLevel, organizationSiteLevel, sitePermissions } from '../access.ts';
import { memberGrants } from '../permissions/grants.ts';
import { defineLoader, defineRecordLoader, loader } from '../loaders.ts';
import { organizationAccess } from '../organizations/service.ts';
import { countsBy } from '../shared/pages.ts';
import type { SpaceJSON } from '../spaces/presenter.ts';
import { presentSpaceRecord, spaceRecords } from '../spaces/service.ts';
import {
  type SiteJSON,
  type SiteSectionGroupJSON,
  type SiteSectionJSON,
  type SiteSpaceJSON,
  presentSection,
  presentSectionGroup,
  presentSite,
  presentSiteSpace,
} from './presenter.ts';

/** Loading and presenting the records of a site's structure, shared by its services. */

export type SiteRecord = Prisma.SiteModel;
export type SectionRecord = Prisma.SiteSectionModel;
export type SectionGroupRecord = Prisma.SiteSectionGroupModel;
export type SiteSpaceRecord = Prisma.SiteSpaceModel;

export const siteRecords = defineRecordLoader(async (ctx, ids) => {
  const rows = await ctx.db.site.findMany({ where: { id: { in: ids } }, include: { _count: { select: { siteSpaces: true } } } });
  primeSiteSpaceCounts(ctx, rows);
  return rows;
});
export const sectionRecords = defineRecordLoader((ctx, ids) => ctx.db.siteSection.findMany({ where: { id: { in: ids } } }));
export const sectionGroupRecords = defineRecordLoader((ctx, ids) => ctx.db.siteSectionGroup.findMany({ where: { id: { in: ids } } }));
export const siteSpaceRecords = defineRecordLoader((ctx, ids) => ctx.db.siteSpace.findMany({ where: { id: { in: ids } } }));

const inOrder = [{ position: 'asc' as const }, { id: 'asc' as const }];

function groupBy<Row>(rows: Row[], key: (row: Row) => string | null, keys: readonly string[]): Row[][] {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const value = key(row);
    if (value !== null) groups.set(value, [...(groups.get(value) ?? []), row]);
  }
  return keys.map((value) => groups.get(value) ?? []);
}

/** The sections of each group, in order. */
export const sectionsOfGroup = defineLoader<string, SectionRecord[]>(async (ctx, groupIds) => {
  const rows = await ctx.db.siteSection.findMany({ where: { sectionGroupId: { in: [...groupIds] } }, orderBy: inOrder });
  for (const row of rows) loader(ctx, sectionRecords).prime(row.id, row);
  return groupBy(rows, (row) => row.sectionGroupId, groupIds);
});

/** The site spaces of each section, in order. */
export const siteSpacesOfSection = defineLoader<string, SiteSpaceRecord[]>(async (ctx, sectionIds) => {
  const rows = await ctx.db.siteSpace.findMany({ where: { sectionId: { in: [...sectionIds] } }, orderBy: inOrder });
  for (const row of rows) loader(ctx, siteSpaceRecords).prime(row.id, row);
  return groupBy(rows, (row) => row.sectionId, sectionIds);
});

/** Counts read along with sites (Prisma `_count`: the same statement), for presenting them. */
export function primeSiteSpaceCounts(ctx: RequestContext, rows: Array<{ id: string; _count: { siteSpaces: number } }>): void {
  const counts = loader(ctx, siteSpaceCounts);
  for (const row of rows) counts.prime(row.id, row._count.siteSpaces);
}

/** Number of site spaces of each site. */
export const siteSpaceCounts = defineLoader<string, number>(async (ctx, siteIds) => {
  const counts = countsBy(await ctx.db.siteSpace.groupBy({ by: ['siteId'], where: { siteId: { in: [...siteIds] } }, _count: { _all: true } }), 'siteId');
  return siteIds.map((id) => counts.get(id) ?? 0);
});

/**
 * A site of this organization that the viewer can see (non-guest members, and
 * with `visitors`, someone who opened its published content in this request);
 * anything else is a 404.
 */
export async function visibleSite(ctx: RequestContext, organizationId: string, siteId: string, options: { visitors?: boolean } = {}) {
  const access = await organizationAccess(ctx, organizationId);
  const visiting = options.visitors === true && ctx.siteVisits.has(siteId);
  // The path names the organization: outside it, that is what is not found.
  if (!access.member && !visiting) throw notFound('Organization', organizationId);
  const site = await loader(ctx, siteRecords).load(siteId);
  const level = site && site.organizationId === organizationId ? await siteLevel(ctx, site) : null;
  const allowed = sitePermissions(level).view || visiting;
  if (!site || site.organizationId !== organizationId || !allowed) throw notFound('Site', siteId);
  return { site, access, level };
}

/**
 * The viewer's level on a site: its organization role (none for a guest),
 * raised by the roles granted on the site to it or its teams
 * (src/domain/access.ts effectiveLevel, without default levels).
 */
export async function siteLevel(ctx: RequestContext, site: { id: string; organizationId: string }): Promise<Role | null> {
  const access = await organizationAccess(ctx, site.organizationId);
  const base = organizationSiteLevel(access);
  if (base === 'admin' || !access.member) return base;
  const grants = await memberGrants(ctx, access.member);
  return highestLevel([base, grants.sites.get(site.id)]);
}

/** Which conditioned entries (sections, site spaces) an audience is shown. */
export type Shown = (entry: { condition: string | null }) => boolean;
export const showAll: Shown = () => true;

/**
 * A section as an audience sees it: its site spaces are those `shown` lets
 * through (a visitor's published tree filters them by the conditions).
 */
export interface SectionView {
  kind: 'section';
  section: SectionRecord;
  shown: Shown;
}

/** A section group as an audience sees it: sections and their site spaces filtered by `shown`. */
export interface SectionGroupView {
  kind: 'group';
  group: SectionGroupRecord;
  shown: Shown;
}

export const sectionView = (section: SectionRecord, shown: Shown = showAll): SectionView => ({ kind: 'section', section, shown });
export const groupView = (group: SectionGroupRecord, shown: Shown = showAll): SectionGroupView => ({ kind: 'group', group, shown });

/** The site spaces of a section its audience is shown, in order. */
export async function shownSiteSpacesOf(ctx: RequestContext, view: SectionView): Promise<SiteSpaceRecord[]> {
  return (await loader(ctx, siteSpacesOfSection).load(view.section.id)).filter(view.shown);
}

/** The sections of a group its audience is shown, in order. */
export async function shownSectionsOf(ctx: RequestContext, view: SectionGroupView): Promise<SectionView[]> {
  const sections = await loader(ctx, sectionsOfGroup).load(view.group.id);
  return sections.filter(view.shown).map((section) => sectionView(section, view.shown));
}

/**
 * An entry of a site (section, group or site space) found by its id alone: the
 * viewer must see its site — a member, or a visitor who opened it in this
 * request; anything else is a 404 naming only the entry.
 */
export async function entryOfVisibleSite<Row extends { id: string; siteId: string }>(
  ctx: RequestContext,
  what: string,
  row: Row | null,
  id: string,
): Promise<Row> {
  if (!row) throw notFound(what, id);
  const site = await loader(ctx, siteRecords).load(row.siteId);
  await asNotFound(what, row.id, () => visibleSite(ctx, site!.organizationId, row.siteId, { visitors: true }));
  return row;
}

/**
 * What the viewer is shown of a site's conditioned entries: for whoever opened
 * it in this request with claims (a visitor, or a member previewing with a
 * visitor token: src/domain/sites/published.ts), those whose conditions hold on
 * them — also when it reaches an entry by id rather than through the published
 * tree; for members otherwise, all of them.
 */
export function shownToViewer(ctx: RequestContext, siteId: string): Shown {
  const visit = ctx.siteVisits.get(siteId);
  if (!visit) return showAll;
  return (entry) => conditionHolds(entry.condition, visit.claims);
}

/** Runs `load` and answers a 404 naming `what` for whatever it could not find (so that it names nothing else). */
export async function asNotFound<T>(what: string, id: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isDomainError(error) && error.status === 404) throw notFound(what, id);
    throw error;
  }
}

/** A site the viewer may configure (organization admins). */
export async function manageableSite(ctx: RequestContext, organizationId: string, siteId: string, action: string) {
  const found = await visibleSite(ctx, organizationId, siteId);
  authorize(sitePermissions(found.level).admin, action);
  return found;
}

/** `siteSpaces` is the number of site spaces, or for a visitor the number it is shown. */
export async function presentSiteRecord(ctx: RequestContext, site: SiteRecord, access: OrganizationAccess, shownSiteSpaces?: number): Promise<SiteJSON> {
  const siteSpaces = shownSiteSpaces ?? (await loader(ctx, siteSpaceCounts).load(site.id));
  const level = access.member ? await siteLevel(ctx, site) : null;
  return presentSite(site, { permissions: sitePermissions(level), siteSpaces, urls: ctx.urls });
}

/** Spaces presented from what was read with a site's structure (src/domain/sites/published.ts), by id. */
export type PresentedSpaces = ReadonlyMap<string, SpaceJSON>;

export async function presentSiteSpaceRecord(ctx: RequestContext, siteSpace: SiteSpaceRecord, presented?: PresentedSpaces): Promise<SiteSpaceJSON> {
  const known = presented?.get(siteSpace.spaceId);
  const [site, spaceRecord, section] = await Promise.all([
    loader(ctx, siteRecords).load(siteSpace.siteId),
    known ? null : loader(ctx, spaceRecords).load(siteSpace.spaceId),
    siteSpace.sectionId ? loader(ctx, sectionRecords).load(siteSpace.sectionId) : null,
  ]);
  const space = known ?? (await presentSpaceRecord(ctx, spaceRecord!));
  return presentSiteSpace(siteSpace, { site: site!, space, sectionPath: section?.path ?? null, urls: ctx.urls });
}

/** A section with its site spaces; `keep` filters them (the published tree of a visitor). */
export async function presentSectionRecord(
  ctx: RequestContext,
  section: SectionRecord,
  keep: (siteSpace: SiteSpaceRecord) => boolean = () => true,
  spaces?: PresentedSpaces,
): Promise<SiteSectionJSON> {
  const [site, siteSpaces] = await Promise.all([loader(ctx, siteRecords).load(section.siteId), loader(ctx, siteSpacesOfSection).load(section.id)]);
  const presented = await Promise.all(siteSpaces.filter(keep).map((siteSpace) => presentSiteSpaceRecord(ctx, siteSpace, spaces)));
  return presentSection(section, { site: site!, siteSpaces: presented, urls: ctx.urls });
}

export async function presentSectionGroupRecord(
  ctx: RequestContext,
  group: SectionGroupRecord,
  keepSection: (section: SectionRecord) => boolean = () => true,
  keepSiteSpace?: (siteSpace: SiteSpaceRecord) => boolean,
  spaces?: PresentedSpaces,
): Promise<SiteSectionGroupJSON> {
  const sections = (await loader(ctx, sectionsOfGroup).load(group.id)).filter(keepSection);
  return presentSectionGroup(group, await Promise.all(sections.map((section) => presentSectionRecord(ctx, section, keepSiteSpace, spaces))));
}

/** A path derived from a title that is not among `taken`: "getting-started", then "getting-started-2"… */
export function uniquePath(title: string, taken: Iterable<string>, fallback: string): string {
  const base = slugify(title, { lower: true, strict: true }).slice(0, 90) || fallback;
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let suffix = 2; ; suffix++) {
    const candidate = `${base}-${suffix}`;
    if (!used.has(candidate)) return candidate;
  }
}
