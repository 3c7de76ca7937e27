import { SiteVisibility } from '@gitbook/api';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/domain/access.ts';
import { type TestApp, createTestApp } from '../support/app.ts';
import { DAY, timeTravel } from '../support/clock.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { addMember } from '../support/factories.ts';
import { expectError } from '../support/http.ts';
import { itemIds, listAll } from '../support/listings.ts';
import { type OfficialClient, expectOfficialError, officialClient } from '../support/official.ts';
import { P, adaptiveSchema, buildSiteWorld, organizationSites, shareKeyOf, siteSnapshot } from '../support/sites.ts';

let t: TestApp;
let official: OfficialClient;
beforeAll(async () => {
  t = await createTestApp();
  official = await officialClient(t);
});

const travel = timeTravel(() => t);

type Json = Record<string, any>;

const ADMIN_PERMISSIONS = {
  view: true,
  access: true,
  edit: true,
  create: true,
  admin: true,
  installIntegration: true,
  viewAdaptiveSchema: true,
  editAdaptiveSchema: true,
};

const siteRow = (id: string) => t.database.db.site.findUnique({ where: { id } });

/** Root-level (or section) site spaces of a site in sibling order, as [spaceId, path, isDefault]. */
async function siteSpaceRows(siteId: string) {
  const rows = await t.database.db.siteSpace.findMany({ where: { siteId }, orderBy: [{ position: 'asc' }, { id: 'asc' }] });
  return rows.map((row) => [row.spaceId, row.path, row.isDefault, row.sectionId]);
}

/** Sets creation times so "oldest first" has a known order. */
async function setCreatedAt(siteIds: string[]) {
  for (const [index, id] of siteIds.entries()) {
    await t.database.db.site.update({ where: { id }, data: { createdAt: new Date(Date.UTC(2021, 0, 1 + index)) } });
  }
}

describe('POST /v1/orgs/{organizationId}/sites', () => {
  it('creates an unpublished site showing the given spaces, through the official client', async () => {
    const w = await buildSiteWorld(t);
    const guide = await w.space('Guide');
    const api = await w.space('API reference');
    const { data } = await official(w.admin).orgs.createSite(w.organizationId, {
      title: 'Developer docs',
      visibility: SiteVisibility.Unlisted,
      spaces: [guide.id, api.id],
    });
    expectMatchesSchema('POST', P.sites, 201, data);
    expect(data).toMatchObject({
      object: 'site',
      type: 'basic',
      title: 'Developer docs',
      organization: w.organizationId,
      visibility: 'unlisted',
      published: false,
      siteSpaces: 2,
      adaptiveContent: { enabled: false },
      permissions: ADMIN_PERMISSIONS,
      urls: {
        location: `http://docs-gateway.test/v1/orgs/${w.organizationId}/sites/${data.id}`,
        app: `http://app.docs-gateway.test/o/${w.organizationId}/sites/${data.id}`,
      },
    });
    expect(data.urls.published).toBeUndefined();
    expect(await siteRow(data.id)).toMatchObject({
      organizationId: w.organizationId,
      title: 'Developer docs',
      type: 'basic',
      visibility: 'unlisted',
      published: false,
      hostname: null,
      basename: null,
      proxyOrigin: null,
    });
    // Root-level site spaces, in the order given, the first one the default.
    expect(await siteSpaceRows(data.id)).toEqual([
      [guide.id, 'guide', true, null],
      [api.id, 'api-reference', false, null],
    ]);
    expect((await t.call('GET', `${w.base}/${data.id}`, { token: w.token })).json()).toEqual(data);
  });

  it('answers 201 with a Location, defaults title, type and visibility, and gives repeated titles unique paths', async () => {
    const w = await buildSiteWorld(t);
    const response = await t.call('POST', w.base, { token: w.token, body: {} });
    expect(response.statusCode, response.body).toBe(201);
    const untitled = response.json();
    expectMatchesSchema('POST', P.sites, 201, untitled);
    expect(response.headers.location).toBe(untitled.urls.location);
    expect(untitled).toMatchObject({ title: 'Untitled site', type: 'basic', visibility: 'public', published: false, siteSpaces: 0 });
    expect(await t.database.db.siteSpace.count({ where: { siteId: untitled.id } })).toBe(0);

    const one = await w.space('Guide');
    const two = await w.space('Guide');
    const site = await w.site({ title: 'xy', type: 'premium', visibility: 'share-link', spaces: [one.id, two.id, one.id] });
    expect(site).toMatchObject({ title: 'xy', type: 'premium', visibility: 'share-link', siteSpaces: 2 });
    expect(await siteSpaceRows(site.id)).toEqual([
      [one.id, 'guide', true, null],
      [two.id, 'guide-2', false, null],
    ]);
    const longest = await w.site({ title: 'x'.repeat(128), visibility: 'visitor-auth' });
    expect(longest.title).toBe('x'.repeat(128));
  });

  it('creates a new space for the site with spaces "empty" or "sample"', async () => {
    const w = await buildSiteWorld(t);
    const before = await t.database.db.space.count({ where: { organizationId: w.organizationId } });
    const empty = await w.site({ title: 'Handbook', spaces: 'empty' });
    expectMatchesSchema('POST', P.sites, 201, empty);
    expect(empty.siteSpaces).toBe(1);
    const [row] = await t.database.db.siteSpace.findMany({ where: { siteId: empty.id } });
    expect(row).toMatchObject({ sectionId: null, isDefault: true });
    const space = await t.database.db.space.findUnique({ where: { id: row!.spaceId } });
    expect(space).toMatchObject({ organizationId: w.organizationId, title: 'Handbook', deletedAt: null });

    const sample = await w.site({ title: 'Samples', spaces: 'sample' });
    expect(sample.siteSpaces).toBe(1);
    const [sampleRow] = await t.database.db.siteSpace.findMany({ where: { siteId: sample.id } });
    expect(await t.database.db.space.findUnique({ where: { id: sampleRow!.spaceId } })).toMatchObject({
      organizationId: w.organizationId,
      title: 'Sample space',
    });
    expect(await t.database.db.space.count({ where: { organizationId: w.organizationId } })).toBe(before + 2);
  });

  it('rejects bad input and changes nothing', async () => {
    const w = await buildSiteWorld(t);
    const other = await buildSiteWorld(t);
    const foreign = await other.space('Foreign');
    const deleted = await w.space('Deleted');
    await w.rest('DELETE', `/v1/spaces/${deleted.id}`, undefined, 205);
    const before = await organizationSites(t, w.organizationId);
    for (const [body, message] of [
      [{ title: 'x' }, /^title: /],
      [{ title: 'x'.repeat(129) }, /^title: /],
      [{ title: 42 }, /^title: /],
      [{ type: 'gold' }, /^type: /],
      [{ visibility: 'private' }, /^visibility: /],
      [{ spaces: 'full' }, /^spaces: /],
      [{ spaces: ['spc_missing'] }, 'spaces.0: space "spc_missing" does not exist in this organization'],
      [{ spaces: [foreign.id] }, `spaces.0: space "${foreign.id}" does not exist in this organization`],
      [{ spaces: [deleted.id] }, `spaces.0: space "${deleted.id}" does not exist in this organization`],
      [{ spaces: [''] }, /^spaces\.0: /],
      [{ hostname: 'docs.example.com' }, /unknown field "hostname"/],
    ] as const) {
      expectError(await t.call('POST', w.base, { token: w.token, body }), 400, message);
    }
    expect(await organizationSites(t, w.organizationId)).toEqual(before);
  });

  it('needs the create role, and membership', async () => {
    const w = await buildSiteWorld(t);
    const before = await organizationSites(t, w.organizationId);
    for (const role of ['review', 'edit', 'comment', 'read', null] as const) {
      const user = await w.member(role);
      expectError(await t.call('POST', w.base, { token: user.token, body: { title: 'Mine' } }), 403);
    }
    const stranger = await w.stranger();
    expectError(await t.call('POST', w.base, { token: stranger.token, body: {} }), 404);
    await expectOfficialError(official(stranger).orgs.createSite(w.organizationId, {}), 404);
    expectError(await t.call('POST', w.base, { body: {} }), 401);
    expect(await organizationSites(t, w.organizationId)).toEqual(before);

    const creator = await w.member('create');
    const created = await w.rest('POST', w.base, { title: 'By a creator' }, 201, creator.token);
    expect(created.permissions).toMatchObject({ view: true, create: true, admin: false, edit: false });
    expect(await siteRow(created.id)).toMatchObject({ organizationId: w.organizationId, title: 'By a creator' });
  });
});

describe('GET /v1/orgs/{organizationId}/sites', () => {
  it('lists the sites oldest first, through the official client', async () => {
    const w = await buildSiteWorld(t);
    const c = await w.site({ title: 'Charlie' });
    const a = await w.site({ title: 'Alpha' });
    const b = await w.site({ title: 'Bravo' });
    await setCreatedAt([a.id, b.id, c.id]);
    await buildSiteWorld(t).then((other) => other.site({ title: 'Elsewhere' }));

    const { data } = await official(w.admin).orgs.listSites(w.organizationId);
    expectMatchesSchema('GET', P.sites, 200, data);
    expect(data.count).toBe(3);
    expect(itemIds(data)).toEqual([a.id, b.id, c.id]);
    expect(data.next).toBeUndefined();
    expect(data.items[0]).toMatchObject({ object: 'site', title: 'Alpha', organization: w.organizationId });
  });

  it('filters by space, title and published', async () => {
    const w = await buildSiteWorld(t);
    const shown = await w.space('Shown');
    const docs = await w.site({ title: 'Public Docs', spaces: [shown.id] });
    const internal = await w.site({ title: 'Internal handbook' });
    const api = await w.site({ title: 'API docs', spaces: [shown.id] });
    await setCreatedAt([docs.id, internal.id, api.id]);
    await w.publish(internal.id);
    await w.publish(api.id);

    const list = async (query: string) => {
      const response = await t.call('GET', `${w.base}?${query}`, { token: w.token });
      expect(response.statusCode, response.body).toBe(200);
      expectMatchesSchema('GET', P.sites, 200, response.json());
      return { ids: itemIds(response.json()), count: response.json().count };
    };
    expect(await list(`space=${shown.id}`)).toEqual({ ids: [docs.id, api.id], count: 2 });
    expect(await list('title=DOCS')).toEqual({ ids: [docs.id, api.id], count: 2 });
    expect(await list('published=true')).toEqual({ ids: [internal.id, api.id], count: 2 });
    expect(await list('published=false')).toEqual({ ids: [docs.id], count: 1 });
    expect(await list(`published=true&space=${shown.id}&title=api`)).toEqual({ ids: [api.id], count: 1 });
    expect(await list('space=spc_none')).toEqual({ ids: [], count: 0 });
    // A site showing the space in two sections is listed once.
    await w.section(api.id, shown.id, 'One');
    await w.section(api.id, shown.id, 'Two');
    expect(await t.database.db.siteSpace.count({ where: { siteId: api.id, spaceId: shown.id } })).toBe(2);
    expect(await list(`space=${shown.id}`)).toEqual({ ids: [docs.id, api.id], count: 2 });
    const { data } = await official(w.admin).orgs.listSites(w.organizationId, { published: true, title: 'handbook' });
    expect(itemIds(data)).toEqual([internal.id]);
  });

  it('pages with limit and next.page, and rejects bad query parameters', async () => {
    const w = await buildSiteWorld(t);
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await w.site({ title: `Site ${i}` })).id);
    await setCreatedAt(ids);
    const { seen, counts, rounds } = await listAll(t, w.base, w.token, 2);
    expect(seen).toEqual(ids);
    expect(counts).toEqual([5, 5, 5]);
    expect(rounds).toBe(3);
    expect(itemIds((await t.call('GET', `${w.base}?limit=1000`, { token: w.token })).json())).toEqual(ids);
    expectError(await t.call('GET', `${w.base}?limit=1001`, { token: w.token }), 400, /^limit: /);
    expectError(await t.call('GET', `${w.base}?limit=-1`, { token: w.token }), 400, /^limit: /);
    expectError(await t.call('GET', `${w.base}?published=maybe`, { token: w.token }), 400, /^published: /);
    expectError(await t.call('GET', `${w.base}?page=garbage`, { token: w.token }), 400, /^page: /);
  });

  it('shows sites to non-guest members, to guests those granted, and is a 404 for strangers and a 401 without a token', async () => {
    const w = await buildSiteWorld(t);
    const site = await w.site({ title: 'Docs' });
    const reader = await w.member('read');
    const listed = await w.rest('GET', w.base, undefined, 200, reader.token);
    expect(itemIds(listed)).toEqual([site.id]);
    expect(listed.items[0].permissions).toEqual({
      view: true,
      access: true,
      edit: false,
      create: false,
      admin: false,
      installIntegration: false,
      viewAdaptiveSchema: true,
      editAdaptiveSchema: false,
    });
    const guest = await w.member(null);
    // A guest lists the sites granted to it: none here.
    const asGuest = await t.call('GET', w.base, { token: guest.token });
    expect([asGuest.statusCode, asGuest.json()]).toEqual([200, { items: [], count: 0 }]);
    const stranger = await w.stranger();
    expectError(await t.call('GET', w.base, { token: stranger.token }), 404);
    await expectOfficialError(official(stranger).orgs.listSites(w.organizationId), 404);
    expectError(await t.call('GET', w.base), 401);
  });
});

describe('GET /v1/orgs/{organizationId}/sites/{siteId}', () => {
  it('returns the site through the official client, with what the caller may do', async () => {
    const w = await buildSiteWorld(t);
    const space = await w.space('Guide');
    const site = await w.site({ title: 'Docs', spaces: [space.id] });
    const { data } = await official(w.admin).orgs.getSiteById(w.organizationId, site.id);
    expectMatchesSchema('GET', P.site, 200, data);
    expect(data).toEqual(site);
    expect(data).toMatchObject({ siteSpaces: 1, permissions: ADMIN_PERMISSIONS });

    const creator = await w.member('create');
    const asCreator = await w.rest('GET', w.url(site.id), undefined, 200, creator.token);
    expectMatchesSchema('GET', P.site, 200, asCreator);
    expect(asCreator.permissions).toMatchObject({ view: true, create: true, admin: false, edit: false, editAdaptiveSchema: false });
  });

  it('is a 404 for sites of another organization, guests, strangers and unknown ids, and a 401 without a token', async () => {
    const w = await buildSiteWorld(t);
    const site = await w.site({ title: 'Docs' });
    const other = await buildSiteWorld(t);
    const foreign = await other.site({ title: 'Foreign' });
    // The admin of both organizations still cannot reach a site through the wrong organization.
    await addMember(t.database, other.organizationId, w.admin, 'admin');
    expectError(await t.call('GET', w.url(foreign.id), { token: w.token }), 404, `Site "${foreign.id}" was not found`);
    expectError(await t.call('GET', w.url('site_missing'), { token: w.token }), 404, 'Site "site_missing" was not found');
    const guest = await w.member(null);
    expectError(await t.call('GET', w.url(site.id), { token: guest.token }), 404);
    const stranger = await w.stranger();
    expectError(await t.call('GET', w.url(site.id), { token: stranger.token }), 404);
    await expectOfficialError(official(stranger).orgs.getSiteById(w.organizationId, site.id), 404);
    // Published or not, the site resource is for members.
    await w.publish(site.id);
    expectError(await t.call('GET', w.url(site.id), { token: stranger.token }), 404);
    expectError(await t.call('GET', w.url(site.id)), 401);
  });
});

describe('PATCH /v1/orgs/{organizationId}/sites/{siteId}', () => {
  it('updates title, visibility, basename, proxy and adaptive content through the official client', async () => {
    const w = await buildSiteWorld(t);
    const site = await w.site({ title: 'Docs' });
    const { data } = await official(w.admin).orgs.updateSiteById(w.organizationId, site.id, {
      title: 'Developer portal',
      visibility: SiteVisibility.VisitorAuth,
      basename: 'api',
      proxy: 'example.com/docs',
      adaptiveContent: { enabled: true },
    });
    expectMatchesSchema('PATCH', P.site, 200, data);
    expect(data).toMatchObject({
      title: 'Developer portal',
      visibility: SiteVisibility.VisitorAuth,
      basename: 'api',
      proxy: { origin: 'example.com/docs' },
      adaptiveContent: { enabled: true },
    });
    expect(await siteRow(site.id)).toMatchObject({
      title: 'Developer portal',
      searchTitle: 'developer portal',
      visibility: SiteVisibility.VisitorAuth,
      basename: 'api',
      proxyOrigin: 'example.com/docs',
      adaptiveContentEnabled: true,
    });
    expect((await t.call('GET', w.url(site.id), { token: w.token })).json()).toEqual(data);
    // The title filter follows the new title.
    expect(itemIds((await t.call('GET', `${w.base}?title=portal`, { token: w.token })).json())).toEqual([site.id]);
  });

  it('sets a custom hostname, removes hostname, basename and proxy with null, and leaves unsent fields alone', async () => {
    const w = await buildSiteWorld(t);
    const site = await w.site({ title: 'Docs', visibility: 'unlisted' });
    const hostname = `docs.${w.organizationId.toLowerCase().replace(/[^a-z0-9]/g, '')}.example.com`;
    const set = await w.patchSite(site.id, { hostname, basename: 'v2', proxy: 'example.org/help/center' });
    expectMatchesSchema('PATCH', P.site, 200, set);
    expect(set).toMatchObject({ hostname, basename: 'v2', proxy: { origin: 'example.org/help/center' }, visibility: 'unlisted' });
    await w.publish(site.id);
    expect((await t.call('GET', w.url(site.id), { token: w.token })).json().urls.published).toBe(`https://${hostname}/v2`);

    const titleOnly = await w.patchSite(site.id, { title: 'Renamed' });
    expect(titleOnly).toMatchObject({ title: 'Renamed', hostname, basename: 'v2', visibility: 'unlisted' });

    const cleared = await w.patchSite(site.id, { hostname: null, basename: null, proxy: null });
    expectMatchesSchema('PATCH', P.site, 200, cleared);
    expect(cleared.hostname).toBeUndefined();
    expect(cleared.basename).toBeUndefined();
    expect(cleared.proxy).toBeUndefined();
    expect(cleared.urls.published).toBe(`http://app.docs-gateway.test/sites/${site.id}`);
    expect(await siteRow(site.id)).toMatchObject({ title: 'Renamed', hostname: null, basename: null, proxyOrigin: null });

    // Bounds: title 2 and 128, basename 1 and 100.
    expect(await w.patchSite(site.id, { title: 'ab', basename: 'b' })).toMatchObject({ title: 'ab', basename: 'b' });
    const long = await w.patchSite(site.id, { title: 't'.repeat(128), basename: 'b'.repeat(100) });
    expect(long).toMatchObject({ title: 't'.repeat(128), basename: 'b'.repeat(100) });
  });

  it('rejects bad input and changes nothing', async () => {
    const w = await buildSiteWorld(t);
    const space = await w.space('Guide');
    const site = await w.site({ title: 'Docs', spaces: [space.id] });
    const other = await w.site({ title: 'Other', spaces: [space.id] });
    const [otherSiteSpace] = (await w.rest('GET', w.url(other.id, '/site-spaces'))).items;
    const before = await siteSnapshot(t, site.id);
    for (const [body, message] of [
      [{ title: 'x' }, /^title: /],
      [{ title: 'x'.repeat(129) }, /^title: /],
      [{ visibility: 'private' }, /^visibility: /],
      [{ hostname: 'Docs.Example.com' }, /^hostname: /],
      [{ hostname: 'example.com' }, /^hostname: /],
      [{ hostname: 'docs..example.com' }, /^hostname: /],
      [{ hostname: '-docs.example.com' }, /^hostname: /],
      [{ hostname: `${'a'.repeat(300)}.${'b'.repeat(300)}.com` }, /^hostname: /],
      [{ basename: '' }, /^basename: /],
      [{ basename: 'b'.repeat(101) }, /^basename: /],
      [{ proxy: 'https://example.com/docs' }, /^proxy: /],
      [{ proxy: 'example.com' }, /^proxy: /],
      [{ proxy: 'example/docs' }, /^proxy: /],
      [{ proxy: `example.com/${'d'.repeat(510)}` }, /^proxy: /],
      [{ adaptiveContent: { enabled: 'yes' } }, /^adaptiveContent\.enabled: /],
      [{ adaptiveContent: { enabled: true, mode: 'x' } }, /unknown field "mode"/],
      [{ defaultSiteSection: 'sec_missing' }, 'defaultSiteSection: section "sec_missing" is not a section of this site'],
      [{ defaultSiteSpace: 'ss_missing' }, /^defaultSiteSpace: site space "ss_missing" is not in the root level of this site/],
      [{ defaultSiteSpace: otherSiteSpace.id }, /^defaultSiteSpace: /],
      [{ defaultLevel: 'read' }, /unknown field "defaultLevel"/],
      [{ title: 'Fine', color: 'red' }, /unknown field "color"/],
    ] as const) {
      expectError(await t.call('PATCH', w.url(site.id), { token: w.token, body }), 400, message);
    }
    expect(await siteSnapshot(t, site.id)).toEqual(before);
  });

  it('is a 409 for a hostname another site has, and changes nothing', async () => {
    const w = await buildSiteWorld(t);
    const first = await w.site({ title: 'First' });
    const second = await w.site({ title: 'Second' });
    const hostname = `help.${w.organizationId.toLowerCase().replace(/[^a-z0-9]/g, '')}.example.com`;
    await w.patchSite(first.id, { hostname });
    const before = await siteSnapshot(t, second.id);
    expectError(await t.call('PATCH', w.url(second.id), { token: w.token, body: { hostname, title: 'Taken' } }), 409, /^hostname: /);
    expect(await siteSnapshot(t, second.id)).toEqual(before);
    // Its own hostname again is fine.
    expect(await w.patchSite(first.id, { hostname })).toMatchObject({ hostname });
  });

  it('sets the default site space of a site without sections', async () => {
    const w = await buildSiteWorld(t);
    const a = await w.space('A');
    const b = await w.space('B');
    const site = await w.site({ title: 'Docs', spaces: [a.id, b.id] });
    const { items } = await w.rest('GET', w.url(site.id, '/site-spaces'));
    const second = items.find((item: Json) => item.space.id === b.id);
    await official(w.admin).orgs.updateSiteById(w.organizationId, site.id, { defaultSiteSpace: second.id });
    const listed = await w.rest('GET', w.url(site.id, '/site-spaces?default=true'));
    expect(itemIds(listed)).toEqual([second.id]);
    expect(await siteSpaceRows(site.id)).toEqual([
      [a.id, 'a', false, null],
      [b.id, 'b', true, null],
    ]);
  });

  it('sets the default section, and the default site space within the default section', async () => {
    const w = await buildSiteWorld(t);
    const [a, b, c] = [await w.space('A'), await w.space('B'), await w.space('C')];
    const site = await w.site({ title: 'Docs' });
    const first = await w.section(site.id, a.id, 'First');
    const second = await w.section(site.id, b.id, 'Second');
    const extra = await w.siteSpace(site.id, c.id, second.id);
    const inFirst = first.siteSpaces[0];

    const changed = await official(w.admin).orgs.updateSiteById(w.organizationId, site.id, { defaultSiteSection: second.id });
    expectMatchesSchema('PATCH', P.site, 200, changed.data);
    const defaults = await t.database.db.siteSection.findMany({ where: { siteId: site.id, isDefault: true } });
    expect(defaults.map((row) => row.id)).toEqual([second.id]);

    // A site space of a section that is no longer the default one is refused.
    const before = await siteSnapshot(t, site.id);
    expectError(
      await t.call('PATCH', w.url(site.id), { token: w.token, body: { defaultSiteSpace: inFirst.id } }),
      400,
      `defaultSiteSpace: site space "${inFirst.id}" is not in the default section of this site`,
    );
    expect(await siteSnapshot(t, site.id)).toEqual(before);

    await w.patchSite(site.id, { defaultSiteSpace: extra.id });
    const rows = await t.database.db.siteSpace.findMany({ where: { siteId: site.id }, orderBy: { id: 'asc' } });
    expect(Object.fromEntries(rows.map((row) => [row.id, row.isDefault]))).toEqual({
      [inFirst.id]: true,
      [second.siteSpaces[0].id]: false,
      [extra.id]: true,
    });
  });

  it('needs the admin role, and changes nothing otherwise', async () => {
    const w = await buildSiteWorld(t);
    const site = await w.site({ title: 'Docs' });
    const before = await siteSnapshot(t, site.id);
    for (const role of ['create', 'review', 'edit', 'comment', 'read'] as Role[]) {
      const user = await w.member(role);
      expectError(await t.call('PATCH', w.url(site.id), { token: user.token, body: { title: 'Mine' } }), 403);
    }
    const guest = await w.member(null);
    expectError(await t.call('PATCH', w.url(site.id), { token: guest.token, body: { title: 'Mine' } }), 404);
    const stranger = await w.stranger();
    expectError(await t.call('PATCH', w.url(site.id), { token: stranger.token, body: { title: 'Mine' } }), 404);
    await expectOfficialError(official(stranger).orgs.updateSiteById(w.organizationId, site.id, { title: 'Mine' }), 404);
    expectError(await t.call('PATCH', w.url(site.id), { body: { title: 'Mine' } }), 401);
    expect(await siteSnapshot(t, site.id)).toEqual(before);
  });
});

describe('DELETE /v1/orgs/{organizationId}/sites/{siteId}', () => {
  it('answers 205 and removes the site with its structure and share links, keeping the spaces', async () => {
    const w = await buildSiteWorld(t);
    const [a, b] = [await w.space('A'), await w.space('B')];
    const site = await w.site({ title: 'Docs', spaces: [a.id] });
    const section = await w.section(site.id, a.id);
    const other = await w.section(site.id, b.id);
    await w.group(site.id, 'Group', [other.id]);
    await w.shareLink(site.id);
    const kept = await w.site({ title: 'Kept', spaces: [a.id] });
    const keptBefore = await siteSnapshot(t, kept.id);

    const response = await official(w.admin).orgs.deleteSiteById(w.organizationId, site.id);
    expect(response.status).toBe(205);
    expect(await siteSnapshot(t, site.id)).toEqual({ site: null, sections: [], groups: [], siteSpaces: [], shareLinks: [] });
    expect(await t.database.db.siteSection.findUnique({ where: { id: section.id } })).toBeNull();
    expect(await t.database.db.space.count({ where: { id: { in: [a.id, b.id] }, deletedAt: null } })).toBe(2);
    expect(await siteSnapshot(t, kept.id)).toEqual(keptBefore);
    expectError(await t.call('GET', w.url(site.id), { token: w.token }), 404);
    expect(itemIds(await w.rest('GET', w.base))).toEqual([kept.id]);
    const raw = await t.call('DELETE', w.url(kept.id), { token: w.token });
    expect(raw.statusCode).toBe(205);
    expect(raw.body).toBe('');
    expectError(await t.call('DELETE', w.url(kept.id), { token: w.token }), 404);
  });

  it('clears the site as the default content of its organization', async () => {
    const w = await buildSiteWorld(t);
    const site = await w.site({ title: 'Home' });
    const orgUrl = `/v1/orgs/${w.organizationId}`;
    const set = await w.rest('PATCH', orgUrl, { defaultContent: { type: 'site', site: site.id } });
    expectMatchesSchema('PATCH', '/v1/orgs/{organizationId}', 200, set);
    expect(set.defaultContent).toEqual({ type: 'site', site: site.id });
    // Another organization's default is not touched.
    const other = await buildSiteWorld(t);
    const otherSite = await other.site({ title: 'Other home' });
    await other.rest('PATCH', `/v1/orgs/${other.organizationId}`, { defaultContent: { type: 'site', site: otherSite.id } });
    // A site of another organization cannot be the default.
    expectError(
      await t.call('PATCH', orgUrl, { token: w.token, body: { defaultContent: { type: 'site', site: otherSite.id } } }),
      400,
      /^defaultContent\.site: /,
    );

    await w.rest('DELETE', w.url(site.id), undefined, 205);
    const org = await w.rest('GET', orgUrl);
    expect(org.defaultContent).toBeUndefined();
    expect(await t.database.db.organization.findUnique({ where: { id: w.organizationId } })).toMatchObject({ defaultContentSiteId: null });
    expect((await other.rest('GET', `/v1/orgs/${other.organizationId}`)).defaultContent).toEqual({ type: 'site', site: otherSite.id });
  });

  it('needs the admin role, and changes nothing otherwise', async () => {
    const w = await buildSiteWorld(t);
    const space = await w.space('A');
    const site = await w.site({ title: 'Docs', spaces: [space.id] });
    const before = await siteSnapshot(t, site.id);
    for (const role of ['create', 'edit', 'read'] as Role[]) {
      const user = await w.member(role);
      expectError(await t.call('DELETE', w.url(site.id), { token: user.token }), 403);
    }
    const guest = await w.member(null);
    expectError(await t.call('DELETE', w.url(site.id), { token: guest.token }), 404);
    const stranger = await w.stranger();
    expectError(await t.call('DELETE', w.url(site.id), { token: stranger.token }), 404);
    await expectOfficialError(official(stranger).orgs.deleteSiteById(w.organizationId, site.id), 404);
    expectError(await t.call('DELETE', w.url(site.id)), 401);
    const other = await buildSiteWorld(t);
    expectError(await t.call('DELETE', other.url(site.id), { token: other.token }), 404);
    expect(await siteSnapshot(t, site.id)).toEqual(before);
  });
});

describe('POST /v1/orgs/{organizationId}/sites/{siteId}/publish and /unpublish', () => {
  it('publishes and unpublishes through the official client', async () => {
    const w = await buildSiteWorld(t);
    const site = await w.site({ title: 'Docs' });
    const published = await official(w.admin).orgs.publishSite(w.organizationId, site.id);
    expect(published.status).toBe(200);
    expectMatchesSchema('POST', P.publish, 200, published.data);
    expect(published.data).toMatchObject({ id: site.id, published: true, urls: { published: `http://app.docs-gateway.test/sites/${site.id}` } });
    expect(await siteRow(site.id)).toMatchObject({ published: true });
    // Publishing again keeps it published.
    expect((await w.publish(site.id)).published).toBe(true);
    expect(itemIds(await w.rest('GET', `${w.base}?published=true`))).toEqual([site.id]);

    const unpublished = await official(w.admin).orgs.unpublishSite(w.organizationId, site.id);
    expectMatchesSchema('POST', P.unpublish, 200, unpublished.data);
    expect(unpublished.data).toMatchObject({ id: site.id, published: false });
    expect(unpublished.data.urls.published).toBeUndefined();
    expect(await siteRow(site.id)).toMatchObject({ published: false });
    expect(itemIds(await w.rest('GET', `${w.base}?published=true`))).toEqual([]);
  });

  it('needs the admin role, and changes nothing otherwise', async () => {
    const w = await buildSiteWorld(t);
    const draft = await w.site({ title: 'Draft' });
    const live = await w.site({ title: 'Live' });
    await w.publish(live.id);
    const creator = await w.member('create');
    const guest = await w.member(null);
    const stranger = await w.stranger();
    expectError(await t.call('POST', w.url(draft.id, '/publish'), { token: creator.token }), 403);
    expectError(await t.call('POST', w.url(live.id, '/unpublish'), { token: creator.token }), 403);
    expectError(await t.call('POST', w.url(draft.id, '/publish'), { token: guest.token }), 404);
    expectError(await t.call('POST', w.url(live.id, '/unpublish'), { token: stranger.token }), 404);
    await expectOfficialError(official(stranger).orgs.publishSite(w.organizationId, draft.id), 404);
    expectError(await t.call('POST', w.url(draft.id, '/publish')), 401);
    expectError(await t.call('POST', w.url('site_missing', '/publish'), { token: w.token }), 404);
    expect(await siteRow(draft.id)).toMatchObject({ published: false });
    expect(await siteRow(live.id)).toMatchObject({ published: true });
  });
});

describe('GET and PUT /v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema', () => {
  it('starts with an empty schema that non-guest members can read, through the official client', async () => {
    const w = await buildSiteWorld(t);
    const site = await w.site({ title: 'Docs' });
    const { data } = await official(w.admin).orgs.getSiteAdaptiveSchema(w.organizationId, site.id);
    expectMatchesSchema('GET', P.adaptiveSchema, 200, data);
    expect(data).toEqual({
      object: 'site-adaptive-schema',
      jsonSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: {}, additionalProperties: false },
      updatedAt: site.createdAt,
    });
    const reader = await w.member('read');
    expect(await w.rest('GET', w.url(site.id, '/adaptive-schema'), undefined, 200, reader.token)).toEqual(data);
    const guest = await w.member(null);
    expectError(await t.call('GET', w.url(site.id, '/adaptive-schema'), { token: guest.token }), 404);
    const stranger = await w.stranger();
    expectError(await t.call('GET', w.url(site.id, '/adaptive-schema'), { token: stranger.token }), 404);
    expectError(await t.call('GET', w.url(site.id, '/adaptive-schema')), 401);
  });

  it('replaces the schema through the official client, stamped with the server time', async () => {
    const w = await buildSiteWorld(t);
    const site = await w.site({ title: 'Docs' });
    travel(3 * DAY);
    const jsonSchema = {
      type: 'object' as const,
      properties: {
        beta: { type: 'boolean' as const, description: 'Beta tester' },
        plan: { type: 'string' as const, description: 'Plan', enum: ['free', 'enterprise'] },
        seats: { type: 'number' as const, description: 'Seats' },
        groups: { type: 'array' as const, description: 'Groups', items: { type: 'string' as const, description: 'A group' } },
        company: {
          type: 'object' as const,
          description: 'Company',
          properties: { name: { type: 'string' as const, description: 'Name' } },
          additionalProperties: false as const,
        },
      },
      additionalProperties: false as const,
    };
    const { data } = await official(w.admin).orgs.updateSiteAdaptiveSchema(w.organizationId, site.id, { jsonSchema: jsonSchema as never });
    expectMatchesSchema('PUT', P.adaptiveSchema, 200, data);
    expect(data.object).toBe('site-adaptive-schema');
    expect(data.jsonSchema).toEqual({ $schema: 'http://json-schema.org/draft-07/schema#', ...jsonSchema });
    expect(Date.parse(data.updatedAt) - Date.parse(site.createdAt)).toBeGreaterThan(2 * DAY);
    expect(await w.rest('GET', w.url(site.id, '/adaptive-schema'))).toEqual(data);
    const row = await siteRow(site.id);
    expect(row!.adaptiveSchema).toEqual(data.jsonSchema);
    expect(row!.adaptiveSchemaUpdatedAt!.toISOString()).toBe(data.updatedAt);

    // The contract lists `$id` among the fields of the schema: it is kept.
    const withId = { $id: 'https://example.com/visitor.json', ...adaptiveSchema({ beta: 'boolean' }) };
    const replaced = await w.rest('PUT', w.url(site.id, '/adaptive-schema'), { jsonSchema: withId });
    expectMatchesSchema('PUT', P.adaptiveSchema, 200, replaced);
    expect(replaced.jsonSchema).toEqual({ $schema: 'http://json-schema.org/draft-07/schema#', ...withId });
  });

  it('rejects schemas that are not valid draft-07 JSON Schemas, changing nothing', async () => {
    const w = await buildSiteWorld(t);
    const site = await w.site({ title: 'Docs' });
    await w.setSchema(site.id, { beta: 'boolean' });
    const before = await siteSnapshot(t, site.id);
    const valid = adaptiveSchema({ beta: 'boolean' });
    for (const body of [
      { jsonSchema: { ...valid, properties: { beta: { type: 'bool', description: 'x' } } } },
      { jsonSchema: { ...valid, type: 'objekt' } },
      { jsonSchema: { ...valid, required: 'beta' } },
    ]) {
      expectError(await t.call('PUT', w.url(site.id, '/adaptive-schema'), { token: w.token, body }), 400, /^jsonSchema: is not a valid JSON Schema/);
    }
    for (const [body, message] of [
      [{ jsonSchema: 'object' }, /^jsonSchema: /],
      [{}, 'jsonSchema: is required'],
      [{ jsonSchema: valid, extra: true }, /unknown field "extra"/],
    ] as const) {
      expectError(await t.call('PUT', w.url(site.id, '/adaptive-schema'), { token: w.token, body }), 400, message);
    }
    expect(await siteSnapshot(t, site.id)).toEqual(before);
  });

  it('answers 400, not 500, to a schema naming another meta-schema in $schema', async () => {
    const w = await buildSiteWorld(t);
    const site = await w.site({ title: 'Docs' });
    const before = await siteSnapshot(t, site.id);
    for (const $schema of ['https://json-schema.org/draft/2020-12/schema', 'http://example.com/unknown-meta-schema#']) {
      const body = { jsonSchema: { $schema, ...adaptiveSchema({ beta: 'boolean' }) } };
      expectError(await t.call('PUT', w.url(site.id, '/adaptive-schema'), { token: w.token, body }), 400, /^jsonSchema/);
    }
    expect(await siteSnapshot(t, site.id)).toEqual(before);
  });

  it('rejects shapes of visitor attributes it does not accept, naming the field within jsonSchema, changing nothing', async () => {
    const w = await buildSiteWorld(t);
    const site = await w.site({ title: 'Docs' });
    await w.setSchema(site.id, { beta: 'boolean' });
    const before = await siteSnapshot(t, site.id);
    const valid = adaptiveSchema({ beta: 'boolean' });
    for (const [body, message] of [
      [{ jsonSchema: { ...valid, type: 'array' } }, /^jsonSchema\.type: /],
      [{ jsonSchema: { ...valid, additionalProperties: true } }, /^jsonSchema\.additionalProperties: /],
      [{ jsonSchema: { type: 'object', properties: {} } }, 'jsonSchema.additionalProperties: is required'],
      [{ jsonSchema: { ...valid, properties: { '1st': { type: 'boolean', description: 'x' } } } }, /^jsonSchema\.properties/],
      [{ jsonSchema: { ...valid, properties: { beta: { type: 'boolean' } } } }, /^jsonSchema\.properties\.beta/],
    ] as const) {
      expectError(await t.call('PUT', w.url(site.id, '/adaptive-schema'), { token: w.token, body }), 400, message);
    }
    expect(await siteSnapshot(t, site.id)).toEqual(before);
  });

  it('needs the admin role to replace the schema', async () => {
    const w = await buildSiteWorld(t);
    const site = await w.site({ title: 'Docs' });
    const before = await siteSnapshot(t, site.id);
    const body = { jsonSchema: adaptiveSchema({ beta: 'boolean' }) };
    for (const role of ['create', 'edit', 'read'] as Role[]) {
      const user = await w.member(role);
      expectError(await t.call('PUT', w.url(site.id, '/adaptive-schema'), { token: user.token, body }), 403);
    }
    const guest = await w.member(null);
    expectError(await t.call('PUT', w.url(site.id, '/adaptive-schema'), { token: guest.token, body }), 404);
    const stranger = await w.stranger();
    expectError(await t.call('PUT', w.url(site.id, '/adaptive-schema'), { token: stranger.token, body }), 404);
    expectError(await t.call('PUT', w.url(site.id, '/adaptive-schema'), { body }), 401);
    expect(await siteSnapshot(t, site.id)).toEqual(before);
  });
});

describe('GET /v1/orgs/{organizationId}/sites/{siteId}/publishing/auth', () => {
  it("gives admins the site's visitor token key, through the official client", async () => {
    const w = await buildSiteWorld(t);
    const site = await w.site({ title: 'Docs', visibility: 'visitor-auth' });
    const { data } = await official(w.admin).orgs.getSitePublishingAuthById(w.organizationId, site.id);
    expectMatchesSchema('GET', P.publishingAuth, 200, data);
    const row = await siteRow(site.id);
    expect(data).toEqual({ object: 'publishing-auth', backend: 'custom', privateKey: row!.visitorAuthSecret });
    const other = await w.site({ title: 'Other' });
    expect((await w.rest('GET', w.url(other.id, '/publishing/auth'))).privateKey).not.toBe(data.privateKey);
  });

  it('is a 403 for other members, a 404 for guests and strangers, and a 401 without a token', async () => {
    const w = await buildSiteWorld(t);
    const site = await w.site({ title: 'Docs', visibility: 'visitor-auth' });
    for (const role of ['create', 'edit', 'read'] as Role[]) {
      const user = await w.member(role);
      expectError(await t.call('GET', w.url(site.id, '/publishing/auth'), { token: user.token }), 403);
    }
    expectError(await t.call('GET', w.url(site.id, '/publishing/auth'), { token: (await w.member(null)).token }), 404);
    const stranger = await w.stranger();
    expectError(await t.call('GET', w.url(site.id, '/publishing/auth'), { token: stranger.token }), 404);
    await expectOfficialError(official(stranger).orgs.getSitePublishingAuthById(w.organizationId, site.id), 404);
    expectError(await t.call('GET', w.url(site.id, '/publishing/auth')), 401);
  });
});

describe('share links: /v1/orgs/{organizationId}/sites/{siteId}/share-links', () => {
  it('creates, lists, renames, deactivates and deletes share links through the official client', async () => {
    const w = await buildSiteWorld(t);
    const site = await w.site({ title: 'Docs', visibility: 'share-link' });
    const api = official(w.admin).orgs;
    const created = await api.createSiteShareLink(w.organizationId, site.id, { name: 'Reviewers' });
    expect(created.status).toBe(201);
    expectMatchesSchema('POST', P.shareLinks, 201, created.data);
    expect(created.data).toMatchObject({ object: 'share-link', name: 'Reviewers', active: true });
    const row = await t.database.db.shareLink.findUnique({ where: { id: created.data.id } });
    expect(row).toMatchObject({ siteId: site.id, name: 'Reviewers', active: true });
    expect(shareKeyOf(created.data)).toBe(row!.key);
    expect(created.data.urls.published!.startsWith(`http://app.docs-gateway.test/sites/${site.id}?shareKey=`)).toBe(true);
    const second = await w.shareLink(site.id, 'x'.repeat(50));
    expect(shareKeyOf(second)).not.toBe(row!.key);

    const listed = await api.listSiteShareLinks(w.organizationId, site.id);
    expectMatchesSchema('GET', P.shareLinks, 200, listed.data);
    expect(listed.data.count).toBe(2);
    expect(listed.data.items.map((link) => link.id).sort()).toEqual([created.data.id, second.id].sort());

    const renamed = await api.updateSiteShareLinkById(w.organizationId, site.id, created.data.id, { name: 'Auditors' });
    expectMatchesSchema('PATCH', P.shareLink, 200, renamed.data);
    expect(renamed.data).toMatchObject({ id: created.data.id, name: 'Auditors', active: true });
    const off = await api.updateSiteShareLinkById(w.organizationId, site.id, created.data.id, { active: false });
    expect(off.data).toMatchObject({ name: 'Auditors', active: false });
    expect(await t.database.db.shareLink.findUnique({ where: { id: created.data.id } })).toMatchObject({
      name: 'Auditors',
      active: false,
      key: row!.key,
    });

    const deleted = await api.deleteSiteShareLinkById(w.organizationId, site.id, created.data.id);
    expect(deleted.status).toBe(205);
    expect(await t.database.db.shareLink.findUnique({ where: { id: created.data.id } })).toBeNull();
    expect(itemIds(await w.rest('GET', w.url(site.id, '/share-links')))).toEqual([second.id]);
    expectError(await t.call('DELETE', w.url(site.id, `/share-links/${created.data.id}`), { token: w.token }), 404);
  });

  it('rejects bad input and unknown links, changing nothing', async () => {
    const w = await buildSiteWorld(t);
    const site = await w.site({ title: 'Docs', visibility: 'share-link' });
    const other = await w.site({ title: 'Other', visibility: 'share-link' });
    const link = await w.shareLink(site.id);
    const foreign = await w.shareLink(other.id);
    const before = await siteSnapshot(t, site.id);
    const links = w.url(site.id, '/share-links');
    for (const [body, message] of [
      [{ name: 'x'.repeat(51) }, /^name: /],
      [{}, 'name: is required'],
      [{ name: 'ok', active: false }, /unknown field "active"/],
    ] as const) {
      expectError(await t.call('POST', links, { token: w.token, body }), 400, message);
    }
    for (const [body, message] of [
      [{}, /^name: /],
      [{ active: 'no' }, /^active: /],
      [{ name: 'x'.repeat(51) }, /^name: /],
      [{ key: 'mine' }, /unknown field "key"/],
    ] as const) {
      expectError(await t.call('PATCH', `${links}/${link.id}`, { token: w.token, body }), 400, message);
    }
    expectError(await t.call('PATCH', `${links}/${foreign.id}`, { token: w.token, body: { active: false } }), 404);
    expectError(await t.call('PATCH', `${links}/sl_missing`, { token: w.token, body: { active: false } }), 404);
    expectError(await t.call('DELETE', `${links}/${foreign.id}`, { token: w.token }), 404);
    expectError(await t.call('GET', `${links}?limit=1001`, { token: w.token }), 400, /^limit: /);
    expect(await siteSnapshot(t, site.id)).toEqual(before);
    expect(await t.database.db.shareLink.findUnique({ where: { id: foreign.id } })).toMatchObject({ active: true });
  });

  it('is for admins only', async () => {
    const w = await buildSiteWorld(t);
    const site = await w.site({ title: 'Docs', visibility: 'share-link' });
    const link = await w.shareLink(site.id);
    const before = await siteSnapshot(t, site.id);
    const links = w.url(site.id, '/share-links');
    const calls = [
      ['GET', links, undefined],
      ['POST', links, { name: 'Mine' }],
      ['PATCH', `${links}/${link.id}`, { active: false }],
      ['DELETE', `${links}/${link.id}`, undefined],
    ] as const;
    const creator = await w.member('create');
    const reader = await w.member('read');
    const guest = await w.member(null);
    const stranger = await w.stranger();
    for (const [method, url, body] of calls) {
      const options = body !== undefined ? { body } : {};
      expectError(await t.call(method, url, { token: creator.token, ...options }), 403);
      expectError(await t.call(method, url, { token: reader.token, ...options }), 403);
      expectError(await t.call(method, url, { token: guest.token, ...options }), 404);
      expectError(await t.call(method, url, { token: stranger.token, ...options }), 404);
      expectError(await t.call(method, url, options), 401);
    }
    await expectOfficialError(official(stranger).orgs.listSiteShareLinks(w.organizationId, site.id), 404);
    expect(await siteSnapshot(t, site.id)).toEqual(before);
  });
});
