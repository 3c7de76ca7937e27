import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_LIMITS } from '../../src/domain/content/import.ts';
import type { Block, Fragment, Inline, JSONDocument, Text } from '../../src/domain/content/model/nodes.ts';
import { textOf } from '../../src/domain/content/model/nodes.ts';
import { officialDocumentError } from '../../src/domain/content/model/official-schema.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { closeWhenFileEnds } from '../support/cleanup.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { buildTeam } from '../support/factories.ts';
import { watchHealth } from '../support/health-watch.ts';

let t: TestApp;
let site: string;

const PAGES: Record<string, [string, string]> = {
  '/docs/': [
    'text/html',
    '<html><head><title>Docs home</title></head><body><nav><a href="/docs/about.html">Menu</a></nav><main><h1>Welcome</h1><p>Start with the <a href="/docs/guide/">guide</a> or read <a href="about.html">about us</a>. See <a href="/outside.html">elsewhere</a> and <a href="https://example.test/">the web</a>.</p><p><a href="/docs/data.json">data</a></p></main><footer>© footer</footer></body></html>',
  ],
  '/docs/guide/': [
    'text/html',
    '<html><head><title>Guide</title></head><body><article><h2>Steps</h2><ul><li>one</li><li>two</li></ul><a href="install.html">Install</a></article></body></html>',
  ],
  '/docs/guide/install.html': [
    'text/html; charset=utf-8',
    '<html><head><title>Install</title><script>alert(1)</script></head><body><main><pre><code>npm install widget</code></pre><p>Back to the <a href="/docs/">home</a>.</p></main></body></html>',
  ],
  '/docs/about.html': ['text/html', '<html><head><title>About</title></head><body><p>We make <strong>widgets</strong>.</p></body></html>'],
  '/docs/data.json': ['application/json', '{"not":"html"}'],
  '/assets/logo.txt': ['text/plain; charset=utf-8', 'logo bytes'],
  '/outside.html': ['text/html', '<html><head><title>Outside</title></head><body>Not under /docs/.</body></html>'],
};

/** A 1 × 1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n% a tiny document\n%%EOF\n');

/** A site with images (one twice under two names, one only in a srcset), a PDF, a broken image and an image on another host. */
const MEDIA: Record<string, [string, string | Buffer]> = {
  '/media/': [
    'text/html',
    '<html><head><title>Media</title></head><body><main><h1>Media</h1><p><img src="/assets/logo.png" alt="Logo"> <img src="img/copy-of-logo.png" alt="Same logo"></p><p><img srcset="/assets/wide.png 2x, /assets/narrow.png 1x" alt="Wide"></p><p>Read <a href="/files/guide.pdf">the guide (PDF)</a>.</p><p><img src="/assets/missing.png" alt="Broken"> <img src="OTHER_HOST/remote.png" alt="Remote"></p><p>Then <a href="next.html">next</a>.</p></main></body></html>',
  ],
  '/media/next.html': [
    'text/html',
    '<html><head><title>Next</title></head><body><main><p><img src="/assets/logo.png" alt="Logo again"></p></main></body></html>',
  ],
  '/assets/logo.png': ['image/png', PNG],
  '/media/img/copy-of-logo.png': ['image/png', PNG],
  '/assets/wide.png': ['image/png', Buffer.concat([PNG, Buffer.from('wide')])],
  '/files/guide.pdf': ['application/pdf', PDF],
};
let otherHost: string;

beforeAll(async () => {
  t = await createTestApp();
  const other = http.createServer((_request, response) => response.writeHead(200, { 'content-type': 'image/png' }).end(PNG));
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  closeWhenFileEnds(() => new Promise((resolve) => other.close(resolve)));
  // Another origin: "localhost" and another port.
  otherHost = `http://localhost:${(other.address() as AddressInfo).port}`;
  const server = http.createServer((request, response) => {
    const path = request.url!.split('?')[0]!;
    const page = PAGES[path] ?? MEDIA[path];
    if (!page) return response.writeHead(404).end('missing');
    response.writeHead(200, { 'content-type': page[0] }).end(typeof page[1] === 'string' ? page[1].replace('OTHER_HOST', otherHost) : page[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closeWhenFileEnds(() => new Promise((resolve) => server.close(resolve)));
  site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

/** A site of HTML pages by path on 127.0.0.1, closed when the file ends; its base URL. */
async function serveSite(pages: Record<string, string>) {
  const server = http.createServer((request, response) => {
    const page = pages[request.url!.split('?')[0]!];
    if (page === undefined) return response.writeHead(404).end('missing');
    response.writeHead(200, { 'content-type': 'text/html' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closeWhenFileEnds(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A page as documentation sites render one: admonitions of three sites, tables, figures, titled code, details, tabs, tasks, math. */
const RICH_PAGE = `<html><head><title>Rich page</title></head><body><nav><a href="/docs/guide.html">Menu</a></nav><main>
<h1 id="rich">Rich page <a class="headerlink" href="#rich">¶</a></h1>
<p>Intro with <strong>bold</strong> and a <a href="guide.html#install">link to the guide</a>.</p>
<div class="admonition warning"><p class="admonition-title">Warning</p><p>Be <em>careful</em> here.</p></div>
<div class="theme-admonition theme-admonition-tip alert alert--success"><div class="admonitionHeading_x"><span><svg></svg></span>Pro tip</div><div class="admonitionContent_y"><p>Use the cache.</p></div></div>
<aside class="callout callout-danger"><p>Never do this.</p></aside>
<aside class="sidebar">Sidebar noise</aside>
<table><thead><tr><th>Name</th><th align="right">Size</th></tr></thead><tbody><tr><td>a</td><td>1</td></tr><tr><td><code>b</code></td><td>2</td></tr></tbody></table>
<table><tr><td><p>One</p><p>Two</p></td><td colspan="2">wide</td></tr></table>
<figure><img src="/img/diagram.png" alt="A diagram"><figcaption>The <em>architecture</em></figcaption></figure>
<p><img src="/img/a.png" alt="Alone"></p>
<div class="codeBlockContainer"><div class="codeBlockTitle">app.js</div><div class="codeBlockContent"><pre class="prism-code language-js"><code><span class="token-line">const a = 1 &lt; 2;<br></span><span class="token-line">console.log(a);<br></span></code></pre><button>Copy</button></div></div>
<div class="highlight-python notranslate"><div class="highlight"><pre><span></span>print("hi")
</pre></div></div>
<details open><summary>More <b>details</b></summary><p>Hidden text.</p><ul><li>x</li><li>y</li></ul></details>
<div class="tabs"><ul role="tablist"><li role="tab" aria-controls="p1">npm</li><li role="tab" aria-controls="p2">yarn</li></ul>
<div role="tabpanel" id="p1"><pre><code class="language-sh">npm i x</code></pre></div><div role="tabpanel" id="p2" hidden><p>yarn add x</p></div></div>
<ul><li><input type="checkbox" checked disabled> done</li><li><input type="checkbox" disabled> todo</li></ul>
<span class="katex-display"><span class="katex"><math><semantics><mrow></mrow><annotation encoding="application/x-tex">E = mc^2</annotation></semantics></math><span class="katex-html" aria-hidden="true">E=mc2</span></span></span>
<h4>Deep heading</h4>
</main><footer>foot</footer></body></html>`;

type AnyNode = Block | Inline | Text;

/** Every node under some blocks, depth first, fragments included. */
function allNodes(blocks: Block[]): AnyNode[] {
  const found: AnyNode[] = [];
  const walk = (node: AnyNode) => {
    found.push(node);
    if (node.object === 'text') return;
    for (const child of (node.nodes ?? []) as AnyNode[]) walk(child);
    for (const each of (node.fragments ?? []) as Fragment[]) for (const child of each.nodes) walk(child);
  };
  for (const node of blocks) walk(node);
  return found;
}

async function setup() {
  const team = await buildTeam(t.database);
  const space = (await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Imported' } })).json();
  return { ...team, space };
}

describe('website import', () => {
  it('crawls the site under the start path into a change request, nesting pages as the paths do', async () => {
    const { admin, space } = await setup();
    const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: admin.token, body: {} })).json();
    const base = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`;
    const response = await t.call('POST', `${base}/import`, { token: admin.token, body: { url: `${site}/docs/`, source: 'website' } });
    expect(response.statusCode, response.body).toBe(201);
    expectMatchesSchema('POST', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/import', 201, response.json());
    expect(response.json()).toMatchObject({ importedResources: 4, totalResources: 5 });
    expect((await t.database.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequest.id } })).revisionId).toBe(response.json().revision);

    const pages = (await t.call('GET', `${base}/pages`, { token: admin.token })).json().pages;
    expect(pages.map((page: { title: string }) => page.title)).toEqual(['Docs home']);
    const children = pages[0].pages;
    // In the order the crawl found them (the navigation links About first).
    expect(children.map((page: { title: string; path: string }) => [page.title, page.path])).toEqual([
      ['About', 'docs/about'],
      ['Guide', 'docs/guide'],
    ]);
    const guide = children[1];
    expect(guide.pages.map((page: { path: string }) => page.path)).toEqual(['docs/guide/install']);
    const home = pages[0];
    expect(home.markdown).toContain('# Welcome');
    expect(home.markdown).toContain(`[guide](/pages/${guide.id})`);
    expect(home.markdown).toContain('[the web](https://example.test/)');
    expect(home.markdown).not.toContain('footer');
    expect(home.markdown).not.toContain('Menu');
    const install = guide.pages[0];
    expect(install.markdown).toContain('npm install widget');
    expect(install.markdown).not.toContain('alert');
  });

  it('imports into the live content of a space, which search then finds', async () => {
    const { admin, space } = await setup();
    const response = await t.call('POST', `/v1/spaces/${space.id}/content/import`, {
      token: admin.token,
      body: { url: `${site}/docs/about.html`, source: 'website' },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect((await t.database.db.space.findUniqueOrThrow({ where: { id: space.id } })).revisionId).toBe(response.json().revision);
    const found = (await t.call('GET', `/v1/spaces/${space.id}/search?query=widgets`, { token: admin.token })).json();
    expect(found.items.map((item: { title: string }) => item.title)).toEqual(['About']);
  });

  it('answers 400 for what cannot be imported, changing nothing', async () => {
    const { admin, space, member } = await setup();
    const before = (await t.database.db.space.findUniqueOrThrow({ where: { id: space.id } })).revisionId;
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    for (const [body, message] of [
      [{ url: `${site}/docs/data.json`, source: 'website' }, /^url: .* answered application\/json, not HTML/],
      [{ url: `${site}/docs/missing`, source: 'website' }, /^url: .* answered HTTP 404/],
      [{ url: `http://127.0.0.1:${closedPort}/`, source: 'website' }, /^url: .* could not be reached/],
      [{ url: 'ftp://example.test/', source: 'website' }, /^url: only http and https/],
      [{ url: `${site}/docs/`, source: 'gitbook' }, /^source: must be website/],
      [{ url: 'not a url', source: 'website' }, /^url: must be an absolute/],
    ] as const) {
      const response = await t.call('POST', `/v1/spaces/${space.id}/content/import`, { token: admin.token, body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.message).toMatch(message);
    }
    const reader = await member('read');
    expect(
      (await t.call('POST', `/v1/spaces/${space.id}/content/import`, { token: reader.token, body: { url: `${site}/docs/`, source: 'website' } })).statusCode,
    ).toBe(403);
    expect((await t.database.db.space.findUniqueOrThrow({ where: { id: space.id } })).revisionId).toBe(before);
  });

  it('never fetches private or loopback addresses unless configured to', async () => {
    const strict = await createTestApp({ fetchPrivateAddresses: false });
    const team = await buildTeam(strict.database);
    const space = (await strict.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: {} })).json();
    for (const url of [`${site}/docs/`, 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/', 'http://10.0.0.1/']) {
      const response = await strict.call('POST', `/v1/spaces/${space.id}/content/import`, { token: team.admin.token, body: { url, source: 'website' } });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().error.message).toMatch(/is a (loopback|linkLocal|private) address, which is not fetched/);
    }
  });

  it('is the importWebsite mutation over GraphQL', async () => {
    const { admin, space } = await setup();
    const result = await t.graphql(
      admin.token,
      'mutation($input: ImportWebsiteInput!) { importWebsite(input: $input) { revision importedResources totalResources } }',
      { input: { spaceId: space.id, url: `${site}/docs/guide/` } },
    );
    expect(result.errors).toBeUndefined();
    expect(result.data).toMatchObject({ importWebsite: { importedResources: 2, totalResources: 2 } });
    const refused = await t.graphql(admin.token, 'mutation($input: ImportWebsiteInput!) { importWebsite(input: $input) { revision } }', {
      input: { spaceId: space.id, url: `${site}/docs/data.json` },
    });
    expect(refused.errors?.[0]?.extensions?.code).toBe(400);
  });

  it('fetches the files of a content batch named by URL', async () => {
    const { admin, space } = await setup();
    const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: admin.token, body: {} })).json();
    const response = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content?compat=false`, {
      token: admin.token,
      body: { changes: [{ operation: 'insert_files', files: [{ name: 'logo.txt', url: `${site}/assets/logo.txt` }] }] },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().insertedFiles).toEqual([expect.objectContaining({ name: 'logo.txt', contentType: 'text/plain', size: 10 })]);
    const bytes = await t.call('GET', new URL(response.json().insertedFiles[0].downloadURL).pathname, {});
    expect(bytes.body).toBe('logo bytes');
    const missing = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
      token: admin.token,
      body: { changes: [{ operation: 'insert_files', files: [{ name: 'x.txt', url: `${site}/assets/missing.txt` }] }] },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toMatch(/^changes\.0\.files\.0\.url: .* answered HTTP 404/);
  });

  it('writes nothing into a change request merged while the files of a batch were fetched', async () => {
    // A file server that answers when the test says so.
    let arrived!: () => void;
    const fetching = new Promise<void>((resolve) => (arrived = resolve));
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const slow = http.createServer(async (_request, response) => {
      arrived();
      await answered;
      response.writeHead(200, { 'content-type': 'text/plain' }).end('late bytes');
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const { admin, space } = await setup();
      const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: admin.token, body: {} })).json();
      const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/late.txt`;
      const writing = t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content?compat=false`, {
        token: admin.token,
        body: { changes: [{ operation: 'insert_files', files: [{ name: 'late.txt', url }] }] },
      });
      await fetching;
      const merged = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`, { token: admin.token });
      expect(merged.statusCode, merged.body).toBe(200);
      const revisionAfterMerge = (await t.database.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequest.id } })).revisionId;
      answer();
      const written = await writing;
      expect(written.statusCode, written.body).toBe(409);
      expect(written.json().error.message).toMatch(/is merged: its content can no longer change/);
      expect((await t.database.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequest.id } })).revisionId).toBe(revisionAfterMerge);
    } finally {
      answer();
      await new Promise((resolve) => slow.close(resolve));
    }
  });

  it('brings the images and linked files of the site as files, once per content, and reports those it could not', async () => {
    const { admin, space } = await setup();
    const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: admin.token, body: {} })).json();
    const base = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`;
    const response = await t.call('POST', `${base}/import`, { token: admin.token, body: { url: `${site}/media/`, source: 'website' } });
    expect(response.statusCode, response.body).toBe(201);
    const result = response.json();
    // 2 pages; 5 resources on the site (logo, its copy, the srcset image, the PDF, the broken one) and 1 on another host.
    expect([result.importedResources, result.totalResources]).toEqual([2 + 4, 2 + 6]);
    expect(result.failedResources).toEqual([
      { url: `${site}/assets/missing.png`, reason: 'answered HTTP 404' },
      { url: `${otherHost}/remote.png`, reason: 'not on the imported site: left as a link to it' },
    ]);

    const files = (await t.call('GET', `${base}/files`, { token: admin.token })).json().items;
    // The logo and its copy are one file.
    expect(files.map((file: any) => [file.name, file.contentType]).sort()).toEqual([
      ['guide.pdf', 'application/pdf'],
      ['logo.png', 'image/png'],
      ['wide.png', 'image/png'],
    ]);
    const byName = new Map(files.map((file: any) => [file.name, file]));
    const logo: any = byName.get('logo.png');
    const pdf: any = byName.get('guide.pdf');
    expect(logo.dimensions).toEqual({ width: 1, height: 1 });
    const downloaded = await t.call('GET', new URL(pdf.downloadURL).pathname, {});
    expect(downloaded.statusCode, `${pdf.downloadURL}: ${downloaded.body.slice(0, 200)}`).toBe(200);
    expect(downloaded.rawPayload.equals(PDF)).toBe(true);

    const pages = (await t.call('GET', `${base}/pages`, { token: admin.token })).json().pages;
    const media = pages.find((page: any) => page.title === 'Media');
    // Images alone in a paragraph are an images block: figures.
    expect(media.markdown).toContain(`<img src="/files/${logo.id}" alt="Logo">`);
    expect(media.markdown).toContain(`<img src="/files/${logo.id}" alt="Same logo">`);
    expect(media.markdown).toContain(`<img src="/files/${(byName.get('wide.png') as any).id}" alt="Wide">`);
    expect(media.markdown).toContain(`[the guide (PDF)](/files/${pdf.id})`);
    expect(media.markdown).toContain(`<img src="/assets/missing.png" alt="Broken">`);
    expect(media.markdown).toContain(`<img src="${otherHost}/remote.png" alt="Remote">`);
    expect(media.pages.map((page: any) => page.title)).toEqual(['Next']);
    expect(media.pages[0].markdown).toContain(`<img src="/files/${logo.id}" alt="Logo again">`);
    // The files are the revision's: its links resolve, none broken.
    const links = (await t.call('GET', `${base}/page/${media.id}/links`, { token: admin.token })).json();
    expect(links.items.filter((link: any) => link.relation === 'file').every((link: any) => link.status === 'ok')).toBe(true);

    const graphql = await t.graphql(
      admin.token,
      'mutation($input: ImportWebsiteInput!) { importWebsite(input: $input) { importedResources totalResources failedResources { url reason } } }',
      { input: { spaceId: space.id, changeRequestId: changeRequest.id, url: `${site}/media/next.html` } },
    );
    expect(graphql.data.importWebsite).toEqual({ importedResources: 2, totalResources: 2, failedResources: [] });
  });

  it('converts what documentation sites render into the dialect, which reads back as those blocks', async () => {
    const rich = await serveSite({
      '/docs/rich.html': RICH_PAGE,
      '/docs/guide.html': '<html><head><title>Guide</title></head><body><main><h2 id="install">Install</h2><p>Run it.</p></main></body></html>',
    });
    const { admin, space } = await setup();
    const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: admin.token, body: {} })).json();
    const base = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`;
    const response = await t.call('POST', `${base}/import`, { token: admin.token, body: { url: `${rich}/docs/rich.html`, source: 'website' } });
    expect(response.statusCode, response.body).toBe(201);
    const pages = (await t.call('GET', `${base}/pages`, { token: admin.token })).json().pages;
    const page = pages.find((each: { title: string }) => each.title === 'Rich page');
    const guide = pages.find((each: { title: string }) => each.title === 'Guide');
    const { markdown } = (await t.call('GET', `${base}/page/${page.id}`, { token: admin.token })).json();
    // The stored Markdown is GitBook's dialect (site chrome, asides that are no callouts and buttons left out).
    for (const piece of [
      '# Rich page <a href="#rich" id="rich"></a>',
      `a [link to the guide](/pages/${guide.id}#install)`,
      '{% hint style="warning" %}\nBe _careful_ here.\n{% endhint %}',
      '{% hint style="success" %}\n**Pro tip**\n\nUse the cache.\n{% endhint %}',
      '{% hint style="danger" %}\nNever do this.\n{% endhint %}',
      '| Name | Size |\n| :--- | ---: |\n| a    |    1 |\n| `b`  |    2 |',
      '<table data-header-hidden>',
      '<figure><img src="/img/diagram.png" alt="A diagram"><figcaption><p>The <em>architecture</em></p></figcaption></figure>',
      '{% code title="app.js" %}\n```js\nconst a = 1 < 2;\nconsole.log(a);\n```\n{% endcode %}',
      '```python\nprint("hi")\n```',
      '<details open>\n\n<summary>More <strong>details</strong></summary>\n\nHidden text.',
      '{% tabs %}\n{% tab title="npm" %}\n```sh\nnpm i x\n```\n{% endtab %}\n\n{% tab title="yarn" %}\nyarn add x\n{% endtab %}\n{% endtabs %}',
      '* [x] done\n* [ ] todo',
      '$$\nE = mc^2\n$$',
    ]) {
      expect(markdown).toContain(piece);
    }
    for (const absent of ['Menu', 'Sidebar noise', 'Copy', 'foot']) expect(markdown).not.toContain(absent);

    // The page's document holds the blocks, valid under the official schema.
    const read = await t.call('GET', `${base}/page/${page.id}?format=document`, { token: admin.token });
    expect(read.statusCode, read.body).toBe(200);
    expectMatchesSchema('GET', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}', 200, read.json());
    const document = read.json().document as JSONDocument;
    expect(officialDocumentError(document)).toBeNull();
    expect(document.nodes.map((node) => node.type)).toEqual([
      'heading-1',
      'paragraph',
      'hint',
      'hint',
      'hint',
      'table',
      'table',
      'images',
      'images',
      'code',
      'code',
      'expandable',
      'tabs',
      'list-tasks',
      'math',
      'heading-3',
    ]);
    const nodes = allNodes(document.nodes);
    const byType = (type: string) => nodes.filter((node): node is Block => node.object === 'block' && node.type === type);
    expect(byType('hint').map((hint) => [hint.data?.style, textOf(hint)])).toEqual([
      ['warning', 'Be careful here.'],
      ['success', 'Pro tipUse the cache.'],
      ['danger', 'Never do this.'],
    ]);
    const [gfm, html] = byType('table');
    expect(gfm!.data).toMatchObject({
      view: { type: 'grid', hideHeader: false },
      definition: { c1: { title: 'Name', type: 'text' }, c2: { title: 'Size', textAlignment: 'right' } },
    });
    expect(html!.data).toMatchObject({ view: { type: 'grid', hideHeader: true } });
    expect(html!.fragments!.find((each) => each.fragment === 'r1-c1')!.nodes.map((node) => textOf(node))).toEqual(['One', 'Two']);
    const [figure, alone] = byType('image');
    expect(figure!.data).toEqual({ ref: { kind: 'url', url: '/img/diagram.png' }, alt: 'A diagram' });
    expect(textOf(figure!.fragments![0]!)).toBe('The architecture');
    expect(alone!.data).toEqual({ ref: { kind: 'url', url: '/img/a.png' }, alt: 'Alone' });
    expect(byType('code').map((code) => [code.data, code.nodes!.map((line) => textOf(line))])).toEqual([
      [{ syntax: 'js', title: 'app.js' }, ['const a = 1 < 2;', 'console.log(a);']],
      [{ syntax: 'python' }, ['print("hi")']],
      [{ syntax: 'sh' }, ['npm i x']],
    ]);
    const [expandable] = byType('expandable');
    expect(expandable!.data).toEqual({ defaultExpanded: true });
    expect(textOf(expandable!.fragments![0]!)).toBe('More details');
    expect(expandable!.fragments![1]!.nodes.map((node) => node.type)).toEqual(['paragraph', 'list-unordered']);
    expect(byType('tabs-item').map((tab) => [tab.data?.title, (tab.nodes as Block[]).map((node) => node.type)])).toEqual([
      ['npm', ['code']],
      ['yarn', ['paragraph']],
    ]);
    expect((byType('list-tasks')[0]!.nodes as Block[]).map((item) => item.data?.checked)).toEqual([true, false]);
    expect(byType('math')[0]!.data).toEqual({ formula: 'E = mc^2' });
    const link = nodes.find((node): node is Inline => node.object === 'inline' && node.type === 'link');
    expect(link!.data).toEqual({ ref: { kind: 'anchor', anchor: 'install', page: guide.id } });
  });

  it('converts pages on the worker pool: /healthz answers within 1 s while pages of 33,000 elements are imported', async () => {
    // Three pages of 300 paragraphs of 110 words, each word an element: a second or more of conversion each.
    // (Words, not table cells: each cell would be a paragraph of its own, and parsing 33,000 paragraphs of
    // markdown for their links, when the bodies are stored, still runs on the event loop.)
    const links = [0, 1, 2].map((n) => `/words/${n}.html`);
    const paragraphs = Array.from({ length: 300 }, (_, p) => `<p>${Array.from({ length: 110 }, (_, w) => `<span>p${p}w${w}</span>`).join(' ')}</p>`);
    const page = (n: number) =>
      `<html><head><title>Words ${n}</title></head><body><main><p>${links.map((link) => `<a href="${link}">${link}</a>`).join(' ')}</p>${paragraphs.join('')}</main></body></html>`;
    const words = await serveSite(Object.fromEntries(links.map((link, n) => [link, page(n)])));
    const { admin, space } = await setup();
    const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: admin.token, body: {} })).json();
    const base = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`;
    const {
      result: response,
      slowestMs,
      probes,
    } = await watchHealth(t, () => t.call('POST', `${base}/import`, { token: admin.token, body: { url: `${words}/words/0.html`, source: 'website' } }));
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ importedResources: 3, totalResources: 3, failedResources: [] });
    expect(probes).toBeGreaterThan(1);
    expect(slowestMs).toBeLessThan(1_000);
    const pages = (await t.call('GET', `${base}/pages`, { token: admin.token })).json().pages;
    expect(pages.map((page: any) => page.title)).toEqual(['Words 0', 'Words 1', 'Words 2']);
    const markdown = pages[2].markdown;
    expect(markdown).toContain('\n\np0w0 p0w1 p0w2 ');
    expect(markdown).toContain(' p299w109\n');
    // Links between the imported pages are page links.
    expect(markdown).toContain(`[/words/0.html](/pages/${pages[0].id})`);
  });

  it('refuses a page nested too deep (the parser would overflow its stack) or holding too many elements, naming the limit, writing nothing', async () => {
    const site = await serveSite({
      '/deep.html': `<html><body><main>${'<div>'.repeat(100_000)}deep${'</div>'.repeat(100_000)}</main></body></html>`,
      // Issue 32's page: 2 MB, a table of 1,900 × 100 cells; here behind a page that links it.
      '/docs/': '<html><head><title>Start</title></head><body><main><a href="/docs/huge.html">huge</a></main></body></html>',
      '/docs/huge.html': `<html><body><main><table>${`<tr>${'<td>1</td>'.repeat(100)}</tr>`.repeat(1_900)}</table></main></body></html>`,
    });
    const { admin, space } = await setup();
    const before = (await t.database.db.space.findUniqueOrThrow({ where: { id: space.id } })).revisionId;
    const deep = await t.call('POST', `/v1/spaces/${space.id}/content/import`, { token: admin.token, body: { url: `${site}/deep.html`, source: 'website' } });
    expect(deep.statusCode, deep.body).toBe(400);
    expect(deep.json().error.message).toBe(`url: ${site}/deep.html nests HTML elements more than 512 deep, the most a page may nest`);
    const { result: huge, slowestMs } = await watchHealth(t, () =>
      t.call('POST', `/v1/spaces/${space.id}/content/import`, { token: admin.token, body: { url: `${site}/docs/`, source: 'website' } }),
    );
    expect(huge.statusCode, huge.body).toBe(400);
    expect(huge.json().error.message).toBe(`url: ${site}/docs/huge.html has more than 50,000 HTML elements, the most a page may have`);
    expect(slowestMs).toBeLessThan(1_000);
    expect((await t.database.db.space.findUniqueOrThrow({ where: { id: space.id } })).revisionId).toBe(before);
  });

  it('stops crawling and fetching once the pages and files it holds reach its bound', async () => {
    const { admin, space } = await setup();
    const bound = IMPORT_LIMITS.maxHeldBytes;
    // The media page's markdown (some 250 bytes) fills it: its files and the next page are not fetched.
    IMPORT_LIMITS.maxHeldBytes = 128;
    try {
      const response = await t.call('POST', `/v1/spaces/${space.id}/content/import`, {
        token: admin.token,
        body: { url: `${site}/media/`, source: 'website' },
      });
      expect(response.statusCode, response.body).toBe(201);
      const result = response.json();
      expect(result.importedResources).toBe(1);
      const unfetched = result.failedResources.filter((failed: any) => failed.reason === 'not fetched: an import holds at most 128 bytes of pages and files');
      expect(unfetched.map((failed: any) => failed.url).sort()).toEqual(
        ['/assets/logo.png', '/media/img/copy-of-logo.png', '/assets/wide.png', '/files/guide.pdf', '/assets/missing.png']
          .map((path) => `${site}${path}`)
          .sort(),
      );
    } finally {
      IMPORT_LIMITS.maxHeldBytes = bound;
    }
  });
});
