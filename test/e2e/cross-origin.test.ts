import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { artifactPath, BROWSER_TEST, BROWSER_WAIT, launchBrowser, servePages } from '../support/browser.ts';
import { buildTeam } from '../support/factories.ts';

/**
 * A web page on another origin calls both APIs from a real browser: Chromium
 * sends the preflights and enforces the answers, so what passes here passes for
 * a frontend developer's app.
 */

// The page reads where to call from its address, calls REST and GraphQL with
// a bearer token, and writes what it could read (or the browser's refusal).
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>frontend</title></head>
<body><h1>A frontend on another origin</h1><pre id="result">running</pre>
<script type="module">
  const { api, token, organizationId } = JSON.parse(decodeURIComponent(location.hash.slice(1)));
  const auth = { authorization: 'Bearer ' + token };
  const attempt = async (call) => { try { return await call(); } catch (error) { return { refused: String(error) }; } };
  const result = {
    user: await attempt(async () => {
      const response = await fetch(api + '/v1/user', { headers: auth });
      return { status: response.status, body: await response.json(), cache: response.headers.get('x-cache') };
    }),
    created: await attempt(async () => {
      const response = await fetch(api + '/v1/orgs/' + organizationId + '/spaces', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Made in a browser' }),
      });
      return { status: response.status, body: await response.json(), location: response.headers.get('location') };
    }),
    graphql: await attempt(async () => {
      const response = await fetch(api + '/graphql', {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ viewer { user { id } organizations { edges { node { id spaces { totalCount } } } } } }' }),
      });
      return { status: response.status, body: await response.json() };
    }),
    anonymous: await attempt(async () => {
      const response = await fetch(api + '/v1/user');
      return { status: response.status, body: await response.json() };
    }),
  };
  document.getElementById('result').textContent = JSON.stringify(result, null, 2);
  document.title = 'done';
</script></body></html>`;

let browser: Browser;
let pageOrigin: string;
let team: Awaited<ReturnType<typeof buildTeam>>;
beforeAll(async () => {
  browser = await launchBrowser();
  pageOrigin = await servePages({ '/': PAGE });
});

async function runPage(t: TestApp, screenshot: string) {
  const api = await t.listen();
  const page = await browser.newPage();
  try {
    const hash = encodeURIComponent(JSON.stringify({ api, token: team.admin.token, organizationId: team.organization.id }));
    await page.goto(`${pageOrigin}/#${hash}`);
    await page.waitForFunction(() => document.title === 'done', undefined, BROWSER_WAIT);
    await page.screenshot({ path: artifactPath(screenshot), fullPage: true });
    return JSON.parse((await page.textContent('#result'))!);
  } finally {
    await page.close();
  }
}

describe('a page on another origin, in Chromium', () => {
  it('calls REST and GraphQL with a bearer token when CORS allows its origin (the default: any)', BROWSER_TEST, async () => {
    const t = await createTestApp();
    team = await buildTeam(t.database);
    const result = await runPage(t, 'cross-origin-allowed.png');

    expect(result.user).toMatchObject({ status: 200, body: { object: 'user', id: team.admin.id } });
    expect(result.created).toMatchObject({ status: 201, body: { object: 'space', title: 'Made in a browser' } });
    expect(result.created.location).toBe(result.created.body.urls.location);
    expect(result.graphql.status).toBe(200);
    expect(result.graphql.body.data.viewer.user.id).toBe(team.admin.id);
    expect(result.graphql.body.data.viewer.organizations.edges[0].node).toEqual({ id: team.organization.id, spaces: { totalCount: 1 } });
    expect(result.anonymous).toMatchObject({ status: 401, body: { error: { code: 401 } } });
    // The write the browser made is in the database.
    const row = await t.database.db.space.findUnique({ where: { id: result.created.body.id } });
    expect(row).toMatchObject({ organizationId: team.organization.id, title: 'Made in a browser' });
  });

  it('is refused by the browser when CORS_ORIGINS does not list its origin, and writes nothing', BROWSER_TEST, async () => {
    const t = await createTestApp({ corsOrigins: ['https://somewhere-else.example'] });
    team = await buildTeam(t.database);
    const result = await runPage(t, 'cross-origin-refused.png');

    for (const call of ['user', 'created', 'graphql', 'anonymous']) {
      expect(result[call], call).toEqual({ refused: 'TypeError: Failed to fetch' });
    }
    // The preflight stopped the write before it was sent.
    expect(await t.database.db.space.count({ where: { organizationId: team.organization.id } })).toBe(0);
  });

  it('calls both APIs when CORS_ORIGINS lists its origin', BROWSER_TEST, async () => {
    const t = await createTestApp({ corsOrigins: ['https://somewhere-else.example', pageOrigin] });
    team = await buildTeam(t.database);
    const result = await runPage(t, 'cross-origin-listed.png');
    expect(result.user).toMatchObject({ status: 200, body: { id: team.admin.id } });
    expect(result.created).toMatchObject({ status: 201 });
    expect(result.graphql).toMatchObject({ status: 200, body: { data: { viewer: { user: { id: team.admin.id } } } } });
  });
});
