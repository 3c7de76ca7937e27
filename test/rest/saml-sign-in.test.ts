import { beforeAll, describe, expect, it } from 'vitest';
import { SAML_REQUEST_TTL_MS, SAML_RESPONSE_MAX_BYTES } from '../../src/domain/saml/sign-in.ts';
import { type TestApp, TEST_URLS, createTestApp } from '../support/app.ts';
import { buildTeam, buildUserWithEmail } from '../support/factories.ts';
import { expectError } from '../support/http.ts';
import { IDP_ENTITY_ID, type NextResponse, type TestIdp, decodeResponse, encodeResponse, samlResponseOf, startTestIdp } from '../support/saml-idp.ts';

/**
 * SAML sign-in end to end: docs-gateway as the service provider, an identity
 * provider run here (samlify, test/support/saml-idp.ts) on 127.0.0.1. The
 * browser's part is played by the test: follow the redirect to the identity
 * provider, read its page, post its form to the ACS.
 */

const APP_ORIGIN = 'https://app.example.test';
let t: TestApp;
let idp: TestIdp;
beforeAll(async () => {
  t = await createTestApp({ samlRedirectOrigins: [APP_ORIGIN] });
  idp = await startTestIdp();
  // Loaded once before the tests and their timeouts (slow on a loaded machine): node-saml here and on a worker thread.
  const { base } = await setup();
  await t.call('GET', `${base}/metadata`);
  await post(base, encodeResponse('<warm-up/>'));
});

/** An organization with an admin, a team and an active SAML provider trusting the test's identity provider. */
async function setup(options: { defaultRole?: string | null } = {}) {
  const org = await buildTeam(t.database);
  const organizationId = org.organization.id;
  const team = (await t.call('PUT', `/v1/orgs/${organizationId}/teams`, { token: org.admin.token, body: { title: 'From SAML' } })).json();
  const created = await t.call('POST', `/v1/orgs/${organizationId}/saml`, {
    token: org.admin.token,
    body: {
      label: 'Test IdP',
      ssoURL: idp.ssoURL,
      entityID: IDP_ENTITY_ID,
      certificate: idp.certificate,
      defaultTeam: team.id,
      defaultRole: options.defaultRole === undefined ? 'edit' : options.defaultRole,
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const provider = created.json();
  const base = `/v1/orgs/${organizationId}/saml/${provider.id}`;
  return { ...org, organizationId, team, provider, base };
}

/** Starts a sign-in and has the identity provider answer it as `next` says: the SAMLResponse a browser would post. */
async function signInAt(base: string, next: NextResponse, query = ''): Promise<string> {
  // The identity provider knows each service provider by its metadata.
  idp.trust((await t.call('GET', `${base}/metadata`)).body);
  const start = await t.call('GET', `${base}/start${query}`);
  expect(start.statusCode, start.body).toBe(302);
  const location = String(start.headers.location);
  expect(location.startsWith(`${idp.ssoURL}?SAMLRequest=`)).toBe(true);
  idp.next = next;
  const page = await fetch(location);
  const text = await page.text();
  expect(page.status, text).toBe(200);
  return samlResponseOf(text);
}

async function post(base: string, samlResponse: string, app: TestApp = t) {
  return app.app.inject({
    method: 'POST',
    url: `${base}/acs`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: '' }).toString(),
  });
}

const tokenOf = (page: string) => /<code id="token">([^<]+)<\/code>/.exec(page)?.[1];

/** What a sign-in writes, to prove a refused one wrote none of it. */
async function footprint(organizationId: string, providerId: string) {
  const db = t.database.db;
  return {
    users: await db.user.count(),
    members: await db.member.count({ where: { organizationId } }),
    tokens: await db.apiToken.count(),
    identities: await db.samlIdentity.count({ where: { providerId } }),
    used: await db.samlUsedAssertion.count({ where: { providerId } }),
  };
}

describe('SAML sign-in', () => {
  it('serves the service provider metadata: entity ID, ACS URL, signed assertions wanted', async () => {
    const { base, provider } = await setup();
    const response = await t.call('GET', `${base}/metadata`);
    expect(response.headers['content-type']).toMatch(/^application\/samlmetadata\+xml/);
    expect(response.body).toContain(`entityID="${provider.service.entityID}"`);
    expect(response.body).toContain(`Location="${provider.service.acsURL}"`);
    expect(response.body).toContain('WantAssertionsSigned="true"');
    expectError(await t.call('GET', `/v1/orgs/${provider.id}/saml/${provider.id}/metadata`), 404);
  });

  it('signs a new person in: provisioned just in time with the default role and team, and a token that works', async () => {
    const { organizationId, base, provider, team } = await setup();
    const samlResponse = await signInAt(base, { nameID: 'emp-1001', email: 'Ada@Corp.example', displayName: 'Ada Lovelace' });
    const response = await post(base, samlResponse);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(response.body).toContain('Ada Lovelace');
    const token = tokenOf(response.body)!;
    expect(token).toMatch(/^dgw_/);

    const me = await t.call('GET', '/v1/user', { token });
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json()).toMatchObject({ displayName: 'Ada Lovelace', email: 'ada@corp.example' });
    const identity = await t.database.db.samlIdentity.findUniqueOrThrow({ where: { providerId_nameID: { providerId: provider.id, nameID: 'emp-1001' } } });
    expect(identity.userId).toBe(me.json().id);
    const member = await t.database.db.member.findUniqueOrThrow({ where: { organizationId_userId: { organizationId, userId: identity.userId } } });
    expect(member).toMatchObject({ role: 'edit', sso: true, disabled: false });
    expect(await t.database.db.teamMember.findUnique({ where: { teamId_userId: { teamId: team.id, userId: identity.userId } } })).toMatchObject({
      role: 'member',
    });
    // The token reads the organization as an editor would.
    const org = await t.call('GET', `/v1/orgs/${organizationId}`, { token });
    expect(org.statusCode, org.body).toBe(200);
    // The request was used up; the assertion is remembered.
    expect(await t.database.db.samlRequest.count({ where: { providerId: provider.id } })).toBe(0);
    expect(await t.database.db.samlUsedAssertion.count({ where: { providerId: provider.id } })).toBe(1);
  });

  it('finds the member again by NameID, not by email: a changed email is the same user, another NameID with that email is not', async () => {
    const { organizationId, base, provider } = await setup({ defaultRole: null });
    const first = await post(base, await signInAt(base, { nameID: 'emp-2002', email: 'grace@corp.example' }));
    const firstToken = tokenOf(first.body)!;
    const user = (await t.call('GET', '/v1/user', { token: firstToken })).json();
    // A guest (the provider's default role is null).
    expect((await t.database.db.member.findUniqueOrThrow({ where: { organizationId_userId: { organizationId, userId: user.id } } })).role).toBeNull();

    const again = await post(base, await signInAt(base, { nameID: 'emp-2002', email: 'grace.hopper@corp.example' }));
    expect(again.statusCode, again.body).toBe(200);
    const secondToken = tokenOf(again.body)!;
    expect(secondToken).not.toBe(firstToken);
    expect((await t.call('GET', '/v1/user', { token: secondToken })).json().id).toBe(user.id);
    // Both tokens work: each sign-in gives one.
    expect((await t.call('GET', '/v1/user', { token: firstToken })).statusCode).toBe(200);

    const other = await post(base, await signInAt(base, { nameID: 'emp-3003', email: 'grace@corp.example' }));
    expect(other.statusCode, other.body).toBe(200);
    const otherUser = (await t.call('GET', '/v1/user', { token: tokenOf(other.body)! })).json();
    expect(otherUser.id).not.toBe(user.id);
    // The address belongs to the first user: the new one gets an address of its own that receives nothing.
    expect(otherUser.email).toMatch(/@saml\.invalid$/);
    expect(await t.database.db.samlIdentity.count({ where: { providerId: provider.id } })).toBe(2);
  });

  it('never links an existing user by its email, and keeps an existing member as it is', async () => {
    const { organizationId, base } = await setup();
    const existing = await buildUserWithEmail(t.database, `boss-${Date.now()}@corp.example`);
    await t.database.db.member.create({ data: { organizationId, userId: existing.id, role: 'admin' } });
    const response = await post(base, await signInAt(base, { nameID: 'boss', email: existing.email }));
    expect(response.statusCode, response.body).toBe(200);
    const user = (await t.call('GET', '/v1/user', { token: tokenOf(response.body)! })).json();
    expect(user.id).not.toBe(existing.id);
    expect((await t.database.db.member.findUniqueOrThrow({ where: { organizationId_userId: { organizationId, userId: user.id } } })).role).toBe('edit');
  });

  it('accepts a response signed as a whole (assertion unsigned) and one signed twice', async () => {
    const { base } = await setup();
    for (const signed of ['response', 'both'] as const) {
      const samlResponse = await signInAt(base, { nameID: `whole-${signed}`, signed });
      const xml = decodeResponse(samlResponse);
      expect((xml.match(/<ds:Signature[\s>]/g) ?? []).length).toBe(signed === 'both' ? 2 : 1);
      if (signed === 'response') expect(/<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0]).not.toContain('<ds:Signature');
      const response = await post(base, samlResponse);
      expect(response.statusCode, response.body).toBe(200);
    }
  });

  it('hands the token to an allowed redirect, in the fragment', async () => {
    const { base } = await setup();
    const samlResponse = await signInAt(base, { nameID: 'redirected' }, `?redirect=${encodeURIComponent(`${APP_ORIGIN}/signed-in?from=saml`)}`);
    const response = await post(base, samlResponse);
    expect(response.statusCode, response.body).toBe(303);
    const location = new URL(String(response.headers.location));
    expect(`${location.origin}${location.pathname}${location.search}`).toBe(`${APP_ORIGIN}/signed-in?from=saml`);
    const token = new URLSearchParams(location.hash.slice(1)).get('token')!;
    expect((await t.call('GET', '/v1/user', { token })).statusCode).toBe(200);
  });

  it('refuses a redirect outside the allowed list, and a start or ACS of a pending or unknown provider', async () => {
    const { base, organizationId, admin } = await setup();
    expectError(
      await t.call('GET', `${base}/start?redirect=${encodeURIComponent('https://evil.example/steal')}`),
      400,
      /^redirect: https:\/\/evil\.example is not one of the origins/,
    );
    expectError(await t.call('GET', `${base}/start?redirect=not-a-url`), 400, 'redirect: must be an absolute URL');
    const pending = (await t.call('POST', `/v1/orgs/${organizationId}/saml`, { token: admin.token, body: { label: 'Later' } })).json();
    expectError(await t.call('GET', `/v1/orgs/${organizationId}/saml/${pending.id}/start`), 409, /is pending: set its ssoURL, entityID and certificate/);
    expectError(await t.call('GET', `/v1/orgs/${organizationId}/saml/saml_unknown/start`), 404);
    expectError(await post(`/v1/orgs/${organizationId}/saml/saml_unknown`, encodeResponse('<x/>')), 404);
    // A token is neither needed nor read on these addresses.
    const start = await t.call('GET', `${base}/start`, { headers: { authorization: 'Bearer not-a-token' } });
    expect(start.statusCode).toBe(302);
  });

  it('completes on another instance a sign-in started on one (the request is kept in the database)', async () => {
    const { base } = await setup();
    const other = await createTestApp({ samlRedirectOrigins: [APP_ORIGIN] });
    const samlResponse = await signInAt(base, { nameID: 'roaming' });
    const response = await post(base, samlResponse, other);
    expect(response.statusCode, response.body).toBe(200);
    expect((await t.call('GET', '/v1/user', { token: tokenOf(response.body)! })).statusCode).toBe(200);
  });

  describe('refuses, writing nothing', () => {
    async function expectRefused(
      setupResult: Awaited<ReturnType<typeof setup>>,
      samlResponse: string,
      status: number,
      message: RegExp,
      before?: Awaited<ReturnType<typeof footprint>>,
    ) {
      const { organizationId, provider, base } = setupResult;
      const was = before ?? (await footprint(organizationId, provider.id));
      const response = await post(base, samlResponse);
      expectError(response, status, message);
      expect(await footprint(organizationId, provider.id)).toEqual(was);
    }

    it('an unsigned response', async () => {
      const s = await setup();
      const signed = decodeResponse(await signInAt(s.base, { nameID: 'unsigned' }));
      const unsigned = signed.replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/g, '');
      expect(unsigned).not.toContain('Signature');
      await expectRefused(s, encodeResponse(unsigned), 403, /^SAMLResponse: no valid signature by the provider's certificate/);
    });

    it('a tampered NameID', async () => {
      const s = await setup();
      const signed = decodeResponse(await signInAt(s.base, { nameID: 'intern' }));
      const tampered = signed.replace('>intern</saml:NameID>', '>ceo</saml:NameID>');
      expect(tampered).not.toBe(signed);
      await expectRefused(s, encodeResponse(tampered), 403, /^SAMLResponse: no valid signature/);
      // Tampering with a response signed as a whole is refused the same way.
      const whole = decodeResponse(await signInAt(s.base, { nameID: 'intern', signed: 'response' }));
      await expectRefused(s, encodeResponse(whole.replace('>intern</saml:NameID>', '>ceo</saml:NameID>')), 403, /^SAMLResponse: no valid signature/);
    });

    it('a wrong audience', async () => {
      const s = await setup();
      const samlResponse = await signInAt(s.base, { nameID: 'elsewhere', audience: 'https://another-service.example/saml' });
      await expectRefused(
        s,
        samlResponse,
        403,
        /^SAMLResponse: the assertion: audience mismatch\. expected .* received https:\/\/another-service\.example\/saml/,
      );
    });

    it('a replayed response', async () => {
      const s = await setup();
      const samlResponse = await signInAt(s.base, { nameID: 'once' });
      expect((await post(s.base, samlResponse)).statusCode).toBe(200);
      await expectRefused(s, samlResponse, 403, /^SAMLResponse: assertion "_[0-9a-f]+" was already used \(a replayed response\)/);
    });

    it('the same response posted twice at once: one sign-in, one refusal', async () => {
      const s = await setup();
      const samlResponse = await signInAt(s.base, { nameID: 'twice-at-once' });
      const responses = await Promise.all([post(s.base, samlResponse), post(s.base, samlResponse)]);
      expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 403]);
      expect(await t.database.db.samlIdentity.count({ where: { providerId: s.provider.id } })).toBe(1);
      expect(await t.database.db.apiToken.count({ where: { user: { samlIdentities: { some: { providerId: s.provider.id } } } } })).toBe(1);
    });

    it('signature wrapping: a forged assertion beside the signed one, or wrapped around it', async () => {
      const s = await setup();
      const signed = decodeResponse(await signInAt(s.base, { nameID: 'victim' }));
      const assertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(signed)![0];
      const signature = /<ds:Signature[\s\S]*?<\/ds:Signature>/.exec(assertion)![0];
      const forged = assertion
        .replace(/ ID="[^"]+"/, ' ID="_forged"')
        .replace(signature, '')
        .replace('>victim</saml:NameID>', '>attacker</saml:NameID>');
      // XSW: the forged assertion first, the signed one after it.
      const beside = signed.replace(assertion, forged + assertion);
      await expectRefused(s, encodeResponse(beside), 403, /^SAMLResponse: it holds more than one assertion \(signature wrapping is refused\)/);
      // XSW: the signed assertion hidden in the response's Extensions, the forged one carrying its signature.
      const wrapped = signed.replace(
        assertion,
        `<samlp:Extensions>${assertion}</samlp:Extensions>${forged.replace('</saml:Issuer>', `</saml:Issuer>${signature}`)}`,
      );
      await expectRefused(s, encodeResponse(wrapped), 403, /^SAMLResponse: no valid signature/);
      expect(await t.database.db.samlIdentity.count({ where: { nameID: 'attacker' } })).toBe(0);
    });

    it('a response signed with an untrusted certificate', async () => {
      const s = await setup();
      const samlResponse = await signInAt(s.base, { nameID: 'impostor', key: 'attacker' });
      await expectRefused(s, samlResponse, 403, /^SAMLResponse: no valid signature by the provider's certificate/);
      const whole = await signInAt(s.base, { nameID: 'impostor', key: 'attacker', signed: 'response' });
      await expectRefused(s, whole, 403, /^SAMLResponse: no valid signature/);
    });

    it('another issuer, another recipient, an unknown or expired InResponseTo', async () => {
      const s = await setup();
      await expectRefused(
        s,
        await signInAt(s.base, { nameID: 'x', issuer: 'https://other-idp.example' }),
        403,
        /^SAMLResponse: the assertion's issuer "https:\/\/other-idp\.example" is not the provider's entityID/,
      );
      await expectRefused(
        s,
        await signInAt(s.base, { nameID: 'x', recipient: 'https://elsewhere.example/acs' }),
        403,
        /^SAMLResponse: the assertion's Recipient "https:\/\/elsewhere\.example\/acs" is not this provider's ACS URL/,
      );
      await expectRefused(
        s,
        await signInAt(s.base, { nameID: 'x', inResponseTo: '_never-sent' }),
        403,
        /^SAMLResponse: InResponseTo "_never-sent" names no pending sign-in/,
      );
      // A sign-in started with another provider of the same identity provider.
      const other = await setup();
      const forOther = await signInAt(other.base, { nameID: 'x', recipient: `${TEST_URLS.api}${s.base}/acs`, audience: s.provider.service.entityID });
      await expectRefused(s, forOther, 403, /^SAMLResponse: InResponseTo "_[0-9a-f]+" names no pending sign-in of this provider/);
      // Too late: the request expired.
      const late = await signInAt(s.base, { nameID: 'x' });
      t.clock.advance(SAML_REQUEST_TTL_MS + 1000);
      await expectRefused(s, late, 403, /names no pending sign-in of this provider \(never started here, expired or already completed\)/);
    });

    it('a disabled member', async () => {
      const s = await setup();
      const first = await post(s.base, await signInAt(s.base, { nameID: 'disabled-later' }));
      const user = (await t.call('GET', '/v1/user', { token: tokenOf(first.body)! })).json();
      await t.database.db.member.update({ where: { organizationId_userId: { organizationId: s.organizationId, userId: user.id } }, data: { disabled: true } });
      await expectRefused(s, await signInAt(s.base, { nameID: 'disabled-later' }), 403, /^Your membership of this organization is disabled/);
    });

    it('a response too large, not base64, missing, or not a form, before parsing it', async () => {
      const s = await setup();
      await expectRefused(s, 'A'.repeat(SAML_RESPONSE_MAX_BYTES + 4), 400, /^SAMLResponse: is larger than 256 KiB/);
      await expectRefused(s, '<not base64>', 400, /^SAMLResponse: must be base64$/);
      await expectRefused(s, encodeResponse('<samlp:Response'), 403, /^SAMLResponse: it is not a SAML response this server can read/);
      expectError(
        await t.app.inject({ method: 'POST', url: `${s.base}/acs`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'RelayState=x' }),
        400,
        /^SAMLResponse: is required/,
      );
      expectError(
        await t.call('POST', `${s.base}/acs`, { body: { SAMLResponse: 'abc' } }),
        400,
        /^body: must be a form \(application\/x-www-form-urlencoded\)/,
      );
      const huge = await t.app.inject({
        method: 'POST',
        url: `${s.base}/acs`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `SAMLResponse=${'A'.repeat(SAML_RESPONSE_MAX_BYTES + 64 * 1024)}`,
      });
      expect(huge.statusCode).toBe(413);
    });
  });
});
