import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { artifactPath, launchBrowser } from '../support/browser.ts';
import { buildTeam } from '../support/factories.ts';

/**
 * GraphiQL in a real browser, under the security headers the server sends:
 * the page loads, its editor runs a query, and the browser reports no
 * Content-Security-Policy violation.
 */

let t: TestApp;
let team: Awaited<ReturnType<typeof buildTeam>>;
beforeAll(async () => {
  t = await createTestApp();
  team = await buildTeam(t.database);
});

describe('GraphiQL', () => {
  it('runs a query in Chromium without any Content-Security-Policy violation', async () => {
    const browser = await launchBrowser();
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
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self' 'unsafe-inline'");
    try {
      await page.locator('.graphiql-execute-button').click({ timeout: 20_000 });
      await page.waitForFunction((id) => document.body.innerText.includes(id), team.admin.id, { timeout: 20_000 });
    } finally {
      await page.screenshot({ path: artifactPath('graphiql.png') });
    }
    expect(problems).toEqual([]);
  });

  it('sends JSON answers with a policy that runs nothing', async () => {
    const answer = await t.call('GET', '/v1/user', { token: team.admin.token });
    expect(answer.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'");
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });
});
