import { beforeAll, describe, expect, it } from 'vitest';
import { hashApiToken } from '../../src/lib/tokens.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { buildTeam, unique } from '../support/factories.ts';
import { CLI_TEST_TIMEOUT, cli, expectFailure, jsonLine, ROOT } from './support.ts';
import fs from 'node:fs';
import path from 'node:path';

/** `--version`, `bootstrap` and `users create`: accounts and tokens from the command line. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const bootstrap = (org: string, email: string) => cli(['bootstrap', '--org', org, '--email', email, '--json']);

async function organizationWithAdmin() {
  const team = await buildTeam(t.database);
  return { organizationId: team.organization.id, token: team.admin.token };
}

describe('docs-gateway --version', () => {
  it("prints the package's version and exits 0", async () => {
    const run = await cli(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version);
  });
});

describe('docs-gateway bootstrap', () => {
  it(
    'prints {organizationId, userId, token} on one line, and is idempotent',
    async () => {
      const title = `CLI Org ${unique()}`;
      const email = `cli-${unique()}@example.test`;

      const first = jsonLine(await bootstrap(title, email));
      expect(Object.keys(first).sort()).toEqual(['organizationId', 'token', 'userId']);
      expect(first.organizationId).toMatch(/^org_/);
      expect(first.userId).toMatch(/^usr_/);
      expect(first.token).toMatch(/^dgw_/);

      const organization = await t.database.db.organization.findUnique({ where: { id: first.organizationId } });
      expect(organization).toMatchObject({ title });
      expect(await t.database.db.user.findUnique({ where: { id: first.userId } })).toMatchObject({ email });
      const membership = await t.database.db.member.findUnique({
        where: { organizationId_userId: { organizationId: first.organizationId, userId: first.userId } },
      });
      expect(membership).toMatchObject({ role: 'admin', disabled: false });

      const second = jsonLine(await bootstrap(title, email));
      expect(second.organizationId).toBe(first.organizationId);
      expect(second.userId).toBe(first.userId);
      expect(second.token).toMatch(/^dgw_/);
      expect(second.token).not.toBe(first.token);
      expect(await t.database.db.organization.count({ where: { title } })).toBe(1);
      expect(await t.database.db.user.count({ where: { email } })).toBe(1);
      expect(await t.database.db.member.count({ where: { organizationId: first.organizationId } })).toBe(1);

      // Tokens are stored as their SHA-256 only.
      const tokens = await t.database.db.apiToken.findMany({ where: { userId: first.userId } });
      expect(tokens.map((row) => row.tokenHash).sort()).toEqual([hashApiToken(first.token), hashApiToken(second.token)].sort());
      expect(JSON.stringify(tokens)).not.toContain(second.token);

      // The new token works against the HTTP API.
      const viewer = await t.call('GET', '/v1/user', { token: second.token });
      expect(viewer.statusCode, viewer.body).toBe(200);
      expect(viewer.json()).toMatchObject({ object: 'user', id: first.userId, email });
      const org = await t.call('GET', `/v1/orgs/${first.organizationId}`, { token: second.token });
      expect(org.statusCode, org.body).toBe(200);
      expect(org.json()).toMatchObject({ id: first.organizationId, title });
      // An admin: it may create content.
      const space = await t.call('POST', `/v1/orgs/${first.organizationId}/spaces`, {
        token: second.token,
        body: { title: 'From the CLI' },
      });
      expect(space.statusCode, space.body).toBe(201);
    },
    CLI_TEST_TIMEOUT,
  );

  it(
    'gives the same user a second organization with another --org',
    async () => {
      const email = `cli-${unique()}@example.test`;
      const [titleA, titleB] = [`CLI Org A ${unique()}`, `CLI Org B ${unique()}`];
      const a = jsonLine(await bootstrap(titleA, email));
      const b = jsonLine(await bootstrap(titleB, email));
      expect(b.userId).toBe(a.userId);
      expect(b.organizationId).not.toBe(a.organizationId);
      expect(await t.database.db.organization.findUnique({ where: { id: b.organizationId } })).toMatchObject({
        title: titleB,
      });
      const memberships = await t.database.db.member.findMany({ where: { userId: a.userId }, orderBy: { joinedAt: 'asc' } });
      expect(memberships.map((row) => [row.organizationId, row.role]).sort()).toEqual(
        [
          [a.organizationId, 'admin'],
          [b.organizationId, 'admin'],
        ].sort(),
      );

      for (const token of [a.token, b.token]) {
        const orgs = await t.call('GET', '/v1/orgs', { token });
        expect(orgs.statusCode, orgs.body).toBe(200);
        expect(
          orgs
            .json()
            .items.map((org: { id: string }) => org.id)
            .sort(),
        ).toEqual([a.organizationId, b.organizationId].sort());
      }
    },
    CLI_TEST_TIMEOUT,
  );

  it(
    'fails with a message on stderr when a flag is missing or invalid',
    async () => {
      const email = `cli-${unique()}@example.test`;
      const [missingEmail, badEmail, badTitle] = await Promise.all([
        cli(['bootstrap', '--org', `CLI Org ${unique()}`, '--json']),
        cli(['bootstrap', '--org', `CLI Org ${unique()}`, '--email', 'not-an-email', '--json']),
        cli(['bootstrap', '--org', ' ', '--email', email, '--json']),
      ]);
      expectFailure(missingEmail, /--email/);
      expectFailure(badEmail, /email/);
      expectFailure(badTitle, /org/);
      expect(await t.database.db.user.count({ where: { email } })).toBe(0);
    },
    CLI_TEST_TIMEOUT,
  );
});

describe('docs-gateway users create', () => {
  it(
    'creates a member with the role and prints {userId, token}',
    async () => {
      // An organization and its admin, made in the test (bootstrap has its own tests above).
      const admin = await organizationWithAdmin();
      const organizationId = admin.organizationId!;
      const editorEmail = `cli-editor-${unique()}@example.test`;
      const guestEmail = `cli-guest-${unique()}@example.test`;
      const [editorRun, guestRun] = await Promise.all([
        cli(['users', 'create', '--email', editorEmail, '--org', organizationId, '--role', 'edit', '--json']),
        cli(['users', 'create', '--email', guestEmail, '--org', organizationId, '--role', 'guest', '--json']),
      ]);
      const editor = jsonLine(editorRun);
      const guest = jsonLine(guestRun);
      expect(Object.keys(editor).sort()).toEqual(['token', 'userId']);
      expect(Object.keys(guest).sort()).toEqual(['token', 'userId']);
      expect(editor.userId).toMatch(/^usr_/);
      expect(editor.token).toMatch(/^dgw_/);

      const memberRow = (userId: string) => t.database.db.member.findUnique({ where: { organizationId_userId: { organizationId, userId } } });
      expect(await memberRow(editor.userId!)).toMatchObject({ role: 'edit' });
      expect(await memberRow(guest.userId!)).toMatchObject({ role: null });
      expect(await t.database.db.user.findUnique({ where: { id: editor.userId } })).toMatchObject({ email: editorEmail });

      // Through the API, as the organization's admin and as the new users.
      const asAdmin = await t.call('GET', `/v1/orgs/${organizationId}/members/${editor.userId}`, { token: admin.token });
      expect(asAdmin.statusCode, asAdmin.body).toBe(200);
      expect(asAdmin.json()).toMatchObject({ id: editor.userId, role: 'edit' });
      const guestMember = await t.call('GET', `/v1/orgs/${organizationId}/members/${guest.userId}`, { token: admin.token });
      expect(guestMember.statusCode, guestMember.body).toBe(200);
      expect(guestMember.json()).toMatchObject({ id: guest.userId, role: null });
      const me = await t.call('GET', '/v1/user', { token: editor.token });
      expect(me.statusCode, me.body).toBe(200);
      expect(me.json()).toMatchObject({ id: editor.userId, email: editorEmail });
      // An editor may not create spaces; a guest may not list members.
      expect((await t.call('POST', `/v1/orgs/${organizationId}/spaces`, { token: editor.token, body: {} })).statusCode).toBe(403);
      expect((await t.call('GET', `/v1/orgs/${organizationId}/members`, { token: guest.token })).statusCode).toBe(403);
      expect((await t.call('GET', `/v1/orgs/${organizationId}/members`, { token: editor.token })).statusCode).toBe(200);

      // An existing email is reused, with the new role and a new token.
      const again = jsonLine(await cli(['users', 'create', '--email', editorEmail, '--org', organizationId, '--role', 'read', '--json']));
      expect(again.userId).toBe(editor.userId);
      expect(again.token).not.toBe(editor.token);
      expect(await memberRow(editor.userId!)).toMatchObject({ role: 'read' });
      expect(await t.database.db.user.count({ where: { email: editorEmail } })).toBe(1);
      expect((await t.call('GET', '/v1/user', { token: again.token })).json()).toMatchObject({ id: editor.userId });
    },
    CLI_TEST_TIMEOUT,
  );

  it(
    'fails on an invalid role or an unknown organization, and creates nobody',
    async () => {
      // An organization and its admin, made in the test (bootstrap has its own tests above).
      const admin = await organizationWithAdmin();
      const emails = [`cli-x-${unique()}@example.test`, `cli-y-${unique()}@example.test`, `cli-z-${unique()}@example.test`];
      const [badRole, unknownOrg, noRole] = await Promise.all([
        cli(['users', 'create', '--email', emails[0]!, '--org', admin.organizationId!, '--role', 'owner', '--json']),
        cli(['users', 'create', '--email', emails[1]!, '--org', 'org_doesnotexist', '--role', 'edit', '--json']),
        cli(['users', 'create', '--email', emails[2]!, '--org', admin.organizationId!, '--json']),
      ]);
      // The roles it takes, named.
      expectFailure(badRole, /^docs-gateway: role: must be one of admin, create, review, edit, comment, read, guest\n$/);
      expectFailure(unknownOrg, /org_doesnotexist/);
      expectFailure(noRole, /--role/);
      expect(await t.database.db.user.count({ where: { email: { in: emails } } })).toBe(0);
      expect(await t.database.db.member.count({ where: { organizationId: admin.organizationId } })).toBe(1);
    },
    CLI_TEST_TIMEOUT,
  );
});
