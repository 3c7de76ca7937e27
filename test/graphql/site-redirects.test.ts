import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../support/app.ts';
import { expectData, expectGraphQLError, mutate } from '../support/graphql.ts';
import { buildSiteWorld } from '../support/sites.ts';

/**
 * Site redirects over GraphQL: a site's `redirects` connection and the
 * create, update and delete mutations answer what REST answers (the same
 * service), refuse what REST refuses, and write what the database then holds.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const FIELDS = 'object id source destination draft captureWildcard permanent createdAt updatedAt';
const LIST = `query($id: ID!, $orderBy: SiteRedirectOrder, $draft: Boolean) {
  node(id: $id) { ... on Site { redirects(first: 10, orderBy: $orderBy, draft: $draft) { totalCount edges { node { ${FIELDS} } } } } } }`;

/** REST's answer as GraphQL has it: fields left out there are null here. */
const asGraph = (body: Record<string, unknown>) => ({ updatedAt: null, ...body });

describe('site redirects over GraphQL', () => {
  it('lists, creates, updates and deletes as REST does', async () => {
    const w = await buildSiteWorld(t);
    const space = await w.space('Guides');
    const site = await w.site({ title: 'Redirected', spaces: [space.id] });
    const siteSpace = (await w.rest('GET', w.url(site.id, '/site-spaces'))).items[0];
    const run = async (name: string, input: Record<string, unknown>, selection: string) => expectData(await mutate(t, w.token, name, input, selection))[name];

    const created = (
      await run(
        'createSiteRedirect',
        { siteId: site.id, source: '/old', destination: { kind: 'site-space', siteSpaceId: siteSpace.id } },
        `siteRedirect { ${FIELDS} }`,
      )
    ).siteRedirect;
    expect(created).toMatchObject({ object: 'site-redirect', source: '/old', draft: false, permanent: false, updatedAt: null });
    const rest = await w.rest('GET', w.url(site.id, '/redirects'));
    expect(rest.items).toEqual([expect.objectContaining({ id: created.id })]);
    expect(created).toEqual(asGraph(rest.items[0]));
    await w.rest('POST', w.url(site.id, '/redirects'), { source: '/draft', draft: true, destination: { kind: 'external', url: 'https://example.com/' } }, 201);

    const listed = expectData(await t.graphql(w.token, LIST, { id: site.id })).node.redirects;
    expect(listed.totalCount).toBe(1);
    expect(listed.edges.map((edge: { node: unknown }) => edge.node)).toEqual([created]);
    const drafts = expectData(await t.graphql(w.token, LIST, { id: site.id, draft: true })).node.redirects;
    expect(drafts.edges.map((edge: { node: { source: string } }) => edge.node.source)).toEqual(['/draft']);

    const updated = (
      await run('updateSiteRedirect', { siteId: site.id, siteRedirectId: created.id, permanent: true, source: '/older' }, `siteRedirect { ${FIELDS} }`)
    ).siteRedirect;
    expect(updated).toMatchObject({ id: created.id, source: '/older', permanent: true, updatedAt: expect.any(String) });
    expect(await t.database.db.siteRedirect.findUniqueOrThrow({ where: { id: created.id } })).toMatchObject({
      source: '/older',
      permanent: true,
      edited: true,
    });

    const deleted = await run('deleteSiteRedirect', { siteId: site.id, siteRedirectId: created.id }, 'deletedId');
    expect(deleted.deletedId).toBe(created.id);
    expect(await t.database.db.siteRedirect.findUnique({ where: { id: created.id } })).toBeNull();
    expectGraphQLError(await mutate(t, w.token, 'deleteSiteRedirect', { siteId: site.id, siteRedirectId: created.id }, 'deletedId'), 404);
  });

  it('refuses invalid input naming the field, and members who do not administer the site, writing nothing', async () => {
    const w = await buildSiteWorld(t);
    const space = await w.space('Guides');
    const site = await w.site({ title: 'Refusing', spaces: [space.id] });
    const badSource = await mutate(
      t,
      w.token,
      'createSiteRedirect',
      { siteId: site.id, source: 'no-slash', destination: { kind: 'external', url: 'https://example.com' } },
      'siteRedirect { id }',
    );
    expect(expectGraphQLError(badSource, 400).message).toMatch(/^source: /);
    const badDestination = await mutate(
      t,
      w.token,
      'createSiteRedirect',
      { siteId: site.id, source: '/x', destination: { kind: 'site-space', siteSpaceId: 'nope' } },
      'siteRedirect { id }',
    );
    expect(expectGraphQLError(badDestination, 400).message).toMatch(/^destination\.siteSpaceId: /);
    const editor = await w.member('edit');
    expectGraphQLError(
      await mutate(
        t,
        editor.token,
        'createSiteRedirect',
        { siteId: site.id, source: '/x', destination: { kind: 'external', url: 'https://example.com' } },
        'siteRedirect { id }',
      ),
      403,
    );
    expect(await t.database.db.siteRedirect.count({ where: { siteId: site.id } })).toBe(0);
  });
});
