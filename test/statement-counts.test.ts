import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.ts';
import { buildTeam } from './support/factories.ts';
import { untilGenerationsHeard } from './support/generations.ts';
import { buildSiteWorld, shareKeyOf } from './support/sites.ts';

// What single-object reads cost the database (the benchmark's S1 and S2): the
// object in one statement; the viewer behind a token (user, memberships, data
// generations) is read once, then kept (src/domain/users/viewer-cache.ts). The
// whole-tree bounds are in test/graphql/site-tree.test.ts.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await untilGenerationsHeard(t.database);
});

async function counted<T>(work: () => Promise<T>): Promise<{ statements: number; result: T }> {
  // This instance's own writes are heard back first (PostgreSQL), not counted below.
  await t.database.generations.barrier();
  const before = t.statements();
  const result = await work();
  return { statements: t.statements() - before, result };
}

describe('a single space', () => {
  it('costs one SQL statement over REST and over GraphQL once the token is known, none when the response cache answers', async () => {
    const team = await buildTeam(t.database);
    const reader = await team.member('read');
    const created = await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Counted' } });
    const spaceId = created.json().id;
    // The first request of a token reads its viewer: one statement, then none (once this
    // instance's own writes above are heard back, src/db/generation-feed.ts).
    await t.database.generations.barrier();
    const first = await counted(() => t.call('GET', '/v1/user', { token: reader.token }));
    expect([first.result.statusCode, first.statements]).toEqual([200, 1]);
    for (const user of [team.admin, reader]) {
      expect((await counted(() => t.call('GET', '/v1/user', { token: user.token }))).statements).toBe(0);
      const rest = await counted(() => t.call('GET', `/v1/spaces/${spaceId}`, { token: user.token }));
      expect(rest.result.statusCode).toBe(200);
      expect(rest.statements).toBe(1);
      const graphql = await counted(() => t.graphql(user.token, 'query($id: ID!) { space(id: $id) { id title permissions { edit } } }', { id: spaceId }));
      expect(graphql.result.data.space.id).toBe(spaceId);
      expect(graphql.statements).toBe(1);
      const again = await counted(() => t.call('GET', `/v1/spaces/${spaceId}`, { token: user.token }));
      expect(again.result.headers['x-cache']).toBe('hit');
      expect(again.statements).toBe(0);
    }
  });
});

describe('a listing of spaces', () => {
  it('costs one SQL statement per page over REST, a deep page as much as the first, with the same items as the paging of GraphQL', async () => {
    const team = await buildTeam(t.database);
    for (let i = 0; i < 5; i++) {
      const created = await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: `Listed ${i}` } });
      expect(created.statusCode).toBe(201);
    }
    await t.database.generations.barrier();
    await t.call('GET', '/v1/user', { token: team.admin.token });
    const url = (page?: string) => `/v1/orgs/${team.organization.id}/spaces?limit=2${page ? `&page=${page}` : ''}`;
    const seen: string[] = [];
    let page: string | undefined;
    do {
      const response = await counted(() => t.call('GET', url(page), { token: team.admin.token }));
      expect([response.result.statusCode, response.statements]).toEqual([200, 1]);
      const body = response.result.json();
      expect(body.count).toBe(5);
      seen.push(...body.items.map((space: { id: string }) => space.id));
      page = body.next?.page;
    } while (page);
    const all = await t.graphql(team.admin.token, 'query($id: ID!) { organization(id: $id) { spaces(first: 10) { edges { node { id } } } } }', {
      id: team.organization.id,
    });
    expect(seen).toEqual(all.data.organization.spaces.edges.map((edge: { node: { id: string } }) => edge.node.id));
  });
});

describe('a page document', () => {
  const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
  const DOCUMENT_QUERY = `query($spaceId: ID!, $revisionId: ID!, $pageId: ID!) {
    revision(spaceId: $spaceId, id: $revisionId) { id type page(id: $pageId) { id title path document } } }`;

  it('costs one SQL statement by revision and page id over REST and GraphQL, relative references resolved in the same statement', async () => {
    const team = await buildTeam(t.database);
    const token = team.admin.token;
    const rest = async (method: string, url: string, body?: unknown) => {
      const response = await t.call(method, url, { token, ...(body === undefined ? {} : { body }) });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
      return response.json();
    };
    const space = await rest('POST', `/v1/orgs/${team.organization.id}/spaces`, { title: 'Documents' });
    const changeRequest = await rest('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Pages' });
    const written = await rest('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content?compat=false`, {
      changes: [
        { operation: 'insert_page', title: 'Target', slug: 'target', document: { markdown: '# Target\n\nThe target.\n' } },
        {
          operation: 'insert_page',
          title: 'Guide',
          slug: 'guide',
          document: { markdown: 'See [the target](target.md).\n\n![A diagram](.gitbook/assets/diagram.png)\n' },
        },
        { operation: 'insert_files', files: [{ name: 'diagram.png', contentType: 'image/png', base64: PNG }] },
      ],
    });
    const [targetId, guideId] = written.changes.map((change: { page: { id: string } }) => change.page.id);
    const fileId = written.insertedFiles[0].id;
    const revisionId = written.changeRequest.revision;
    await t.database.generations.barrier();
    await t.call('GET', '/v1/user', { token });
    const url = (pageId: string, query = '') => `/v1/spaces/${space.id}/revisions/${revisionId}/page/${pageId}/document${query}`;

    // The first read of the revision reads its page tree in the same statement; later ones use the kept tree.
    const target = await counted(() => t.call('GET', url(targetId), { token }));
    expect([target.result.statusCode, target.statements]).toEqual([200, 1]);
    expect(target.result.json().nodes[0].type).toBe('heading-1');
    const evaluated = await counted(() => t.call('GET', url(targetId, '?evaluated=true'), { token }));
    expect([evaluated.result.statusCode, evaluated.statements]).toEqual([200, 1]);
    expect(evaluated.result.json().nodes[0].meta.id).toBe('target');

    const guide = await counted(() => t.call('GET', url(guideId), { token }));
    expect([guide.result.statusCode, guide.statements]).toEqual([200, 1]);
    const refs = JSON.stringify(guide.result.json());
    expect(refs).toContain(JSON.stringify({ kind: 'page', page: targetId }));
    expect(refs).toContain(JSON.stringify({ kind: 'file', file: fileId }));

    const graphql = await counted(() => t.graphql(token, DOCUMENT_QUERY, { spaceId: space.id, revisionId, pageId: guideId }));
    expect(graphql.result.errors).toBeUndefined();
    expect(graphql.result.data.revision.page).toMatchObject({ id: guideId, title: 'Guide', path: 'guide' });
    expect(graphql.result.data.revision.page.document).toEqual(guide.result.json());
    expect(graphql.statements).toBe(1);

    // A body whose structure was not kept (stored before structures were) is parsed and kept by its first read.
    await t.database.db.documentStructure.deleteMany({ where: { document: { contains: 'The target.' } } });
    const reparsed = await counted(() => t.call('GET', url(targetId, '?dereferenced=false'), { token }));
    expect(reparsed.result.statusCode).toBe(200);
    expect(reparsed.result.json()).toEqual(target.result.json());
    expect(reparsed.statements).toBeGreaterThan(1);
    const kept = await counted(() => t.call('GET', url(targetId, '?dereferenced=true'), { token }));
    expect([kept.result.statusCode, kept.statements]).toEqual([200, 1]);
    expect(kept.result.json()).toEqual(target.result.json());

    // The current content's page with its body, once the change request is merged: one statement too.
    await rest('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`, {});
    await t.database.generations.barrier();
    await t.call('GET', '/v1/user', { token });
    for (const pageId of [targetId, guideId]) {
      const read = () => counted(() => t.call('GET', `/v1/spaces/${space.id}/content/page/${pageId}?format=document`, { token }));
      // Once more when the first paid for news of the merge arriving late (PostgreSQL's NOTIFY under load): the steady cost is one.
      let current = await read();
      if (current.statements > 1) current = await read();
      expect([current.result.statusCode, current.statements]).toEqual([200, 1]);
      expect(current.result.json().document).toEqual(pageId === guideId ? guide.result.json() : target.result.json());
    }

    // What the viewer may not see, or what is not there, answers as before.
    const outsider = await buildTeam(t.database);
    const hidden = await t.call('GET', url(targetId), { token: outsider.admin.token });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().error.message).toContain(space.id);
    const otherSpace = await rest('POST', `/v1/orgs/${team.organization.id}/spaces`, { title: 'Other' });
    const wrongRevision = await t.call('GET', `/v1/spaces/${otherSpace.id}/revisions/${revisionId}/page/${targetId}/document`, { token });
    expect(wrongRevision.statusCode).toBe(404);
    expect(wrongRevision.json().error.message).toContain(revisionId);
    const noPage = await t.call('GET', url('pg_missing'), { token });
    expect(noPage.statusCode).toBe(404);
    expect(noPage.json().error.message).toContain('pg_missing');
  });
});

describe('a published URL lookup', () => {
  it('costs one SQL statement for a URL and for each of its shorter prefixes, redirects and a new revision included', async () => {
    const w = await buildSiteWorld(t);
    const guides = await w.space('Guides');
    const reference = await w.space('Reference');
    const publishPages = async (spaceId: string, changes: unknown[]) => {
      const changeRequest = await w.rest('POST', `/v1/spaces/${spaceId}/change-requests`, {}, 201);
      await w.rest('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/content?compat=false`, { changes });
      await w.rest('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/merge`);
    };
    await publishPages(guides.id, [{ operation: 'insert_page', title: 'Install', document: { markdown: 'Run it.\n' } }]);
    await publishPages(reference.id, [{ operation: 'insert_page', title: 'Endpoints', document: { markdown: 'All.\n' } }]);
    const site = await w.site({ title: 'Counted site' });
    const guidesSection = await w.section(site.id, guides.id, 'Guides');
    const referenceSection = await w.section(site.id, reference.id, 'Reference');
    await w.rest('POST', w.url(site.id, '/redirects'), { source: '/old-install', destination: { kind: 'path', spaceId: guides.id, path: 'install' } }, 201);
    await w.publish(site.id);
    const published = (await w.rest('GET', w.url(site.id))).urls.published as string;
    const siteSpacePath = (await w.rest('GET', w.url(site.id, '/site-spaces'))).items.find((entry: { space: { id: string } }) => entry.space.id === guides.id)
      .path as string;
    const lookUp = (url: string, extra: Record<string, unknown> = {}) =>
      counted(async () => {
        const response = await t.call('POST', '/v1/urls/published', { body: { url, ...extra } });
        expect(response.statusCode, response.body).toBe(200);
        return response.json();
      });

    // A renderer asks for the page's URL, then for each shorter prefix: one statement each.
    const page = `${published}/${guidesSection.path}/${siteSpacePath}/install`;
    for (const url of [page, `${published}/${guidesSection.path}/${siteSpacePath}`, `${published}/${guidesSection.path}`, published]) {
      const { statements, result } = await lookUp(url);
      expect(result.site).toBe(site.id);
      expect([url, statements]).toEqual([url, 1]);
    }
    expect((await lookUp(page)).result).toMatchObject({ space: guides.id, pathname: 'install' });
    // A source of the site's redirects: the redirect, in the same statement.
    const moved = await lookUp(`${published}/old-install`);
    expect([moved.result, moved.statements]).toEqual([{ target: 'content', redirect: `${published}/${guidesSection.path}/${siteSpacePath}/install` }, 1]);
    // redirectOnError: the closest page above a missing one.
    const missing = await lookUp(`${page}/missing`, { redirectOnError: true });
    expect([missing.result, missing.statements]).toEqual([{ target: 'content', redirect: page }, 1]);
    // Another section's page: its site space's tree comes in the same statement.
    const endpoints = await lookUp(`${published}/${referenceSection.path}/${referenceSection.siteSpaces[0].path}/endpoints`);
    expect([endpoints.result.space, endpoints.result.pathname, endpoints.statements]).toEqual([reference.id, 'endpoints', 1]);
    // A merge gives the space a new revision: its tree comes in the same statement.
    await publishPages(guides.id, [{ operation: 'insert_page', title: 'Upgrade', document: { markdown: 'Upgrade it.\n' } }]);
    // (Once more when the first paid for news of the merge arriving late, as for the page read above: the steady cost is one.)
    let upgraded = await lookUp(`${published}/${guidesSection.path}/${siteSpacePath}/upgrade`);
    if (upgraded.statements > 1) upgraded = await lookUp(`${published}/${guidesSection.path}/${siteSpacePath}/upgrade`);
    expect([upgraded.result.pathname, upgraded.statements]).toEqual(['upgrade', 1]);
  });
});

describe("a site's structure", () => {
  it('costs one SQL statement for a member and for a visitor, with sections, groups, site spaces and their spaces', async () => {
    const w = await buildSiteWorld(t);
    const guides = await w.space('Guides');
    const reference = await w.space('Reference');
    const site = await w.site({ title: 'Structured site' });
    const guidesSection = await w.section(site.id, guides.id, 'Guides');
    const referenceSection = await w.section(site.id, reference.id, 'Reference');
    await w.group(site.id, 'Grouped', [referenceSection.id]);
    await w.publish(site.id);
    const reader = await w.member('read');
    const structure = (token: string, query = '') =>
      counted(async () => {
        const response = await t.call('GET', w.url(site.id, `/structure${query}`), { token });
        expect(response.statusCode, response.body).toBe(200);
        return response.json();
      });
    await t.database.generations.barrier();
    for (const token of [w.token, reader.token]) {
      await t.call('GET', '/v1/user', { token });
      const { statements, result } = await structure(token);
      expect(result.type).toBe('sections');
      expect(result.structure.map((entry: { id: string }) => entry.id)).toContain(guidesSection.id);
      expect(JSON.stringify(result)).toContain(reference.id);
      expect(statements).toBe(1);
    }
    // A visitor with a share key: the key is checked against those read in the same statement.
    await w.patchSite(site.id, { visibility: 'share-link' });
    await w.publish(site.id);
    const key = shareKeyOf(await w.shareLink(site.id));
    const stranger = await w.stranger();
    await t.database.generations.barrier();
    await t.call('GET', '/v1/user', { token: stranger.token });
    const visitor = await structure(stranger.token, `?shareKey=${key}`);
    expect(visitor.result.structure.map((entry: { id: string }) => entry.id)).toContain(guidesSection.id);
    expect(visitor.statements).toBe(1);
  });
});

describe("a site's search", () => {
  it('costs one SQL statement for a member, whichever the scope and the page, the page trees of the hits included', async () => {
    const w = await buildSiteWorld(t);
    const publishPages = async (spaceId: string, changes: unknown[]) => {
      const changeRequest = await w.rest('POST', `/v1/spaces/${spaceId}/change-requests`, {}, 201);
      await w.rest('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/content?compat=false`, { changes });
      await w.rest('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/merge`);
    };
    const guides = await w.space('Guides');
    const reference = await w.space('Reference');
    await publishPages(guides.id, [
      { operation: 'insert_page', title: 'Install', document: { markdown: '# Install\n\n## Widgets\n\nInstall the widgets.\n' } },
    ]);
    await publishPages(reference.id, [{ operation: 'insert_page', title: 'Endpoints', document: { markdown: 'Widgets answer here.\n' } }]);
    const site = await w.site({ title: 'Searched site' });
    const guidesSection = await w.section(site.id, guides.id, 'Guides');
    await w.section(site.id, reference.id, 'Reference');
    const reader = await w.member('read');
    await t.database.generations.barrier();
    const search = (token: string, body: unknown, query = '') =>
      counted(async () => {
        const response = await t.call('POST', w.url(site.id, `/search${query}`), { token, body });
        expect(response.statusCode, response.body).toBe(200);
        return response.json();
      });
    for (const token of [w.token, reader.token]) {
      await t.call('GET', '/v1/user', { token });
      const all = await search(token, { query: 'widgets', scope: { mode: 'all' } });
      expect(all.result.items.map((item: { id: string }) => item.id).sort()).toEqual([guides.id, reference.id].sort());
      expect(all.statements).toBe(1);
      const first = await search(token, { query: 'widgets', scope: { mode: 'all' } }, '?limit=1');
      expect([first.result.items.length, first.statements]).toEqual([1, 1]);
      const second = await search(token, { query: 'widgets', scope: { mode: 'all' } }, `?limit=1&page=${first.result.next.page}`);
      expect([second.result.items[0].id, second.statements]).toEqual([all.result.items[1].id, 1]);
      const specific = await search(token, { query: 'widgets', mode: 'specific', siteSpaceIds: [guidesSection.siteSpaces[0].id] });
      expect(specific.result.items.map((item: { id: string }) => item.id)).toEqual([guides.id]);
      expect(specific.result.items[0].pages[0]).toMatchObject({ title: 'Install', sections: [expect.objectContaining({ title: 'Widgets' })] });
      expect(specific.statements).toBe(1);
    }
  });
});
