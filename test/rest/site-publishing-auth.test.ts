import { GitBookAPI } from '@gitbook/api';
import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../support/app.ts';
import { timeTravel } from '../support/clock.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { expectOfficialError } from '../support/official.ts';
import { buildSiteWorld, type SiteWorld } from '../support/sites.ts';

/**
 * A site's visitor authentication settings (`updateSitePublishingAuthById`),
 * where `resolvePublishedContentByUrl` sends a visitor without a valid token
 * (`redirectOnError`), and preview addresses (`getSitePublishingPreviewById`)
 * that the lookup answers with `preview: true`, published or not.
 */

let t: TestApp;
let endpoint: string;
beforeAll(async () => {
  t = await createTestApp();
  endpoint = await t.listen();
});

const travel = timeTravel(() => t);
type Json = Record<string, any>;
const AUTH = '/v1/orgs/{organizationId}/sites/{siteId}/publishing/auth';
const PREVIEW = '/v1/orgs/{organizationId}/sites/{siteId}/publishing/preview';
const client = (authToken?: string) => new GitBookAPI({ endpoint, ...(authToken ? { authToken } : {}) });

/** A site with one section showing a space with an Install page; published unless told. */
async function siteWithPage(w: SiteWorld, body: Json = {}, publish = true) {
  const space = await w.space('Guides');
  const changeRequest = await w.rest('POST', `/v1/spaces/${space.id}/change-requests`, {}, 201);
  await w.rest('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content?compat=false`, {
    changes: [{ operation: 'insert_page', title: 'Install', document: { markdown: 'Run it.\n' } }],
  });
  await w.rest('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
  const site = await w.site({ title: 'Auth site', ...body });
  await w.section(site.id, space.id, 'Guides');
  if (publish) await w.publish(site.id);
  const siteSpace = (await w.rest('GET', w.url(site.id, '/site-spaces'))).items[0];
  return { site, space, siteSpace, published: siteSpace.urls.published as string };
}

const lookUp = async (body: Json) => {
  const response = await t.call('POST', '/v1/urls/published', { body });
  return { status: response.statusCode, body: response.json() as Json };
};

describe('updateSitePublishingAuthById', () => {
  it('sets the backend, fallbackURL and logoutURL (official client), keeps what is left out and unsets what is null', async () => {
    const w = await buildSiteWorld(t);
    const { site } = await siteWithPage(w, { visibility: 'visitor-auth' });
    const admin = client(w.token);
    const { data: before } = await admin.orgs.getSitePublishingAuthById(w.organizationId, site.id);
    expect(before).toMatchObject({ object: 'publishing-auth', backend: 'custom' });
    expect(before.fallbackURL).toBeUndefined();

    const { data: set } = await admin.orgs.updateSitePublishingAuthById(w.organizationId, site.id, {
      backend: 'custom',
      fallbackURL: 'https://auth.example.com/sign-in',
      logoutURL: 'https://auth.example.com/sign-out',
    });
    expectMatchesSchema('PATCH', AUTH, 200, set);
    expect(set).toEqual({
      object: 'publishing-auth',
      backend: 'custom',
      privateKey: before.privateKey,
      fallbackURL: 'https://auth.example.com/sign-in',
      logoutURL: 'https://auth.example.com/sign-out',
    });
    // Left out: kept; null: unset.
    const kept = await w.rest('PATCH', w.url(site.id, '/publishing/auth'), { backend: 'custom', logoutURL: null });
    expect(kept).toEqual({ object: 'publishing-auth', backend: 'custom', privateKey: before.privateKey, fallbackURL: 'https://auth.example.com/sign-in' });
    const integration = await w.rest('PATCH', w.url(site.id, '/publishing/auth'), { backend: 'integration', integration: 'auth0' });
    expectMatchesSchema('PATCH', AUTH, 200, integration);
    expect(integration).toMatchObject({ backend: 'integration', integration: 'auth0', fallbackURL: 'https://auth.example.com/sign-in' });
    expect(await w.rest('GET', w.url(site.id, '/publishing/auth'))).toEqual(integration);

    const row = await t.database.db.site.findUniqueOrThrow({ where: { id: site.id } });
    expect(row).toMatchObject({ visitorAuthBackend: 'integration', visitorAuthIntegration: 'auth0', visitorAuthLogoutUrl: null });
    const audit = await t.database.db.auditEvent.findMany({ where: { organizationId: w.organizationId, action: 'site.update_publishing_auth' } });
    expect(audit).toHaveLength(3);
  });

  it('refuses what is not valid, naming the field, and changes nothing; members who do not administer the site get 403', async () => {
    const w = await buildSiteWorld(t);
    const { site } = await siteWithPage(w, { visibility: 'visitor-auth' });
    const refused = async (body: unknown, field: string) => {
      const response = await t.call('PATCH', `${w.url(site.id)}/publishing/auth`, { token: w.token, body });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error.message).toMatch(new RegExp(`^${field}`));
    };
    await refused({}, 'backend');
    await refused({ backend: 'ldap' }, 'backend');
    await refused({ backend: 'custom', fallbackURL: 'not a url' }, 'fallbackURL');
    await refused({ backend: 'custom', fallbackURL: 'ftp://auth.example.com' }, 'fallbackURL');
    await refused({ backend: 'integration' }, 'integration');
    await refused({ backend: 'custom', integration: 'auth0' }, 'integration');
    await refused({ backend: 'custom', extra: true }, '');
    const row = await t.database.db.site.findUniqueOrThrow({ where: { id: site.id } });
    expect(row).toMatchObject({ visitorAuthBackend: 'custom', visitorAuthFallbackUrl: null, visitorAuthIntegration: null });
    const writer = await w.member('edit');
    await expectOfficialError(client(writer.token).orgs.updateSitePublishingAuthById(w.organizationId, site.id, { backend: 'custom' }), 403);
  });
});

describe('redirectOnError', () => {
  it('sends a visitor of a visitor-auth site without a valid token to the fallbackURL, and 404 without one set or without redirectOnError', async () => {
    const w = await buildSiteWorld(t);
    const { site, published } = await siteWithPage(w, { visibility: 'visitor-auth' });
    const url = `${published}/install`;
    expect((await lookUp({ url, redirectOnError: true })).status).toBe(404);
    await w.rest('PATCH', w.url(site.id, '/publishing/auth'), { backend: 'custom', fallbackURL: 'https://auth.example.com/sign-in' });
    const { data } = await client().urls.resolvePublishedContentByUrl({ url, redirectOnError: true });
    expectMatchesSchema('POST', '/v1/urls/published', 200, data);
    expect(data).toEqual({ target: 'application', redirect: 'https://auth.example.com/sign-in' });
    const invalidToken = await lookUp({ url, redirectOnError: true, visitor: { jwtToken: 'eyJhbGciOiJIUzI1NiJ9.e30.AAAA' } });
    expect(invalidToken.body).toEqual({ target: 'application', redirect: 'https://auth.example.com/sign-in' });
    const viaGet = await t.call('GET', `/v1/urls/published?url=${encodeURIComponent(url)}&redirectOnError=true`);
    expect(viaGet.json()).toEqual({ target: 'application', redirect: 'https://auth.example.com/sign-in' });
    expect((await lookUp({ url })).status).toBe(404);
  });

  it('answers the closest page above a missing one, else the site space, instead of 404', async () => {
    const w = await buildSiteWorld(t);
    const { published } = await siteWithPage(w);
    expect((await lookUp({ url: `${published}/install/nothing/here` })).status).toBe(404);
    const above = await lookUp({ url: `${published}/install/nothing/here`, redirectOnError: true });
    expect(above).toEqual({ status: 200, body: { target: 'content', redirect: `${published}/install` } });
    const root = await lookUp({ url: `${published}/nothing`, redirectOnError: true });
    expect(root.body).toEqual({ target: 'content', redirect: published });
    // What resolves is answered as without it.
    expect((await lookUp({ url: `${published}/install`, redirectOnError: true })).body).toMatchObject({ pathname: 'install' });
  });
});

describe('getSitePublishingPreviewById', () => {
  it('answers an address the lookup resolves with preview: true for an hour, published or not, as the visitor of the claims', async () => {
    const w = await buildSiteWorld(t);
    const { site, space, siteSpace, published } = await siteWithPage(w, { visibility: 'visitor-auth' }, false);
    const { data } = await client(w.token).orgs.getSitePublishingPreviewById(w.organizationId, site.id, { claims: '(beta:!t)' });
    expectMatchesSchema('GET', PREVIEW, 200, data);
    const address = new URL(data.url);
    expect(`${address.origin}${address.pathname}`).toBe(published);
    const token = address.searchParams.get('preview')!;
    expect(decodeJwt(token)).toMatchObject({ site: site.id, siteSpace: siteSpace.id, preview: true, visitor: { claims: { beta: true } } });

    // Unpublished, visitor-auth: the preview address resolves, and its apiToken reads the site.
    expect((await lookUp({ url: published })).status).toBe(404);
    const resolved = await lookUp({ url: data.url });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    expect(resolved.body).toMatchObject({ site: site.id, space: space.id, preview: true });
    // Its content token expires with the preview address, not an hour after the lookup.
    expect(decodeJwt(resolved.body.apiToken).exp).toBeLessThanOrEqual(decodeJwt(token).exp!);
    expect((await t.call('GET', w.url(site.id, '/published'), { token: resolved.body.apiToken })).statusCode).toBe(200);
    const page = await lookUp({ url: `${published}/install?preview=${token}` });
    expect(page.body).toMatchObject({ pathname: 'install', preview: true });

    // A target under the site, a site space named; an hour later the address no longer opens anything.
    const targeted = await w.rest(
      'GET',
      `${w.url(site.id, '/publishing/preview')}?siteSpace=${siteSpace.id}&target=${encodeURIComponent(`${published}/install`)}`,
    );
    expect(targeted.url.startsWith(`${published}/install?preview=`)).toBe(true);
    travel(61 * 60 * 1000);
    expect((await lookUp({ url: data.url })).status).toBe(404);
  });

  it('refuses what is not valid naming the query parameter, and non-admins (403)', async () => {
    const w = await buildSiteWorld(t);
    const { site } = await siteWithPage(w);
    const refused = async (query: string, parameter: string) => {
      const response = await t.call('GET', `${w.url(site.id, '/publishing/preview')}?${query}`, { token: w.token });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error.message).toMatch(new RegExp(`^${parameter}`));
    };
    await refused('claims=(beta:', 'claims');
    await refused('claims=!(1,2)', 'claims');
    await refused('siteSpace=sitesp_nope', 'siteSpace');
    await refused(`target=${encodeURIComponent('https://elsewhere.example.com/docs')}`, 'target');
    const reader = await w.member('read');
    await expectOfficialError(client(reader.token).orgs.getSitePublishingPreviewById(w.organizationId, site.id), 403);
  });
});
