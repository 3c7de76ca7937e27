import { jwtVerify } from 'jose';
import { type Expression, sql } from 'kysely';
import type { SpaceRecord } from '../../db/index.ts';
import { OPEN_SPACE_COMMENTS } from '../comments/counts.ts';
import { primeScopeGeneration } from '../generations.ts';
import { equalities, grantedRoles, inheritedLevel, preparedRead, recordOf, reviveRecord, shapeOf, slot, spaceColumnsOf, sqlOf } from '../reads.ts';
import { type SpaceJSON, presentSpace } from '../spaces/presenter.ts';
import { spaceLevelFromRead } from '../spaces/service.ts';
import { sameSecret } from '../../lib/tokens.ts';
import type { RequestContext } from '../../context.ts';
import { invalid, notFound } from '../../errors.ts';
import { type Claims, conditionHolds } from '../../lib/conditions.ts';
import { type PageState, type PageTree, ancestorsOf } from '../content/tree.ts';
import { parseInput } from '../../lib/validation.ts';
import { sitePermissions } from '../access.ts';
import { loader } from '../loaders.ts';
import { organizationAccess, organizationRecords } from '../organizations/service.ts';
import { PublishedSiteQuery } from './inputs.ts';
import { publishedCustomizations } from './customization.ts';
import type { OrganizationAccess } from '../access.ts';
import {
  type PresentedSpaces,
  type SectionGroupRecord,
  type SectionRecord,
  sectionRecords,
  sectionsOfGroup,
  siteSpaceCounts,
  siteSpaceRecords,
  siteSpacesOfSection,
  type SectionGroupView,
  type SectionView,
  type SiteRecord,
  type SiteSpaceRecord,
  groupView,
  presentSectionGroupRecord,
  presentSectionRecord,
  presentSiteRecord,
  presentSiteSpaceRecord,
  sectionView,
  type Shown,
  showAll,
  shownToViewer,
  siteLevel,
  siteRecords,
} from './records.ts';

/**
 * Who is reading a site's published content. Members of the organization see
 * every site, published or not (a preview). Anyone else is a visitor: the site
 * must be published, and a share-link site needs an active share key, a
 * visitor-auth site a valid visitor token. `claims` are the visitor attributes
 * conditions are evaluated with; null for a member without a visitor token,
 * who sees the whole structure.
 */
export interface Audience {
  site: SiteRecord;
  member: boolean;
  claims: Claims | null;
}

/** The furthest a visitor token may expire: a leaked token must not open a site for ever. */
export const MAX_VISITOR_TOKEN_LIFETIME_SECONDS = 30 * 24 * 60 * 60;

/**
 * Verifies a visitor token: a JWT (HS256) signed with the site's key (a custom
 * authentication backend) or with the organization's key (`docsVisitorClaims` of
 * ping). It must expire (`exp`), within 30 days.
 */
export async function visitorClaims(site: SiteRecord, organizationSecret: string, token: string, now: Date): Promise<Claims | null> {
  for (const secret of [site.visitorAuthSecret, organizationSecret]) {
    try {
      const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), { algorithms: ['HS256'], currentDate: now, requiredClaims: ['exp'] });
      if (payload.exp! - now.getTime() / 1000 > MAX_VISITOR_TOKEN_LIFETIME_SECONDS) return null;
      return payload as Claims;
    } catch {
      // Try the next key.
    }
  }
  return null;
}

/** `activeShareKeys`: the site's active share keys when already read (src/domain/sites/published.ts readStructure). */
export async function siteAudience(ctx: RequestContext, siteId: string, query: unknown, activeShareKeys?: string[]): Promise<Audience> {
  const { shareKey, visitorToken } = parseInput(PublishedSiteQuery, query, 'query');
  const site = await loader(ctx, siteRecords).load(siteId);
  if (!site) throw notFound('Site', siteId);
  const [access, organization] = await Promise.all([organizationAccess(ctx, site.organizationId), loader(ctx, organizationRecords).load(site.organizationId)]);
  const claims = visitorToken ? await visitorClaims(site, organization!.visitorClaimsSecret, visitorToken, ctx.clock.now()) : null;
  if (access.member && sitePermissions(await siteLevel(ctx, site)).view) {
    // A member previewing as a visitor: what is reached by id later in the request is shown as to that visitor.
    if (claims) ctx.siteVisits.set(siteId, { claims });
    return { site, member: true, claims };
  }
  // Opened earlier in this request (the published tree, then its nested connections).
  const visit = ctx.siteVisits.get(siteId);
  if (visit && !shareKey && !visitorToken) return { site, member: false, claims: visit.claims };

  // A visitor: anything it may not see does not exist for it.
  if (!site.published) throw notFound('Site', siteId);
  if (site.visibility === 'share-link') {
    // Compared here in constant time, not by the database's index: how long a
    // wrong key takes to refuse must not tell how much of it was right.
    const keys = !shareKey
      ? []
      : (activeShareKeys ?? (await ctx.db.shareLink.findMany({ where: { siteId, active: true }, select: { key: true } })).map((link) => link.key));
    if (!keys.some((key) => sameSecret(key, shareKey!))) throw notFound('Site', siteId);
  }
  if (site.visibility === 'visitor-auth' && !claims) throw notFound('Site', siteId);
  ctx.siteVisits.set(siteId, { claims: claims ?? {} });
  return { site, member: false, claims: claims ?? {} };
}

/** Whether an entry with this condition is shown to the audience. */
export function shownTo(audience: Audience) {
  return (entry: { condition: string | null }) => audience.claims === null || conditionHolds(entry.condition, audience.claims);
}

/** Whether a page of a tree is shown to its reader (adaptive content). */
export type PageShown = (tree: PageTree, page: PageState) => boolean;

/** The pages `shown` lets through: those whose condition, and those of the pages above them, hold. */
function pagesShownBy(shown: Shown): PageShown {
  return (tree, page) => shown(page) && ancestorsOf(tree, page).every(shown);
}

/** Whether a page is shown to the audience of a published site: every page for members, by its conditions for a visitor. */
export function pageShownTo(audience: Audience): PageShown {
  return audience.claims === null ? () => true : pagesShownBy(shownTo(audience));
}

/** Which pages of a site's content the viewer reads: undefined (all) for members; for a visitor, those its conditions show. */
export function pagesShownToViewer(ctx: RequestContext, siteId: string): PageShown | undefined {
  const shown = shownToViewer(ctx, siteId);
  return shown === showAll ? undefined : pagesShownBy(shown);
}

/** An entry of a published structure: a section, a group of sections, or (in a site without sections) a site space. */
export type PublishedEntry = SectionView | SectionGroupView | SiteSpaceRecord;

export interface PublishedContent {
  audience: Audience;
  access: OrganizationAccess;
  structure: { type: 'sections' | 'siteSpaces'; entries: PublishedEntry[] };
  /** For visitors: the number of site spaces shown to them. */
  shownSiteSpaces?: number;
  /** The spaces of the site spaces, presented from the statement that read the structure. */
  spaces?: PresentedSpaces;
}

interface StructureAnswer extends SiteHeadAnswer {
  sections: Array<Record<string, unknown>>;
  groups: Array<Record<string, unknown>>;
  siteSpaces: Array<{
    siteSpace: Record<string, unknown>;
    space: Record<string, unknown>;
    inheritedLevel: string | null;
    granted: string[];
    openComments: number;
  }>;
}

/** The head of a read of a site (`st`, with its organization `o`): what siteAudience needs, primed by primeSiteHead. */
export interface SiteHeadAnswer {
  site: Record<string, unknown>;
  siteSpaceCount: number;
  organization: Record<string, unknown>;
  /** The organization's data generation, for the response cache of a visitor's answer (src/domain/generations.ts). */
  generation: string | number | null;
  shareKeys: string[];
}

export function siteHeadColumns(ctx: RequestContext): Array<readonly [string, Expression<unknown>]> {
  const { json } = sqlOf(ctx);
  return [
    ['site', recordOf(ctx, 'sites', 'st').object],
    ['siteSpaceCount', sql`(SELECT count(*) FROM "site_spaces" AS cs WHERE cs."siteId" = st."id")`],
    ['organization', recordOf(ctx, 'organizations', 'o').object],
    ['generation', sql`(SELECT dg."version" FROM "data_generations" AS dg WHERE dg."scope" = st."organizationId")`],
    [
      'shareKeys',
      sql`(SELECT ${json.arrayAgg(sql.ref('sl.key'), sql.ref('sl.key'))} FROM "share_links" AS sl WHERE sl."siteId" = st."id" AND sl."active" = ${sql.lit(true)})`,
    ],
  ];
}

/** Hands a site head read to the per-request loaders (siteAudience then reads nothing); the site's record. */
export function primeSiteHead(ctx: RequestContext, answer: SiteHeadAnswer): SiteRecord {
  const site = reviveRecord<SiteRecord>(shapeOf(ctx, 'sites'), answer.site);
  const siteSpaceCount = Number(answer.siteSpaceCount);
  loader(ctx, siteRecords).prime(site.id, { ...site, _count: { siteSpaces: siteSpaceCount } });
  loader(ctx, siteSpaceCounts).prime(site.id, siteSpaceCount);
  primeScopeGeneration(ctx, site.organizationId, answer.generation);
  loader(ctx, organizationRecords).prime(site.organizationId, reviveRecord(shapeOf(ctx, 'organizations'), answer.organization));
  return site;
}

/**
 * A site with its organization, active share keys, sections, groups and site spaces (in
 * order), and the spaces these show with what presenting them needs (the level the viewer
 * has on each, its open comments): one statement (src/domain/reads.ts).
 */
const readStructure = preparedRead<StructureAnswer, { siteId: string; userId: string }>((ctx) => {
  const { json } = sqlOf(ctx);
  const inOrder = (alias: string) => sql`${sql.ref(`${alias}.position`)}, ${sql.ref(`${alias}.id`)}`;
  const siteSpace = json.object([
    ['siteSpace', recordOf(ctx, 'site_spaces', 'ss').object],
    ['space', recordOf(ctx, 'spaces', 'sp').object],
    ['inheritedLevel', inheritedLevel(sql.ref('sp.parentId'))],
    ['granted', grantedRoles(ctx, spaceColumnsOf('sp'))],
    ['openComments', sql`(SELECT count(*) FROM "comments" AS c WHERE c."spaceId" = sp."id" AND ${equalities('c', OPEN_SPACE_COMMENTS)})`],
  ]);
  return sql`SELECT ${json.text(
    json.object([
      ...siteHeadColumns(ctx),
      [
        'sections',
        sql`(SELECT ${json.arrayAgg(recordOf(ctx, 'site_sections', 'sc').object, inOrder('sc'))} FROM "site_sections" AS sc WHERE sc."siteId" = st."id")`,
      ],
      [
        'groups',
        sql`(SELECT ${json.arrayAgg(recordOf(ctx, 'site_section_groups', 'sg').object, inOrder('sg'))} FROM "site_section_groups" AS sg WHERE sg."siteId" = st."id")`,
      ],
      [
        'siteSpaces',
        sql`(SELECT ${json.arrayAgg(siteSpace, inOrder('ss'))} FROM "site_spaces" AS ss JOIN "spaces" AS sp ON sp."id" = ss."spaceId" WHERE ss."siteId" = st."id")`,
      ],
    ]),
  )} FROM "sites" AS st JOIN "organizations" AS o ON o."id" = st."organizationId" WHERE st."id" = ${slot('siteId')}`;
});

/**
 * What readStructure answered, handed to the per-request loaders (so the presenters read
 * nothing more), with the spaces presented; null when the viewer's memberships are not at
 * hand (inside a transaction): the caller reads through the loaders instead.
 */
async function readSiteStructure(ctx: RequestContext, siteId: string) {
  if (ctx.viewer && !ctx.viewer.memberships && !ctx.siteToken) return null;
  const answer = await readStructure(ctx, { siteId, userId: ctx.viewer?.user.id ?? '' });
  if (!answer) throw notFound('Site', siteId);
  primeSiteHead(ctx, answer);
  const sections = answer.sections.map((row) => reviveRecord<SectionRecord>(shapeOf(ctx, 'site_sections'), row));
  const groups = answer.groups.map((row) => reviveRecord<SectionGroupRecord>(shapeOf(ctx, 'site_section_groups'), row));
  const spaces = new Map<string, SpaceJSON>();
  const siteSpaces = answer.siteSpaces.map((row) => {
    const space = reviveRecord<SpaceRecord>(shapeOf(ctx, 'spaces'), row.space);
    spaces.set(space.id, presentSpace(space, spaceLevelFromRead(ctx, space, row), ctx.urls, Number(row.openComments)));
    return reviveRecord<SiteSpaceRecord>(shapeOf(ctx, 'site_spaces'), row.siteSpace);
  });
  for (const section of sections) loader(ctx, sectionRecords).prime(section.id, section);
  for (const siteSpace of siteSpaces) loader(ctx, siteSpaceRecords).prime(siteSpace.id, siteSpace);
  for (const group of groups) {
    loader(ctx, sectionsOfGroup).prime(
      group.id,
      sections.filter((section) => section.sectionGroupId === group.id),
    );
  }
  for (const section of sections) {
    loader(ctx, siteSpacesOfSection).prime(
      section.id,
      siteSpaces.filter((siteSpace) => siteSpace.sectionId === section.id),
    );
  }
  return { sections, groups, siteSpaces, spaces, shareKeys: answer.shareKeys };
}

/** A site's published structure as its audience sees it: conditions evaluated on the audience's claims. */
export async function publishedContent(ctx: RequestContext, organizationId: string | null, siteId: string, query: unknown): Promise<PublishedContent> {
  const read = await readSiteStructure(ctx, siteId);
  const audience = await siteAudience(ctx, siteId, query, read?.shareKeys);
  const { site } = audience;
  if (organizationId !== null && site.organizationId !== organizationId) throw notFound('Site', siteId);
  const shown = shownTo(audience);
  const inOrder = [{ position: 'asc' as const }, { id: 'asc' as const }];
  const [sections, groups, allSiteSpaces, access] = await Promise.all([
    read?.sections ?? ctx.db.siteSection.findMany({ where: { siteId }, orderBy: inOrder }),
    read?.groups ?? ctx.db.siteSectionGroup.findMany({ where: { siteId }, orderBy: inOrder }),
    read?.siteSpaces ?? ctx.db.siteSpace.findMany({ where: { siteId }, orderBy: inOrder }),
    organizationAccess(ctx, site.organizationId),
  ]);
  const rootSiteSpaces = allSiteSpaces.filter((siteSpace) => siteSpace.sectionId === null);

  let structure: PublishedContent['structure'];
  if (sections.length > 0) {
    const shownSections = sections.filter(shown);
    // A group is shown when one of its sections is.
    const shownGroups = new Set(shownSections.map((section) => section.sectionGroupId));
    const topLevel = [
      ...shownSections
        .filter((section) => section.sectionGroupId === null)
        .map((section) => ({ position: section.position, id: section.id, entry: sectionView(section, shown) as PublishedEntry })),
      ...groups
        .filter((group) => shownGroups.has(group.id))
        .map((group) => ({ position: group.position, id: group.id, entry: groupView(group, shown) as PublishedEntry })),
    ].sort((a, b) => (a.position === b.position ? (a.id < b.id ? -1 : 1) : a.position < b.position ? -1 : 1));
    structure = { type: 'sections', entries: topLevel.map((item) => item.entry) };
  } else {
    structure = { type: 'siteSpaces', entries: rootSiteSpaces.filter(shown) };
  }
  let shownSiteSpaces: number | undefined;
  if (!audience.member) {
    const hidden = new Set(sections.filter((section) => !shown(section)).map((section) => section.id));
    shownSiteSpaces = allSiteSpaces.filter((entry) => shown(entry) && !(entry.sectionId && hidden.has(entry.sectionId))).length;
  }
  return { audience, access, structure, ...(shownSiteSpaces === undefined ? {} : { shownSiteSpaces }), ...(read ? { spaces: read.spaces } : {}) };
}

/** `GET /v1/orgs/{organizationId}/sites/{siteId}/published`: the site, its structure as the audience sees it, and its customizations. */
export async function getPublishedSite(ctx: RequestContext, organizationId: string | null, siteId: string, query: unknown) {
  const content = await publishedContent(ctx, organizationId, siteId, query);
  const { site } = content.audience;
  return {
    object: 'published-content-site' as const,
    site: await presentSiteRecord(ctx, site, content.access, content.shownSiteSpaces),
    structure: await presentStructure(ctx, content),
    customizations: await publishedCustomizationsFor(ctx, content.audience),
    scripts: [],
  };
}

/**
 * `GET /v1/orgs/{organizationId}/sites/{siteId}/structure` (getSiteStructure): the site's
 * sections and groups, or its site spaces, as the audience sees them (members: all of
 * them, published or not; visitors of a published site: those shown to them).
 */
export async function getSiteStructure(ctx: RequestContext, organizationId: string, siteId: string, query: unknown) {
  return presentStructure(ctx, await publishedContent(ctx, organizationId, siteId, query));
}

async function presentStructure(ctx: RequestContext, content: PublishedContent) {
  const structure = await Promise.all(
    content.structure.entries.map((entry) =>
      'kind' in entry
        ? entry.kind === 'section'
          ? presentSectionRecord(ctx, entry.section, entry.shown, content.spaces)
          : presentSectionGroupRecord(ctx, entry.group, entry.shown, entry.shown, content.spaces)
        : presentSiteSpaceRecord(ctx, entry, content.spaces),
    ),
  );
  return { type: content.structure.type, structure };
}

/** The customizations a published site's audience reads: the site's, and the overrides of the site spaces it is shown. */
export async function publishedCustomizationsFor(ctx: RequestContext, audience: Audience) {
  const overridden = await ctx.db.siteSpace.findMany({ where: { siteId: audience.site.id, NOT: { customizationUpdatedAt: null } } });
  return publishedCustomizations(audience.site, overridden.filter(shownTo(audience)));
}

/** The visitor token of a request: the query parameter or the X-Visitor-Token header (the same token when both). */
export function withVisitorToken(query: Record<string, unknown>, header: string | undefined): Record<string, unknown> {
  if (header === undefined) return query;
  if (query.visitorToken !== undefined && query.visitorToken !== header) {
    throw invalid('visitorToken: the query parameter and the X-Visitor-Token header are different tokens: send one');
  }
  return { ...query, visitorToken: header };
}
