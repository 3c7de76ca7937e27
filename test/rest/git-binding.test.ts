import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_GIT_CREDENTIALS_KEY, TEST_URLS, type TestApp, createTestApp } from '../support/app.ts';
import { temporaryDirectory } from '../support/cleanup.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { subscribe } from '../support/event-stream.ts';
import { buildTeam } from '../support/factories.ts';
import { type GitServer, startGitServer } from '../support/git-server.ts';
import { jobLog } from '../support/jobs.ts';
import { createContext } from '../../src/context.ts';
import { bindingPollJob, bindingSyncJob } from '../../src/domain/git/binding-sync.ts';
import type { BindingSyncData } from '../../src/domain/git/binding-job.ts';
import { runLogged } from '../../src/jobs/queue.ts';

/**
 * A space bound to a repository (docs-gateway's own resource) against a real Git server (git's
 * own http-backend): the binding answered without its credentials, merges pushed as one commit
 * each, pushes brought in through signed webhooks (GitHub, GitLab, Gitea), edits on both sides
 * merged, a push refused as not fast-forward fetched and merged again, a true conflict landing
 * as a change request (a page deleted on one side and edited on the other too), a force-push followed, deletions and renames mirrored both ways, and
 * refused credentials said clearly without repeating them.
 */

const PASSWORD = 'bound-s3cr3t-t0ken';

let t: TestApp;
let server: GitServer;
let gitSync: { cacheDir: string; limits: { maxRepoBytes: number; maxFileBytes: number; maxPages: number; timeoutMs: number }; credentialsKey: Buffer };
let secured: GitServer;

beforeAll(async () => {
  gitSync = {
    cacheDir: temporaryDirectory('git-cache-'),
    limits: { maxRepoBytes: 5_000_000, maxFileBytes: 200_000, maxPages: 50, timeoutMs: 20_000 },
    credentialsKey: TEST_GIT_CREDENTIALS_KEY,
  };
  t = await createTestApp({ gitSync });
  server = await startGitServer();
  secured = await startGitServer({ username: 'writer', password: PASSWORD });
});
afterAll(async () => {
  await server?.close();
  await secured?.close();
});

async function setup() {
  const team = await buildTeam(t.database);
  const space = (await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Bound' } })).json();
  return { ...team, space };
}

/** Runs a job as a queue runs it, outside the app: its log lines kept; `sent` holds the jobs it queued. */
async function runJob<Data extends object>(kind: { name: string }, data: Data) {
  const log = jobLog();
  const sent: Array<{ kind: string; data: BindingSyncData }> = [];
  const jobs = {
    send: async (queued: { name: string }, queuedData: object) => {
      sent.push({ kind: queued.name, data: queuedData as BindingSyncData });
      return 'queued';
    },
    call: async () => ({}),
  };
  const context = () => createContext({ database: t.database, viewer: null, clock: t.clock, urls: TEST_URLS, gitSync, fetchPrivateAddresses: true, jobs });
  const output = await runLogged(kind as never, data, { id: 'test', attempt: 1 }, { log, context });
  return { output, log, sent };
}

const bindingRow = (spaceId: string) => t.database.db.spaceGitBinding.findUniqueOrThrow({ where: { spaceId } });

/** Waits until a sync ended after `since` and no other one runs; the binding's row then. */
async function synced(spaceId: string, since: Date) {
  for (let attempt = 0; attempt < 600; attempt++) {
    const row = await bindingRow(spaceId);
    if (row.state !== 'running' && row.lastSyncAt && row.lastSyncAt >= since) {
      // Another queued sync (a merge's, a push's) may still start: settled when nothing moves for a while.
      await new Promise((resolve) => setTimeout(resolve, 400));
      const again = await bindingRow(spaceId);
      if (again.state !== 'running' && again.lastSyncAt?.getTime() === row.lastSyncAt.getTime()) return again;
      continue;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the sync did not end');
}

async function bind(spaceId: string, token: string, body: Record<string, unknown>) {
  const since = new Date();
  const response = await t.call('PUT', `/v1/spaces/${spaceId}/git/binding`, { token, body });
  expect(response.statusCode, response.body).toBe(200);
  return { binding: response.json(), row: await synced(spaceId, since) };
}

async function pages(spaceId: string, token: string) {
  const content = (await t.call('GET', `/v1/spaces/${spaceId}/content/pages`, { token })).json();
  return content.pages as Array<{ id: string; title: string; path: string }>;
}

async function markdownOf(spaceId: string, pageId: string, token: string) {
  const page = (await t.call('GET', `/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`, { token })).json();
  return page.markdown as string;
}

/** Opens a change request with `changes`, merges it, and waits for the sync its merge queued. */
async function mergeEdit(spaceId: string, token: string, subject: string, changes: unknown[]) {
  const changeRequest = (await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { token, body: { subject } })).json();
  const edit = await t.call('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/content?compat=false`, { token, body: { changes } });
  expect(edit.statusCode, edit.body).toBe(200);
  const since = new Date();
  const merged = await t.call('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/merge`, { token });
  expect(merged.statusCode, merged.body).toBe(200);
  return { changeRequest, row: await synced(spaceId, since) };
}

/** A push webhook as a host sends it: signed as `scheme` signs, with the binding's secret. */
async function hook(bindingId: string, secret: string, scheme: 'github' | 'gitlab' | 'gitea', body = '{"ref":"refs/heads/main"}') {
  const hmac = createHmac('sha256', secret).update(body).digest('hex');
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (scheme === 'github') Object.assign(headers, { 'x-hub-signature-256': `sha256=${hmac}`, 'x-github-event': 'push' });
  if (scheme === 'gitea') Object.assign(headers, { 'x-gitea-signature': hmac, 'x-gitea-event': 'push' });
  if (scheme === 'gitlab') Object.assign(headers, { 'x-gitlab-token': secret, 'x-gitlab-event': 'Push Hook' });
  return t.app.inject({ method: 'POST', url: `/v1/git/hooks/${bindingId}`, headers, payload: body });
}

describe('A space bound to a Git repository', { timeout: 240_000 }, () => {
  it('is bound by admins only, answers without credentials, and keeps them encrypted', async () => {
    const { admin, space, member } = await setup();
    secured.seed('private', { 'README.md': '# Private\n\nHello.\n' });
    const url = secured.url('private');
    const body = { url, branch: 'main', credentials: { username: 'writer', password: PASSWORD }, initialSync: 'repository' };
    const editor = await member('edit');
    expect((await t.call('PUT', `/v1/spaces/${space.id}/git/binding`, { token: editor.token, body })).statusCode).toBe(403);
    expect((await t.call('GET', `/v1/spaces/${space.id}/git/binding`, { token: admin.token })).statusCode).toBe(404);

    const { binding, row } = await bind(space.id, admin.token, body);
    expect(binding).toMatchObject({ object: 'git-binding', url, branch: 'main', hasCredentials: true, initialSync: 'repository' });
    expect(binding.hookSecret).toMatch(/^gith_/);
    expect(JSON.stringify(binding)).not.toContain(PASSWORD);
    expect(row.state, row.lastError ?? '').toBe('synced');
    expect(row.lastCommit).toBe(secured.log('private')[0]!.hash);
    // At rest: sealed, neither the password nor the hook secret in clear.
    expect(JSON.stringify(row)).not.toContain(PASSWORD);
    expect(JSON.stringify(row)).not.toContain(binding.hookSecret);
    // The repository won the first sync: its content is the space's, and the revision says which commit it came from.
    expect((await pages(space.id, admin.token)).map((page) => page.title)).toEqual(['Private']);
    const revision = await t.database.db.revision.findUniqueOrThrow({ where: { id: row.lastRevisionId! } });
    expect(revision.gitCommit).toBe(row.lastCommit);

    const read = (await t.call('GET', `/v1/spaces/${space.id}/git/binding`, { token: admin.token })).json();
    expect(read).toMatchObject({ hasCredentials: true, status: { state: 'synced', lastCommit: row.lastCommit } });
    expect(read.hookSecret).toBeUndefined();
    expect(JSON.stringify(read)).not.toContain(PASSWORD);
    expect((await t.call('GET', `/v1/spaces/${space.id}/git/binding`, { token: editor.token })).statusCode).toBe(403);

    // Credentials in the URL are refused (they would be kept in clear); the field and the rule named.
    const inUrl = await t.call('PUT', `/v1/spaces/${space.id}/git/binding`, {
      token: admin.token,
      body: { url: secured.url('private', { username: 'writer', password: PASSWORD }) },
    });
    expect(inUrl.statusCode).toBe(400);
    expect(inUrl.json().error.message).toMatch(/^url: give the credentials in `credentials`/);
    expect(inUrl.body).not.toContain(PASSWORD);

    // Bound to another repository, the space winning this time: a first sync again, the space's content pushed there.
    server.seed('elsewhere', { 'README.md': '# Elsewhere\n' });
    const movedSince = new Date();
    const moved = await t.call('PUT', `/v1/spaces/${space.id}/git/binding`, {
      token: admin.token,
      body: { url: server.url('elsewhere'), credentials: null, initialSync: 'space' },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ id: binding.id, url: server.url('elsewhere'), hasCredentials: false, initialSync: 'space' });
    expect(moved.json().hookSecret).toBeUndefined();
    const movedRow = await synced(space.id, movedSince);
    expect(movedRow.state, movedRow.lastError ?? '').toBe('synced');
    expect(server.show('elsewhere', 'README.md').toString()).toContain('# Private');
    expect(movedRow.lastCommit).toBe(server.log('elsewhere')[0]!.hash);

    // Unbound: nothing syncs any more.
    expect((await t.call('DELETE', `/v1/spaces/${space.id}/git/binding`, { token: admin.token })).statusCode).toBe(204);
    expect(await t.database.db.spaceGitBinding.findUnique({ where: { spaceId: space.id } })).toBeNull();
  });

  it('says clearly that credentials were refused, never repeating them in the state or the answers', async () => {
    const { admin, space } = await setup();
    secured.seed('refused', { 'README.md': '# Refused\n' });
    const before = (await t.database.db.space.findUniqueOrThrow({ where: { id: space.id } })).revisionId;
    const { binding, row } = await bind(space.id, admin.token, {
      url: secured.url('refused'),
      credentials: { username: 'writer', password: 'wrong-pa55word' },
    });
    expect(row.state).toBe('failed');
    expect(row.lastError).toBe(`url: ${secured.url('refused')} refused the credentials given in the URL (HTTP 401)`);
    const read = await t.call('GET', `/v1/spaces/${space.id}/git/binding`, { token: admin.token });
    expect(read.json().status).toMatchObject({ state: 'failed', lastError: row.lastError });
    for (const text of [JSON.stringify(binding), read.body, JSON.stringify(row)]) expect(text).not.toContain('wrong-pa55word');
    expect((await t.database.db.space.findUniqueOrThrow({ where: { id: space.id } })).revisionId).toBe(before);
    // Given again, right: the sync works.
    const since = new Date();
    await t.call('PUT', `/v1/spaces/${space.id}/git/binding`, {
      token: admin.token,
      body: { url: secured.url('refused'), credentials: { username: 'writer', password: PASSWORD } },
    });
    expect((await synced(space.id, since)).state).toBe('synced');
  });

  it('pushes each merge as one commit and brings each push in as a revision, through signed webhooks', async () => {
    const { admin, space } = await setup();
    server.seed('turns', { 'README.md': '# Home\n\nWelcome.\n', 'setup.md': '# Setup\n\nRun it.\n' });
    const { binding } = await bind(space.id, admin.token, { url: server.url('turns'), branch: 'main' });
    const [home, setupPage] = await pages(space.id, admin.token);
    expect([home!.title, setupPage!.title]).toEqual(['Home', 'Setup']);

    // A merge in the space: one commit, its message the change request's number and subject.
    const { changeRequest, row } = await mergeEdit(space.id, admin.token, 'Explain setup', [
      { operation: 'update_page', page: setupPage!.id, document: { markdown: 'Run `npm install`.\n' } },
    ]);
    expect(row.state, row.lastError ?? '').toBe('synced');
    expect(server.log('turns').map((entry) => entry.subject)).toEqual([`#${changeRequest.number} Explain setup`, 'Seed']);
    expect(server.show('turns', 'setup.md').toString()).toBe('# Setup\n\nRun `npm install`.\n');
    const space1 = await t.database.db.space.findUniqueOrThrow({ where: { id: space.id } });
    expect((await t.database.db.revision.findUniqueOrThrow({ where: { id: space1.revisionId } })).gitCommit).toBe(server.log('turns')[0]!.hash);
    // The official state says it too: the last sync pushed (an export) that commit.
    const info = async () => {
      const state = (await t.call('GET', `/v1/spaces/${space.id}/git/info`, { token: admin.token })).json();
      expectMatchesSchema('GET', '/v1/spaces/{spaceId}/git/info', 200, state);
      return state;
    };
    expect(await info()).toMatchObject({ url: server.url('turns'), operation: { state: 'success', direction: 'export' } });

    // A push to the branch, announced by a webhook signed the GitHub way: a new revision from that commit.
    const pushed = server.seed('turns', { 'README.md': '# Home\n\nWelcome, reader.\n' }, { replace: false, message: 'Greet' });
    const since = new Date();
    const accepted = await hook(binding.id, binding.hookSecret, 'github');
    expect(accepted.statusCode, accepted.body).toBe(202);
    const afterPush = await synced(space.id, since);
    expect(afterPush).toMatchObject({ state: 'synced', lastCommit: pushed });
    expect(await markdownOf(space.id, home!.id, admin.token)).toContain('Welcome, reader.');
    const revision = await t.database.db.revision.findUniqueOrThrow({ where: { id: afterPush.lastRevisionId! } });
    expect(revision.gitCommit).toBe(pushed);
    expect((await info()).operation).toMatchObject({ state: 'success', direction: 'import' });

    // Nothing goes back and forth: a sync now changes neither side.
    const revisions = await t.database.db.revision.count({ where: { spaceId: space.id } });
    const since2 = new Date();
    expect((await t.call('POST', `/v1/spaces/${space.id}/git/binding/sync`, { token: admin.token })).statusCode).toBe(204);
    await synced(space.id, since2);
    expect(server.log('turns')).toHaveLength(3);
    expect(await t.database.db.revision.count({ where: { spaceId: space.id } })).toBe(revisions);

    // GitLab's and Gitea's schemes are verified too; a wrong signature is refused, and nothing is queued.
    for (const scheme of ['gitlab', 'gitea'] as const) expect((await hook(binding.id, binding.hookSecret, scheme)).statusCode).toBe(202);
    for (const scheme of ['github', 'gitlab', 'gitea'] as const) {
      const refused = await hook(binding.id, 'gith_not-the-secret', scheme);
      expect(refused.statusCode).toBe(401);
      expect(refused.json().error.message).toMatch(/not signed with this binding's secret/);
    }
    expect((await t.app.inject({ method: 'POST', url: `/v1/git/hooks/${binding.id}`, payload: '{}' })).statusCode).toBe(401);
    expect((await hook('gitb_unknown', binding.hookSecret, 'github')).statusCode).toBe(404);
  });

  it('merges edits made on both sides, and fetches, merges and pushes again a push refused as not fast-forward', async () => {
    const { admin, space } = await setup();
    server.seed('both', { 'README.md': '# Home\n\nWelcome.\n', 'setup.md': '# Setup\n\nRun it.\n' });
    await bind(space.id, admin.token, { url: server.url('both') });
    const [home, setupPage] = await pages(space.id, admin.token);

    // The branch moved (no webhook told), then a merge in the space: both sides merged three-way.
    server.seed('both', { 'README.md': '# Home\n\nWelcome, reader.\n' }, { replace: false, message: 'Greet' });
    const { row } = await mergeEdit(space.id, admin.token, 'Explain setup', [
      { operation: 'update_page', page: setupPage!.id, document: { markdown: 'Run `npm install`.\n' } },
    ]);
    expect(row.state, row.lastError ?? '').toBe('synced');
    expect(server.show('both', 'README.md').toString()).toContain('Welcome, reader.');
    expect(server.show('both', 'setup.md').toString()).toContain('npm install');
    expect(await markdownOf(space.id, home!.id, admin.token)).toContain('Welcome, reader.');
    expect(row.lastCommit).toBe(server.log('both')[0]!.hash);

    // The branch moves while the next merge is being pushed: refused, fetched, merged, pushed again.
    server.beforeNextPush('both', () =>
      server.seed('both', { 'README.md': '# Home\n\nWelcome, reader, meanwhile.\n' }, { replace: false, message: 'Meanwhile' }),
    );
    const second = await mergeEdit(space.id, admin.token, 'Shorter setup', [
      { operation: 'update_page', page: setupPage!.id, document: { markdown: 'Run `npm ci`.\n' } },
    ]);
    expect(second.row.state, second.row.lastError ?? '').toBe('synced');
    expect(server.show('both', 'setup.md').toString()).toContain('npm ci');
    expect(server.show('both', 'README.md').toString()).toContain('meanwhile');
    expect(await markdownOf(space.id, home!.id, admin.token)).toContain('meanwhile');
    expect(server.log('both').map((entry) => entry.subject)).toContain('Meanwhile');
  });

  it('lands a conflicting push as a change request with its diff, never force-pushing, and says so', async () => {
    const { admin, space } = await setup();
    server.seed('clash', { 'README.md': '# Home\n\nWelcome.\n', 'setup.md': '# Setup\n\nRun it.\n' });
    await bind(space.id, admin.token, { url: server.url('clash') });
    const [, setupPage] = await pages(space.id, admin.token);
    const stream = await subscribe(await t.listen(), admin.token, 'subscription($spaceId: ID!) { spaceEvents(spaceId: $spaceId) { ... on Event { kind } } }', {
      spaceId: space.id,
    });
    // A receiver of the organization's webhooks hears of it too (the delivery is written with the sync's state).
    const hook = await t.call('POST', `/v1/orgs/${space.organization}/webhooks`, {
      token: admin.token,
      body: { url: 'http://127.0.0.1:9/conflicts', events: ['git_sync_conflict'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);

    const theirs = server.seed('clash', { 'setup.md': '# Setup\n\nRun `make`.\n' }, { replace: false, message: 'Use make' });
    const { row } = await mergeEdit(space.id, admin.token, 'Use npm', [
      { operation: 'update_page', page: setupPage!.id, document: { markdown: 'Run `npm install`.\n' } },
    ]);
    expect(row.state, row.lastError ?? '').toBe('conflict');
    // The branch is untouched: their commit is still its head.
    expect(server.log('clash')[0]!.hash).toBe(theirs);
    expect(server.show('clash', 'setup.md').toString()).toContain('make');
    // The space keeps its edit; their commit waits in a change request, with its diff.
    expect(await markdownOf(space.id, setupPage!.id, admin.token)).toContain('npm install');
    const changeRequest = (await t.call('GET', `/v1/spaces/${space.id}/change-requests/${row.conflictChangeRequestId}`, { token: admin.token })).json();
    expect(changeRequest.subject).toContain(theirs.slice(0, 7));
    const diff = await t.call('GET', `/v1/spaces/${space.id}/change-requests/${row.conflictChangeRequestId}/changes`, { token: admin.token });
    expect(diff.statusCode, diff.body).toBe(200);
    expect(JSON.stringify(diff.json())).toContain(setupPage!.id);
    const read = (await t.call('GET', `/v1/spaces/${space.id}/git/binding`, { token: admin.token })).json();
    expect(read.status).toMatchObject({ state: 'conflict', conflictChangeRequestId: row.conflictChangeRequestId });
    const [delivery] = await t.database.db.webhookDelivery.findMany({ where: { subscriptionId: hook.json().id } });
    expect(delivery?.eventType).toBe('git_sync_conflict');
    expect(JSON.parse(delivery!.payload).data).toMatchObject({ spaceId: space.id, changeRequestId: row.conflictChangeRequestId, commit: theirs });
    await vi.waitUntil(
      () => stream.results.some((result) => (result.data as { spaceEvents: { kind: string } }).spaceEvents.kind === 'SPACE_GIT_SYNC_CONFLICT'),
      {
        timeout: 30_000,
      },
    );

    // Synced again: the same commit does not make a second change request.
    const since = new Date();
    await t.call('POST', `/v1/spaces/${space.id}/git/binding/sync`, { token: admin.token });
    const again = await synced(space.id, since);
    expect(again).toMatchObject({ state: 'conflict', conflictChangeRequestId: row.conflictChangeRequestId });
    expect(await t.database.db.changeRequest.count({ where: { spaceId: space.id, subject: { contains: theirs.slice(0, 7) } } })).toBe(1);

    // Merged, the change request resolves the conflict: the next sync pushes the result on top of their commit.
    const since2 = new Date();
    const merged = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${row.conflictChangeRequestId}/merge`, { token: admin.token });
    expect(merged.statusCode, merged.body).toBe(200);
    const resolved = await synced(space.id, since2);
    expect(resolved, resolved.lastError ?? '').toMatchObject({ state: 'synced', conflictChangeRequestId: null });
    expect(await markdownOf(space.id, setupPage!.id, admin.token)).toContain('make');
    const log = server.log('clash');
    expect(log[0]!.subject).toBe(`#${changeRequest.number} ${changeRequest.subject}`);
    expect(log.map((entry) => entry.hash)).toContain(theirs);
    expect(resolved.lastCommit).toBe(log[0]!.hash);
  });

  it('loses neither side of a page deleted on one side and edited on the other: the branch waits in a change request', async () => {
    const crPages = async (spaceId: string, changeRequestId: string, token: string) =>
      (await t.call('GET', `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/pages`, { token })).json().pages as Array<{
        id: string;
        title: string;
      }>;
    const crMarkdown = async (spaceId: string, changeRequestId: string, pageId: string, token: string) =>
      (await t.call('GET', `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/page/${pageId}?format=markdown`, { token })).json()
        .markdown as string;

    // The branch deletes a page the space edits: the edit stays live, the deletion waits in a change request.
    const first = await setup();
    server.seed('del-theirs', { 'README.md': '# Home\n', 'setup.md': '# Setup\n\nRun it.\n' });
    await bind(first.space.id, first.admin.token, { url: server.url('del-theirs') });
    const setupPage = (await pages(first.space.id, first.admin.token)).find((page) => page.title === 'Setup')!;
    const deleted = server.seed('del-theirs', { 'README.md': '# Home\n' }, { message: 'Drop setup' });
    const { row } = await mergeEdit(first.space.id, first.admin.token, 'Explain setup', [
      { operation: 'update_page', page: setupPage.id, document: { markdown: 'Run `make setup`.\n' } },
    ]);
    expect(row.state, row.lastError ?? '').toBe('conflict');
    expect(server.log('del-theirs')[0]!.hash).toBe(deleted);
    expect([...server.tree('del-theirs').keys()]).toEqual(['README.md']);
    expect(await markdownOf(first.space.id, setupPage.id, first.admin.token)).toContain('make setup');
    expect((await crPages(first.space.id, row.conflictChangeRequestId!, first.admin.token)).map((page) => page.title)).toEqual(['Home']);

    // The space deletes a page the branch edits: the deletion is live, the edit waits in a change request.
    const second = await setup();
    server.seed('del-ours', { 'README.md': '# Home\n', 'setup.md': '# Setup\n\nRun it.\n' });
    await bind(second.space.id, second.admin.token, { url: server.url('del-ours') });
    const ours = (await pages(second.space.id, second.admin.token)).find((page) => page.title === 'Setup')!;
    const edited = server.seed('del-ours', { 'setup.md': '# Setup\n\nRun `make`.\n' }, { replace: false, message: 'Use make' });
    const other = await mergeEdit(second.space.id, second.admin.token, 'Drop setup', [{ operation: 'delete_page', page: ours.id }]);
    expect(other.row.state, other.row.lastError ?? '').toBe('conflict');
    expect(server.log('del-ours')[0]!.hash).toBe(edited);
    expect(server.show('del-ours', 'setup.md').toString()).toContain('make');
    expect((await pages(second.space.id, second.admin.token)).map((page) => page.title)).toEqual(['Home']);
    const waiting = (await crPages(second.space.id, other.row.conflictChangeRequestId!, second.admin.token)).find((page) => page.title === 'Setup');
    expect(waiting?.id).toBe(ours.id);
    expect(await crMarkdown(second.space.id, other.row.conflictChangeRequestId!, ours.id, second.admin.token)).toContain('make');
  });

  it('follows a force-pushed branch, and mirrors deleted and renamed pages both ways', async () => {
    const { admin, space } = await setup();
    server.seed('moves', { 'README.md': '# Home\n', 'old.md': '# Old\n', 'gone.md': '# Gone\n' });
    const { binding } = await bind(space.id, admin.token, { url: server.url('moves') });
    expect((await pages(space.id, admin.token)).map((page) => page.title).sort()).toEqual(['Gone', 'Home', 'Old']);

    // Force-pushed with a history of its own: a page deleted, one renamed.
    const forced = server.seed('moves', { 'README.md': '# Home\n', 'new.md': '# Old\n' }, { message: 'Rewritten' });
    const since = new Date();
    await hook(binding.id, binding.hookSecret, 'gitea');
    const row = await synced(space.id, since);
    expect(row, row.lastError ?? '').toMatchObject({ state: 'synced', lastCommit: forced });
    const after = await pages(space.id, admin.token);
    expect(after.map((page) => [page.title, page.path])).toEqual([
      ['Home', 'home'],
      ['Old', 'new'],
    ]);

    // In the space: a page deleted, one renamed; mirrored in the branch.
    const home = after[0]!;
    const old = after[1]!;
    await mergeEdit(space.id, admin.token, 'Tidy', [{ operation: 'update_page', page: old.id, title: 'Renamed', slug: 'renamed' }]);
    await mergeEdit(space.id, admin.token, 'Remove', [{ operation: 'insert_page', title: 'Fresh', document: { markdown: 'Fresh.\n' } }]);
    const fresh = (await pages(space.id, admin.token)).find((page) => page.title === 'Fresh')!;
    const last = await mergeEdit(space.id, admin.token, 'Drop fresh', [{ operation: 'delete_page', page: fresh.id }]);
    expect(last.row.state, last.row.lastError ?? '').toBe('synced');
    const files = [...server.tree('moves').keys()].sort();
    expect(files).toContain('renamed.md');
    expect(files).not.toContain('new.md');
    expect(files.some((file) => file.startsWith('fresh'))).toBe(false);
    expect(home.title).toBe('Home');
  });

  it('polls bound branches for pushes no webhook announced, one sync per space at a time, logging no credentials', async () => {
    const { admin, space } = await setup();
    secured.seed('polled', { 'README.md': '# Polled\n\nFirst.\n' });
    const { row } = await bind(space.id, admin.token, { url: secured.url('polled'), credentials: { username: 'writer', password: PASSWORD } });
    expect(row.state, row.lastError ?? '').toBe('synced');
    const pushed = secured.seed('polled', { 'README.md': '# Polled\n\nSecond.\n' }, { message: 'Second' });

    // The poll queues a sync of every bound space.
    const poll = await runJob(bindingPollJob, {});
    const queued = poll.sent.filter((job) => job.kind === bindingSyncJob.name && job.data.spaceId === space.id);
    expect(queued, JSON.stringify({ output: poll.output, sent: poll.sent.length })).toHaveLength(1);
    // Two syncs of the same space at once: one runs, the other, queued before it began, has nothing left to do.
    // (A sync begun in the very millisecond another was queued does not cover it: let the clock move on.)
    await new Promise((resolve) => setTimeout(resolve, 5));
    const revisions = await t.database.db.revision.count({ where: { spaceId: space.id } });
    const [first, second] = await Promise.all([runJob(bindingSyncJob, queued[0]!.data), runJob(bindingSyncJob, queued[0]!.data)]);
    const outputs = [first.output, second.output];
    expect(
      outputs.filter((output) => output.action === 'import'),
      JSON.stringify(outputs),
    ).toHaveLength(1);
    expect(
      outputs.filter((output) => output.skipped === 'a sync that began after this one was queued has run'),
      JSON.stringify(outputs),
    ).toHaveLength(1);
    // One queued later runs, and finds both sides the same.
    const later = await runJob(bindingSyncJob, { ...queued[0]!.data, timestamp: new Date().toISOString() });
    expect(later.output.action).toBe('none');
    expect(await t.database.db.revision.count({ where: { spaceId: space.id } })).toBe(revisions + 1);
    expect(await bindingRow(space.id)).toMatchObject({ state: 'synced', lastCommit: pushed });
    const [page] = await pages(space.id, admin.token);
    expect(await markdownOf(space.id, page!.id, admin.token)).toContain('Second.');

    // Refused credentials: the log line says why, without them.
    const wrong = await t.call('PUT', `/v1/spaces/${space.id}/git/binding`, {
      token: admin.token,
      body: { url: secured.url('polled'), credentials: { username: 'writer', password: 'wrong-pa55word' } },
    });
    expect(wrong.statusCode).toBe(200);
    await synced(space.id, new Date(0));
    const failed = await runJob(bindingSyncJob, { ...queued[0]!.data, timestamp: new Date().toISOString() });
    expect(failed.output.failed).toBe(`url: ${secured.url('polled')} refused the credentials given in the URL (HTTP 401)`);
    expect(JSON.stringify(failed.log.lines)).toContain('refused the credentials');
    expect(JSON.stringify(failed.log.lines)).not.toContain('wrong-pa55word');
    expect(JSON.stringify(await bindingRow(space.id))).not.toContain('wrong-pa55word');
  });

  it('is the same through GraphQL: Space.gitBinding for admins, and mutations to bind, sync and unbind', async () => {
    const { admin, space, member } = await setup();
    secured.seed('graphql', { 'README.md': '# Graph\n' });
    const FIELDS = 'id url branch projectDirectory hasCredentials initialSync hookUrl state lastCommit lastError conflictChangeRequestId';
    const bound = await t.graphql(
      admin.token,
      `mutation($input: BindSpaceToGitRepositoryInput!) { bindSpaceToGitRepository(input: $input) { hookSecret gitBinding { ${FIELDS} } } }`,
      { input: { spaceId: space.id, url: secured.url('graphql'), credentials: { username: 'writer', password: PASSWORD }, initialSync: 'repository' } },
    );
    expect(bound.errors).toBeUndefined();
    const { hookSecret, gitBinding } = bound.data.bindSpaceToGitRepository;
    expect(hookSecret).toMatch(/^gith_/);
    expect(gitBinding).toMatchObject({ url: secured.url('graphql'), branch: 'main', hasCredentials: true, initialSync: 'repository' });
    expect(JSON.stringify(bound)).not.toContain(PASSWORD);
    const row = await synced(space.id, new Date(0));
    expect(row.state, row.lastError ?? '').toBe('synced');

    // Read as REST reads it.
    const read = async (token: string) =>
      (await t.graphql(token, `query($id: ID!) { space(id: $id) { gitBinding { ${FIELDS} } } }`, { id: space.id })).data.space.gitBinding;
    const rest = (await t.call('GET', `/v1/spaces/${space.id}/git/binding`, { token: admin.token })).json();
    expect(await read(admin.token)).toEqual({
      id: rest.id,
      url: rest.url,
      branch: rest.branch,
      projectDirectory: rest.projectDirectory,
      hasCredentials: true,
      initialSync: 'repository',
      hookUrl: rest.hookUrl,
      state: 'synced',
      lastCommit: rest.status.lastCommit,
      lastError: null,
      conflictChangeRequestId: null,
    });
    // Not a space admin: no binding to see.
    expect(await read((await member('edit')).token)).toBeNull();

    // credentials: null removes them, as in REST.
    const cleared = await t.graphql(
      admin.token,
      'mutation($input: BindSpaceToGitRepositoryInput!) { bindSpaceToGitRepository(input: $input) { hookSecret gitBinding { hasCredentials } } }',
      { input: { spaceId: space.id, url: secured.url('graphql'), credentials: null } },
    );
    expect(cleared.data.bindSpaceToGitRepository).toEqual({ hookSecret: null, gitBinding: { hasCredentials: false } });
    await synced(space.id, new Date());

    const sync = await t.graphql(admin.token, 'mutation($input: SyncSpaceGitBindingInput!) { syncSpaceGitBinding(input: $input) { gitBinding { id } } }', {
      input: { spaceId: space.id },
    });
    expect(sync.errors).toBeUndefined();
    await synced(space.id, new Date());
    const unbound = await t.graphql(
      admin.token,
      'mutation($input: UnbindSpaceFromGitRepositoryInput!) { unbindSpaceFromGitRepository(input: $input) { spaceId } }',
      { input: { spaceId: space.id } },
    );
    expect(unbound.data.unbindSpaceFromGitRepository.spaceId).toBe(space.id);
    expect(await read(admin.token)).toBeNull();
  });
});
