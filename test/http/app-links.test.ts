import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, TEST_URLS, createTestApp } from '../support/app.ts';
import { buildTeam } from '../support/factories.ts';
import { expectError } from '../support/http.ts';

/**
 * Every `urls.app` an answer carries, and a published site's `urls.published`,
 * leads somewhere when the application addresses are this server's (no
 * APP_URL): a redirect to the REST resource of the same object.
 */

const APP = `${TEST_URLS.api}/app`;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ urls: { api: TEST_URLS.api, app: APP } });
});

type Json = Record<string, any>;

describe('application addresses on this server', () => {
  it('redirect each object to where the API serves it', async () => {
    const { organization, admin } = await buildTeam(t.database);
    const ok = async (method: string, url: string, body?: unknown, status = 200): Promise<Json> => {
      const response = await t.call(method, url, { token: admin.token, ...(body !== undefined ? { body } : {}) });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(status);
      return response.json();
    };
    const org = await ok('GET', `/v1/orgs/${organization.id}`);
    const collection = await ok('POST', `/v1/orgs/${organization.id}/collections`, { title: 'Guides' }, 201);
    const space = await ok('POST', `/v1/orgs/${organization.id}/spaces`, { title: 'Handbook' }, 201);
    const draft = await ok('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'First page' }, 201);
    await ok('POST', `/v1/spaces/${space.id}/change-requests/${draft.id}/content`, {
      changes: [{ operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hi.\n' } }],
    });
    const changeRequest = await ok('GET', `/v1/spaces/${space.id}/change-requests/${draft.id}`);
    await ok('POST', `/v1/spaces/${space.id}/change-requests/${draft.id}/merge`);
    const revision = await ok('GET', `/v1/spaces/${space.id}/content`);
    const page = revision.pages[0];
    const spec = await ok(
      'POST',
      `/v1/orgs/${organization.id}/openapi`,
      { slug: 'petstore', source: { text: '{"openapi":"3.0.3","info":{"title":"P","version":"1"},"paths":{}}' } },
      201,
    );
    const site = await ok('POST', `/v1/orgs/${organization.id}/sites`, { title: 'Docs', visibility: 'public' }, 201);
    await ok('POST', `/v1/orgs/${organization.id}/sites/${site.id}/publish`);
    const published = await ok('GET', `/v1/orgs/${organization.id}/sites/${site.id}`);

    const cases: Array<[string, string, string]> = [
      ['organization', org.urls.app, `/v1/orgs/${organization.id}`],
      ['collection', collection.urls.app, `/v1/collections/${collection.id}`],
      ['space', space.urls.app, `/v1/spaces/${space.id}`],
      ['change request', changeRequest.urls.app, `/v1/spaces/${space.id}/change-requests/${changeRequest.number}`],
      ['page', page.urls.app, `/v1/spaces/${space.id}/content/page/${page.id}`],
      ['OpenAPI spec', spec.urls.app, `/v1/orgs/${organization.id}/openapi/petstore`],
      ['site', published.urls.app, `/v1/orgs/${organization.id}/sites/${site.id}`],
      ['site preview', published.urls.preview, `/v1/orgs/${organization.id}/sites/${site.id}/published`],
      ['published site', published.urls.published, `/v1/orgs/${organization.id}/sites/${site.id}/published`],
    ];
    for (const [what, address, target] of cases) {
      expect(address, what).toMatch(new RegExp(`^${APP}/`));
      const redirect = await t.call('GET', address.slice(TEST_URLS.api.length));
      expect(redirect.statusCode, what).toBe(302);
      expect(redirect.headers.location, what).toBe(target);
      // The target is a real answer about the same object.
      const answer = await t.call('GET', target, { token: admin.token });
      expect(answer.statusCode, `${what}: ${answer.body}`).toBe(200);
    }

    // A revision leads to the content it belongs to: the space's after the merge, the change request's before.
    const revisionRedirect = await t.call('GET', revision.urls.app.slice(TEST_URLS.api.length));
    expect(revisionRedirect.headers.location).toBe(`/v1/spaces/${space.id}/content`);
    const draftRevision = (await ok('GET', `/v1/spaces/${space.id}/change-requests/${draft.id}/content`)).urls.app as string;
    expect((await t.call('GET', draftRevision.slice(TEST_URLS.api.length))).headers.location).toBe(
      `/v1/spaces/${space.id}/change-requests/${draft.id}/content`,
    );
    expectError(await t.call('GET', `/app/s/spc_other/revisions/${revision.id}`), 404);

    // A share link's key travels along.
    const shared = await t.call('GET', `/app/sites/${site.id}?shareKey=abc`);
    expect(shared.headers.location).toBe(`/v1/orgs/${organization.id}/sites/${site.id}/published?shareKey=abc`);
    // Its text for assistants is under the published address too.
    for (const text of ['llms.txt', 'llms-full.txt', 'guides/setup.md']) {
      const found = await t.call('GET', `/app/sites/${site.id}/${text}?shareKey=abc`);
      expect([found.statusCode, found.headers.location]).toEqual([302, `/v1/orgs/${organization.id}/sites/${site.id}/published/${text}?shareKey=abc`]);
    }
    expect((await t.call('GET', `/app/sites/${site.id}/guides/setup`)).headers.location).toBe(`/v1/orgs/${organization.id}/sites/${site.id}/published`);
  });

  it('answers 404 in the error shape for what names nothing', async () => {
    expectError(await t.call('GET', '/app/sites/site_missing'), 404, /^No object at \/app\/sites\/site_missing/);
    expectError(await t.call('GET', '/app/nothing/here'), 404, /^No object at \/app\/nothing\/here/);
  });

  it('are not served when APP_URL names another server', async () => {
    const elsewhere = await createTestApp();
    expect((await elsewhere.call('GET', '/app/o/org_x')).statusCode).toBe(404);
    expect((await elsewhere.call('GET', '/app/o/org_x')).json().error.message).toBe('No operation GET /app/o/org_x');
  });
});
