import { MemberRole } from '@gitbook/api';
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_URLS, createTestApp, type TestApp } from '../support/app.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { addMember, buildOrganization, buildTeam, buildUser, buildUserWithEmail, unique } from '../support/factories.ts';
import { expectError } from '../support/http.ts';
import { type OfficialClient, expectOfficialError, officialClient } from '../support/official.ts';

let t: TestApp;
let official: OfficialClient;
beforeAll(async () => {
  t = await createTestApp();
  official = await officialClient(t);
});

/** A fresh email domain nobody else in the run uses. */
const freshDomain = (label = 'corp') => `${label}-${unique()}.test`;

/** Fixes an organization's creation time, so that listings have a known order. */
async function setCreatedAt(organizationId: string, iso: string) {
  await t.database.db.organization.update({ where: { id: organizationId }, data: { createdAt: new Date(iso) } });
}

/** Everything PATCH may change, to compare before and after a refused request. */
async function organizationState(organizationId: string) {
  const row = await t.database.db.organization.findUniqueOrThrow({ where: { id: organizationId } });
  const domains = await t.database.db.organizationEmailDomain.findMany({ where: { organizationId }, orderBy: { domain: 'asc' } });
  return { ...row, emailDomains: domains.map((entry) => entry.domain) };
}

describe('GET /v1/user', () => {
  it('returns the user behind the token, through the official client', async () => {
    const user = await buildUserWithEmail(t.database, `grace-${unique()}@example.test`, 'Grace Hopper');
    const response = await t.call('GET', '/v1/user', { token: user.token });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expectMatchesSchema('GET', '/v1/user', 200, body);
    expect(body).toEqual({
      object: 'user',
      id: user.id,
      displayName: 'Grace Hopper',
      email: user.email,
      urls: { location: `${TEST_URLS.api}/v1/users/${user.id}` },
    });
    const { data } = await official(user).user.getAuthenticatedUser();
    expect(data).toEqual(body);
    const row = await t.database.db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row).toMatchObject({ email: user.email, displayName: 'Grace Hopper' });
  });

  it('is a 401 without a token or with an unknown one', async () => {
    const missing = await t.call('GET', '/v1/user');
    expectError(missing, 401);
    const unknown = await t.call('GET', '/v1/user', { token: 'dgw_not_a_real_token' });
    expectError(unknown, 401);
    const malformed = await t.call('GET', '/v1/user', { headers: { authorization: 'Basic abc' } });
    expectError(malformed, 401);
  });
});

describe('GET /v1/users/{userId}', () => {
  it('returns the caller itself and users of an organization whose members it may list', async () => {
    const { admin, member } = await buildTeam(t.database);
    const guest = await member(null);
    const self = await official(guest).users.getUserById(guest.id);
    expectMatchesSchema('GET', '/v1/users/{userId}', 200, self.data);
    expect(self.data).toMatchObject({ object: 'user', id: guest.id, email: guest.email });
    // A guest may not list the members, so reads none of them either (their emails included).
    expectError(await t.call('GET', `/v1/users/${admin.id}`, { token: guest.token }), 404, `User "${admin.id}" was not found`);
    expect((await t.call('GET', `/v1/users/${guest.id}`, { token: admin.token })).statusCode).toBe(200);

    const reader = await member('read');
    const colleague = await official(reader).users.getUserById(admin.id);
    expectMatchesSchema('GET', '/v1/users/{userId}', 200, colleague.data);
    const row = await t.database.db.user.findUniqueOrThrow({ where: { id: admin.id } });
    expect(colleague.data).toEqual({
      object: 'user',
      id: admin.id,
      displayName: row.displayName,
      email: admin.email,
      urls: { location: `${TEST_URLS.api}/v1/users/${admin.id}` },
    });
  });

  it('is a 404 for a user sharing no organization, and for an unknown id', async () => {
    const { admin } = await buildTeam(t.database);
    // The stranger belongs to another organization: sharing none with the caller.
    const other = await buildTeam(t.database);
    const stranger = other.admin;
    const hidden = await t.call('GET', `/v1/users/${stranger.id}`, { token: admin.token });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ error: { code: 404, message: `User "${stranger.id}" was not found` } });
    expectError(await t.call('GET', '/v1/users/user_missing', { token: admin.token }), 404);
    // A user in no organization at all sees nobody but itself.
    const loner = await buildUser(t.database);
    expectError(await t.call('GET', `/v1/users/${admin.id}`, { token: loner.token }), 404);
    expect((await t.call('GET', `/v1/users/${loner.id}`, { token: loner.token })).statusCode).toBe(200);
    await expect(official(admin).users.getUserById(stranger.id)).rejects.toMatchObject({ code: 404 });
    expectError(await t.call('GET', `/v1/users/${admin.id}`), 401);
  });
});

type Organization = Awaited<ReturnType<typeof buildOrganization>>;

describe('GET /v1/orgs', () => {
  async function userInOrganizations(count: number) {
    const user = await buildUser(t.database);
    const organizations = [];
    for (let i = 0; i < count; i += 1) {
      const organization = await buildOrganization(t.database, `Listed ${i}`);
      await setCreatedAt(organization.id, `2021-03-0${i + 1}T10:00:00.000Z`);
      organizations.push(organization);
    }
    return { user, organizations };
  }

  it("lists the caller's organizations, oldest first, with the caller's permissions", async () => {
    const { user, organizations } = await userInOrganizations(4);
    const [asAdmin, asReader, asGuest, notMine] = [0, 1, 2, 3].map((index) => organizations[index]!) as [
      Organization,
      Organization,
      Organization,
      Organization,
    ];
    // Joined in another order than created: the listing follows creation.
    await addMember(t.database, asGuest.id, user, null);
    await addMember(t.database, asAdmin.id, user, 'admin');
    await addMember(t.database, asReader.id, user, 'read');
    // Someone else's organization is not listed.
    await addMember(t.database, notMine.id, await buildUser(t.database), 'admin');

    const response = await t.call('GET', '/v1/orgs', { token: user.token });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expectMatchesSchema('GET', '/v1/orgs', 200, body);
    expect(body.count).toBe(3);
    expect(body.next).toBeUndefined();
    expect(body.items.map((org: { id: string }) => org.id)).toEqual([asAdmin.id, asReader.id, asGuest.id]);
    expect(body.items[0]).toMatchObject({
      object: 'organization',
      id: asAdmin.id,
      title: asAdmin.title,
      createdAt: '2021-03-01T10:00:00.000Z',
      emailDomains: [],
      urls: { location: `${TEST_URLS.api}/v1/orgs/${asAdmin.id}` },
      permissions: { view: true, admin: true, listMembers: true },
    });
    expect(body.items[1].permissions).toMatchObject({ view: true, admin: false, listMembers: true, createContent: false });
    expect(body.items[2].permissions).toMatchObject({ view: true, admin: false, listMembers: false });

    const { data } = await official(user).orgs.listOrganizationsForAuthenticatedUser();
    expect(data).toEqual(body);
  });

  it('leaves out organizations where the membership is disabled', async () => {
    const { user, organizations } = await userInOrganizations(2);
    await addMember(t.database, organizations[0]!.id, user, 'read');
    await addMember(t.database, organizations[1]!.id, user, 'read');
    await t.database.db.member.update({
      where: { organizationId_userId: { organizationId: organizations[0]!.id, userId: user.id } },
      data: { disabled: true },
    });
    const body = (await t.call('GET', '/v1/orgs', { token: user.token })).json();
    expect(body.count).toBe(1);
    expect(body.items.map((org: { id: string }) => org.id)).toEqual([organizations[1]!.id]);
  });

  it('pages with limit and next.page until every organization was seen once', async () => {
    const { user, organizations } = await userInOrganizations(5);
    for (const organization of organizations) await addMember(t.database, organization.id, user, 'read');
    const api = official(user);
    const seen: string[] = [];
    let page: string | undefined;
    const sizes: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      const { data } = await api.orgs.listOrganizationsForAuthenticatedUser({ limit: 2, ...(page ? { page } : {}) });
      expectMatchesSchema('GET', '/v1/orgs', 200, data);
      expect(data.count).toBe(5);
      sizes.push(data.items.length);
      seen.push(...data.items.map((org) => org.id));
      page = data.next?.page;
      if (!page) break;
    }
    expect(sizes).toEqual([2, 2, 1]);
    expect(seen).toEqual(organizations.map((org) => org.id));

    // The same token over plain REST gives the same page.
    const first = (await t.call('GET', '/v1/orgs?limit=2', { token: user.token })).json();
    const second = await t.call('GET', `/v1/orgs?limit=2&page=${encodeURIComponent(first.next.page)}`, { token: user.token });
    expect(second.statusCode).toBe(200);
    expect(second.json().items.map((org: { id: string }) => org.id)).toEqual(seen.slice(2, 4));

    // A page exactly as large as what is left has no next page.
    const all = (await t.call('GET', '/v1/orgs?limit=5', { token: user.token })).json();
    expect(all.items).toHaveLength(5);
    expect(all.next).toBeUndefined();
  });

  it('accepts limit up to 1000 and refuses more, and refuses bad page tokens', async () => {
    const { user, organizations } = await userInOrganizations(1);
    await addMember(t.database, organizations[0]!.id, user, 'read');
    const max = await t.call('GET', '/v1/orgs?limit=1000', { token: user.token });
    expect(max.statusCode).toBe(200);
    expect(max.json().count).toBe(1);

    expectError(await t.call('GET', '/v1/orgs?limit=1001', { token: user.token }), 400, /^limit: /);
    expectError(await t.call('GET', '/v1/orgs?limit=-1', { token: user.token }), 400, /^limit: /);
    expectError(await t.call('GET', '/v1/orgs?limit=ten', { token: user.token }), 400, /^limit: /);
    expectError(await t.call('GET', '/v1/orgs?page=not-a-token', { token: user.token }), 400, /^page: is not a page token returned by this listing/);
    // A well-formed token of another listing is refused too.
    const foreign = Buffer.from(JSON.stringify(['members:joinedAt:desc', { d: new Date().toISOString() }, 'user_x'])).toString('base64url');
    expectError(await t.call('GET', `/v1/orgs?page=${foreign}`, { token: user.token }), 400, /^page: /);
    await expect(official(user).orgs.listOrganizationsForAuthenticatedUser({ limit: 1001 })).rejects.toMatchObject({ code: 400 });
    expectError(await t.call('GET', '/v1/orgs'), 401);
  });
});

describe('GET /v1/orgs/{organizationId}', () => {
  it('returns the organization to a member, through the official client', async () => {
    const { organization, member } = await buildTeam(t.database);
    const reader = await member('read');
    const { data } = await official(reader).orgs.getOrganizationById(organization.id);
    expectMatchesSchema('GET', '/v1/orgs/{organizationId}', 200, data);
    const row = await t.database.db.organization.findUniqueOrThrow({ where: { id: organization.id } });
    expect(data).toMatchObject({
      object: 'organization',
      id: organization.id,
      title: row.title,
      createdAt: row.createdAt.toISOString(),
      emailDomains: [],
      defaultRole: null,
      sso: false,
      ai: false,
      inviteLinks: true,
      urls: { location: `${TEST_URLS.api}/v1/orgs/${organization.id}`, app: `${TEST_URLS.app}/o/${organization.id}` },
      permissions: { view: true, admin: false, listMembers: true },
    });
    const rest = await t.call('GET', `/v1/orgs/${organization.id}`, { token: reader.token });
    expect(rest.json()).toEqual(data);
  });

  it('is readable by guests, with guest permissions', async () => {
    const { organization, member } = await buildTeam(t.database);
    const guest = await member(null);
    const response = await t.call('GET', `/v1/orgs/${organization.id}`, { token: guest.token });
    expect(response.statusCode).toBe(200);
    expectMatchesSchema('GET', '/v1/orgs/{organizationId}', 200, response.json());
    expect(response.json().permissions).toMatchObject({ view: true, admin: false, listMembers: false, createContent: false });
  });

  it('is a 404 for non-members and unknown ids, and a 401 without or with a bad token', async () => {
    const { organization } = await buildTeam(t.database);
    const stranger = await buildUser(t.database);
    const hidden = await t.call('GET', `/v1/orgs/${organization.id}`, { token: stranger.token });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ error: { code: 404, message: `Organization "${organization.id}" was not found` } });
    expectError(await t.call('GET', '/v1/orgs/org_missing', { token: stranger.token }), 404);
    await expectOfficialError(official(stranger).orgs.getOrganizationById(organization.id), 404);
    expectError(await t.call('GET', `/v1/orgs/${organization.id}`), 401);
    expectError(await t.call('GET', `/v1/orgs/${organization.id}`, { token: 'dgw_unknown' }), 401);
  });
});

describe('PATCH /v1/orgs/{organizationId}', () => {
  it('lets an admin update every field, through the official client', async () => {
    const { organization, admin } = await buildTeam(t.database);
    const hostname = `docs-${unique()}`;
    const { data } = await official(admin).orgs.updateOrganizationById(organization.id, {
      title: 'Renamed organization',
      emailDomains: ['Docs.Example.COM', 'docs.example.com', 'beta.example.org'],
      hostname,
      defaultRole: MemberRole.Read,
      logo: 'https://cdn.example.com/logo.png',
      sso: true,
      ai: true,
      inviteLinks: false,
    });
    expectMatchesSchema('PATCH', '/v1/orgs/{organizationId}', 200, data);
    expect(data).toMatchObject({
      id: organization.id,
      title: 'Renamed organization',
      emailDomains: ['beta.example.org', 'docs.example.com'],
      hostname,
      defaultRole: 'read',
      sso: true,
      ai: true,
      inviteLinks: false,
      urls: { logo: 'https://cdn.example.com/logo.png' },
      permissions: { admin: true },
    });
    expect(await organizationState(organization.id)).toMatchObject({
      title: 'Renamed organization',
      hostname,
      defaultRole: MemberRole.Read,
      logo: 'https://cdn.example.com/logo.png',
      sso: true,
      ai: true,
      inviteLinks: false,
      emailDomains: ['beta.example.org', 'docs.example.com'],
    });
    // What the update returned is what a later read returns.
    expect((await t.call('GET', `/v1/orgs/${organization.id}`, { token: admin.token })).json()).toEqual(data);
  });

  it('leaves fields that are not sent alone, and accepts null for defaultRole, logo and defaultContent', async () => {
    const { organization, admin } = await buildTeam(t.database);
    const url = `/v1/orgs/${organization.id}`;
    const setUp = await t.call('PATCH', url, {
      token: admin.token,
      body: { defaultRole: 'edit', logo: 'https://cdn.example.com/a.png', emailDomains: ['keep.example.com'] },
    });
    expect(setUp.statusCode, setUp.body).toBe(200);

    const titleOnly = await t.call('PATCH', url, { token: admin.token, body: { title: 'Only the title' } });
    expect(titleOnly.statusCode).toBe(200);
    expect(titleOnly.json()).toMatchObject({
      title: 'Only the title',
      defaultRole: 'edit',
      emailDomains: ['keep.example.com'],
      urls: { logo: 'https://cdn.example.com/a.png' },
    });

    const cleared = await t.call('PATCH', url, {
      token: admin.token,
      body: { defaultRole: null, logo: null, defaultContent: null },
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    const body = cleared.json();
    expectMatchesSchema('PATCH', '/v1/orgs/{organizationId}', 200, body);
    expect(body.defaultRole).toBeNull();
    expect(body.urls.logo).toBeUndefined();
    expect(body.defaultContent).toBeUndefined();
    expect(await organizationState(organization.id)).toMatchObject({
      title: 'Only the title',
      defaultRole: null,
      logo: null,
      defaultContentSiteId: null,
      emailDomains: ['keep.example.com'],
    });

    // An empty list removes every email domain; an empty body changes nothing.
    const noDomains = await t.call('PATCH', url, { token: admin.token, body: { emailDomains: [] } });
    expect(noDomains.statusCode).toBe(200);
    expect(noDomains.json().emailDomains).toEqual([]);
    expect((await organizationState(organization.id)).emailDomains).toEqual([]);
    const before = await organizationState(organization.id);
    const empty = await t.call('PATCH', url, { token: admin.token, body: {} });
    expect(empty.statusCode).toBe(200);
    expect(await organizationState(organization.id)).toMatchObject({ ...before, updatedAt: expect.any(Date) });
  });

  it('accepts the bounds of title and hostname', async () => {
    const { organization, admin } = await buildTeam(t.database);
    const url = `/v1/orgs/${organization.id}`;
    for (const body of [
      { title: 'ab' },
      { title: 'x'.repeat(255) },
      { title: 'Inner  spaces are fine' },
      { hostname: `a${unique().slice(0, 1)}b` },
      { hostname: `h${unique()}${'0'.repeat(22)}z` },
      { hostname: `with-dash-${unique()}` },
    ]) {
      const response = await t.call('PATCH', url, { token: admin.token, body });
      expect(response.statusCode, `${JSON.stringify(body)}: ${response.body}`).toBe(200);
      expect(response.json()).toMatchObject(body);
      expect(await t.database.db.organization.findUniqueOrThrow({ where: { id: organization.id } })).toMatchObject(body);
    }
  });

  it('rejects invalid input with a 400 naming the field, and changes nothing', async () => {
    const { organization, admin } = await buildTeam(t.database);
    const url = `/v1/orgs/${organization.id}`;
    const initial = await t.call('PATCH', url, {
      token: admin.token,
      body: { title: 'Stable title', emailDomains: ['stable.example.com'], defaultRole: 'comment' },
    });
    expect(initial.statusCode).toBe(200);
    const before = await organizationState(organization.id);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ title: 'a' }, /^title: /],
      [{ title: '' }, /^title: /],
      [{ title: 'x'.repeat(256) }, /^title: /],
      [{ title: ' Leading space' }, /^title: must not start or end with whitespace/],
      [{ title: 'Trailing space ' }, /^title: must not start or end with whitespace/],
      [{ title: '\tTabbed' }, /^title: must not start or end with whitespace/],
      [{ title: 42 }, /^title: /],
      [{ hostname: 'ab' }, /^hostname: /],
      [{ hostname: 'a'.repeat(33) }, /^hostname: /],
      [{ hostname: 'Upper-Case' }, /^hostname: must be lowercase letters/],
      [{ hostname: '-leading' }, /^hostname: /],
      [{ hostname: 'trailing-' }, /^hostname: /],
      [{ hostname: 'has space' }, /^hostname: /],
      [{ hostname: 'dots.not.allowed' }, /^hostname: /],
      [{ emailDomains: ['not a domain'] }, /^emailDomains\.0: must be a domain name/],
      [{ emailDomains: ['ok.example.com', 'localhost'] }, /^emailDomains\.1: must be a domain name/],
      [{ emailDomains: ['someone@example.com'] }, /^emailDomains\.0: must be a domain name/],
      [{ emailDomains: ['-bad.example.com'] }, /^emailDomains\.0: must be a domain name/],
      [{ emailDomains: 'example.com' }, /^emailDomains: /],
      [{ emailDomains: Array.from({ length: 101 }, (_, i) => `d${i}.example.com`) }, /^emailDomains: /],
      [{ defaultRole: 'owner' }, /^defaultRole: /],
      [{ defaultRole: 'guest' }, /^defaultRole: /],
      [{ logo: 'not a url' }, /^logo: must be an absolute URL/],
      [{ logo: `https://cdn.example.com/${'a'.repeat(2048)}` }, /^logo: /],
      [{ sso: 'yes' }, /^sso: /],
      [{ inviteLinks: null }, /^inviteLinks: /],
      [{ color: 'red' }, /unknown field "color"/],
      [{ defaultContent: { type: 'site', site: 'site_123' } }, /^defaultContent\.site: site "site_123" does not exist/],
      [{ defaultContent: { type: 'space', space: 'spc_1' } }, /^defaultContent/],
      [{ defaultContent: { type: 'site' } }, /^defaultContent\.site: /],
    ];
    for (const [body, message] of cases) {
      const response = await t.call('PATCH', url, { token: admin.token, body: { ...body } });
      expect(response.statusCode, `${JSON.stringify(body)}: ${response.body}`).toBe(400);
      expect(response.json().error.code).toBe(400);
      expect(response.json().error.message, JSON.stringify(body)).toMatch(message);
    }
    // A valid field next to an invalid one is not applied either.
    expectError(await t.call('PATCH', url, { token: admin.token, body: { title: 'Would change', hostname: 'X' } }), 400, /^hostname: /);
    expect(await organizationState(organization.id)).toEqual(before);
    await expect(official(admin).orgs.updateOrganizationById(organization.id, { title: ' x' })).rejects.toMatchObject({ code: 400 });
    expect(await organizationState(organization.id)).toEqual(before);
  });

  it('names the broken rule for a value of the wrong type (not "is required")', async () => {
    const { organization, admin } = await buildTeam(t.database);
    const before = await organizationState(organization.id);
    for (const body of [{ title: 42 }, { sso: 'yes' }, { inviteLinks: null }, { emailDomains: 'example.com' }]) {
      const field = Object.keys(body)[0]!;
      const response = await t.call('PATCH', `/v1/orgs/${organization.id}`, { token: admin.token, body });
      expectError(response, 400, new RegExp(`^${field}: `));
      // The field was sent: the message must say what is wrong with it, not that it is missing.
      expect(response.json().error.message, JSON.stringify(body)).not.toMatch(/is required/);
    }
    expect(await organizationState(organization.id)).toEqual(before);
  });

  it('is for admins only: a 403 for every other role, a 404 outside, and nothing changes', async () => {
    const { organization, member } = await buildTeam(t.database);
    const before = await organizationState(organization.id);
    for (const role of ['create', 'review', 'edit', 'comment', 'read', null] as const) {
      const user = await member(role);
      const response = await t.call('PATCH', `/v1/orgs/${organization.id}`, {
        token: user.token,
        body: { title: 'Taken over' },
      });
      expectError(response, 403);
    }
    const stranger = await buildUser(t.database);
    expectError(await t.call('PATCH', `/v1/orgs/${organization.id}`, { token: stranger.token, body: { title: 'Taken over' } }), 404);
    expectError(await t.call('PATCH', `/v1/orgs/${organization.id}`, { body: { title: 'Taken over' } }), 401);
    expect(await organizationState(organization.id)).toEqual(before);
  });

  it('is a 409 when another organization has the hostname, and changes nothing', async () => {
    const first = await buildTeam(t.database);
    const second = await buildTeam(t.database);
    const hostname = `taken-${unique()}`;
    const claim = await t.call('PATCH', `/v1/orgs/${first.organization.id}`, {
      token: first.admin.token,
      body: { hostname },
    });
    expect(claim.statusCode, claim.body).toBe(200);
    // Setting its own hostname again is not a conflict.
    const again = await t.call('PATCH', `/v1/orgs/${first.organization.id}`, {
      token: first.admin.token,
      body: { hostname, title: 'Same hostname' },
    });
    expect(again.statusCode, again.body).toBe(200);

    const before = await organizationState(second.organization.id);
    const response = await t.call('PATCH', `/v1/orgs/${second.organization.id}`, {
      token: second.admin.token,
      body: { hostname, title: 'Should not stick', emailDomains: ['nope.example.com'] },
    });
    expectError(response, 409, /hostname/);
    expect(await organizationState(second.organization.id)).toEqual(before);
    expect(await t.database.db.organization.findUniqueOrThrow({ where: { id: first.organization.id } })).toMatchObject({
      hostname,
      title: 'Same hostname',
    });
  });
});

describe('GET /v1/email-domains/{emailDomain}/orgs', () => {
  async function organizationWithDomains(domains: string[], createdAt: string) {
    const { organization, admin } = await buildTeam(t.database);
    const response = await t.call('PATCH', `/v1/orgs/${organization.id}`, {
      token: admin.token,
      body: { emailDomains: domains },
    });
    expect(response.statusCode, response.body).toBe(200);
    await setCreatedAt(organization.id, createdAt);
    return organization;
  }

  it("shows every organization of the caller's own domain, including ones it does not belong to", async () => {
    const domain = freshDomain();
    const user = await buildUserWithEmail(t.database, `alice@${domain}`);
    const joined = await organizationWithDomains([domain], '2022-01-01T00:00:00.000Z');
    const notJoined = await organizationWithDomains([domain, freshDomain('other')], '2022-01-02T00:00:00.000Z');
    const otherDomain = await organizationWithDomains([freshDomain('elsewhere')], '2022-01-03T00:00:00.000Z');
    await addMember(t.database, joined.id, user, 'read');
    await addMember(t.database, otherDomain.id, user, 'read');

    const { data } = await official(user).emailDomains.getOrganizationsForEmailDomain(domain);
    expectMatchesSchema('GET', '/v1/email-domains/{emailDomain}/orgs', 200, data);
    expect(data.organizations.map((org) => org.id)).toEqual([joined.id, notJoined.id]);
    expect(data.organizations[0]).toMatchObject({ object: 'organization', emailDomains: [domain], permissions: { view: true } });
    expect(data.organizations[1]!.permissions).toMatchObject({ view: false, admin: false, listMembers: false });

    // The domain is case-insensitive.
    const upper = await t.call('GET', `/v1/email-domains/${domain.toUpperCase()}/orgs`, { token: user.token });
    expect(upper.statusCode).toBe(200);
    expect(upper.json()).toEqual(data);
  });

  it("shows only the caller's own organizations for another domain", async () => {
    const user = await buildUserWithEmail(t.database, `bob@${freshDomain()}`);
    const domain = freshDomain('partner');
    const mine = await organizationWithDomains([domain], '2022-02-01T00:00:00.000Z');
    const asGuest = await organizationWithDomains([domain], '2022-02-02T00:00:00.000Z');
    await organizationWithDomains([domain], '2022-02-03T00:00:00.000Z');
    await addMember(t.database, mine.id, user, 'admin');
    await addMember(t.database, asGuest.id, user, null);

    const response = await t.call('GET', `/v1/email-domains/${domain}/orgs`, { token: user.token });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expectMatchesSchema('GET', '/v1/email-domains/{emailDomain}/orgs', 200, body);
    expect(body.organizations.map((org: { id: string }) => org.id)).toEqual([mine.id, asGuest.id]);
    expect(body.organizations[0].permissions).toMatchObject({ view: true, admin: true });

    const nothing = await t.call('GET', `/v1/email-domains/${freshDomain('unused')}/orgs`, { token: user.token });
    expect(nothing.statusCode).toBe(200);
    expect(nothing.json()).toEqual({ organizations: [] });
    expectMatchesSchema('GET', '/v1/email-domains/{emailDomain}/orgs', 200, nothing.json());
  });

  it('is a 400 for something that is not a domain, and a 401 without a token', async () => {
    const user = await buildUserWithEmail(t.database, `carol@${freshDomain()}`);
    for (const value of ['not_a_domain', 'localhost', '-x.example.com', 'a@b.com']) {
      expectError(
        await t.call('GET', `/v1/email-domains/${encodeURIComponent(value)}/orgs`, { token: user.token }),
        400,
        /^emailDomain: must be a domain name/,
      );
    }
    await expect(official(user).emailDomains.getOrganizationsForEmailDomain('nodot')).rejects.toMatchObject({ code: 400 });
    expectError(await t.call('GET', '/v1/email-domains/example.com/orgs'), 401);
  });
});
