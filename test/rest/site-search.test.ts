import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../support/app.ts';
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

const SEARCH = '/v1/orgs/{organizationId}/sites/{siteId}/search';

async function spaceWith(w: SiteWorld, title: string, pageTitle: string) {
  const space = await w.space(title);
  const changeRequest = await w.rest('POST', `/v1/spaces/${space.id}/change-requests`, {}, 201);
  const changes = [{ operation: 'insert_page', title: pageTitle, document: { markdown: `About ${pageTitle.toLowerCase()} widgets.\n` } }];
  await w.rest('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { changes });
  await w.rest('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
  return space;
}

describe('POST /v1/orgs/{organizationId}/sites/{siteId}/search', () => {
  it('searches the spaces of the scope through the official client, for members, and refuses strangers', async () => {
    const w = await buildSiteWorld(t);
    const [guide, api, other] = [await spaceWith(w, 'Guide', 'Install'), await spaceWith(w, 'API', 'Endpoints'), await spaceWith(w, 'Other', 'Elsewhere')];
    const site = await w.site({ title: 'Docs' });
    const first = await w.section(site.id, guide.id, 'Guides');
    await w.section(site.id, api.id, 'Reference');
    const all = await official(w.admin).orgs.searchSiteContent(w.organizationId, site.id, { query: 'widgets', scope: { mode: 'all' } });
    expectMatchesSchema('POST', SEARCH, 200, all.data);
    expect(all.data.items.map((item) => item.id).sort()).toEqual([guide.id, api.id].sort());
    expect(all.data.items.map((item) => item.id)).not.toContain(other.id);
    const specific = await official(w.admin).orgs.searchSiteContent(w.organizationId, site.id, {
      query: 'widgets',
      scope: { mode: 'specific', siteSpaceIds: [first.siteSpaces[0].id] },
    });
    expect(specific.data.items.map((item) => item.id)).toEqual([guide.id]);
    expect(specific.data.items[0]).toMatchObject({ type: 'space', title: 'Guide', pages: [expect.objectContaining({ title: 'Install' })] });
    expectError(await t.call('POST', w.url(site.id, '/search'), { token: w.token, body: { query: 'x'.repeat(513), scope: { mode: 'all' } } }), 400);
    expectError(
      await t.call('POST', w.url(site.id, '/search'), { token: w.token, body: { query: 'x', scope: { mode: 'specific', siteSpaceIds: ['ssp_nope'] } } }),
      400,
      /^scope\.siteSpaceIds\.0: /,
    );
    await expectOfficialError(
      official(await w.stranger()).orgs.searchSiteContent(w.organizationId, site.id, { query: 'widgets', scope: { mode: 'all' } }),
      404,
    );
  }, 120_000);

  it('searches for a visitor with a site token only the sections its claims show, and finds nothing for a query without words', async () => {
    const w = await buildSiteWorld(t);
    const [guide, api] = [await spaceWith(w, 'Guide', 'Install'), await spaceWith(w, 'API', 'Endpoints')];
    const site = await w.site({ title: 'Docs' });
    await w.section(site.id, guide.id, 'Guides');
    const beta = await w.section(site.id, api.id, 'Reference');
    await w.updateSection(site.id, beta.id, { condition: 'visitor.claims.beta === true' });
    await w.publish(site.id);
    const published = (await w.rest('GET', w.url(site.id))).urls.published as string;
    const resolved = await t.call('POST', '/v1/urls/published', { body: { url: published } });
    expect(resolved.statusCode, resolved.body).toBe(200);
    const visitorToken = resolved.json().apiToken as string;
    const searchAs = async (token: string, query: string) => {
      const response = await t.call('POST', w.url(site.id, '/search'), { token, body: { query, scope: { mode: 'all' } } });
      expect(response.statusCode, response.body).toBe(200);
      expectMatchesSchema('POST', SEARCH, 200, response.json());
      return response.json();
    };
    expect((await searchAs(visitorToken, 'widgets')).items.map((item: { id: string }) => item.id)).toEqual([guide.id]);
    expect((await searchAs(w.token, 'widgets')).items.map((item: { id: string }) => item.id).sort()).toEqual([guide.id, api.id].sort());
    expect(await searchAs(w.token, '!!!')).toMatchObject({ items: [], count: 0 });
  });
});
