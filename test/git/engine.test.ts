import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../support/cleanup.ts';
import { type EngineOptions, commitAndPush, fetchBranch, filesOfCommit, parseRemote, scrub } from '../../src/domain/git/engine.ts';
import { ownedPath, readRepository, writeRepository } from '../../src/domain/git/layout.ts';
import { type GitServer, startGitServer } from '../support/git-server.ts';

/**
 * The Git engine against git's own `git http-backend`: fetching a branch into the clone cache,
 * reading a commit's files under a project directory, committing and pushing, and its refusals
 * (credentials, limits, private addresses), the credentials never in a message.
 */

const RICH = path.join(import.meta.dirname, 'fixtures', 'rich');
const LIMITS = { maxRepoBytes: 10 * 1024 * 1024, maxFileBytes: 1024 * 1024, maxPages: 1000, timeoutMs: 20_000 };

function folder(dir: string, prefix = ''): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const name of fs.readdirSync(dir)) {
    const full = path.join(dir, name);
    if (fs.statSync(full).isDirectory()) Object.assign(out, folder(full, `${prefix}${name}/`));
    else out[`${prefix}${name}`] = fs.readFileSync(full);
  }
  return out;
}

let server: GitServer;
let secured: GitServer;
let cacheDir: string;
const ids = { pageId: (slugPath: string) => `page_${slugPath.replace(/\//g, '__')}`, fileId: (name: string) => `file_${name.replace(/\W/g, '-')}` };

beforeAll(async () => {
  server = await startGitServer();
  secured = await startGitServer({ username: 'writer', password: 's3cr3t-t0ken' });
  cacheDir = temporaryDirectory('git-cache-');
});
afterAll(async () => {
  await server?.close();
  await secured?.close();
  fs.rmSync(cacheDir, { recursive: true, force: true });
});

const options = (url: string, key: string, extra: Partial<EngineOptions> = {}): EngineOptions => ({
  cacheDir,
  key,
  remote: parseRemote(url),
  ref: 'refs/heads/main',
  allowPrivate: true,
  limits: LIMITS,
  ...extra,
});

describe('the Git engine', () => {
  it('fetches a branch, reads it as the layout, writes it back and pushes nothing when nothing changed', async () => {
    const seeded = server.seed('rich', folder(RICH));
    const engine = options(server.url('rich'), 'space_rich');
    const { gitdir, commit } = await fetchBranch(engine);
    expect(commit).toBe(seeded);
    const repository = await readRepository(await filesOfCommit(gitdir, commit!), { limits: LIMITS, ...ids });
    expect(repository.pages.map((page) => page.title)).toEqual(['Introduction', 'Getting started', 'Changelog', 'Guides']);
    const files = await writeRepository(repository, repository.config);
    const sources = new Map(repository.files.map((file) => [file.fileId, file]));
    const pushed = await commitAndPush({
      ...engine,
      gitdir,
      parent: commit,
      files,
      bytesOf: (fileId) => sources.get(fileId)!.read(),
      owned: (filePath) => ownedPath(repository.config, filePath),
      message: 'Export',
      author: { name: 'docs-gateway', email: 'docs@example.test', timestamp: 1_800_000_000 },
    });
    expect(pushed).toEqual({ commit: seeded, changed: false });
    expect(server.log('rich')).toHaveLength(1);
  });

  it('commits a change, deletes the pages it no longer has and keeps files outside the project directory', async () => {
    server.seed('mono', {
      'package.json': '{}\n',
      'src/index.ts': 'export {};\n',
      'docs/README.md': '# Home\n',
      'docs/old.md': '# Old\n',
      'docs/SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Old](old.md)\n',
      'docs/notes.txt': 'kept\n',
    });
    const engine = options(server.url('mono'), 'space_mono');
    const { gitdir, commit } = await fetchBranch(engine);
    const repository = await readRepository(await filesOfCommit(gitdir, commit!, 'docs'), { limits: LIMITS, ...ids });
    expect(repository.pages.map((page) => page.title)).toEqual(['Home', 'Old']);
    const [home] = repository.pages;
    home!.markdown = 'Edited in the space.\n';
    const files = await writeRepository({ pages: [home!], files: [] }, repository.config);
    const pushed = await commitAndPush({
      ...engine,
      projectDirectory: 'docs',
      gitdir,
      parent: commit,
      files,
      bytesOf: async () => new Uint8Array(),
      owned: (filePath) => ownedPath(repository.config, filePath),
      message: 'Edit the home page',
      author: { name: 'docs-gateway', email: 'docs@example.test', timestamp: 1_800_000_000 },
    });
    expect(pushed.changed).toBe(true);
    expect([...server.tree('mono').keys()].sort()).toEqual(['docs/README.md', 'docs/SUMMARY.md', 'docs/notes.txt', 'package.json', 'src/index.ts']);
    expect(server.show('mono', 'docs/README.md').toString()).toBe('# Home\n\nEdited in the space.\n');
    expect(server.log('mono').map((entry) => entry.subject)).toEqual(['Edit the home page', 'Seed']);
  });

  it('pushes the first commit of an empty repository', async () => {
    server.create('empty');
    const engine = options(server.url('empty'), 'space_empty');
    const { gitdir, commit } = await fetchBranch(engine);
    expect(commit).toBeNull();
    const pushed = await commitAndPush({
      ...engine,
      gitdir,
      parent: null,
      files: [{ path: 'README.md', text: '# Hello\n' }],
      bytesOf: async () => new Uint8Array(),
      owned: () => true,
      message: 'First',
      author: { name: 'docs-gateway', email: 'docs@example.test', timestamp: 1_800_000_000 },
    });
    expect(server.log('empty')).toEqual([{ hash: pushed.commit, subject: 'First' }]);
  });

  it('reads symbolic links as such (the layout ignores them)', async () => {
    server.seed('links', { 'README.md': '# Home\n', 'passwd.md': 'symlink:/etc/passwd' });
    const engine = options(server.url('links'), 'space_links');
    const { gitdir, commit } = await fetchBranch(engine);
    const files = await filesOfCommit(gitdir, commit!);
    expect(files.map((file) => [file.path, file.kind])).toEqual([
      ['README.md', 'file'],
      ['passwd.md', 'symlink'],
    ]);
  });

  it('uses credentials from the URL, and says clearly when they are refused without ever repeating them', async () => {
    secured.seed('private', { 'README.md': '# Private\n' });
    const good = await fetchBranch(options(secured.url('private', { username: 'writer', password: 's3cr3t-t0ken' }), 'space_private'));
    expect(good.commit).toMatch(/^[0-9a-f]{40}$/);
    const wrong = secured.url('private', { username: 'writer', password: 'wrong-pa55word' });
    const error = await fetchBranch(options(wrong, 'space_private2')).catch((caught: Error) => caught);
    expect(error).toMatchObject({ status: 400, message: `url: ${secured.url('private')} refused the credentials given in the URL (HTTP 401)` });
    expect(JSON.stringify(error)).not.toContain('wrong-pa55word');
    const none = await fetchBranch(options(secured.url('private'), 'space_private3')).catch((caught: Error) => caught);
    expect((none as Error).message).toContain('needs credentials (HTTP 401)');
    expect(scrub(`failed at ${wrong}`, parseRemote(wrong))).toBe(`failed at http://***@${new URL(wrong).host}/private.git`);
  });

  it('refuses a repository larger than the limit, a missing branch and private addresses', async () => {
    server.seed('large', { 'README.md': '# Large\n', 'blob.bin': Buffer.from(Array.from({ length: 300_000 }, () => Math.floor(Math.random() * 256))) });
    await expect(fetchBranch(options(server.url('large'), 'space_large', { limits: { ...LIMITS, maxRepoBytes: 100_000 } }))).rejects.toMatchObject({
      status: 400,
      message: 'url: the repository is larger than 100,000 bytes, the most a space syncs with (GIT_MAX_REPO_BYTES)',
    });
    const missing = await fetchBranch(options(server.url('large'), 'space_large2', { ref: 'refs/heads/nope' }));
    expect(missing.commit).toBeNull();
    await expect(fetchBranch(options(server.url('large'), 'space_large3', { allowPrivate: false }))).rejects.toMatchObject({
      status: 400,
      message: 'url: the host "127.0.0.1" is a loopback address, which is not fetched',
    });
  });
});
