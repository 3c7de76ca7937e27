import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../support/app.ts';
import { temporaryDirectory } from '../support/cleanup.ts';
import { buildTeam } from '../support/factories.ts';
import { type GitServer, startGitServer } from '../support/git-server.ts';
import { expectData, expectGraphQLError, mutate } from '../support/graphql.ts';

/**
 * Git sync over GraphQL against a real Git server (git's own http-backend):
 * importGitRepository and exportToGitRepository queue the jobs REST queues,
 * and Space.gitSync answers what `GET .../git/info` answers, field for field
 * (null where REST answers 404); the same refusals, and nothing written then.
 */

let t: TestApp;
let server: GitServer;
beforeAll(async () => {
  t = await createTestApp({
    gitSync: { cacheDir: temporaryDirectory('git-cache-'), limits: { maxRepoBytes: 5_000_000, maxFileBytes: 200_000, maxPages: 20, timeoutMs: 20_000 } },
  });
  server = await startGitServer();
});
afterAll(async () => {
  await server?.close();
});

const GIT_SYNC = 'installationId installationProvider installationStatus repoName url operation { state direction startedAt endedAt error } updatedAt';
const SPACE_GIT_SYNC = `query($id: ID!) { space(id: $id) { gitSync { ${GIT_SYNC} } } }`;

type Json = Record<string, any>;
/** REST's GitSyncState as GraphQL answers it: absent times and errors are null. */
const asGraphQL = (rest: Json) => ({ ...rest, operation: { endedAt: null, error: null, ...rest.operation } });

async function setup() {
  const team = await buildTeam(t.database);
  const space = (await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Synced' } })).json();
  return { ...team, space };
}

/** The space's Git sync, read over GraphQL, once its operation has ended. */
async function settled(spaceId: string, token: string) {
  for (let attempt = 0; attempt < 300; attempt++) {
    const gitSync = expectData(await t.graphql(token, SPACE_GIT_SYNC, { id: spaceId })).space.gitSync;
    if (gitSync && gitSync.operation.state !== 'running') return gitSync;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the Git operation did not end');
}

describe('Git sync over GraphQL', { timeout: 120_000 }, () => {
  it('imports and exports through the queued jobs; gitSync answers what REST answers', async () => {
    const { admin, space } = await setup();
    expect(expectData(await t.graphql(admin.token, SPACE_GIT_SYNC, { id: space.id })).space.gitSync).toBeNull();
    expect((await t.call('GET', `/v1/spaces/${space.id}/git/info`, { token: admin.token })).statusCode).toBe(404);

    server.seed('docs', { 'README.md': '# Home\n\nWelcome.\n', 'setup.md': '# Setup\n\nRun it.\n' });
    const queued = expectData(
      await mutate(
        t,
        admin.token,
        'importGitRepository',
        { spaceId: space.id, url: server.url('docs'), ref: 'refs/heads/main' },
        `space { id } gitSync { ${GIT_SYNC} }`,
      ),
    ).importGitRepository;
    expect(queued.space).toEqual({ id: space.id });
    expect(queued.gitSync).toMatchObject({ url: server.url('docs'), installationStatus: 'active', operation: { direction: 'import' } });

    const imported = await settled(space.id, admin.token);
    expect(imported.operation, JSON.stringify(imported)).toMatchObject({ state: 'success', direction: 'import', error: null });
    const info = (await t.call('GET', `/v1/spaces/${space.id}/git/info`, { token: admin.token })).json();
    expect(imported).toEqual(asGraphQL(info));
    const pages = (await t.call('GET', `/v1/spaces/${space.id}/content/pages`, { token: admin.token })).json().pages;
    expect(pages.map((page: Json) => page.title)).toEqual(['Home', 'Setup']);

    // Exported to an empty repository: one commit with the message given.
    server.create('copy');
    const exported = expectData(
      await mutate(
        t,
        admin.token,
        'exportToGitRepository',
        { spaceId: space.id, url: server.url('copy'), ref: 'main', commitMessage: 'Export over GraphQL' },
        'gitSync { operation { direction } }',
      ),
    ).exportToGitRepository;
    expect(exported.gitSync.operation.direction).toBe('export');
    const done = await settled(space.id, admin.token);
    expect(done.operation).toMatchObject({ state: 'success', direction: 'export' });
    expect(done).toEqual(asGraphQL((await t.call('GET', `/v1/spaces/${space.id}/git/info`, { token: admin.token })).json()));
    expect(server.log('copy').map((entry) => entry.subject)).toEqual(['Export over GraphQL']);
    expect(server.show('copy', 'setup.md').toString()).toContain('Run it.');
  });

  it('reports a failed import with its error, without the credentials given in the URL', async () => {
    const { admin, space } = await setup();
    const url = server.url('missing').replace('http://', 'http://someone:pa55word-secret@');
    expectData(await mutate(t, admin.token, 'importGitRepository', { spaceId: space.id, url, ref: 'main' }, 'gitSync { url }'));
    const failed = await settled(space.id, admin.token);
    expect(failed.operation).toMatchObject({ state: 'failure', error: expect.any(String) });
    expect(failed.url).toBe(server.url('missing'));
    expect(JSON.stringify(failed)).not.toContain('pa55word-secret');
    expect(failed).toEqual(asGraphQL((await t.call('GET', `/v1/spaces/${space.id}/git/info`, { token: admin.token })).json()));
  });

  it('refuses as REST does, in the graph error shape, and queues nothing then', async () => {
    const { admin, member, space } = await setup();
    const reader = await member('read');
    server.seed('refused', { 'README.md': '# Home\n' });
    const input = { spaceId: space.id, url: server.url('refused'), ref: 'main' };
    const importing = (token: string, changes: Json = {}) => mutate(t, token, 'importGitRepository', { ...input, ...changes }, 'gitSync { url }');

    expectGraphQLError(await importing(reader.token), 403);
    expectGraphQLError(
      await importing(admin.token, { url: 'ftp://example.test/repo.git' }),
      400,
      'url: Git repositories are reached over http or https, not ftp:',
    );
    expectGraphQLError(await importing(admin.token, { repoProjectDirectory: '../up' }), 400, /^repoProjectDirectory: must be a path inside the repository/);
    expectGraphQLError(await mutate(t, admin.token, 'exportToGitRepository', { ...input, commitMessage: '' }, 'gitSync { url }'), 400, /^commitMessage/);
    const locked = await t.call('PATCH', `/v1/spaces/${space.id}`, { token: admin.token, body: { editMode: 'locked' } });
    expect(locked.statusCode, locked.body).toBe(200);
    expectGraphQLError(await importing(admin.token), 409, `space "${space.id}" is locked: its content cannot be replaced by an import`);
    expect(await t.database.db.spaceGitSync.count({ where: { spaceId: space.id } })).toBe(0);

    // Readers see the state; outsiders do not see the space.
    expectData(await importing(admin.token, { standalone: true }));
    await settled(space.id, admin.token);
    expect(expectData(await t.graphql(reader.token, SPACE_GIT_SYNC, { id: space.id })).space.gitSync.url).toBe(server.url('refused'));
    const outsider = await buildTeam(t.database);
    expectGraphQLError(await t.graphql(outsider.admin.token, SPACE_GIT_SYNC, { id: space.id }), 404);
  });
});
