import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/app.ts';
import { addMember, buildTeam, buildUser } from './support/factories.ts';
import { expectData } from './support/graphql.ts';
import { buildSiteWorld } from './support/sites.ts';
import { untilGenerationsHeard } from './support/generations.ts';
import { GENERATION_SCOPES } from '../prisma/generation-triggers.ts';

// The whole suite runs with the response cache on; these tests pin down when
// it answers and prove that no write leaves a stale answer behind, whichever
// instance (or tool) makes it.
let t: TestApp;
let other: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  other = await createTestApp(); // a second instance on the same database
  await Promise.all([untilGenerationsHeard(t.database), untilGenerationsHeard(other.database)]);
});

async function spaceOfTeam() {
  const team = await buildTeam(t.database);
  const created = await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Cached' } });
  expect(created.statusCode).toBe(201);
  return { ...team, spaceId: created.json().id as string };
}

const SPACE_QUERY = 'query($id: ID!) { space(id: $id) { id title permissions { edit } } }';

describe('the response cache', () => {
  it('answers a repeated REST read from memory with the same body, without SQL', async () => {
    const { admin, spaceId } = await spaceOfTeam();
    const first = await t.call('GET', `/v1/spaces/${spaceId}`, { token: admin.token });
    // This instance's own writes are heard back first (PostgreSQL), not counted below.
    await t.database.generations.barrier();
    const before = t.statements();
    const second = await t.call('GET', `/v1/spaces/${spaceId}`, { token: admin.token });
    expect(first.headers['x-cache']).toBe('miss');
    expect(second.headers['x-cache']).toBe('hit');
    expect(second.statusCode).toBe(200);
    expect(second.headers['content-type']).toMatch(/application\/json/);
    expect(second.json()).toEqual(first.json());
    // The viewer and its generations are kept in memory too (src/domain/users/viewer-cache.ts).
    expect(t.statements() - before).toBe(0);
  });

  it('keeps GraphQL answers too, also those answered straight from the plan of a document already run', async () => {
    const [one, two] = [await spaceOfTeam(), await spaceOfTeam()];
    const query = 'query($id: ID!) { organization(id: $id) { title spaces(first: 5) { edges { node { id title } } } } }';
    const read = (team: typeof one) => t.call('POST', '/graphql', { token: team.admin.token, body: { query, variables: { id: team.organization.id } } });
    // The document's first run goes through Yoga, compiled; other variables are then answered from its plan.
    expect((await read(one)).headers['x-cache']).toBe('miss');
    const first = await read(two);
    expect(first.headers['x-cache']).toBe('miss');
    await t.database.generations.barrier();
    const before = t.statements();
    const second = await read(two);
    expect(second.headers['x-cache']).toBe('hit');
    expect(second.json()).toEqual(first.json());
    expect(second.json().data.organization.spaces.edges.map((edge: { node: { id: string } }) => edge.node.id)).toEqual([two.spaceId]);
    expect(t.statements() - before).toBe(0);
  });

  it('serves a kept answer in the encoding each client asks for, with its length and Vary', async () => {
    const { admin, organization } = await spaceOfTeam();
    for (const title of ['Second', 'Third']) {
      expect((await t.call('POST', `/v1/orgs/${organization.id}/spaces`, { token: admin.token, body: { title } })).statusCode).toBe(201);
    }
    const read = (acceptEncoding?: string) =>
      t.call('GET', `/v1/orgs/${organization.id}/spaces`, {
        token: admin.token,
        headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
      });
    const plain = await read();
    expect(plain.headers['x-cache']).toBe('miss');
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const decoded = { br: brotliDecompressSync, gzip: gunzipSync };
    for (const [acceptEncoding, encoding] of [
      ['br, gzip', 'br'],
      ['gzip, deflate, br;q=0.5', 'gzip'],
      ['*', 'gzip'],
      ['br', 'br'],
    ] as const) {
      const hit = await read(acceptEncoding);
      expect([acceptEncoding, hit.headers['x-cache'], hit.headers['content-encoding']]).toEqual([acceptEncoding, 'hit', encoding]);
      expect(String(hit.headers.vary)).toMatch(/accept-encoding/i);
      expect(Number(hit.headers['content-length'])).toBe(hit.rawPayload.length);
      expect(decoded[encoding](hit.rawPayload).toString()).toBe(plain.body);
    }
    // Asked for nothing, or for nothing we speak, or for no compression as @fastify/compress reads it: as it is.
    for (const acceptEncoding of [undefined, 'identity', 'zstd']) {
      const hit = await read(acceptEncoding);
      expect([hit.headers['x-cache'], hit.headers['content-encoding'], hit.body]).toEqual(['hit', undefined, plain.body]);
    }
    const refused = await t.call('GET', `/v1/orgs/${organization.id}/spaces`, {
      token: admin.token,
      headers: { 'accept-encoding': 'gzip', 'x-no-compression': '1' },
    });
    expect([refused.headers['x-cache'], refused.headers['content-encoding'], refused.body]).toEqual(['hit', undefined, plain.body]);
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
    // Another instance's write is heard once its announcement arrives (LISTEN/NOTIFY on PostgreSQL).
    await t.database.generations.barrier({ everything: true });
    expect([await read(t), await readGraphQL()]).toEqual(['Through another instance', 'Through another instance']);

    await warm();
    await t.database.db.space.update({ where: { id: spaceId }, data: { title: 'Through SQL' } });
    expect([await read(t), await readGraphQL()]).toEqual(['Through SQL', 'Through SQL']);
  });

  it("is not stale when another instance's write is followed by one of this instance's own before any request", async () => {
    const { admin, spaceId } = await spaceOfTeam();
    const unrelated = await buildUser(t.database, 'unrelated');
    const read = async () => (await t.call('GET', `/v1/spaces/${spaceId}`, { token: admin.token })).json().title;
    await read();
    expect(await read()).toBe('Cached');
    expect((await other.call('PATCH', `/v1/spaces/${spaceId}`, { token: admin.token, body: { title: 'Elsewhere first' } })).statusCode).toBe(200);
    // A write of this instance's own (a job, a tool) before it serves a request: on SQLite its
    // commit must not be taken as covering the other program's.
    await t.database.db.user.update({ where: { id: unrelated.id }, data: { displayName: 'Unrelated' } });
    await t.database.generations.barrier({ everything: true });
    expect(await read()).toBe('Elsewhere first');
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
      body: {
        query: 'mutation($input: UpdateSpaceInput!) { updateSpace(input: $input) { space { title } } }',
        variables: { input: { spaceId, title: 'Again' } },
      },
    });
    expect(mutation.headers['x-cache']).toBeUndefined();
  });

  it('drops only the answers of the organization a write is in', async () => {
    const teamA = await spaceOfTeam();
    const teamB = await spaceOfTeam();
    const both = await addMember(t.database, teamA.organization.id, await buildUser(t.database, 'both'), 'read');
    await addMember(t.database, teamB.organization.id, both, 'read');
    const read = (token: string, spaceId: string) => t.call('GET', `/v1/spaces/${spaceId}`, { token });
    const warm = async () => {
      for (const [token, spaceId] of [
        [teamA.admin.token, teamA.spaceId],
        [teamB.admin.token, teamB.spaceId],
        [both.token, teamB.spaceId],
      ] as const) {
        await read(token, spaceId);
        expect((await read(token, spaceId)).headers['x-cache']).toBe('hit');
      }
    };

    await warm();
    expect((await t.call('PATCH', `/v1/spaces/${teamA.spaceId}`, { token: teamA.admin.token, body: { title: 'Written in A' } })).statusCode).toBe(200);
    // B's admin read nothing of A: still cached. A's admin is recomputed; the member of both read
    // only B's space and B's own rows, which did not change.
    expect((await read(teamB.admin.token, teamB.spaceId)).headers['x-cache']).toBe('hit');
    const again = await read(teamA.admin.token, teamA.spaceId);
    expect([again.headers['x-cache'], again.json().title]).toEqual(['miss', 'Written in A']);
    expect((await read(both.token, teamB.spaceId)).headers['x-cache']).toBe('hit');

    // The same through SQL typed by hand, on each database.
    await warm();
    await t.database.db.$executeRawUnsafe(`UPDATE "spaces" SET "title" = 'By hand in B' WHERE "id" = '${teamB.spaceId}'`);
    expect((await read(teamA.admin.token, teamA.spaceId)).headers['x-cache']).toBe('hit');
    const byHand = await read(teamB.admin.token, teamB.spaceId);
    expect([byHand.headers['x-cache'], byHand.json().title]).toEqual(['miss', 'By hand in B']);
  });

  it('drops, of an organization, only the answers about the space a write is in, unless its own rows change', async () => {
    const team = await spaceOfTeam();
    const { organization, admin } = team;
    const [a, b] = [
      team.spaceId,
      (await t.call('POST', `/v1/orgs/${organization.id}/spaces`, { token: admin.token, body: { title: 'B' } })).json().id as string,
    ];
    const reader = await addMember(t.database, organization.id, await buildUser(t.database, 'fine-reader'), 'read');
    const paths = (spaceId: string) => [
      `/v1/spaces/${spaceId}`,
      `/v1/spaces/${spaceId}/content`,
      `/v1/spaces/${spaceId}/change-requests`,
      `/v1/spaces/${spaceId}/comments`,
    ];
    const caching = async (spaceId: string, app = t) => {
      const seen: unknown[] = [];
      for (const path of paths(spaceId)) {
        const response = await app.call('GET', path, { token: reader.token });
        expect([path, response.statusCode]).toEqual([path, 200]);
        seen.push(response.headers['x-cache']);
      }
      return seen;
    };
    const hits = paths(a).map(() => 'hit');
    const misses = paths(a).map(() => 'miss');
    const warm = async () => {
      for (const spaceId of [a, b]) {
        await caching(spaceId);
        expect(await caching(spaceId)).toEqual(hits);
      }
    };

    // A write in space A (its row): B's answers stay cached, A's are recomputed.
    await warm();
    expect((await t.call('PATCH', `/v1/spaces/${a}`, { token: admin.token, body: { title: 'A renamed' } })).statusCode).toBe(200);
    expect(await caching(b)).toEqual(hits);
    expect(await caching(a)).toEqual(misses);
    expect((await t.call('GET', `/v1/spaces/${a}`, { token: reader.token })).json().title).toBe('A renamed');

    // Inside space A (a comment): the same.
    await warm();
    expect((await t.call('POST', `/v1/spaces/${a}/comments`, { token: admin.token, body: { body: { markdown: 'On A' } } })).statusCode).toBe(200);
    expect(await caching(b)).toEqual(hits);
    expect(await caching(a)).toEqual(misses);
    const comments = (await t.call('GET', `/v1/spaces/${a}/comments`, { token: reader.token })).json();
    expect(comments.items.length).toBe(1);

    // The organization's own rows (a team, members' roles, grants, collections) may change any space's answer.
    await warm();
    expect((await t.call('PUT', `/v1/orgs/${organization.id}/teams`, { token: admin.token, body: { title: 'Writers' } })).statusCode).toBeLessThan(300);
    expect(await caching(a)).toEqual(misses);
    expect(await caching(b)).toEqual(misses);

    // Through another instance, and through SQL typed by hand.
    await warm();
    expect((await other.call('PATCH', `/v1/spaces/${b}`, { token: admin.token, body: { title: 'B elsewhere' } })).statusCode).toBe(200);
    await t.database.generations.barrier({ everything: true });
    // On SQLite another process's write is known only as a write to the file: everything is forgotten.
    expect(await caching(a)).toEqual(t.database.provider === 'postgresql' ? hits : misses);
    expect(await caching(b)).toEqual(misses);
    await warm();
    await t.database.db.$executeRawUnsafe(`UPDATE "spaces" SET "title" = 'B by hand' WHERE "id" = '${b}'`);
    expect(await caching(a)).toEqual(hits);
    expect(await caching(b)).toEqual(misses);
    expect((await t.call('GET', `/v1/spaces/${b}`, { token: reader.token })).json().title).toBe('B by hand');

    // GraphQL answers, and REST reads of several spaces, still depend on the whole organization.
    const graphql = () => t.call('POST', '/graphql', { token: reader.token, body: { query: SPACE_QUERY, variables: { id: b } } });
    await graphql();
    expect((await graphql()).headers['x-cache']).toBe('hit');
    expect((await t.call('PATCH', `/v1/spaces/${a}`, { token: admin.token, body: { title: 'A again' } })).statusCode).toBe(200);
    expect((await graphql()).headers['x-cache']).toBe('miss');
  });

  it("drops the organization's space listing when a space is created or deleted", async () => {
    const { organization, admin, spaceId } = await spaceOfTeam();
    const listing = async () => {
      const response = await t.call('GET', `/v1/orgs/${organization.id}/spaces`, { token: admin.token });
      return [response.headers['x-cache'], response.json().items.map((space: { id: string }) => space.id)];
    };
    await listing();
    expect(await listing()).toEqual(['hit', [spaceId]]);
    const created = (await t.call('POST', `/v1/orgs/${organization.id}/spaces`, { token: admin.token, body: { title: 'New' } })).json().id as string;
    expect(await listing()).toEqual(['miss', [spaceId, created]]);
    expect(await listing()).toEqual(['hit', [spaceId, created]]);
    expect((await t.call('DELETE', `/v1/spaces/${spaceId}`, { token: admin.token })).statusCode).toBeLessThan(300);
    expect(await listing()).toEqual(['miss', [created]]);
  });

  it('drops the answers of every organization of a user whose profile changes', async () => {
    const { organization, admin } = await spaceOfTeam();
    const member = await addMember(t.database, organization.id, await buildUser(t.database, 'renamed'), 'read');
    const listing = () => t.call('GET', `/v1/orgs/${organization.id}/members/${member.id}`, { token: admin.token });
    await listing();
    expect((await listing()).headers['x-cache']).toBe('hit');
    await t.database.db.user.update({ where: { id: member.id }, data: { displayName: 'Renamed Member' } });
    const after = await listing();
    expect([after.headers['x-cache'], after.json().user.displayName]).toEqual(['miss', 'Renamed Member']);
    // A user of no organization: its own answers follow its own generation.
    const loner = await buildUser(t.database, 'loner');
    const me = () => t.call('GET', '/v1/user', { token: loner.token });
    await me();
    expect((await me()).headers['x-cache']).toBe('hit');
    await t.database.db.user.update({ where: { id: loner.id }, data: { displayName: 'Lone Renamed' } });
    expect((await me()).json().displayName).toBe('Lone Renamed');
  });

  it("keeps a visitor's answers about another organization's published site until that organization changes", async () => {
    const w = await buildSiteWorld(t);
    const space = await w.space('Guide');
    const site = await w.site({ title: 'Public docs', spaces: [space.id] });
    await w.publish(site.id);
    const visitor = await buildUser(t.database, 'visitor');
    const elsewhere = await spaceOfTeam();
    const published = () => t.call('GET', w.url(site.id, '/published'), { token: visitor.token });

    expect((await published()).headers['x-cache']).toBe('miss');
    // This instance's own writes are heard back first (PostgreSQL), not counted below.
    await t.database.generations.barrier();
    const before = t.statements();
    const hit = await published();
    expect(hit.headers['x-cache']).toBe('hit');
    // The generation of the site's organization (the visitor's own are kept in memory).
    expect(t.statements() - before).toBe(1);

    await t.call('PATCH', `/v1/spaces/${elsewhere.spaceId}`, { token: elsewhere.admin.token, body: { title: 'Elsewhere' } });
    expect((await published()).headers['x-cache']).toBe('hit');
    await w.patchSite(site.id, { title: 'Renamed docs' });
    const after = await published();
    expect([after.headers['x-cache'], after.json().site.title]).toEqual(['miss', 'Renamed docs']);
    // Through the other instance, and in GraphQL alike.
    const query = 'query($id: ID!) { publishedSite(siteId: $id) { site { title } } }';
    expect(expectData(await t.graphql(visitor.token, query, { id: site.id })).publishedSite.site.title).toBe('Renamed docs');
    await other.call('PATCH', w.url(site.id), { token: w.token, body: { title: 'Renamed again' } });
    await t.database.generations.barrier({ everything: true });
    expect(expectData(await t.graphql(visitor.token, query, { id: site.id })).publishedSite.site.title).toBe('Renamed again');
  });

  it('is bumped by triggers on every table that responses are made of, for the scopes of the written rows', async () => {
    const { db, provider } = t.database;
    const triggers = (
      provider === 'sqlite'
        ? await db.$queryRaw<Array<{ name: string }>>`SELECT tbl_name AS name FROM sqlite_master WHERE type = 'trigger' AND sql LIKE '%data_generations%'`
        : await db.$queryRaw<Array<{ name: string }>>`SELECT c.relname::text AS name FROM pg_trigger tg JOIN pg_class c ON c.oid = tg.tgrelid
            JOIN pg_proc p ON p.oid = tg.tgfoid WHERE p.proname LIKE '%\_bump\_generations' AND NOT tg.tgisinternal`
    ).map((row) => row.name);
    const tables = (
      provider === 'sqlite'
        ? await db.$queryRaw<Array<{ name: string }>>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
        : await db.$queryRaw<Array<{ name: string }>>`SELECT tablename::text AS name FROM pg_tables WHERE schemaname = current_schema()`
    ).map((row) => row.name);
    expect(tables.length).toBeGreaterThan(10);
    // Every table says how its rows find their scopes, and has its insert, update and delete triggers.
    expect(tables.filter((table) => !(table in GENERATION_SCOPES))).toEqual([]);
    const counts = Object.fromEntries(tables.map((table) => [table, triggers.filter((name) => name === table).length]));
    const expected = Object.fromEntries(tables.map((table) => [table, GENERATION_SCOPES[table] ? 3 : 0]));
    expect(counts).toEqual(expected);
  });

  it('bumps the organization of each written row, also through a parent, and both organizations of a transfer', async () => {
    const generation = async (scope: string) => (await t.database.db.dataGeneration.findUnique({ where: { scope } }))?.version ?? 0n;
    const w = await buildSiteWorld(t);
    const target = await spaceOfTeam();
    const space = await w.space('Moving');
    const site = await w.site({ title: 'Docs', spaces: [space.id] });

    let before = [await generation(w.organizationId), await generation(target.organization.id)];
    await t.database.db.siteSpace.updateMany({ where: { siteId: site.id }, data: { path: 'renamed' } });
    expect(await generation(w.organizationId)).toBeGreaterThan(before[0]!);
    expect(await generation(target.organization.id)).toBe(before[1]);

    before = [await generation(w.organizationId), await generation(target.organization.id)];
    await t.database.db.space.update({ where: { id: space.id }, data: { organizationId: target.organization.id } });
    expect(await generation(w.organizationId)).toBeGreaterThan(before[0]!);
    expect(await generation(target.organization.id)).toBeGreaterThan(before[1]!);
  });
});
