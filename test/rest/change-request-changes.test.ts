import { applyPatch } from 'diff';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { buildTeam, buildUser } from '../support/factories.ts';
import { expectData, expectGraphQLError } from '../support/graphql.ts';
import { watchHealth } from '../support/health-watch.ts';
import { officialClient } from '../support/official.ts';

/**
 * `GET …/change-requests/{changeRequestId}/changes` (the official
 * getChangeRequestChanges) and `ChangeRequest.changes`: pages created, edited,
 * moved and deleted since the change request's base, with a unified diff of
 * their markdown, then files; once merged, what the merge changed. One domain
 * function answers both contracts.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const CHANGES = '/v1/spaces/{spaceId}/change-requests/{changeRequestId}/changes';

/** A space with Alpha (→ Gamma), Beta and Delta merged, and a change request editing, adding, moving and deleting pages. */
async function setup() {
  const team = await buildTeam(t.database);
  const token = team.admin.token;
  const space = (await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token, body: { title: 'Diffs' } })).json();
  const open = async () => (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token, body: {} })).json();
  const edit = async (changeRequestId: string, changes: unknown[]) => {
    const response = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequestId}/content?compat=false`, { token, body: { changes } });
    expect(response.statusCode, response.body).toBe(200);
    return (ref: string) => response.json().changes.find((change: any) => change.ref === ref)?.page.id as string;
  };
  const merge = async (changeRequestId: string) => {
    const response = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequestId}/merge`, { token });
    expect(response.statusCode, response.body).toBe(200);
  };
  const first = await open();
  const ids = await edit(first.id, [
    { operation: 'insert_page', title: 'Alpha', slug: 'alpha', document: { markdown: 'alpha\n' }, ref: 'alpha' },
    { operation: 'insert_page', title: 'Beta', document: { markdown: 'one\ntwo\nthree\n' }, ref: 'beta' },
    { operation: 'insert_page', title: 'Delta', document: { markdown: 'delta\n' }, ref: 'delta' },
  ]);
  const gamma = (await edit(first.id, [{ operation: 'insert_page', title: 'Gamma', into: ids('alpha'), document: { markdown: 'gamma\n' }, ref: 'gamma' }]))(
    'gamma',
  );
  await merge(first.id);

  const changeRequest = await open();
  const epsilon = (
    await edit(changeRequest.id, [
      { operation: 'update_page', page: ids('beta'), document: { markdown: 'one\n2\nthree\n' } },
      { operation: 'update_page', page: ids('alpha'), title: 'Alpha 2' },
      { operation: 'update_page', page: ids('delta'), into: ids('alpha') },
      { operation: 'delete_page', page: gamma },
      { operation: 'insert_page', title: 'Epsilon', document: { markdown: 'new\n' }, ref: 'epsilon' },
      { operation: 'insert_files', files: [{ name: 'notes.txt', contentType: 'text/plain', base64: Buffer.from('notes').toString('base64') }] },
    ])
  )('epsilon');
  return { team, token, space, changeRequest, merge, ids: { alpha: ids('alpha'), beta: ids('beta'), delta: ids('delta'), gamma, epsilon } };
}

describe('the changes of a change request', () => {
  it('lists pages created, edited, moved and deleted with their diffs, then files, over REST and GraphQL alike', async () => {
    const { token, space, changeRequest, merge, ids } = await setup();
    const url = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/changes`;
    const response = await t.call('GET', `${url}?limit=100`, { token });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expectMatchesSchema('GET', CHANGES, 200, body);
    const cr = await t.database.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequest.id } });
    expect([body.base, body.head, body.more, body.next]).toEqual([cr.revisionMergedAncestorId, cr.revisionId, undefined, undefined]);
    const summary = body.changes.map((change: any) => [
      change.type,
      change.page?.id ?? change.file.name,
      change.before?.title ?? null,
      change.after?.title ?? null,
    ]);
    expect(summary).toEqual([
      ['page_edited', ids.alpha, 'Alpha', 'Alpha 2'],
      ['page_moved', ids.delta, 'Delta', 'Delta'],
      ['page_edited', ids.beta, 'Beta', 'Beta'],
      ['page_created', ids.epsilon, null, 'Epsilon'],
      ['page_deleted', ids.gamma, 'Gamma', null],
      ['file_created', 'notes.txt', null, null],
    ]);
    const [alpha, delta, beta, epsilon, gamma, file] = body.changes;
    expect(alpha).toMatchObject({
      page: { id: ids.alpha, type: 'document', title: 'Alpha 2' },
      attributes: { title: { before: 'Alpha', after: 'Alpha 2' } },
      diff: null,
    });
    expect(alpha.attributes.document).toBeUndefined();
    expect(delta).toMatchObject({ before: { path: 'delta' }, after: { path: `${alpha.page.path}/delta` }, parent: { after: { id: ids.alpha } } });
    expect(delta.parent.before).toBeUndefined();
    expect(beta.attributes.document.before).not.toBe(beta.attributes.document.after);
    expect(beta.diff.startsWith('--- a/beta.md\n+++ b/beta.md\n')).toBe(true);
    expect(beta.diff).toContain('@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n');
    expect(epsilon.diff).toContain('--- /dev/null\n+++ b/epsilon.md\n@@ -0,0 +1,1 @@\n+new\n');
    expect(gamma).toMatchObject({ page: { path: 'alpha/gamma' } });
    expect(gamma.diff).toContain('--- a/alpha/gamma.md\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-gamma\n');
    expect(file.file).toMatchObject({ id: expect.stringMatching(/^fil_/), contentType: 'text/plain', downloadURL: expect.stringContaining('/files/') });

    // Ten by default, as the official API; pages of 2 with `more` and `next`, and GraphQL's connection on the same tokens.
    expect((await t.call('GET', url, { token })).json().changes).toEqual(body.changes);
    const first = (await t.call('GET', `${url}?limit=2`, { token })).json();
    expect(first.more).toBe(4);
    const second = (await t.call('GET', `${url}?limit=2&page=${first.next.page}`, { token })).json();
    const third = (await t.call('GET', `${url}?limit=2&page=${second.next.page}`, { token })).json();
    expect([...first.changes, ...second.changes, ...third.changes]).toEqual(body.changes);
    expect([third.more, third.next]).toEqual([undefined, undefined]);
    const QUERY = `
      query($id: ID!, $after: String) {
        node(id: $id) {
          ... on ChangeRequest {
            changes(first: 2, after: $after) {
              totalCount
              edges { cursor node { type page { id type title path } before { title path } after { title path } attributes parent { before { id } after { id } } diff file { id name } } }
              pageInfo { hasNextPage endCursor }
            }
          }
        }
      }`;
    const graph = expectData(await t.graphql(token, QUERY, { id: changeRequest.id, after: first.next.page })).node.changes;
    expect(graph.totalCount).toBe(6);
    const asGraph = (change: any) => ({
      type: change.type,
      page: change.page ?? null,
      before: change.before ?? null,
      after: change.after ?? null,
      attributes: change.attributes ?? null,
      parent: change.parent
        ? { before: change.parent.before ? { id: change.parent.before.id } : null, after: change.parent.after ? { id: change.parent.after.id } : null }
        : null,
      diff: change.diff ?? null,
      file: change.file ? { id: change.file.id, name: change.file.name } : null,
    });
    expect(graph.edges.map((edge: any) => edge.node)).toEqual(second.changes.map(asGraph));
    expect(graph.pageInfo).toEqual({ hasNextPage: true, endCursor: second.next.page });

    const bad = await t.call('GET', `${url}?page=nonsense`, { token });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/^page: /);

    // Once merged: what the merge changed in the space, the same changes.
    await merge(changeRequest.id);
    const merged = (await t.call('GET', `${url}?limit=100`, { token })).json();
    const after = await t.database.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequest.id } });
    const mergeRevision = await t.database.db.revision.findUniqueOrThrow({ where: { id: after.revisionMergedId! } });
    expect([merged.base, merged.head]).toEqual([(mergeRevision.parents as string[])[0], after.revisionMergedId]);
    expect(merged.changes.map((change: any) => [change.type, change.page?.id ?? change.file.name])).toEqual(summary.map((row: any[]) => [row[0], row[1]]));
  });

  it('is read with the official client, and seen by whoever sees the space: readers yes, outsiders 404, in both contracts', async () => {
    const { team, space, changeRequest } = await setup();
    const reader = await team.member('read');
    const outsider = await buildUser(t.database, 'outsider');
    const client = (await officialClient(t))(reader);
    const { data } = await client.spaces.getChangeRequestChanges(space.id, changeRequest.id, { limit: 3 });
    expect(data.changes.map((change) => change.type)).toEqual(['page_edited', 'page_moved', 'page_edited']);
    expect(data.more).toBe(3);
    const url = `/v1/spaces/${space.id}/change-requests/${changeRequest.number}/changes`;
    expect((await t.call('GET', url, { token: reader.token })).statusCode).toBe(200);
    const refused = await t.call('GET', url, { token: outsider.token });
    expect(refused.statusCode).toBe(404);
    const QUERY = 'query($id: ID!) { node(id: $id) { ... on ChangeRequest { changes { totalCount } } } }';
    expect(expectData(await t.graphql(reader.token, QUERY, { id: changeRequest.id })).node.changes.totalCount).toBe(6);
    expectGraphQLError(await t.graphql(outsider.token, QUERY, { id: changeRequest.id }), 404);
  });
  it('diffs the bodies of the changes it shows only, and gives up (null) on an edit too large to diff', async () => {
    const team = await buildTeam(t.database);
    const token = team.admin.token;
    const space = (await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token, body: { title: 'Large diffs' } })).json();
    const lines = (word: string) => Array.from({ length: 6_000 }, (_, i) => `${word} ${i}`).join('\n');
    const batch = async (changeRequestId: string, changes: unknown[]) => {
      const response = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequestId}/content?compat=false`, { token, body: { changes } });
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };
    // Merged first: a page of 6,000 lines.
    const first = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token, body: {} })).json();
    const huge = (await batch(first.id, [{ operation: 'insert_page', title: 'Huge', document: { markdown: lines('huge') }, ref: 'huge' }])).changes[0].page.id;
    expect((await t.call('POST', `/v1/spaces/${space.id}/change-requests/${first.id}/merge`, { token })).statusCode).toBe(200);
    // Then every one of its lines replaced, and a page of 6,000 lines created.
    const second = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token, body: {} })).json();
    await batch(second.id, [
      { operation: 'update_page', page: huge, document: { markdown: lines('other') } },
      { operation: 'insert_page', title: 'Also huge', document: { markdown: lines('new') } },
    ]);
    const url = `/v1/spaces/${space.id}/change-requests/${second.id}/changes`;
    const edited = (await t.call('GET', `${url}?limit=1`, { token })).json();
    expect(edited.changes).toEqual([expect.objectContaining({ type: 'page_edited', page: expect.objectContaining({ title: 'Huge' }), diff: null })]);
    expectMatchesSchema('GET', CHANGES, 200, edited);
    // Created: diffed against nothing, however long.
    const created = (await t.call('GET', `${url}?limit=1&page=${edited.next.page}`, { token })).json();
    expect(created.changes).toEqual([expect.objectContaining({ type: 'page_created', page: expect.objectContaining({ title: 'Also huge' }) })]);
    expect(created.changes[0].diff.split('\n').filter((line: string) => line.startsWith('+new ')).length).toBe(6_000);
  });

  it('makes each diff once, on the worker pool, and keeps it: later reads, of any change request comparing the same bodies, read it back', async () => {
    const { team, token, space, changeRequest, ids } = await setup();
    const reader = await team.member('read');
    const url = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/changes`;
    const beta = (await t.call('GET', `${url}?limit=100`, { token: reader.token })).json().changes.find((change: any) => change.page?.id === ids.beta);
    const { before, after } = beta.attributes.document;
    const kept = await t.database.db.documentDiff.findUniqueOrThrow({ where: { beforeId_afterId: { beforeId: before, afterId: after } } });
    expect(kept.hunks).toBe('@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n');
    expect(beta.diff).toBe(`--- a/beta.md\n+++ b/beta.md\n${kept.hunks}`);
    // What is kept is what every later read answers (changed here by hand to tell it from a diff made again).
    await t.database.db.documentDiff.update({ where: { beforeId_afterId: { beforeId: before, afterId: after } }, data: { hunks: '@@ kept @@\n' } });
    const again = (await t.call('GET', `${url}?limit=99`, { token: reader.token })).json().changes.find((change: any) => change.page?.id === ids.beta);
    expect(again.diff).toBe('--- a/beta.md\n+++ b/beta.md\n@@ kept @@\n');
    // Another change request making the same edit compares the same two bodies: the same kept diff, under its own paths.
    const other = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token, body: {} })).json();
    const edited = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${other.id}/content?compat=false`, {
      token,
      body: { changes: [{ operation: 'update_page', page: ids.beta, document: { markdown: 'one\n2\nthree\n' } }] },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const otherChanges = (await t.call('GET', `/v1/spaces/${space.id}/change-requests/${other.id}/changes`, { token: reader.token })).json().changes;
    expect(otherChanges).toEqual([expect.objectContaining({ type: 'page_edited', diff: '--- a/beta.md\n+++ b/beta.md\n@@ kept @@\n' })]);
    expect(await t.database.db.documentDiff.count({ where: { beforeId: before } })).toBe(1);
  });

  it('answers /healthz promptly while it diffs large bodies for a reader, and the diffs are right', async () => {
    const team = await buildTeam(t.database);
    const token = team.admin.token;
    const reader = await team.member('read');
    const space = (await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token, body: { title: 'Large edits' } })).json();
    // Two pages of 5,000 lines; then every other line of the first 4,000 rewritten: seconds of work for each diff.
    const body = (page: number, edited: boolean) =>
      Array.from({ length: 5_000 }, (_, i) => `Page ${page}, line ${i}: ${edited && i % 2 && i < 4_000 ? 'rewritten' : 'as first written'}`).join('\n');
    const batch = async (changeRequestId: string, changes: unknown[]) => {
      const response = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequestId}/content?compat=false`, { token, body: { changes } });
      expect(response.statusCode, response.body).toBe(200);
      return response.json();
    };
    const first = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token, body: {} })).json();
    const pages = (
      await batch(
        first.id,
        [0, 1].map((page) => ({ operation: 'insert_page', title: `Page ${page}`, document: { markdown: body(page, false) } })),
      )
    ).changes.map((change: any) => change.page.id);
    expect((await t.call('POST', `/v1/spaces/${space.id}/change-requests/${first.id}/merge`, { token })).statusCode).toBe(200);
    const second = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token, body: {} })).json();
    await batch(
      second.id,
      pages.map((page: string, index: number) => ({ operation: 'update_page', page, document: { markdown: body(index, true) } })),
    );

    const url = `/v1/spaces/${space.id}/change-requests/${second.id}/changes`;
    const { result: response, slowestMs, probes } = await watchHealth(t, () => t.call('GET', url, { token: reader.token }));
    expect(response.statusCode, response.body).toBe(200);
    expect(probes).toBeGreaterThan(1);
    expect(slowestMs).toBeLessThan(1_000);
    const changes = response.json().changes;
    expect(changes.map((change: any) => change.type)).toEqual(['page_edited', 'page_edited']);
    for (const [index, change] of changes.entries()) {
      expect(change.diff.startsWith(`--- a/page-${index}.md\n+++ b/page-${index}.md\n@@ `)).toBe(true);
      expect(change.diff.split('\n').filter((line: string) => line.startsWith('+Page ')).length).toBe(2_000);
      expect(applyPatch(body(index, false), change.diff)).toBe(body(index, true));
    }
    // GraphQL reads the same diffs, kept.
    const graph = expectData(
      await t.graphql(reader.token, 'query($id: ID!) { node(id: $id) { ... on ChangeRequest { changes(first: 2) { edges { node { diff } } } } } }', {
        id: second.id,
      }),
    );
    expect(graph.node.changes.edges.map((edge: any) => edge.node.diff)).toEqual(changes.map((change: any) => change.diff));
  });
});
