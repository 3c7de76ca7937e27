import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { closeWhenFileEnds } from '../support/cleanup.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { buildTeam } from '../support/factories.ts';

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
    expect(media.markdown).toContain(`![Logo](/files/${logo.id})`);
    expect(media.markdown).toContain(`![Same logo](/files/${logo.id})`);
    expect(media.markdown).toContain(`![Wide](/files/${(byName.get('wide.png') as any).id})`);
    expect(media.markdown).toContain(`[the guide (PDF)](/files/${pdf.id})`);
    expect(media.markdown).toContain(`![Broken](/assets/missing.png)`);
    expect(media.markdown).toContain(`![Remote](${otherHost}/remote.png)`);
    expect(media.pages.map((page: any) => page.title)).toEqual(['Next']);
    expect(media.pages[0].markdown).toContain(`![Logo again](/files/${logo.id})`);
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
});
