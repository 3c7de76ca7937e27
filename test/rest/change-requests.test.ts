import { beforeAll, describe, expect, it } from 'vitest';
import { PDF_LIMITS } from '../../src/domain/content/jobs.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { buildTeam, buildUser } from '../support/factories.ts';
import { watchHealth } from '../support/health-watch.ts';
import { type OfficialClient, expectOfficialError, officialClient } from '../support/official.ts';

let t: TestApp;
let official: OfficialClient;
beforeAll(async () => {
  t = await createTestApp();
  official = await officialClient(t);
});

const CR = '/v1/spaces/{spaceId}/change-requests';

/** An organization with a space, and helpers to open change requests and edit their content as the admin. */
async function setup() {
  const team = await buildTeam(t.database);
  const { admin } = team;
  const created = await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: admin.token, body: { title: 'Guide' } });
  expect(created.statusCode, created.body).toBe(201);
  const space = created.json();
  const open = async (subject?: string) => {
    const response = await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: admin.token, body: subject ? { subject } : {} });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  const edit = async (changeRequest: { id: string }, changes: unknown[], token = admin.token) => {
    const response = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content?compat=false`, {
      token,
      body: { changes },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const merge = (changeRequest: { id: string }) => t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`, { token: admin.token });
  const pages = async (path = `/v1/spaces/${space.id}/content/pages`) => {
    const response = await t.call('GET', path, { token: admin.token });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().pages as Array<Record<string, any>>;
  };
  const page = async (pageId: string, base = `/v1/spaces/${space.id}/content`) => {
    const response = await t.call('GET', `${base}/page/${pageId}?format=markdown`, { token: admin.token });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const spaceRow = () => t.database.db.space.findUniqueOrThrow({ where: { id: space.id } });
  return { ...team, space, open, edit, merge, pages, page, spaceRow };
}

const created = (result: { changes: Array<{ object: string; ref?: string; page: { id: string } }> }, ref: string) =>
  result.changes.find((change) => change.object === 'created_page' && change.ref === ref)!.page.id;

describe('change requests', () => {
  it('opens change requests numbered per space, lists, gets by id or number, and counts them on the space', async () => {
    const { space, admin, open } = await setup();
    const response = await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: admin.token, body: { subject: 'Fix typos' } });
    expect(response.statusCode).toBe(201);
    const first = response.json();
    expectMatchesSchema('POST', CR, 201, first);
    expect(first).toMatchObject({
      object: 'change-request',
      number: 1,
      status: 'open',
      subject: 'Fix typos',
      space: space.id,
      revision: space.revision,
      revisionInitial: space.revision,
      outdated: false,
      createdBy: { id: admin.id },
    });
    expect(response.headers.location).toBe(first.urls.location);
    const second = await open();
    expect(second.number).toBe(2);

    const byNumber = await t.call('GET', `/v1/spaces/${space.id}/change-requests/2`, { token: admin.token });
    expect(byNumber.json().id).toBe(second.id);
    expectMatchesSchema('GET', `${CR}/{changeRequestId}`, 200, byNumber.json());

    await t.call('PATCH', `/v1/spaces/${space.id}/change-requests/${second.id}`, { token: admin.token, body: { status: 'draft' } });
    const listed = await t.call('GET', `/v1/spaces/${space.id}/change-requests`, { token: admin.token });
    expectMatchesSchema('GET', CR, 200, listed.json());
    expect(listed.json().items.map((item: { id: string }) => item.id)).toEqual([first.id]);
    const drafts = await t.call('GET', `/v1/spaces/${space.id}/change-requests?status=draft`, { token: admin.token });
    expect(drafts.json()).toMatchObject({ count: 1, items: [{ id: second.id, status: 'draft' }] });

    const refreshed = (await t.call('GET', `/v1/spaces/${space.id}`, { token: admin.token })).json();
    expect(refreshed).toMatchObject({ changeRequests: 2, changeRequestsOpen: 1, changeRequestsDraft: 1 });
  });

  it('works with the official client', async () => {
    const { space, admin } = await setup();
    const client = official(admin);
    const { data: changeRequest } = await client.spaces.createChangeRequest(space.id, { subject: 'Via the client' });
    expect(changeRequest.number).toBe(1);
    const { data: listed } = await client.spaces.listChangeRequestsForSpace(space.id);
    expect(listed.items.map((item) => item.id)).toEqual([changeRequest.id]);
    const { data: revision } = await client.spaces.getCurrentRevision(space.id);
    expect(revision).toMatchObject({ object: 'revision', id: space.revision, pages: [] });
    await expectOfficialError(client.spaces.getChangeRequestById(space.id, 'cr_missing'), 404);
  });

  it('gives consecutive numbers and exact counts to concurrent creations', async () => {
    const { space, open, spaceRow } = await setup();
    const all = await Promise.all(Array.from({ length: 10 }, (_, index) => open(`Change ${index}`)));
    expect(all.map((changeRequest) => changeRequest.number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await spaceRow()).toMatchObject({ changeRequestNumber: 10, changeRequestsOpen: 10 });
    expect(await t.database.db.changeRequest.count({ where: { spaceId: space.id } })).toBe(10);
  });

  it('rejects bad input, and callers without the level, changing nothing', async () => {
    const { space, admin, member, open } = await setup();
    const changeRequest = await open('Original');
    for (const [body, message] of [
      [{ subject: 'x'.repeat(101) }, /^subject: /],
      [{ status: 'merged' }, /^status: must be draft, open or archived/],
      [{ color: 'red' }, /unknown field "color"/],
    ] as const) {
      const response = await t.call('PATCH', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`, { token: admin.token, body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.message).toMatch(message);
    }
    const listing = await t.call('GET', `/v1/spaces/${space.id}/change-requests?status=closed`, { token: admin.token });
    expect(listing.statusCode).toBe(400);
    expect(listing.json().error.message).toMatch(/^status: /);

    const reader = await member('read');
    expect((await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: reader.token, body: {} })).statusCode).toBe(403);
    expect((await t.call('GET', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`, { token: reader.token })).statusCode).toBe(200);
    const stranger = await buildUser(t.database);
    expect((await t.call('GET', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`, { token: stranger.token })).statusCode).toBe(404);
    expect((await t.call('GET', `/v1/spaces/${space.id}/change-requests`, {})).statusCode).toBe(401);
    const row = await t.database.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequest.id } });
    expect(row).toMatchObject({ subject: 'Original', status: 'open' });
  });
});

describe('change request content', () => {
  it('applies a batch as one revision: inserts nested pages, renames, moves and deletes; the space is unchanged until merged', async () => {
    const { space, admin, open, edit, pages, page, merge, spaceRow } = await setup();
    const changeRequest = await open('Write the guide');
    const result = await edit(changeRequest, [
      { operation: 'insert_page', ref: 'intro', document: { markdown: '# Introduction\n\nWelcome.\n' } },
      { operation: 'insert_page', ref: 'guides', title: 'Guides', document: {} },
      { operation: 'insert_page', ref: 'old', title: 'Old page', document: { markdown: 'Obsolete.\n' } },
    ]);
    expectMatchesSchema('POST', `${CR}/{changeRequestId}/content`, 200, result);
    const introId = created(result, 'intro');
    const guidesId = created(result, 'guides');
    const oldId = created(result, 'old');

    const second = await edit(changeRequest, [
      { operation: 'insert_page', ref: 'start', title: 'Getting started', into: guidesId, document: { markdown: 'Step one.\n' } },
      { operation: 'update_page', page: introId, title: 'Welcome', slug: 'welcome' },
      { operation: 'delete_page', page: oldId },
      { operation: 'update_page', page: guidesId, at: 0 },
    ]);
    const startId = created(second, 'start');
    expect(second.changes.map((change: { object: string }) => change.object)).toEqual(['created_page', 'updated_page', 'deleted_page', 'updated_page']);

    // A page inserted into a page the same batch deletes never existed: only the deleted page is reported.
    const scratch = created(await edit(changeRequest, [{ operation: 'insert_page', ref: 'scratch', title: 'Scratch', document: {} }]), 'scratch');
    const discarded = await edit(changeRequest, [
      { operation: 'insert_page', ref: 'draft', title: 'Draft', into: scratch, document: {} },
      { operation: 'delete_page', page: scratch },
    ]);
    expect(discarded.changes).toEqual([{ object: 'deleted_page', page: scratch }]);

    const base = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`;
    const tree = await pages(`${base}/pages`);
    expect(tree.map((p) => [p.title, p.path])).toEqual([
      ['Guides', 'guides'],
      ['Welcome', 'welcome'],
    ]);
    expect(tree[0]!.pages.map((p: { title: string; path: string }) => [p.title, p.path])).toEqual([['Getting started', 'guides/getting-started']]);
    const start = await page(startId, base);
    expect(start).toMatchObject({ id: startId, markdown: 'Step one.\n', path: 'guides/getting-started', git: { path: 'guides/getting-started.md' } });
    expectMatchesSchema('GET', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/page/{pageId}', 200, start);
    const byPath = await t.call('GET', `${base}/path/${encodeURIComponent('guides/getting-started')}`, { token: admin.token });
    expect(byPath.statusCode, byPath.body).toBe(200);
    expect(byPath.json()).toMatchObject({ id: startId, markdown: 'Step one.\n' });
    expect((await t.call('GET', `${base}/path/guides%2Fmissing`, { token: admin.token })).statusCode).toBe(404);

    // The space has not moved: the change request's revisions are its own.
    expect(await pages()).toEqual([]);
    const crRevision = (await t.call('GET', base, { token: admin.token })).json();
    expectMatchesSchema('GET', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content', 200, crRevision);
    expect(crRevision.parents).toHaveLength(1);

    const merged = await merge(changeRequest);
    expect(merged.statusCode, merged.body).toBe(200);
    expect(merged.json()).toMatchObject({ result: 'merge' });
    const row = await spaceRow();
    expect(row.revisionId).toBe(merged.json().revision);
    expect((await pages()).map((p) => p.title)).toEqual(['Guides', 'Welcome']);
    expect((await page(introId)).markdown).toBe('# Introduction\n\nWelcome.\n');
    const after = await t.database.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequest.id } });
    expect(after).toMatchObject({ status: 'merged', revisionMergedId: row.revisionId });
    expect(row).toMatchObject({ changeRequestsOpen: 0 });
  });

  it('rejects a batch with one bad change as a whole, writing nothing', async () => {
    const { space, admin, open, edit } = await setup();
    const changeRequest = await open();
    await edit(changeRequest, [{ operation: 'insert_page', title: 'Kept', document: {} }]);
    const before = await t.database.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequest.id } });
    const revisions = await t.database.db.revision.count({ where: { spaceId: space.id } });
    for (const [changes, message] of [
      [
        [
          { operation: 'insert_page', title: 'New', document: {} },
          { operation: 'delete_page', page: 'pg_missing' },
        ],
        /^changes\.1\.page: page "pg_missing" does not exist/,
      ],
      [[{ operation: 'insert_page', title: 'Kept', slug: 'kept', document: {} }], /^changes\.0\.slug: the slug "kept" is already used/],
      [[{ operation: 'rename_page', page: 'x' }], /^changes\.0\.operation: must be an object whose operation is/],
      [[], /^changes: /],
      [Array.from({ length: 51 }, () => ({ operation: 'insert_page', document: {} })), /^changes: /],
    ] as const) {
      const response = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { token: admin.token, body: { changes } });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error.message).toMatch(message);
    }
    expect(await t.database.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequest.id } })).toEqual(before);
    expect(await t.database.db.revision.count({ where: { spaceId: space.id } })).toBe(revisions);
  });

  it('shares unchanged pages between revisions and stores each body once', async () => {
    const { space, open, edit } = await setup();
    const changeRequest = await open();
    const result = await edit(changeRequest, [
      { operation: 'insert_page', ref: 'a', title: 'A', document: { markdown: 'Same body\n' } },
      { operation: 'insert_page', ref: 'b', title: 'B', document: { markdown: 'Same body\n' } },
    ]);
    await edit(changeRequest, [{ operation: 'update_page', page: created(result, 'a'), title: 'A2' }]);
    expect(await t.database.db.document.count({ where: { spaceId: space.id } })).toBe(1);
    // B's version is shared by both revisions; A has two versions.
    expect(await t.database.db.pageVersion.count({ where: { spaceId: space.id } })).toBe(3);
  });
});

describe('merging and updating', () => {
  async function twoChangeRequestsOnOnePage() {
    const world = await setup();
    const first = await world.open('Seed');
    const seeded = await world.edit(first, [{ operation: 'insert_page', ref: 'p', title: 'Page', document: { markdown: 'one\ntwo\nthree\nfour\nfive\n' } }]);
    expect((await world.merge(first)).statusCode).toBe(200);
    const pageId = created(seeded, 'p');
    const left = await world.open('Left');
    const right = await world.open('Right');
    return { ...world, pageId, left, right };
  }

  it('merges changes to different lines of one page, and marks the other change request outdated until updated', async () => {
    const { space, admin, pageId, left, right, edit, merge, page, spaceRow } = await twoChangeRequestsOnOnePage();
    await edit(left, [{ operation: 'update_page', page: pageId, document: { markdown: 'ONE\ntwo\nthree\nfour\nfive\n' } }]);
    await edit(right, [{ operation: 'update_page', page: pageId, title: 'Renamed', document: { markdown: 'one\ntwo\nthree\nfour\nFIVE\n' } }]);
    expect((await merge(left)).statusCode).toBe(200);
    const outdated = await t.call('GET', `/v1/spaces/${space.id}/change-requests/${right.id}`, { token: admin.token });
    expect(outdated.json().outdated).toBe(true);

    const updated = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${right.id}/update`, { token: admin.token });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ result: 'update' });
    const refreshed = (await t.call('GET', `/v1/spaces/${space.id}/change-requests/${right.id}`, { token: admin.token })).json();
    expect(refreshed).toMatchObject({ outdated: false, revision: updated.json().revision, revisionMergedAncestor: (await spaceRow()).revisionId });
    expect((await page(pageId, `/v1/spaces/${space.id}/change-requests/${right.id}/content`)).markdown).toBe('ONE\ntwo\nthree\nfour\nFIVE\n');

    expect((await merge(right)).statusCode).toBe(200);
    expect(await page(pageId)).toMatchObject({ title: 'Renamed', markdown: 'ONE\ntwo\nthree\nfour\nFIVE\n' });
  });

  it('merges without an update too (three-way from the common ancestor)', async () => {
    const { pageId, left, right, edit, merge, page } = await twoChangeRequestsOnOnePage();
    await edit(left, [{ operation: 'update_page', page: pageId, document: { markdown: 'ONE\ntwo\nthree\nfour\nfive\n' } }]);
    await edit(right, [{ operation: 'update_page', page: pageId, document: { markdown: 'one\ntwo\nthree\nfour\nFIVE\n' } }]);
    expect((await merge(left)).statusCode).toBe(200);
    expect((await merge(right)).statusCode).toBe(200);
    expect((await page(pageId)).markdown).toBe('ONE\ntwo\nthree\nfour\nFIVE\n');
  });

  it('refuses a true conflict with a 409 naming the page, changing nothing', async () => {
    const { space, admin, pageId, left, right, edit, merge, spaceRow } = await twoChangeRequestsOnOnePage();
    await edit(left, [{ operation: 'update_page', page: pageId, document: { markdown: 'one\nLEFT\nthree\nfour\nfive\n' } }]);
    await edit(right, [{ operation: 'update_page', page: pageId, document: { markdown: 'one\nRIGHT\nthree\nfour\nfive\n' } }]);
    expect((await merge(left)).statusCode).toBe(200);
    const spaceBefore = await spaceRow();
    const rightBefore = await t.database.db.changeRequest.findUniqueOrThrow({ where: { id: right.id } });
    const revisions = await t.database.db.revision.count({ where: { spaceId: space.id } });

    const refused = await merge(right);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toMatch(new RegExp(`"Page" \\(${pageId}\\) has body changed on both sides`));
    const updateRefused = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${right.id}/update`, { token: admin.token });
    expect(updateRefused.statusCode).toBe(409);

    expect(await spaceRow()).toEqual(spaceBefore);
    expect(await t.database.db.changeRequest.findUniqueOrThrow({ where: { id: right.id } })).toEqual(rightBefore);
    expect(await t.database.db.revision.count({ where: { spaceId: space.id } })).toBe(revisions);
  });

  it('refuses a page deleted on one side and changed on the other', async () => {
    const { pageId, left, right, edit, merge } = await twoChangeRequestsOnOnePage();
    await edit(left, [{ operation: 'delete_page', page: pageId }]);
    await edit(right, [{ operation: 'update_page', page: pageId, title: 'Still here' }]);
    expect((await merge(left)).statusCode).toBe(200);
    const refused = await merge(right);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toMatch(/was deleted on one side and changed on the other/);
  });

  it('needs the review level to merge, and refuses merged change requests', async () => {
    const { space, member, open, merge } = await setup();
    const editor = await member('edit');
    const changeRequest = await open();
    const byEditor = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`, { token: editor.token });
    expect(byEditor.statusCode).toBe(403);
    expect((await merge(changeRequest)).statusCode).toBe(200);
    expect((await merge(changeRequest)).statusCode).toBe(409);
  });
});

describe('page formats', () => {
  it('answers a page as markdown or as the structured document, and leaves git metadata out with metadata=false', async () => {
    const { space, admin, open, edit, merge } = await setup();
    const changeRequest = await open();
    const markdown =
      '# Install\n\nRun **npm** with `install`, see [the guide](https://example.test/guide) or [home](./p.md).\n\n- one\n- two\n\n```sh\nnpm install\nnpm start\n```\n\n> Note\n\n---\n';
    const result = await edit(changeRequest, [{ operation: 'insert_page', ref: 'p', document: { markdown } }]);
    expect((await merge(changeRequest)).statusCode).toBe(200);
    const pageId = created(result, 'p');
    const url = `/v1/spaces/${space.id}/content/page/${pageId}`;

    const asDocument = await t.call('GET', `${url}?format=document&metadata=false`, { token: admin.token });
    expect(asDocument.statusCode, asDocument.body).toBe(200);
    const body = asDocument.json();
    expectMatchesSchema('GET', '/v1/spaces/{spaceId}/content/page/{pageId}', 200, body);
    expect(body.title).toBe('Install');
    expect(body.git).toBeUndefined();
    expect(body.markdown).toBeUndefined();
    const nodes = body.document.nodes;
    expect(nodes.map((node: { type: string }) => node.type)).toEqual(['heading-1', 'paragraph', 'list-unordered', 'code', 'blockquote', 'divider']);
    const paragraph = nodes[1].nodes;
    expect(paragraph[0].leaves.map((leaf: { text: string; marks: Array<{ type: string }> }) => [leaf.text, leaf.marks.map((m) => m.type)])).toEqual([
      ['Run ', []],
      ['npm', ['bold']],
      [' with ', []],
      ['install', ['code']],
      [', see ', []],
    ]);
    expect(paragraph[1]).toMatchObject({ object: 'inline', type: 'link', data: { ref: { kind: 'url', url: 'https://example.test/guide' } } });
    expect(paragraph[3]).toMatchObject({ type: 'link', data: { ref: { kind: 'page', page: pageId } } });
    expect(nodes[3]).toMatchObject({ data: { syntax: 'sh' }, nodes: [{ type: 'code-line' }, { type: 'code-line' }] });

    const asMarkdown = await t.call('GET', url, { token: admin.token });
    expect(asMarkdown.json()).toMatchObject({ markdown: markdown.replace('./p.md', `/pages/${pageId}`), git: { path: 'install.md' } });
    const bad = await t.call('GET', `${url}?format=html`, { token: admin.token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/^format: /);
  });
});

describe('files', () => {
  // A 2×3 PNG.
  const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAYAAAC56t6BAAAAEklEQVR42mP8z8DwnwEIGBkZAB8bAv8HDz0lAAAAAElFTkSuQmCC';

  it('uploads files with a batch, links them from pages by ref, lists them and serves their bytes', async () => {
    const { space, admin, open, edit, merge, page } = await setup();
    const changeRequest = await open();
    const result = await edit(changeRequest, [
      { operation: 'insert_page', ref: 'p', title: 'Diagram', document: { markdown: 'See ![the diagram](./diagram) and [notes](./notes).\n' } },
      {
        operation: 'insert_files',
        files: [
          { ref: 'diagram', name: 'diagram.png', contentType: 'image/png', base64: PNG },
          { ref: 'notes', name: 'notes.txt', contentType: 'text/plain', base64: Buffer.from('hello files').toString('base64') },
        ],
      },
    ]);
    expect(result.insertedFiles).toHaveLength(2);
    const [diagram, notes] = result.insertedFiles;
    expect(diagram).toMatchObject({ name: 'diagram.png', contentType: 'image/png', dimensions: { width: 2, height: 3 } });
    expect(notes).toMatchObject({ name: 'notes.txt', size: 11 });
    expect((await page(created(result, 'p'), `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`)).markdown).toBe(
      `See ![the diagram](/files/${diagram.id}) and [notes](/files/${notes.id}).\n`,
    );

    const listed = await t.call('GET', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content/files?limit=1`, { token: admin.token });
    expect(listed.statusCode).toBe(200);
    expectMatchesSchema('GET', '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/files', 200, listed.json());
    expect(listed.json()).toMatchObject({ count: 2, next: { page: expect.any(String) } });

    const bytes = await t.call('GET', new URL(notes.downloadURL).pathname, {});
    expect(bytes.statusCode).toBe(200);
    expect(bytes.headers['content-type']).toBe('text/plain');
    expect(bytes.body).toBe('hello files');
    expect((await t.call('GET', `/files/fv_missing/notes.txt`, {})).statusCode).toBe(404);

    expect((await merge(changeRequest)).statusCode).toBe(200);
    const file = await t.call('GET', `/v1/spaces/${space.id}/content/files/${diagram.id}`, { token: admin.token });
    expect(file.statusCode).toBe(200);
    expectMatchesSchema('GET', '/v1/spaces/{spaceId}/content/files/{fileId}', 200, file.json());
    const revision = (await t.call('GET', `/v1/spaces/${space.id}/content`, { token: admin.token })).json();
    expect(revision.files.map((entry: { id: string }) => entry.id).sort()).toEqual([diagram.id, notes.id].sort());
  });

  it('refuses files without bytes, of a bad type or from unreachable URLs, storing nothing', async () => {
    const { space, admin, open } = await setup();
    const changeRequest = await open();
    for (const [file, message] of [
      [{ name: 'a.png', contentType: 'image/png' }, /files\.0\.base64: is required/],
      [{ name: 'a.png', base64: PNG }, /files\.0\.contentType: is required with base64/],
      [{ name: 'a.png', contentType: 'image/png', base64: 'not base64!' }, /files\.0\.base64: must be base64/],
      [{ name: 'a/b.png', contentType: 'image/png', base64: PNG }, /files\.0\.name: must not contain slashes/],
      [{ name: 'a.png', url: 'http://127.0.0.1:1/a.png' }, /changes\.0\.files\.0\.url: .* could not be reached/],
      [{ name: 'a.png', url: 'http://127.0.0.1:1/a.png', base64: PNG }, /files\.0\.url: set either url or base64/],
    ] as const) {
      const response = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
        token: admin.token,
        body: { changes: [{ operation: 'insert_files', files: [file] }] },
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().error.message).toMatch(message);
    }
    expect(await t.database.db.fileVersion.count({ where: { spaceId: space.id } })).toBe(0);
  });
});

describe('duplicating a space', () => {
  it('copies its content: pages, bodies and files, owned by the copy', async () => {
    const { space, admin, open, edit, merge, pages } = await setup();
    const changeRequest = await open();
    await edit(changeRequest, [
      { operation: 'insert_page', ref: 'p', title: 'Kept', document: { markdown: 'Body.\n' } },
      { operation: 'insert_files', files: [{ name: 'a.txt', contentType: 'text/plain', base64: Buffer.from('a').toString('base64') }] },
    ]);
    expect((await merge(changeRequest)).statusCode).toBe(200);
    const copy = (await t.call('POST', `/v1/spaces/${space.id}/duplicate`, { token: admin.token })).json();
    const copied = await pages(`/v1/spaces/${copy.id}/content/pages`);
    expect(copied.map((page) => [page.title, page.markdown])).toEqual([['Kept', 'Body.\n']]);
    const files = (await t.call('GET', `/v1/spaces/${copy.id}/content/files`, { token: admin.token })).json();
    expect(files.items.map((file: { name: string }) => file.name)).toEqual(['a.txt']);
    expect(await t.database.db.pageVersion.count({ where: { spaceId: copy.id } })).toBe(1);
    expect(await t.database.db.fileVersion.count({ where: { spaceId: copy.id } })).toBe(1);
  });
});

describe('links in markdown', () => {
  it('resolves links to pages by slug path, Git file path and relative path; unknown page links become text', async () => {
    const { space, open, edit, page } = await setup();
    const changeRequest = await open();
    const tree = await edit(changeRequest, [
      { operation: 'insert_page', ref: 'guides', title: 'Guides', document: { markdown: 'Guides.\n' } },
      { operation: 'insert_page', ref: 'faq', title: 'FAQ', document: { markdown: 'Questions.\n' } },
    ]);
    const guides = created(tree, 'guides');
    const faq = created(tree, 'faq');
    const nested = await edit(changeRequest, [
      { operation: 'insert_page', ref: 'start', into: guides, title: 'Start', document: { markdown: 'Start.\n' } },
      {
        operation: 'insert_page',
        ref: 'install',
        into: guides,
        title: 'Install',
        document: {
          markdown:
            'See [start](./start.md), [the FAQ](/pages/faq), [guides](../guides/README.md), [faq file](/pages/faq.md#top), ' +
            `[by id](/pages/${faq}), [away](https://example.test), [gone](/pages/nowhere).\n`,
        },
      },
    ]);
    const start = created(nested, 'start');
    const install = await page(created(nested, 'install'), `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`);
    expect(install.markdown).toBe(
      `See [start](/pages/${start}), [the FAQ](/pages/${faq}), [guides](/pages/${guides}), [faq file](/pages/${faq}#top), ` +
        `[by id](/pages/${faq}), [away](https://example.test), gone.\n`,
    );
  });
});

describe('links and backlinks', () => {
  it('lists the links of the content with their status and stats, per page, and the pages linking a file', async () => {
    const { space, admin, open, edit, merge } = await setup();
    const first = await open();
    const seeded = await edit(first, [
      { operation: 'insert_page', ref: 'target', title: 'Target', document: { markdown: 'Linked to.\n' } },
      {
        operation: 'insert_page',
        ref: 'source',
        title: 'Source',
        document: { markdown: 'See [target](./target.md), ![logo](./logo), [the app](http://app.docs-gateway.test/s/x) and [away](https://example.test).\n' },
      },
      { operation: 'insert_files', files: [{ ref: 'logo', name: 'logo.png', contentType: 'image/png', base64: Buffer.from('png').toString('base64') }] },
    ]);
    expect((await merge(first)).statusCode).toBe(200);
    const targetId = created(seeded, 'target');
    const sourceId = created(seeded, 'source');
    const fileId = seeded.insertedFiles[0].id;

    // A change request that deletes the target: one broken link there.
    const second = await open();
    await edit(second, [{ operation: 'delete_page', page: targetId }]);

    const links = await t.call('GET', `/v1/spaces/${space.id}/links`, { token: admin.token });
    expect(links.statusCode, links.body).toBe(200);
    expectMatchesSchema('GET', '/v1/spaces/{spaceId}/links', 200, links.json());
    const body = links.json();
    expect(body.stats).toEqual({ total: 4, broken: { total: 0, changeRequest: 1 } });
    const byTarget = Object.fromEntries(body.items.map((item: any) => [JSON.stringify(item.targetReference), item]));
    expect(byTarget[JSON.stringify({ kind: 'page', page: targetId })]).toMatchObject({
      status: 'ok',
      locationReferences: [{ kind: 'page', page: sourceId, space: space.id }],
    });
    expect(byTarget[JSON.stringify({ kind: 'url', url: 'http://app.docs-gateway.test/s/x' })].status).toBe('in-app');
    const inApp = (await t.call('GET', `/v1/spaces/${space.id}/links?status=in-app`, { token: admin.token })).json();
    expect(inApp.items).toHaveLength(1);

    const crBase = `/v1/spaces/${space.id}/change-requests/${second.id}/content`;
    const broken = (await t.call('GET', `${crBase}/page/${sourceId}/links?status=broken`, { token: admin.token })).json();
    expect(broken.items).toEqual([expect.objectContaining({ status: 'broken', targetReference: { kind: 'page', page: targetId } })]);
    expect((await t.call('GET', `${crBase}/page/pg_missing/links`, { token: admin.token })).statusCode).toBe(404);

    const backlinks = await t.call('GET', `/v1/spaces/${space.id}/content/files/${fileId}/backlinks`, { token: admin.token });
    expect(backlinks.statusCode).toBe(200);
    expectMatchesSchema('GET', '/v1/spaces/{spaceId}/content/files/{fileId}/backlinks', 200, backlinks.json());
    expect(backlinks.json()).toMatchObject({ count: 1, items: [{ kind: 'page', page: sourceId, versionContext: { type: 'revision' } }] });
    expect((await t.call('GET', `/v1/spaces/${space.id}/links?status=gone`, { token: admin.token })).statusCode).toBe(400);
  });
});

describe('links in table-of-contents order', () => {
  it('lists and pages the links as the pages appear in the table of contents, whatever order they were written in', async () => {
    const { space, admin, open, edit, merge } = await setup();
    const request = await open();
    const written = await edit(request, [
      { operation: 'insert_page', ref: 'second', title: 'Second', document: { markdown: '[b](https://b.example.test)\n' } },
      { operation: 'insert_page', ref: 'first', title: 'First', at: 0, document: { markdown: '[a](https://a.example.test)\n' } },
    ]);
    await edit(request, [
      { operation: 'insert_page', title: 'Child', into: created(written, 'first'), document: { markdown: '[c](https://c.example.test)\n' } },
    ]);
    expect((await merge(request)).statusCode).toBe(200);
    const inOrder = ['https://a.example.test', 'https://c.example.test', 'https://b.example.test'];

    const all = (await t.call('GET', `/v1/spaces/${space.id}/links`, { token: admin.token })).json();
    expect(all.items.map((item: any) => item.targetReference.url)).toEqual(inOrder);
    const paged: string[] = [];
    let page: string | undefined;
    do {
      const body = (await t.call('GET', `/v1/spaces/${space.id}/links?limit=1${page ? `&page=${page}` : ''}`, { token: admin.token })).json();
      paged.push(...body.items.map((item: any) => item.targetReference.url));
      page = body.next?.page;
    } while (page);
    expect(paged).toEqual(inOrder);

    const graph = await t.graphql(admin.token, 'query($id: ID!) { space(id: $id) { links { target } } }', { id: space.id });
    expect(graph.data.space.links.map((link: any) => link.target.url)).toEqual(inOrder);
  });
});

describe('PDF export', () => {
  it('renders the change request content as a PDF a parser reads back: all pages, a page with its pages, one page', async () => {
    const { PDFDocument } = await import('pdf-lib');
    const { space, admin, open, edit } = await setup();
    const changeRequest = await open('Handbook export');
    const seeded = await edit(changeRequest, [
      {
        operation: 'insert_page',
        ref: 'a',
        title: 'Über uns',
        document: { markdown: '# Über uns\n\nΚαλημέρα, привет — **hello**.\n\n- one\n- two\n\n```\ncode\n```\n' },
      },
      { operation: 'insert_page', ref: 'b', title: 'Policies', document: { markdown: 'Rules.\n' } },
    ]);
    await edit(changeRequest, [{ operation: 'insert_page', into: created(seeded, 'b'), title: 'Leave', document: { markdown: 'Days off.\n' } }]);
    const pdfOf = async (query: string) => {
      const response = await t.call('GET', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/pdf${query}`, { token: admin.token });
      expect(response.statusCode, response.body).toBe(200);
      const { url } = response.json();
      const download = await t.call('GET', new URL(url).pathname, {});
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-type']).toBe('application/pdf');
      return PDFDocument.load(download.rawPayload);
    };
    const all = await pdfOf('');
    expect(all.getPageCount()).toBeGreaterThanOrEqual(3);
    expect(all.getTitle()).toBe('Handbook export');
    expect((await pdfOf(`?page=${created(seeded, 'b')}`)).getPageCount()).toBe(2);
    expect((await pdfOf(`?only=true&page=${created(seeded, 'b')}`)).getPageCount()).toBe(1);
    const missing = await t.call('GET', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/pdf?only=true`, { token: admin.token });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.message).toMatch(/^page: is required/);
    expect((await t.call('GET', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/pdf?page=pg_nope`, { token: admin.token })).statusCode).toBe(404);
    expect((await t.call('GET', `/exports/${'0'.repeat(64)}/x.pdf`, {})).statusCode).toBe(404);
  });

  it('lays out a large PDF on the worker pool: /healthz answers within 1 s meanwhile; content over the bound is refused before it is read', async () => {
    const { PDFDocument } = await import('pdf-lib');
    const { space, admin, open, edit } = await setup();
    const changeRequest = await open('Large export');
    // Ten pages of 5,000 paragraphs (some 450 KB each): seconds of layout.
    const body = (page: number) =>
      Array.from({ length: 5_000 }, (_, i) => `Page ${page}, paragraph ${i}: the quick brown fox jumps over the lazy dog.`).join('\n\n');
    await edit(
      changeRequest,
      Array.from({ length: 10 }, (_, page) => ({ operation: 'insert_page', title: `Part ${page}`, document: { markdown: body(page) } })),
    );
    const url = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/pdf`;
    const { result: response, slowestMs, probes } = await watchHealth(t, () => t.call('GET', url, { token: admin.token }));
    expect(response.statusCode, response.body).toBe(200);
    expect(probes).toBeGreaterThan(1);
    expect(slowestMs).toBeLessThan(1_000);
    const download = await t.call('GET', new URL(response.json().url).pathname, {});
    const pdf = await PDFDocument.load(download.rawPayload);
    expect(pdf.getTitle()).toBe('Large export');
    // Each part starts a sheet, and 5,000 paragraphs fill many more.
    expect(pdf.getPageCount()).toBeGreaterThan(100);

    const bound = PDF_LIMITS.maxMarkdownBytes;
    PDF_LIMITS.maxMarkdownBytes = 1_000_000;
    try {
      // Another address than the one answered above (the response cache keeps that answer).
      const refused = await t.call('GET', `${url}?only=false`, { token: admin.token });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error.message).toMatch(
        /^page: the content holds 3,\d{3},\d{3} bytes of markdown, more than the 1,000,000 a PDF may lay out: export a part of it \(page, only\)$/,
      );
    } finally {
      PDF_LIMITS.maxMarkdownBytes = bound;
    }
  });
});

describe('listing by contributor', () => {
  it('lists the change requests whose content a user changed', async () => {
    const { space, admin, member, open, edit } = await setup();
    const bob = await member('edit');
    const byAdmin = await open('Admin edits');
    const byBob = await open('Bob edits');
    await edit(byAdmin, [{ operation: 'insert_page', title: 'A', document: {} }]);
    await edit(byBob, [{ operation: 'insert_page', title: 'B', document: {} }], bob.token);
    const listed = await t.call('GET', `/v1/spaces/${space.id}/change-requests?contributor=${bob.id}`, { token: admin.token });
    expect(listed.json()).toMatchObject({ count: 1, items: [{ id: byBob.id }] });
    const none = await t.call('GET', `/v1/spaces/${space.id}/change-requests?contributor=usr_nobody`, { token: admin.token });
    expect(none.json()).toMatchObject({ count: 0, items: [] });
  });

  it('lists those a user opened (creator), over REST and GraphQL alike', async () => {
    const { space, admin, member, open, edit } = await setup();
    const bob = await member('edit');
    const openedByAdmin = await open('Opened by admin');
    const openedByBob = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: bob.token, body: { subject: 'Opened by Bob' } })).json();
    // Bob edits the admin's request too: a contributor to it, not its creator.
    await edit(openedByAdmin, [{ operation: 'insert_page', title: 'A', document: {} }], bob.token);
    const rest = async (query: string) =>
      (await t.call('GET', `/v1/spaces/${space.id}/change-requests?${query}`, { token: admin.token })).json().items.map((item: { id: string }) => item.id);
    const graphql = async (args: string) =>
      (
        await t.graphql(admin.token, `query($id: ID!) { space(id: $id) { changeRequestsConnection(${args}) { edges { node { id } } } } }`, { id: space.id })
      ).data.space.changeRequestsConnection.edges.map((edge: { node: { id: string } }) => edge.node.id);
    expect(await rest(`creator=${bob.id}`)).toEqual([openedByBob.id]);
    expect(await graphql(`creator: "${bob.id}"`)).toEqual([openedByBob.id]);
    expect(await rest(`creator=${admin.id}`)).toEqual([openedByAdmin.id]);
    expect(await graphql(`creator: "${admin.id}"`)).toEqual([openedByAdmin.id]);
    expect(await graphql(`contributor: "${bob.id}"`)).toEqual(await rest(`contributor=${bob.id}`));
    expect((await rest(`contributor=${bob.id}`)).sort()).toEqual([openedByAdmin.id]);
  });
});
