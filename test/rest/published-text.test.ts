import { lexer, type Token, type Tokens } from 'marked';
import { beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/context.ts';
import { llmsFull, publishedText } from '../../src/domain/sites/llms.ts';
import { TEST_URLS, type TestApp } from '../support/app.ts';
import { createDemoApp } from '../support/demo.ts';
import { buildUser } from '../support/factories.ts';
import { shareKeyIn, signVisitorToken } from '../support/site-tree.ts';

/**
 * A published site as text for assistants (llmstxt.org): `…/published/llms.txt`,
 * `llms-full.txt` and `<page address>.md`, on the demo data, read without a
 * token as a visitor, with the published tree's rules (conditions on visitor
 * claims, share links), and pages hidden from the table of contents left out.
 */

let t: TestApp;
let alice: string;
let organizationId: string;
let portalId: string;
let base: string;

/** Opens a change request on a space, applies the changes and merges it, as Alice. */
async function publishPages(spaceTitle: string, changes: unknown[]) {
  const space = await t.database.db.space.findFirstOrThrow({ where: { title: spaceTitle } });
  const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: alice, body: {} })).json();
  const edited = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content?compat=false`, { token: alice, body: { changes } });
  expect(edited.statusCode, edited.body).toBe(200);
  expect((await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`, { token: alice })).statusCode).toBe(200);
}

beforeAll(async () => {
  let tokenOf: (email?: string) => Promise<string>;
  ({ t, tokenOf } = await createDemoApp());
  alice = await tokenOf();
  const portal = await t.database.db.site.findFirstOrThrow({ where: { title: 'Acme Developer Portal' } });
  [organizationId, portalId] = [portal.organizationId, portal.id];
  base = `/v1/orgs/${organizationId}/sites/${portalId}/published`;
  // A page only beta testers see (its section's condition), and a hidden page in the guides.
  await publishPages('GraphQL API', [
    { operation: 'insert_page', title: 'Schema', description: 'The whole graph', document: { markdown: '# Schema\n\nOne graph.\n' } },
  ]);
  await publishPages('Getting started', [{ operation: 'insert_page', title: 'Internal notes', hidden: true, document: { markdown: 'Not for the index.\n' } }]);
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

/** The llmstxt.org structure: H1, a quote, then H2 sections each holding a list of Markdown links. */
function parseLlmsTxt(text: string) {
  const lines = text.trimEnd().split('\n');
  expect(lines[0]).toMatch(/^# \S/);
  expect(lines[1]).toBe('');
  expect(lines[2]).toMatch(/^> \S/);
  const sections: Array<{ heading: string; links: Array<{ title: string; url: string; description?: string }> }> = [];
  for (const line of lines.slice(3)) {
    if (line === '') continue;
    if (line.startsWith('## ')) sections.push({ heading: line.slice(3), links: [] });
    else {
      const link = /^- \[(.+?)\]\((\S+?)\)(?:: (.+))?$/.exec(line);
      expect(link, line).not.toBeNull();
      sections.at(-1)!.links.push({ title: link![1]!, url: link![2]!, ...(link![3] ? { description: link![3] } : {}) });
    }
  }
  return { title: lines[0]!.slice(2), sections };
}

describe('llms.txt', () => {
  it('indexes the published site for a reader without a token, every link answering its Markdown', async () => {
    // Where it is: the site's `urls.llms`, in both contracts.
    const site = (await t.call('GET', `/v1/orgs/${organizationId}/sites/${portalId}`, { token: alice })).json();
    expect(site.urls.llms).toBe(`${TEST_URLS.api}${base}/llms.txt`);
    const graph = await t.graphql(alice, 'query($id: ID!) { site(id: $id) { urls { llms } } }', { id: portalId });
    expect(graph.data.site.urls.llms).toBe(site.urls.llms);
    const response = await get(new URL(site.urls.llms).pathname);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    const index = parseLlmsTxt(response.body);
    expect(index.title).toBe('Acme Developer Portal');
    // Sections with pages, in order; the beta section is not shown to this reader.
    expect(index.sections.map((section) => section.heading)).toEqual(['Guides', 'API Reference / REST API']);
    const guides = index.sections[0]!.links;
    expect(guides.map((link) => link.title)).toEqual([
      'Overview',
      'Quickstart',
      'Create an account',
      'Invite your team',
      'Concepts',
      'Spaces',
      'Change requests',
    ]);
    expect(guides[0]!.url).toBe(`${TEST_URLS.api}${base}/guides/getting-started/overview.md`);
    expect(response.body).not.toContain('Internal notes');
    for (const link of index.sections.flatMap((section) => section.links)) {
      const page = await get(new URL(link.url).pathname);
      expect(page.statusCode, link.url).toBe(200);
      expect(page.body.startsWith(`---\ntitle: ${link.title}\n`)).toBe(true);
    }
  });

  it('shows what a visitor token opens: a section on a claim', async () => {
    const portal = await t.database.db.site.findUniqueOrThrow({ where: { id: portalId } });
    const beta = await signVisitorToken(portal.visitorAuthSecret, { betaTester: true });
    const index = parseLlmsTxt((await get(`${base}/llms.txt`, { 'x-visitor-token': beta })).body);
    const schema = index.sections.find((section) => section.heading === 'API Reference / GraphQL API');
    expect(schema?.links).toEqual([{ title: 'Schema', url: `${TEST_URLS.api}${base}/graphql-api/graphql-api/schema.md`, description: 'The whole graph' }]);
    // The page itself: only with the token.
    expect((await get(`${base}/graphql-api/graphql-api/schema.md`)).statusCode).toBe(404);
    expect((await get(`${base}/graphql-api/graphql-api/schema.md?visitorToken=${beta}`)).statusCode).toBe(200);
    // And in llms-full.txt: only with the token.
    expect((await get(`${base}/llms-full.txt`)).body).not.toContain('One graph.');
    expect((await get(`${base}/llms-full.txt`, { 'x-visitor-token': beta })).body).toContain('One graph.');
  });

  it('opens a share-link site with its key only, and refuses a bad token', async () => {
    const preview = await t.database.db.site.findFirstOrThrow({ where: { title: 'Partner Preview' } });
    const siteBase = `/v1/orgs/${organizationId}/sites/${preview.id}`;
    expect((await t.call('POST', `${siteBase}/publish`, { token: alice })).statusCode).toBeLessThan(300);
    const link = (await t.call('POST', `${siteBase}/share-links`, { token: alice, body: { name: 'Partners' } })).json();
    expect((await get(`${siteBase}/published/llms.txt`)).statusCode).toBe(404);
    const opened = await get(`${siteBase}/published/llms.txt?shareKey=${shareKeyIn(link)}`);
    expect(opened.statusCode, opened.body).toBe(200);
    const sharedIndex = parseLlmsTxt(opened.body);
    expect(sharedIndex.sections.map((section) => section.heading)).toEqual(['REST API']);
    // Its links carry the key they were opened with: each answers.
    for (const { url } of sharedIndex.sections.flatMap((section) => section.links)) {
      expect(url).toContain(`?shareKey=${encodeURIComponent(shareKeyIn(link))}`);
      expect((await get(url.slice(TEST_URLS.api.length))).statusCode, url).toBe(200);
    }
    for (const address of ['llms-full.txt', 'rest-api/authentication.md']) {
      expect((await get(`${siteBase}/published/${address}`)).statusCode, address).toBe(404);
      expect((await get(`${siteBase}/published/${address}?shareKey=${shareKeyIn(link)}`)).statusCode, address).toBe(200);
    }
    expect((await get(`${base}/llms.txt`, { authorization: 'Bearer dgw_not_a_token' })).statusCode).toBe(401);
    const outsider = await buildUser(t.database, 'outsider');
    expect((await get(`${siteBase}/published/llms.txt`, { authorization: `Bearer ${outsider.token}` })).statusCode).toBe(404);
    expect((await get(`${siteBase}/published/llms.txt`, { authorization: `Bearer ${alice}` })).statusCode).toBe(200);
  });
});

describe('adaptive pages, titles and methods', () => {
  it('leaves out the pages whose condition does not hold for the reader, and the pages under them, everywhere', async () => {
    await publishPages('Getting started', [
      { operation: 'insert_page', title: 'Beta programme', condition: 'visitor.claims.betaTester', document: { markdown: 'For beta testers.\n' } },
    ]);
    // A page under it, with no condition of its own.
    const space = await t.database.db.space.findFirstOrThrow({ where: { title: 'Getting started' } });
    const programme = (await t.call('GET', `/v1/spaces/${space.id}/content/path/beta-programme`, { token: alice })).json();
    await publishPages('Getting started', [{ operation: 'insert_page', into: programme.id, title: 'Beta feedback', document: { markdown: 'Tell us.\n' } }]);
    const index = (await get(`${base}/llms.txt`)).body;
    expect(index).not.toContain('Beta');
    expect((await get(`${base}/llms-full.txt`)).body).not.toContain('For beta testers.');
    for (const address of ['guides/getting-started/beta-programme.md', 'guides/getting-started/beta-programme/beta-feedback.md']) {
      expect((await get(`${base}/${address}`)).statusCode, address).toBe(404);
      expect((await get(`${base}/${address}`, { 'x-visitor-token': await betaToken() })).statusCode, address).toBe(200);
    }
    const beta = parseLlmsTxt((await get(`${base}/llms.txt`, { 'x-visitor-token': await betaToken() })).body);
    expect(beta.sections[0]!.links.map((link) => link.title)).toEqual(expect.arrayContaining(['Beta programme', 'Beta feedback']));
    // Members read every page. A page's condition is in its front matter for its editors, never for its readers.
    expect((await get(`${base}/guides/getting-started/beta-programme.md`, { authorization: `Bearer ${alice}` })).statusCode).toBe(200);
    expect(programme.markdown).toBe('---\nif: visitor.claims.betaTester\n---\n\nFor beta testers.\n');
    expect((await get(`${base}/guides/getting-started/beta-programme.md`, { 'x-visitor-token': await betaToken() })).body).not.toContain('betaTester');
  });

  it('writes each title on one line, so a title cannot add headings or links of its own', async () => {
    await publishPages('Getting started', [
      { operation: 'insert_page', title: 'Line one\n## Injected\n- Elsewhere: https://elsewhere.test', document: { markdown: 'Body.\n' } },
    ]);
    const index = parseLlmsTxt((await get(`${base}/llms.txt`)).body);
    expect(index.sections.map((section) => section.heading)).toEqual(['Guides', 'API Reference / REST API']);
    expect(index.sections[0]!.links.at(-1)!.title).toBe('Line one ## Injected - Elsewhere: https\\://elsewhere.test');
    const full = (await get(`${base}/llms-full.txt`)).body;
    expect(full).toContain('# Line one ## Injected - Elsewhere: https\\://elsewhere.test\n');
    expect(full).not.toMatch(/^## Injected/m);
  });

  it('escapes Markdown in titles and descriptions: a description holding a link, an image or HTML is text, not a link', async () => {
    const title = 'Pricing *2024* <b>[old](http://evil.test/title)</b>';
    const description =
      '[x](http://evil.test) ![pixel](http://evil.test/p.png) <script>alert(1)</script> `code` _emphasis_ \\[kept\\] www.evil.test me@evil.test';
    await publishPages('Getting started', [{ operation: 'insert_page', title, slug: 'pricing', description, document: { markdown: 'Body.\n' } }]);
    const links: string[] = [];
    const html: string[] = [];
    const texts: string[] = [];
    const walk = (tokens: Token[]) => {
      for (const token of tokens) {
        if (token.type === 'link' || token.type === 'image') links.push((token as Tokens.Link).href);
        if (token.type === 'html' || token.type === 'tag') html.push(token.raw);
        if (token.type === 'text' || token.type === 'escape') texts.push((token as Tokens.Text).text);
        for (const inner of [(token as Tokens.Generic).tokens, (token as Tokens.List).items]) if (Array.isArray(inner)) walk(inner as Token[]);
      }
    };
    const index = (await get(`${base}/llms.txt`)).body;
    walk(lexer(index));
    const line = index.split('\n').find((candidate) => candidate.includes('Pricing'))!;
    expect(line).toBe(
      `- [Pricing \\*2024\\* \\<b\\>\\[old\\](http\\://evil.test/title)\\</b\\>](${TEST_URLS.api}${base}/guides/getting-started/pricing.md): ` +
        '\\[x\\](http\\://evil.test) !\\[pixel\\](http\\://evil.test/p.png) \\<script\\>alert(1)\\</script\\> \\`code\\` \\_emphasis\\_ \\\\\\[kept\\\\\\] www\\.evil.test me\\@evil.test',
    );
    // Read as Markdown: the page's own link only, no HTML, and the text as it was written.
    expect(links.filter((href) => href.includes('evil.test'))).toEqual([]);
    expect(links.filter((href) => href.includes('pricing'))).toHaveLength(1);
    expect(html).toEqual([]);
    expect(texts.join('')).toContain(description);

    const full = (await get(`${base}/llms-full.txt`)).body;
    links.length = 0;
    walk(lexer(full));
    expect(links.filter((href) => href.includes('evil.test'))).toEqual([]);
    expect(full).toContain('# Pricing \\*2024\\* \\<b\\>\\[old\\](http\\://evil.test/title)\\</b\\>\n');
  });

  it('answers a member with its ETag and 304 every time, not from the response cache without them', async () => {
    const first = await get(`${base}/llms.txt`, { authorization: `Bearer ${alice}` });
    expect(first.statusCode).toBe(200);
    for (let i = 0; i < 2; i++) {
      const again = await get(`${base}/llms.txt`, { authorization: `Bearer ${alice}` });
      expect([again.statusCode, again.headers.etag]).toEqual([200, first.headers.etag]);
      expect((await get(`${base}/llms.txt`, { authorization: `Bearer ${alice}`, 'if-none-match': first.headers.etag as string })).statusCode).toBe(304);
    }
  });

  it('stops llms-full.txt at its size limit, at a page boundary, saying where the other pages are', async () => {
    // As a visitor without a token (no viewer), with a limit a few pages long.
    const ctx = createContext({ database: t.database, viewer: null, clock: t.clock, urls: TEST_URLS });
    const text = await publishedText(ctx, organizationId, portalId, {});
    const whole = await llmsFull(ctx, text, `${TEST_URLS.api}${base}`);
    const cut = await llmsFull(ctx, text, `${TEST_URLS.api}${base}`, 600);
    expect(cut.length).toBeLessThan(800);
    expect(whole.startsWith(cut.slice(0, cut.lastIndexOf('\nThe ')))).toBe(true);
    const listed = text.groups.flatMap((group) => group.pages.filter((page) => page.listed)).length;
    const kept = (cut.match(/^Source: /gm) ?? []).length;
    expect(kept).toBeGreaterThan(0);
    expect(cut).toContain(
      `The ${listed - kept} other pages do not fit in this file: llms.txt lists them all, each at its own address. ${TEST_URLS.api}${base}/llms.txt\n`,
    );
    expect(whole).not.toContain('do not fit');
  });

  it('answers HEAD without a token as GET does, without a body', async () => {
    const head = await t.app.inject({ method: 'HEAD', url: `${base}/llms.txt` });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers.etag).toBe((await get(`${base}/llms.txt`)).headers.etag);
  });
});

describe('llms-full.txt and pages as Markdown', () => {
  it('holds every listed page and no hidden one; a hidden page is still read at its address', async () => {
    const full = await get(`${base}/llms-full.txt`);
    expect(full.statusCode).toBe(200);
    for (const title of ['Overview', 'Quickstart', 'Create an account', 'Change requests', 'Authentication', 'Errors'])
      expect(full.body).toContain(`# ${title}\n`);
    // Each title once, as the heading of its page: the demo's bodies do not repeat it.
    for (const title of ['Overview', 'Quickstart', 'Create an account', 'Authentication', 'Errors'])
      expect(full.body.split(`\n# ${title}\n`).length - 1, title).toBe(1);
    expect((await get(`${base}/guides/getting-started/quickstart.md`)).body).toBe(
      '---\ntitle: Quickstart\n---\n\nInstall the CLI, then create a project:\n\n```sh\nnpm install -g acme\nacme init my-docs\n```\n',
    );
    expect(full.body).toContain('Sign up at the [console](https://console.acme.test)');
    expect(full.body).toContain(`Source: ${TEST_URLS.api}${base}/guides/getting-started/quickstart/create-an-account.md`);
    expect(full.body).not.toContain('Not for the index');
    const hidden = await get(`${base}/guides/getting-started/internal-notes.md`);
    expect(hidden.statusCode).toBe(200);
    expect(hidden.body).toBe('---\ntitle: Internal notes\nhidden: true\n---\n\nNot for the index.\n');
  });

  it('answers a page with its front matter, which a content batch reads back; ETag and 304; 404 elsewhere', async () => {
    const response = await get(`${base}/graphql-api/graphql-api/schema.md`, { 'x-visitor-token': await betaToken() });
    expect(response.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(response.body).toBe('---\ntitle: Schema\ndescription: The whole graph\n---\n\n# Schema\n\nOne graph.\n');
    const again = await get(`${base}/graphql-api/graphql-api/schema.md`, {
      'x-visitor-token': await betaToken(),
      'if-none-match': response.headers.etag as string,
    });
    expect(again.statusCode).toBe(304);

    // Written into another space, it makes the same page.
    const space = await t.database.db.space.findFirstOrThrow({ where: { title: 'Changelog' } });
    const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: alice, body: {} })).json();
    const written = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content?compat=false`, {
      token: alice,
      body: { changes: [{ operation: 'insert_page', document: { markdown: response.body } }] },
    });
    const copy = (
      await t.call('GET', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content/page/${written.json().changes[0].page.id}`, { token: alice })
    ).json();
    expect(copy).toMatchObject({
      title: 'Schema',
      description: 'The whole graph',
      markdown: '---\ndescription: The whole graph\n---\n\n# Schema\n\nOne graph.\n',
    });

    for (const address of ['guides/no-such-page.md', 'guides/overview', 'nothing.txt']) {
      const missing = await get(`${base}/${address}`);
      expect(missing.statusCode, address).toBe(404);
      expect(missing.json().error.code).toBe(404);
    }
  });
});

async function betaToken() {
  const portal = await t.database.db.site.findUniqueOrThrow({ where: { id: portalId } });
  return signVisitorToken(portal.visitorAuthSecret, { betaTester: true });
}
