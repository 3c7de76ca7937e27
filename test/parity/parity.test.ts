import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { addMember, buildOrganization, buildUser, unique } from '../support/factories.ts';
import {
  COLLECTION_FIELDS,
  CUSTOM_FIELD_FIELDS,
  type Connection,
  ORGANIZATION_FIELDS,
  SPACE_FIELDS,
  USER_FIELDS,
  connectionOf,
  expectData,
  sameScalar,
} from '../support/graphql.ts';
import { type RestPage, followForward, followRest } from '../support/listings.ts';
import { buildWorld } from '../support/world.ts';

/**
 * The two contracts over the same data: an object fetched through REST and
 * through GraphQL has the same values under the same names (relations are ids in
 * REST and objects in GraphQL), and listings page alike, with interchangeable
 * page tokens and cursors.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

/**
 * Differences between a REST object and the GraphQL object of the same id: every
 * REST field must have the same value in GraphQL (relations: REST id = GraphQL
 * `{ id }`), and a GraphQL field the REST object omits must be null.
 */
function parityProblems(rest: unknown, graphql: unknown, relations: readonly string[] = [], path = ''): string[] {
  if (rest !== null && typeof rest === 'object' && !Array.isArray(rest)) {
    if (graphql === null || typeof graphql !== 'object' || Array.isArray(graphql)) {
      return [`${path || '.'}: REST ${JSON.stringify(rest)} but GraphQL ${JSON.stringify(graphql)}`];
    }
    const problems: string[] = [];
    const restObject = rest as Record<string, unknown>;
    const graphqlObject = graphql as Record<string, unknown>;
    for (const [key, value] of Object.entries(restObject)) {
      const here = path ? `${path}.${key}` : key;
      if (!(key in graphqlObject)) {
        problems.push(`${here}: REST has ${JSON.stringify(value)}, GraphQL has no such field selected`);
      } else if (!path && relations.includes(key)) {
        const related = graphqlObject[key] as { id?: string } | null;
        if ((related?.id ?? null) !== (value ?? null)) {
          problems.push(`${here}: REST ${JSON.stringify(value)} but GraphQL ${JSON.stringify(related)}`);
        }
      } else {
        problems.push(...parityProblems(value, graphqlObject[key], relations, here));
      }
    }
    for (const [key, value] of Object.entries(graphqlObject)) {
      const here = path ? `${path}.${key}` : key;
      if (!(key in restObject) && value !== null) {
        problems.push(`${here}: absent from REST but GraphQL has ${JSON.stringify(value)}`);
      }
    }
    return problems;
  }
  if (Array.isArray(rest) && Array.isArray(graphql) && rest.length === graphql.length) {
    return rest.flatMap((item, index) => parityProblems(item, graphql[index], [], `${path}[${index}]`));
  }
  return sameScalar(rest, graphql) ? [] : [`${path || '.'}: REST ${JSON.stringify(rest)} but GraphQL ${JSON.stringify(graphql)}`];
}

async function restGet(token: string, url: string) {
  const response = await t.call('GET', url, { token });
  expect(response.statusCode, `GET ${url}: ${response.body}`).toBe(200);
  return response.json();
}

async function graphqlGet(token: string, query: string, variables: Record<string, unknown>) {
  return expectData(await t.graphql(token, query, variables));
}

/** Member fields without `organization`, which REST members do not have. */
const MEMBER_OBJECT_FIELDS = `id object role disabled joinedAt lastSeenAt sso spaces teams sites user { ${USER_FIELDS} }`;

/** An organization with every optional field set, members, nested collections, spaces and custom fields. */
async function richWorld() {
  const world = await buildWorld(t);
  const { organizationId, admin, rest, collection, space, customField, member } = world;
  await rest('PATCH', `/v1/orgs/${organizationId}`, admin.token, {
    hostname: `parity-${unique()}`,
    emailDomains: ['parity.test', 'docs.parity.test'],
    logo: 'https://example.test/logo.png',
    defaultRole: 'comment',
    sso: true,
    mergeRules: { type: 'rules', rules: [{ rule: 'require_specific_reviewers', users: [admin.id] }] },
  });
  const reader = await member('read');
  const guest = await member(null);
  await t.call('POST', `/v1/orgs/${organizationId}/ping`, { token: reader.token });
  const parent = await collection({ title: 'Parent' });
  await rest('PATCH', `/v1/collections/${parent.id}`, admin.token, { description: 'Top collection', defaultLevel: 'edit' });
  const child = await collection({ title: 'Child', parent: parent.id });
  const plainSpace = await space({ title: 'Plain' });
  const fullSpace = await space({ title: 'Full', emoji: '📘', parent: child.id, language: 'fr', editMode: 'locked' });
  const iconSpace = await space({ title: 'Icon' });
  await rest('PATCH', `/v1/spaces/${iconSpace.id}`, admin.token, { icon: 'https://example.test/icon.png', defaultLevel: 'review' });
  const deletedSpace = await space({ title: 'Deleted' });
  await rest('DELETE', `/v1/spaces/${deletedSpace.id}`, admin.token, undefined, 205);
  await customField({ name: 'team', type: 'text' });
  await customField({ name: 'stage', type: 'select', title: 'Stage', description: 'Where', placeholder: 'Pick', options: ['draft', 'final'] });
  await rest('PATCH', `/v1/spaces/${plainSpace.id}/custom-fields`, admin.token, { values: { team: { value: 'Docs' }, stage: { value: 'final' } } }, 204);
  return { ...world, reader, guest, parent, child, spaces: [plainSpace, fullSpace, iconSpace, deletedSpace] };
}

describe('the same object through REST and GraphQL', () => {
  it('organization: every REST field equals the GraphQL field of the same name', async () => {
    const { organizationId, admin, reader, guest } = await richWorld();
    const plain = await buildOrganization(t.database);
    await addMember(t.database, plain.id, admin, 'read');
    for (const [user, id] of [
      [admin, organizationId],
      [reader, organizationId],
      [guest, organizationId],
      [admin, plain.id],
    ] as const) {
      const rest = await restGet(user.token, `/v1/orgs/${id}`);
      const graphql = (await graphqlGet(user.token, `query($id: ID!) { organization(id: $id) { ${ORGANIZATION_FIELDS} } }`, { id })).organization;
      expect(parityProblems(rest, graphql), `organization ${id} seen by ${user.email}`).toEqual([]);
    }
    // The same in listings: GET /v1/orgs and viewer.organizations, node(id:).
    const restList = await restGet(admin.token, '/v1/orgs');
    const graphqlList = (await graphqlGet(admin.token, `{ viewer { organizations { edges { node { ${ORGANIZATION_FIELDS} } } } } }`, {})).viewer.organizations;
    expect(restList.items.length).toBe(2);
    restList.items.forEach((item: unknown, index: number) => expect(parityProblems(item, graphqlList.edges[index].node)).toEqual([]));
    const node = (await graphqlGet(admin.token, `query($id: ID!) { node(id: $id) { ... on Organization { ${ORGANIZATION_FIELDS} } } }`, { id: organizationId }))
      .node;
    expect(parityProblems(await restGet(admin.token, `/v1/orgs/${organizationId}`), node)).toEqual([]);
  });

  it('user: GET /v1/user and GET /v1/users/{id} equal user and User nodes', async () => {
    const { admin, reader } = await richWorld();
    expect(parityProblems(await restGet(admin.token, '/v1/user'), (await graphqlGet(admin.token, `{ user { ${USER_FIELDS} } }`, {})).user)).toEqual([]);
    const node = (await graphqlGet(admin.token, `query($id: ID!) { node(id: $id) { ... on User { ${USER_FIELDS} } } }`, { id: reader.id })).node;
    expect(parityProblems(await restGet(admin.token, `/v1/users/${reader.id}`), node)).toEqual([]);
  });

  it('collection: REST ids of organization and parent are the ids of the GraphQL relations', async () => {
    const { organizationId, admin, reader, parent, child } = await richWorld();
    for (const user of [admin, reader]) {
      for (const collection of [parent, child]) {
        const rest = await restGet(user.token, `/v1/collections/${collection.id}`);
        const graphql = (await graphqlGet(user.token, `query($id: ID!) { collection(id: $id) { ${COLLECTION_FIELDS} } }`, { id: collection.id })).collection;
        expect(parityProblems(rest, graphql, ['organization', 'parent']), `collection ${collection.title}`).toEqual([]);
      }
    }
    const restList = await restGet(admin.token, `/v1/orgs/${organizationId}/collections`);
    const graphqlList = (
      await graphqlGet(admin.token, `query($id: ID!) { organization(id: $id) { collections { edges { node { ${COLLECTION_FIELDS} } } } } }`, {
        id: organizationId,
      })
    ).organization.collections;
    expect(restList.items.map((item: { id: string }) => item.id)).toEqual([parent.id, child.id]);
    restList.items.forEach((item: unknown, index: number) =>
      expect(parityProblems(item, graphqlList.edges[index].node, ['organization', 'parent'])).toEqual([]),
    );
  });

  it('space: every REST field, deleted, locked and icon spaces too, and custom field values', async () => {
    const { organizationId, admin, reader, spaces, child } = await richWorld();
    for (const user of [admin, reader]) {
      for (const space of spaces) {
        const rest = await restGet(user.token, `/v1/spaces/${space.id}`);
        const graphql = (await graphqlGet(user.token, `query($id: ID!) { space(id: $id) { ${SPACE_FIELDS} } }`, { id: space.id })).space;
        expect(parityProblems(rest, graphql, ['organization', 'parent']), `space ${space.title}`).toEqual([]);
      }
    }
    const restList = await restGet(admin.token, `/v1/collections/${child.id}/spaces`);
    const graphqlList = (
      await graphqlGet(admin.token, `query($id: ID!) { collection(id: $id) { spaces { edges { node { ${SPACE_FIELDS} } } } } }`, { id: child.id })
    ).collection.spaces;
    expect(restList.items).toHaveLength(1);
    expect(parityProblems(restList.items[0], graphqlList.edges[0].node, ['organization', 'parent'])).toEqual([]);

    const orgSpaces = await restGet(admin.token, `/v1/orgs/${organizationId}/spaces`);
    const graphqlSpaces = (
      await graphqlGet(admin.token, `query($id: ID!) { organization(id: $id) { spaces { edges { node { ${SPACE_FIELDS} } } } } }`, { id: organizationId })
    ).organization.spaces;
    expect(orgSpaces.items.length).toBe(3);
    orgSpaces.items.forEach((item: unknown, index: number) =>
      expect(parityProblems(item, graphqlSpaces.edges[index].node, ['organization', 'parent'])).toEqual([]),
    );

    const restValues = await restGet(admin.token, `/v1/spaces/${spaces[0].id}/custom-fields`);
    const graphqlValues = (
      await graphqlGet(admin.token, `query($id: ID!) { space(id: $id) { customFields { value customField { ${CUSTOM_FIELD_FIELDS} } } } }`, {
        id: spaces[0].id,
      })
    ).space.customFields;
    expect(parityProblems(restValues, graphqlValues)).toEqual([]);
    expect(graphqlValues.map((entry: { value: unknown }) => entry.value)).toEqual(['final', 'Docs']);
  });

  it('member: every REST field, with the user object, and the member space permissions', async () => {
    const { organizationId, admin, reader, guest } = await richWorld();
    for (const [viewer, target] of [
      [admin, reader],
      [admin, guest],
      [reader, reader],
      [reader, admin],
      [admin, admin],
    ] as const) {
      const rest = await restGet(viewer.token, `/v1/orgs/${organizationId}/members/${target.id}`);
      const graphql = (
        await graphqlGet(viewer.token, `query($o: ID!, $u: ID!) { member(organizationId: $o, userId: $u) { ${MEMBER_OBJECT_FIELDS} } }`, {
          o: organizationId,
          u: target.id,
        })
      ).member;
      expect(parityProblems(rest, graphql), `member ${target.email}`).toEqual([]);
    }
    expect((await restGet(admin.token, `/v1/orgs/${organizationId}/members/${reader.id}`)).lastSeenAt).toBeDefined();

    const restList = await restGet(admin.token, `/v1/orgs/${organizationId}/members`);
    const graphqlList = (
      await graphqlGet(admin.token, `query($id: ID!) { organization(id: $id) { members { edges { node { ${MEMBER_OBJECT_FIELDS} } } } } }`, {
        id: organizationId,
      })
    ).organization.members;
    expect(restList.items).toHaveLength(3);
    restList.items.forEach((item: unknown, index: number) => expect(parityProblems(item, graphqlList.edges[index].node)).toEqual([]));

    const restSpaces = await restGet(reader.token, `/v1/orgs/${organizationId}/members/${reader.id}/spaces`);
    const graphqlSpaces = (
      await graphqlGet(
        reader.token,
        `query($o: ID!, $u: ID!) { member(organizationId: $o, userId: $u) { spacePermissions { edges { node { permission space { ${SPACE_FIELDS} } } } } } }`,
        {
          o: organizationId,
          u: reader.id,
        },
      )
    ).member.spacePermissions;
    expect(restSpaces.items).toHaveLength(3);
    restSpaces.items.forEach((item: { permission: string; space: unknown }, index: number) => {
      const node = graphqlSpaces.edges[index].node;
      expect(node.permission).toBe(item.permission);
      expect(parityProblems(item.space, node.space, ['organization', 'parent'])).toEqual([]);
    });
  });

  it('custom field: every REST field, with and without the optional ones', async () => {
    const { organizationId, admin, reader } = await richWorld();
    for (const user of [admin, reader]) {
      for (const name of ['team', 'stage']) {
        const rest = await restGet(user.token, `/v1/orgs/${organizationId}/custom-fields/${name}`);
        const graphql = (
          await graphqlGet(user.token, `query($o: ID!, $n: String!) { customField(organizationId: $o, name: $n) { ${CUSTOM_FIELD_FIELDS} } }`, {
            o: organizationId,
            n: name,
          })
        ).customField;
        expect(parityProblems(rest, graphql), `custom field ${name}`).toEqual([]);
        const node = (await graphqlGet(user.token, `query($id: ID!) { node(id: $id) { ... on CustomField { ${CUSTOM_FIELD_FIELDS} } } }`, { id: rest.id }))
          .node;
        expect(parityProblems(rest, node)).toEqual([]);
      }
    }
    const restList = await restGet(admin.token, `/v1/orgs/${organizationId}/custom-fields`);
    const graphqlList = (
      await graphqlGet(admin.token, `query($id: ID!) { organization(id: $id) { customFields { edges { node { ${CUSTOM_FIELD_FIELDS} } } } } }`, {
        id: organizationId,
      })
    ).organization.customFields;
    expect(restList.items.map((item: { name: string }) => item.name)).toEqual(['stage', 'team']);
    restList.items.forEach((item: unknown, index: number) => expect(parityProblems(item, graphqlList.edges[index].node)).toEqual([]));
  });
});

interface Listing {
  name: string;
  token: string;
  /** REST URL of the listing with limit=2 (and its filters). */
  rest: string;
  /** A GraphQL page of the same listing: first 2 after `after`, nodes reduced to `{ id }`. */
  graphql(after: string | undefined): Promise<Connection<{ id: string }>>;
  /** The id of a REST item. */
  restId?(item: any): string;
}

/** Every listing of the API, over one organization with five of each thing. */
async function listings(): Promise<Listing[]> {
  const world = await buildWorld(t);
  const { organizationId, admin, collection, space, customField, member } = world;
  const viewer = await buildUser(t.database, 'viewer');
  for (let i = 0; i < 5; i++) await addMember(t.database, (await buildOrganization(t.database)).id, viewer, 'read');
  for (const role of ['read', 'edit', 'comment', null] as const) await member(role);
  const parent = await collection({ title: 'Parent' });
  for (let i = 0; i < 8; i++) await collection({ title: `C${i}`, ...(i % 2 ? { parent: parent.id } : {}) });
  for (let i = 0; i < 5; i++) await space({ title: `S${i}`, parent: parent.id });
  for (let i = 0; i < 5; i++) await space({ title: `Top ${i}` });
  for (const name of ['e', 'd', 'c', 'b', 'a']) await customField({ name: `field-${name}`, type: 'text' });

  const page =
    (token: string, query: string, variables: Record<string, unknown>, pick: (data: any) => Connection<any>, id = (node: any) => node.id) =>
    async (after: string | undefined) => {
      const connection = pick(await graphqlGet(token, query, { ...variables, first: 2, after }));
      return { ...connection, edges: connection.edges.map((edge) => ({ ...edge, node: { id: id(edge.node) } })) };
    };
  /** A connection of the organization; `declarations` declare the extra `variables` its `args` use. */
  const org = (field: string, args = '', declarations = '', variables: Record<string, unknown> = {}) =>
    page(
      admin.token,
      `query($id: ID!, $first: Int, $after: String${declarations}) {
        organization(id: $id) { ${field}(first: $first, after: $after${args}) { ${connectionOf('id')} } }
      }`,
      { id: organizationId, ...variables },
      (data) => data.organization[field],
    );
  return [
    {
      name: 'viewer organizations',
      token: viewer.token,
      rest: '/v1/orgs?limit=2',
      graphql: page(
        viewer.token,
        `query($first: Int, $after: String) { viewer { organizations(first: $first, after: $after) { ${connectionOf('id')} } } }`,
        {},
        (data) => data.viewer.organizations,
      ),
    },
    { name: 'members', token: admin.token, rest: `/v1/orgs/${organizationId}/members?limit=2`, graphql: org('members') },
    {
      name: 'members by name',
      token: admin.token,
      rest: `/v1/orgs/${organizationId}/members?limit=2&sort=name&order=asc`,
      graphql: org('members', ', sort: $sort, order: $order', ', $sort: MemberSort, $order: OrderDirection', { sort: 'name', order: 'asc' }),
    },
    { name: 'collections', token: admin.token, rest: `/v1/orgs/${organizationId}/collections?limit=2`, graphql: org('collections') },
    {
      name: 'top-level collections',
      token: admin.token,
      rest: `/v1/orgs/${organizationId}/collections?limit=2&nested=false`,
      graphql: org('collections', ', nested: $nested', ', $nested: Boolean', { nested: false }),
    },
    { name: 'organization spaces', token: admin.token, rest: `/v1/orgs/${organizationId}/spaces?limit=2`, graphql: org('spaces') },
    {
      name: 'collection spaces',
      token: admin.token,
      rest: `/v1/collections/${parent.id}/spaces?limit=2`,
      graphql: page(
        admin.token,
        `query($id: ID!, $first: Int, $after: String) { collection(id: $id) { spaces(first: $first, after: $after) { ${connectionOf('id')} } } }`,
        { id: parent.id },
        (data) => data.collection.spaces,
      ),
    },
    { name: 'custom fields', token: admin.token, rest: `/v1/orgs/${organizationId}/custom-fields?limit=2`, graphql: org('customFields') },
    {
      name: 'member spaces',
      token: admin.token,
      rest: `/v1/orgs/${organizationId}/members/${admin.id}/spaces?limit=2`,
      graphql: page(
        admin.token,
        `query($o: ID!, $u: ID!, $first: Int, $after: String) { member(organizationId: $o, userId: $u) { spacePermissions(first: $first, after: $after) { ${connectionOf('space { id }')} } } }`,
        { o: organizationId, u: admin.id },
        (data) => data.member.spacePermissions,
        (node) => node.space.id,
      ),
      restId: (item) => item.space.id,
    },
  ];
}

async function restPage(listing: Listing, page: string | undefined) {
  const url = page ? `${listing.rest}&page=${encodeURIComponent(page)}` : listing.rest;
  return restGet(listing.token, url) as Promise<RestPage>;
}

const restIds = (listing: Listing, items: any[]) => items.map((item) => (listing.restId ? listing.restId(item) : item.id));

describe('the same listing through REST and GraphQL', () => {
  it('pages alike: same ids in the same order, REST next.page = GraphQL endCursor, count = totalCount', async () => {
    for (const listing of await listings()) {
      const restPages = await followRest(t, listing.token, listing.rest);
      const graphqlPages = await followForward((after) => listing.graphql(after));
      const restAll = restPages.flatMap((page) => restIds(listing, page.items));
      const graphqlAll = graphqlPages.flatMap((page) => page.edges.map((edge) => edge.node.id));
      expect(restAll.length, listing.name).toBeGreaterThanOrEqual(5);
      expect(new Set(restAll).size, listing.name).toBe(restAll.length);
      expect(graphqlAll, listing.name).toEqual(restAll);
      expect(
        graphqlPages.map((page) => page.edges.length),
        listing.name,
      ).toEqual(restPages.map((page) => page.items.length));
      expect(
        graphqlPages.map((page) => page.edges.length).every((length) => length <= 2),
        listing.name,
      ).toBe(true);
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
      const expected = (await followRest(t, listing.token, listing.rest)).flatMap((page) => restIds(listing, page.items));
      for (const startWith of ['rest', 'graphql'] as const) {
        const ids: string[] = [];
        let token: string | undefined;
        let contract: 'rest' | 'graphql' = startWith;
        for (let step = 0; step < 20; step++) {
          if (contract === 'rest') {
            const page = await restPage(listing, token);
            ids.push(...restIds(listing, page.items));
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

  it('accepts a REST page token as GraphQL before, and every GraphQL edge cursor as a REST page', async () => {
    const { organizationId, admin, space } = await buildWorld(t);
    for (let i = 0; i < 5; i++) await space({ title: `S${i}` });
    const url = `/v1/orgs/${organizationId}/spaces?limit=2`;
    const all = (await followRest(t, admin.token, url)).flatMap((page) => page.items.map((item) => item.id));
    const firstPage = (await restGet(admin.token, url)) as { next: { page: string } };
    const before = await t.graphql(
      admin.token,
      `query($id: ID!, $before: String) { organization(id: $id) { spaces(last: 10, before: $before) { edges { node { id } } } } }`,
      {
        id: organizationId,
        before: firstPage.next.page,
      },
    );
    expect(expectData(before).organization.spaces.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual(all.slice(0, 1));

    const edges = expectData(
      await t.graphql(admin.token, `query($id: ID!) { organization(id: $id) { spaces { edges { cursor node { id } } } } }`, { id: organizationId }),
    ).organization.spaces.edges as Array<{ cursor: string; node: { id: string } }>;
    for (const [index, edge] of edges.entries()) {
      const rest = await restGet(admin.token, `/v1/orgs/${organizationId}/spaces?limit=100&page=${encodeURIComponent(edge.cursor)}`);
      expect(
        rest.items.map((item: { id: string }) => item.id),
        `after edge ${index}`,
      ).toEqual(all.slice(index + 1));
    }
  });

  it('refuses, in both contracts, a token of another listing with the same 400', async () => {
    const { organizationId, admin, space, collection } = await buildWorld(t);
    await space();
    await space();
    await collection();
    await collection();
    const spacesToken = ((await restGet(admin.token, `/v1/orgs/${organizationId}/spaces?limit=1`)) as { next: { page: string } }).next.page;
    const rest = await t.call('GET', `/v1/orgs/${organizationId}/collections?limit=1&page=${encodeURIComponent(spacesToken)}`, { token: admin.token });
    expect(rest.statusCode).toBe(400);
    const graphql = await t.graphql(
      admin.token,
      `query($id: ID!, $after: String) { organization(id: $id) { collections(first: 1, after: $after) { totalCount } } }`,
      {
        id: organizationId,
        after: spacesToken,
      },
    );
    expect(graphql.errors?.map((error) => error.extensions?.code)).toEqual([400]);
    expect(rest.json().error.message).toMatch(/is not a page token returned by this listing/);
    expect(graphql.errors![0]!.message).toMatch(/is not a page token returned by this listing/);
  });
});
