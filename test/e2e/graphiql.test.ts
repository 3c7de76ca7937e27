import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { artifactPath, BROWSER_TEST, BROWSER_WAIT, launchBrowser } from '../support/browser.ts';
import { DEMO_ADMIN_EMAIL } from '../../prisma/seed/demo.ts';
import { issueApiToken } from '../../src/domain/users/provisioning.ts';
import { demoDatabase } from '../support/demo.ts';
import { buildTeam } from '../support/factories.ts';

/**
 * GraphiQL in a real browser, under the security headers the server sends:
 * the page loads, its editor runs a query, and the browser reports no
 * Content-Security-Policy violation.
 */

let t: TestApp;
let team: Awaited<ReturnType<typeof buildTeam>>;
// One Chromium for the file: each test's page opens in a context of its own (browser.newPage).
let browser: Browser;
beforeAll(async () => {
  t = await createTestApp();
  team = await buildTeam(t.database);
  browser = await launchBrowser();
}, BROWSER_TEST.timeout);

describe('GraphiQL', () => {
  it('runs a query in Chromium without any Content-Security-Policy violation', BROWSER_TEST, async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || /Content.Security.Policy/i.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(String(error)));
    // The page opens with the token in its headers, as `npm start --demo` serves it on loopback.
    const withToken = await createTestApp({ graphiqlToken: team.admin.token });
    const base = await withToken.listen();
    const response = await page.goto(`${base}/graphql?query=${encodeURIComponent('{ viewer { user { id } } }')}`);
    expect(response?.status()).toBe(200);
    // Nothing runs inline: scripts and workers are files of this server.
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self';");
    try {
      await page.locator('.graphiql-execute-button').click(BROWSER_WAIT);
      await page.waitForFunction((id) => document.body.textContent.includes(id), team.admin.id, BROWSER_WAIT);
    } finally {
      await page.screenshot({ path: artifactPath('graphiql.png') });
    }
    expect(problems).toEqual([]);
  });

  it('opens on the demo data with the site tree example, runs it, and shows the tree', BROWSER_TEST, async () => {
    const database = await demoDatabase();
    const demo = await createTestApp({ databaseUrl: database.url });
    const alice = await demo.database.db.user.findUniqueOrThrow({ where: { email: DEMO_ADMIN_EMAIL } });
    const token = await issueApiToken(demo.database.db, alice.id, 'graphiql test');
    const served = await createTestApp({ databaseUrl: database.url, fileStorage: database.storage, graphiqlToken: token });
    const base = await served.listen();

    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    const assets: Array<{ url: string; cacheControl: string | undefined }> = [];
    page.on('response', (answer) => {
      if (answer.url().includes('/graphql/assets/')) assets.push({ url: answer.url(), cacheControl: answer.headers()['cache-control'] });
    });
    const response = await page.goto(`${base}/graphql`);
    // A small page; the build comes as files a browser keeps.
    expect(Number((await response!.body()).length)).toBeLessThan(8_000);
    try {
      await page.locator('.graphiql-execute-button').click(BROWSER_WAIT);
      // The demo's first published site, in the result pane (Monaco writes spaces as no-break spaces).
      const site = await demo.database.db.site.findFirstOrThrow({ where: { published: true, title: 'Acme Developer Portal' }, select: { title: true } });
      const resultText = () => page.locator('.graphiql-response').evaluate((pane) => (pane.textContent ?? '').replace(/\u00a0/g, ' '));
      await expect.poll(resultText, { ...BROWSER_WAIT, interval: 250 }).toContain(site.title);
      const result = await resultText();
      expect(result).toContain('"sections"');
      expect(result).toContain('"siteSpaces"');
    } finally {
      await page.screenshot({ path: artifactPath('graphiql-site-tree.png') });
    }
    expect(problems).toEqual([]);
    expect(assets.map((asset) => asset.url.replace(/^.*\/assets\/[^/]+\//, '')).sort()).toEqual(
      expect.arrayContaining(['graphiql.css', 'graphiql.js', 'start.js']),
    );
    for (const asset of assets) expect(asset.cacheControl, asset.url).toBe('public, max-age=31536000, immutable');
  });

  it('runs a subscription: a merge made over REST appears in the result pane as it happens', BROWSER_TEST, async () => {
    const served = await createTestApp({ graphiqlToken: team.admin.token });
    const base = await served.listen();
    const spaceId = (await served.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Watched' } })).json().id;
    const changeRequestId = (
      await served.call('POST', `/v1/spaces/${spaceId}/change-requests`, { token: team.admin.token, body: { subject: 'Seen live' } })
    ).json().id;
    const query = `subscription { spaceEvents(spaceId: "${spaceId}") { ... on Event { kind } ... on SpaceContentEvent { changeRequest { subject status } } } }`;

    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(String(error)));
    await page.goto(`${base}/graphql?query=${encodeURIComponent(query)}`);
    const resultText = () => page.locator('.graphiql-response').evaluate((pane) => (pane.textContent ?? '').replace(/\u00a0/g, ' '));
    try {
      await page.locator('.graphiql-execute-button').click(BROWSER_WAIT);
      // Subscribed once the server counts the stream.
      await expect
        .poll(async () => /^docs_gateway_subscription_streams (\d+)$/m.exec((await served.call('GET', '/metrics')).body)?.[1], BROWSER_WAIT)
        .toBe('1');
      const merged = await served.call('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/merge`, { token: team.admin.token });
      expect(merged.statusCode).toBe(200);
      // GraphiQL shows the latest event: the space's new content, with the change request that made it.
      await expect.poll(resultText, { ...BROWSER_WAIT, interval: 250 }).toContain('SPACE_CONTENT_UPDATED');
      expect(await resultText()).toContain('"subject": "Seen live"');
      expect(await resultText()).toContain('"status": "merged"');
    } finally {
      await page.screenshot({ path: artifactPath('graphiql-subscription.png') });
    }
    expect(problems).toEqual([]);
  });

  it('serves the build compressed once and answers 304 to a browser that has it', async () => {
    const html = (await t.call('GET', '/graphql', { headers: { accept: 'text/html' } })).body;
    const script = /src="(\/graphql\/assets\/[^"]+\/graphiql\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    for (const encoding of ['br', 'gzip']) {
      const answer = await t.call('GET', script!, { headers: { 'accept-encoding': encoding } });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-encoding']).toBe(encoding);
      expect(answer.rawPayload.length).toBeLessThan(2_500_000);
    }
    const plain = await t.call('GET', script!);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(4_000_000);
    const again = await t.call('GET', script!, { headers: { 'if-none-match': String(plain.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect((await t.call('GET', script!.replace(/assets\/[^/]+\//, 'assets/0.0.0/'))).statusCode).toBe(404);
    expect((await t.call('GET', script!.replace('graphiql.js', 'package.json'))).statusCode).toBe(404);
  });

  it('sends JSON answers with a policy that runs nothing', async () => {
    const answer = await t.call('GET', '/v1/user', { token: team.admin.token });
    expect(answer.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'");
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });
});
