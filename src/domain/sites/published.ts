import { jwtVerify } from 'jose';
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
import { defaultCustomizations } from './presenter.ts';
import type { OrganizationAccess } from '../access.ts';
import {
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
async function visitorClaims(site: SiteRecord, organizationSecret: string, token: string, now: Date): Promise<Claims | null> {
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

export async function siteAudience(ctx: RequestContext, siteId: string, query: unknown): Promise<Audience> {
  const { shareKey, visitorToken } = parseInput(PublishedSiteQuery, query, 'query');
  const site = await loader(ctx, siteRecords).load(siteId);
  if (!site) throw notFound('Site', siteId);
  const [access, organization] = await Promise.all([organizationAccess(ctx, site.organizationId), loader(ctx, organizationRecords).load(site.organizationId)]);
  const claims = visitorToken ? await visitorClaims(site, organization!.visitorClaimsSecret, visitorToken, ctx.clock.now()) : null;
  if (sitePermissions(access).view) {
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
    const links = shareKey ? await ctx.db.shareLink.findMany({ where: { siteId, active: true }, select: { key: true } }) : [];
    if (!links.some((link) => sameSecret(link.key, shareKey!))) throw notFound('Site', siteId);
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
}

/** A site's published structure as its audience sees it: conditions evaluated on the audience's claims. */
export async function publishedContent(ctx: RequestContext, organizationId: string | null, siteId: string, query: unknown): Promise<PublishedContent> {
  const audience = await siteAudience(ctx, siteId, query);
  const { site } = audience;
  if (organizationId !== null && site.organizationId !== organizationId) throw notFound('Site', siteId);
  const shown = shownTo(audience);
  const [sections, groups, rootSiteSpaces, access] = await Promise.all([
    ctx.db.siteSection.findMany({ where: { siteId }, orderBy: [{ position: 'asc' }, { id: 'asc' }] }),
    ctx.db.siteSectionGroup.findMany({ where: { siteId }, orderBy: [{ position: 'asc' }, { id: 'asc' }] }),
    ctx.db.siteSpace.findMany({ where: { siteId, sectionId: null }, orderBy: [{ position: 'asc' }, { id: 'asc' }] }),
    organizationAccess(ctx, site.organizationId),
  ]);

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
    const siteSpaces = await ctx.db.siteSpace.findMany({ where: { siteId }, select: { sectionId: true, condition: true } });
    shownSiteSpaces = siteSpaces.filter((entry) => shown(entry) && !(entry.sectionId && hidden.has(entry.sectionId))).length;
  }
  return { audience, access, structure, ...(shownSiteSpaces === undefined ? {} : { shownSiteSpaces }) };
}

/** `GET /v1/orgs/{organizationId}/sites/{siteId}/published`: the site, its structure as the audience sees it, and its customizations. */
export async function getPublishedSite(ctx: RequestContext, organizationId: string | null, siteId: string, query: unknown) {
  const content = await publishedContent(ctx, organizationId, siteId, query);
  const { site } = content.audience;
  const structure = await Promise.all(
    content.structure.entries.map((entry) =>
      'kind' in entry
        ? entry.kind === 'section'
          ? presentSectionRecord(ctx, entry.section, entry.shown)
          : presentSectionGroupRecord(ctx, entry.group, entry.shown, entry.shown)
        : presentSiteSpaceRecord(ctx, entry),
    ),
  );
  return {
    object: 'published-content-site' as const,
    site: await presentSiteRecord(ctx, site, content.access, content.shownSiteSpaces),
    structure: { type: content.structure.type, structure },
    customizations: { site: defaultCustomizations(site), siteSpaces: {} },
    scripts: [],
  };
}

/** The visitor token of a request: the query parameter or the X-Visitor-Token header (the same token when both). */
export function withVisitorToken(query: Record<string, unknown>, header: string | undefined): Record<string, unknown> {
  if (header === undefined) return query;
  if (query.visitorToken !== undefined && query.visitorToken !== header) {
    throw invalid('visitorToken: the query parameter and the X-Visitor-Token header are different tokens: send one');
  }
  return { ...query, visitorToken: header };
}
