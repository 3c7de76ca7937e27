import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../support/app.ts';
import { TEST_IDP_CERTIFICATE } from '../support/certificates.ts';
import { buildTeam, buildUser } from '../support/factories.ts';
import { expectData, expectGraphQLError, mutate } from '../support/graphql.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const PROVIDER_FIELDS =
  'id object label ssoURL entityID certificate defaultRole createdAt status service { acsURL startURL entityID } urls { location } defaultTeam { id object title members spaces createdAt permissions { admin view } }';
const complete = { ssoURL: 'https://idp.example.test/sso', entityID: 'https://idp.example.test/metadata', certificate: TEST_IDP_CERTIFICATE };

async function setup() {
  const org = await buildTeam(t.database);
  const organizationId = org.organization.id;
  const rest = async (method: string, url: string, body?: unknown, token = org.admin.token) => {
    const response = await t.call(method, url, { token, ...(body !== undefined ? { body } : {}) });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.statusCode === 204 || response.statusCode === 205 ? undefined : response.json();
  };
  const team = await rest('PUT', `/v1/orgs/${organizationId}/teams`, { title: 'Signed in' });
  return { ...org, organizationId, rest, team };
}

async function run(token: string, name: string, input: Record<string, unknown>, selection: string) {
  return expectData(await mutate(t, token, name, input, selection))[name];
}

/** A REST provider as GraphQL answers it: what REST leaves out until set is null there. */
const asGraphQL = (provider: any) => ({
  ...provider,
  ssoURL: provider.ssoURL ?? null,
  entityID: provider.entityID ?? null,
  certificate: provider.certificate ?? null,
  defaultTeam: provider.defaultTeam ?? null,
});

describe('SAML providers over GraphQL', () => {
  it('answers Organization.samlProviders, ssoProviders and node(id:) as REST does', async () => {
    const { organizationId, admin, rest, team, member } = await setup();
    const okta = await rest('POST', `/v1/orgs/${organizationId}/saml`, { label: 'Okta', ...complete, defaultTeam: team.id, defaultRole: 'edit' });
    await rest('POST', `/v1/orgs/${organizationId}/saml`, { label: 'Pending' });
    const restList = (await rest('GET', `/v1/orgs/${organizationId}/saml`)).items;
    const data = expectData(
      await t.graphql(
        admin.token,
        `query($org: ID!, $id: ID!) {
          organization(id: $org) { samlProviders(first: 10) { totalCount edges { node { ${PROVIDER_FIELDS} } } } ssoProviders { id label startURL } }
          node(id: $id) { ... on SamlProvider { label organization { id } } }
          ssoProviders(organizationId: $org) { id label startURL }
        }`,
        { org: organizationId, id: okta.id },
      ),
    );
    expect(data.organization.samlProviders.totalCount).toBe(2);
    expect(data.organization.samlProviders.edges.map((edge: any) => edge.node)).toEqual(restList.map(asGraphQL));
    const logins = (await rest('GET', `/v1/orgs/${organizationId}/sso`)).items;
    expect(data.organization.ssoProviders).toEqual(logins);
    expect(data.ssoProviders).toEqual(logins);
    expect(data.node).toEqual({ label: 'Okta', organization: { id: organizationId } });

    // Members who are not admins: 403; anyone authenticated reads the sign-in information.
    const reader = await member('read');
    expectGraphQLError(await t.graphql(reader.token, 'query($id: ID!) { node(id: $id) { id } }', { id: okta.id }), 403);
    expectGraphQLError(
      await t.graphql(reader.token, 'query($org: ID!) { organization(id: $org) { samlProviders(first: 1) { totalCount } } }', { org: organizationId }),
      403,
    );
    const outsider = await buildUser(t.database, 'outsider');
    expect(
      expectData(await t.graphql(outsider.token, 'query($org: ID!) { ssoProviders(organizationId: $org) { id } }', { org: organizationId })).ssoProviders,
    ).toEqual([{ id: okta.id }]);
    expectGraphQLError(await t.graphql(outsider.token, 'query($id: ID!) { node(id: $id) { id } }', { id: okta.id }), 404);
  });

  it('creates, updates and deletes a provider through mutations by its global id, with the REST rules', async () => {
    const { organizationId, admin, team, rest, member } = await setup();
    const created = await run(
      admin.token,
      'createSamlProvider',
      { organizationId, label: 'Okta', defaultTeamId: team.id },
      `samlProvider { ${PROVIDER_FIELDS} }`,
    );
    const id = created.samlProvider.id as string;
    expect(created.samlProvider).toMatchObject({
      object: 'saml-provider',
      label: 'Okta',
      status: 'pending',
      ssoURL: null,
      defaultRole: null,
      defaultTeam: { id: team.id },
    });
    expect(created.samlProvider).toEqual(asGraphQL(await rest('GET', `/v1/orgs/${organizationId}/saml/${id}`)));

    const updated = await run(
      admin.token,
      'updateSamlProvider',
      { samlProviderId: id, ...complete, defaultRole: 'read', defaultTeamId: null },
      'samlProvider { status defaultRole defaultTeam { id } }',
    );
    expect(updated.samlProvider).toEqual({ status: 'active', defaultRole: 'read', defaultTeam: null });

    const other = await setup();
    const bad = (input: Record<string, unknown>, token = admin.token) =>
      t.graphql(token, 'mutation($input: UpdateSamlProviderInput!) { updateSamlProvider(input: $input) { samlProvider { id } } }', {
        input: { samlProviderId: id, ...input },
      });
    expectGraphQLError(await bad({ certificate: 'garbage' }), 400, /^certificate: must be an X\.509 certificate/);
    expectGraphQLError(await bad({ defaultTeamId: other.team.id }), 400, `defaultTeam: no team "${other.team.id}" in this organization`);
    expectGraphQLError(await bad({ label: 'x'.repeat(31) }), 400, /^label: /);
    expectGraphQLError(await bad({ label: 'Mine' }, (await member('create')).token), 403);
    expectGraphQLError(await bad({ label: 'Mine' }, other.admin.token), 404);
    expect(await t.database.db.samlProvider.findUniqueOrThrow({ where: { id } })).toMatchObject({ label: 'Okta', defaultRole: 'read', defaultTeamId: null });

    expect((await run(admin.token, 'deleteSamlProvider', { samlProviderId: id }, 'deletedSamlProviderId')).deletedSamlProviderId).toBe(id);
    expect(await t.database.db.samlProvider.count({ where: { id } })).toBe(0);
  });
});

describe('invites over GraphQL', () => {
  it('answers Organization.invites and node(id:) as REST does, with `redundant` for the viewer', async () => {
    const { organizationId, admin, rest } = await setup();
    const edit = await rest('POST', `/v1/orgs/${organizationId}/link-invites`, { role: 'edit' });
    await rest('POST', `/v1/orgs/${organizationId}/link-invites`, { role: null });
    const data = expectData(
      await t.graphql(
        admin.token,
        'query($org: ID!) { organization(id: $org) { invites(first: 10) { totalCount edges { node { id object role redundant } } } } }',
        {
          org: organizationId,
        },
      ),
    );
    expect(data.organization.invites.totalCount).toBe(2);
    expect(data.organization.invites.edges.map((edge: any) => edge.node)).toEqual((await rest('GET', `/v1/orgs/${organizationId}/link-invites`)).items);
    const outsider = await buildUser(t.database, 'outsider');
    const seen = expectData(
      await t.graphql(outsider.token, 'query($id: ID!) { node(id: $id) { ... on Invite { id role redundant email organization } } }', { id: edit.id }),
    );
    expect(seen.node).toEqual({ id: edit.id, role: 'edit', redundant: false, email: null, organization: organizationId });
  });

  it('creates, changes, deletes invites, invites by email and joins through mutations', async () => {
    const { organizationId, admin, member } = await setup();
    const created = await run(admin.token, 'createInvite', { organizationId, role: 'comment' }, 'invite { id role redundant }');
    const inviteId = created.invite.id as string;
    expect(created.invite).toEqual({ id: inviteId, role: 'comment', redundant: true });
    expect((await run(admin.token, 'updateInvite', { inviteId, role: 'review' }, 'invite { role }')).invite.role).toBe('review');

    const newcomer = await buildUser(t.database, 'newcomer');
    const joined = await run(newcomer.token, 'joinOrganization', { inviteId }, 'organization { id permissions { view } }');
    expect(joined.organization).toEqual({ id: organizationId, permissions: { view: true } });
    expect(await t.database.db.member.findUniqueOrThrow({ where: { organizationId_userId: { organizationId, userId: newcomer.id } } })).toMatchObject({
      role: 'review',
    });

    const invited = await run(
      admin.token,
      'inviteUsers',
      { organizationId, emails: [`x-${Date.now()}@example.test`], invitations: [{ email: newcomer.email, role: 'admin' }], role: 'read' },
      'invited alreadyMembers invites { id role email }',
    );
    expect(invited).toMatchObject({ invited: 1, alreadyMembers: [newcomer.email] });
    expect(invited.invites[0]).toMatchObject({ role: 'read', email: expect.stringMatching(/^x-/) });

    const reader = await member('read');
    expectGraphQLError(await mutate(t, reader.token, 'createInvite', { organizationId, role: 'admin' }, 'invite { id }'), 403);
    expectGraphQLError(await mutate(t, admin.token, 'inviteUsers', { organizationId, emails: ['nope'] }, 'invited'), 400, /^emails\.0: /);
    expectGraphQLError(await mutate(t, newcomer.token, 'joinOrganization', { inviteId: 'inv_unknown' }, 'organization { id }'), 404);
    expectGraphQLError(await mutate(t, newcomer.token, 'joinOrganization', { inviteId: invited.invites[0].id }, 'organization { id }'), 403);

    expect((await run(admin.token, 'deleteInvite', { inviteId }, 'deletedInviteId')).deletedInviteId).toBe(inviteId);
    expect(await t.database.db.invite.count({ where: { id: inviteId } })).toBe(0);
  });
});
