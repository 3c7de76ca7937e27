import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../support/app.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { type TestUser, buildTeam, buildUser, buildUserWithEmail, unique } from '../support/factories.ts';
import { expectError } from '../support/http.ts';
import { type OfficialClient, expectOfficialError, officialClient } from '../support/official.ts';

let t: TestApp;
let official: OfficialClient;
beforeAll(async () => {
  t = await createTestApp();
  official = await officialClient(t);
});

const LINK_INVITES = '/v1/orgs/{organizationId}/link-invites';
const LINK_INVITE = '/v1/orgs/{organizationId}/link-invites/{inviteId}';
const INVITES = '/v1/orgs/{organizationId}/invites';

/** An organization with its admin, and REST helpers for its invites. */
async function setup() {
  const org = await buildTeam(t.database);
  const organizationId = org.organization.id;
  const base = `/v1/orgs/${organizationId}`;
  const call = (method: string, url: string, token?: string, body?: unknown) =>
    t.call(method, url, { ...(token ? { token } : {}), ...(body !== undefined ? { body } : {}) });
  const linkInvite = async (role: string | null) => {
    const response = await call('POST', `${base}/link-invites`, org.admin.token, { role });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  const join = (inviteId: string, user: TestUser) => call('POST', `${base}/invites/${inviteId}`, user.token);
  const membership = (userId: string) =>
    t.database.db.member.findUnique({ where: { organizationId_userId: { organizationId, userId } }, select: { role: true } });
  const invites = () => t.database.db.invite.findMany({ where: { organizationId }, orderBy: { id: 'asc' } });
  return { ...org, organizationId, base, call, linkInvite, join, membership, invites };
}

describe('link invites', () => {
  it('are created, listed, read, changed and deleted by admins, validated against the official schemas', async () => {
    const { organizationId, admin, base, call } = await setup();
    const { data: created } = await official(admin).orgs.createOrganizationInvite(organizationId, { role: 'edit' as never });
    expectMatchesSchema('POST', LINK_INVITES, 201, created);
    // An admin already has every role: the invite is redundant for it.
    expect(created).toEqual({ object: 'invite', id: expect.stringMatching(/^inv_/), role: 'edit', redundant: true });
    const guestInvite = (await call('POST', `${base}/link-invites`, admin.token, { role: null })).json();
    expect(guestInvite.role).toBeNull();

    const { data: listed } = await official(admin).orgs.listOrganizationInviteLinks(organizationId);
    expectMatchesSchema('GET', LINK_INVITES, 200, listed);
    expect(listed.items.map((invite) => invite.id)).toEqual([created.id, guestInvite.id]);
    expect(listed.count).toBe(2);
    const page = (await call('GET', `${base}/link-invites?limit=1`, admin.token)).json();
    expect((await call('GET', `${base}/link-invites?limit=1&page=${page.next.page}`, admin.token)).json().items.map((i: any) => i.id)).toEqual([
      guestInvite.id,
    ]);

    const { data: read } = await official(admin).orgs.getOrganizationInviteLink(organizationId, created.id);
    expectMatchesSchema('GET', LINK_INVITE, 200, read);
    expect(read).toEqual(created);
    const { data: changed } = await official(admin).orgs.updateOrganizationInviteById(organizationId, created.id, { role: 'admin' as never });
    expectMatchesSchema('PATCH', LINK_INVITE, 200, changed);
    expect(changed).toMatchObject({ id: created.id, role: 'admin', redundant: true });

    const deleted = await call('DELETE', `${base}/link-invites/${created.id}`, admin.token);
    expect(deleted.statusCode).toBe(205);
    expect(await t.database.db.invite.count({ where: { id: created.id } })).toBe(0);
    expectError(await call('GET', `${base}/link-invites/${created.id}`, admin.token), 404);
    expectError(await call('DELETE', `${base}/link-invites/${created.id}`, admin.token), 404);
  });

  it('refuses bad roles and unknown fields, writing nothing', async () => {
    const { admin, base, call, linkInvite, invites } = await setup();
    const invite = await linkInvite('read');
    const before = await invites();
    expectError(await call('POST', `${base}/link-invites`, admin.token, {}), 400, 'role: is required');
    expectError(await call('POST', `${base}/link-invites`, admin.token, { role: 'owner' }), 400, /^role: /);
    expectError(await call('POST', `${base}/link-invites`, admin.token, { role: 'read', level: 'read' }), 400, 'body: unknown field "level"');
    expectError(await call('PATCH', `${base}/link-invites/${invite.id}`, admin.token, { role: 'boss' }), 400, /^role: /);
    expectError(await call('PATCH', `${base}/link-invites/${invite.id}`, admin.token, {}), 400, 'role: is required');
    expect(await invites()).toEqual(before);
  });

  it('are managed by admins only; a link invite is read by anyone holding it, with `redundant` computed for the caller', async () => {
    const { organizationId, base, call, linkInvite, member } = await setup();
    const editInvite = await linkInvite('edit');
    const [reader, editor, guest] = [await member('read'), await member('edit'), await member(null)];
    const outsider = await buildUser(t.database, 'outsider');
    for (const user of [reader, guest]) {
      expectError(await call('GET', `${base}/link-invites`, user.token), 403);
      expectError(await call('POST', `${base}/link-invites`, user.token, { role: 'read' }), 403);
      expectError(await call('PATCH', `${base}/link-invites/${editInvite.id}`, user.token, { role: 'admin' }), 403);
      expectError(await call('DELETE', `${base}/link-invites/${editInvite.id}`, user.token), 403);
      expectError(await call('POST', `${base}/invites`, user.token, { emails: ['a@example.test'] }), 403);
    }
    expectError(await call('GET', `${base}/link-invites`, outsider.token), 404);
    expectError(await call('GET', `${base}/link-invites`), 401);

    const redundancy = async (user: TestUser) => {
      const { data } = await official(user).orgs.getOrganizationInviteLink(organizationId, editInvite.id);
      expectMatchesSchema('GET', LINK_INVITE, 200, data);
      return data.redundant;
    };
    expect(await redundancy(reader)).toBe(false);
    expect(await redundancy(guest)).toBe(false);
    expect(await redundancy(editor)).toBe(true);
    expect(await redundancy(outsider)).toBe(false);
    const guestInvite = await linkInvite(null);
    expect((await call('GET', `${base}/link-invites/${guestInvite.id}`, guest.token)).json().redundant).toBe(true);
    expect((await call('GET', `${base}/link-invites/${guestInvite.id}`, outsider.token)).json().redundant).toBe(false);
    expectError(await call('GET', `${base}/link-invites/inv_unknown`, outsider.token), 404);
    // Through another organization it does not exist.
    const elsewhere = await setup();
    expectError(await call('GET', `${elsewhere.base}/link-invites/${editInvite.id}`, elsewhere.admin.token), 404);
  });
});

describe('joining with a link invite', () => {
  it("adds the caller with the invite's role, keeps a higher role, raises a lower one, and leaves the invite usable", async () => {
    const { organizationId, admin, base, call, linkInvite, join, membership, member } = await setup();
    const invite = await linkInvite('edit');
    const newcomer = await buildUser(t.database, 'newcomer');
    // Read before joining (and cached): not redundant yet.
    expect((await call('GET', `${base}/link-invites/${invite.id}`, newcomer.token)).json().redundant).toBe(false);
    await official(newcomer).orgs.joinOrganizationWithInvite(organizationId, invite.id);
    expect(await membership(newcomer.id)).toEqual({ role: 'edit' });
    expect((await call('GET', `${base}/link-invites/${invite.id}`, newcomer.token)).json().redundant).toBe(true);
    // The new member sees the organization.
    expect((await call('GET', base, newcomer.token)).statusCode).toBe(200);

    const second = await buildUser(t.database, 'second');
    const joined = await join(invite.id, second);
    expect(joined.statusCode, joined.body).toBe(200);
    expectMatchesSchema('POST', `${INVITES}/{inviteId}`, 200, joined.json());
    expect(await membership(second.id)).toEqual({ role: 'edit' });

    const [reader, creator, guest] = [await member('read'), await member('create'), await member(null)];
    for (const user of [reader, creator, guest]) expect((await join(invite.id, user)).statusCode).toBe(200);
    expect(await membership(reader.id)).toEqual({ role: 'edit' });
    expect(await membership(creator.id)).toEqual({ role: 'create' });
    expect(await membership(guest.id)).toEqual({ role: 'edit' });
    // Joining as a guest never demotes anyone; an admin stays admin.
    const guestInvite = await linkInvite(null);
    expect((await join(guestInvite.id, reader)).statusCode).toBe(200);
    expect(await membership(reader.id)).toEqual({ role: 'edit' });
    expect((await join(guestInvite.id, admin)).statusCode).toBe(200);
    expect(await membership(admin.id)).toEqual({ role: 'admin' });
  });

  it('is refused while the organization has link invites off (403), for unknown invites (404) and without a token (401)', async () => {
    const { organizationId, admin, base, call, linkInvite, join, membership } = await setup();
    const invite = await linkInvite('read');
    const newcomer = await buildUser(t.database, 'newcomer');
    expect((await call('PATCH', base, admin.token, { inviteLinks: false })).statusCode).toBe(200);
    expectError(await join(invite.id, newcomer), 403, /inviteLinks/);
    expectError(await call('GET', `${base}/link-invites/${invite.id}`, newcomer.token), 404);
    expectError(await call('POST', `${base}/link-invites`, admin.token, { role: 'read' }), 403, /inviteLinks/);
    // Admins still see and manage the existing ones.
    expect((await call('GET', `${base}/link-invites/${invite.id}`, admin.token)).statusCode).toBe(200);
    expect(await membership(newcomer.id)).toBeNull();
    expect((await call('PATCH', base, admin.token, { inviteLinks: true })).statusCode).toBe(200);
    expect((await join(invite.id, newcomer)).statusCode).toBe(200);

    await expectOfficialError(official(newcomer).orgs.joinOrganizationWithInvite(organizationId, 'inv_unknown'), 404);
    const elsewhere = await setup();
    expectError(await elsewhere.join(invite.id, newcomer), 404);
    expectError(await call('POST', `${base}/invites/${invite.id}`), 401);
  });
});

describe('email invites', () => {
  it('creates one invite per address, reuses an unused one, skips members, and lets only that user join, once', async () => {
    const { organizationId, admin, base, call, join, membership, invites, member } = await setup();
    const ada = await buildUserWithEmail(t.database, `ada-${unique()}@invites.test`);
    const existing = await member('read');
    const bobEmail = `bob-${unique()}@invites.test`;
    const { data } = await official(admin).orgs.inviteUsersToOrganization(organizationId, {
      emails: [ada.email.toUpperCase(), { email: bobEmail, role: 'admin' as never }, existing.email],
      role: 'comment' as never,
    });
    expectMatchesSchema('POST', INVITES, 200, data);
    const result = data as typeof data & { invites: Array<{ id: string; email: string; role: string }>; alreadyMembers: string[] };
    expect(result.users).toEqual([]);
    expect(result.invited).toBe(2);
    expect(result.alreadyMembers).toEqual([existing.email]);
    expect(result.invites.map((invite) => [invite.email, invite.role])).toEqual([
      [ada.email, 'comment'],
      [bobEmail, 'admin'],
    ]);
    // Again: the same invites, with the new role; nothing new written.
    const again = (await call('POST', `${base}/invites`, admin.token, { emails: [ada.email], role: 'edit' })).json();
    expect(again.invites.map((invite: any) => [invite.id, invite.role])).toEqual([[result.invites[0]!.id, 'edit']]);
    expect(await invites()).toHaveLength(2);
    // Email invites are not link invites.
    expect((await call('GET', `${base}/link-invites`, admin.token)).json().count).toBe(0);

    const adaInvite = result.invites[0]!.id;
    const stranger = await buildUser(t.database, 'stranger');
    expectError(await join(adaInvite, stranger), 403, 'This invite is for another email address');
    expectError(await call('GET', `${base}/link-invites/${adaInvite}`, stranger.token), 404);
    // The invited user reads it, and joins with its role, once.
    const adaView = await call('GET', `${base}/link-invites/${adaInvite}`, ada.token);
    expectMatchesSchema('GET', LINK_INVITE, 200, adaView.json());
    expect(adaView.json()).toMatchObject({ role: 'edit', redundant: false, email: ada.email });
    expect((await join(adaInvite, ada)).statusCode).toBe(200);
    expect(await membership(ada.id)).toEqual({ role: 'edit' });
    expectError(await join(adaInvite, ada), 409, 'This invite was already used');
    expect((await t.database.db.invite.findUniqueOrThrow({ where: { id: adaInvite } })).usedAt).toBeInstanceOf(Date);
    expect(await membership(stranger.id)).toBeNull();
    // A used invite is not reused: inviting again makes a new one (skipped here: Ada is a member now).
    expect((await call('POST', `${base}/invites`, admin.token, { emails: [ada.email] })).json()).toMatchObject({ invited: 0, alreadyMembers: [ada.email] });
  });

  it('keeps one unused invite per address under concurrent invitations, and lets an email invite be used once under concurrent joins', async () => {
    const { admin, base, call, join, invites, membership } = await setup();
    const ada = await buildUserWithEmail(t.database, `ada-${unique()}@invites.test`);
    const sent = await Promise.all(Array.from({ length: 6 }, () => call('POST', `${base}/invites`, admin.token, { emails: [ada.email], role: 'read' })));
    expect(sent.map((response) => response.statusCode)).toEqual(Array(6).fill(200));
    const rows = await invites();
    expect(rows).toHaveLength(1);
    const joins = await Promise.all(Array.from({ length: 4 }, () => join(rows[0]!.id, ada)));
    expect(joins.map((response) => response.statusCode).sort()).toEqual([200, 409, 409, 409]);
    expect(await membership(ada.id)).toEqual({ role: 'read' });
  });

  it("refuses bad addresses and roles with a 400 naming the field, writing nothing; defaults to the organization's role", async () => {
    const { admin, base, call, invites } = await setup();
    const bad: Array<[unknown, RegExp | string]> = [
      [{}, 'emails: is required'],
      [{ emails: [] }, /^emails: /],
      [{ emails: ['not-an-email'] }, /^emails\.0: /],
      [{ emails: ['a@example.test', { email: 'b@example.test' }] }, /^emails\.1/],
      [{ emails: ['a@example.test'], role: 'owner' }, /^role: /],
      [{ emails: Array.from({ length: 101 }, (_, i) => `u${i}@example.test`) }, /^emails: /],
      [{ emails: ['a@example.test'], sso: true }, /^sso: /],
    ];
    for (const [body, message] of bad) expectError(await call('POST', `${base}/invites`, admin.token, body), 400, message);
    expect(await invites()).toEqual([]);
    await call('PATCH', base, admin.token, { defaultRole: 'review' });
    const made = (await call('POST', `${base}/invites`, admin.token, { emails: [`c-${unique()}@example.test`] })).json();
    expect(made.invites[0].role).toBe('review');
  });
});
