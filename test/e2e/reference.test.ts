import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_URLS, type TestApp } from '../support/app.ts';
import { artifactPath, BROWSER_TEST, BROWSER_WAIT, launchBrowser } from '../support/browser.ts';
import { buildTeam } from '../support/factories.ts';

/**
 * The pages a person opens: the REST reference at /docs (Swagger UI, every
 * operation of /v1/openapi.json, assets from this origin, cached for a year,
 * "Try it out" against the server the page was opened at) and the landing page
 * at /, in Chromium under the server's security headers.
 *
 * One browser for the file. Swagger UI takes seconds to render the whole
 * document, so the reference is loaded once and its tests share that page;
 * every step waits for what it needs (an element, a response), with limits far
 * above what it takes, so that a loaded machine only makes it slower.
 */

const WAIT = BROWSER_WAIT;

let t: TestApp;
let base: string;
let browser: Browser;
let token: string;
let document: any;
beforeAll(async () => {
  t = await createTestApp();
  // The address `docs-gateway serve` prints (127.0.0.1), not the document's server (PUBLIC_URL).
  base = await t.listen();
  token = (await buildTeam(t.database)).admin.token;
  document = (await t.call('GET', '/v1/openapi.json')).json();
  browser = await launchBrowser();
});

/** A new page that records what goes wrong in it: console errors, policy violations, failed loads, and every URL it requests. */
async function newPage() {
  const page = await browser.newPage();
  page.setDefaultTimeout(WAIT.timeout);
  const problems: string[] = [];
  const requested: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content.Security.Policy/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(String(error)));
  page.on('requestfailed', (request) => problems.push(`${request.url()}: ${request.failure()?.errorText}`));
  page.on('request', (request) => requested.push(request.url()));
  return { page, problems, requested };
}

/** Swagger UI's deep link to an operation: its first tag and its operationId. */
function deepLink(path: string, method: string): string {
  const operation = document.paths[path][method];
  return `#/${encodeURIComponent(String(operation.tags[0]))}/${operation.operationId}`;
}

/** The operation's block in Swagger UI (its id is made of the tag and the operationId). */
function operationBlock(page: Page, path: string, method: string) {
  const operation = document.paths[path][method];
  return page.locator(`[id="operations-${String(operation.tags[0]).replace(/\s/g, '_')}-${operation.operationId}"]`);
}

const VERSIONS = '/v1/orgs/{organizationId}/openapi/{specSlug}/versions';

/** The reference, loaded once for the file at a deep link, with its response and what went wrong so far. */
let reference: Promise<Awaited<ReturnType<typeof newPage>> & { response: Awaited<ReturnType<Page['goto']>> }> | undefined;
function openReference() {
  reference ??= (async () => {
    const opened = await newPage();
    const response = await opened.page.goto(`${base}/docs${deepLink(VERSIONS, 'get')}`);
    // Rendered: the deep-linked operation, far down the page, is open.
    await opened.page.locator('.opblock.is-open .opblock-summary-path', { hasText: VERSIONS }).first().waitFor();
    return { ...opened, response };
  })();
  return reference;
}

describe('the REST reference at /docs', () => {
  it('shows every operation of the OpenAPI document in Chromium, opens a deep link, and loads nothing from elsewhere', BROWSER_TEST, async () => {
    const operations = Object.values(document.paths as Record<string, Record<string, unknown>>).flatMap((item) =>
      Object.keys(item).filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method)),
    ).length;
    const { page, response, problems, requested } = await openReference();
    try {
      expect(response?.status()).toBe(200);
      expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
      // The page renders what is near the viewport; the reference holds every operation.
      expect(
        await page.evaluate(() => (window as unknown as { ui: { specSelectors: { operations(): { size: number } } } }).ui.specSelectors.operations().size),
      ).toBe(operations);
    } finally {
      await page.screenshot({ path: artifactPath('reference.png'), fullPage: false });
    }
    expect(problems).toEqual([]);
    expect(requested.filter((url) => !url.startsWith(base))).toEqual([]);
  });

  it('"Try it out" calls the server at the address the page was opened at, with the token given under Authorize', BROWSER_TEST, async () => {
    // The document names PUBLIC_URL, which this browser cannot reach; the page calls its own origin.
    expect(document.servers).toEqual([{ url: TEST_URLS.api }]);
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const { page, problems } = await openReference();
    expect(await page.locator('.servers select option').allTextContents()).toEqual([expect.stringContaining(base)]);

    await page.getByRole('button', { name: 'Authorize' }).first().click();
    const dialog = page.locator('.modal-ux');
    await dialog.getByLabel('auth-bearer-value').fill(token);
    await dialog.getByRole('button', { name: 'Apply credentials' }).click();
    await dialog.getByRole('button', { name: 'Remove authorization' }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();

    const block = operationBlock(page, '/v1/user', 'get');
    await block.locator('.opblock-summary').first().click();
    await block.getByRole('button', { name: 'Try it out' }).click();
    const [answer] = await Promise.all([
      page.waitForResponse((candidate) => candidate.url() === `${base}/v1/user`, WAIT),
      block.getByRole('button', { name: 'Execute' }).click(),
    ]);
    expect(answer.status(), await answer.text()).toBe(200);
    expect(answer.request().headers().authorization).toBe(`Bearer ${token}`);
    // Shown on the page: the answer's status and the user's id.
    await block.locator('.live-responses-table .response-col_status', { hasText: '200' }).first().waitFor();
    expect(await block.locator('.live-responses-table').textContent()).toContain((await answer.json()).id);
    expect(problems).toEqual([]);
  });

  it('serves its assets versioned and cacheable for a year, and nothing else of the package', async () => {
    const html = (await t.call('GET', '/docs')).body;
    const script = /src="(\/docs\/assets\/[\d.]+\/swagger-ui-bundle\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await t.call('GET', script!, { headers: { 'accept-encoding': 'br' } });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-encoding']).toBe('br');
    const folder = script!.replace(/[^/]+$/, '');
    for (const other of ['index.html', 'swagger-ui-bundle.js.map', 'package.json', '../../../package.json']) {
      expect((await t.call('GET', `${folder}${other}`)).statusCode, other).toBe(404);
    }
  });
});

describe('the landing page at /', () => {
  it('links GraphiQL, the reference, the REST index and health for a browser, and answers JSON to programs', BROWSER_TEST, async () => {
    const { page, problems } = await newPage();
    const response = await page.goto(`${base}/`);
    expect(response?.status()).toBe(200);
    const links = await page.locator('a').evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href')));
    expect(links).toEqual(['/graphql', '/docs', '/v1', '/v1/openapi.json', '/healthz', '/readyz', '/metrics']);
    // The link opens the reference (rendered by the test above): its page, its script and its document load.
    const [reached] = await Promise.all([
      page.waitForResponse((candidate) => candidate.url() === `${base}/v1/openapi.json`, WAIT),
      page.locator('a', { hasText: 'REST reference' }).click(),
    ]);
    expect(reached.status()).toBe(200);
    expect(page.url()).toBe(`${base}/docs`);
    await reached.finished();
    expect(problems).toEqual([]);
    await page.close();

    const json = await t.call('GET', '/', { headers: { accept: 'application/json' } });
    expect(json.json()).toEqual({
      name: 'docs-gateway',
      rest: expect.stringMatching(/\/v1$/),
      openapi: expect.stringMatching(/\/v1\/openapi\.json$/),
      graphql: expect.stringMatching(/\/graphql$/),
      docs: expect.stringMatching(/\/docs$/),
    });
  });
});
