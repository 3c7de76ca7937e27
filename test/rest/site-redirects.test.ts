import { SiteRedirectOrderBy } from '@gitbook/api';
import { beforeAll, describe, expect, it } from 'vitest';
import { siteByHostname } from '../../src/domain/sites/hostnames.ts';
import { siteRedirectFor } from '../../src/domain/sites/redirects.ts';
import { createContext } from '../../src/context.ts';
import { TEST_URLS, type TestApp, createTestApp } from '../support/app.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { expectError } from '../support/http.ts';
import { type OfficialClient, expectOfficialError, officialClient } from '../support/official.ts';
import { type SiteWorld, buildSiteWorld } from '../support/sites.ts';

let t: TestApp;
let official: OfficialClient;
beforeAll(async () => {
  t = await createTestApp();
  official = await officialClient(t);
});

type Json = Record<string, any>;

const REDIRECTS = '/v1/orgs/{organizationId}/sites/{siteId}/redirects';
const REDIRECT = '/v1/orgs/{organizationId}/sites/{siteId}/redirects/{siteRedirectId}';
const BY_SOURCE = '/v1/orgs/{organizationId}/sites/{siteId}/redirect';
const HOSTNAME = '/v1/custom-hostnames/{hostname}';

/** A request context without a viewer (for domain functions other features call). */
const domainContext = async () => createContext({ database: t.database, viewer: null, clock: t.clock, urls: TEST_URLS });

/** A space whose live content has these pages (inserted and merged through a change request), and the live page ids by title. */
async function spaceWithPages(w: SiteWorld, title: string, pages: Array<{ title: string; into?: string }>) {
  const space = await w.space(title);
  await editLive(
    w,
    space.id,
    pages.map((page) => ({ operation: 'insert_page', title: page.title, document: { markdown: `# ${page.title}\n\nText.\n` } })),
  );
  return space;
}

/** Applies changes to a space's live content through a merged change request. */
async function editLive(w: SiteWorld, spaceId: string, changes: Json[]) {
  const changeRequest = await w.rest('POST', `/v1/spaces/${spaceId}/change-requests`, {}, 201);
  await w.rest('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/content`, { changes });
  await w.rest('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/merge`);
}

async function livePages(w: SiteWorld, spaceId: string): Promise<Json[]> {
  const { pages } = await w.rest('GET', `/v1/spaces/${spaceId}/content`);
  const flat: Json[] = [];
  const walk = (list: Json[]) => {
    for (const page of list) {
      flat.push(page);
      walk(page.pages ?? []);
    }
  };
  walk(pages);
  return flat;
}

/** A site showing a space with pages "Intro" and "Guide" at its root level. */
async function redirectWorld() {
  const w = await buildSiteWorld(t);
  const space = await spaceWithPages(w, 'Docs', [{ title: 'Intro' }, { title: 'Guide' }]);
  const site = await w.site({ title: 'Docs site', spaces: [space.id] });
  const { items } = await w.rest('GET', w.url(site.id, '/site-spaces'));
  const siteSpace = items[0];
  const pages = await livePages(w, space.id);
  const page = (title: string) => pages.find((each) => each.title === title)!;
  return { w, space, site, siteSpace, intro: page('Intro'), guide: page('Guide') };
}

describe('site redirects', () => {
  it('creates, lists, updates and deletes redirects through the official client, in the official shapes', async () => {
    const { w, site, siteSpace, guide, space } = await redirectWorld();
    const api = official(w.admin).orgs;
    const created = await api.createSiteRedirect(w.organizationId, site.id, {
      source: '/old-guide',
      destination: { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: guide.id },
      permanent: true,
    });
    expect(created.status).toBe(201);
    expectMatchesSchema('POST', REDIRECTS, 201, created.data);
    expect(created.data).toMatchObject({
      object: 'site-redirect',
      source: '/old-guide',
      draft: false,
      permanent: true,
      captureWildcard: false,
      destination: { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: guide.id },
    });
    expect(created.data.updatedAt).toBeUndefined();
    expect(await t.database.db.siteRedirect.findUnique({ where: { id: created.data.id } })).toMatchObject({
      siteId: site.id,
      source: '/old-guide',
      edited: false,
    });

    // A path destination is the page at that path of a space the site shows.
    const byPath = await api.createSiteRedirect(w.organizationId, site.id, {
      source: '/docs/*',
      destination: { kind: 'path', spaceId: space.id, path: 'intro' },
      draft: true,
    });
    expect(byPath.data.destination).toMatchObject({ kind: 'site-page', siteSpaceId: siteSpace.id });
    const external = await api.createSiteRedirect(w.organizationId, site.id, {
      source: '/blog*',
      destination: { kind: 'external', url: 'https://blog.example.com' },
      captureWildcard: true,
    });

    const live = await api.listSiteRedirects(w.organizationId, site.id);
    expectMatchesSchema('GET', REDIRECTS, 200, live.data);
    expect(live.data.items.map((item) => item.source)).toEqual(['/blog*', '/old-guide']);
    const drafts = await api.listSiteRedirects(w.organizationId, site.id, { draft: true });
    expect(drafts.data.items.map((item) => item.source)).toEqual(['/docs/*']);
    const bySource = await api.listSiteRedirects(w.organizationId, site.id, { orderBy: SiteRedirectOrderBy.Source, search: 'old' });
    expect(bySource.data.items.map((item) => item.source)).toEqual(['/old-guide']);

    t.clock.advance(1000);
    const updated = await api.updateSiteRedirectById(w.organizationId, site.id, external.data.id, { source: '/news*', permanent: true });
    expectMatchesSchema('PATCH', REDIRECT, 200, updated.data);
    expect(updated.data).toMatchObject({ source: '/news*', permanent: true, captureWildcard: true, updatedAt: expect.any(String) });
    expect((await api.listSiteRedirects(w.organizationId, site.id, { orderBy: SiteRedirectOrderBy.UpdatedAt })).data.items[0]!.id).toBe(external.data.id);

    const target = await api.getSiteRedirectBySource(w.organizationId, site.id, { source: '/old-guide' });
    expectMatchesSchema('GET', BY_SOURCE, 200, target.data);
    expect(target.data.target).toBe(`${siteSpace.urls.published}/guide`);

    expect((await api.deleteSiteRedirectById(w.organizationId, site.id, created.data.id)).status).toBe(205);
    expect((await api.deleteSiteRedirectById(w.organizationId, site.id, created.data.id)).status).toBe(204);
    expect(await t.database.db.siteRedirect.count({ where: { siteId: site.id } })).toBe(2);
    // The first call of the official client compiles its schemas: room for a loaded machine.
  }, 120_000);

  it('validates sources and destinations, refuses a second redirect from one source, and leaves nothing behind', async () => {
    const { w, site, siteSpace } = await redirectWorld();
    const other = await w.site({ title: 'Other site' });
    const url = w.url(site.id, '/redirects');
    const cases: Array<[Json, RegExp]> = [
      [{ source: 'no-slash', destination: { kind: 'external', url: 'https://example.com' } }, /^source: /],
      [{ source: '/a*b', destination: { kind: 'external', url: 'https://example.com' } }, /^source: /],
      [{ source: `/${'a'.repeat(512)}`, destination: { kind: 'external', url: 'https://example.com' } }, /^source: /],
      [{ source: '/x', destination: { kind: 'external', url: 'javascript:alert(1)' } }, /^destination\.url: /],
      [{ source: '/x', destination: { kind: 'site-space', siteSpaceId: 'ssp_nope' } }, /^destination\.siteSpaceId: .*not a site space of this site/],
      [{ source: '/x', destination: { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: 'pg_nope' } }, /^destination\.pageId: /],
      [{ source: '/x', destination: { kind: 'path', spaceId: siteSpace.space.id, path: 'missing' } }, /^destination\.path: /],
      [{ source: '/x', destination: { kind: 'elsewhere' } }, /^destination\.kind: /],
    ];
    for (const [body, message] of cases) expectError(await t.call('POST', url, { token: w.token, body }), 400, message);
    const { items: otherSpaces } = await w.rest('GET', w.url(other.id, '/site-spaces'));
    expect(otherSpaces).toEqual([]);
    await w.rest('POST', url, { source: '/x', destination: { kind: 'site-space', siteSpaceId: siteSpace.id } }, 201);
    expectError(
      await t.call('POST', url, { token: w.token, body: { source: '/x', destination: { kind: 'site-space', siteSpaceId: siteSpace.id } } }),
      409,
      /^source: /,
    );
    // A draft from the same source is another redirect.
    await w.rest('POST', url, { source: '/x', draft: true, destination: { kind: 'site-space', siteSpaceId: siteSpace.id } }, 201);
    expect(await t.database.db.siteRedirect.count({ where: { siteId: site.id } })).toBe(2);
    expectError(await t.call('PATCH', `${url}/srd_nope`, { token: w.token, body: { permanent: true } }), 404);
  });

  it('lets members read redirects and only admins change them; strangers see no site', async () => {
    const { w, site, siteSpace } = await redirectWorld();
    const redirect = await w.rest('POST', w.url(site.id, '/redirects'), { source: '/a', destination: { kind: 'site-space', siteSpaceId: siteSpace.id } }, 201);
    const reader = await w.member('read');
    const editor = await w.member('edit');
    const guest = await w.member(null);
    const stranger = await w.stranger();
    expect((await official(reader).orgs.listSiteRedirects(w.organizationId, site.id)).data.count).toBe(1);
    expect((await official(reader).orgs.getSiteRedirectBySource(w.organizationId, site.id, { source: '/a' })).data.redirect.id).toBe(redirect.id);
    for (const user of [reader, editor]) {
      await expectOfficialError(
        official(user).orgs.createSiteRedirect(w.organizationId, site.id, { source: '/b', destination: { kind: 'site-space', siteSpaceId: siteSpace.id } }),
        403,
      );
      await expectOfficialError(official(user).orgs.updateSiteRedirectById(w.organizationId, site.id, redirect.id, { permanent: true }), 403);
      await expectOfficialError(official(user).orgs.deleteSiteRedirectById(w.organizationId, site.id, redirect.id), 403);
      await expectOfficialError(
        official(user).orgs.bulkUpsertSiteRedirects(w.organizationId, site.id, { redirects: [{ source: '/a', destination: null }] }),
        403,
      );
    }
    await expectOfficialError(official(guest).orgs.listSiteRedirects(w.organizationId, site.id), 404);
    await expectOfficialError(official(stranger).orgs.listSiteRedirects(w.organizationId, site.id), 404);
    await expectOfficialError(
      official(stranger).orgs.createSiteRedirect(w.organizationId, site.id, { source: '/b', destination: { kind: 'site-space', siteSpaceId: siteSpace.id } }),
      404,
    );
    expect(await t.database.db.siteRedirect.findMany({ where: { siteId: site.id } })).toEqual([expect.objectContaining({ id: redirect.id, permanent: false })]);
  });

  it('creates, updates, deletes and publishes by source in one bulk request, all or none', async () => {
    const { w, site, siteSpace, intro } = await redirectWorld();
    const api = official(w.admin).orgs;
    const toSpace = { kind: 'site-space' as const, siteSpaceId: siteSpace.id };
    await w.rest('POST', w.url(site.id, '/redirects'), { source: '/gone', destination: toSpace }, 201);
    await w.rest('POST', w.url(site.id, '/redirects'), { source: '/later', draft: true, destination: toSpace }, 201);
    const { data } = await api.bulkUpsertSiteRedirects(w.organizationId, site.id, {
      redirects: [
        { source: '/new', destination: { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: intro.id } },
        { source: '/gone', destination: null },
        { source: '/later', intent: 'publish' },
        { source: '/never', destination: null },
        { source: '/new', permanent: true, destination: toSpace },
      ],
    });
    expectMatchesSchema('PUT', REDIRECTS, 200, data);
    expect(data.results.map((result: Json) => [result.status, result.source])).toEqual([
      ['created', '/new'],
      ['deleted', '/gone'],
      ['published', '/later'],
      ['error', '/never'],
      ['updated', '/new'],
    ]);
    const rows = await t.database.db.siteRedirect.findMany({ where: { siteId: site.id }, orderBy: { source: 'asc' } });
    expect(rows.map((row) => [row.source, row.draft, row.permanent])).toEqual([
      ['/later', false, false],
      ['/new', false, true],
    ]);
    // One bad entry: nothing of the batch is written.
    const refused = await t.call('PUT', w.url(site.id, '/redirects'), {
      token: w.token,
      body: {
        redirects: [
          { source: '/fine', destination: toSpace },
          { source: '/bad', destination: { kind: 'site-space', siteSpaceId: 'ssp_nope' } },
        ],
      },
    });
    expectError(refused, 400, /^redirects\.1\.destination\.siteSpaceId: /);
    expect(await t.database.db.siteRedirect.count({ where: { siteId: site.id } })).toBe(2);
  });

  it('finds the redirect of a path for URL resolution: exact first, else the longest wildcard, with the captured suffix', async () => {
    const { w, site, siteSpace, guide } = await redirectWorld();
    const url = w.url(site.id, '/redirects');
    await w.rest('POST', url, { source: '/old/*', destination: { kind: 'site-space', siteSpaceId: siteSpace.id }, captureWildcard: true }, 201);
    await w.rest('POST', url, { source: '/old/guides*', destination: { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: guide.id } }, 201);
    await w.rest('POST', url, { source: '/old/exact', destination: { kind: 'external', url: 'https://example.com/x' }, permanent: true }, 201);
    await w.rest('POST', url, { source: '/draft-only', draft: true, destination: { kind: 'external', url: 'https://example.com/x' } }, 201);
    const ctx = await domainContext();
    expect(await siteRedirectFor(ctx, site.id, '/old/exact')).toMatchObject({ target: 'https://example.com/x', status: 308 });
    expect(await siteRedirectFor(ctx, site.id, 'old/exact/')).toMatchObject({ target: 'https://example.com/x' });
    expect(await siteRedirectFor(ctx, site.id, '/old/guides/v1')).toMatchObject({ target: `${siteSpace.urls.published}/guide`, status: 307 });
    expect(await siteRedirectFor(ctx, site.id, '/old/intro/deep?x=1')).toMatchObject({ target: `${siteSpace.urls.published}/intro/deep` });
    expect(await siteRedirectFor(ctx, site.id, '/draft-only')).toBeNull();
    expect(await siteRedirectFor(ctx, site.id, '/elsewhere')).toBeNull();
    expect(await siteRedirectFor(ctx, 'site_nope', '/old/exact')).toBeNull();
  });
});

describe('automatic redirects', () => {
  it('records a redirect from the old path of a page moved or renamed on the live content, on every site showing the space', async () => {
    const { w, space, site, siteSpace, intro, guide } = await redirectWorld();
    const second = await w.site({ title: 'Second site' });
    const section = await w.section(second.id, space.id, 'Manual');
    const sectionSiteSpace = section.siteSpaces[0];
    // Renamed (slug), and moved under another page.
    await editLive(w, space.id, [
      { operation: 'update_page', page: guide.id, slug: 'handbook' },
      { operation: 'update_page', page: intro.id, into: guide.id },
    ]);
    const rows = await t.database.db.siteRedirect.findMany({
      where: { siteId: { in: [site.id, second.id] } },
      orderBy: [{ siteId: 'asc' }, { source: 'asc' }],
    });
    const summary = rows.map((row) => [row.siteId, row.source, row.destination]);
    expect(summary).toEqual(
      expect.arrayContaining([
        [site.id, `/${siteSpace.path}/guide`, { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: guide.id }],
        [site.id, `/${siteSpace.path}/intro`, { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: intro.id }],
        [second.id, `/${section.path}/${sectionSiteSpace.path}/guide`, { kind: 'site-page', siteSpaceId: sectionSiteSpace.id, pageId: guide.id }],
        [second.id, `/${section.path}/${sectionSiteSpace.path}/intro`, { kind: 'site-page', siteSpaceId: sectionSiteSpace.id, pageId: intro.id }],
      ]),
    );
    expect(rows).toHaveLength(4);
    const ctx = await domainContext();
    expect((await siteRedirectFor(ctx, site.id, `/${siteSpace.path}/intro`))?.target).toBe(`${siteSpace.urls.published}/handbook/intro`);
    expect((await official(w.admin).orgs.getSiteRedirectBySource(w.organizationId, site.id, { source: `/${siteSpace.path}/guide` })).data.target).toBe(
      `${siteSpace.urls.published}/handbook`,
    );

    // Back where it was: the redirect from there goes, the one from its later path comes.
    await editLive(w, space.id, [{ operation: 'update_page', page: guide.id, slug: 'guide' }]);
    const sources = (await t.database.db.siteRedirect.findMany({ where: { siteId: site.id } })).map((row) => row.source).sort();
    expect(sources).toEqual([`/${siteSpace.path}/handbook`, `/${siteSpace.path}/handbook/intro`, `/${siteSpace.path}/intro`]);
    // A new request: the live content it reads is the new one.
    expect((await siteRedirectFor(await domainContext(), site.id, `/${siteSpace.path}/handbook/intro`))?.target).toBe(
      `${siteSpace.urls.published}/guide/intro`,
    );
  });

  it('records nothing for edits that keep every path, nor in a change request before it is merged', async () => {
    const { w, space, site, guide } = await redirectWorld();
    await editLive(w, space.id, [{ operation: 'update_page', page: guide.id, title: 'Guide (new title)' }]);
    const changeRequest = await w.rest('POST', `/v1/spaces/${space.id}/change-requests`, {}, 201);
    await w.rest('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
      changes: [{ operation: 'update_page', page: guide.id, slug: 'moved' }],
    });
    expect(await t.database.db.siteRedirect.count({ where: { siteId: site.id } })).toBe(0);
  });
});

describe('custom hostnames', () => {
  it('sets a hostname through the site update, unique across sites, and reads and removes it through the official client', async () => {
    const w = await buildSiteWorld(t);
    const site = await w.site({ title: 'Docs' });
    const other = await w.site({ title: 'Other' });
    const hostname = `docs.${w.organizationId.toLowerCase().replace(/[^a-z0-9]/g, '')}.example.com`;
    expect(await w.patchSite(site.id, { hostname })).toMatchObject({ hostname });
    expectError(await t.call('PATCH', w.url(other.id), { token: w.token, body: { hostname } }), 409, /hostname/);
    expect((await t.database.db.site.findUnique({ where: { id: other.id } }))!.hostname).toBeNull();

    const ctx = await domainContext();
    expect((await siteByHostname(ctx, hostname))?.id).toBe(site.id);
    expect((await siteByHostname(ctx, `${hostname.toUpperCase()}:443`))?.id).toBe(site.id);
    expect(await siteByHostname(ctx, 'nowhere.example.com')).toBeNull();

    const { data } = await official(w.admin).customHostnames.getCustomHostname(hostname);
    expectMatchesSchema('GET', HOSTNAME, 200, data);
    expect(data).toMatchObject({ object: 'custom-hostname', hostname, target: { type: 'site', site: site.id }, isActive: false });

    const reader = await w.member('read');
    await expectOfficialError(official(reader).customHostnames.getCustomHostname(hostname), 403);
    await expectOfficialError(official(reader).customHostnames.removeCustomHostname(hostname), 403);
    await expectOfficialError(official(await w.stranger()).customHostnames.getCustomHostname(hostname), 404);
    await expectOfficialError(official(await w.stranger()).customHostnames.removeCustomHostname(hostname), 404);

    expect((await official(w.admin).customHostnames.removeCustomHostname(hostname)).status).toBe(205);
    expect((await official(w.admin).customHostnames.removeCustomHostname(hostname)).status).toBe(204);
    expect((await t.database.db.site.findUnique({ where: { id: site.id } }))!.hostname).toBeNull();
    await expectOfficialError(official(w.admin).customHostnames.getCustomHostname(hostname), 404);
    // Free again for another site.
    expect(await w.patchSite(other.id, { hostname })).toMatchObject({ hostname });
  });
});
