import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { buildUser, unique } from '../support/factories.ts';
import { type Connection, SPACE_FIELDS, connectionOf, expectData, expectGraphQLError, expectUnauthenticated, nodeIds } from '../support/graphql.ts';
import { followBackward, followForward } from '../support/listings.ts';
import { GROUP_FIELDS, SECTION_FIELDS, SHARE_LINK_FIELDS, SITE_FIELDS, SITE_SPACE_FIELDS, buildSitesWorld } from '../support/site-tree.ts';

/**
 * Site queries: `site`, `node`/`nodes` of the four site types,
 * `Organization.sites` and `Space.sites`, the connections of a site, its
 * adaptive schema, and the relations of sections, groups and site spaces.
 * (publishedSite: site-published.test.ts; mutations: site-*mutation*.test.ts.)
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const APP = 'http://app.docs-gateway.test';
const API = 'http://docs-gateway.test';

const SITE = `query($id: ID!) { site(id: $id) { ${SITE_FIELDS} } }`;
const NODE = `query($id: ID!) { node(id: $id) { __typename id
  ... on Site { title }
  ... on SiteSection { title path }
  ... on SiteSectionGroup { title }
  ... on SiteSpace { path }
} }`;
const ORGANIZATION_SITES = `
  query($id: ID!, $first: Int, $after: String, $last: Int, $before: String, $published: Boolean, $title: String, $space: ID) {
    organization(id: $id) {
      sites(first: $first, after: $after, last: $last, before: $before, published: $published, title: $title, space: $space) {
        ${connectionOf('id title published')}
      }
    }
  }`;

/** Dates sites (or site spaces) in this order, a day apart, so that "oldest first" is this order. */
async function dateInOrder(model: 'site' | 'siteSpace', ids: string[]) {
  for (const [index, id] of ids.entries()) {
    await (t.database.db[model] as any).update({ where: { id }, data: { createdAt: new Date(Date.UTC(2024, 0, 1 + index)) } });
  }
}

describe('query site', () => {
  it('has every field of the site, as REST answers it, with the organization as an object and siteSpaces as a connection', async () => {
    const world = await buildSitesWorld(t);
    const { organizationId, admin, rest, url } = world;
    const { siteId } = await world.sectionedSite();
    const hostname = `docs-${unique()}.example.test`;
    await rest('PATCH', url(siteId), { hostname, basename: 'help', proxy: 'example.com/docs', adaptiveContent: { enabled: true }, visibility: 'visitor-auth' });
    await rest('POST', url(siteId, '/publish'));
    const row = (await t.database.db.site.findUnique({ where: { id: siteId } }))!;
    const data = expectData(await t.graphql(admin.token, SITE, { id: siteId }));
    expect(data.site).toEqual({
      id: siteId,
      object: 'site',
      type: 'basic',
      appliedType: 'basic',
      title: 'Docs',
      hostname,
      basename: 'help',
      proxy: { origin: 'example.com/docs', target: `https://${hostname}/help` },
      visibility: 'visitor_auth',
      defaultLevel: 'inherit',
      permissions: {
        view: true,
        access: true,
        edit: true,
        create: true,
        admin: true,
        installIntegration: true,
        viewAdaptiveSchema: true,
        editAdaptiveSchema: true,
      },
      published: true,
      createdAt: row.createdAt.toISOString(),
      adaptiveContent: { enabled: true },
      features: [],
      urls: {
        location: `${API}/v1/orgs/${organizationId}/sites/${siteId}`,
        app: `${APP}/o/${organizationId}/sites/${siteId}`,
        preview: `${APP}/o/${organizationId}/sites/${siteId}/preview`,
        published: `https://${hostname}/help`,
        llms: `${API}/v1/orgs/${organizationId}/sites/${siteId}/published/llms.txt`,
        mcp: `${API}/v1/orgs/${organizationId}/sites/${siteId}/published/mcp`,
      },
      organization: { id: organizationId },
      siteSpaces: { totalCount: 4 },
    });
    const organization = expectData(await t.graphql(admin.token, 'query($id: ID!) { site(id: $id) { organization { id title } } }', { id: siteId }));
    expect(organization.site.organization).toEqual({ id: organizationId, title: world.organization.title });
  });

  it("answers the viewer's permissions: members below admin view the site and configure nothing", async () => {
    const world = await buildSitesWorld(t);
    const site = await world.site({ title: 'Docs' });
    const query =
      'query($id: ID!) { site(id: $id) { permissions { view access edit create admin installIntegration viewAdaptiveSchema editAdaptiveSchema } } }';
    for (const [role, create] of [
      ['read', false],
      ['edit', false],
      ['create', true],
    ] as const) {
      const member = await world.member(role);
      expect(expectData(await t.graphql(member.token, query, { id: site.id })).site.permissions, role).toEqual({
        view: true,
        access: true,
        edit: false,
        create,
        admin: false,
        installIntegration: false,
        viewAdaptiveSchema: true,
        editAdaptiveSchema: false,
      });
    }
  });

  it('is a 404 naming the site for strangers, guests and unknown ids', async () => {
    const world = await buildSitesWorld(t);
    const site = await world.site({ title: 'Docs' });
    const answers = [];
    for (const [who, user] of [
      ['stranger', await buildUser(t.database, 'stranger')],
      ['guest', await world.member(null)],
    ] as const) {
      const result = await t.graphql(user.token, SITE, { id: site.id });
      expect(result.data).toEqual({ site: null });
      answers.push([who, result.errors?.map((error) => [error.extensions?.code, error.message])]);
    }
    // Nothing about the site, not even its organization, is told to who may not see it.
    expect(answers).toEqual([
      ['stranger', [[404, `Site "${site.id}" was not found`]]],
      ['guest', [[404, `Site "${site.id}" was not found`]]],
    ]);
    expectGraphQLError(await t.graphql(world.admin.token, SITE, { id: 'site_missing' }), 404, 'Site "site_missing" was not found');
  });

  it('is a 401 without a token', async () => {
    const world = await buildSitesWorld(t);
    const site = await world.site({ title: 'Docs' });
    await expectUnauthenticated(t, SITE, { id: site.id });
  });
});

describe('node and nodes', () => {
  it('load sites, sections, section groups and site spaces by id, as their own queries and listings answer them', async () => {
    const world = await buildSitesWorld(t);
    const { admin } = world;
    const { siteId, sectionIds, groupId, siteSpaceIds } = await world.sectionedSite();
    const expected = [
      { __typename: 'Site', id: siteId, title: 'Docs' },
      { __typename: 'SiteSection', id: sectionIds.a, title: 'Guide', path: 'guide' },
      { __typename: 'SiteSectionGroup', id: groupId, title: 'Reference group' },
      { __typename: 'SiteSpace', id: siteSpaceIds.extraInA, path: 'extra' },
    ];
    for (const node of expected) expect(expectData(await t.graphql(admin.token, NODE, { id: node.id })).node).toEqual(node);

    // Every field of a node equals the same object in the site's listings.
    const listed = expectData(
      await t.graphql(
        admin.token,
        `query($id: ID!) { site(id: $id) { ${SITE_FIELDS}
          sections { edges { node { ${SECTION_FIELDS} } } }
          sectionGroups { edges { node { ${GROUP_FIELDS} } } }
          allSiteSpaces: siteSpaces { edges { node { ${SITE_SPACE_FIELDS} } } } } }`,
        { id: siteId },
      ),
    ).site;
    const { sections, sectionGroups, allSiteSpaces, ...site } = listed;
    const fullNode = async (id: string, type: string, fields: string) =>
      expectData(await t.graphql(admin.token, `query($id: ID!) { node(id: $id) { ... on ${type} { ${fields} } } }`, { id })).node;
    expect(await fullNode(siteId, 'Site', SITE_FIELDS)).toEqual(site);
    expect(await fullNode(sectionIds.a, 'SiteSection', SECTION_FIELDS)).toEqual(sections.edges.find((edge: any) => edge.node.id === sectionIds.a).node);
    expect(await fullNode(groupId, 'SiteSectionGroup', GROUP_FIELDS)).toEqual(sectionGroups.edges[0].node);
    expect(await fullNode(siteSpaceIds.extraInA, 'SiteSpace', SITE_SPACE_FIELDS)).toEqual(
      allSiteSpaces.edges.find((edge: any) => edge.node.id === siteSpaceIds.extraInA).node,
    );

    const mixed = await t.graphql(admin.token, 'query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }', {
      ids: [siteSpaceIds.guideInA, 'site_missing', groupId, 'sec_missing', siteId],
    });
    expect(mixed.data.nodes).toEqual([
      { __typename: 'SiteSpace', id: siteSpaceIds.guideInA },
      null,
      { __typename: 'SiteSectionGroup', id: groupId },
      null,
      { __typename: 'Site', id: siteId },
    ]);
    expect(mixed.errors!.map((error) => [error.extensions?.code, error.message])).toEqual([
      [404, 'Site "site_missing" was not found'],
      [404, 'Site section "sec_missing" was not found'],
    ]);
  });

  it('are a 404 naming the requested object for strangers and guests, whatever its type', async () => {
    const world = await buildSitesWorld(t);
    const { siteId, sectionIds, groupId, siteSpaceIds } = await world.sectionedSite();
    const requested = [
      [siteId, `Site "${siteId}" was not found`],
      [sectionIds.b, `Site section "${sectionIds.b}" was not found`],
      [groupId, `Site section group "${groupId}" was not found`],
      [siteSpaceIds.apiInB, `Site space "${siteSpaceIds.apiInB}" was not found`],
    ] as const;
    const answers = [];
    const expected = [];
    for (const [who, user] of [
      ['stranger', await buildUser(t.database, 'stranger')],
      ['guest', await world.member(null)],
    ] as const) {
      for (const [id, message] of requested) {
        const result = await t.graphql(user.token, NODE, { id });
        expect(result.data).toEqual({ node: null });
        answers.push([who, id, result.errors?.map((error) => [error.extensions?.code, error.message])]);
        expected.push([who, id, [[404, message]]]);
      }
    }
    // Nothing about the object, not even the site or organization it is in, is told to who may not see it.
    expect(answers).toEqual(expected);
  });

  it('is a 401 without a token', async () => {
    const world = await buildSitesWorld(t);
    const { sectionIds } = await world.sectionedSite();
    await expectUnauthenticated(t, NODE, { id: sectionIds.a });
    await expectUnauthenticated(t, 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: [sectionIds.a] });
  });
});

describe('Organization.sites', () => {
  const list = async (token: string, id: string, args: Record<string, unknown> = {}): Promise<Connection> =>
    expectData(await t.graphql(token, ORGANIZATION_SITES, { id, ...args })).organization.sites;

  it('lists the sites oldest first, and pages with first/after and last/before', async () => {
    const world = await buildSitesWorld(t);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await world.site({ title: `Site ${i}` })).id);
    // Dates against the creation order: the listing follows createdAt, not ids.
    const order = [ids[3]!, ids[0]!, ids[4]!, ids[1]!, ids[2]!];
    await dateInOrder('site', order);
    const { admin, organizationId } = world;

    const all = await list(admin.token, organizationId);
    expect(nodeIds(all)).toEqual(order);
    expect(all.totalCount).toBe(5);

    const forward = await followForward((after) => list(admin.token, organizationId, { first: 2, after }));
    expect(forward.map(nodeIds)).toEqual([order.slice(0, 2), order.slice(2, 4), order.slice(4)]);
    expect(forward.map((page) => [page.pageInfo.hasPreviousPage, page.pageInfo.hasNextPage])).toEqual([
      [false, true],
      [true, true],
      [true, false],
    ]);
    expect(forward.map((page) => page.totalCount)).toEqual([5, 5, 5]);
    for (const page of forward) {
      expect(page.pageInfo.startCursor).toBe(page.edges[0]!.cursor);
      expect(page.pageInfo.endCursor).toBe(page.edges.at(-1)!.cursor);
    }
    const backward = await followBackward((before) => list(admin.token, organizationId, { last: 2, before }));
    expect(backward.map(nodeIds)).toEqual([order.slice(3), order.slice(1, 3), order.slice(0, 1)]);

    // Members below admin see the same listing.
    const reader = await world.member('read');
    expect(nodeIds(await list(reader.token, organizationId))).toEqual(order);
  });

  it('filters by published, by a case-insensitive part of the title, and by a space shown', async () => {
    const world = await buildSitesWorld(t);
    const { admin, organizationId, spaces, rest, url } = world;
    const handbook = await world.site({ title: 'Team Handbook', spaces: [spaces.guide.id] });
    const api = await world.site({ title: 'API reference', spaces: [spaces.api.id] });
    const sectioned = await world.sectionedSite('Product handbook');
    const empty = await world.site({ title: 'Empty 100%_done' });
    await dateInOrder('site', [handbook.id, api.id, sectioned.siteId, empty.id]);
    await rest('POST', url(handbook.id, '/publish'));
    await rest('POST', url(sectioned.siteId, '/publish'));

    const ids = async (filter: Record<string, unknown>) => {
      const page = await list(admin.token, organizationId, filter);
      expect(page.totalCount, JSON.stringify(filter)).toBe(page.edges.length);
      return nodeIds(page);
    };
    expect(await ids({ published: true })).toEqual([handbook.id, sectioned.siteId]);
    expect(await ids({ published: false })).toEqual([api.id, empty.id]);
    expect(await ids({ title: 'HANDBOOK' })).toEqual([handbook.id, sectioned.siteId]);
    expect(await ids({ title: '100%_' })).toEqual([empty.id]);
    expect(await ids({ title: 'nothing like it' })).toEqual([]);
    // The space filter looks into sections too, and lists a site once.
    expect(await ids({ space: spaces.extra.id })).toEqual([sectioned.siteId]);
    expect(await ids({ space: spaces.guide.id })).toEqual([handbook.id, sectioned.siteId]);
    expect(await ids({ space: spaces.api.id, published: false })).toEqual([api.id]);
    expect(await ids({ space: spaces.guide.id, title: 'team', published: true })).toEqual([handbook.id]);

    // Paging keeps the filter.
    const pages = await followForward((after) => list(admin.token, organizationId, { published: true, first: 1, after }));
    expect(pages.map(nodeIds)).toEqual([[handbook.id], [sectioned.siteId]]);
    expect(pages.map((page) => page.totalCount)).toEqual([2, 2]);
  });

  it('shows guests the sites granted to them, is a 404 for strangers, a 400 for bad arguments, a 401 without a token', async () => {
    const world = await buildSitesWorld(t);
    const { admin, organizationId } = world;
    await world.site({ title: 'Docs' });
    const guest = await world.member(null);
    // A guest lists the sites granted to it (none here), as over REST.
    expect(expectData(await t.graphql(guest.token, ORGANIZATION_SITES, { id: organizationId })).organization.sites.totalCount).toBe(0);
    const stranger = await buildUser(t.database, 'stranger');
    expectGraphQLError(await t.graphql(stranger.token, ORGANIZATION_SITES, { id: organizationId }), 404, `Organization "${organizationId}" was not found`);
    expectGraphQLError(await t.graphql(admin.token, ORGANIZATION_SITES, { id: organizationId, title: '' }), 400, /^title: /);
    expectGraphQLError(await t.graphql(admin.token, ORGANIZATION_SITES, { id: organizationId, first: 1001 }), 400, /^first: must be at most 1000/);
    expectGraphQLError(await t.graphql(admin.token, ORGANIZATION_SITES, { id: organizationId, after: 'not-a-token' }), 400, /^after: is not a page token/);
    await expectUnauthenticated(t, ORGANIZATION_SITES, { id: organizationId });
  });
});

describe('Space.sites', () => {
  const SPACE_SITES = `query($id: ID!, $first: Int, $after: String) { space(id: $id) { sites(first: $first, after: $after) { ${connectionOf('id title')} } } }`;

  it('lists the sites showing the space, at the root level or in any section, once each, oldest first', async () => {
    const world = await buildSitesWorld(t);
    const { admin, spaces } = world;
    const rooted = await world.site({ title: 'Rooted', spaces: [spaces.guide.id] });
    const sectioned = await world.sectionedSite('Sectioned');
    // Guide is in two sections of this one.
    const twice = await world.sectionedSite('Twice');
    await world.siteSpace(twice.siteId, spaces.guide.id, twice.sectionIds.c);
    await world.site({ title: 'Other', spaces: [spaces.api.id] });
    await dateInOrder('site', [twice.siteId, rooted.id, sectioned.siteId]);

    const all = expectData(await t.graphql(admin.token, SPACE_SITES, { id: spaces.guide.id })).space.sites;
    expect(nodeIds(all)).toEqual([twice.siteId, rooted.id, sectioned.siteId]);
    expect(all.totalCount).toBe(3);
    const pages = await followForward(
      async (after): Promise<Connection> => expectData(await t.graphql(admin.token, SPACE_SITES, { id: spaces.guide.id, first: 2, after })).space.sites,
    );
    expect(pages.map(nodeIds)).toEqual([[twice.siteId, rooted.id], [sectioned.siteId]]);
    expect(pages.map((page) => page.totalCount)).toEqual([3, 3]);

    const unused = await world.space('Unused');
    const none = expectData(await t.graphql(admin.token, SPACE_SITES, { id: unused.id })).space.sites;
    expect(none).toMatchObject({ totalCount: 0, edges: [] });

    const reader = await world.member('read');
    expect(nodeIds(expectData(await t.graphql(reader.token, SPACE_SITES, { id: spaces.guide.id })).space.sites)).toEqual([
      twice.siteId,
      rooted.id,
      sectioned.siteId,
    ]);
    await expectUnauthenticated(t, SPACE_SITES, { id: spaces.guide.id });
  });
});

describe('the connections of a site', () => {
  const SITE_CONNECTION = (field: string, args: string, declarations: string, fields: string) => `
    query($id: ID!, $first: Int, $after: String, $last: Int, $before: String${declarations}) {
      site(id: $id) { ${field}(first: $first, after: $after, last: $last, before: $before${args}) { ${connectionOf(fields)} } }
    }`;
  const connection = async (token: string, field: string, id: string, args: Record<string, unknown> = {}, fields = 'id', extra = ['', '']) =>
    expectData(await t.graphql(token, SITE_CONNECTION(field, extra[0]!, extra[1]!, fields), { id, ...args })).site[field] as Connection;

  it('sections: in site order (top-level entries, the sections of a group after each other), with their site spaces', async () => {
    const world = await buildSitesWorld(t);
    const { admin } = world;
    const { siteId, sectionIds, groupId, siteSpaceIds } = await world.sectionedSite();
    const more = await world.section(siteId, world.spaces.guide.id, 'More');
    await world.rest('POST', world.url(siteId, `/section-groups/${groupId}/sections`), { sectionId: more.id }, 201);
    const last = await world.section(siteId, world.spaces.api.id, 'Last');
    const order = [sectionIds.a, sectionIds.c, sectionIds.b, more.id, last.id];

    const all = await connection(admin.token, 'sections', siteId, {}, 'id title default sectionGroup { id title } siteSpaces { id }');
    expect(nodeIds(all)).toEqual(order);
    expect(all.totalCount).toBe(5);
    expect(all.edges.map((edge) => [edge.node.title, edge.node.default, edge.node.sectionGroup?.title ?? null])).toEqual([
      ['Guide', true, null],
      ['Beta', false, null],
      ['Reference', false, 'Reference group'],
      ['More', false, 'Reference group'],
      ['Last', false, null],
    ]);
    expect(all.edges[0]!.node.siteSpaces).toEqual([{ id: siteSpaceIds.guideInA }, { id: siteSpaceIds.extraInA }]);
    expect(all.edges[2]!.node.sectionGroup.id).toBe(groupId);

    const forward = await followForward((after) => connection(admin.token, 'sections', siteId, { first: 2, after }));
    expect(forward.map(nodeIds)).toEqual([order.slice(0, 2), order.slice(2, 4), order.slice(4)]);
    expect(forward.map((page) => page.totalCount)).toEqual([5, 5, 5]);
    const backward = await followBackward((before) => connection(admin.token, 'sections', siteId, { last: 2, before }));
    expect(backward.map(nodeIds)).toEqual([order.slice(3), order.slice(1, 3), order.slice(0, 1)]);
  });

  it('sectionGroups: in top-level order, each with its sections in order', async () => {
    const world = await buildSitesWorld(t);
    const { admin } = world;
    const { siteId, sectionIds, groupId } = await world.sectionedSite();
    const second = await world.group(siteId, 'Second group', [sectionIds.c, sectionIds.a]);
    await world.rest('POST', world.url(siteId, `/section-groups/${second.id}/move`), { position: { before: { type: 'site-section', id: groupId } } });
    const all = await connection(admin.token, 'sectionGroups', siteId, {}, 'id title icon draft sections { id title sectionGroup { id } }');
    expect(all.totalCount).toBe(2);
    expect(all.edges.map((edge) => edge.node)).toEqual([
      {
        id: second.id,
        title: 'Second group',
        icon: null,
        draft: false,
        sections: [
          { id: sectionIds.c, title: 'Beta', sectionGroup: { id: second.id } },
          { id: sectionIds.a, title: 'Guide', sectionGroup: { id: second.id } },
        ],
      },
      { id: groupId, title: 'Reference group', icon: null, draft: false, sections: [{ id: sectionIds.b, title: 'Reference', sectionGroup: { id: groupId } }] },
    ]);
    const pages = await followForward((after) => connection(admin.token, 'sectionGroups', siteId, { first: 1, after }));
    expect(pages.map(nodeIds)).toEqual([[second.id], [groupId]]);
  });

  it('siteSpaces: every site space oldest first, `default` keeps only (or leaves out) the defaults; totalCount is REST siteSpaces', async () => {
    const world = await buildSitesWorld(t);
    const { admin } = world;
    const { siteId, siteSpaceIds } = await world.sectionedSite();
    // guideInA* extraInA apiInB* extraInC*, dated in another order.
    const order = [siteSpaceIds.apiInB, siteSpaceIds.extraInA, siteSpaceIds.guideInA, siteSpaceIds.extraInC];
    await dateInOrder('siteSpace', order);
    const extra = ['$default: Boolean', ', default: $default'];
    const list = (args: Record<string, unknown>) => connection(admin.token, 'siteSpaces', siteId, args, 'id default', [extra[1]!, `, ${extra[0]!}`]);
    const all = await list({});
    expect(nodeIds(all)).toEqual(order);
    expect(all.totalCount).toBe(4);
    expect((await world.rest('GET', world.url(siteId))).siteSpaces).toBe(4);
    const defaults = await list({ default: true });
    expect(nodeIds(defaults)).toEqual([siteSpaceIds.apiInB, siteSpaceIds.guideInA, siteSpaceIds.extraInC]);
    expect(defaults.totalCount).toBe(3);
    const others = await list({ default: false });
    expect(nodeIds(others)).toEqual([siteSpaceIds.extraInA]);
    expect(others.totalCount).toBe(1);
    const pages = await followForward((after) => list({ first: 2, after, default: true }));
    expect(pages.map(nodeIds)).toEqual([[siteSpaceIds.apiInB, siteSpaceIds.guideInA], [siteSpaceIds.extraInC]]);
    expect(pages.map((page) => page.totalCount)).toEqual([3, 3]);
    const backward = await followBackward((before) => list({ last: 3, before }));
    expect(backward.map(nodeIds)).toEqual([order.slice(1), order.slice(0, 1)]);
  });

  it('shareLinks: oldest first, for admins; a 403 on the field for other members', async () => {
    const world = await buildSitesWorld(t);
    const { admin } = world;
    const { siteId, shareLinkId } = await world.sectionedSite();
    const second = await world.shareLink(siteId, 'Second');
    const third = await world.shareLink(siteId, 'Third');
    const all = await connection(admin.token, 'shareLinks', siteId, {}, SHARE_LINK_FIELDS);
    expect(nodeIds(all)).toEqual([shareLinkId, second.id, third.id]);
    expect(all.totalCount).toBe(3);
    expect(all.edges[1]!.node).toEqual(second);
    const pages = await followForward((after) => connection(admin.token, 'shareLinks', siteId, { first: 2, after }));
    expect(pages.map(nodeIds)).toEqual([[shareLinkId, second.id], [third.id]]);

    const reader = await world.member('read');
    const result = await t.graphql(reader.token, SITE_CONNECTION('shareLinks', '', '', 'id'), { id: siteId });
    const error = expectGraphQLError(result, 403, /^You are not allowed to /);
    expect((error as { path?: unknown }).path).toEqual(['site', 'shareLinks']);
  });

  it('are a 400 for a cursor of another listing', async () => {
    const world = await buildSitesWorld(t);
    const { siteId } = await world.sectionedSite();
    const sections = await connection(world.admin.token, 'sections', siteId, { first: 1 });
    const result = await t.graphql(world.admin.token, SITE_CONNECTION('siteSpaces', '', '', 'id'), { id: siteId, after: sections.pageInfo.endCursor });
    expectGraphQLError(result, 400, /^after: is not a page token returned by this listing/);
  });
});

describe('Site.adaptiveSchema', () => {
  const QUERY = 'query($id: ID!) { site(id: $id) { createdAt adaptiveSchema { object jsonSchema updatedAt } } }';

  it('is the empty draft-07 schema of a new site, then the one set; members below admin read it', async () => {
    const world = await buildSitesWorld(t);
    const site = await world.site({ title: 'Docs' });
    const fresh = expectData(await t.graphql(world.admin.token, QUERY, { id: site.id })).site;
    expect(fresh.adaptiveSchema).toEqual({
      object: 'site-adaptive-schema',
      jsonSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: {}, additionalProperties: false },
      updatedAt: fresh.createdAt,
    });
    const set = await world.setSchema(site.id, { plan: 'string' });
    const reader = await world.member('read');
    expect(expectData(await t.graphql(reader.token, QUERY, { id: site.id })).site.adaptiveSchema).toEqual(set);
    expect(set.jsonSchema.properties).toEqual({ plan: { type: 'string', description: 'The plan of the visitor' } });
  });
});

describe('relations of sections, groups and site spaces', () => {
  it('SiteSpace.space and section, SiteSection.siteSpaces and sectionGroup, SiteSectionGroup.sections resolve to the objects', async () => {
    const world = await buildSitesWorld(t);
    const { admin, spaces } = world;
    const { siteId, sectionIds, groupId, siteSpaceIds } = await world.sectionedSite();
    const query = `query($id: ID!) { node(id: $id) { ... on SiteSpace {
      space { ${SPACE_FIELDS} }
      section { id title path sectionGroup { id title sections { id title siteSpaces { id path space { title } section { id } } } } }
    } } }`;
    const data = expectData(await t.graphql(admin.token, query, { id: siteSpaceIds.apiInB })).node;
    const space = expectData(await t.graphql(admin.token, `query($id: ID!) { space(id: $id) { ${SPACE_FIELDS} } }`, { id: spaces.api.id })).space;
    expect(data.space).toEqual(space);
    expect(data.section).toEqual({
      id: sectionIds.b,
      title: 'Reference',
      path: 'reference',
      sectionGroup: {
        id: groupId,
        title: 'Reference group',
        sections: [
          {
            id: sectionIds.b,
            title: 'Reference',
            siteSpaces: [{ id: siteSpaceIds.apiInB, path: 'api', space: { title: 'API' }, section: { id: sectionIds.b } }],
          },
        ],
      },
    });

    // The site spaces of a section follow their order there.
    await world.rest('POST', world.url(siteId, `/site-spaces/${siteSpaceIds.extraInA}/move`), {
      position: { before: { type: 'site-space', siteSpace: siteSpaceIds.guideInA } },
    });
    const section = expectData(
      await t.graphql(
        admin.token,
        'query($id: ID!) { node(id: $id) { ... on SiteSection { sectionGroup { id } siteSpaces { id title default space { id } } } } }',
        { id: sectionIds.a },
      ),
    ).node;
    expect(section).toEqual({
      sectionGroup: null,
      siteSpaces: [
        { id: siteSpaceIds.extraInA, title: 'Extra', default: false, space: { id: spaces.extra.id } },
        { id: siteSpaceIds.guideInA, title: 'Guide', default: true, space: { id: spaces.guide.id } },
      ],
    });

    // At the root level of a site without sections, a site space has no section.
    const plain = await world.site({ title: 'Plain', spaces: [spaces.guide.id] });
    const root = expectData(
      await t.graphql(admin.token, 'query($id: ID!) { site(id: $id) { siteSpaces { edges { node { section { id } space { id } } } } } }', { id: plain.id }),
    ).site.siteSpaces.edges;
    expect(root).toEqual([{ node: { section: null, space: { id: spaces.guide.id } } }]);
  });
});
