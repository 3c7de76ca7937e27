import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_URLS, type TestApp } from '../support/app.ts';
import { OUTSIDE_ROUTE_TABLE } from '../../src/rest/openapi.ts';
import { restRoutes } from '../../src/rest/plugin.ts';
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
 *
 * Swagger UI (5.33 and later) renders a list of 150 tags and operations or
 * more windowed: only the blocks near the viewport are in the page, the others
 * come as it scrolls. The reference is counted the way a reader sees it:
 * scrolled from top to bottom, every operation of the route table rendered on
 * the way, none in the error box Swagger UI shows for one it cannot render.
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

/** What the page exposes of Swagger UI (`window.ui`). */
interface SwaggerUi {
  errSelectors: { allErrors(): { toJS(): unknown[] } };
}

/**
 * Whether the windowed list of operations has rendered what the viewport shows of it: rendered
 * items reach its top and its bottom (or the list is not windowed: everything is rendered).
 */
function windowRendered(): boolean {
  const list = document.querySelector('.operations-virtual__list');
  if (!list) return document.querySelector('.opblock') !== null;
  const box = list.getBoundingClientRect();
  const [top, bottom] = [Math.max(0, box.top), Math.min(window.innerHeight, box.bottom)];
  if (bottom <= top) return true;
  const items = [...list.querySelectorAll('.operations-virtual__item')].map((item) => item.getBoundingClientRect());
  return items.some((item) => item.top <= top + 1) && items.some((item) => item.bottom >= bottom - 1);
}

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
  it(
    'renders every operation of the route table in Chromium, scrolled through, opens a deep link, and loads nothing from elsewhere',
    BROWSER_TEST,
    async () => {
      const { page, response, problems, requested } = await openReference();
      // The ids Swagger UI gives the blocks of the route table's operations (tag and operationId).
      const documented = [...restRoutes, ...OUTSIDE_ROUTE_TABLE.map(({ operation }) => ({ tag: operation.tags[0], operationId: operation.operationId }))];
      const expected = documented.map((route) => `operations-${route.tag.replace(/\s/g, '_')}-${route.operationId}`).sort();
      const rendered = new Set<string>();
      const failed = new Set<string>();
      try {
        expect(response?.status()).toBe(200);
        expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
        // Down the page by most of a viewport at a time, until the schemas below the operations show.
        for (let top = 0; ; top += 600) {
          await page.evaluate((y) => window.scrollTo(0, y), top);
          await page.waitForFunction(windowRendered);
          const seen = await page.evaluate(() => ({
            blocks: [...document.querySelectorAll('.opblock')].map((block) => block.id),
            fallbacks: [...document.querySelectorAll('.fallback')].map((fallback) => fallback.textContent ?? ''),
            end: (document.querySelector('.models')?.getBoundingClientRect().top ?? 0) < window.innerHeight,
          }));
          for (const id of seen.blocks) rendered.add(id);
          for (const text of seen.fallbacks) failed.add(text);
          if (seen.end) break;
        }
      } finally {
        await page.screenshot({ path: artifactPath('reference.png'), fullPage: false });
        await page.evaluate(() => window.scrollTo(0, 0));
      }
      expect([...rendered].sort()).toEqual(expected);
      expect([...failed]).toEqual([]);
      expect(problems).toEqual([]);
      expect(requested.filter((url) => !url.startsWith(base))).toEqual([]);
    },
  );

  it('opens an operation answering a structured document, its recursive schema resolved', BROWSER_TEST, async () => {
    const { page, problems } = await newPage();
    const path = '/v1/spaces/{spaceId}/content/page/{pageId}';
    await page.goto(`${base}/docs${deepLink(path, 'get')}`);
    // Opened at the deep link, its answer resolved: the example Swagger UI makes from the schema.
    // (The official document's mutually recursive Document* schemas never resolved: "Resolver error … Elements in allOf must be objects".)
    const block = operationBlock(page, path, 'get');
    await block.locator('.responses-table .response[data-code="200"]', { hasText: '"type": "document"' }).first().waitFor();
    expect(await page.evaluate(() => (window as unknown as { ui: SwaggerUi }).ui.errSelectors.allErrors().toJS())).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
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
