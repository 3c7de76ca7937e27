import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { buildTeam } from '../support/factories.ts';
import { expectData, expectGraphQLError, mutate } from '../support/graphql.ts';

let t: TestApp;
/** Every request executed and every tree read from the database: what statement counts prove. */
let uncached: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  uncached = await createTestApp({ responseCacheBytes: 0, pageTreeCacheBytes: 0 });
});

async function setup() {
  const team = await buildTeam(t.database);
  const space = (await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Guide' } })).json();
  return { ...team, space };
}

/** A change request holding `sections` top-level pages, each with `children` pages of `grandchildren` pages. */
async function changeRequestWithTree(token: string, spaceId: string, sections: number, children: number, grandchildren: number) {
  const opened = expectData(await mutate(t, token, 'createChangeRequest', { spaceId, subject: 'Tree' }, 'changeRequest { id number }'));
  const id = opened.createChangeRequest.changeRequest.id;
  const changes: unknown[] = [];
  const ids: string[] = [];
  const insert = async (batch: unknown[]) => {
    const result = expectData(await mutate(t, token, 'updateChangeRequestContent', { changeRequestId: id, changes: batch }, 'changes { kind pageId ref }'));
    return result.updateChangeRequestContent.changes as Array<{ pageId: string; ref: string }>;
  };
  for (let s = 0; s < sections; s++)
    changes.push({ operation: 'insert_page', ref: `s${s}`, title: `Section ${s}`, document: { markdown: `# Section ${s}\n` } });
  ids.push(...(await insert(changes)).map((change) => change.pageId));
  for (const sectionId of [...ids]) {
    const inserted = await insert(
      Array.from({ length: children }, (_, c) => ({ operation: 'insert_page', into: sectionId, title: `Child ${c}`, document: {} })),
    );
    for (const child of inserted) {
      if (grandchildren)
        await insert(Array.from({ length: grandchildren }, (_, g) => ({ operation: 'insert_page', into: child.pageId, title: `Leaf ${g}`, document: {} })));
    }
  }
  return id;
}

const TREE = /* GraphQL */ `
  query($id: ID!) {
    node(id: $id) {
      ... on ChangeRequest {
        number
        status
        createdBy { id }
        content { pages { title path pages { title path pages { title path } } } }
      }
    }
  }
`;

describe('change requests over GraphQL', () => {
  it('opens, edits, reads and merges a change request; the space shows its content and counts', async () => {
    const { admin, space } = await setup();
    const changeRequestId = await changeRequestWithTree(admin.token, space.id, 2, 1, 0);
    const read = expectData(await t.graphql(admin.token, TREE, { id: changeRequestId }));
    expect(read.node).toMatchObject({ number: 1, status: 'open', createdBy: { id: admin.id } });
    expect(read.node.content.pages.map((page: { path: string }) => page.path)).toEqual(['section-0', 'section-1']);
    expect(read.node.content.pages[0].pages.map((page: { path: string }) => page.path)).toEqual(['section-0/child-0']);

    const listed = expectData(
      await t.graphql(
        admin.token,
        `query($id: ID!) { space(id: $id) { changeRequests changeRequestsOpen changeRequestsConnection(first: 10) { totalCount edges { node { id subject outdated } } } } }`,
        { id: space.id },
      ),
    );
    expect(listed.space).toMatchObject({
      changeRequests: 1,
      changeRequestsOpen: 1,
      changeRequestsConnection: { totalCount: 1, edges: [{ node: { id: changeRequestId, subject: 'Tree', outdated: false } }] },
    });

    const merged = expectData(await mutate(t, admin.token, 'mergeChangeRequest', { changeRequestId }, 'revision changeRequest { status revisionMerged }'));
    expect(merged.mergeChangeRequest.changeRequest).toEqual({ status: 'merged', revisionMerged: merged.mergeChangeRequest.revision });
    const content = expectData(
      await t.graphql(admin.token, `query($id: ID!) { space(id: $id) { revision content { id type pages { title markdown document(format: document) } } } }`, {
        id: space.id,
      }),
    );
    expect(content.space.content).toMatchObject({ id: content.space.revision, type: 'merge' });
    expect(content.space.content.pages[0]).toMatchObject({
      title: 'Section 0',
      markdown: '# Section 0\n',
      document: { object: 'document', nodes: [{ type: 'heading-1' }] },
    });
    const rest = (await t.call('GET', `/v1/spaces/${space.id}/content`, { token: admin.token })).json();
    expect(rest.id).toBe(content.space.revision);
  });

  it('answers errors in our shape: bad changes, a reader merging', async () => {
    const { admin, member, space } = await setup();
    const opened = expectData(await mutate(t, admin.token, 'createChangeRequest', { spaceId: space.id }, 'changeRequest { id }'));
    const changeRequestId = opened.createChangeRequest.changeRequest.id;
    const bad = await mutate(
      t,
      admin.token,
      'updateChangeRequestContent',
      { changeRequestId, changes: [{ operation: 'delete_page', page: 'pg_nope' }] },
      'changes { kind }',
    );
    expectGraphQLError(bad, 400, /^changes\.0\.page: page "pg_nope" does not exist/);
    const reader = await member('read');
    expectGraphQLError(await mutate(t, reader.token, 'mergeChangeRequest', { changeRequestId }, 'revision'), 403);
    expect((await t.database.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequestId } })).status).toBe('open');
  });

  it('keeps the page tree of a revision between requests: read once, and a write shows at once', async () => {
    const { admin, space } = await setup();
    const trees = await createTestApp({ responseCacheBytes: 0 });
    const changeRequestId = await changeRequestWithTree(admin.token, space.id, 2, 2, 0);
    const read = async () => {
      // Every write committed so far, by any instance, is heard first (PostgreSQL): not counted below.
      await trees.database.generations.barrier({ everything: true });
      const before = trees.statements();
      const data = expectData(await trees.graphql(admin.token, TREE, { id: changeRequestId }));
      return { titles: JSON.stringify(data).match(/"title":"[^"]+"/g), statements: trees.statements() - before };
    };
    // The viewer behind the token is read once and kept (src/domain/users/viewer-cache.ts): not counted below.
    await trees.call('GET', '/v1/user', { token: admin.token });
    const first = await read();
    const second = await read();
    expect(second.titles).toEqual(first.titles);
    expect(second.statements).toBe(first.statements - 1);
    expectData(
      await mutate(
        trees,
        admin.token,
        'updateChangeRequestContent',
        { changeRequestId, changes: [{ operation: 'insert_page', title: 'Fresh', document: {} }] },
        'changes { kind }',
      ),
    );
    const third = await read();
    expect(third.titles).toContain('"title":"Fresh"');
    expect(third.statements).toBe(first.statements);
  });

  it('reads a page tree of any breadth in the same number of statements', async () => {
    const { admin, space } = await setup();
    const count = async (changeRequestId: string) => {
      // Every write committed so far, by any instance, is heard first (PostgreSQL): not counted below.
      await uncached.database.generations.barrier({ everything: true });
      const before = uncached.statements();
      expectData(await uncached.graphql(admin.token, TREE, { id: changeRequestId }));
      return uncached.statements() - before;
    };
    // The viewer behind the token is read once per instance, then kept: not counted below.
    await uncached.call('GET', '/v1/user', { token: admin.token });
    const small = await count(await changeRequestWithTree(admin.token, space.id, 1, 1, 1));
    const large = await count(await changeRequestWithTree(admin.token, space.id, 4, 2, 2));
    expect(large).toBe(small);
  });
});

describe('a change request an outsider asks for', () => {
  it('answers node(id:) as for an id that does not exist, without its space', async () => {
    const { space, admin } = await setup();
    const opened = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: admin.token, body: { subject: 'Private' } })).json();
    const outsider = (await buildTeam(t.database)).admin;
    const query = 'query($id: ID!) { node(id: $id) { id ... on ChangeRequest { subject } } }';
    const unknownId = `cr_${opened.id.slice(3).split('').reverse().join('')}`;
    for (const target of [t, uncached]) {
      const hidden = await target.graphql(outsider.token, query, { id: opened.id });
      const unknown = await target.graphql(outsider.token, query, { id: unknownId });
      const shape = (answer: typeof hidden) => JSON.stringify(answer).replaceAll(opened.id, '<id>').replaceAll(unknownId, '<id>');
      expect(shape(hidden)).toBe(shape(unknown));
      expect(JSON.stringify(hidden)).not.toContain(space.id);
      expect(hidden.data).toEqual({ node: null });
      expect(hidden.errors).toEqual([expect.objectContaining({ message: `Change request "${opened.id}" was not found`, extensions: { code: 404 } })]);
    }
  });
});

describe('search over GraphQL', () => {
  it('answers Space.search and Organization.search as REST does', async () => {
    const { admin, space, organization } = await setup();
    const changeRequestId = await changeRequestWithTree(admin.token, space.id, 2, 1, 0);
    expectData(await mutate(t, admin.token, 'mergeChangeRequest', { changeRequestId }, 'revision'));
    const data = expectData(
      await t.graphql(
        admin.token,
        `query($space: ID!, $org: ID!) {
          space(id: $space) { search(query: "section 1") { id title path rank ancestors sections { title body } } }
          organization(id: $org) { search(query: "child", first: 5) { space { id } pages { title ancestors } } }
        }`,
        { space: space.id, org: organization.id },
      ),
    );
    const rest = (await t.call('GET', `/v1/spaces/${space.id}/search?query=${encodeURIComponent('section 1')}`, { token: admin.token })).json();
    expect(data.space.search.map((page: { id: string }) => page.id)).toEqual(rest.items.map((item: { id: string }) => item.id));
    expect(data.space.search[0]).toMatchObject({ title: 'Section 1', path: 'section-1', rank: 1, ancestors: [] });
    expect(data.organization.search).toEqual([
      {
        space: { id: space.id },
        pages: expect.arrayContaining([
          { title: 'Child 0', ancestors: ['Section 0'] },
          { title: 'Child 0', ancestors: ['Section 1'] },
        ]),
      },
    ]);
    expectGraphQLError(await t.graphql(admin.token, `query($id: ID!) { space(id: $id) { search(query: "") { id } } }`, { id: space.id }), 400, /^query: /);
  });
});

describe('files and links over GraphQL', () => {
  it('lists a revision files and the space links with their status', async () => {
    const { admin, space } = await setup();
    const opened = expectData(await mutate(t, admin.token, 'createChangeRequest', { spaceId: space.id }, 'changeRequest { id }'));
    const changeRequestId = opened.createChangeRequest.changeRequest.id;
    const written = expectData(
      await mutate(
        t,
        admin.token,
        'updateChangeRequestContent',
        {
          changeRequestId,
          changes: [
            { operation: 'insert_page', title: 'Doc', document: { markdown: '![chart](./chart) and [gone](/pages/nowhere) [ext](https://example.test)\n' } },
            {
              operation: 'insert_files',
              files: [{ ref: 'chart', name: 'chart.txt', contentType: 'text/plain', base64: Buffer.from('data').toString('base64') }],
            },
          ],
        },
        'changes { kind } insertedFiles { id name size contentType }',
      ),
    ).updateChangeRequestContent;
    expect(written.insertedFiles).toEqual([{ id: expect.any(String), name: 'chart.txt', size: 4, contentType: 'text/plain' }]);
    expect(await t.database.db.revisionFile.count({ where: { fileId: written.insertedFiles[0].id } })).toBeGreaterThan(0);
    expectData(await mutate(t, admin.token, 'mergeChangeRequest', { changeRequestId }, 'revision'));
    const data = expectData(
      await t.graphql(
        admin.token,
        `query($id: ID!) { space(id: $id) { content { files { id name size downloadURL } } links { status relation target pageIds } } }`,
        { id: space.id },
      ),
    );
    expect(data.space.content.files).toEqual([expect.objectContaining({ id: written.insertedFiles[0].id, name: 'chart.txt', size: 4 })]);
    expect(data.space.links.map((link: { relation: string; status: string }) => [link.relation, link.status]).sort()).toEqual([
      ['external', 'ok'],
      ['file', 'ok'],
    ]);
    const download = await t.call('GET', new URL(data.space.content.files[0].downloadURL).pathname, {});
    expect(download.body).toBe('data');
  });

  it('answers each page its links and each file its backlinks, in the same statements for 2 or 12 pages', async () => {
    const { admin, space } = await setup();
    const opened = expectData(await mutate(t, admin.token, 'createChangeRequest', { spaceId: space.id }, 'changeRequest { id }'));
    const changeRequestId = opened.createChangeRequest.changeRequest.id;
    const write = async (changes: unknown[]) =>
      expectData(await mutate(t, admin.token, 'updateChangeRequestContent', { changeRequestId, changes }, 'changes { kind pageId ref }'))
        .updateChangeRequestContent.changes as Array<{ kind: string; pageId: string; ref: string }>;
    const [target, linking] = await write([
      { operation: 'insert_page', ref: 'target', title: 'Target', document: { markdown: 'Soon gone\n' } },
      { operation: 'insert_files', files: [{ ref: 'logo', name: 'logo.txt', contentType: 'text/plain', base64: Buffer.from('logo').toString('base64') }] },
      { operation: 'insert_page', title: 'Linking', document: { markdown: '[t](./target) ![logo](./logo) [site](https://example.test/a)\n' } },
    ]);
    await write([{ operation: 'delete_page', page: target!.pageId }]);
    const query = `query($id: ID!) { node(id: $id) { ... on ChangeRequest { content {
      pages { title links { status relation target pageIds } broken: links(status: broken) { relation } }
      files { name backlinks { id title path } } } } } }`;
    const read = async () => {
      // Every write committed so far, by any instance, is heard first (PostgreSQL): not counted below.
      await uncached.database.generations.barrier({ everything: true });
      const before = uncached.statements();
      const data = expectData(await uncached.graphql(admin.token, query, { id: changeRequestId }));
      return { content: data.node.content, statements: uncached.statements() - before };
    };
    // The viewer behind the token is read once per instance, then kept: not counted below.
    await uncached.call('GET', '/v1/user', { token: admin.token });
    const first = await read();
    expect(first.content.pages).toEqual([
      {
        title: 'Linking',
        links: [
          { status: 'broken', relation: 'page', target: { kind: 'page', page: target!.pageId }, pageIds: [linking!.pageId] },
          { status: 'ok', relation: 'file', target: { kind: 'file', file: expect.any(String) }, pageIds: [linking!.pageId] },
          { status: 'ok', relation: 'external', target: { kind: 'url', url: 'https://example.test/a' }, pageIds: [linking!.pageId] },
        ],
        broken: [{ relation: 'page' }],
      },
    ]);
    expect(first.content.files).toEqual([{ name: 'logo.txt', backlinks: [{ id: linking!.pageId, title: 'Linking', path: 'linking' }] }]);
    await write(
      Array.from({ length: 10 }, (_, index) => ({
        operation: 'insert_page',
        title: `More ${index}`,
        document: { markdown: `![logo](/files/${first.content.pages[0].links[1].target.file})\n` },
      })),
    );
    // Written through the other app: on SQLite this one forgets what it kept and reads its viewer again (not counted).
    await uncached.call('GET', '/v1/user', { token: admin.token });
    const second = await read();
    expect(second.content.pages).toHaveLength(11);
    expect(second.content.files[0].backlinks).toHaveLength(11);
    expect(second.statements).toBe(first.statements);
  });
});
