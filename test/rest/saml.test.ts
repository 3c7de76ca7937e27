import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, TEST_URLS, createTestApp } from '../support/app.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { TEST_IDP_CERTIFICATE } from '../support/certificates.ts';
import { buildTeam, buildUser } from '../support/factories.ts';
import { expectError } from '../support/http.ts';
import { type OfficialClient, expectOfficialError, officialClient } from '../support/official.ts';

let t: TestApp;
let official: OfficialClient;
beforeAll(async () => {
  t = await createTestApp();
  official = await officialClient(t);
});

const PROVIDERS = '/v1/orgs/{organizationId}/saml';
const PROVIDER = '/v1/orgs/{organizationId}/saml/{samlProviderId}';
const SSO = '/v1/orgs/{organizationId}/sso';

/** An organization with its admin, a team, and REST helpers for its SAML providers. */
async function setup() {
  const org = await buildTeam(t.database);
  const organizationId = org.organization.id;
  const base = `/v1/orgs/${organizationId}/saml`;
  const call = (method: string, url: string, token: string, body?: unknown) => t.call(method, url, { token, ...(body !== undefined ? { body } : {}) });
  const team = (await call('PUT', `/v1/orgs/${organizationId}/teams`, org.admin.token, { title: 'Signed in' })).json();
  const create = async (body: Record<string, unknown>) => {
    const response = await call('POST', base, org.admin.token, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  const count = () => t.database.db.samlProvider.count({ where: { organizationId } });
  return { ...org, organizationId, base, call, team, create, count };
}

const complete = { ssoURL: 'https://idp.example.test/sso', entityID: 'https://idp.example.test/metadata', certificate: TEST_IDP_CERTIFICATE };

describe('SAML providers', () => {
  it('creates a complete provider with its team and role, and generates its service provider addresses', async () => {
    const { organizationId, admin, team } = await setup();
    const { data: created, headers } = await official(admin).orgs.createOrganizationSamlProvider(organizationId, {
      label: 'Okta',
      ...complete,
      defaultTeam: team.id,
      defaultRole: 'edit' as never,
    });
    expectMatchesSchema('POST', PROVIDERS, 201, created);
    const base = `${TEST_URLS.api}/v1/orgs/${organizationId}/saml/${created.id}`;
    expect(created).toEqual({
      object: 'saml-provider',
      id: expect.stringMatching(/^saml_/),
      label: 'Okta',
      ...complete,
      defaultTeam: { ...team, permissions: { admin: true, view: true } },
      defaultRole: 'edit',
      createdAt: expect.any(String),
      status: 'active',
      service: { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: base },
      urls: { location: base },
    });
    expect(headers.get('location')).toBe(base);
    const { data: read } = await official(admin).orgs.getOrganizationSamlProviderById(organizationId, created.id);
    expectMatchesSchema('GET', PROVIDER, 200, read);
    expect(read).toEqual(created);
    expect(await t.database.db.samlProvider.findUniqueOrThrow({ where: { id: created.id } })).toMatchObject({
      organizationId,
      label: 'Okta',
      defaultTeamId: team.id,
      defaultRole: 'edit',
      certificate: TEST_IDP_CERTIFICATE,
    });
  });

  it('starts pending with a label only, a guest role and no team, and becomes active once configured', async () => {
    const { organizationId, admin, base, call, create, team } = await setup();
    const created = await create({ label: 'Later' });
    expect(created).toMatchObject({ label: 'Later', status: 'pending', defaultRole: null });
    // Not set yet: absent (an empty string is no URI), in the answer and in the listing.
    expect(created).not.toHaveProperty('ssoURL');
    expect(created).not.toHaveProperty('entityID');
    expect(created).not.toHaveProperty('certificate');
    expectMatchesSchema('POST', PROVIDERS, 201, created);
    const listed = (await call('GET', base, admin.token)).json();
    expect(listed.items).toEqual([created]);
    expectMatchesSchema('GET', PROVIDERS, 200, listed);
    expect(created.defaultTeam).toBeUndefined();
    const url = `${base}/${created.id}`;
    const partial = await call('PATCH', url, admin.token, { ssoURL: complete.ssoURL, entityID: complete.entityID });
    expect(partial.statusCode, partial.body).toBe(200);
    expect(partial.json()).toMatchObject({ status: 'pending', label: 'Later', ssoURL: complete.ssoURL });
    const { data: active } = await official(admin).orgs.updateOrganizationSamlProvider(organizationId, created.id, {
      certificate: `\n${TEST_IDP_CERTIFICATE}\n`,
      defaultTeam: team.id,
      defaultRole: 'read' as never,
    });
    expectMatchesSchema('PATCH', PROVIDER, 200, active);
    expect(active).toMatchObject({ status: 'active', certificate: TEST_IDP_CERTIFICATE, defaultRole: 'read', defaultTeam: { id: team.id } });
    // Clearing the team, back to guests.
    const cleared = (await call('PATCH', url, admin.token, { defaultTeam: null, defaultRole: null })).json();
    expect(cleared.defaultTeam).toBeUndefined();
    expect(cleared.defaultRole).toBeNull();
    // Deleting the team clears it too.
    await call('PATCH', url, admin.token, { defaultTeam: team.id });
    expect((await call('DELETE', `/v1/orgs/${organizationId}/teams/${team.id}`, admin.token)).statusCode).toBe(204);
    expect((await call('GET', url, admin.token)).json().defaultTeam).toBeUndefined();
  });

  it('lists providers oldest first, page by page', async () => {
    const { organizationId, admin, create, call, base } = await setup();
    const ids = [];
    for (const label of ['One', 'Two', 'Three']) ids.push((await create({ label, ...complete })).id);
    const { data } = await official(admin).orgs.listSamlProvidersInOrganizationById(organizationId);
    expectMatchesSchema('GET', PROVIDERS, 200, data);
    expect(data.items.map((item) => item.id)).toEqual(ids);
    expect(data.count).toBe(3);
    const first = (await call('GET', `${base}?limit=2`, admin.token)).json();
    expect(first.items.map((item: { id: string }) => item.id)).toEqual(ids.slice(0, 2));
    const second = (await call('GET', `${base}?limit=2&page=${first.next.page}`, admin.token)).json();
    expect(second.items.map((item: { id: string }) => item.id)).toEqual(ids.slice(2));
    expect(second.next).toBeUndefined();
    expectError(await call('GET', `${base}?limit=1001`, admin.token), 400, /^limit: /);
  });

  it('refuses bad fields with a 400 naming the field, writing nothing', async () => {
    const { admin, base, call, count, create } = await setup();
    const other = await setup();
    const bad: Array<[Record<string, unknown>, RegExp | string]> = [
      [{}, 'label: is required'],
      [{ label: '' }, /^label: /],
      [{ label: 'x'.repeat(31) }, /^label: /],
      [{ label: 'IdP', ssoURL: 'not a url' }, /^ssoURL: /],
      [{ label: 'IdP', ssoURL: 'javascript:alert(1)' }, /^ssoURL: /],
      [{ label: 'IdP', ssoURL: `https://idp.example.test/${'a'.repeat(2048)}` }, /^ssoURL: /],
      [{ label: 'IdP', entityID: 'e'.repeat(1025) }, /^entityID: /],
      [{ label: 'IdP', certificate: 'garbage' }, /^certificate: must be an X\.509 certificate/],
      [{ label: 'IdP', certificate: TEST_IDP_CERTIFICATE.slice(0, 600) }, /^certificate: must be an X\.509 certificate/],
      [{ label: 'IdP', certificate: TEST_IDP_CERTIFICATE.replace('MIID', 'MIIE') }, /^certificate: must be an X\.509 certificate/],
      [{ label: 'IdP', certificate: `${TEST_IDP_CERTIFICATE}\n`.repeat(10) }, /^certificate: /],
      [{ label: 'IdP', certificate: 'x'.repeat(10001) }, /^certificate: /],
      [{ label: 'IdP', defaultRole: 'owner' }, /^defaultRole: /],
      [{ label: 'IdP', defaultTeam: other.team.id }, `defaultTeam: no team "${other.team.id}" in this organization`],
      [{ label: 'IdP', defaultTeam: 'team_nope' }, 'defaultTeam: no team "team_nope" in this organization'],
      [{ label: 'IdP', color: 'red' }, 'body: unknown field "color"'],
    ];
    for (const [body, message] of bad) expectError(await call('POST', base, admin.token, body), 400, message);
    expect(await count()).toBe(0);

    const created = await create({ label: 'Kept', ...complete });
    const before = await t.database.db.samlProvider.findUniqueOrThrow({ where: { id: created.id } });
    for (const [body, message] of bad.slice(1)) expectError(await call('PATCH', `${base}/${created.id}`, admin.token, body), 400, message);
    expect(await t.database.db.samlProvider.findUniqueOrThrow({ where: { id: created.id } })).toEqual(before);
  });

  it('is managed by admins only: 403 for other members, 404 outside the organization, 401 without a token', async () => {
    const { organizationId, admin, member, base, call, create, count } = await setup();
    const created = await create({ label: 'Admins only' });
    const [reader, guest] = [await member('create'), await member(null)];
    const stranger = (await setup()).admin;
    const url = `${base}/${created.id}`;
    for (const user of [reader, guest]) {
      expectError(await call('GET', base, user.token), 403);
      expectError(await call('GET', url, user.token), 403);
      expectError(await call('POST', base, user.token, { label: 'Mine' }), 403);
      expectError(await call('PATCH', url, user.token, { label: 'Mine' }), 403);
      expectError(await call('DELETE', url, user.token), 403);
    }
    await expectOfficialError(official(stranger).orgs.getOrganizationSamlProviderById(organizationId, created.id), 404);
    expectError(await call('GET', base, stranger.token), 404);
    expectError(await t.call('GET', url), 401);
    // A provider of another organization does not exist through this one.
    const elsewhere = await setup();
    const foreign = await elsewhere.create({ label: 'Foreign' });
    expectError(await call('GET', `${base}/${foreign.id}`, admin.token), 404);
    expectError(await call('PATCH', `${base}/${foreign.id}`, admin.token, { label: 'Taken' }), 404);
    expectError(await call('DELETE', `${base}/${foreign.id}`, admin.token), 404);
    expect(await elsewhere.count()).toBe(1);
    expect(await count()).toBe(1);
  });

  it('is deleted (204), then gone', async () => {
    const { organizationId, admin, base, call, create, count } = await setup();
    const created = await create({ label: 'Gone' });
    await official(admin).orgs.deleteOrganizationSamlProvider(organizationId, created.id);
    expect(await count()).toBe(0);
    expectError(await call('GET', `${base}/${created.id}`, admin.token), 404);
    expectError(await call('DELETE', `${base}/${created.id}`, admin.token), 404);
  });
});

describe('GET /v1/orgs/{organizationId}/sso', () => {
  it('lists the active providers with their start URL to any authenticated caller, without paging fields', async () => {
    const { organizationId, admin, member, create } = await setup();
    const okta = await create({ label: 'Okta', ...complete });
    await create({ label: 'Pending' });
    const azure = await create({ label: 'Azure', ...complete });
    const outsider = await buildUser(t.database, 'outsider');
    const expected = {
      items: [okta, azure].map((provider) => ({ id: provider.id, label: provider.label, startURL: provider.service.startURL })),
    };
    for (const user of [admin, await member('read'), await member(null), outsider]) {
      const { data } = await official(user).orgs.listSsoProviderLoginsInOrganization(organizationId);
      expectMatchesSchema('GET', SSO, 200, data);
      expect(data).toEqual(expected);
    }
    // A change in the organization reaches a non-member's next read (its cached answer is not served).
    const later = await create({ label: 'Later', ...complete });
    expect((await t.call('GET', `/v1/orgs/${organizationId}/sso`, { token: outsider.token })).json().items.map((item: { id: string }) => item.id)).toEqual([
      okta.id,
      azure.id,
      later.id,
    ]);
    expectError(await t.call('GET', `/v1/orgs/${organizationId}/sso`), 401);
    expectError(await t.call('GET', '/v1/orgs/org_nope/sso', { token: outsider.token }), 404);
  });
});
