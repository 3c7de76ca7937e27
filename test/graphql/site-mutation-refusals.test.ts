import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { expectGraphQLError, expectUnauthenticated, mutate, mutation } from '../support/graphql.ts';
import { type SitesWorld, adaptiveSchemaOf, buildSitesWorld, organizationSiteRows } from '../support/site-tree.ts';

/**
 * Every site mutation refuses, and writes nothing, when the caller may not do
 * it: 403 for a member who is not an admin (for createSite, below `create`),
 * 404 for a site of another organization (named by its id, or through that
 * organization's id), 404 for guests, who see no sites, and HTTP 401 without a
 * token.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

type SectionedSite = Awaited<ReturnType<SitesWorld['sectionedSite']>>;
type Input = Record<string, unknown>;

/** An organization with its sectioned site. */
interface Target {
  world: SitesWorld;
  site: SectionedSite;
}

interface MutationCase {
  name: string;
  selection: string;
  /** A valid input acting on the target's site (or organization, for createSite). */
  input(target: Target): Input;
  /** false for createSite, which names no site. */
  onSite?: false;
  /** The 404 for a caller who cannot see what the input names: the site, or the entry named by its own id. */
  notFound?(target: Target): string;
}

const ids = ({ site }: Target) => ({ siteId: site.siteId });
const missing = (what: string, id: (target: Target) => string) => (target: Target) => `${what} "${id(target)}" was not found`;
const shareLinkMissing = missing('Share link', (x) => x.site.shareLinkId);
const sectionMissing = (key: 'a' | 'c') => missing('Site section', (x) => x.site.sectionIds[key]);
const groupMissing = missing('Site section group', (x) => x.site.groupId);
const siteSpaceMissing = (key: 'guideInA' | 'extraInA') => missing('Site space', (x) => x.site.siteSpaceIds[key]);

const CASES: MutationCase[] = [
  {
    name: 'createSite',
    selection: 'site { id }',
    input: ({ world }) => ({ organizationId: world.organizationId, title: 'New site', spaces: [world.spaces.guide.id] }),
    onSite: false,
  },
  { name: 'updateSite', selection: 'site { id }', input: (x) => ({ ...ids(x), title: 'Renamed' }) },
  { name: 'deleteSite', selection: 'deletedId', input: ids },
  { name: 'publishSite', selection: 'site { id }', input: ids },
  { name: 'unpublishSite', selection: 'site { id }', input: ids },
  {
    name: 'updateSiteAdaptiveSchema',
    selection: 'adaptiveSchema { updatedAt }',
    input: (x) => ({ ...ids(x), jsonSchema: adaptiveSchemaOf({ seats: 'number' }) }),
  },
  { name: 'createShareLink', selection: 'shareLink { id }', input: (x) => ({ ...ids(x), name: 'Partners' }) },
  {
    name: 'updateShareLink',
    selection: 'shareLink { id }',
    input: (x) => ({ shareLinkId: x.site.shareLinkId, active: false }),
    notFound: shareLinkMissing,
  },
  { name: 'deleteShareLink', selection: 'deletedId', input: (x) => ({ shareLinkId: x.site.shareLinkId }), notFound: shareLinkMissing },
  {
    name: 'createSiteSection',
    selection: 'section { id }',
    input: (x) => ({ ...ids(x), spaceId: x.world.spaces.api.id, title: 'More' }),
  },
  {
    name: 'updateSiteSection',
    selection: 'section { id }',
    input: (x) => ({ sectionId: x.site.sectionIds.a, title: 'Renamed' }),
    notFound: sectionMissing('a'),
  },
  { name: 'deleteSiteSection', selection: 'deletedId', input: (x) => ({ sectionId: x.site.sectionIds.c }), notFound: sectionMissing('c') },
  {
    name: 'moveSiteSection',
    selection: 'section { id }',
    input: (x) => ({ sectionId: x.site.sectionIds.c, position: { before: x.site.sectionIds.a } }),
    notFound: sectionMissing('c'),
  },
  {
    name: 'createSiteSectionGroup',
    selection: 'sectionGroup { id }',
    input: (x) => ({ ...ids(x), title: 'Extras', sections: [x.site.sectionIds.c] }),
  },
  {
    name: 'updateSiteSectionGroup',
    selection: 'sectionGroup { id }',
    input: (x) => ({ sectionGroupId: x.site.groupId, title: 'Renamed' }),
    notFound: groupMissing,
  },
  { name: 'deleteSiteSectionGroup', selection: 'deletedId', input: (x) => ({ sectionGroupId: x.site.groupId }), notFound: groupMissing },
  {
    name: 'addSectionToGroup',
    selection: 'sectionGroup { id }',
    input: (x) => ({ sectionGroupId: x.site.groupId, sectionId: x.site.sectionIds.c }),
    notFound: groupMissing,
  },
  {
    name: 'removeSectionFromGroup',
    selection: 'sectionGroup { id }',
    input: (x) => ({ sectionGroupId: x.site.groupId, sectionId: x.site.sectionIds.b }),
    notFound: groupMissing,
  },
  {
    name: 'moveSiteSectionGroup',
    selection: 'sectionGroup { id }',
    input: (x) => ({ sectionGroupId: x.site.groupId, position: { before: x.site.sectionIds.a } }),
    notFound: groupMissing,
  },
  {
    name: 'addSiteSpace',
    selection: 'siteSpace { id }',
    input: (x) => ({ ...ids(x), spaceId: x.world.spaces.api.id, sectionId: x.site.sectionIds.c }),
  },
  {
    name: 'updateSiteSpace',
    selection: 'siteSpace { id }',
    input: (x) => ({ siteSpaceId: x.site.siteSpaceIds.guideInA, path: 'start' }),
    notFound: siteSpaceMissing('guideInA'),
  },
  { name: 'deleteSiteSpace', selection: 'deletedId', input: (x) => ({ siteSpaceId: x.site.siteSpaceIds.extraInA }), notFound: siteSpaceMissing('extraInA') },
  {
    name: 'moveSiteSpace',
    selection: 'siteSpace { id }',
    input: (x) => ({ siteSpaceId: x.site.siteSpaceIds.extraInA, position: { before: x.site.siteSpaceIds.guideInA } }),
    notFound: siteSpaceMissing('extraInA'),
  },
  {
    name: 'duplicateSiteSpace',
    selection: 'siteSpace { id }',
    input: (x) => ({ siteSpaceId: x.site.siteSpaceIds.extraInA }),
    notFound: siteSpaceMissing('extraInA'),
  },
  {
    name: 'createSiteRedirect',
    selection: 'siteRedirect { id }',
    input: (x) => ({ ...ids(x), source: '/refused', destination: { kind: 'external', url: 'https://example.com/' } }),
  },
  // The site is checked before the redirect: any redirect id shows the refusal.
  { name: 'updateSiteRedirect', selection: 'siteRedirect { id }', input: (x) => ({ ...ids(x), siteRedirectId: 'redirect_any', permanent: true }) },
  { name: 'deleteSiteRedirect', selection: 'deletedId', input: (x) => ({ ...ids(x), siteRedirectId: 'redirect_any' }) },
  // Grants: the site is checked before who is named.
  { name: 'inviteToSite', selection: 'site { id }', input: (x) => ({ ...ids(x), role: 'admin', users: [x.world.admin.id] }) },
  { name: 'setSiteUserPermission', selection: 'site { id }', input: (x) => ({ ...ids(x), userId: x.world.admin.id, role: 'admin' }) },
  { name: 'setSiteTeamPermission', selection: 'site { id }', input: (x) => ({ ...ids(x), teamId: 'team_any', role: 'admin' }) },
];

it('covers every site mutation of the schema', async () => {
  const { schema } = await import('../../src/graphql/schema.ts');
  const fields = Object.keys(schema.getMutationType()!.getFields());
  const siteMutations = fields.filter((name) => /Site|ShareLink|SectionToGroup|SectionFromGroup/.test(name));
  expect(CASES.map((entry) => entry.name).sort()).toEqual(siteMutations.sort());
  expect(siteMutations).toHaveLength(30);
});

describe.each(CASES)('mutation $name refuses', (entry) => {
  let own: Target;
  let foreign: Target;
  let editor: { token: string };
  let guest: { token: string };
  beforeAll(async () => {
    const world = await buildSitesWorld(t);
    own = { world, site: await world.sectionedSite() };
    const other = await buildSitesWorld(t);
    foreign = { world: other, site: await other.sectionedSite() };
    editor = await world.member('edit');
    guest = await world.member(null);
  });

  const notFound = (target: Target) =>
    entry.notFound?.(target) ??
    (entry.onSite === false ? `Organization "${target.world.organizationId}" was not found` : `Site "${target.site.siteId}" was not found`);

  /** What a refused write must leave unchanged: the organization's sites with their structure. */
  const rowsOf = (target: Target) => organizationSiteRows(t, target.world.organizationId);

  it('a member below admin (below create for createSite) with a 403, writing nothing', async () => {
    const before = await rowsOf(own);
    const result = await mutate(t, editor.token, entry.name, entry.input(own), entry.selection);
    expectGraphQLError(result, 403, /^You are not allowed to /);
    expect(result.data).toBeNull();
    expect(await rowsOf(own)).toEqual(before);
  });

  it("another organization's site with a 404 naming what the input names, and nothing else", async () => {
    const before = await rowsOf(foreign);
    const result = await mutate(t, own.world.admin.token, entry.name, entry.input(foreign), entry.selection);
    expectGraphQLError(result, 404, notFound(foreign));
    expect(await rowsOf(foreign)).toEqual(before);
  });

  it('a guest: sites do not exist for guests (404), and guests create none (403)', async () => {
    const before = await rowsOf(own);
    const result = await mutate(t, guest.token, entry.name, entry.input(own), entry.selection);
    if (entry.onSite === false) expectGraphQLError(result, 403, /^You are not allowed to /);
    else expectGraphQLError(result, 404, notFound(own));
    expect(await rowsOf(own)).toEqual(before);
  });

  it('a request without a token with HTTP 401', async () => {
    const before = await rowsOf(own);
    await expectUnauthenticated(t, mutation(entry.name, entry.selection), { input: entry.input(own) });
    expect(await rowsOf(own)).toEqual(before);
  });
});
