import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { buildUser, unique } from '../support/factories.ts';
import { type Connection, connectionOf, expectData, sameScalar } from '../support/graphql.ts';
import { type RestPage, followForward, followRest } from '../support/listings.ts';
import { GROUP_FIELDS, SECTION_FIELDS, SHARE_LINK_FIELDS, SITE_FIELDS, SITE_SPACE_FIELDS, buildSitesWorld, signVisitorToken } from '../support/site-tree.ts';

/**
 * Sites through both contracts: the same site tree fetched over REST (the
 * site, its sections, section groups, site spaces, share links, the published
 * site) and over GraphQL is the same objects field by field — REST ids are the
 * ids of GraphQL relation objects, REST `siteSpaces` (a number) is GraphQL
 * `siteSpaces.totalCount` — in the same order in every listing, and REST
 * `next.page` and GraphQL `endCursor` page either listing.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

type Json = Record<string, any>;

/**
 * A GraphQL object in REST shape: a relation object (only `id` selected)
 * becomes its id, and `siteSpaces { totalCount }` of a site becomes the number.
 */
function restShaped(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(restShaped);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Json);
  if (entries.length === 1 && entries[0]![0] === 'id') return entries[0]![1];
  return Object.fromEntries(
    entries.map(([key, field]) => [
      key,
      key === 'siteSpaces' && field && typeof field === 'object' && !Array.isArray(field) && 'totalCount' in field
        ? (field as { totalCount: number }).totalCount
        : key === '__typename'
          ? field
          : restShaped(field),
    ]),
  );
}

/**
 * Differences between a REST object and the GraphQL object of the same id (in
 * REST shape): every REST field must have the same value in GraphQL, and a
 * GraphQL field the REST object omits must be null.
 */
function parityProblems(rest: unknown, graphql: unknown, path = ''): string[] {
  if (rest !== null && typeof rest === 'object' && !Array.isArray(rest)) {
    if (graphql === null || typeof graphql !== 'object' || Array.isArray(graphql)) {
      return [`${path || '.'}: REST ${JSON.stringify(rest)} but GraphQL ${JSON.stringify(graphql)}`];
    }
    const problems: string[] = [];
    const restObject = rest as Json;
    const graphqlObject = graphql as Json;
    for (const [key, value] of Object.entries(restObject)) {
      const here = path ? `${path}.${key}` : key;
      if (!(key in graphqlObject)) problems.push(`${here}: REST has ${JSON.stringify(value)}, GraphQL has no such field`);
      else problems.push(...parityProblems(value, graphqlObject[key], here));
    }
    for (const [key, value] of Object.entries(graphqlObject)) {
      const here = path ? `${path}.${key}` : key;
      if (key !== '__typename' && !(key in restObject) && value !== null) {
        problems.push(`${here}: absent from REST but GraphQL has ${JSON.stringify(value)}`);
      }
    }
    return problems;
  }
  if (Array.isArray(rest) && Array.isArray(graphql)) {
    if (rest.length !== graphql.length) return [`${path}: REST has ${rest.length} items, GraphQL ${graphql.length}`];
    return rest.flatMap((item, index) => parityProblems(item, graphql[index], `${path}[${index}]`));
  }
  return sameScalar(rest, graphql) ? [] : [`${path || '.'}: REST ${JSON.stringify(rest)} but GraphQL ${JSON.stringify(graphql)}`];
}

/**
 * Fields REST has and GraphQL does not offer: section groups repeat their
 * `sections` as `children`, and the published site has `scripts`. They are
 * compared apart (see "GraphQL offers every REST field"), so that the rest of
 * each object is compared field by field.
 */
const REST_ONLY = { 'site-section-group': ['children'], 'published-content-site': ['scripts'] } as const;

function withoutRestOnly(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutRestOnly);
  if (value === null || typeof value !== 'object') return value;
  const object = value as Json;
  const dropped = (REST_ONLY as Record<string, readonly string[]>)[object.object] ?? [];
  return Object.fromEntries(
    Object.entries(object)
      .filter(([key]) => !dropped.includes(key))
      .map(([key, field]) => [key, withoutRestOnly(field)]),
  );
}

function expectSame(rest: unknown, graphql: unknown, what: string) {
  expect(parityProblems(withoutRestOnly(rest), restShaped(graphql)), what).toEqual([]);
}

async function restGet(token: string, url: string, headers: Record<string, string> = {}) {
  const response = await t.call('GET', url, { token, headers });
  expect(response.statusCode, `GET ${url}: ${response.body}`).toBe(200);
  return response.json();
}

async function graphqlGet(token: string, query: string, variables: Record<string, unknown>) {
  return expectData(await t.graphql(token, query, variables));
}

const PUBLISHED_FIELDS = `
  object
  site { ${SITE_FIELDS} }
  customizations
  structure {
    type
    structure {
      __typename
      ... on SiteSection { ${SECTION_FIELDS} }
      ... on SiteSectionGroup { ${GROUP_FIELDS} }
      ... on SiteSpace { ${SITE_SPACE_FIELDS} }
    }
  }`;

/**
 * An organization with a site using every optional field: hostname, basename,
 * proxy, adaptive content, conditions, icons and descriptions, two section
 * groups, five sections, more site spaces than a page, share links; and a
 * second site without sections.
 */
async function richTree() {
  const world = await buildSitesWorld(t);
  const { organizationId, rest, url, spaces } = world;
  const { siteId, sectionIds, groupId, siteSpaceIds } = await world.sectionedSite();
  const hostname = `docs-${unique()}.example.test`;
  await rest('PATCH', url(siteId), { hostname, basename: 'help', proxy: 'example.com/docs', adaptiveContent: { enabled: true } });
  await rest('PATCH', url(siteId, `/sections/${sectionIds.a}`), { icon: 'book', description: 'Where to begin' });
  await rest('PATCH', url(siteId, `/sections/${sectionIds.c}`), { condition: 'visitor.claims.beta' });
  await rest('PATCH', url(siteId, `/site-spaces/${siteSpaceIds.extraInA}`), { condition: 'visitor.claims.plan === "enterprise"', path: 'more' });
  await rest('PATCH', url(siteId, `/section-groups/${groupId}`), { icon: 'code' });
  const d = await world.section(siteId, spaces.api.id, 'Changelog');
  const e = await world.section(siteId, spaces.guide.id, 'Archive');
  const second = await world.group(siteId, 'Old', [e.id]);
  await world.siteSpace(siteId, spaces.guide.id, sectionIds.c);
  await world.siteSpace(siteId, spaces.api.id, sectionIds.c);
  await world.shareLink(siteId, 'Second');
  await world.shareLink(siteId, '');
  await rest('POST', url(siteId, '/publish'));
  const plain = await world.site({ title: 'Plain', spaces: [spaces.guide.id, spaces.api.id, spaces.extra.id] });
  for (let i = 0; i < 3; i++) await world.site({ title: `Site ${i}`, ...(i === 1 ? { visibility: 'share-link' } : {}) });
  const reader = await world.member('read');
  return { ...world, organizationId, siteId, sectionIds: { ...sectionIds, d: d.id, e: e.id }, groupIds: [groupId, second.id], plain, reader };
}

describe('the same site tree through REST and GraphQL', () => {
  it('site: GET /sites/{siteId} equals site(id:), node(id:) and the listings of the organization and of a space', async () => {
    const { organizationId, siteId, plain, admin, reader, spaces } = await richTree();
    for (const user of [admin, reader]) {
      for (const id of [siteId, plain.id]) {
        const rest = await restGet(user.token, `/v1/orgs/${organizationId}/sites/${id}`);
        const graphql = await graphqlGet(user.token, `query($id: ID!) { site(id: $id) { ${SITE_FIELDS} } node(id: $id) { ... on Site { ${SITE_FIELDS} } } }`, {
          id,
        });
        expectSame(rest, graphql.site, `site ${id} seen by ${user.email}`);
        expectSame(rest, graphql.node, `node ${id}`);
      }
    }
    const restList = await restGet(admin.token, `/v1/orgs/${organizationId}/sites`);
    const graphqlList = (
      await graphqlGet(admin.token, `query($id: ID!) { organization(id: $id) { sites { ${connectionOf(SITE_FIELDS)} } } }`, { id: organizationId })
    ).organization.sites as Connection;
    expect(restList.items).toHaveLength(5);
    expect(graphqlList.edges.map((edge) => edge.node.id)).toEqual(restList.items.map((item: Json) => item.id));
    expect(graphqlList.totalCount).toBe(restList.count);
    restList.items.forEach((item: Json, index: number) => expectSame(item, graphqlList.edges[index]!.node, `listed site ${index}`));

    // REST's space filter is GraphQL's Space.sites.
    const restOfSpace = await restGet(admin.token, `/v1/orgs/${organizationId}/sites?space=${spaces.guide.id}`);
    const graphqlOfSpace = (
      await graphqlGet(admin.token, `query($id: ID!) { space(id: $id) { sites { ${connectionOf(SITE_FIELDS)} } } }`, { id: spaces.guide.id })
    ).space.sites as Connection;
    expect(restOfSpace.items.map((item: Json) => item.id)).toEqual([siteId, plain.id]);
    expect(graphqlOfSpace.edges.map((edge) => edge.node.id)).toEqual([siteId, plain.id]);
    restOfSpace.items.forEach((item: Json, index: number) => expectSame(item, graphqlOfSpace.edges[index]!.node, `site of space ${index}`));
  });

  it('sections, section groups and site spaces: the REST listings equal the connections, nodes and nested lists, in the same order', async () => {
    const { organizationId, siteId, plain, admin, reader } = await richTree();
    for (const user of [admin, reader]) {
      for (const id of [siteId, plain.id]) {
        const base = `/v1/orgs/${organizationId}/sites/${id}`;
        const graphql = (
          await graphqlGet(
            user.token,
            `query($id: ID!) { site(id: $id) {
              sections { ${connectionOf(SECTION_FIELDS)} }
              sectionGroups { ${connectionOf(GROUP_FIELDS)} }
              siteSpaces { ${connectionOf(SITE_SPACE_FIELDS)} }
              defaults: siteSpaces(default: true) { ${connectionOf('id')} }
            } }`,
            { id },
          )
        ).site;
        for (const [listing, path, connection] of [
          ['sections', '/sections', graphql.sections],
          ['section groups', '/section-groups', graphql.sectionGroups],
          ['site spaces', '/site-spaces', graphql.siteSpaces],
          ['default site spaces', '/site-spaces?default=true', graphql.defaults],
        ] as const) {
          const rest = await restGet(user.token, `${base}${path}`);
          const what = `${listing} of ${id} seen by ${user.email}`;
          expect(
            connection.edges.map((edge: Json) => edge.node.id),
            what,
          ).toEqual(rest.items.map((item: Json) => item.id));
          expect(connection.totalCount, what).toBe(rest.count);
          if (listing !== 'default site spaces') {
            rest.items.forEach((item: Json, index: number) => expectSame(item, connection.edges[index].node, `${what}: item ${index}`));
          }
        }
        if (id === siteId) {
          expect(graphql.sections.totalCount).toBe(5);
          expect(graphql.sectionGroups.totalCount).toBe(2);
          expect(graphql.siteSpaces.totalCount).toBe(8);
        }
      }
    }

    // Each object loaded as a node is the object of the REST listing.
    const base = `/v1/orgs/${organizationId}/sites/${siteId}`;
    for (const [path, type, fields] of [
      ['/sections', 'SiteSection', SECTION_FIELDS],
      ['/section-groups', 'SiteSectionGroup', GROUP_FIELDS],
      ['/site-spaces', 'SiteSpace', SITE_SPACE_FIELDS],
    ] as const) {
      const rest = await restGet(admin.token, `${base}${path}`);
      const nodes = (
        await graphqlGet(admin.token, `query($ids: [ID!]!) { nodes(ids: $ids) { ... on ${type} { ${fields} } } }`, {
          ids: rest.items.map((item: Json) => item.id),
        })
      ).nodes;
      rest.items.forEach((item: Json, index: number) => expectSame(item, nodes[index], `${type} node ${item.id}`));
    }
  });

  it('share links: the REST listing equals Site.shareLinks', async () => {
    const { organizationId, siteId, admin } = await richTree();
    const rest = await restGet(admin.token, `/v1/orgs/${organizationId}/sites/${siteId}/share-links`);
    const graphql = (await graphqlGet(admin.token, `query($id: ID!) { site(id: $id) { shareLinks { ${connectionOf(SHARE_LINK_FIELDS)} } } }`, { id: siteId }))
      .site.shareLinks as Connection;
    expect(rest.items).toHaveLength(3);
    expect(graphql.edges.map((edge) => edge.node.id)).toEqual(rest.items.map((item: Json) => item.id));
    rest.items.forEach((item: Json, index: number) => expectSame(item, graphql.edges[index]!.node, `share link ${index}`));
  });

  /** GET …/published and publishedSite with these selections, compared; returns the REST body. */
  const comparePublished = async (
    organizationId: string,
    token: string,
    id: string,
    variables: { shareKey?: string; visitorToken?: string },
    what: string,
    fields = PUBLISHED_FIELDS,
    restShape: (body: Json) => Json = (body) => body,
  ) => {
    const search = variables.shareKey ? `?shareKey=${encodeURIComponent(variables.shareKey)}` : '';
    const headers: Record<string, string> = variables.visitorToken ? { 'x-visitor-token': variables.visitorToken } : {};
    const restBody = await restGet(token, `/v1/orgs/${organizationId}/sites/${id}/published${search}`, headers);
    const query = `query($id: ID!, $shareKey: String, $visitorToken: String) {
      publishedSite(siteId: $id, shareKey: $shareKey, visitorToken: $visitorToken) { ${fields} } }`;
    const graphql = (await graphqlGet(token, query, { id, ...variables })).publishedSite;
    expectSame(restShape(restBody), graphql, what);
    expect(
      graphql.structure.structure.map((entry: Json) => entry.id),
      what,
    ).toEqual(restBody.structure.structure.map((entry: Json) => entry.id));
    return restBody;
  };

  it('published site: GET …/published equals publishedSite for members, with and without visitor claims', async () => {
    const { organizationId, siteId, plain, admin, reader, visitorKey } = await richTree();
    const whole = await comparePublished(organizationId, admin.token, siteId, {}, 'admin');
    expect(whole.structure.type).toBe('sections');
    expect(whole.structure.structure.map((entry: Json) => entry.object)).toEqual([
      'site-section',
      'site-section',
      'site-section-group',
      'site-section',
      'site-section-group',
    ]);
    await comparePublished(organizationId, reader.token, siteId, {}, 'reader');
    const rooted = await comparePublished(organizationId, admin.token, plain.id, {}, 'site without sections');
    expect(rooted.structure.type).toBe('siteSpaces');
    const key = await visitorKey(siteId);
    const filtered = await comparePublished(
      organizationId,
      admin.token,
      siteId,
      { visitorToken: await signVisitorToken(key, { plan: 'free' }) },
      'member with claims',
    );
    expect(filtered.structure.structure.length).toBeLessThan(whole.structure.structure.length);
  });

  /**
   * For visitors, the relations of the published tree (site.organization,
   * space.organization, space.parent, SiteSpace.section, SiteSection.sectionGroup)
   * and the site's `siteSpaces` are compared apart, in the test after this one.
   */
  const VISITOR_FIELDS = PUBLISHED_FIELDS.replace(/ (organization|parent|section|sectionGroup) \{ id \}/g, ' ').replace(/ siteSpaces \{ totalCount \}/, ' ');
  const withoutRelations = (value: unknown, depth = 0): any => {
    if (Array.isArray(value)) return value.map((item) => withoutRelations(item, depth));
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value as Json)
        .filter(([key, field]) => !['organization', 'parent', 'section', 'sectionGroup'].includes(key) && !(key === 'siteSpaces' && typeof field === 'number'))
        .map(([key, field]) => [key, withoutRelations(field, depth + 1)]),
    );
  };
  const visitorCases = async (tree: Awaited<ReturnType<typeof richTree>>) => {
    const { siteId, rest, url, visitorKey } = tree;
    const key = await visitorKey(siteId);
    const link = (await rest('GET', url(siteId, '/share-links'))).items[0];
    return [
      ['public site, no claims', { visibility: 'public' }, {}],
      ['public site, claims', { visibility: 'public' }, { visitorToken: await signVisitorToken(key, { beta: true, plan: 'enterprise' }) }],
      ['share-link site, share key', { visibility: 'share-link' }, { shareKey: new URL(link.urls.published).searchParams.get('shareKey')! }],
      ['visitor-auth site, token', { visibility: 'visitor-auth' }, { visitorToken: await signVisitorToken(key, { beta: true }) }],
    ] as const;
  };

  it('published site: GET …/published equals publishedSite for visitors, public or with a share key or a visitor token', async () => {
    const tree = await richTree();
    const { organizationId, siteId, rest, url } = tree;
    const visitor = await buildUser(t.database, 'visitor');
    expect(VISITOR_FIELDS).not.toMatch(/organization|parent|section \{|sectionGroup \{|totalCount/);
    const sizes: number[] = [];
    for (const [what, settings, variables] of await visitorCases(tree)) {
      await rest('PATCH', url(siteId), settings);
      const body = await comparePublished(organizationId, visitor.token, siteId, variables, what, VISITOR_FIELDS, withoutRelations);
      sizes.push(body.structure.structure.length);
    }
    // Conditions hide entries from the visitor without claims.
    expect(sizes[0]).toBeLessThan(sizes[1]!);
  });

  it('published site: for visitors too, the REST ids of the relations are GraphQL relation objects (organizations: null for visitors), and siteSpaces is siteSpaces.totalCount', async () => {
    const tree = await richTree();
    const { organizationId, siteId, rest, url } = tree;
    const visitor = await buildUser(t.database, 'visitor');
    // One query per part: a failing non-null field would hide the other parts.
    const parts = {
      'site.organization': 'site { id organization { id } }',
      'site.siteSpaces': 'site { id siteSpaces { totalCount } }',
      'sectionGroup and section': `structure { structure {
          ... on SiteSection { id sectionGroup { id } siteSpaces { id section { id } } }
          ... on SiteSectionGroup { id sections { id sectionGroup { id } siteSpaces { id section { id } } } }
        } }`,
      'space.organization': `structure { structure {
          ... on SiteSection { id siteSpaces { id space { id organization { id } } } }
          ... on SiteSectionGroup { id sections { id siteSpaces { id space { id organization { id } } } } }
        } }`,
    };
    const restParts = (body: Json) => {
      const structure = (siteSpace: (item: Json) => Json, withGroup: boolean) => {
        const section = (item: Json) => ({
          id: item.id,
          ...(withGroup && item.sectionGroup ? { sectionGroup: item.sectionGroup } : {}),
          siteSpaces: item.siteSpaces.map(siteSpace),
        });
        return {
          structure: {
            structure: body.structure.structure.map((entry: Json) =>
              entry.object === 'site-section-group' ? { id: entry.id, sections: entry.sections.map(section) } : section(entry),
            ),
          },
        };
      };
      // Organizations are objects for their members only: a visitor gets null where REST has the id.
      return {
        'site.organization': { site: { id: body.site.id, organization: null } },
        'site.siteSpaces': { site: { id: body.site.id, siteSpaces: body.site.siteSpaces } },
        'sectionGroup and section': structure((item) => ({ id: item.id, section: item.section }), true),
        'space.organization': structure((item) => ({ id: item.id, space: { id: item.space.id, organization: null } }), false),
      };
    };
    const problems: string[] = [];
    for (const [what, settings, variables] of await visitorCases(tree)) {
      await rest('PATCH', url(siteId), settings);
      const search = 'shareKey' in variables ? `?shareKey=${encodeURIComponent(variables.shareKey)}` : '';
      const headers: Record<string, string> = 'visitorToken' in variables ? { 'x-visitor-token': variables.visitorToken } : {};
      const expected = restParts(await restGet(visitor.token, `/v1/orgs/${organizationId}/sites/${siteId}/published${search}`, headers));
      for (const [part, selection] of Object.entries(parts) as Array<[keyof typeof parts, string]>) {
        const result = await t.graphql(
          visitor.token,
          `query($id: ID!, $shareKey: String, $visitorToken: String) {
            publishedSite(siteId: $id, shareKey: $shareKey, visitorToken: $visitorToken) { ${selection} } }`,
          { id: siteId, ...variables },
        );
        const errors = (result.errors ?? []).map((error) => `${(error as { path?: unknown[] }).path?.join('.')}: ${error.extensions?.code} ${error.message}`);
        problems.push(...[...new Set(errors)].map((error) => `${what}, ${part}: ${error}`));
        if (result.data?.publishedSite) {
          problems.push(...parityProblems(expected[part], restShaped(result.data.publishedSite)).map((problem) => `${what}, ${part}: ${problem}`));
        }
      }
    }
    // One line per kind of problem: positions and ids are left out.
    const kinds = [
      ...new Set(
        problems.map((problem) =>
          problem
            .replace(/\.\d+\./g, '.*.')
            .replace(/\[\d+\]/g, '[*]')
            .replace(/"(org|site|sec|ssg|ssp|spc)_\w+"/g, '"$1_…"'),
        ),
      ),
    ];
    expect(kinds).toEqual([]);
  });

  it('GraphQL offers every REST field of section groups (children) and published sites (scripts)', async () => {
    const { organizationId, siteId, admin } = await richTree();
    const base = `/v1/orgs/${organizationId}/sites/${siteId}`;
    const group = (await restGet(admin.token, `${base}/section-groups`)).items[0];
    expect(group.children).toEqual(group.sections);
    expect((await restGet(admin.token, `${base}/published`)).scripts).toEqual([]);
    const { schema } = await import('../../src/graphql/schema.ts');
    const fieldsOf = (type: string) => Object.keys((schema.getType(type) as unknown as { getFields(): Json }).getFields());
    expect({
      SiteSectionGroup: fieldsOf('SiteSectionGroup').includes('children'),
      PublishedContentSite: fieldsOf('PublishedContentSite').includes('scripts'),
    }).toEqual({
      SiteSectionGroup: true,
      PublishedContentSite: true,
    });
  });
});

interface Listing {
  name: string;
  token: string;
  /** REST URL of the listing with limit=2 (and its filters). */
  rest: string;
  /** A GraphQL page of the same listing: first 2 after `after`. */
  graphql(after: string | undefined): Promise<Connection<{ id: string }>>;
}

/** Every site listing, over a tree with at least five items in each. */
async function listings(): Promise<Listing[]> {
  const tree = await richTree();
  const { organizationId, siteId, admin, spaces } = tree;
  await tree.group(siteId, 'Third');
  for (let i = 0; i < 3; i++) await tree.shareLink(siteId, `More ${i}`);
  const page = (query: string, variables: Record<string, unknown>, pick: (data: Json) => Connection) => async (after: string | undefined) => {
    const connection = pick(await graphqlGet(admin.token, query, { ...variables, first: 2, after }));
    return { ...connection, edges: connection.edges.map((edge) => ({ ...edge, node: { id: edge.node.id } })) };
  };
  const sites = (args = '', declarations = '', variables: Record<string, unknown> = {}) =>
    page(
      `query($id: ID!, $first: Int, $after: String${declarations}) { organization(id: $id) { sites(first: $first, after: $after${args}) { ${connectionOf('id')} } } }`,
      { id: organizationId, ...variables },
      (data) => data.organization.sites,
    );
  const ofSite = (field: string, args = '', declarations = '', variables: Record<string, unknown> = {}) =>
    page(
      `query($id: ID!, $first: Int, $after: String${declarations}) { site(id: $id) { ${field}(first: $first, after: $after${args}) { ${connectionOf('id')} } } }`,
      { id: siteId, ...variables },
      (data) => data.site[field],
    );
  const base = `/v1/orgs/${organizationId}/sites`;
  return [
    { name: 'sites', token: admin.token, rest: `${base}?limit=2`, graphql: sites() },
    {
      name: 'unpublished sites',
      token: admin.token,
      rest: `${base}?limit=2&published=false`,
      graphql: sites(', published: $published', ', $published: Boolean', { published: false }),
    },
    { name: 'sites titled', token: admin.token, rest: `${base}?limit=2&title=site`, graphql: sites(', title: $title', ', $title: String', { title: 'site' }) },
    {
      name: 'sites of a space',
      token: admin.token,
      rest: `${base}?limit=1&space=${spaces.guide.id}`,
      graphql: async (after) => {
        const connection = (
          await graphqlGet(
            admin.token,
            `query($id: ID!, $after: String) { organization(id: "${organizationId}") { sites(first: 1, after: $after, space: $id) { ${connectionOf('id')} } } }`,
            { id: spaces.guide.id, after },
          )
        ).organization.sites as Connection;
        return connection;
      },
    },
    { name: 'sections', token: admin.token, rest: `${base}/${siteId}/sections?limit=2`, graphql: ofSite('sections') },
    { name: 'section groups', token: admin.token, rest: `${base}/${siteId}/section-groups?limit=2`, graphql: ofSite('sectionGroups') },
    { name: 'site spaces', token: admin.token, rest: `${base}/${siteId}/site-spaces?limit=2`, graphql: ofSite('siteSpaces') },
    {
      name: 'non-default site spaces',
      token: admin.token,
      rest: `${base}/${siteId}/site-spaces?limit=2&default=false`,
      graphql: ofSite('siteSpaces', ', default: $default', ', $default: Boolean', { default: false }),
    },
    { name: 'share links', token: admin.token, rest: `${base}/${siteId}/share-links?limit=2`, graphql: ofSite('shareLinks') },
  ];
}

const restIds = (page: RestPage) => page.items.map((item) => item.id as string);

describe('the same site listing through REST and GraphQL', () => {
  it('pages alike: same ids in the same order, REST next.page = GraphQL endCursor, count = totalCount', async () => {
    for (const listing of await listings()) {
      const restPages = await followRest(t, listing.token, listing.rest);
      const graphqlPages = await followForward((after) => listing.graphql(after));
      const restAll = restPages.flatMap(restIds);
      const graphqlAll = graphqlPages.flatMap((page) => page.edges.map((edge) => edge.node.id));
      expect(restAll.length, listing.name).toBeGreaterThanOrEqual(2);
      expect(restPages.length, listing.name).toBeGreaterThanOrEqual(2);
      expect(new Set(restAll).size, listing.name).toBe(restAll.length);
      expect(graphqlAll, listing.name).toEqual(restAll);
      expect(
        graphqlPages.map((page) => page.edges.length),
        listing.name,
      ).toEqual(restPages.map((page) => page.items.length));
      expect(
        graphqlPages.map((page) => (page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null)),
        listing.name,
      ).toEqual(restPages.map((page) => page.next?.page ?? null));
      expect(
        graphqlPages.map((page) => page.totalCount),
        listing.name,
      ).toEqual(restPages.map((page) => page.count));
      expect(restPages[0]!.count, listing.name).toBe(restAll.length);
    }
  });

  it('continues across contracts: REST next.page as GraphQL after, GraphQL endCursor as REST page', async () => {
    for (const listing of await listings()) {
      const expected = (await followRest(t, listing.token, listing.rest)).flatMap(restIds);
      for (const startWith of ['rest', 'graphql'] as const) {
        const ids: string[] = [];
        let token: string | undefined;
        let contract: 'rest' | 'graphql' = startWith;
        for (let step = 0; step < 20; step++) {
          if (contract === 'rest') {
            const url = token ? `${listing.rest}&page=${encodeURIComponent(token)}` : listing.rest;
            const page = (await restGet(listing.token, url)) as RestPage;
            ids.push(...restIds(page));
            token = page.next?.page;
          } else {
            const page = await listing.graphql(token);
            ids.push(...page.edges.map((edge) => edge.node.id));
            token = page.pageInfo.hasNextPage ? page.pageInfo.endCursor! : undefined;
          }
          if (!token) break;
          contract = contract === 'rest' ? 'graphql' : 'rest';
        }
        expect(ids, `${listing.name}, starting with ${startWith}`).toEqual(expected);
      }
    }
  });

  it('accepts every GraphQL edge cursor of the sections and site spaces as a REST page, and refuses a token of another listing alike', async () => {
    const { organizationId, siteId, admin } = await richTree();
    const base = `/v1/orgs/${organizationId}/sites/${siteId}`;
    for (const [field, path] of [
      ['sections', '/sections'],
      ['siteSpaces', '/site-spaces'],
      ['sectionGroups', '/section-groups'],
    ] as const) {
      const all = (await followRest(t, admin.token, `${base}${path}?limit=100`)).flatMap(restIds);
      const edges = (await graphqlGet(admin.token, `query($id: ID!) { site(id: $id) { ${field} { edges { cursor node { id } } } } }`, { id: siteId })).site[
        field
      ].edges as Array<{ cursor: string; node: { id: string } }>;
      expect(edges.map((edge) => edge.node.id)).toEqual(all);
      for (const [index, edge] of edges.entries()) {
        const rest = await restGet(admin.token, `${base}${path}?limit=100&page=${encodeURIComponent(edge.cursor)}`);
        expect(
          rest.items.map((item: Json) => item.id),
          `${field} after edge ${index}`,
        ).toEqual(all.slice(index + 1));
      }
    }
    const sectionsToken = (await restGet(admin.token, `${base}/sections?limit=1`)).next.page as string;
    const rest = await t.call('GET', `${base}/site-spaces?limit=1&page=${encodeURIComponent(sectionsToken)}`, { token: admin.token });
    expect(rest.statusCode).toBe(400);
    const graphql = await t.graphql(admin.token, 'query($id: ID!, $after: String) { site(id: $id) { siteSpaces(first: 1, after: $after) { totalCount } } }', {
      id: siteId,
      after: sectionsToken,
    });
    expect(graphql.errors?.map((error) => error.extensions?.code)).toEqual([400]);
    expect(rest.json().error.message).toMatch(/is not a page token returned by this listing/);
    expect(graphql.errors![0]!.message).toMatch(/is not a page token returned by this listing/);
  });
});
