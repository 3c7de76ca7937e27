import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.ts';
import { addMember, buildTeam, buildUser } from './support/factories.ts';
import { expectData } from './support/graphql.ts';

// The whole suite runs with the response cache on; these tests pin down when
// it answers and prove that no write leaves a stale answer behind, whichever
// instance (or tool) makes it.
let t: TestApp;
let other: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  other = await createTestApp(); // a second instance on the same database
});

async function spaceOfTeam() {
  const team = await buildTeam(t.database);
  const created = await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Cached' } });
  expect(created.statusCode).toBe(201);
  return { ...team, spaceId: created.json().id as string };
}

const SPACE_QUERY = 'query($id: ID!) { space(id: $id) { id title permissions { edit } } }';

describe('the response cache', () => {
  it('answers a repeated REST read from memory with the same body, and SQL only to authenticate', async () => {
    const { admin, spaceId } = await spaceOfTeam();
    const first = await t.call('GET', `/v1/spaces/${spaceId}`, { token: admin.token });
    const before = t.statements();
    const second = await t.call('GET', `/v1/spaces/${spaceId}`, { token: admin.token });
    expect(first.headers['x-cache']).toBe('miss');
    expect(second.headers['x-cache']).toBe('hit');
    expect(second.statusCode).toBe(200);
    expect(second.headers['content-type']).toMatch(/application\/json/);
    expect(second.json()).toEqual(first.json());
    expect(t.statements() - before).toBe(1);
  });

  it('is never stale after a write through REST, GraphQL, another instance or the database itself', async () => {
    const { admin, spaceId } = await spaceOfTeam();
    const read = async (app: TestApp) => (await app.call('GET', `/v1/spaces/${spaceId}`, { token: admin.token })).json().title;
    const readGraphQL = async () => expectData(await t.graphql(admin.token, SPACE_QUERY, { id: spaceId })).space.title;
    const warm = async () => {
      await read(t);
      await readGraphQL();
    };

    await warm();
    expect((await t.call('PATCH', `/v1/spaces/${spaceId}`, { token: admin.token, body: { title: 'Through REST' } })).statusCode).toBe(200);
    expect([await read(t), await readGraphQL()]).toEqual(['Through REST', 'Through REST']);

    await warm();
    const renamed = await t.graphql(admin.token, 'mutation($input: UpdateSpaceInput!) { updateSpace(input: $input) { space { title } } }', {
      input: { spaceId, title: 'Through GraphQL' },
    });
    expect(renamed.errors).toBeUndefined();
    expect([await read(t), await readGraphQL()]).toEqual(['Through GraphQL', 'Through GraphQL']);

    await warm();
    expect((await other.call('PATCH', `/v1/spaces/${spaceId}`, { token: admin.token, body: { title: 'Through another instance' } })).statusCode).toBe(200);
    expect([await read(t), await readGraphQL()]).toEqual(['Through another instance', 'Through another instance']);

    await warm();
    await t.database.db.space.update({ where: { id: spaceId }, data: { title: 'Through SQL' } });
    expect([await read(t), await readGraphQL()]).toEqual(['Through SQL', 'Through SQL']);
  });

  it('keeps each user its own answers: permissions differ, and a removed member loses access at once', async () => {
    const { organization, admin, spaceId } = await spaceOfTeam();
    const reader = await addMember(t.database, organization.id, await buildUser(t.database, 'reader'), 'read');
    for (let i = 0; i < 2; i++) {
      expect(expectData(await t.graphql(admin.token, SPACE_QUERY, { id: spaceId })).space.permissions.edit).toBe(true);
      expect(expectData(await t.graphql(reader.token, SPACE_QUERY, { id: spaceId })).space.permissions.edit).toBe(false);
    }
    expect((await t.call('GET', `/v1/spaces/${spaceId}`, { token: reader.token })).statusCode).toBe(200);
    const removed = await t.call('DELETE', `/v1/orgs/${organization.id}/members/${reader.id}`, { token: admin.token });
    expect(removed.statusCode).toBeLessThan(300);
    expect((await t.call('GET', `/v1/spaces/${spaceId}`, { token: reader.token })).statusCode).toBe(404);
  });

  it('does not keep writes, errors, visitor-token reads or unauthenticated requests', async () => {
    const { admin, spaceId } = await spaceOfTeam();
    const patch = await t.call('PATCH', `/v1/spaces/${spaceId}`, { token: admin.token, body: { title: 'Written' } });
    expect(patch.headers['x-cache']).toBeUndefined();
    for (let i = 0; i < 2; i++) {
      const missing = await t.call('GET', '/v1/spaces/spc_missing', { token: admin.token });
      expect(missing.statusCode).toBe(404);
      expect(missing.headers['x-cache']).toBeUndefined();
      const failing = await t.graphql(admin.token, SPACE_QUERY, { id: 'spc_missing' });
      expect(failing.data.space).toBeNull();
      const withVisitorToken = await t.call('GET', `/v1/spaces/${spaceId}`, { token: admin.token, headers: { 'x-visitor-token': 'x' } });
      expect(withVisitorToken.headers['x-cache']).toBeUndefined();
      const anonymous = await t.call('GET', `/v1/spaces/${spaceId}`);
      expect(anonymous.statusCode).toBe(401);
    }
    const mutation = await t.call('POST', '/graphql', {
      token: admin.token,
      body: { query: 'mutation($input: UpdateSpaceInput!) { updateSpace(input: $input) { space { title } } }', variables: { input: { spaceId, title: 'Again' } } },
    });
    expect(mutation.headers['x-cache']).toBeUndefined();
  });

  it('is bumped by a trigger on every table that responses are made of', async () => {
    const { db, provider } = t.database;
    const triggered = new Set(
      provider === 'sqlite'
        ? (await db.$queryRaw<Array<{ name: string }>>`SELECT tbl_name AS name FROM sqlite_master WHERE type = 'trigger' AND sql LIKE '%data_generation%'`).map((row) => row.name)
        : (
            await db.$queryRaw<Array<{ name: string }>>`SELECT DISTINCT c.relname::text AS name FROM pg_trigger tg JOIN pg_class c ON c.oid = tg.tgrelid
              JOIN pg_proc p ON p.oid = tg.tgfoid WHERE p.proname = 'bump_data_generation'`
          ).map((row) => row.name),
    );
    const tables = (
      provider === 'sqlite'
        ? await db.$queryRaw<Array<{ name: string }>>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
        : await db.$queryRaw<Array<{ name: string }>>`SELECT tablename::text AS name FROM pg_tables WHERE schemaname = current_schema()`
    ).map((row) => row.name);
    const exempt = ['_docs_gateway_migrations', 'api_tokens', 'data_generation'];
    const missing = tables.filter((table) => !exempt.includes(table) && !triggered.has(table));
    expect(tables.length).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });
});
