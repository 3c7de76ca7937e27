import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type TestApp, createTestApp } from '../support/app.ts';
import { temporaryDirectory } from '../support/cleanup.ts';
import { INLINE_BODY_CHARACTERS } from '../../src/domain/content/model/budgets.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { subscribe } from '../support/event-stream.ts';
import { buildTeam } from '../support/factories.ts';
import { type GitServer, startGitServer } from '../support/git-server.ts';
import { type OfficialClient, officialClient } from '../support/official.ts';

/**
 * Git sync's official operations against a real Git server (git's own http-backend): import and
 * export are queued (204) and their outcome is read with getSpaceGitInfo, through the official
 * client; a repository in GitBook's layout imported and exported again is the same bytes; a
 * project directory in a monorepo; refused credentials, named limits, and a failed import
 * leaving the space as it was.
 */

const RICH = path.join(import.meta.dirname, '..', 'git', 'fixtures', 'rich');

function folder(dir: string, prefix = ''): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const name of fs.readdirSync(dir)) {
    const full = path.join(dir, name);
    if (fs.statSync(full).isDirectory()) Object.assign(out, folder(full, `${prefix}${name}/`));
    else out[`${prefix}${name}`] = fs.readFileSync(full);
  }
  return out;
}

let t: TestApp;
let official: OfficialClient;
let server: GitServer;
let secured: GitServer;

beforeAll(async () => {
  t = await createTestApp({
    gitSync: { cacheDir: temporaryDirectory('git-cache-'), limits: { maxRepoBytes: 5_000_000, maxFileBytes: 200_000, maxPages: 20, timeoutMs: 20_000 } },
  });
  official = await officialClient(t);
  server = await startGitServer();
  secured = await startGitServer({ username: 'writer', password: 's3cr3t-t0ken' });
});
afterAll(async () => {
  await server?.close();
  await secured?.close();
});

const kindOf = (result: { data?: unknown }) => (result.data as { spaceEvents: { kind: string } }).spaceEvents.kind;

async function setup() {
  const team = await buildTeam(t.database);
  const space = (await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Synced' } })).json();
  return { ...team, space };
}

/** The space's GitSyncState once its operation has ended. */
async function settled(spaceId: string, token: string) {
  for (let attempt = 0; attempt < 300; attempt++) {
    const response = await t.call('GET', `/v1/spaces/${spaceId}/git/info`, { token });
    if (response.statusCode === 200 && response.json().operation.state !== 'running') return response.json();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the Git operation did not end');
}

interface PageNode {
  title: string;
  type: string;
  path?: string;
  pages?: PageNode[];
}
const outline = (pages: PageNode[]): unknown[] => pages.map((page) => [page.title, page.type, ...(page.pages?.length ? [outline(page.pages)] : [])]);

describe('Git sync', { timeout: 180_000 }, () => {
  it('imports a repository in GitBook layout and exports it back byte for byte, through the official client', async () => {
    const { admin, space } = await setup();
    server.seed('rich', folder(RICH));
    const api = official(admin);
    const queued = await api.spaces.importGitRepository(space.id, { url: server.url('rich'), ref: 'refs/heads/main' });
    expect(queued.status).toBe(204);
    const info = await settled(space.id, admin.token);
    expect(info.operation, JSON.stringify(info)).toMatchObject({ state: 'success', direction: 'import' });
    expectMatchesSchema('GET', '/v1/spaces/{spaceId}/git/info', 200, info);
    expect((await api.spaces.getSpaceGitInfo(space.id)).data).toMatchObject({ url: server.url('rich'), installationStatus: 'active' });

    const content = (await t.call('GET', `/v1/spaces/${space.id}/content/pages`, { token: admin.token })).json();
    expect(outline(content.pages)).toEqual([
      ['Introduction', 'document'],
      [
        'Getting started',
        'document',
        [
          ['Install', 'document'],
          ['Configure [advanced]', 'document'],
        ],
      ],
      ['Changelog', 'link'],
      [
        'Guides',
        'group',
        [
          ['Writing pages', 'document'],
          ['Blocks', 'document'],
        ],
      ],
    ]);
    const files = (await t.call('GET', `/v1/spaces/${space.id}/content/files`, { token: admin.token })).json();
    expect(files.items.map((file: { name: string }) => file.name).sort()).toEqual(['diagram.png', 'report.pdf']);

    // Exported to an empty repository: the same files, byte for byte.
    server.create('copy');
    await api.spaces.exportToGitRepository(space.id, { url: server.url('copy'), ref: 'refs/heads/main', commitMessage: 'Export from docs-gateway' });
    expect((await settled(space.id, admin.token)).operation).toMatchObject({ state: 'success', direction: 'export' });
    const expected = folder(RICH);
    expect([...server.tree('copy').keys()].sort()).toEqual(Object.keys(expected).sort());
    for (const [filePath, bytes] of Object.entries(expected)) expect(server.show('copy', filePath).equals(bytes), filePath).toBe(true);
    expect(server.log('copy').map((entry) => entry.subject)).toEqual(['Export from docs-gateway']);

    // Imported again: nothing changes, the pages keep their ids.
    const before = content.pages.map((page: { id: string }) => page.id);
    await api.spaces.importGitRepository(space.id, { url: server.url('copy'), ref: 'refs/heads/main' });
    const reimported = await settled(space.id, admin.token);
    expect(reimported.operation.state, JSON.stringify(reimported)).toBe('success');
    const again = (await t.call('GET', `/v1/spaces/${space.id}/content/pages`, { token: admin.token })).json();
    expect(again.pages.map((page: { id: string }) => page.id)).toEqual(before);
  });

  it('exports bodies whose structures are not kept (stored by an older content model): parsed then, kept, and the same bytes', async () => {
    const { admin, space } = await setup();
    server.seed('rich-again', folder(RICH));
    await t.call('POST', `/v1/spaces/${space.id}/git/import`, { token: admin.token, body: { url: server.url('rich-again'), ref: 'refs/heads/main' } });
    expect((await settled(space.id, admin.token)).operation.state).toBe('success');
    const { db } = t.database;
    const documents = await db.document.findMany({ where: { spaceId: space.id }, select: { id: true } });
    const documentIds = documents.map((document) => document.id);
    expect(documentIds.length).toBeGreaterThan(4);
    // What a body stored before its structure was kept looks like.
    await db.documentStructure.deleteMany({ where: { documentId: { in: documentIds } } });

    server.create('copy-again');
    const exported = await t.call('POST', `/v1/spaces/${space.id}/git/export`, {
      token: admin.token,
      body: { url: server.url('copy-again'), ref: 'refs/heads/main', commitMessage: 'Export' },
    });
    expect(exported.statusCode, exported.body).toBe(204);
    expect((await settled(space.id, admin.token)).operation).toMatchObject({ state: 'success', direction: 'export' });
    const expected = folder(RICH);
    expect([...server.tree('copy-again').keys()].sort()).toEqual(Object.keys(expected).sort());
    for (const [filePath, bytes] of Object.entries(expected)) expect(server.show('copy-again', filePath).equals(bytes), filePath).toBe(true);
    // Parsed once, by the export, and kept for the next reader.
    expect(await db.documentStructure.count({ where: { documentId: { in: documentIds } } })).toBe(new Set(documentIds).size);
  });

  it('reads large page bodies on the worker pool: their links followed, their text the same bytes when exported', async () => {
    const { admin, space } = await setup();
    // Over INLINE_BODY_CHARACTERS: parsed and written again on the pool, its links resolved between the two.
    const paragraphs = Array.from({ length: 600 }, (_, index) => `Paragraph ${index} of the long home page, in plain words.`).join('\n\n');
    const home = `# Home\n\nSee [setup](setup.md), [its first step](setup.md#first-step) and ![Logo](.gitbook/assets/logo.png).\n\n${paragraphs}\n`;
    expect(home.length).toBeGreaterThan(INLINE_BODY_CHARACTERS);
    const files = {
      'README.md': home,
      'setup.md': '# Setup\n\nBack [home](README.md).\n\n## First step\n\nDo this.\n',
      '.gitbook/assets/logo.png': fs.readFileSync(path.join(RICH, '.gitbook/assets/diagram.png')),
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Setup](setup.md)\n',
    };
    server.seed('large-body', files);
    await t.call('POST', `/v1/spaces/${space.id}/git/import`, { token: admin.token, body: { url: server.url('large-body'), ref: 'refs/heads/main' } });
    const imported = await settled(space.id, admin.token);
    expect(imported.operation, JSON.stringify(imported)).toMatchObject({ state: 'success', direction: 'import' });
    const pages = (await t.call('GET', `/v1/spaces/${space.id}/content/pages`, { token: admin.token })).json().pages as Array<{ id: string; title: string }>;
    const [homePage, setupPage] = pages;
    const document = (await t.call('GET', `/v1/spaces/${space.id}/content/page/${homePage!.id}?format=document`, { token: admin.token })).json().document;
    // The link names the page it points at, the image the file imported with it.
    const refs = JSON.stringify(document).match(/"ref":\{[^}]*\}/g) ?? [];
    expect(refs).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`"page":"${setupPage!.id}"`),
        expect.stringMatching(new RegExp(`"kind":"anchor".*"page":"${setupPage!.id}"|"page":"${setupPage!.id}".*"kind":"anchor"`)),
        expect.stringContaining('"kind":"file"'),
      ]),
    );

    server.create('large-body-copy');
    await t.call('POST', `/v1/spaces/${space.id}/git/export`, {
      token: admin.token,
      body: { url: server.url('large-body-copy'), ref: 'refs/heads/main', commitMessage: 'Export' },
    });
    expect((await settled(space.id, admin.token)).operation).toMatchObject({ state: 'success', direction: 'export' });
    expect(server.show('large-body-copy', 'README.md').toString()).toBe(home);
  });

  it('imports and exports a project directory of a monorepo, keeping the other files', async () => {
    const { admin, space } = await setup();
    server.seed('mono', {
      'package.json': '{}\n',
      'docs/.gitbook.yaml': 'root: ./content/\n',
      'docs/content/README.md': '# Home\n\nSee [setup](setup.md).\n',
      'docs/content/setup.md': '# Setup\n\n![Logo](.gitbook/assets/logo.png)\n',
      'docs/content/.gitbook/assets/logo.png': fs.readFileSync(path.join(RICH, '.gitbook/assets/diagram.png')),
    });
    const api = official(admin);
    await api.spaces.importGitRepository(space.id, { url: server.url('mono'), ref: 'main', repoProjectDirectory: 'docs' });
    expect((await settled(space.id, admin.token)).operation).toMatchObject({ state: 'success' });
    const pages = (await t.call('GET', `/v1/spaces/${space.id}/content/pages`, { token: admin.token })).json().pages;
    expect(outline(pages)).toEqual([
      ['Home', 'document'],
      ['Setup', 'document'],
    ]);
    // An edit in the space, exported: one commit, the content under the root, the rest kept.
    const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: admin.token, body: {} })).json();
    const edit = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content?compat=false`, {
      token: admin.token,
      body: { changes: [{ operation: 'update_page', page: pages[1].id, document: { markdown: 'Run `npm install`.\n' } }] },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const merged = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`, { token: admin.token });
    expect(merged.statusCode, merged.body).toBe(200);
    await api.spaces.exportToGitRepository(space.id, { url: server.url('mono'), ref: 'main', commitMessage: 'Edit setup', repoProjectDirectory: 'docs' });
    expect((await settled(space.id, admin.token)).operation).toMatchObject({ state: 'success', direction: 'export' });
    expect(server.show('mono', 'docs/content/setup.md').toString()).toBe('# Setup\n\nRun `npm install`.\n');
    expect([...server.tree('mono').keys()].sort()).toEqual([
      'docs/.gitbook.yaml',
      'docs/content/.gitbook/assets/logo.png',
      'docs/content/README.md',
      'docs/content/SUMMARY.md',
      'docs/content/setup.md',
      'package.json',
    ]);
    expect(server.log('mono').map((entry) => entry.subject)).toEqual(['Edit setup', 'Seed']);
  });

  it('says clearly that credentials were refused, never repeating them, and leaves the space as it was', async () => {
    const { admin, space, organization } = await setup();
    secured.seed('private', { 'README.md': '# Private\n' });
    // Followers of the space hear how each operation ended.
    const { id: webhookId } = (
      await t.call('POST', `/v1/orgs/${organization.id}/webhooks`, {
        token: admin.token,
        body: { url: 'http://127.0.0.1:9/hook', events: ['git_sync_completed', 'git_sync_failed'] },
      })
    ).json();
    const stream = await subscribe(await t.listen(), admin.token, 'subscription($spaceId: ID!) { spaceEvents(spaceId: $spaceId) { ... on Event { kind } } }', {
      spaceId: space.id,
    });
    const before = (await t.database.db.space.findUniqueOrThrow({ where: { id: space.id } })).revisionId;
    const url = secured.url('private', { username: 'writer', password: 'wrong-pa55word' });
    await official(admin).spaces.importGitRepository(space.id, { url, ref: 'refs/heads/main' });
    const info = await settled(space.id, admin.token);
    expect(info.operation).toMatchObject({ state: 'failure', error: `url: ${secured.url('private')} refused the credentials given in the URL (HTTP 401)` });
    expect(JSON.stringify(info)).not.toContain('wrong-pa55word');
    const row = await t.database.db.spaceGitSync.findUniqueOrThrow({ where: { spaceId: space.id } });
    expect(JSON.stringify(row)).not.toContain('wrong-pa55word');
    expect((await t.database.db.space.findUniqueOrThrow({ where: { id: space.id } })).revisionId).toBe(before);

    // The right ones work.
    await official(admin).spaces.importGitRepository(space.id, { url: secured.url('private', { username: 'writer', password: 's3cr3t-t0ken' }), ref: 'main' });
    expect((await settled(space.id, admin.token)).operation.state).toBe('success');
    await vi.waitUntil(() => stream.results.filter((result) => kindOf(result).startsWith('SPACE_GIT_')).length >= 2, { timeout: 60_000 });
    // (The successful import also announces the space's new content.)
    const kinds = stream.results.map(kindOf).filter((kind) => kind.startsWith('SPACE_GIT_'));
    expect(kinds).toEqual(['SPACE_GIT_SYNC_FAILED', 'SPACE_GIT_SYNCED']);
    // And webhooks: one delivery each, written with the operation's end, the credentials left out.
    const outbox = await t.database.db.webhookDelivery.findMany({ where: { subscriptionId: webhookId }, orderBy: { createdAt: 'asc' } });
    expect(outbox.map((delivery) => [delivery.eventType, JSON.parse(delivery.payload).data.direction])).toEqual([
      ['git_sync_failed', 'import'],
      ['git_sync_completed', 'import'],
    ]);
    expect(JSON.stringify(outbox)).not.toContain('wrong-pa55word');
  });

  it('refuses what is over a limit, naming it, and leaves the space as it was', async () => {
    const { admin, space } = await setup();
    const before = (await t.database.db.space.findUniqueOrThrow({ where: { id: space.id } })).revisionId;
    server.seed('many', Object.fromEntries(Array.from({ length: 25 }, (_, index) => [`page-${index}.md`, `# Page ${index}\n`])));
    await official(admin).spaces.importGitRepository(space.id, { url: server.url('many'), ref: 'main' });
    expect((await settled(space.id, admin.token)).operation).toMatchObject({
      state: 'failure',
      error: 'url: the repository holds more than 20 pages, the most a space imports from Git (GIT_MAX_PAGES)',
    });
    server.seed('big', { 'README.md': `# Big\n\n${'word '.repeat(50_000)}\n` });
    await official(admin).spaces.importGitRepository(space.id, { url: server.url('big'), ref: 'main' });
    expect((await settled(space.id, admin.token)).operation.error).toBe(
      'url: README.md is 250,008 bytes, more than the 200,000 a file may hold (GIT_MAX_FILE_BYTES)',
    );
    expect((await t.database.db.space.findUniqueOrThrow({ where: { id: space.id } })).revisionId).toBe(before);
  });

  it('answers 400 for bad input and 404 for a space never synced', async () => {
    const { admin, space, member } = await setup();
    const call = (body: unknown, token = admin.token) => t.call('POST', `/v1/spaces/${space.id}/git/import`, { token, body });
    expect((await call({ url: 'ftp://example.test/repo.git', ref: 'main' })).json().error.message).toBe(
      'url: Git repositories are reached over http or https, not ftp:',
    );
    expect((await call({ url: server.url('rich'), ref: 'refs/tags/v1' })).json().error.message).toBe('ref: "refs/tags/v1" is not a branch (refs/heads/<name>)');
    expect((await call({ url: server.url('rich'), ref: 'main', repoProjectDirectory: '../up' })).statusCode).toBe(400);
    expect((await call({ url: server.url('rich'), ref: 'main' }, (await member('read')).token)).statusCode).toBe(403);
    const info = await t.call('GET', `/v1/spaces/${space.id}/git/info`, { token: admin.token });
    expect(info.statusCode).toBe(404);
  });
});
