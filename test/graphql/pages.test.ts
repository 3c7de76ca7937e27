import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.ts';
import { createDemoApp } from '../support/demo.ts';
import { buildTeam, buildUser } from '../support/factories.ts';
import { expectData, expectGraphQLError } from '../support/graphql.ts';
import { signVisitorToken } from '../support/site-tree.ts';

/**
 * One page by id or path from the graph, with what a docs frontend renders
 * around it (breadcrumbs, previous and next), on the demo data of `npm start`:
 * the same pages REST answers, under the same permissions.
 */

let t: TestApp;
let alice: string;
let gettingStarted: string;
beforeAll(async () => {
  let tokenOf: (email?: string) => Promise<string>;
  ({ t, tokenOf } = await createDemoApp());
  alice = await tokenOf();
  gettingStarted = (await t.database.db.space.findFirstOrThrow({ where: { title: 'Getting started' } })).id;
});

const PAGE_BY_PATH = `
  query PageByPath($spaceId: ID!, $path: String!) {
    space(id: $spaceId) {
      title
      page(path: $path) {
        id title path markdown
        parent { title }
        ancestors { title path }
        previous { title path }
        next { title path }
      }
    }
  }`;

async function statementsOf<T>(work: () => Promise<T>) {
  await t.database.generations.barrier();
  const before = t.statements();
  const result = await work();
  return { result, statements: t.statements() - before };
}

describe('a page by path, as a docs frontend renders it', () => {
  it('answers the page, its body, breadcrumbs and previous/next in one query of at most 3 statements', async () => {
    await t.graphql(alice, '{ viewer { user { id } } }');
    const { result, statements } = await statementsOf(() => t.graphql(alice, PAGE_BY_PATH, { spaceId: gettingStarted, path: 'quickstart/create-an-account' }));
    const { space } = expectData(result);
    expect(space.page).toMatchObject({
      title: 'Create an account',
      path: 'quickstart/create-an-account',
      markdown: expect.stringContaining('Sign up at the [console]'),
      parent: { title: 'Quickstart' },
      ancestors: [{ title: 'Quickstart', path: 'quickstart' }],
      previous: { title: 'Quickstart', path: 'quickstart' },
      next: { title: 'Invite your team', path: 'quickstart/invite-your-team' },
    });
    // The space, its page tree and the one body selected.
    expect(statements).toBeLessThanOrEqual(3);
  });

  it('walks the whole table of contents with previous and next, from the first page to the last', async () => {
    const walk: string[] = [];
    let next: string | null = 'overview';
    let previous: string | null = null;
    while (next) {
      const { space }: { space: any } = expectData(await t.graphql(alice, PAGE_BY_PATH, { spaceId: gettingStarted, path: next }));
      expect(space.page.previous?.path ?? null).toBe(previous);
      walk.push(space.page.path);
      previous = space.page.path;
      next = space.page.next?.path ?? null;
    }
    expect(walk).toEqual([
      'overview',
      'quickstart',
      'quickstart/create-an-account',
      'quickstart/invite-your-team',
      'concepts',
      'concepts/spaces',
      'concepts/change-requests',
    ]);
  });

  it('reads a body only when selected, and answers null for a path or id with no page', async () => {
    const withoutBody = await statementsOf(() =>
      t.graphql(alice, 'query($id: ID!) { space(id: $id) { page(path: "concepts") { title ancestors { title } } } }', { id: gettingStarted }),
    );
    expect(expectData(withoutBody.result).space.page).toEqual({ title: 'Concepts', ancestors: [] });
    expect(withoutBody.statements).toBeLessThanOrEqual(1);

    const missing = expectData(
      await t.graphql(alice, 'query($id: ID!) { space(id: $id) { byPath: page(path: "no/such/page") { id } byId: page(id: "pg_none") { id } } }', {
        id: gettingStarted,
      }),
    );
    expect(missing.space).toEqual({ byPath: null, byId: null });
  });

  it('refuses a lookup with both an id and a path, or with neither', async () => {
    for (const args of ['', '(id: "pg_x", path: "overview")']) {
      const result = await t.graphql(alice, `query($id: ID!) { space(id: $id) { page${args} { id } } }`, { id: gettingStarted });
      expectGraphQLError(result, 400, 'id, path: give exactly one of them');
    }
  });
});

describe('page lookups and REST', () => {
  it('answer every page of a space as REST does, by id and by path, in the space and in a change request', async () => {
    const pages = await t.call('GET', `/v1/spaces/${gettingStarted}/content/pages`, { token: alice });
    const flat: Array<{ id: string; path: string }> = [];
    const collect = (list: any[]) => {
      for (const page of list) {
        flat.push({ id: page.id, path: page.path });
        collect(page.pages);
      }
    };
    collect(pages.json().pages);
    expect(flat.length).toBe(7);
    const opened = await t.call('POST', `/v1/spaces/${gettingStarted}/change-requests`, { token: alice, body: { subject: 'Parity' } });
    const changeRequest = opened.json();
    const QUERY = `
      query($spaceId: ID!, $changeRequestId: ID!, $id: ID!, $path: String!) {
        space(id: $spaceId) { byId: page(id: $id) { ...fields } byPath: page(path: $path) { ...fields } }
        changeRequest: node(id: $changeRequestId) { ... on ChangeRequest { content { page(path: $path) { ...fields } } } }
      }
      fragment fields on Page { id type title path description emoji hidden createdAt updatedAt markdown pages { id title path } }`;
    for (const { id, path: pagePath } of flat) {
      const rest = await t.call('GET', `/v1/spaces/${gettingStarted}/content/page/${id}`, { token: alice });
      const restByPath = await t.call('GET', `/v1/spaces/${gettingStarted}/content/path/${pagePath}`, { token: alice });
      const restInChangeRequest = await t.call('GET', `/v1/spaces/${gettingStarted}/change-requests/${changeRequest.id}/content/page/${id}`, { token: alice });
      expect([rest.statusCode, restByPath.statusCode, restInChangeRequest.statusCode]).toEqual([200, 200, 200]);
      expect(restByPath.json()).toEqual(rest.json());
      const page = rest.json();
      const data = expectData(await t.graphql(alice, QUERY, { spaceId: gettingStarted, changeRequestId: changeRequest.id, id, path: pagePath }));
      const expected = {
        id: page.id,
        type: page.type,
        title: page.title,
        path: page.path,
        description: page.description ?? null,
        emoji: page.emoji ?? null,
        hidden: page.hidden,
        createdAt: page.createdAt,
        updatedAt: page.updatedAt,
        markdown: page.markdown,
        pages: page.pages.map((child: any) => ({ id: child.id, title: child.title, path: child.path })),
      };
      expect(data.space.byId).toEqual(expected);
      expect(data.space.byPath).toEqual(expected);
      expect(data.changeRequest.content.page).toEqual(expected);
      // Nested pages carry their bodies too (the official RevisionPage requires one).
      for (const child of page.pages) expect(typeof child.markdown).toBe('string');
    }
  });

  it('follows the permissions of the space: an outsider gets 404, and a revision is a Node seen by whoever sees its space', async () => {
    const outsider = await buildUser(t.database, 'outsider');
    const hidden = await t.graphql(outsider.token, 'query($id: ID!) { space(id: $id) { page(path: "overview") { id } } }', { id: gettingStarted });
    expectGraphQLError(hidden, 404);
    const rest = await t.call('GET', `/v1/spaces/${gettingStarted}/content/path/overview`, { token: outsider.token });
    expect(rest.statusCode).toBe(404);

    const space = await t.database.db.space.findUniqueOrThrow({ where: { id: gettingStarted } });
    const NODE = 'query($id: ID!) { node(id: $id) { __typename id ... on Revision { page(path: "concepts/spaces") { title ancestors { title } } } } }';
    expect(expectData(await t.graphql(alice, NODE, { id: space.revisionId })).node).toEqual({
      __typename: 'Revision',
      id: space.revisionId,
      page: { title: 'Spaces', ancestors: [{ title: 'Concepts' }] },
    });
    expectGraphQLError(await t.graphql(outsider.token, NODE, { id: space.revisionId }), 404, `Revision "${space.revisionId}" was not found`);
  });

  it('finds pages on a published site space, as its audience reads it', async () => {
    const outsider = await buildUser(t.database, 'reader');
    const portal = await t.database.db.site.findFirstOrThrow({ where: { title: 'Acme Developer Portal' } });
    const QUERY = `
      query($siteId: ID!) {
        publishedSite(siteId: $siteId) {
          structure { structure { ... on SiteSection { title siteSpaces { path page(path: "concepts/change-requests") { title previous { title } next { title } } } } } }
        }
      }`;
    const data = expectData(await t.graphql(outsider.token, QUERY, { siteId: portal.id }));
    const guides = data.publishedSite.structure.structure.find((entry: any) => entry.title === 'Guides');
    expect(guides.siteSpaces[0].page).toEqual({ title: 'Change requests', previous: { title: 'Spaces' }, next: null });
  });
});

describe('previous and next', () => {
  it('skip hidden pages and the pages under them', async () => {
    const team = await buildTeam(t.database);
    const created = await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Hidden' } });
    const space = created.json();
    const opened = await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: team.admin.token, body: {} });
    const changeRequest = opened.json();
    const edit = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content?compat=false`, {
      token: team.admin.token,
      body: {
        changes: [
          { operation: 'insert_page', title: 'One', document: { markdown: 'one' } },
          { operation: 'insert_page', title: 'Secret', hidden: true, document: { markdown: 'secret' }, ref: 'secret' },
          { operation: 'insert_page', title: 'Two', document: { markdown: 'two' } },
        ],
      },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const secret = edit.json().changes.find((change: any) => change.ref === 'secret').page.id;
    const nested = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content?compat=false`, {
      token: team.admin.token,
      body: { changes: [{ operation: 'insert_page', title: 'Under secret', into: secret, document: { markdown: 'under' } }] },
    });
    expect(nested.statusCode, nested.body).toBe(200);
    const QUERY = `
      query($changeRequestId: ID!) {
        changeRequest: node(id: $changeRequestId) {
          ... on ChangeRequest {
            content {
            one: page(path: "one") { next { title } }
            two: page(path: "two") { previous { title } }
            secret: page(path: "secret") { previous { title } next { title } }
            under: page(path: "secret/under-secret") { ancestors { title } previous { title } next { title } }
            }
          }
        }
      }`;
    const { content } = expectData(await t.graphql(team.admin.token, QUERY, { changeRequestId: changeRequest.id })).changeRequest;
    expect(content).toEqual({
      one: { next: { title: 'Two' } },
      two: { previous: { title: 'One' } },
      // A hidden page is still read by its address, with the pages around it.
      secret: { previous: { title: 'One' }, next: { title: 'Two' } },
      under: { ancestors: [{ title: 'Secret' }], previous: { title: 'One' }, next: { title: 'Two' } },
    });
  });
});

describe('a visitor of a published site', () => {
  it('is kept from the site spaces its conditions hide through the section and group of what it is shown, and from such pages in SiteSpace.page and its space', async () => {
    const visitor = await buildUser(t.database, 'visitor');
    const portal = await t.database.db.site.findFirstOrThrow({ where: { title: 'Acme Developer Portal' } });
    // A page for beta testers in the guides, between Overview and Quickstart, with a page under it.
    const space = await t.database.db.space.findFirstOrThrow({ where: { title: 'Getting started' } });
    const opened = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: alice, body: {} })).json();
    const edit = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${opened.id}/content?compat=false`, {
      token: alice,
      body: {
        changes: [
          {
            operation: 'insert_page',
            title: 'Beta',
            condition: 'visitor.claims.betaTester',
            at: 1,
            ref: 'beta',
            document: { markdown: 'See [the beta site](https://beta.example.test).' },
          },
        ],
      },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const beta = edit.json().changes.find((change: any) => change.ref === 'beta').page.id;
    const nested = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${opened.id}/content?compat=false`, {
      token: alice,
      body: { changes: [{ operation: 'insert_page', title: 'Under beta', into: beta, document: { markdown: 'u' } }] },
    });
    expect(nested.statusCode, nested.body).toBe(200);
    expect((await t.call('POST', `/v1/spaces/${space.id}/change-requests/${opened.id}/merge`, { token: alice })).statusCode).toBe(200);

    const QUERY = `
      query($siteId: ID!, $visitorToken: String) {
        publishedSite(siteId: $siteId, visitorToken: $visitorToken) {
          structure { structure {
            ... on SiteSection {
              title
              siteSpaces {
                path
                beta: page(path: "beta") { title pages { title } }
                under: page(path: "beta/under-beta") { title }
                overview: page(path: "overview") { next { title } pages { title } }
                section { siteSpaces { path } }
                space { page(path: "beta") { title } content { pages { title } beta: page(path: "beta/under-beta") { title } } links { pageIds } }
              }
            }
            ... on SiteSectionGroup { sections { title sectionGroup { sections { title } } } }
          } }
        }
      }`;
    const guidesOf = (data: any) => data.publishedSite.structure.structure.find((entry: any) => entry.title === 'Guides');
    const sign = (claims: Record<string, unknown>) => signVisitorToken(portal.visitorAuthSecret, claims);

    // A free-plan visitor: no beta page (by path, nor as a neighbour), no troubleshooting site space, no GraphQL section —
    // neither in its tree nor through the section or group of what it is shown.
    const free = expectData(await t.graphql(visitor.token, QUERY, { siteId: portal.id, visitorToken: await sign({ plan: 'free' }) }));
    const guides = guidesOf(free);
    expect(guides.siteSpaces.map((siteSpace: any) => siteSpace.path)).toEqual(['getting-started', 'installation']);
    expect(guides.siteSpaces[0]).toMatchObject({ beta: null, under: null, overview: { next: { title: 'Quickstart' } } });
    // Nor through the space the site space shows.
    expect(guides.siteSpaces[0].space.page).toBeNull();
    expect(guides.siteSpaces[0].space.content.beta).toBeNull();
    expect(guides.siteSpaces[0].space.content.pages.map((page: any) => page.title)).not.toContain('Beta');
    expect(guides.siteSpaces[0].space.links.flatMap((link: any) => link.pageIds)).not.toContain(beta);
    expect(guides.siteSpaces[0].section.siteSpaces.map((siteSpace: any) => siteSpace.path)).toEqual(['getting-started', 'installation']);
    const group = free.publishedSite.structure.structure.find((entry: any) => entry.sections);
    expect(group.sections.map((section: any) => section.title)).toEqual(['REST API']);
    expect(group.sections[0].sectionGroup.sections.map((section: any) => section.title)).toEqual(['REST API']);

    // A beta tester on the pro plan reads them all.
    const pro = expectData(await t.graphql(visitor.token, QUERY, { siteId: portal.id, visitorToken: await sign({ plan: 'pro', betaTester: true }) }));
    expect(guidesOf(pro).siteSpaces.map((siteSpace: any) => siteSpace.path)).toEqual(['getting-started', 'installation', 'troubleshooting']);
    expect(guidesOf(pro).siteSpaces[0]).toMatchObject({
      beta: { title: 'Beta', pages: [{ title: 'Under beta' }] },
      under: { title: 'Under beta' },
      overview: { next: { title: 'Beta' } },
    });
    // A member previewing with a free-plan visitor token sees what that visitor sees, by id too.
    const preview = guidesOf(expectData(await t.graphql(alice, QUERY, { siteId: portal.id, visitorToken: await sign({ plan: 'free' }) })));
    expect(preview.siteSpaces[0]).toMatchObject({ beta: null, overview: { next: { title: 'Quickstart' } } });
    expect(preview.siteSpaces[0].section.siteSpaces.map((siteSpace: any) => siteSpace.path)).toEqual(['getting-started', 'installation']);
    expect(guidesOf(pro).siteSpaces[0].space.page).toEqual({ title: 'Beta' });
    expect(guidesOf(pro).siteSpaces[0].space.content.pages.map((page: any) => page.title)).toContain('Beta');
    expect(guidesOf(pro).siteSpaces[0].space.links.flatMap((link: any) => link.pageIds)).toContain(beta);
    // Members too, without a token.
    expect(guidesOf(expectData(await t.graphql(alice, QUERY, { siteId: portal.id }))).siteSpaces[0].beta).toEqual({
      title: 'Beta',
      pages: [{ title: 'Under beta' }],
    });

    // A deleted space's content is not read through its site space any more.
    const installation = await t.database.db.space.findFirstOrThrow({ where: { title: 'Installation' } });
    expect((await t.call('DELETE', `/v1/spaces/${installation.id}`, { token: alice })).statusCode).toBe(205);
    try {
      const data = expectData(await t.graphql(alice, QUERY, { siteId: portal.id }));
      expect(guidesOf(data).siteSpaces.find((siteSpace: any) => siteSpace.path === 'installation').overview).toBeNull();
    } finally {
      expect((await t.call('POST', `/v1/spaces/${installation.id}/restore`, { token: alice })).statusCode).toBe(200);
    }
  });
});

describe('a visitor and the history of what it reads', () => {
  it('reads the published content, its documents included, but not what its revisions changed nor a revision by id', async () => {
    const visitor = await buildUser(t.database, 'visitor');
    const portal = await t.database.db.site.findFirstOrThrow({ where: { title: 'Acme Developer Portal' } });
    const visitorToken = await signVisitorToken(portal.visitorAuthSecret, { plan: 'pro', betaTester: true });
    const query = (selection: string) => `
      query($siteId: ID!, $visitorToken: String) {
        publishedSite(siteId: $siteId, visitorToken: $visitorToken) {
          structure { structure { ... on SiteSection { title siteSpaces { path space { id content { ${selection} } } } } } }
        }
      }`;
    const variables = { siteId: portal.id, visitorToken };
    const read = expectData(await t.graphql(visitor.token, query('id parents page(path: "overview") { document(evaluated: all) }'), variables));
    const siteSpace = read.publishedSite.structure.structure
      .find((entry: any) => entry.title === 'Guides')
      .siteSpaces.find((each: any) => each.path === 'getting-started');
    const { content } = siteSpace.space;
    expect(content.page.document.nodes.length).toBeGreaterThan(0);
    // What its revisions changed is read by those who see the space itself.
    const changes = await t.graphql(visitor.token, query('changes { totalCount }'), variables);
    expect(new Set(changes.errors!.map((error: any) => `${error.extensions.code} ${error.path.at(-1)}`))).toEqual(new Set(['404 changes']));
    // Nor a revision by id: the current one or its parent.
    for (const id of [content.id, content.parents[0]]) {
      const byId = await t.graphql(visitor.token, 'query($s: ID!, $id: ID!) { revision(spaceId: $s, id: $id) { id } }', { s: siteSpace.space.id, id });
      expectGraphQLError(byId, 404);
      expectGraphQLError(await t.graphql(visitor.token, 'query($id: ID!) { node(id: $id) { id } }', { id }), 404);
    }
  });
});

describe('with a page-tree cache that holds one tree', () => {
  it('answers pages of two revisions asked together, though keeping one evicts the other', async () => {
    const { createTestApp } = await import('../support/app.ts');
    // Room for one tree of an empty revision (256 bytes by its estimate), not two; no response cache.
    const small = await createTestApp({ pageTreeCacheBytes: 300, responseCacheBytes: 0 });
    const team = await buildTeam(small.database);
    const spaceIds: string[] = [];
    for (const title of ['First', 'Second']) {
      const created = await small.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title } });
      expect(created.statusCode, created.body).toBe(201);
      spaceIds.push(created.json().id);
    }
    const query = (ids: string[]) => `query { ${ids.map((id, i) => `s${i}: space(id: "${id}") { id page(path: "nowhere") { id } }`).join(' ')} }`;
    // The first revision's tree is kept; then both are asked in one batch: reading the second evicts the first.
    expectData(await small.graphql(team.admin.token, query([spaceIds[0]!])));
    const both = expectData(await small.graphql(team.admin.token, query(spaceIds)));
    expect(both).toEqual({ s0: { id: spaceIds[0], page: null }, s1: { id: spaceIds[1], page: null } });
  });
});
