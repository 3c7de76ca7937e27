import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../support/app.ts';
import { timeTravel } from '../support/clock.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { expectError } from '../support/http.ts';
import { type OfficialClient, expectOfficialError, officialClient } from '../support/official.ts';
import { P, type SiteWorld, buildSiteWorld, shareKeyOf, treeOf, visitorToken } from '../support/sites.ts';

let t: TestApp;
let official: OfficialClient;
beforeAll(async () => {
  t = await createTestApp();
  official = await officialClient(t);
});

/** Moves the server's clock; every test starts back at the real time. */
const travel = timeTravel(() => t);
const HOUR = 60 * 60 * 1000;

type Json = Record<string, any>;

const NO_PERMISSIONS = {
  view: false,
  access: false,
  edit: false,
  create: false,
  admin: false,
  installIntegration: false,
  viewAdaptiveSchema: false,
  editAdaptiveSchema: false,
};

/** GET …/published as `token`, with a share key and a visitor token when given; the response. */
function published(w: SiteWorld, siteId: string, token: string | undefined, options: { shareKey?: string; visitor?: string } = {}) {
  const query = options.shareKey !== undefined ? `?shareKey=${encodeURIComponent(options.shareKey)}` : '';
  return t.call('GET', w.url(siteId, `/published${query}`), {
    ...(token ? { token } : {}),
    ...(options.visitor !== undefined ? { headers: { 'x-visitor-token': options.visitor } } : {}),
  });
}

/** The published site as `token` sees it: 200, matching the official schema. */
async function publishedBody(w: SiteWorld, siteId: string, token: string, options: { shareKey?: string; visitor?: string } = {}) {
  const response = await published(w, siteId, token, options);
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json();
  expectMatchesSchema('GET', P.published, 200, body);
  return body as Json;
}

/**
 * A site with adaptive content: schema {beta: boolean, plan: string} and
 *   General  [general, preview (beta)]
 *   Beta (beta === true) [beta]
 *   group Enterprise: Enterprise (plan === "enterprise") [enterprise]
 *   group Mixed: Pro (plan is pro or enterprise) [pro], Always [always]
 */
async function adaptiveSite(w: SiteWorld, visibility = 'public') {
  const site = await w.site({ title: 'Adaptive docs', visibility });
  const space = async (title: string) => (await w.space(title)).id;
  const general = await w.section(site.id, await space('General'), 'General');
  const preview = await w.siteSpace(site.id, await space('Preview'), general.id);
  const beta = await w.section(site.id, await space('Beta'), 'Beta');
  const enterprise = await w.section(site.id, await space('Enterprise'), 'Enterprise');
  const pro = await w.section(site.id, await space('Pro'), 'Pro');
  const always = await w.section(site.id, await space('Always'), 'Always');
  await w.group(site.id, 'Enterprise group', [enterprise.id]);
  await w.group(site.id, 'Mixed group', [pro.id, always.id]);
  await w.setSchema(site.id, { beta: 'boolean', plan: 'string' });
  await w.updateSiteSpace(site.id, preview.id, { condition: 'visitor.claims.beta' });
  await w.updateSection(site.id, beta.id, { condition: 'visitor.claims.beta === true' });
  await w.updateSection(site.id, enterprise.id, { condition: 'visitor.claims.plan === "enterprise"' });
  await w.updateSection(site.id, pro.id, { condition: '["pro", "enterprise"].includes(visitor.claims.plan)' });
  return site;
}

const FULL_TREE = [
  ['General', ['general', 'preview']],
  ['Beta', ['beta']],
  { 'Enterprise group': [['Enterprise', ['enterprise']]] },
  {
    'Mixed group': [
      ['Pro', ['pro']],
      ['Always', ['always']],
    ],
  },
];

describe('GET /v1/orgs/{organizationId}/sites/{siteId}/published', () => {
  it('shows members an unpublished site with its whole structure and customizations, through the official client', async () => {
    const w = await buildSiteWorld(t);
    const site = await adaptiveSite(w);
    const { data } = await official(w.admin).orgs.getPublishedContentSite(w.organizationId, site.id);
    expectMatchesSchema('GET', P.published, 200, data);
    expect(data.object).toBe('published-content-site');
    expect(data.site).toEqual(await w.rest('GET', w.url(site.id)));
    expect(data.site.published).toBe(false);
    expect(data.structure.type).toBe('sections');
    expect(treeOf(data)).toEqual(FULL_TREE);
    const reader = await w.member('read');
    const asReader = await publishedBody(w, site.id, reader.token);
    expect(treeOf(asReader)).toEqual(FULL_TREE);
    expect(asReader.site.permissions).toMatchObject({ view: true, admin: false });
  });

  it('gives the default customizations of the site', async () => {
    const w = await buildSiteWorld(t);
    const site = await w.site({ title: 'Styled docs' });
    const body = await publishedBody(w, site.id, w.token);
    const { site: customization } = body.customizations;
    expect(customization).toMatchObject({
      title: 'Styled docs',
      styling: {
        theme: expect.any(String),
        primaryColor: { light: expect.any(String), dark: expect.any(String) },
        tint: { color: { light: expect.any(String), dark: expect.any(String) } },
        infoColor: { light: expect.any(String), dark: expect.any(String) },
        successColor: { light: expect.any(String), dark: expect.any(String) },
        warningColor: { light: expect.any(String), dark: expect.any(String) },
        dangerColor: { light: expect.any(String), dark: expect.any(String) },
        corners: expect.any(String),
        links: expect.any(String),
        font: expect.anything(),
        icons: expect.any(String),
        sidebar: { background: expect.any(String), list: expect.any(String) },
        search: expect.any(String),
      },
      internationalization: { locale: expect.any(String) },
      favicon: expect.any(Object),
      header: { links: [] },
      footer: { groups: [] },
      themes: { default: expect.any(String), toggeable: expect.any(Boolean) },
      pdf: { enabled: expect.any(Boolean) },
      feedback: { enabled: expect.any(Boolean) },
      aiSearch: { enabled: expect.any(Boolean) },
      ai: { pageLinkSummaries: { enabled: expect.any(Boolean) } },
    });
    await w.patchSite(site.id, { title: 'Renamed docs' });
    expect((await publishedBody(w, site.id, w.token)).customizations.site.title).toBe('Renamed docs');
  });

  it('has a structure of site spaces, in order, for a site without sections', async () => {
    const w = await buildSiteWorld(t);
    const [a, b, c] = [await w.space('Alpha'), await w.space('Beta'), await w.space('Gamma')];
    const site = await w.site({ title: 'Flat', spaces: [a.id, b.id, c.id] });
    const items = (await w.rest('GET', w.url(site.id, '/site-spaces'))).items as Json[];
    const gamma = items.find((item) => item.space.id === c.id)!;
    const alpha = items.find((item) => item.space.id === a.id)!;
    await w.rest('POST', w.url(site.id, `/site-spaces/${gamma.id}/move`), { position: { before: { type: 'site-space', siteSpace: alpha.id } } });
    const body = await publishedBody(w, site.id, w.token);
    expect(body.structure.type).toBe('siteSpaces');
    expect(body.structure.structure.map((siteSpace: Json) => [siteSpace.object, siteSpace.path, siteSpace.default])).toEqual([
      ['site-space', 'gamma', false],
      ['site-space', 'alpha', true],
      ['site-space', 'beta', false],
    ]);
    const empty = await w.site({ title: 'Empty' });
    expect((await publishedBody(w, empty.id, w.token)).structure).toEqual({ type: 'siteSpaces', structure: [] });
  });

  it('has a structure of sections and groups, in site order, for a site with sections', async () => {
    const w = await buildSiteWorld(t);
    const site = await w.site({ title: 'Sectioned' });
    const [a, b, c] = [await w.space('Alpha'), await w.space('Beta'), await w.space('Gamma')];
    const first = await w.section(site.id, a.id, 'First');
    const second = await w.section(site.id, b.id, 'Second');
    const third = await w.section(site.id, c.id, 'Third');
    const group = await w.group(site.id, 'Grouped', [third.id, first.id]);
    await w.rest('POST', w.url(site.id, `/section-groups/${group.id}/move`), {
      position: { before: { type: 'site-section', id: second.id } },
    });
    const body = await publishedBody(w, site.id, w.token);
    expect(body.structure.type).toBe('sections');
    expect(body.structure.structure.map((entry: Json) => entry.object)).toEqual(['site-section-group', 'site-section']);
    expect(treeOf(body)).toEqual([
      {
        Grouped: [
          ['Third', ['gamma']],
          ['First', ['alpha']],
        ],
      },
      ['Second', ['beta']],
    ]);
    expect(body.structure.structure[0].sections[1]).toMatchObject({ id: first.id, default: true, sectionGroup: group.id });
  });

  it('is a 404 for strangers and guests while unpublished, a 200 once published public or unlisted', async () => {
    const w = await buildSiteWorld(t);
    const site = await adaptiveSite(w);
    const stranger = await w.stranger();
    const guest = await w.member(null);
    expectError(await published(w, site.id, stranger.token), 404, `Site "${site.id}" was not found`);
    expectError(await published(w, site.id, guest.token), 404);
    await expectOfficialError(official(stranger).orgs.getPublishedContentSite(w.organizationId, site.id), 404);

    await w.publish(site.id);
    const { data } = await official(stranger).orgs.getPublishedContentSite(w.organizationId, site.id);
    expectMatchesSchema('GET', P.published, 200, data);
    expect(data.site).toMatchObject({ id: site.id, published: true, visibility: 'public', permissions: NO_PERMISSIONS });
    // Without claims, conditional entries are hidden.
    expect(treeOf(data)).toEqual([['General', ['general']], { 'Mixed group': [['Always', ['always']]] }]);
    expect(treeOf(await publishedBody(w, site.id, guest.token))).toEqual(treeOf(data));

    await w.patchSite(site.id, { visibility: 'unlisted' });
    expect((await publishedBody(w, site.id, stranger.token)).site.visibility).toBe('unlisted');

    await w.rest('POST', w.url(site.id, '/unpublish'));
    expectError(await published(w, site.id, stranger.token), 404);
    expect((await publishedBody(w, site.id, w.token)).site.published).toBe(false);
  });

  it('is a 404 through another organization or for an unknown site, and a 401 without a token', async () => {
    const w = await buildSiteWorld(t);
    const site = await w.site({ title: 'Docs' });
    await w.publish(site.id);
    const other = await buildSiteWorld(t);
    expectError(await published(other, site.id, other.token), 404);
    expectError(await published(w, 'site_missing', w.token), 404, 'Site "site_missing" was not found');
    expectError(await published(w, site.id, undefined), 401);
  });

  it('opens a share-link site to visitors with the key of an active share link only', async () => {
    const w = await buildSiteWorld(t);
    const site = await adaptiveSite(w, 'share-link');
    const link = await w.shareLink(site.id);
    const key = shareKeyOf(link);
    const stranger = await w.stranger();
    // Not published yet: even the key opens nothing.
    expectError(await published(w, site.id, stranger.token, { shareKey: key }), 404);
    await w.publish(site.id);
    expectError(await published(w, site.id, stranger.token), 404);
    expectError(await published(w, site.id, stranger.token, { shareKey: 'wrong-key' }), 404);
    expectError(await published(w, site.id, stranger.token, { shareKey: `${key}x` }), 404);

    const { data } = await official(stranger).orgs.getPublishedContentSite(w.organizationId, site.id, { shareKey: key });
    expectMatchesSchema('GET', P.published, 200, data);
    expect(treeOf(data)).toEqual([['General', ['general']], { 'Mixed group': [['Always', ['always']]] }]);
    // Members need no key.
    expect(treeOf(await publishedBody(w, site.id, w.token))).toEqual(FULL_TREE);

    // The key of another site's share link does not open this one.
    const other = await w.site({ title: 'Other', visibility: 'share-link' });
    await w.publish(other.id);
    const otherKey = shareKeyOf(await w.shareLink(other.id));
    expectError(await published(w, site.id, stranger.token, { shareKey: otherKey }), 404);
    expect((await publishedBody(w, other.id, stranger.token, { shareKey: otherKey })).site.id).toBe(other.id);

    await w.rest('PATCH', w.url(site.id, `/share-links/${link.id}`), { active: false });
    expectError(await published(w, site.id, stranger.token, { shareKey: key }), 404);
    await w.rest('PATCH', w.url(site.id, `/share-links/${link.id}`), { active: true });
    await publishedBody(w, site.id, stranger.token, { shareKey: key });
    await w.rest('DELETE', w.url(site.id, `/share-links/${link.id}`), undefined, 205);
    expectError(await published(w, site.id, stranger.token, { shareKey: key }), 404);
    // Another link still works.
    const next = await w.shareLink(site.id, 'Next');
    await publishedBody(w, site.id, stranger.token, { shareKey: shareKeyOf(next) });
  });

  it('opens a visitor-auth site to visitors with a token signed by the site key', async () => {
    const w = await buildSiteWorld(t);
    const site = await adaptiveSite(w, 'visitor-auth');
    await w.publish(site.id);
    const { privateKey } = await w.rest('GET', w.url(site.id, '/publishing/auth'));
    const stranger = await w.stranger();
    expectError(await published(w, site.id, stranger.token), 404);
    const valid = await visitorToken(privateKey, { beta: true });
    const body = await publishedBody(w, site.id, stranger.token, { visitor: valid });
    expect(treeOf(body)).toEqual([['General', ['general', 'preview']], ['Beta', ['beta']], { 'Mixed group': [['Always', ['always']]] }]);
    // A share key is no substitute for a token.
    const key = shareKeyOf(await w.shareLink(site.id));
    expectError(await published(w, site.id, stranger.token, { shareKey: key }), 404);

    const otherSite = await w.site({ title: 'Other', visibility: 'visitor-auth' });
    const otherKey = (await w.rest('GET', w.url(otherSite.id, '/publishing/auth'))).privateKey;
    const expired = await visitorToken(privateKey, { beta: true }, { expiresAt: Math.floor(Date.now() / 1000) - 3600 });
    // A token must expire, and within 30 days: a leaked one must not open the site for ever.
    const neverExpiring = await visitorToken(privateKey, { beta: true }, { expiresAt: null });
    const expiringIn31Days = await visitorToken(privateKey, { beta: true }, { expiresAt: Math.floor(Date.now() / 1000) + 31 * 24 * 3600 });
    expect(
      treeOf(
        await publishedBody(w, site.id, stranger.token, {
          visitor: await visitorToken(privateKey, { beta: true }, { expiresAt: Math.floor(Date.now() / 1000) + 29 * 24 * 3600 }),
        }),
      ),
    ).toHaveLength(3);
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ beta: true })).toString('base64url');
    for (const visitor of [
      await visitorToken(otherKey, { beta: true }),
      await visitorToken('not-the-key', { beta: true }),
      await visitorToken(privateKey, { beta: true }, { alg: 'HS512' }),
      await visitorToken(privateKey, { beta: true }, { notBefore: Math.floor(Date.now() / 1000) + 3600 }),
      expired,
      neverExpiring,
      expiringIn31Days,
      `${header}.${payload}.`,
      'garbage',
      `${valid.slice(0, -2)}xx`,
    ]) {
      expectError(await published(w, site.id, stranger.token, { visitor }), 404);
    }
    // Members see the site without a token; unpublished, visitors see nothing even with one.
    expect(treeOf(await publishedBody(w, site.id, w.token))).toEqual(FULL_TREE);
    await w.rest('POST', w.url(site.id, '/unpublish'));
    expectError(await published(w, site.id, stranger.token, { visitor: valid }), 404);
  });

  it('takes the visitor token as the documented visitorToken query parameter, or in the X-Visitor-Token header', async () => {
    const w = await buildSiteWorld(t);
    const site = await adaptiveSite(w, 'visitor-auth');
    await w.publish(site.id);
    const { privateKey } = await w.rest('GET', w.url(site.id, '/publishing/auth'));
    const stranger = await w.stranger();
    const valid = await visitorToken(privateKey, { beta: true });
    const url = (token: string) => w.url(site.id, `/published?visitorToken=${encodeURIComponent(token)}`);
    const inQuery = await t.call('GET', url(valid), { token: stranger.token });
    expect(inQuery.statusCode, inQuery.body).toBe(200);
    expectMatchesSchema('GET', P.published, 200, inQuery.json());
    const inHeader = await publishedBody(w, site.id, stranger.token, { visitor: valid });
    expect(treeOf(inQuery.json())).toEqual(treeOf(inHeader));
    expect(treeOf(inHeader)).toEqual([['General', ['general', 'preview']], ['Beta', ['beta']], { 'Mixed group': [['Always', ['always']]] }]);
    // A token expires by the clock, not by a write: answers opened with one are never served from the cache.
    expect(inQuery.headers['x-cache']).toBeUndefined();
    expect((await t.call('GET', url(valid), { token: stranger.token })).headers['x-cache']).toBeUndefined();
    // Both: the same token is fine; two different tokens are refused.
    const both = await t.call('GET', url(valid), { token: stranger.token, headers: { 'x-visitor-token': valid } });
    expect(both.statusCode, both.body).toBe(200);
    const other = await visitorToken(privateKey, { beta: false });
    expectError(
      await t.call('GET', url(valid), { token: stranger.token, headers: { 'x-visitor-token': other } }),
      400,
      /^visitorToken: the query parameter and the X-Visitor-Token header are different tokens/,
    );
    // A wrong token in the query opens nothing, as in the header.
    expectError(await t.call('GET', url(await visitorToken('not-the-key', { beta: true })), { token: stranger.token }), 404);

    // Both ways are in the document.
    const parameters = (await t.call('GET', '/v1/openapi.json')).json().paths[P.published].get.parameters as Array<{ name: string; in: string }>;
    expect(parameters.filter((parameter) => parameter.in !== 'path')).toEqual([
      expect.objectContaining({ name: 'shareKey', in: 'query' }),
      expect.objectContaining({ name: 'visitorToken', in: 'query', description: expect.stringContaining('X-Visitor-Token') }),
      expect.objectContaining({ name: 'X-Visitor-Token', in: 'header', schema: { type: 'string', minLength: 1, maxLength: 8192 } }),
    ]);
  });

  it("opens a visitor-auth site with a member's docsVisitorClaims from ping, whose claims conditions read", async () => {
    const w = await buildSiteWorld(t);
    const site = await w.site({ title: 'Staff docs', visibility: 'visitor-auth' });
    await w.section(site.id, (await w.space('Everyone')).id, 'Everyone');
    const admins = await w.section(site.id, (await w.space('Admins')).id, 'Admins');
    await w.setSchema(site.id, { role: 'string', email: 'string' });
    await w.updateSection(site.id, admins.id, { condition: 'visitor.claims.role === "admin"' });
    await w.publish(site.id);

    const ping = async (token: string, organizationId = w.organizationId) => {
      const response = await t.call('POST', `/v1/orgs/${organizationId}/ping`, { token });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().docsVisitorClaims as string;
    };
    const adminClaims = await ping(w.token);
    const reader = await w.member('read');
    const readerClaims = await ping(reader.token);
    const stranger = await w.stranger();

    expect(treeOf(await publishedBody(w, site.id, stranger.token, { visitor: adminClaims }))).toEqual([
      ['Everyone', ['everyone']],
      ['Admins', ['admins']],
    ]);
    expect(treeOf(await publishedBody(w, site.id, stranger.token, { visitor: readerClaims }))).toEqual([['Everyone', ['everyone']]]);
    // A member presenting its own claims sees what they open.
    expect(treeOf(await publishedBody(w, site.id, reader.token, { visitor: readerClaims }))).toEqual([['Everyone', ['everyone']]]);
    // Without a token, members see everything.
    expect(treeOf(await publishedBody(w, site.id, reader.token))).toEqual([
      ['Everyone', ['everyone']],
      ['Admins', ['admins']],
    ]);
    // Guests see no content: their ping updates their activity but carries no claims.
    const guest = await w.member(null);
    const guestPing = await t.call('POST', `/v1/orgs/${w.organizationId}/ping`, { token: guest.token });
    expect(guestPing.statusCode).toBe(200);
    expect(guestPing.json()).toEqual({});
    // Claims of another organization's ping open nothing here.
    const other = await buildSiteWorld(t);
    const foreignClaims = await ping(other.token, other.organizationId);
    expectError(await published(w, site.id, stranger.token, { visitor: foreignClaims }), 404);
  });

  it('judges the expiry of visitor tokens by the server clock', async () => {
    const w = await buildSiteWorld(t);
    const site = await w.site({ title: 'Docs', visibility: 'visitor-auth' });
    await w.publish(site.id);
    const stranger = await w.stranger();
    const ping = await t.call('POST', `/v1/orgs/${w.organizationId}/ping`, { token: w.token });
    expect(ping.statusCode, ping.body).toBe(200);
    const claims = ping.json().docsVisitorClaims as string;
    await publishedBody(w, site.id, stranger.token, { visitor: claims });
    // docsVisitorClaims last one hour of server time: two hours later, they open nothing.
    travel(2 * HOUR);
    expectError(await published(w, site.id, stranger.token, { visitor: claims }), 404);
  });

  it('shows each visitor the sections and site spaces whose conditions hold for its claims', async () => {
    const w = await buildSiteWorld(t);
    const site = await adaptiveSite(w, 'visitor-auth');
    await w.publish(site.id);
    const { privateKey } = await w.rest('GET', w.url(site.id, '/publishing/auth'));
    const stranger = await w.stranger();
    const tree = async (claims: Record<string, unknown>, token = stranger.token) =>
      treeOf(await publishedBody(w, site.id, token, { visitor: await visitorToken(privateKey, claims) }));

    expect(await tree({})).toEqual([['General', ['general']], { 'Mixed group': [['Always', ['always']]] }]);
    expect(await tree({ beta: true })).toEqual([['General', ['general', 'preview']], ['Beta', ['beta']], { 'Mixed group': [['Always', ['always']]] }]);
    expect(await tree({ plan: 'enterprise' })).toEqual([
      ['General', ['general']],
      { 'Enterprise group': [['Enterprise', ['enterprise']]] },
      {
        'Mixed group': [
          ['Pro', ['pro']],
          ['Always', ['always']],
        ],
      },
    ]);
    expect(await tree({ plan: 'pro', beta: true })).toEqual([
      ['General', ['general', 'preview']],
      ['Beta', ['beta']],
      {
        'Mixed group': [
          ['Pro', ['pro']],
          ['Always', ['always']],
        ],
      },
    ]);
    // A truthy but non-boolean beta opens the site space (truthiness) but not the section (=== true).
    expect(await tree({ beta: 'yes' })).toEqual([['General', ['general', 'preview']], { 'Mixed group': [['Always', ['always']]] }]);
    // A member presenting a token is shown what the claims open, too.
    expect(await tree({ plan: 'pro' }, w.token)).toEqual([
      ['General', ['general']],
      {
        'Mixed group': [
          ['Pro', ['pro']],
          ['Always', ['always']],
        ],
      },
    ]);

    // Conditions apply on public sites as well, to visitors that present a token.
    await w.patchSite(site.id, { visibility: 'public' });
    expect(await tree({ plan: 'enterprise' })).toEqual([
      ['General', ['general']],
      { 'Enterprise group': [['Enterprise', ['enterprise']]] },
      {
        'Mixed group': [
          ['Pro', ['pro']],
          ['Always', ['always']],
        ],
      },
    ]);
    // Removing a condition shows the entry to everyone.
    const sections = (await w.rest('GET', w.url(site.id, '/sections'))).items as Json[];
    const beta = sections.find((section) => section.title === 'Beta')!;
    await w.updateSection(site.id, beta.id, { condition: null });
    expect(treeOf(await publishedBody(w, site.id, stranger.token))).toEqual([
      ['General', ['general']],
      ['Beta', ['beta']],
      { 'Mixed group': [['Always', ['always']]] },
    ]);
  });
});
