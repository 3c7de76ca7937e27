import { beforeAll, describe, expect, it } from 'vitest';
import { revisionRoutes } from '../../src/rest/routes/content.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { buildTeam, buildUser } from '../support/factories.ts';
import { expectError } from '../support/http.ts';
import { type OfficialClient, expectOfficialError, officialClient } from '../support/official.ts';

/**
 * Any revision of a space read by its id (`/v1/spaces/{spaceId}/revisions/{revisionId}…`,
 * the official revision-scoped operations): its tree, pages, documents, files
 * and what it changed, in the official shapes through the official client; by
 * whoever sees the space; the same however the content moved on since.
 */

let t: TestApp;
/** No kept page trees and no cached answers: what the database holds, read afresh every time. */
let bare: TestApp;
let official: OfficialClient;
beforeAll(async () => {
  t = await createTestApp();
  bare = await createTestApp({ responseCacheBytes: 0, pageTreeCacheBytes: 0 });
  official = await officialClient(t);
});

const BASE = '/v1/spaces/{spaceId}/revisions/{revisionId}';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const GUIDE = '# Guide\n\nSee [the setup](./setup).\n\n## Steps\n\n- one\n- two\n\n## Steps\n\nAgain, **twice**.\n';

/**
 * A space (of a new organization, or of `organization`) whose content is Guide
 * (→ Intro), Setup and Empty, with a file, merged from a change request; and
 * an open change request that edits Setup.
 */
async function setup(organization?: Awaited<ReturnType<typeof buildTeam>>) {
  const team = organization ?? (await buildTeam(t.database));
  const token = team.admin.token;
  const rest = async (method: string, url: string, body?: unknown) => {
    const response = await t.call(method, url, { token, ...(body === undefined ? {} : { body }) });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return response.json();
  };
  const space = await rest('POST', `/v1/orgs/${team.organization.id}/spaces`, { title: 'History' });
  const open = () => rest('POST', `/v1/spaces/${space.id}/change-requests`, {});
  const edit = async (changeRequestId: string, changes: unknown[]) => {
    const body = await rest('POST', `/v1/spaces/${space.id}/change-requests/${changeRequestId}/content?compat=false`, { changes });
    return (ref: string) => body.changes.find((change: any) => change.ref === ref)?.page.id as string;
  };
  const merge = (changeRequestId: string) => rest('POST', `/v1/spaces/${space.id}/change-requests/${changeRequestId}/merge`);
  const first = await open();
  const top = await edit(first.id, [
    { operation: 'insert_page', title: 'Setup', slug: 'setup', document: { markdown: 'Install it.\n' }, ref: 'setup' },
    { operation: 'insert_files', files: [{ name: 'pixel.png', contentType: 'image/png', base64: PNG }] },
  ]);
  const setupPage = top('setup');
  const guide = (
    await edit(first.id, [
      { operation: 'insert_page', title: 'Guide', slug: 'guide', document: { markdown: GUIDE.replace('./setup', `/pages/${setupPage}`) }, ref: 'guide' },
    ])
  )('guide');
  const intro = (
    await edit(first.id, [{ operation: 'insert_page', title: 'Intro', slug: 'intro', into: guide, document: { markdown: 'Intro text.\n' }, ref: 'intro' }])
  )('intro');
  // An empty page: a document without a body.
  const empty = (await edit(first.id, [{ operation: 'insert_page', title: 'Empty', slug: 'empty', document: {}, ref: 'empty' }]))('empty');
  await merge(first.id);
  const merged = (await rest('GET', `/v1/spaces/${space.id}`)).revision as string;
  const changeRequest = await open();
  await edit(changeRequest.id, [{ operation: 'update_page', page: setupPage, document: { markdown: 'Install it twice.\n' } }]);
  const draft = (await rest('GET', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`)).revision as string;
  const fileId = (await rest('GET', `/v1/spaces/${space.id}/content/files`)).items[0].id as string;
  return { team, token, rest, space, first, changeRequest, merged, draft, merge, open, edit, pages: { guide, intro, setup: setupPage, empty }, fileId };
}

async function get(app: TestApp, token: string, url: string) {
  const response = await app.call('GET', url, { token });
  expect(response.statusCode, `GET ${url}: ${response.body}`).toBe(200);
  return response.json();
}

describe('a revision read by its id', () => {
  it('answers as the content it was when current, in the official shapes, through the official client: space history and change requests alike', async () => {
    const w = await setup();
    const reader = await w.team.member('read');
    const client = official(reader);
    const spaceId = w.space.id;
    const cases = [
      { revisionId: w.merged, current: `/v1/spaces/${spaceId}/content`, type: 'merge' },
      { revisionId: w.draft, current: `/v1/spaces/${spaceId}/change-requests/${w.changeRequest.id}/content`, type: 'edits' },
    ];
    for (const { revisionId, current, type } of cases) {
      const same = (url: string) => get(t, reader.token, `${current}${url}`);
      const revision = (await client.spaces.getRevisionById(spaceId, revisionId)).data;
      expectMatchesSchema('GET', BASE, 200, revision);
      expect(revision).toEqual(await same(''));
      expect([revision.id, revision.type]).toEqual([revisionId, type]);
      if (type === 'merge') expect((revision as any).mergedFrom.id).toBe(w.first.id);

      const pages = (await client.spaces.listPagesInRevisionById(spaceId, revisionId, { metadata: false })).data;
      expectMatchesSchema('GET', `${BASE}/pages`, 200, pages);
      expect(pages).toEqual(await same('/pages?metadata=false'));
      expect(pages.pages.map((page) => page.title)).toEqual(['Setup', 'Guide', 'Empty']);

      for (const format of ['markdown', 'document'] as const) {
        const page = (await client.spaces.getPageInRevisionById(spaceId, revisionId, w.pages.guide, { format })).data;
        expectMatchesSchema('GET', `${BASE}/page/{pageId}`, 200, page);
        expect(page).toEqual(await same(`/page/${w.pages.guide}?format=${format}`));
      }
      // A renderer sends the path URL-encoded, slashes and all.
      const byPath = (await client.spaces.getPageInRevisionByPath(spaceId, revisionId, encodeURIComponent('guide/intro'))).data;
      expectMatchesSchema('GET', `${BASE}/path/{pagePath}`, 200, byPath);
      expect(byPath).toEqual(await same('/path/guide/intro'));
      expect(byPath.id).toBe(w.pages.intro);
      expect((await client.spaces.getPageInRevisionByPath(spaceId, revisionId, 'guide/intro')).data).toEqual(byPath);

      const files = (await client.spaces.listFilesInRevisionById(spaceId, revisionId)).data;
      expectMatchesSchema('GET', `${BASE}/files`, 200, files);
      expect(files).toEqual(await same('/files'));
      expect(files.items.map((file) => file.name)).toEqual(['pixel.png']);
      const file = (await client.spaces.getFileInRevisionById(spaceId, revisionId, w.fileId)).data;
      expectMatchesSchema('GET', `${BASE}/files/{fileId}`, 200, file);
      expect(file).toEqual(await same(`/files/${w.fileId}`));
    }
    // The change request's revision holds its edit, the space's the merged page.
    const setupIn = async (revisionId: string) =>
      ((await client.spaces.getPageInRevisionById(spaceId, revisionId, w.pages.setup, { format: 'markdown' })).data as any).markdown;
    expect([await setupIn(w.merged), await setupIn(w.draft)]).toEqual(['Install it.\n', 'Install it twice.\n']);

    // Missing pages and files are 404s, as in the content they were read from.
    await expectOfficialError(client.spaces.getPageInRevisionById(spaceId, w.merged, 'pg_missing'), 404);
    await expectOfficialError(client.spaces.getPageInRevisionByPath(spaceId, w.merged, 'nowhere'), 404);
    await expectOfficialError(client.spaces.getFileInRevisionById(spaceId, w.merged, 'fil_missing'), 404);
    expectError(
      await t.call('GET', `/v1/spaces/${spaceId}/revisions/${w.merged}/pages?metadata=maybe`, { token: reader.token }),
      400,
      'metadata: must be true or false',
    );
  });

  it('answers a page document as the official JSONDocument: as stored, or evaluated with the anchors of its headings', async () => {
    const w = await setup();
    const client = official(await w.team.member('read'));
    const spaceId = w.space.id;
    const DOCUMENT = `${BASE}/page/{pageId}/document`;
    const stored = (await client.spaces.getPageDocumentInRevisionById(spaceId, w.merged, w.pages.guide)).data;
    expectMatchesSchema('GET', DOCUMENT, 200, stored);
    // The document `format=document` answers, which the page's markdown is read as.
    expect(stored).toEqual((await get(t, w.token, `/v1/spaces/${spaceId}/content/page/${w.pages.guide}?format=document`)).document);
    const headings = (document: any) => document.nodes.filter((node: any) => node.type.startsWith('heading-'));
    expect(headings(stored).map((node: any) => [node.type, node.meta])).toEqual([
      ['heading-1', undefined],
      ['heading-2', undefined],
      ['heading-2', undefined],
    ]);
    expect((stored.nodes.find((node) => node.type === 'paragraph') as any).nodes[1]).toMatchObject({
      object: 'inline',
      type: 'link',
      data: { ref: { kind: 'page', page: w.pages.setup } },
    });

    // Evaluated (all, or deterministic inputs only: the same here): each heading's anchor, unique in the page; the rest as stored.
    for (const evaluated of [true, 'deterministic-only'] as const) {
      const document = (await client.spaces.getPageDocumentInRevisionById(spaceId, w.merged, w.pages.guide, { evaluated })).data;
      expectMatchesSchema('GET', DOCUMENT, 200, document);
      expect(headings(document).map((node: any) => node.meta.id)).toEqual(['guide', 'steps', 'steps-2']);
      const withoutMeta = { ...document, nodes: document.nodes.map(({ meta: _meta, ...node }: any) => node) };
      expect(withoutMeta).toEqual(stored);
    }
    // Nothing here expands in place: no reusable content.
    for (const dereferenced of [true, 'reusable-contents', false] as const) {
      expect((await client.spaces.getPageDocumentInRevisionById(spaceId, w.merged, w.pages.guide, { dereferenced })).data).toEqual(stored);
    }
    // The page reads in `format=document` read the document the same way.
    const page = await get(t, w.token, `/v1/spaces/${spaceId}/revisions/${w.merged}/page/${w.pages.guide}?format=document&evaluated=true`);
    expectMatchesSchema('GET', `${BASE}/page/{pageId}`, 200, page);
    expect(headings(page.document).map((node: any) => node.meta.id)).toEqual(['guide', 'steps', 'steps-2']);
    // A page without a body: an empty document.
    const empty = (await client.spaces.getPageDocumentInRevisionById(spaceId, w.merged, w.pages.empty, { evaluated: true })).data;
    expectMatchesSchema('GET', DOCUMENT, 200, empty);
    expect(empty).toEqual({ object: 'document', data: {}, nodes: [] });

    const url = `/v1/spaces/${spaceId}/revisions/${w.merged}/page/${w.pages.guide}/document`;
    expectError(await t.call('GET', `${url}?evaluated=maybe`, { token: w.token }), 400, 'evaluated: must be true, false or deterministic-only');
    expectError(await t.call('GET', `${url}?dereferenced=1`, { token: w.token }), 400, 'dereferenced: must be true, false or reusable-contents');
    expectError(
      await t.call('GET', `/v1/spaces/${spaceId}/content/page/${w.pages.guide}?format=document&evaluated=yes`, { token: w.token }),
      400,
      'evaluated: must be true, false or deterministic-only',
    );
    await expectOfficialError(client.spaces.getPageDocumentInRevisionById(spaceId, w.merged, 'pg_missing'), 404);
  });

  for (const caches of ['kept', 'not kept'] as const) {
    it(`stays readable and unchanged after newer revisions (page trees and answers ${caches})`, async () => {
      const w = await setup();
      const app = caches === 'kept' ? t : bare;
      const everything = async (revisionId: string) => {
        const base = `/v1/spaces/${w.space.id}/revisions/${revisionId}`;
        const urls = [
          '',
          '/pages',
          `/page/${w.pages.guide}`,
          `/page/${w.pages.setup}?format=document`,
          '/path/guide/intro',
          `/page/${w.pages.guide}/document?evaluated=true`,
          '/files',
          `/files/${w.fileId}`,
          `/files/${w.fileId}/backlinks`,
          `/page/${w.pages.guide}/links`,
          `/page/${w.pages.guide}/meta-links`,
          '/changes?limit=100',
        ];
        return Object.fromEntries(await Promise.all(urls.map(async (url) => [url, await get(app, w.token, `${base}${url}`)])));
      };
      const before = { merged: await everything(w.merged), draft: await everything(w.draft) };

      // The space moves on: every page and the file touched, merged twice; the change request brought up to date.
      const next = await w.open();
      await w.edit(next.id, [
        { operation: 'update_page', page: w.pages.guide, title: 'Guide 2', document: { markdown: '# Other\n' } },
        { operation: 'update_page', page: w.pages.intro, into: null },
        { operation: 'delete_page', page: w.pages.empty },
        { operation: 'insert_files', files: [{ name: 'pixel.png', contentType: 'image/png', base64: Buffer.from('other').toString('base64') }] },
      ]);
      await w.merge(next.id);
      const last = await w.open();
      await w.edit(last.id, [{ operation: 'insert_page', title: 'Later', document: { markdown: 'Later.\n' } }]);
      await w.merge(last.id);
      await w.rest('POST', `/v1/spaces/${w.space.id}/change-requests/${w.changeRequest.id}/update`);
      const current = (await w.rest('GET', `/v1/spaces/${w.space.id}`)).revision;
      expect(current).not.toBe(w.merged);
      const titles = (await get(app, w.token, `/v1/spaces/${w.space.id}/content/pages`)).pages.map((page: any) => page.title);
      expect(titles.sort()).toEqual(['Guide 2', 'Intro', 'Later', 'Setup']);
      const updated = await get(app, w.token, `/v1/spaces/${w.space.id}/change-requests/${w.changeRequest.id}/content/pages`);
      expect(updated.pages.map((page: any) => page.title).sort()).toEqual(['Guide 2', 'Intro', 'Later', 'Setup']);

      expect({ merged: await everything(w.merged), draft: await everything(w.draft) }).toEqual(before);
      expect(before.merged['/pages'].pages.map((page: any) => page.title)).toEqual(['Setup', 'Guide', 'Empty']);
    });
  }
});

describe('what a revision changed', () => {
  it('lists the changes against its parent: a merge names its change request, a change request edit its own, a first revision creates all', async () => {
    const w = await setup();
    const reader = await w.team.member('read');
    const client = official(reader);
    const CHANGES = `${BASE}/changes`;
    const summary = (changes: any[]) => changes.map((change) => [change.type, change.page?.title ?? change.file.name]);

    // The merge: what the change request brought, as that change request lists it once merged.
    const merge = (await client.spaces.getRevisionSemanticChanges(w.space.id, w.merged, { limit: 100 })).data as any;
    expectMatchesSchema('GET', CHANGES, 200, merge);
    expect(merge.mergedFrom).toMatchObject({ object: 'change-request', id: w.first.id, status: 'merged' });
    expect(summary(merge.changes)).toEqual([
      ['page_created', 'Setup'],
      ['page_created', 'Guide'],
      ['page_created', 'Intro'],
      ['page_created', 'Empty'],
      ['file_created', 'pixel.png'],
    ]);
    const ofChangeRequest = await get(t, w.token, `/v1/spaces/${w.space.id}/change-requests/${w.first.id}/changes?limit=100`);
    expect(merge.changes).toEqual(ofChangeRequest.changes);
    const mergeRow = await t.database.db.revision.findUniqueOrThrow({ where: { id: w.merged } });
    const initial = (mergeRow.parents as string[])[0]!;
    expect([merge.base, merge.more, merge.next]).toEqual([initial, undefined, undefined]);

    // The change request's edit, against the revision it was written on, with the diff of its body.
    const edit = (await client.spaces.getRevisionSemanticChanges(w.space.id, w.draft)).data as any;
    expectMatchesSchema('GET', CHANGES, 200, edit);
    expect(edit.mergedFrom).toBeUndefined();
    expect(edit.base).toBe(w.merged);
    expect(edit.changes).toEqual([
      expect.objectContaining({
        type: 'page_edited',
        page: expect.objectContaining({ id: w.pages.setup }),
        diff: expect.stringContaining('-Install it.\n+Install it twice.\n'),
      }),
    ]);

    // The space's first revision: no parent, no content, no changes.
    const first = (await client.spaces.getRevisionSemanticChanges(w.space.id, initial)).data as any;
    expectMatchesSchema('GET', CHANGES, 200, first);
    expect(first).toEqual({ changes: [], head: initial });
    // A duplicate's first revision holds the content: all of it created, against nothing.
    const copy = (await t.call('POST', `/v1/spaces/${w.space.id}/duplicate`, { token: w.token })).json();
    const copied = (await client.spaces.getRevisionSemanticChanges(copy.id, copy.revision, { limit: 100 })).data as any;
    expectMatchesSchema('GET', CHANGES, 200, copied);
    expect(summary(copied.changes)).toEqual(summary(merge.changes));
    expect(copied.base).toBeUndefined();
    expect(copied.changes.find((change: any) => change.page?.title === 'Intro').diff).toBe(
      '--- /dev/null\n+++ b/guide/intro.md\n@@ -0,0 +1,1 @@\n+Intro text.\n',
    );

    // Ten by default, as the official API; then page by page with `more` and `next`.
    const url = `/v1/spaces/${w.space.id}/revisions/${w.merged}/changes`;
    const pageOne = await get(t, w.token, `${url}?limit=2`);
    expect([pageOne.changes.length, pageOne.more]).toEqual([2, 3]);
    const pageTwo = await get(t, w.token, `${url}?limit=2&page=${pageOne.next.page}`);
    const pageThree = await get(t, w.token, `${url}?limit=2&page=${pageTwo.next.page}`);
    expect([...pageOne.changes, ...pageTwo.changes, ...pageThree.changes]).toEqual(merge.changes);
    expect(pageThree.next).toBeUndefined();
    expectError(await t.call('GET', `${url}?page=nonsense`, { token: w.token }), 400, /^page: /);
    // A token of another listing (the change request's own) is refused.
    const other = await get(t, w.token, `/v1/spaces/${w.space.id}/change-requests/${w.first.id}/changes?limit=2`);
    expectError(await t.call('GET', `${url}?limit=2&page=${other.next.page}`, { token: w.token }), 400, /^page: /);
    expectError(await t.call('GET', `${url}?limit=0`, { token: w.token }), 400, 'limit: must be at least 1');
  });
});

describe('who reads a revision', () => {
  it('whoever sees the space reads its revisions; guests and other organizations get 404, as for a revision of another space or none', async () => {
    const w = await setup();
    const reader = await w.team.member('read');
    const guest = await w.team.member(null);
    const outsider = await buildUser(t.database, 'outsider');
    // Another space of the same organization, which the admin sees too.
    const other = await setup(w.team);
    const spaceId = w.space.id;
    const callFor = (route: (typeof revisionRoutes)[number], revisionId: string, pages = w.pages, fileId = w.fileId) =>
      route.path
        .replace('/v1', '')
        .replace('{spaceId}', spaceId)
        .replace('{revisionId}', revisionId)
        .replace('{pageId}', pages.guide)
        .replace('{fileId}', fileId)
        .replace('{pagePath}', 'guide');
    expect(revisionRoutes.map((route) => route.operationId).sort()).toEqual(
      [
        'getFileInRevisionById',
        'getPageDocumentInRevisionById',
        'getPageInRevisionById',
        'getPageInRevisionByPath',
        'getRevisionById',
        'getRevisionSemanticChanges',
        'listFileBacklinksInRevision',
        'listFilesInRevisionById',
        'listPageLinksInRevision',
        'listPagesInRevisionById',
        'listRevisionPageMetaLinks',
      ].sort(),
    );
    for (const route of revisionRoutes) {
      for (const revisionId of [w.merged, w.draft]) {
        const url = `/v1${callFor(route, revisionId)}`;
        expect((await t.call('GET', url, { token: reader.token })).statusCode, `${route.operationId} as a reader`).toBe(200);
        expectError(await t.call('GET', url, { token: guest.token }), 404);
        expectError(await t.call('GET', url, { token: outsider.token }), 404);
        expectError(await t.call('GET', url), 401);
      }
      // A revision of another space (its pages and files too), or no revision at all: not in this space.
      expectError(
        await t.call('GET', `/v1${callFor(route, other.merged, other.pages, other.fileId)}`, { token: w.token }),
        404,
        `Revision "${other.merged}" was not found`,
      );
      expectError(await t.call('GET', `/v1${callFor(route, 'rev_missing')}`, { token: w.token }), 404, 'Revision "rev_missing" was not found');
    }
    // Through the official client too.
    await expectOfficialError(official(outsider).spaces.getRevisionById(spaceId, w.merged), 404);
    await expectOfficialError(official(guest).spaces.getPageDocumentInRevisionById(spaceId, w.merged, w.pages.guide), 404);
    await expectOfficialError(official(w.team.admin).spaces.getRevisionById(spaceId, other.merged), 404);
  });
});

describe('meta links of a page', () => {
  it('are answered for the space content, a change request and a revision alike: none are kept, so no alternates', async () => {
    const w = await setup();
    const client = official(await w.team.member('read'));
    const spaceId = w.space.id;
    const answers = [
      [`/v1/spaces/{spaceId}/content/page/{pageId}/meta-links`, (await client.spaces.listSpacePageMetaLinks(spaceId, w.pages.intro)).data],
      [
        `/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}/meta-links`,
        (await client.spaces.listChangeRequestPageMetaLinks(spaceId, w.changeRequest.id, w.pages.intro)).data,
      ],
      [`${BASE}/page/{pageId}/meta-links`, (await client.spaces.listRevisionPageMetaLinks(spaceId, w.draft, w.pages.intro)).data],
    ] as const;
    for (const [path, body] of answers) {
      expectMatchesSchema('GET', path, 200, body);
      expect(body).toEqual({ alternates: [] });
    }
    await expectOfficialError(client.spaces.listSpacePageMetaLinks(spaceId, 'pg_missing'), 404);
    await expectOfficialError(client.spaces.listChangeRequestPageMetaLinks(spaceId, w.changeRequest.id, 'pg_missing'), 404);
    // A page the change request added is not in the space content.
    const added = (await w.edit(w.changeRequest.id, [{ operation: 'insert_page', title: 'Added', document: {}, ref: 'added' }]))('added');
    expect((await client.spaces.listChangeRequestPageMetaLinks(spaceId, w.changeRequest.id, added)).data).toEqual({ alternates: [] });
    await expectOfficialError(client.spaces.listSpacePageMetaLinks(spaceId, added), 404);
  });
});
