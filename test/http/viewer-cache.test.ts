import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { GENERATIONS_LISTENER } from '../../src/db/generation-feed.ts';
import { sqliteFilePath } from '../../src/db/client.ts';
import { hashApiToken } from '../../src/lib/tokens.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { buildTeam } from '../support/factories.ts';
import { untilGenerationsHeard } from '../support/generations.ts';

// The viewer behind a token is kept in memory (src/domain/users/viewer-cache.ts):
// every change that could make it wrong — a token deleted, a membership removed,
// a role changed — is refused or honoured on the next request, on this instance
// and, once the database has announced it, on every other one.

let t: TestApp;
let other: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  other = await createTestApp(); // a second instance on the same database
  await Promise.all([untilGenerationsHeard(t.database), untilGenerationsHeard(other.database)]);
});

async function counted<T>(app: TestApp, work: () => Promise<T>): Promise<{ statements: number; result: T }> {
  // This instance's own writes are heard back first (PostgreSQL), not counted below.
  await app.database.generations.barrier();
  const before = app.statements();
  const result = await work();
  return { statements: app.statements() - before, result };
}

async function spaceWith(role: 'read' | 'edit') {
  const team = await buildTeam(t.database);
  const user = await team.member(role);
  const created = await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Kept' } });
  expect(created.statusCode).toBe(201);
  return { team, user, spaceId: created.json().id as string };
}

const canEdit = async (app: TestApp, token: string, spaceId: string) => {
  const response = await app.call('GET', `/v1/spaces/${spaceId}`, { token });
  return response.statusCode === 200 ? (response.json().permissions.edit as boolean) : response.statusCode;
};

describe('the viewer behind a token', () => {
  it('is read once, then kept: a request costs no statement to authenticate', async () => {
    const { user } = await spaceWith('read');
    // (PostgreSQL: the writes above are first heard back, src/db/generation-feed.ts.)
    await t.database.generations.barrier();
    const first = await counted(t, () => t.call('GET', '/v1/user', { token: user.token }));
    const second = await counted(t, () => t.call('GET', '/v1/user', { token: user.token }));
    expect([first.result.statusCode, first.statements]).toEqual([200, 1]);
    // From the response cache, with the viewer's generations from memory.
    expect([second.result.statusCode, second.result.headers['x-cache'], second.statements]).toEqual([200, 'hit', 0]);
  });

  it('follows a role changed through the API on the next request, on this instance and another', async () => {
    const { team, user, spaceId } = await spaceWith('read');
    expect([await canEdit(t, user.token, spaceId), await canEdit(other, user.token, spaceId)]).toEqual([false, false]);
    const changed = await t.call('PATCH', `/v1/orgs/${team.organization.id}/members/${user.id}`, { token: team.admin.token, body: { role: 'edit' } });
    expect(changed.statusCode).toBe(200);
    expect(await canEdit(t, user.token, spaceId)).toBe(true);
    await other.database.generations.barrier({ everything: true });
    expect(await canEdit(other, user.token, spaceId)).toBe(true);
  });

  it('refuses a removed member and a deleted token on the next request, on this instance and another', async () => {
    const { team, user, spaceId } = await spaceWith('edit');
    expect([await canEdit(t, user.token, spaceId), await canEdit(other, user.token, spaceId)]).toEqual([true, true]);
    const removed = await other.call('DELETE', `/v1/orgs/${team.organization.id}/members/${user.id}`, { token: team.admin.token });
    expect(removed.statusCode).toBe(204);
    expect(await canEdit(other, user.token, spaceId)).toBe(404);
    await t.database.generations.barrier({ everything: true });
    expect(await canEdit(t, user.token, spaceId)).toBe(404);

    // A token deleted in the database itself, by hand: 401 from then on.
    expect((await t.call('GET', '/v1/user', { token: team.admin.token })).statusCode).toBe(200);
    expect((await other.call('GET', '/v1/user', { token: team.admin.token })).statusCode).toBe(200);
    await t.database.db.apiToken.delete({ where: { tokenHash: hashApiToken(team.admin.token) } });
    expect((await t.call('GET', '/v1/user', { token: team.admin.token })).statusCode).toBe(401);
    await other.database.generations.barrier({ everything: true });
    expect((await other.call('GET', '/v1/user', { token: team.admin.token })).statusCode).toBe(401);
  });

  it('is read again after a write that was rolled back, and answers what was committed', async () => {
    const { team, user, spaceId } = await spaceWith('read');
    expect(await canEdit(t, user.token, spaceId)).toBe(false);
    await t.database.db
      .$transaction(async (tx) => {
        await tx.member.update({ where: { organizationId_userId: { organizationId: team.organization.id, userId: user.id } }, data: { role: 'edit' } });
        throw new Error('rolled back');
      })
      .catch(() => {});
    expect(await canEdit(t, user.token, spaceId)).toBe(false);
  });

  it('follows a write another program made to the database while the server runs', async () => {
    const { team, user, spaceId } = await spaceWith('read');
    expect(await canEdit(t, user.token, spaceId)).toBe(false);
    const args = [team.organization.id, user.id];
    if (t.database.provider === 'sqlite') {
      const outside = new BetterSqlite3(sqliteFilePath(t.database.url));
      outside.prepare(`UPDATE "members" SET "role" = 'edit' WHERE "organizationId" = ? AND "userId" = ?`).run(...args);
      outside.close();
    } else {
      const outside = new pg.Client({ connectionString: t.database.url });
      await outside.connect();
      await outside.query(`UPDATE "members" SET "role" = 'edit' WHERE "organizationId" = $1 AND "userId" = $2`, args);
      await outside.end();
      await t.database.generations.barrier({ everything: true });
    }
    expect(await canEdit(t, user.token, spaceId)).toBe(true);
  });
});

describe.runIf(process.env.DATABASE_URL?.startsWith('postgres'))('when the announcements stop (PostgreSQL)', () => {
  it('reads every viewer again until it listens again, and forgets what it kept meanwhile', async () => {
    const { user } = await spaceWith('read');
    await t.call('GET', '/v1/user', { token: user.token });
    expect((await counted(t, () => t.call('GET', '/v1/user', { token: user.token }))).statements).toBe(0);

    const admin = new pg.Client({ connectionString: t.database.url });
    await admin.connect();
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()', [
      GENERATIONS_LISTENER,
    ]);
    await admin.end();
    await expect.poll(() => t.database.generations.live).toBe(false);
    // Down: each request reads its viewer (never served from memory meanwhile).
    const down = await counted(t, () => t.call('GET', '/v1/user', { token: user.token }));
    expect([down.result.statusCode, down.statements]).toEqual([200, 1]);
    await untilGenerationsHeard(t.database);
    await t.call('GET', '/v1/user', { token: user.token });
    const back = await counted(t, () => t.call('GET', '/v1/user', { token: user.token }));
    expect([back.result.statusCode, back.statements]).toEqual([200, 0]);
  });
});
