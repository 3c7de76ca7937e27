import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { artifactPath, launchBrowser } from '../support/browser.ts';

/**
 * The pages a person opens: the REST reference at /docs (Swagger UI, every
 * operation of /v1/openapi.json, assets from this origin, cached for a year)
 * and the landing page at /, in Chromium under the server's security headers.
 */

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.listen();
});

/** Swagger UI's deep link to an operation: its first tag and its operationId. */
function deepLink(document: any, path: string, method: string): { tag: string; operationId: string } {
  const operation = document.paths[path][method];
  return { tag: String(operation.tags[0]), operationId: operation.operationId };
}

async function openPage(path: string) {
  const browser = await launchBrowser();
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content.Security.Policy/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(String(error)));
  page.on('requestfailed', (request) => problems.push(`${request.url()}: ${request.failure()?.errorText}`));
  const response = await page.goto(`${base}${path}`);
  return { page, response, problems };
}

describe('the REST reference at /docs', () => {
  it('shows every operation of the OpenAPI document in Chromium, loading nothing from elsewhere', async () => {
    const document = (await t.call('GET', '/v1/openapi.json')).json();
    const operations = Object.values(document.paths as Record<string, Record<string, unknown>>).flatMap((item) =>
      Object.keys(item).filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method)),
    ).length;
    const { page, response, problems } = await openPage('/docs');
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    try {
      await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
      // The page renders what is near the viewport; the reference holds every operation.
      expect(
        await page.evaluate(() => (window as unknown as { ui: { specSelectors: { operations(): { size: number } } } }).ui.specSelectors.operations().size),
      ).toBe(operations);
      // A deep link opens one operation, far down the page.
      const { tag, operationId } = deepLink(document, '/v1/orgs/{organizationId}/openapi/{specSlug}/versions', 'get');
      await page.goto('about:blank');
      await page.goto(`${base}/docs#/${encodeURIComponent(tag)}/${operationId}`);
      await page
        .locator('.opblock.is-open .opblock-summary-path', { hasText: '/v1/orgs/{organizationId}/openapi/{specSlug}/versions' })
        .first()
        .waitFor({ timeout: 20_000 });
    } finally {
      await page.screenshot({ path: artifactPath('reference.png'), fullPage: false });
    }
    expect(problems).toEqual([]);
    expect(requested.filter((url) => !url.startsWith(base))).toEqual([]);
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
  it('links GraphiQL, the reference, the REST index and health for a browser, and answers JSON to programs', async () => {
    const { page, response, problems } = await openPage('/');
    expect(response?.status()).toBe(200);
    const links = await page.locator('a').evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href')));
    expect(links).toEqual(['/graphql', '/docs', '/v1', '/v1/openapi.json', '/healthz', '/readyz', '/metrics']);
    await page.locator('a', { hasText: 'REST reference' }).click();
    await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
    expect(problems).toEqual([]);

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
