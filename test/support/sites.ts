import { SignJWT } from 'jose';
import { expect } from 'vitest';
import type { TestApp } from './app.ts';
import { buildTeam, buildUser } from './factories.ts';

/**
 * Published docs sites over REST: an organization with an admin, and helpers
 * building sites, sections, groups and site spaces as that admin; database
 * reads of a site's structure; visitor tokens and share keys for the
 * published endpoint. Used by test/rest/site*.test.ts.
 */

type Json = Record<string, any>;

/** OpenAPI paths of the site operations (for expectMatchesSchema). */
export const P = {
  sites: '/v1/orgs/{organizationId}/sites',
  site: '/v1/orgs/{organizationId}/sites/{siteId}',
  publish: '/v1/orgs/{organizationId}/sites/{siteId}/publish',
  unpublish: '/v1/orgs/{organizationId}/sites/{siteId}/unpublish',
  adaptiveSchema: '/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema',
  publishingAuth: '/v1/orgs/{organizationId}/sites/{siteId}/publishing/auth',
  published: '/v1/orgs/{organizationId}/sites/{siteId}/published',
  shareLinks: '/v1/orgs/{organizationId}/sites/{siteId}/share-links',
  shareLink: '/v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}',
  sections: '/v1/orgs/{organizationId}/sites/{siteId}/sections',
  section: '/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}',
  sectionMove: '/v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move',
  groups: '/v1/orgs/{organizationId}/sites/{siteId}/section-groups',
  group: '/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}',
  groupSections: '/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections',
  groupMove: '/v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move',
  siteSpaces: '/v1/orgs/{organizationId}/sites/{siteId}/site-spaces',
  siteSpace: '/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}',
  siteSpaceMove: '/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move',
} as const;

/** An adaptive schema declaring these boolean / string attributes. */
export function adaptiveSchema(attributes: Record<string, 'boolean' | 'string' | 'number'>) {
  return {
    type: 'object',
    properties: Object.fromEntries(Object.entries(attributes).map(([name, type]) => [name, { type, description: `The ${name} of the visitor` }])),
    additionalProperties: false,
  };
}

/** An organization with an admin, members on demand, and REST helpers acting as the admin (or `token`). */
export async function buildSiteWorld(t: TestApp) {
  const team = await buildTeam(t.database);
  const organizationId = team.organization.id;
  const token = team.admin.token;
  const base = `/v1/orgs/${organizationId}/sites`;
  const url = (siteId: string, rest = '') => `${base}/${siteId}${rest}`;

  /** A REST call that must answer `status`; returns its JSON (undefined for 204/205). */
  const rest = async (method: string, path: string, body?: unknown, status = 200, as = token): Promise<any> => {
    const response = await t.call(method, path, { token: as, ...(body !== undefined ? { body } : {}) });
    expect(response.statusCode, `${method} ${path} ${JSON.stringify(body)}: ${response.body}`).toBe(status);
    return status === 204 || status === 205 ? undefined : response.json();
  };
  const space = async (title = 'Space'): Promise<Json> => rest('POST', `/v1/orgs/${organizationId}/spaces`, { title }, 201);
  const site = async (body: Json = {}): Promise<Json> => rest('POST', base, body, 201);
  const section = async (siteId: string, spaceId: string, title?: string): Promise<Json> =>
    rest('POST', url(siteId, '/sections'), { spaceId, ...(title !== undefined ? { title } : {}) }, 201);
  const updateSection = async (siteId: string, sectionId: string, body: Json): Promise<Json> => rest('PATCH', url(siteId, `/sections/${sectionId}`), body);
  const group = async (siteId: string, title: string, sections: string[] = []): Promise<Json> =>
    rest('POST', url(siteId, '/section-groups'), { title, sections }, 201);
  const siteSpace = async (siteId: string, spaceId: string, sectionId?: string): Promise<Json> =>
    rest('POST', url(siteId, '/site-spaces'), { spaceId, ...(sectionId ? { sectionId } : {}) }, 201);
  const updateSiteSpace = async (siteId: string, siteSpaceId: string, body: Json): Promise<Json> =>
    rest('PATCH', url(siteId, `/site-spaces/${siteSpaceId}`), body);
  const setSchema = async (siteId: string, attributes: Record<string, 'boolean' | 'string' | 'number'>) =>
    rest('PUT', url(siteId, '/adaptive-schema'), { jsonSchema: adaptiveSchema(attributes) });
  const publish = (siteId: string) => rest('POST', url(siteId, '/publish'));
  const patchSite = (siteId: string, body: Json) => rest('PATCH', url(siteId), body);
  const shareLink = async (siteId: string, name = 'Reviewers'): Promise<Json> => rest('POST', url(siteId, '/share-links'), { name }, 201);
  const stranger = () => buildUser(t.database, 'stranger');

  return {
    ...team,
    organizationId,
    token,
    base,
    url,
    rest,
    space,
    site,
    section,
    updateSection,
    group,
    siteSpace,
    updateSiteSpace,
    setSchema,
    publish,
    patchSite,
    shareLink,
    stranger,
  };
}

export type SiteWorld = Awaited<ReturnType<typeof buildSiteWorld>>;

/** The shareKey a share link carries in its published address. */
export function shareKeyOf(link: { urls?: { published?: string | undefined } }): string {
  expect(link.urls?.published).toEqual(expect.any(String));
  const key = new URL(link.urls!.published!).searchParams.get('shareKey');
  expect(key).toBeTruthy();
  return key!;
}

/** A visitor token: a JWT (HS256 unless told) with these claims, signed with `secret`. */
/** A visitor token signed with `secret`, expiring in an hour, at `expiresAt`, or never (`null`). */
export async function visitorToken(
  secret: string,
  claims: Record<string, unknown>,
  options: { expiresAt?: number | null; alg?: 'HS256' | 'HS512'; notBefore?: number } = {},
) {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: options.alg ?? 'HS256' }).setIssuedAt();
  if (options.notBefore !== undefined) jwt.setNotBefore(options.notBefore);
  if (options.expiresAt !== undefined && options.expiresAt !== null) jwt.setExpirationTime(options.expiresAt);
  else if (options.expiresAt === undefined) jwt.setExpirationTime('1h');
  return jwt.sign(new TextEncoder().encode(secret));
}

/** The published tree as titles: sections as [title, [site space paths]], groups as {group: [sections…]}. */
export function treeOf(body: Json): unknown[] {
  const section = (entry: Json) => [entry.title, entry.siteSpaces.map((siteSpace: Json) => siteSpace.path)];
  if (body.structure.type === 'siteSpaces') return body.structure.structure.map((siteSpace: Json) => siteSpace.path);
  return body.structure.structure.map((entry: Json) =>
    entry.object === 'site-section-group' ? { [entry.title]: entry.sections.map(section) } : section(entry),
  );
}

/** Every row of a site's structure (and the site), ordered by id: what a refused write must leave alone. */
export async function siteSnapshot(t: TestApp, siteId: string) {
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

/** Sites, sections, groups, site spaces and spaces of an organization (for refused creations). */
export async function organizationSites(t: TestApp, organizationId: string) {
  const { db } = t.database;
  const sites = await db.site.findMany({ where: { organizationId }, orderBy: { id: 'asc' } });
  const siteIds = sites.map((site) => site.id);
  const [siteSpaces, sections, groups, spaces] = await Promise.all([
    db.siteSpace.findMany({ where: { siteId: { in: siteIds } }, orderBy: { id: 'asc' } }),
    db.siteSection.findMany({ where: { siteId: { in: siteIds } }, orderBy: { id: 'asc' } }),
    db.siteSectionGroup.findMany({ where: { siteId: { in: siteIds } }, orderBy: { id: 'asc' } }),
    db.space.findMany({ where: { organizationId }, orderBy: { id: 'asc' } }),
  ]);
  return { sites, siteSpaces, sections, groups, spaces };
}
