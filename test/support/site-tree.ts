import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { expect } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import { keyBetween } from '../../src/lib/ordering.ts';
import { searchable } from '../../src/lib/search.ts';
import type { TestApp } from './app.ts';
import { buildTeam } from './factories.ts';
import { SPACE_FIELDS } from './graphql.ts';

/**
 * A wide site tree written straight into the database (thousands of rows in a
 * few statements), for tests about what reading it costs: an organization with
 * `sites` sites; each site has `groups` section groups of `sectionsPerGroup`
 * sections; each section shows `siteSpacesPerSection` spaces. The rows are the
 * ones the services would write (ids of the right kind, ordering keys, the
 * first section and the first site space of each section default).
 */
export interface SiteTreeShape {
  sites: number;
  groups: number;
  sectionsPerGroup: number;
  siteSpacesPerSection: number;
  /** Whether the sites are published (default false). */
  published?: boolean;
}

/** `count` ordering keys in increasing order. */
function keys(count: number): string[] {
  const result: string[] = [];
  let last: string | null = null;
  for (let i = 0; i < count; i++) {
    last = keyBetween(last, null);
    result.push(last);
  }
  return result;
}

export async function buildSiteTree(t: TestApp, shape: SiteTreeShape) {
  const team = await buildTeam(t.database);
  const organizationId = team.organization.id;
  const { db } = t.database;

  // Spaces through the API (a handful), reused by every section.
  const spaces: Array<{ id: string; title: string }> = [];
  for (let i = 0; i < shape.siteSpacesPerSection; i++) {
    const response = await t.call('POST', `/v1/orgs/${organizationId}/spaces`, { token: team.admin.token, body: { title: `Space ${i}` } });
    expect(response.statusCode, response.body).toBe(201);
    spaces.push(response.json());
  }

  const createdAt = Date.UTC(2024, 0, 1);
  const sites: Array<Record<string, unknown>> = [];
  const groups: Array<Record<string, unknown>> = [];
  const sections: Array<Record<string, unknown>> = [];
  const siteSpaces: Array<Record<string, unknown>> = [];
  const groupKeys = keys(shape.groups);
  const sectionKeys = keys(shape.sectionsPerGroup);
  const siteSpaceKeys = keys(shape.siteSpacesPerSection);
  for (let s = 0; s < shape.sites; s++) {
    const siteId = newId('site');
    const title = `Site ${s}`;
    sites.push({
      id: siteId,
      organizationId,
      title,
      searchTitle: searchable(title),
      visitorAuthSecret: randomBytes(32).toString('base64url'),
      published: shape.published ?? false,
      createdAt: new Date(createdAt + s * 1000),
    });
    for (let g = 0; g < shape.groups; g++) {
      const groupId = newId('siteSectionGroup');
      groups.push({ id: groupId, siteId, title: `Group ${s}.${g}`, position: groupKeys[g]! });
      for (let c = 0; c < shape.sectionsPerGroup; c++) {
        const sectionId = newId('siteSection');
        sections.push({
          id: sectionId,
          siteId,
          sectionGroupId: groupId,
          title: `Section ${s}.${g}.${c}`,
          path: `section-${g}-${c}`,
          position: sectionKeys[c]!,
          topPosition: groupKeys[g]!,
          isDefault: g === 0 && c === 0,
        });
        for (const [p, space] of spaces.entries()) {
          siteSpaces.push({
            id: newId('siteSpace'),
            siteId,
            sectionId,
            spaceId: space.id,
            path: `space-${p}`,
            position: siteSpaceKeys[p]!,
            isDefault: p === 0,
          });
        }
      }
    }
  }
  await db.site.createMany({ data: sites as never });
  await db.siteSectionGroup.createMany({ data: groups as never });
  await db.siteSection.createMany({ data: sections as never });
  // In chunks: a statement has a bounded number of parameters.
  for (let i = 0; i < siteSpaces.length; i += 500) {
    await db.siteSpace.createMany({ data: siteSpaces.slice(i, i + 500) as never });
  }
  return {
    ...team,
    organizationId,
    spaces,
    siteIds: sites.map((site) => site.id as string),
    counts: { sites: sites.length, groups: groups.length, sections: sections.length, siteSpaces: siteSpaces.length },
  };
}

// ---------------------------------------------------------------------------
// Sites built over REST, as a client builds them, for the GraphQL and parity
// tests of sites (test/graphql/site*.test.ts, test/parity/sites.test.ts).
// ---------------------------------------------------------------------------

type Json = Record<string, any>;

/** Every field of each site object type, as GraphQL selections (relations select their id). */
export const SITE_FIELDS = `
  id object type appliedType title hostname basename proxy { origin target } visibility defaultLevel
  permissions { view access edit create admin installIntegration viewAdaptiveSchema editAdaptiveSchema }
  published createdAt adaptiveContent { enabled } features urls { location app preview published llms mcp }
  organization { id } siteSpaces { totalCount }`;
export const SITE_SPACE_FIELDS = `
  id object path title default condition draft hasAdvancedCustomizationFeature urls { published }
  section { id } space { ${SPACE_FIELDS} }`;
export const SECTION_FIELDS = `
  id object title description default draft path condition icon urls { published } sectionGroup { id }
  siteSpaces { ${SITE_SPACE_FIELDS} }`;
export const GROUP_FIELDS = `id object title icon draft sections { ${SECTION_FIELDS} }`;
export const SHARE_LINK_FIELDS = 'id object name active createdAt urls { published }';

/** An adaptive schema declaring these visitor attributes. */
export function adaptiveSchemaOf(attributes: Record<string, 'boolean' | 'string' | 'number'>) {
  return {
    type: 'object',
    properties: Object.fromEntries(Object.entries(attributes).map(([name, type]) => [name, { type, description: `The ${name} of the visitor` }])),
    additionalProperties: false,
  };
}

/** A visitor token: a JWT (HS256) with these claims signed with `secret`, valid for an hour unless `expiresAt` (seconds) says otherwise. */
export function signVisitorToken(secret: string, claims: Record<string, unknown>, expiresAt?: number) {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime(expiresAt ?? '1h')
    .sign(new TextEncoder().encode(secret));
}

/** The shareKey in a share link's published address. */
export function shareKeyIn(link: { urls: { published: string } }): string {
  const key = new URL(link.urls.published).searchParams.get('shareKey');
  expect(key).toBeTruthy();
  return key!;
}

/**
 * An organization with an admin (members at other roles on demand), three
 * spaces, and REST helpers that act as the admin unless given a token.
 */
export async function buildSitesWorld(t: TestApp) {
  const team = await buildTeam(t.database);
  const organizationId = team.organization.id;
  const sitesUrl = `/v1/orgs/${organizationId}/sites`;
  const url = (siteId: string, rest = '') => `${sitesUrl}/${siteId}${rest}`;
  const rest = async (method: string, path: string, body?: unknown, status = 200, token = team.admin.token): Promise<any> => {
    const response = await t.call(method, path, { token, ...(body !== undefined ? { body } : {}) });
    expect(response.statusCode, `${method} ${path} ${JSON.stringify(body)}: ${response.body}`).toBe(status);
    return status === 204 || status === 205 ? undefined : response.json();
  };
  const space = (title: string): Promise<Json> => rest('POST', `/v1/orgs/${organizationId}/spaces`, { title }, 201);
  const [guide, api, extra] = [await space('Guide'), await space('API'), await space('Extra')];
  const site = (body: Json = {}): Promise<Json> => rest('POST', sitesUrl, body, 201);
  const section = (siteId: string, spaceId: string, title?: string): Promise<Json> =>
    rest('POST', url(siteId, '/sections'), { spaceId, ...(title !== undefined ? { title } : {}) }, 201);
  const group = (siteId: string, title: string, sections: string[] = []): Promise<Json> =>
    rest('POST', url(siteId, '/section-groups'), { title, sections }, 201);
  const siteSpace = (siteId: string, spaceId: string, sectionId?: string): Promise<Json> =>
    rest('POST', url(siteId, '/site-spaces'), { spaceId, ...(sectionId ? { sectionId } : {}) }, 201);
  const setSchema = (siteId: string, attributes: Record<string, 'boolean' | 'string' | 'number'>) =>
    rest('PUT', url(siteId, '/adaptive-schema'), { jsonSchema: adaptiveSchemaOf(attributes) });
  const shareLink = (siteId: string, name = 'Reviewers'): Promise<Json> => rest('POST', url(siteId, '/share-links'), { name }, 201);
  const visitorKey = async (siteId: string): Promise<string> => (await rest('GET', url(siteId, '/publishing/auth'))).privateKey;

  /**
   * A site in site order: section A "Guide" (default; site spaces guide, extra),
   * section C "Beta" (extra), group G "Reference group" holding section B
   * "Reference" (api); a share link; the adaptive schema declares `beta` and `plan`.
   */
  const sectionedSite = async (title = 'Docs') => {
    const created = await site({ title, spaces: [guide.id] });
    const siteId = created.id as string;
    const a = await section(siteId, guide.id);
    const b = await section(siteId, api.id, 'Reference');
    const c = await section(siteId, extra.id, 'Beta');
    const extraInA = await siteSpace(siteId, extra.id, a.id);
    const g = await group(siteId, 'Reference group', [b.id]);
    await setSchema(siteId, { beta: 'boolean', plan: 'string' });
    const link = await shareLink(siteId);
    return {
      siteId,
      sectionIds: { a: a.id as string, b: b.id as string, c: c.id as string },
      groupId: g.id as string,
      siteSpaceIds: {
        guideInA: a.siteSpaces[0].id as string,
        extraInA: extraInA.id as string,
        apiInB: b.siteSpaces[0].id as string,
        extraInC: c.siteSpaces[0].id as string,
      },
      shareLinkId: link.id as string,
      shareLink: link as { id: string; name?: string; urls: { published: string } },
    };
  };

  return {
    ...team,
    organizationId,
    spaces: { guide, api, extra },
    sitesUrl,
    url,
    rest,
    space,
    site,
    section,
    group,
    siteSpace,
    setSchema,
    shareLink,
    visitorKey,
    sectionedSite,
  };
}

export type SitesWorld = Awaited<ReturnType<typeof buildSitesWorld>>;

/** Every row of a site's structure (and the site), by id: what a refused write must leave alone. */
export async function siteRows(t: TestApp, siteId: string) {
  const { db } = t.database;
  const where = { siteId };
  const orderBy = { id: 'asc' as const };
  const [site, sections, groups, siteSpaces, shareLinks] = await Promise.all([
    db.site.findUnique({ where: { id: siteId } }),
    db.siteSection.findMany({ where, orderBy }),
    db.siteSectionGroup.findMany({ where, orderBy }),
    db.siteSpace.findMany({ where, orderBy }),
    db.shareLink.findMany({ where, orderBy }),
  ]);
  return { site, sections, groups, siteSpaces, shareLinks };
}

/** Sites (with their structure) and spaces of an organization: what a refused creation must leave alone. */
export async function organizationSiteRows(t: TestApp, organizationId: string) {
  const { db } = t.database;
  const sites = await db.site.findMany({ where: { organizationId }, orderBy: { id: 'asc' } });
  return {
    sites: await Promise.all(sites.map((site) => siteRows(t, site.id))),
    spaces: await db.space.findMany({ where: { organizationId }, orderBy: { id: 'asc' } }),
    // Who was given a role on what (the site grant mutations).
    grants: await db.contentGrant.findMany({ where: { organizationId }, orderBy: { id: 'asc' } }),
  };
}

/** Ordering keys compare byte by byte (COLLATE "C" on PostgreSQL). */
const byKeys = (keysOf: (row: any) => string[]) => (a: any, b: any) => {
  const [ka, kb] = [keysOf(a), keysOf(b)];
  for (let i = 0; i < ka.length; i++) {
    const order = Buffer.compare(Buffer.from(ka[i]!), Buffer.from(kb[i]!));
    if (order !== 0) return order;
  }
  return 0;
};

/** Titles of a site's sections in site order, read from the database. */
export async function sectionTitlesInOrder(t: TestApp, siteId: string): Promise<string[]> {
  const rows = await t.database.db.siteSection.findMany({ where: { siteId } });
  return rows.sort(byKeys((row) => [row.topPosition, row.position, row.id])).map((row) => row.title);
}

/** The top-level entries of a site (groups and ungrouped sections) in order, by title. */
export async function topLevelTitles(t: TestApp, siteId: string): Promise<string[]> {
  const { db } = t.database;
  const [sections, groups] = await Promise.all([
    db.siteSection.findMany({ where: { siteId, sectionGroupId: null } }),
    db.siteSectionGroup.findMany({ where: { siteId } }),
  ]);
  return [...sections, ...groups].sort(byKeys((row) => [row.position, row.id])).map((row) => row.title);
}

/** Titles of a group's sections in order. */
export async function groupSectionTitles(t: TestApp, groupId: string): Promise<string[]> {
  const rows = await t.database.db.siteSection.findMany({ where: { sectionGroupId: groupId } });
  return rows.sort(byKeys((row) => [row.position, row.id])).map((row) => row.title);
}

/** Paths of the site spaces of a section (null: the root level of the site) in order, with the default marked `*`. */
export async function siteSpacePaths(t: TestApp, siteId: string, sectionId: string | null): Promise<string[]> {
  const rows = await t.database.db.siteSpace.findMany({ where: { siteId, sectionId } });
  return rows.sort(byKeys((row) => [row.position, row.id])).map((row) => `${row.path}${row.isDefault ? '*' : ''}`);
}
