import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { buildTeam, buildUser } from '../support/factories.ts';
import { expectData, expectGraphQLError } from '../support/graphql.ts';

/**
 * A revision read by its id through both contracts: REST
 * `/v1/spaces/{spaceId}/revisions/{revisionId}…` and GraphQL
 * `revision(spaceId:, id:)` answer the same revision, the same page documents
 * (`…/page/{pageId}/document` and `Page.document`, in every way of reading
 * them) and the same changes, under the same permissions.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const GUIDE = '# Guide\n\nRead the [notes](./notes) first.\n\n## Install\n\n```sh\nnpm install\n```\n\n## Install\n\n- [x] done\n- [ ] to do\n';

/** A space (of a new organization, or of `organization`) with Guide (→ Setup) and Notes, and a file, merged from a change request; and a change request editing Notes. */
async function setup(organization?: Awaited<ReturnType<typeof buildTeam>>) {
  const team = organization ?? (await buildTeam(t.database));
  const token = team.admin.token;
  const rest = async (method: string, url: string, body?: unknown) => {
    const response = await t.call(method, url, { token, ...(body === undefined ? {} : { body }) });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
    return response.json();
  };
  const space = await rest('POST', `/v1/orgs/${team.organization.id}/spaces`, { title: 'Parity' });
  const first = await rest('POST', `/v1/spaces/${space.id}/change-requests`, {});
  const batch = `/v1/spaces/${space.id}/change-requests/${first.id}/content?compat=false`;
  const created = await rest('POST', batch, {
    changes: [
      { operation: 'insert_page', title: 'Guide', slug: 'guide', document: { markdown: GUIDE }, ref: 'guide' },
      { operation: 'insert_page', title: 'Notes', slug: 'notes', document: { markdown: 'Some _notes_.\n' }, ref: 'notes' },
      { operation: 'insert_files', files: [{ name: 'notes.txt', contentType: 'text/plain', base64: Buffer.from('notes').toString('base64') }] },
    ],
  });
  const guide = created.changes.find((change: any) => change.ref === 'guide').page.id;
  await rest('POST', batch, {
    changes: [{ operation: 'insert_page', title: 'Setup', slug: 'setup', into: guide, document: { markdown: '# Setup\n\nThen **run** it.\n' } }],
  });
  await rest('POST', `/v1/spaces/${space.id}/change-requests/${first.id}/merge`);
  const merged = (await rest('GET', `/v1/spaces/${space.id}`)).revision as string;
  const changeRequest = await rest('POST', `/v1/spaces/${space.id}/change-requests`, {});
  const notes = (await rest('GET', `/v1/spaces/${space.id}/content/path/notes`)).id as string;
  await rest('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
    changes: [{ operation: 'update_page', page: notes, document: { markdown: 'Some _notes_, and more.\n' } }],
  });
  const draft = (await rest('GET', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`)).revision as string;
  return { team, token, space, merged, draft };
}

const PAGE_FIELDS = 'id title slug path type';
const REVISION = `
  query($spaceId: ID!, $id: ID!) {
    revision(spaceId: $spaceId, id: $id) {
      id object type parents createdAt
      pages { ${PAGE_FIELDS} pages { ${PAGE_FIELDS} pages { ${PAGE_FIELDS} } } }
      files { id name contentType size downloadURL }
    }
  }`;

/** A REST page tree as the GraphQL selection above has it (the trees here are two levels deep). */
function asGraphPages(pages: any[]): any[] {
  return pages.map((page) => ({
    id: page.id,
    title: page.title,
    slug: page.slug,
    path: page.path,
    type: page.type,
    pages: asGraphPages(page.pages ?? []),
  }));
}

/** Every page of a REST tree, depth first. */
const flatten = (pages: any[]): any[] => pages.flatMap((page) => [page, ...flatten(page.pages ?? [])]);

describe('a revision by id through REST and GraphQL', () => {
  it('is the same revision: its fields, page tree and files', async () => {
    const { token, space, merged, draft } = await setup();
    for (const revisionId of [merged, draft]) {
      const rest = (await t.call('GET', `/v1/spaces/${space.id}/revisions/${revisionId}`, { token })).json();
      const { revision } = expectData(await t.graphql(token, REVISION, { spaceId: space.id, id: revisionId }));
      expect(revision).toEqual({
        id: rest.id,
        object: rest.object,
        type: rest.type,
        parents: rest.parents,
        createdAt: rest.createdAt,
        pages: asGraphPages(rest.pages),
        files: rest.files.map((file: any) => ({ id: file.id, name: file.name, contentType: file.contentType, size: file.size, downloadURL: file.downloadURL })),
      });
      expect(revision.files.map((file: any) => file.name)).toEqual(['notes.txt']);
      // The same object as `node` answers.
      const node = expectData(await t.graphql(token, 'query($id: ID!) { node(id: $id) { ... on Revision { id type parents } } }', { id: revisionId })).node;
      expect(node).toEqual({ id: revisionId, type: rest.type, parents: rest.parents });
    }
  });

  it('answers every page document alike: REST …/document and Page.document, as stored, evaluated and dereferenced', async () => {
    const { token, space, merged, draft } = await setup();
    const QUERY = `
      query($spaceId: ID!, $id: ID!, $pageId: ID!, $evaluated: DocumentEvaluation, $dereferenced: DocumentDereference) {
        revision(spaceId: $spaceId, id: $id) { page(id: $pageId) { markdown document(evaluated: $evaluated, dereferenced: $dereferenced) } }
      }`;
    const READINGS = [
      { rest: '', graph: {} },
      { rest: '?evaluated=true', graph: { evaluated: 'all' } },
      { rest: '?evaluated=deterministic-only&dereferenced=reusable-contents', graph: { evaluated: 'deterministic_only', dereferenced: 'reusable_contents' } },
      { rest: '?evaluated=false&dereferenced=true', graph: { evaluated: 'none', dereferenced: 'all' } },
    ];
    let anchored = 0;
    for (const revisionId of [merged, draft]) {
      const base = `/v1/spaces/${space.id}/revisions/${revisionId}`;
      const pages = flatten((await t.call('GET', `${base}/pages`, { token })).json().pages);
      expect(pages.map((page) => page.title)).toEqual(['Guide', 'Setup', 'Notes']);
      for (const page of pages) {
        const markdown = (await t.call('GET', `${base}/page/${page.id}`, { token })).json().markdown;
        for (const reading of READINGS) {
          const response = await t.call('GET', `${base}/page/${page.id}/document${reading.rest}`, { token });
          expect(response.statusCode, response.body).toBe(200);
          const graph = expectData(await t.graphql(token, QUERY, { spaceId: space.id, id: revisionId, pageId: page.id, ...reading.graph })).revision.page;
          expect(graph.document).toEqual(response.json());
          expect(graph.markdown).toBe(markdown);
          anchored += response.json().nodes.filter((node: any) => node.meta?.id).length;
        }
      }
    }
    // Guide's three headings and Setup's one, in the two evaluated readings of both revisions.
    expect(anchored).toBe(2 * 2 * 4);
  });

  it('lists the same changes: REST …/changes and Revision.changes, with interchangeable page tokens and cursors', async () => {
    const { token, space, merged, draft } = await setup();
    const QUERY = `
      query($spaceId: ID!, $id: ID!, $first: Int, $after: String) {
        revision(spaceId: $spaceId, id: $id) {
          changes(first: $first, after: $after) {
            totalCount
            edges { cursor node { type page { id type title path } before { title path } after { title path } attributes diff file { id name contentType downloadURL } } }
            pageInfo { hasNextPage endCursor }
          }
        }
      }`;
    const asGraph = (change: any) => ({
      type: change.type,
      page: change.page ?? null,
      before: change.before ?? null,
      after: change.after ?? null,
      attributes: change.attributes ?? null,
      diff: change.diff ?? null,
      file: change.file ?? null,
    });
    for (const revisionId of [merged, draft]) {
      const url = `/v1/spaces/${space.id}/revisions/${revisionId}/changes`;
      const all = (await t.call('GET', `${url}?limit=100`, { token })).json();
      const graph = expectData(await t.graphql(token, QUERY, { spaceId: space.id, id: revisionId, first: 100 })).revision.changes;
      expect(graph.totalCount).toBe(all.changes.length);
      expect(graph.edges.map((edge: any) => edge.node)).toEqual(all.changes.map(asGraph));
    }
    // Page by page: a REST token continues in GraphQL, a GraphQL cursor in REST.
    const url = `/v1/spaces/${space.id}/revisions/${merged}/changes`;
    const all = (await t.call('GET', `${url}?limit=100`, { token })).json().changes;
    expect(all.map((change: any) => change.type)).toEqual(['page_created', 'page_created', 'page_created', 'file_created']);
    const first = (await t.call('GET', `${url}?limit=1`, { token })).json();
    const second = expectData(await t.graphql(token, QUERY, { spaceId: space.id, id: merged, first: 2, after: first.next.page })).revision.changes;
    expect(second.edges.map((edge: any) => edge.node)).toEqual(all.slice(1, 3).map(asGraph));
    const third = (await t.call('GET', `${url}?limit=5&page=${encodeURIComponent(second.pageInfo.endCursor)}`, { token })).json();
    expect(third.changes).toEqual(all.slice(3));
  });

  it('is read by whoever sees the space in both contracts; a revision of another space, or none, is not there', async () => {
    const { team, token, space, merged, draft } = await setup();
    // Another space of the same organization, which the admin sees too.
    const other = await setup(team);
    const reader = await team.member('read');
    const guest = await team.member(null);
    const outsider = await buildUser(t.database, 'outsider');
    const QUERY = 'query($spaceId: ID!, $id: ID!) { revision(spaceId: $spaceId, id: $id) { id pages { id } } }';
    for (const id of [merged, draft]) {
      expect(expectData(await t.graphql(reader.token, QUERY, { spaceId: space.id, id })).revision.id).toBe(id);
      for (const caller of [guest, outsider]) {
        const result = await t.graphql(caller.token, QUERY, { spaceId: space.id, id });
        expectGraphQLError(result, 404);
        expect(result.data).toEqual({ revision: null });
        expect((await t.call('GET', `/v1/spaces/${space.id}/revisions/${id}`, { token: caller.token })).statusCode).toBe(404);
      }
    }
    expectGraphQLError(await t.graphql(token, QUERY, { spaceId: space.id, id: other.merged }), 404, `Revision "${other.merged}" was not found`);
    expectGraphQLError(await t.graphql(token, QUERY, { spaceId: space.id, id: 'rev_missing' }), 404, 'Revision "rev_missing" was not found');
    expect(expectData(await t.graphql(token, QUERY, { spaceId: other.space.id, id: other.merged })).revision.id).toBe(other.merged);
  });
});
