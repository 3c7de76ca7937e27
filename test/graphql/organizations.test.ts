import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { type TestUser, addMember, buildOrganization, buildTeam, buildUser, buildUserWithEmail, unique } from '../support/factories.ts';
import {
  type Connection,
  type GraphQLResult,
  ORGANIZATION_FIELDS,
  USER_FIELDS,
  connectionOf,
  expectData,
  expectGraphQLError,
  expectUnauthenticated,
  mutate,
  nodeIds,
} from '../support/graphql.ts';
import { followBackward, followForward } from '../support/listings.ts';
import { buildWorld } from '../support/world.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

/** A user whose email is at a domain of its own (for organizationsForEmailDomain). */
const buildUserAt = (domain: string, name = 'user'): Promise<TestUser> =>
  buildUserWithEmail(t.database, `${name}-${unique()}@${domain}`, `${name} ${unique()}`);

/** A viewer in `count` organizations created one day apart (oldest first), as `role`. */
async function viewerIn(count: number, role: 'admin' | 'read' | null = 'read') {
  const viewer = await buildUser(t.database, 'viewer');
  const organizationIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const organization = await buildOrganization(t.database);
    await t.database.db.organization.update({
      where: { id: organization.id },
      data: { createdAt: new Date(Date.UTC(2021, 0, 1 + i)) },
    });
    await addMember(t.database, organization.id, viewer, role);
    organizationIds.push(organization.id);
  }
  return { viewer, organizationIds };
}

const VIEWER_ORGANIZATIONS = `
  query($first: Int, $after: String, $last: Int, $before: String) {
    viewer { organizations(first: $first, after: $after, last: $last, before: $before) { ${connectionOf('id title')} } }
  }`;

async function viewerOrganizations(viewer: TestUser, args: Record<string, unknown>): Promise<Connection> {
  return expectData(await t.graphql(viewer.token, VIEWER_ORGANIZATIONS, args)).viewer.organizations;
}

describe('query viewer', () => {
  it('is the user behind the token and the organizations it belongs to, oldest first', async () => {
    const { viewer, organizationIds } = await viewerIn(3);
    // Neither an organization the viewer is disabled in nor one it does not belong to is listed.
    const disabled = await buildOrganization(t.database);
    await addMember(t.database, disabled.id, viewer, 'admin');
    await t.database.db.member.update({
      where: { organizationId_userId: { organizationId: disabled.id, userId: viewer.id } },
      data: { disabled: true },
    });
    await buildTeam(t.database);

    const data = expectData(
      await t.graphql(viewer.token, `{ viewer { user { ${USER_FIELDS} } organizations { ${connectionOf('id title permissions { view admin }')} } } }`),
    );
    const rest = (await t.call('GET', '/v1/user', { token: viewer.token })).json();
    expect(data.viewer.user).toEqual({ ...rest, photoURL: null });
    expect(data.viewer.user).toMatchObject({ id: viewer.id, email: viewer.email, object: 'user' });
    const organizations = data.viewer.organizations;
    expect(nodeIds(organizations)).toEqual(organizationIds);
    expect(organizations.totalCount).toBe(3);
    expect(organizations.pageInfo).toEqual({
      hasNextPage: false,
      hasPreviousPage: false,
      startCursor: organizations.edges[0].cursor,
      endCursor: organizations.edges[2].cursor,
    });
    expect(organizations.edges[0].node.permissions).toEqual({ view: true, admin: false });
  });

  it('pages organizations forward with first/after and backward with last/before', async () => {
    const { viewer, organizationIds } = await viewerIn(5);

    const first = await viewerOrganizations(viewer, { first: 2 });
    expect(nodeIds(first)).toEqual(organizationIds.slice(0, 2));
    expect(first.totalCount).toBe(5);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false, endCursor: first.edges[1]!.cursor });

    const second = await viewerOrganizations(viewer, { first: 2, after: first.pageInfo.endCursor });
    expect(nodeIds(second)).toEqual(organizationIds.slice(2, 4));
    expect(second.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    expect(second.totalCount).toBe(5);

    // Every edge cursor continues right after its edge.
    const fromEdge = await viewerOrganizations(viewer, { first: 10, after: first.edges[0]!.cursor });
    expect(nodeIds(fromEdge)).toEqual(organizationIds.slice(1));

    const forward = await followForward((after) => viewerOrganizations(viewer, { first: 2, after }));
    expect(forward.map(nodeIds)).toEqual([organizationIds.slice(0, 2), organizationIds.slice(2, 4), organizationIds.slice(4)]);
    expect(forward.at(-1)!.pageInfo.hasNextPage).toBe(false);

    const last = await viewerOrganizations(viewer, { last: 2 });
    expect(nodeIds(last)).toEqual(organizationIds.slice(3));
    expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true, startCursor: last.edges[0]!.cursor });
    expect(last.totalCount).toBe(5);

    const before = await viewerOrganizations(viewer, { last: 2, before: last.pageInfo.startCursor });
    expect(nodeIds(before)).toEqual(organizationIds.slice(1, 3));
    expect(before.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });

    const backward = await followBackward((cursor) => viewerOrganizations(viewer, { last: 2, before: cursor }));
    expect(backward.map(nodeIds)).toEqual([organizationIds.slice(3), organizationIds.slice(1, 3), organizationIds.slice(0, 1)]);

    const empty = await viewerOrganizations(viewer, { first: 0 });
    expect(empty.edges).toEqual([]);
    expect(empty.totalCount).toBe(5);
    expect(empty.pageInfo).toMatchObject({ startCursor: null, endCursor: null });
  });

  it('rejects bad paging arguments with a 400 naming the argument', async () => {
    const { viewer } = await viewerIn(2);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ first: -1 }, /^first: /],
      [{ first: 1001 }, /^first: must be at most 1000/],
      [{ last: -5 }, /^last: /],
      [{ first: 1, last: 1 }, /^last: cannot be combined with first/],
      [{ after: 'not-a-token' }, /^after: is not a page token/],
      [{ last: 1, before: 'not-a-token' }, /^before: is not a page token/],
    ];
    const answers: GraphQLResult[] = [];
    for (const [args] of cases) answers.push(await t.graphql(viewer.token, VIEWER_ORGANIZATIONS, args));
    expect(answers.map((answer) => answer.errors?.map((error) => error.extensions?.code))).toEqual(cases.map(() => [400]));
    cases.forEach(([args, message], index) => expect(answers[index]!.errors![0]!.message, JSON.stringify(args)).toMatch(message));
  });

  it('is a 401 without a token', async () => {
    await expectUnauthenticated(t, '{ viewer { user { id } organizations { totalCount } } }');
  });
});

describe('query user', () => {
  it('is the authenticated user, as GET /v1/user', async () => {
    const user = await buildUser(t.database, 'someone');
    const data = expectData(await t.graphql(user.token, `{ user { ${USER_FIELDS} } }`));
    const rest = (await t.call('GET', '/v1/user', { token: user.token })).json();
    expect(data.user).toEqual({ ...rest, photoURL: rest.photoURL ?? null });
    expect(data.user.id).toBe(user.id);
    expect(data.user.urls.location).toBe(`http://docs-gateway.test/v1/users/${user.id}`);
  });

  it('loads as a node for users sharing an organization, and is a 404 otherwise', async () => {
    const { admin, member } = await buildTeam(t.database);
    const colleague = await member('read');
    const stranger = await buildUser(t.database, 'stranger');
    const query = `query($id: ID!) { node(id: $id) { __typename id ... on User { displayName email } } }`;
    const found = expectData(await t.graphql(admin.token, query, { id: colleague.id }));
    expect(found.node).toMatchObject({ __typename: 'User', id: colleague.id, email: colleague.email });
    const hidden = await t.graphql(admin.token, query, { id: stranger.id });
    expectGraphQLError(hidden, 404, `User "${stranger.id}" was not found`);
    expect(hidden.data).toEqual({ node: null });
  });

  it('is a 401 without a token', async () => {
    await expectUnauthenticated(t, '{ user { id } }');
  });
});

describe('query organization', () => {
  it('has every field of the organization, with the viewer permissions', async () => {
    const { organizationId, admin, member } = await buildWorld(t);
    await t.database.db.organization.update({
      where: { id: organizationId },
      data: { hostname: `acme-${unique()}`, logo: 'https://example.test/logo.png', emailDomains: { create: [{ domain: 'b.test' }, { domain: 'a.test' }] } },
    });
    const row = (await t.database.db.organization.findUnique({ where: { id: organizationId } }))!;
    const query = `query($id: ID!) { organization(id: $id) { ${ORGANIZATION_FIELDS} } }`;
    const data = expectData(await t.graphql(admin.token, query, { id: organizationId }));
    expect(data.organization).toEqual({
      id: organizationId,
      object: 'organization',
      title: row.title,
      createdAt: row.createdAt.toISOString(),
      emailDomains: ['a.test', 'b.test'],
      hostname: row.hostname,
      type: 'business',
      useCase: null,
      communityType: null,
      defaultRole: null,
      defaultContent: null,
      sso: false,
      ai: false,
      inviteLinks: true,
      plan: 'free',
      mergeRules: { type: 'none' },
      urls: {
        location: `http://docs-gateway.test/v1/orgs/${organizationId}`,
        app: `http://app.docs-gateway.test/o/${organizationId}`,
        logo: 'https://example.test/logo.png',
      },
      trial: { status: 'notapplicable', count: 0, endDate: null, decision: null },
      internal_isOnNewTrial: true,
      permissions: {
        view: true,
        access: true,
        admin: true,
        ownTeam: true,
        createContent: true,
        createOpenAPISpec: true,
        viewBilling: true,
        listMembers: true,
        listTeams: true,
        listIntegrations: true,
        listInstallations: true,
        installIntegration: true,
      },
    });

    const permissions = `query($id: ID!) { organization(id: $id) { permissions { view access admin createContent listMembers } } }`;
    const reader = await member('read');
    expect(expectData(await t.graphql(reader.token, permissions, { id: organizationId })).organization.permissions).toEqual({
      view: true,
      access: true,
      admin: false,
      createContent: false,
      listMembers: true,
    });
    const guest = await member(null);
    expect(expectData(await t.graphql(guest.token, permissions, { id: organizationId })).organization.permissions).toEqual({
      view: true,
      access: false,
      admin: false,
      createContent: false,
      listMembers: false,
    });
  });

  it('is a 404 for a stranger, a disabled member and an unknown id', async () => {
    const { organizationId, member } = await buildWorld(t);
    const stranger = await buildUser(t.database, 'stranger');
    const disabled = await member('admin');
    await t.database.db.member.update({
      where: { organizationId_userId: { organizationId, userId: disabled.id } },
      data: { disabled: true },
    });
    const query = `query($id: ID!) { organization(id: $id) { id title } }`;
    for (const user of [stranger, disabled]) {
      const result = await t.graphql(user.token, query, { id: organizationId });
      expectGraphQLError(result, 404, `Organization "${organizationId}" was not found`);
      expect(result.data).toEqual({ organization: null });
      expect(result.errors![0]).toMatchObject({ path: ['organization'] });
    }
    expectGraphQLError(await t.graphql(stranger.token, query, { id: 'org_doesnotexist' }), 404, 'Organization "org_doesnotexist" was not found');
  });

  it('loads as a node, and nodes load in order with an error for each hidden one', async () => {
    const { organizationId, admin } = await buildWorld(t);
    const hidden = await buildOrganization(t.database);
    const node = `query($id: ID!) { node(id: $id) { __typename id ... on Organization { title } } }`;
    expect(expectData(await t.graphql(admin.token, node, { id: organizationId })).node).toMatchObject({
      __typename: 'Organization',
      id: organizationId,
    });
    const hiddenNode = await t.graphql(admin.token, node, { id: hidden.id });
    expectGraphQLError(hiddenNode, 404, `Organization "${hidden.id}" was not found`);
    expect(hiddenNode.data).toEqual({ node: null });
    // An id of no known kind is not found either.
    expectGraphQLError(await t.graphql(admin.token, node, { id: 'xyz_123' }), 404, 'Object "xyz_123" was not found');

    const nodes = await t.graphql(admin.token, `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`, {
      ids: [admin.id, hidden.id, organizationId],
    });
    expect(nodes.data.nodes).toEqual([{ __typename: 'User', id: admin.id }, null, { __typename: 'Organization', id: organizationId }]);
    expect(nodes.errors).toHaveLength(1);
    expect(nodes.errors![0]).toMatchObject({ path: ['nodes', 1], extensions: { code: 404 } });

    // An id of no known kind among them is one null entry with its error; the rest is answered.
    const unknown = await t.graphql(admin.token, `query($ids: [ID!]!) { nodes(ids: $ids) { __typename id } }`, { ids: ['xyz_123', organizationId] });
    expect(unknown.data).toEqual({ nodes: [null, { __typename: 'Organization', id: organizationId }] });
    expect(unknown.errors).toEqual([expect.objectContaining({ message: 'Object "xyz_123" was not found', path: ['nodes', 0], extensions: { code: 404 } })]);
  });

  it('is a 401 without a token', async () => {
    const { organizationId } = await buildWorld(t);
    await expectUnauthenticated(t, `query($id: ID!) { organization(id: $id) { id } }`, { id: organizationId });
    await expectUnauthenticated(t, `query($id: ID!) { node(id: $id) { id } }`, { id: organizationId });
    await expectUnauthenticated(t, `query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: [organizationId] });
  });
});

describe('query organizationsForEmailDomain', () => {
  const query = `query($domain: String!) { organizationsForEmailDomain(emailDomain: $domain) { id title permissions { view } } }`;

  it("lists every organization of the viewer's own domain, and only the viewer's for another domain", async () => {
    const domain = `d${unique()}.test`;
    const viewer = await buildUserAt(domain, 'viewer');
    const own = await buildOrganization(t.database);
    const joinable = await buildOrganization(t.database);
    for (const organization of [own, joinable]) {
      await t.database.db.organizationEmailDomain.create({ data: { organizationId: organization.id, domain } });
    }
    await addMember(t.database, own.id, viewer, 'read');

    const mine = expectData(await t.graphql(viewer.token, query, { domain: domain.toUpperCase() }));
    expect(mine.organizationsForEmailDomain.map((org: { id: string }) => org.id).sort()).toEqual([own.id, joinable.id].sort());
    const permissionsById = Object.fromEntries(
      mine.organizationsForEmailDomain.map((org: { id: string; permissions: { view: boolean } }) => [org.id, org.permissions.view]),
    );
    expect(permissionsById).toEqual({ [own.id]: true, [joinable.id]: false });

    // Another user, of another domain, sees only the organizations it belongs to.
    const outsider = await buildUserAt(`o${unique()}.test`, 'outsider');
    expect(expectData(await t.graphql(outsider.token, query, { domain })).organizationsForEmailDomain).toEqual([]);
    await addMember(t.database, joinable.id, outsider, 'read');
    expect(expectData(await t.graphql(outsider.token, query, { domain })).organizationsForEmailDomain.map((org: { id: string }) => org.id)).toEqual([
      joinable.id,
    ]);
  });

  it('is a 400 naming emailDomain for something that is not a domain', async () => {
    const viewer = await buildUser(t.database);
    const result = await t.graphql(viewer.token, query, { domain: 'not a domain' });
    expectGraphQLError(result, 400, /^emailDomain: must be a domain name/);
    expect(result.data).toBeNull();
  });

  it('is a 401 without a token', async () => {
    await expectUnauthenticated(t, query, { domain: 'example.test' });
  });
});

describe('mutation updateOrganization', () => {
  const selection = `organization { ${ORGANIZATION_FIELDS} }`;

  it('updates the organization and answers it', async () => {
    const { organizationId, admin } = await buildWorld(t);
    const hostname = `docs-${unique()}`;
    const mergeRules = { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }] };
    const result = await mutate(
      t,
      admin.token,
      'updateOrganization',
      {
        organizationId,
        title: 'Renamed organization',
        emailDomains: ['Example.ORG', 'b.example.org', 'example.org'],
        hostname,
        defaultRole: 'edit',
        sso: true,
        ai: true,
        inviteLinks: false,
        logo: 'https://example.test/new-logo.png',
        mergeRules,
      },
      selection,
    );
    const organization = expectData(result).updateOrganization.organization;
    expect(organization).toMatchObject({
      id: organizationId,
      title: 'Renamed organization',
      emailDomains: ['b.example.org', 'example.org'],
      hostname,
      defaultRole: 'edit',
      sso: true,
      ai: true,
      inviteLinks: false,
      mergeRules,
      urls: { logo: 'https://example.test/new-logo.png' },
    });
    const row = await t.database.db.organization.findUnique({ where: { id: organizationId }, include: { emailDomains: true } });
    expect(row).toMatchObject({
      title: 'Renamed organization',
      hostname,
      defaultRole: 'edit',
      sso: true,
      ai: true,
      inviteLinks: false,
      logo: 'https://example.test/new-logo.png',
      mergeRules,
    });
    expect(row!.emailDomains.map((entry) => entry.domain).sort()).toEqual(['b.example.org', 'example.org']);

    // null makes new members guests; absent fields keep their values.
    const guests = await mutate(t, admin.token, 'updateOrganization', { organizationId, defaultRole: null }, 'organization { defaultRole title hostname }');
    expect(expectData(guests).updateOrganization.organization).toEqual({ defaultRole: null, title: 'Renamed organization', hostname });
    expect(await t.database.db.organization.findUnique({ where: { id: organizationId } })).toMatchObject({
      defaultRole: null,
      title: 'Renamed organization',
    });
  });

  it('rejects invalid input with a 400 naming the field, and changes nothing', async () => {
    const { organizationId, admin } = await buildWorld(t);
    const before = await t.database.db.organization.findUnique({ where: { id: organizationId } });
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ hostname: 'Not_A_Host' }, /^hostname: must be lowercase letters/],
      [{ title: ' padded ' }, /^title: must not start or end with whitespace/],
      [{ title: 'x' }, /^title: /],
      [{ emailDomains: ['not a domain'] }, /^emailDomains\.0: must be a domain name/],
      [{ logo: 'not-a-url' }, /^logo: must be an absolute URL/],
      [{ mergeRules: { type: 'sometimes' } }, /^mergeRules/],
      [{ defaultContent: { type: 'site', site: 'site_missing' } }, /^defaultContent\.site: site "site_missing" does not exist/],
    ];
    for (const [input, message] of cases) {
      const result = await mutate(t, admin.token, 'updateOrganization', { organizationId, ...input }, 'organization { id }');
      expectGraphQLError(result, 400, message);
      expect(result.data).toBeNull();
    }
    expect(await t.database.db.organization.findUnique({ where: { id: organizationId } })).toEqual(before);
  });

  it('is a 409 for a hostname another organization uses', async () => {
    const first = await buildWorld(t);
    const second = await buildWorld(t);
    const hostname = `taken-${unique()}`;
    expectData(await mutate(t, first.admin.token, 'updateOrganization', { organizationId: first.organizationId, hostname }, 'organization { id }'));
    const result = await mutate(t, second.admin.token, 'updateOrganization', { organizationId: second.organizationId, hostname }, 'organization { id }');
    expectGraphQLError(result, 409, /hostname/);
    expect((await t.database.db.organization.findUnique({ where: { id: second.organizationId } }))!.hostname).toBeNull();
  });

  it('is a 403 for members who are not admins, and a 404 for strangers', async () => {
    const { organizationId, member } = await buildWorld(t);
    const before = await t.database.db.organization.findUnique({ where: { id: organizationId } });
    for (const role of ['create', 'read', null] as const) {
      const user = await member(role);
      const result = await mutate(t, user.token, 'updateOrganization', { organizationId, title: 'Taken over' }, 'organization { id }');
      expectGraphQLError(result, 403, 'You are not allowed to update this organization');
      expect(result.data).toBeNull();
    }
    const stranger = await buildUser(t.database, 'stranger');
    const hidden = await mutate(t, stranger.token, 'updateOrganization', { organizationId, title: 'Taken over' }, 'organization { id }');
    expectGraphQLError(hidden, 404, `Organization "${organizationId}" was not found`);
    expect(await t.database.db.organization.findUnique({ where: { id: organizationId } })).toEqual(before);
  });

  it('is a 401 without a token', async () => {
    const { organizationId } = await buildWorld(t);
    await expectUnauthenticated(t, 'mutation($input: UpdateOrganizationInput!) { updateOrganization(input: $input) { organization { id } } }', {
      input: { organizationId, title: 'Anonymous' },
    });
    expect((await t.database.db.organization.findUnique({ where: { id: organizationId } }))!.title).not.toBe('Anonymous');
  });
});

describe('GraphQL request errors', () => {
  it('are 400s naming the argument or field (missing argument, unknown field, unknown enum value)', async () => {
    const { organizationId, admin } = await buildWorld(t);
    const cases: Array<[string, RegExp]> = [
      ['{ organization { id } }', /"id"/],
      [`{ organization(id: "${organizationId}") { nope } }`, /"nope"/],
      [`mutation { updateOrganization(input: { organizationId: "${organizationId}", color: "red" }) { organization { id } } }`, /"color"/],
      [`mutation { updateOrganization(input: { organizationId: "${organizationId}", defaultRole: owner }) { organization { id } } }`, /"owner"/],
      [`{ organizationsForEmailDomain { id } }`, /"emailDomain"/],
      ['{ node { id } }', /"id"/],
      ['{ nodes { id } }', /"ids"/],
    ];
    const answers: GraphQLResult[] = [];
    for (const [query] of cases) answers.push(await t.graphql(admin.token, query));
    expect(answers.map((answer) => answer.errors?.map((error) => error.extensions?.code))).toEqual(cases.map(() => [400]));
    cases.forEach(([query, message], index) => expect(answers[index]!.errors![0]!.message, query).toMatch(message));
    expect((await t.database.db.organization.findUnique({ where: { id: organizationId } }))!.defaultRole).toBeNull();
  });
});
