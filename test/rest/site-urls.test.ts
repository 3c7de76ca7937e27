import { GitBookAPI } from '@gitbook/api';
import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../support/app.ts';
import { timeTravel } from '../support/clock.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { expectOfficialError } from '../support/official.ts';
import { type SiteWorld, buildSiteWorld, shareKeyOf, visitorToken } from '../support/sites.ts';

/**
 * URL resolution (`POST`/`GET /v1/urls/published`) and the site tokens it
 * answers with, played as a renderer plays them: resolve the URL a reader
 * opened (without a token) → read the published site, the space, its revision
 * and the page's document with the `apiToken` → the same token refused (403)
 * on another site and on every write; regenerating the site's publishing key
 * revokes it. A public site, a share-link site and a visitor-auth site with
 * adaptive content.
 */

let t: TestApp;
let endpoint: string;
beforeAll(async () => {
  t = await createTestApp();
  endpoint = await t.listen();
});

const travel = timeTravel(() => t);
type Json = Record<string, any>;
const LOOKUP = '/v1/urls/published';

/** The official client as a reader's browser has it (no token), or with `authToken`. */
const client = (authToken?: string) => new GitBookAPI({ endpoint, ...(authToken ? { authToken } : {}) });

/** Applies a batch of changes to a space through a change request, merged, as the admin. */
async function publishPages(w: SiteWorld, spaceId: string, changes: unknown[]) {
  const changeRequest = await w.rest('POST', `/v1/spaces/${spaceId}/change-requests`, {}, 201);
  await w.rest('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/content?compat=false`, { changes });
  await w.rest('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/merge`);
}

const page = (title: string, markdown: string) => ({ operation: 'insert_page', title, document: { markdown } });

/**
 * A published site with two sections: Guides (space with pages install and
 * beta-notes, the latter only for `beta` visitors) and Reference (one page).
 */
async function docsSite(w: SiteWorld, visibility = 'public') {
  const site = await w.site({ title: 'Renderer docs', visibility });
  const guides = await w.space('Guides');
  const reference = await w.space('Reference');
  await publishPages(w, guides.id, [
    page('Install', '# Install\n\nRun the installer.\n'),
    page('Beta notes', '---\nif: visitor.claims.beta === true\n---\n\nBeta only.\n'),
  ]);
  await publishPages(w, reference.id, [page('Endpoints', 'Every endpoint.\n')]);
  const guidesSection = await w.section(site.id, guides.id, 'Guides');
  const referenceSection = await w.section(site.id, reference.id, 'Reference');
  await w.setSchema(site.id, { beta: 'boolean' });
  await w.publish(site.id);
  const published = (await w.rest('GET', w.url(site.id))).urls.published as string;
  return { site, guides, reference, guidesSection, referenceSection, published };
}

/** POST /v1/urls/published without a token: status and body. */
async function lookUp(body: Json, token?: string) {
  const response = await t.call('POST', LOOKUP, { body, ...(token ? { token } : {}) });
  return { status: response.statusCode, body: response.json() as Json };
}

describe('POST /v1/urls/published', () => {
  it('resolves a page URL of a public site without a token, and the apiToken reads the site, the revision and the page (official client)', async () => {
    const w = await buildSiteWorld(t);
    const { site, guides, guidesSection, published } = await docsSite(w);
    const sectionPath = guidesSection.path as string;
    const siteSpacePath = (await w.rest('GET', w.url(site.id, '/site-spaces'))).items.find((entry: Json) => entry.space.id === guides.id).path;
    const url = `${published}/${sectionPath}/${siteSpacePath}/install`;

    const { data } = await client().urls.resolvePublishedContentByUrl({ url });
    expectMatchesSchema('POST', LOOKUP, 200, data);
    expect(data).toMatchObject({
      site: site.id,
      siteSection: guidesSection.id,
      space: guides.id,
      organization: w.organizationId,
      pathname: 'install',
      complete: true,
      canonicalUrl: url,
      preview: false,
    });
    const content = data as Json;
    expect(content.siteBasePath).toBe(`${new URL(published).pathname}/`);
    expect(content.basePath).toBe(`${new URL(published).pathname}/${sectionPath}/${siteSpacePath}/`);

    // The token: a JWT naming the site, its site space and space, expiring within the hour.
    const claims = decodeJwt(content.apiToken);
    expect(claims).toMatchObject({ organization: w.organizationId, site: site.id, siteSpace: content.siteSpace, space: guides.id, visitor: { claims: {} } });
    expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(3600);

    // A renderer's reads with it, through the official client.
    const renderer = client(content.apiToken);
    const publishedSite = (await renderer.orgs.getPublishedContentSite(w.organizationId, site.id)).data;
    expectMatchesSchema('GET', '/v1/orgs/{organizationId}/sites/{siteId}/published', 200, publishedSite);
    expect(publishedSite.site.id).toBe(site.id);
    const space = (await renderer.spaces.getSpaceById(guides.id)).data;
    expect(space.id).toBe(guides.id);
    const revision = (await renderer.spaces.getRevisionById(guides.id, space.revision)).data;
    expectMatchesSchema('GET', '/v1/spaces/{spaceId}/revisions/{revisionId}', 200, revision);
    // Pages the visitor may not see (beta-notes) are not in the revision a token reads.
    expect(revision.pages.map((entry: Json) => entry.path)).toEqual(['install']);
    const installId = revision.pages[0]!.id;
    const document = (await renderer.spaces.getPageDocumentInRevisionById(guides.id, space.revision, installId)).data;
    expect(JSON.stringify(document)).toContain('Run the installer.');
    const byPath = await t.call('GET', `/v1/spaces/${guides.id}/revisions/${space.revision}/path/beta-notes`, { token: content.apiToken });
    expect(byPath.statusCode).toBe(404);

    // The GET form answers the same (another token: signed anew).
    const { data: viaGet } = await client().urls.getPublishedContentByUrl({ url });
    expectMatchesSchema('GET', LOOKUP, 200, viaGet);
    expect({ ...viaGet, apiToken: '' }).toEqual({ ...data, apiToken: '' });
  }, 120_000);

  it('resolves the site, section and site space levels, defaults included', async () => {
    const w = await buildSiteWorld(t);
    const { site, guides, reference, referenceSection, published } = await docsSite(w);
    // The site's address alone: the default section and its site space, not complete (a section may follow).
    const root = await lookUp({ url: published });
    expect(root.status, JSON.stringify(root.body)).toBe(200);
    expect(root.body).toMatchObject({ site: site.id, space: guides.id, pathname: '', complete: false });
    // A section named: its site space.
    const section = await lookUp({ url: `${published}/${referenceSection.path}/` });
    expect(section.body).toMatchObject({ siteSection: referenceSection.id, space: reference.id, pathname: '', complete: true });
    // A page path under the default levels.
    const pagePath = await lookUp({ url: `${published}/install` });
    expect(pagePath.body).toMatchObject({ space: guides.id, pathname: 'install' });
  });

  it('answers 404 for what is not published or not there, 400 for what is not a URL, and nothing to an unpublished site', async () => {
    const w = await buildSiteWorld(t);
    const { site, published } = await docsSite(w);
    expect((await lookUp({ url: `${published}/no-such-page` })).status).toBe(404);
    expect((await lookUp({ url: 'https://nowhere.example.com/docs' })).status).toBe(404);
    const notUrl = await lookUp({ url: 'not a url' });
    expect(notUrl.status).toBe(400);
    expect(notUrl.body.error.message).toMatch(/^url: /);
    expect((await lookUp({})).status).toBe(400);
    await w.rest('POST', w.url(site.id, '/unpublish'));
    const gone = await lookUp({ url: `${published}/install` });
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toMatch(/^url: no published content/);
    await expectOfficialError(client().urls.resolvePublishedContentByUrl({ url: published }), 404);
  });

  it('resolves with an API token too (the same answer a visitor gets)', async () => {
    const w = await buildSiteWorld(t);
    const { site, published } = await docsSite(w);
    const asMember = await lookUp({ url: `${published}/install` }, w.token);
    expect(asMember.status).toBe(200);
    expect(asMember.body.site).toBe(site.id);
    expect(decodeJwt(asMember.body.apiToken)).toMatchObject({ visitor: { claims: {} } });
  });
});

describe('what a lookup costs', () => {
  it('a page URL of a site with sections is one statement, a site token a few more per request', async () => {
    const w = await buildSiteWorld(t);
    const { site, published } = await docsSite(w);
    await lookUp({ url: `${published}/install` }); // the page tree is kept after the first read
    const before = t.statements();
    const { body } = await lookUp({ url: `${published}/install` });
    const lookup = t.statements() - before;
    const siteRead = t.statements();
    expect((await t.call('GET', w.url(site.id, '/published'), { token: body.apiToken })).statusCode).toBe(200);
    const withToken = t.statements() - siteRead;
    const memberRead = t.statements();
    expect((await t.call('GET', w.url(site.id, '/published'), { token: w.token })).statusCode).toBe(200);
    const withApiToken = t.statements() - memberRead;
    // The site, its structure, its redirects that may apply and the trees not kept: one statement (test/statement-counts.test.ts).
    expect(lookup).toBe(1);
    // Authenticating a site token: the site, its site spaces with their sections' conditions; a visitor's count of site spaces.
    expect(withToken - withApiToken).toBeLessThanOrEqual(4);
  });
});

describe('GraphQL publishedContentByUrl', () => {
  const QUERY = `query($url: String!, $visitorToken: String) {
    publishedContentByUrl(url: $url, visitorToken: $visitorToken) {
      ... on PublishedUrlContent { site siteSection siteSpace space organization pathname basePath siteBasePath apiToken shareKey complete contextId canonicalUrl preview }
      ... on PublishedUrlRedirect { target redirect }
    }
  }`;
  const graph = async (token: string, variables: Json) => {
    const response = await t.call('POST', '/graphql', { token, body: { query: QUERY, variables } });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Json;
  };
  /** The REST answer without its token (signed anew each time), with the fields GraphQL has as null where REST leaves them out. */
  const comparable = (body: Json) => ({ siteSection: null, shareKey: null, contextId: null, ...body, apiToken: expect.any(String) });

  it('answers what REST answers, and 404 where REST does', async () => {
    const w = await buildSiteWorld(t);
    const { site, published } = await docsSite(w, 'visitor-auth');
    const key = (await w.rest('GET', w.url(site.id, '/publishing/auth'))).privateKey as string;
    const beta = await visitorToken(key, { beta: true });
    const rest = await lookUp({ url: `${published}/beta-notes`, visitor: { jwtToken: beta } });
    const viaGraph = await graph(w.token, { url: `${published}/beta-notes`, visitorToken: beta });
    expect(viaGraph.data.publishedContentByUrl).toEqual(comparable(rest.body));
    expect(decodeJwt(viaGraph.data.publishedContentByUrl.apiToken)).toMatchObject({ visitor: { claims: { beta: true } } });
    const hidden = await graph(w.token, { url: `${published}/beta-notes` });
    expect(hidden.data.publishedContentByUrl).toBeNull();
    expect(hidden.errors[0].extensions.code).toBe(404);
  });
});

describe('site tokens', () => {
  it('are refused (403) on another site, another organization, every write and outside REST', async () => {
    const w = await buildSiteWorld(t);
    const { site, guides, published } = await docsSite(w);
    const other = await docsSite(w);
    const token = (await lookUp({ url: `${published}/install` })).body.apiToken as string;
    const as = (method: string, url: string, body?: unknown) => t.call(method, url, { token, ...(body !== undefined ? { body } : {}) });

    expect((await as('GET', w.url(site.id, '/published'))).statusCode).toBe(200);
    // Looking a URL up again is open to it (anyone may), another site's too.
    expect((await as('POST', LOOKUP, { url: other.published })).statusCode).toBe(200);
    const otherSite = await as('GET', w.url(other.site.id, '/published'));
    expect(otherSite.statusCode).toBe(403);
    expect(otherSite.json().error.message).toMatch(/^siteId: /);
    expect((await as('GET', `/v1/spaces/${other.guides.id}`)).statusCode).toBe(403);
    const refused: Array<[string, string, unknown?]> = [
      ['GET', w.url(site.id)],
      ['GET', `/v1/orgs/${w.organizationId}/sites`],
      ['GET', '/v1/user'],
      ['GET', '/v1/orgs'],
      ['PATCH', w.url(site.id), { title: 'Taken over' }],
      ['POST', w.url(site.id, '/unpublish')],
      ['GET', w.url(site.id, '/publishing/auth')],
      ['POST', w.url(site.id, '/publishing/auth/regenerate')],
      ['PATCH', `/v1/spaces/${guides.id}`, { title: 'Taken over' }],
      ['POST', `/v1/spaces/${guides.id}/change-requests`, {}],
      ['DELETE', `/v1/spaces/${guides.id}`],
      ['POST', `/v1/orgs/${w.organizationId}/spaces`, { title: 'New' }],
      ['GET', `/v1/spaces/${guides.id}/change-requests`],
    ];
    for (const [method, url, body] of refused) {
      const response = await as(method, url, body);
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(403);
      expect(response.json().error.code).toBe(403);
    }
    // A revision other than the published one (a change request's) is refused.
    const changeRequest = await w.rest('POST', `/v1/spaces/${guides.id}/change-requests`, {}, 201);
    const draft = await w.rest('POST', `/v1/spaces/${guides.id}/change-requests/${changeRequest.id}/content?compat=false`, {
      changes: [page('Draft', 'Not published.\n')],
    });
    expect(draft.changeRequest.revision).not.toBe(changeRequest.revision);
    expect((await as('GET', `/v1/spaces/${guides.id}/revisions/${draft.changeRequest.revision}`)).statusCode).toBe(403);
    // GraphQL: not a place for site tokens.
    const graph = await t.call('POST', '/graphql', { token, body: { query: '{ viewer { id } }' } });
    expect(graph.statusCode).toBe(403);
    // Nothing was written.
    const row = await t.database.db.site.findUniqueOrThrow({ where: { id: site.id } });
    expect(row).toMatchObject({ title: 'Renderer docs', published: true });
    expect(await t.database.db.space.findUniqueOrThrow({ where: { id: guides.id } })).toMatchObject({ title: 'Guides', deletedAt: null });
  });

  it('expire within the hour, and a token that does not verify is a 401', async () => {
    const w = await buildSiteWorld(t);
    const { site, published } = await docsSite(w);
    const token = (await lookUp({ url: published })).body.apiToken as string;
    const read = () => t.call('GET', w.url(site.id, '/published'), { token });
    expect((await read()).statusCode).toBe(200);
    const [header, payload] = token.split('.');
    const forged = await t.call('GET', w.url(site.id, '/published'), { token: `${header}.${payload}.${'A'.repeat(43)}` });
    expect(forged.statusCode).toBe(401);
    travel(61 * 60 * 1000);
    expect((await read()).statusCode).toBe(401);
  });

  it('stop working when the site publishing key is regenerated (official client)', async () => {
    const w = await buildSiteWorld(t);
    const { site, published } = await docsSite(w);
    const token = (await lookUp({ url: published })).body.apiToken as string;
    expect((await t.call('GET', w.url(site.id, '/published'), { token })).statusCode).toBe(200);
    const before = await w.rest('GET', w.url(site.id, '/publishing/auth'));
    const admin = new GitBookAPI({ endpoint, authToken: w.token });
    const { data: after } = await admin.orgs.regenerateSitePublishingAuthById(w.organizationId, site.id);
    expectMatchesSchema('POST', '/v1/orgs/{organizationId}/sites/{siteId}/publishing/auth/regenerate', 200, after);
    expect(after.privateKey).not.toBe(before.privateKey);
    expect((await t.database.db.site.findUniqueOrThrow({ where: { id: site.id } })).visitorAuthSecret).toBe(after.privateKey);
    const refused = await t.call('GET', w.url(site.id, '/published'), { token });
    expect(refused.statusCode).toBe(401);
    // A reader (not an admin) may not regenerate it.
    const reader = await w.member('read');
    expect((await t.call('POST', w.url(site.id, '/publishing/auth/regenerate'), { token: reader.token })).statusCode).toBe(403);
  });
});

describe('share-link and visitor-auth sites', () => {
  it('a share-link site resolves with its key in the path or the query, and its token stops with the link', async () => {
    const w = await buildSiteWorld(t);
    const { site, guides, published } = await docsSite(w, 'share-link');
    const link = await w.shareLink(site.id);
    const key = shareKeyOf(link);
    expect((await lookUp({ url: `${published}/install` })).status).toBe(404);
    expect((await lookUp({ url: `${published}/wrong-key/install` })).status).toBe(404);
    const inPath = await lookUp({ url: `${published}/${key}/install` });
    expect(inPath.status, JSON.stringify(inPath.body)).toBe(200);
    expectMatchesSchema('POST', LOOKUP, 200, inPath.body);
    expect(inPath.body).toMatchObject({ site: site.id, space: guides.id, shareKey: key, pathname: 'install' });
    expect(inPath.body.siteBasePath).toBe(`${new URL(published).pathname}/${key}/`);
    const inQuery = await lookUp({ url: `${published}/install?shareKey=${encodeURIComponent(key)}` });
    expect(inQuery.body).toMatchObject({ shareKey: key, pathname: 'install' });

    const token = inPath.body.apiToken as string;
    const renderer = client(token);
    const space = (await renderer.spaces.getSpaceById(guides.id)).data;
    const pages = (await renderer.spaces.listPagesInRevisionById(guides.id, space.revision)).data;
    expect(pages.pages.map((entry: Json) => entry.path)).toEqual(['install']);
    await w.rest('PATCH', w.url(site.id, `/share-links/${link.id}`), { active: false });
    expect((await t.call('GET', `/v1/spaces/${guides.id}`, { token })).statusCode).toBe(401);
  });

  it('a visitor-auth site resolves with the visitor JWT only, its claims drive adaptive content, and rotation revokes both', async () => {
    const w = await buildSiteWorld(t);
    const { site, guides, published } = await docsSite(w, 'visitor-auth');
    const key = (await w.rest('GET', w.url(site.id, '/publishing/auth'))).privateKey as string;
    const beta = await visitorToken(key, { beta: true });
    const plain = await visitorToken(key, { beta: false });
    expect((await lookUp({ url: `${published}/install` })).status).toBe(404);
    expect((await lookUp({ url: `${published}/install`, visitor: { jwtToken: await visitorToken('wrong key', { beta: true }) } })).status).toBe(404);

    // The page only beta visitors see: found for them, not for others.
    expect((await lookUp({ url: `${published}/beta-notes`, visitor: { jwtToken: plain } })).status).toBe(404);
    const asBeta = await lookUp({ url: `${published}/beta-notes`, visitor: { jwtToken: beta } });
    expect(asBeta.status, JSON.stringify(asBeta.body)).toBe(200);
    expectMatchesSchema('POST', LOOKUP, 200, asBeta.body);
    expect(asBeta.body).toMatchObject({ space: guides.id, pathname: 'beta-notes', contextId: expect.any(String) });
    expect(decodeJwt(asBeta.body.apiToken)).toMatchObject({ visitor: { claims: { beta: true } } });
    const viaGet = await t.call('GET', `${LOOKUP}?url=${encodeURIComponent(`${published}/beta-notes`)}&visitorAuthToken=${beta}`);
    expect(viaGet.statusCode).toBe(200);

    // The claims travel in the token: a beta renderer reads the beta page, a plain one does not.
    const betaRenderer = client(asBeta.body.apiToken);
    const space = (await betaRenderer.spaces.getSpaceById(guides.id)).data;
    const betaPages = (await betaRenderer.spaces.listPagesInRevisionById(guides.id, space.revision)).data.pages.map((entry: Json) => entry.path);
    expect(betaPages).toEqual(['install', 'beta-notes']);
    const plainToken = (await lookUp({ url: `${published}/install`, visitor: { jwtToken: plain } })).body.apiToken as string;
    const betaPageId = (await w.rest('GET', `/v1/spaces/${guides.id}/revisions/${space.revision}/path/beta-notes`)).id as string;
    const asPlain = await t.call('GET', `/v1/spaces/${guides.id}/revisions/${space.revision}/page/${betaPageId}/document`, { token: plainToken });
    expect(asPlain.statusCode).toBe(404);
    const asBetaDocument = await betaRenderer.spaces.getPageDocumentInRevisionById(guides.id, space.revision, betaPageId);
    expect(JSON.stringify(asBetaDocument.data)).toContain('Beta only.');

    // Rotating the site's key: the site tokens and the visitor tokens signed with the old key stop.
    await w.rest('POST', w.url(site.id, '/publishing/auth/regenerate'));
    expect((await t.call('GET', `/v1/spaces/${guides.id}`, { token: asBeta.body.apiToken })).statusCode).toBe(401);
    expect((await lookUp({ url: `${published}/install`, visitor: { jwtToken: beta } })).status).toBe(404);
  });
});
