import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { buildUser } from '../support/factories.ts';
import { expectData, expectGraphQLError, expectUnauthenticated, mutate } from '../support/graphql.ts';
import { SITE_FIELDS, buildSitesWorld, shareKeyIn, signVisitorToken } from '../support/site-tree.ts';

/**
 * `publishedSite(siteId, shareKey, visitorToken)`: a site as its audience sees
 * it. Members see every site of their organization, published or not; anyone
 * else only published ones, with an active share key for share-link sites and
 * a visitor token for visitor-auth sites. Conditions of sections and site
 * spaces are evaluated on the token's claims.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const PUBLISHED = `
  query($siteId: ID!, $shareKey: String, $visitorToken: String) {
    publishedSite(siteId: $siteId, shareKey: $shareKey, visitorToken: $visitorToken) {
      object
      site { id title published }
      customizations
      structure {
        type
        structure {
          __typename
          ... on SiteSection { id title siteSpaces { path } }
          ... on SiteSectionGroup { id title sections { id title siteSpaces { path } } }
          ... on SiteSpace { id path }
        }
      }
    }
  }`;

type Variables = { shareKey?: string; visitorToken?: string };

async function published(token: string, siteId: string, variables: Variables = {}) {
  return expectData(await t.graphql(token, PUBLISHED, { siteId, ...variables })).publishedSite;
}

async function expectHidden(token: string, siteId: string, variables: Variables = {}) {
  const result = await t.graphql(token, PUBLISHED, { siteId, ...variables });
  expectGraphQLError(result, 404, `Site "${siteId}" was not found`);
  expect(result.data).toEqual({ publishedSite: null });
}

/** The structure as titles: sections as [title, [site space paths]], groups as { title: [sections] }, site spaces as paths. */
function treeOf(site: any): unknown[] {
  const section = (entry: any) => [entry.title, entry.siteSpaces.map((siteSpace: any) => siteSpace.path)];
  return site.structure.structure.map((entry: any) =>
    entry.__typename === 'SiteSectionGroup' ? { [entry.title]: entry.sections.map(section) } : entry.__typename === 'SiteSection' ? section(entry) : entry.path,
  );
}

const WHOLE_TREE = [['Guide', ['guide', 'extra']], ['Beta', ['extra']], { 'Reference group': [['Reference', ['api']]] }];

describe('publishedSite for members', () => {
  it('is the whole structure of any site of the organization, published or not, with the site and its customizations', async () => {
    const world = await buildSitesWorld(t);
    const { siteId, sectionIds, groupId } = await world.sectionedSite();
    for (const user of [world.admin, await world.member('read')]) {
      const site = await published(user.token, siteId);
      expect(site.object).toBe('published-content-site');
      expect(site.site).toEqual({ id: siteId, title: 'Docs', published: false });
      expect(site.structure.type).toBe('sections');
      expect(site.structure.structure.map((entry: any) => [entry.__typename, entry.id])).toEqual([
        ['SiteSection', sectionIds.a],
        ['SiteSection', sectionIds.c],
        ['SiteSectionGroup', groupId],
      ]);
      expect(site.structure.structure[2].sections.map((section: any) => section.id)).toEqual([sectionIds.b]);
      expect(treeOf(site)).toEqual(WHOLE_TREE);
      expect(site.customizations.site).toMatchObject({ title: 'Docs', styling: { theme: 'clean' } });
      expect(site.customizations.siteSpaces).toEqual({});
    }
    // Its site is the Site of `site(id:)`.
    const full = expectData(
      await t.graphql(world.admin.token, `query($id: ID!) { site(id: $id) { ${SITE_FIELDS} } publishedSite(siteId: $id) { site { ${SITE_FIELDS} } } }`, {
        id: siteId,
      }),
    );
    expect(full.publishedSite.site).toEqual(full.site);
  });

  it('is the site spaces of the root level for a site without sections', async () => {
    const world = await buildSitesWorld(t);
    const { spaces } = world;
    const site = await world.site({ title: 'Plain', spaces: [spaces.guide.id, spaces.api.id] });
    const answer = await published(world.admin.token, site.id);
    expect(answer.structure.type).toBe('siteSpaces');
    expect(answer.structure.structure.map((entry: any) => entry.__typename)).toEqual(['SiteSpace', 'SiteSpace']);
    expect(treeOf(answer)).toEqual(['guide', 'api']);
  });
});

describe('publishedSite for visitors', () => {
  it('hides an unpublished site, and shows a published public or unlisted one', async () => {
    const world = await buildSitesWorld(t);
    const { siteId } = await world.sectionedSite();
    const visitor = await buildUser(t.database, 'visitor');
    await expectHidden(visitor.token, siteId);
    await world.rest('POST', world.url(siteId, '/publish'));
    const site = await published(visitor.token, siteId);
    expect(site.site).toEqual({ id: siteId, title: 'Docs', published: true });
    expect(treeOf(site)).toEqual(WHOLE_TREE);
    const permissions = expectData(
      await t.graphql(visitor.token, 'query($id: ID!) { publishedSite(siteId: $id) { site { permissions { view admin } } } }', { id: siteId }),
    );
    expect(permissions.publishedSite.site.permissions).toEqual({ view: false, admin: false });
    // What a visitor may not read is left out with its error; the site around it is still answered.
    const withSchema = await t.graphql(visitor.token, 'query($id: ID!) { publishedSite(siteId: $id) { site { title adaptiveSchema { object } } } }', {
      id: siteId,
    });
    expect(withSchema.data).toEqual({ publishedSite: { site: { title: 'Docs', adaptiveSchema: null } } });
    expect(withSchema.errors).toEqual([
      expect.objectContaining({ path: ['publishedSite', 'site', 'adaptiveSchema'], extensions: expect.objectContaining({ code: 404 }) }),
    ]);
    await world.rest('PATCH', world.url(siteId), { visibility: 'unlisted' });
    expect(treeOf(await published(visitor.token, siteId))).toEqual(WHOLE_TREE);
    await world.rest('POST', world.url(siteId, '/unpublish'));
    await expectHidden(visitor.token, siteId);
    // A guest of the organization is a visitor too.
    await expectHidden((await world.member(null)).token, siteId);
  });

  it('opens a share-link site with an active share key of that site only', async () => {
    const world = await buildSitesWorld(t);
    const { admin } = world;
    const { siteId, shareLink, shareLinkId } = await world.sectionedSite();
    const other = await world.sectionedSite('Other');
    await world.rest('PATCH', world.url(siteId), { visibility: 'share-link' });
    await world.rest('POST', world.url(siteId, '/publish'));
    await world.rest('POST', world.url(other.siteId, '/publish'));
    const visitor = await buildUser(t.database, 'visitor');
    const shareKey = shareKeyIn(shareLink);

    await expectHidden(visitor.token, siteId);
    await expectHidden(visitor.token, siteId, { shareKey: 'not-a-key' });
    await expectHidden(visitor.token, siteId, { shareKey: shareKeyIn(other.shareLink) });
    expect(treeOf(await published(visitor.token, siteId, { shareKey }))).toEqual(WHOLE_TREE);
    // Members need no key.
    expect(treeOf(await published(admin.token, siteId))).toEqual(WHOLE_TREE);

    const update = (active: boolean) => mutate(t, admin.token, 'updateShareLink', { shareLinkId, active }, 'shareLink { active }');
    expectData(await update(false));
    await expectHidden(visitor.token, siteId, { shareKey });
    expectData(await update(true));
    expect(treeOf(await published(visitor.token, siteId, { shareKey }))).toEqual(WHOLE_TREE);
    expectData(await mutate(t, admin.token, 'deleteShareLink', { shareLinkId }, 'deletedId'));
    await expectHidden(visitor.token, siteId, { shareKey });
  });

  it("opens a visitor-auth site with a token signed with the site's key (publishing/auth) or the docsVisitorClaims of ping", async () => {
    const world = await buildSitesWorld(t);
    const { organizationId } = world;
    const { siteId } = await world.sectionedSite();
    const other = await world.sectionedSite('Other');
    await world.rest('PATCH', world.url(siteId), { visibility: 'visitor-auth' });
    await world.rest('POST', world.url(siteId, '/publish'));
    const key = await world.visitorKey(siteId);
    expect(key).toBe((await t.database.db.site.findUnique({ where: { id: siteId } }))!.visitorAuthSecret);
    const visitor = await buildUser(t.database, 'visitor');

    await expectHidden(visitor.token, siteId);
    const site = await published(visitor.token, siteId, { visitorToken: await signVisitorToken(key, { beta: true, plan: 'free' }) });
    expect(site.site.id).toBe(siteId);
    await expectHidden(visitor.token, siteId, { visitorToken: await signVisitorToken(await world.visitorKey(other.siteId), { beta: true }) });
    await expectHidden(visitor.token, siteId, { visitorToken: await signVisitorToken('not the key', { beta: true }) });
    await expectHidden(visitor.token, siteId, { visitorToken: await signVisitorToken(key, { beta: true }, Math.floor(Date.now() / 1000) - 60) });
    await expectHidden(visitor.token, siteId, { visitorToken: 'not-a-jwt' });

    // The claims a member gets from ping open the organization's visitor-auth sites.
    const member = await world.member('read');
    const ping = expectData(await mutate(t, member.token, 'pingOrganization', { organizationId }, 'docsVisitorClaims')).pingOrganization;
    expect(typeof ping.docsVisitorClaims).toBe('string');
    expect((await published(visitor.token, siteId, { visitorToken: ping.docsVisitorClaims })).site.id).toBe(siteId);
    // …and not those of another organization.
    const elsewhere = await buildSitesWorld(t);
    const foreignPing = expectData(
      await mutate(t, elsewhere.admin.token, 'pingOrganization', { organizationId: elsewhere.organizationId }, 'docsVisitorClaims'),
    ).pingOrganization;
    await expectHidden(visitor.token, siteId, { visitorToken: foreignPing.docsVisitorClaims });
  });

  it('shows visitors the sections and site spaces whose condition their claims satisfy; a group left empty is left out', async () => {
    const world = await buildSitesWorld(t);
    const { siteId, sectionIds, siteSpaceIds } = await world.sectionedSite();
    await world.rest('PATCH', world.url(siteId, `/sections/${sectionIds.c}`), { condition: 'visitor.claims.beta' });
    await world.rest('PATCH', world.url(siteId, `/sections/${sectionIds.b}`), { condition: 'visitor.claims.plan === "enterprise"' });
    await world.rest('PATCH', world.url(siteId, `/site-spaces/${siteSpaceIds.extraInA}`), {
      condition: '["enterprise", "team"].includes(visitor.claims.plan)',
    });
    await world.rest('POST', world.url(siteId, '/publish'));
    const key = await world.visitorKey(siteId);
    const visitor = await buildUser(t.database, 'visitor');
    const as = async (token: string, claims?: Record<string, unknown>) =>
      treeOf(await published(token, siteId, claims ? { visitorToken: await signVisitorToken(key, claims) } : {}));

    expect(await as(visitor.token)).toEqual([['Guide', ['guide']]]);
    expect(await as(visitor.token, { beta: true, plan: 'enterprise' })).toEqual(WHOLE_TREE);
    expect(await as(visitor.token, { beta: true, plan: 'team' })).toEqual([
      ['Guide', ['guide', 'extra']],
      ['Beta', ['extra']],
    ]);
    expect(await as(visitor.token, { beta: false, plan: 'enterprise' })).toEqual([
      ['Guide', ['guide', 'extra']],
      { 'Reference group': [['Reference', ['api']]] },
    ]);
    // Members see everything without a token, and what the claims show with one.
    expect(await as(world.admin.token)).toEqual(WHOLE_TREE);
    expect(await as(world.admin.token, { plan: 'free' })).toEqual([['Guide', ['guide']]]);
  });

  it('applies conditions to the root-level site spaces of a site without sections', async () => {
    const world = await buildSitesWorld(t);
    const { spaces } = world;
    const site = await world.site({ title: 'Plain', spaces: [spaces.guide.id, spaces.api.id] });
    await world.setSchema(site.id, { beta: 'boolean' });
    // The site-wide listing goes by creation time: both were created in one instant.
    const listed: Array<{ id: string; space: { id: string } }> = (await world.rest('GET', world.url(site.id, '/site-spaces'))).items;
    const apiSiteSpace = listed.find((siteSpace) => siteSpace.space.id === spaces.api.id)!;
    await world.rest('PATCH', world.url(site.id, `/site-spaces/${apiSiteSpace.id}`), { condition: 'visitor.claims.beta === true' });
    await world.rest('POST', world.url(site.id, '/publish'));
    const key = await world.visitorKey(site.id);
    const visitor = await buildUser(t.database, 'visitor');
    expect(treeOf(await published(visitor.token, site.id))).toEqual(['guide']);
    expect(treeOf(await published(visitor.token, site.id, { visitorToken: await signVisitorToken(key, { beta: true }) }))).toEqual(['guide', 'api']);
  });
});

describe('relations in the published tree', () => {
  it('lead visitors to the section of a site space and the group of a section they are shown', async () => {
    const world = await buildSitesWorld(t);
    const { siteId, sectionIds, groupId } = await world.sectionedSite();
    await world.rest('POST', world.url(siteId, '/publish'));
    const visitor = await buildUser(t.database, 'visitor');
    const query = `query($id: ID!) { publishedSite(siteId: $id) { structure { structure {
      ... on SiteSection { id sectionGroup { id } siteSpaces { path section { id title } } }
      ... on SiteSectionGroup { id sections { id sectionGroup { id title } siteSpaces { path section { id title } } } }
    } } } }`;
    for (const user of [world.admin, visitor]) {
      const structure = expectData(await t.graphql(user.token, query, { id: siteId })).publishedSite.structure.structure;
      expect(structure).toEqual([
        {
          id: sectionIds.a,
          sectionGroup: null,
          siteSpaces: [
            { path: 'guide', section: { id: sectionIds.a, title: 'Guide' } },
            { path: 'extra', section: { id: sectionIds.a, title: 'Guide' } },
          ],
        },
        { id: sectionIds.c, sectionGroup: null, siteSpaces: [{ path: 'extra', section: { id: sectionIds.c, title: 'Beta' } }] },
        {
          id: groupId,
          sections: [
            {
              id: sectionIds.b,
              sectionGroup: { id: groupId, title: 'Reference group' },
              siteSpaces: [{ path: 'api', section: { id: sectionIds.b, title: 'Reference' } }],
            },
          ],
        },
      ]);
    }
  });
});

describe('publishedSite errors', () => {
  it('is a 400 naming shareKey or visitorToken when empty, a 404 for an unknown site, a 401 without a token', async () => {
    const world = await buildSitesWorld(t);
    const { siteId } = await world.sectionedSite();
    expectGraphQLError(await t.graphql(world.admin.token, PUBLISHED, { siteId, shareKey: '' }), 400, /^shareKey: /);
    expectGraphQLError(await t.graphql(world.admin.token, PUBLISHED, { siteId, visitorToken: '' }), 400, /^visitorToken: /);
    expectGraphQLError(await t.graphql(world.admin.token, PUBLISHED, { siteId: 'site_missing' }), 404, 'Site "site_missing" was not found');
    await expectUnauthenticated(t, PUBLISHED, { siteId });
  });
});
