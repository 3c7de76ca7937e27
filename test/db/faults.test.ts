import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { providerOf } from '../../src/db/client.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { emptyDatabase } from '../support/databases.ts';
import { buildTeam } from '../support/factories.ts';

/**
 * A TCP proxy in front of the run's PostgreSQL that a test can cut (every
 * connection refused or dropped) or freeze (connections open, nothing answered),
 * as a network partition or a stalled server would.
 */
async function databaseProxy(target: URL) {
  let mode: 'open' | 'refuse' | 'freeze' = 'open';
  const pairs = new Set<[net.Socket, net.Socket]>();
  const server = net.createServer((client) => {
    if (mode === 'refuse') return client.destroy();
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    const close = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
    client.pipe(upstream);
    upstream.pipe(client);
    if (mode === 'freeze') upstream.pause();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    /** Answers nothing from the database: what the server sends is held back. */
    freeze() {
      mode = 'freeze';
      for (const [, upstream] of pairs) upstream.pause();
    },
    /** Every open connection dropped, every new one refused. */
    cut() {
      mode = 'refuse';
      for (const [client, upstream] of [...pairs]) {
        client.destroy();
        upstream.destroy();
      }
    },
    restore() {
      mode = 'open';
      for (const [, upstream] of pairs) upstream.resume();
    },
    close: () => {
      for (const [client, upstream] of [...pairs]) {
        client.destroy();
        upstream.destroy();
      }
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const onPostgres = providerOf(inject('databaseUrl')) === 'postgresql';

describe.skipIf(!onPostgres)('a PostgreSQL that stops answering', () => {
  let proxy: Awaited<ReturnType<typeof databaseProxy>>;
  let t: TestApp;
  let team: Awaited<ReturnType<typeof buildTeam>>;
  beforeAll(async () => {
    proxy = await databaseProxy(new URL(inject('databaseUrl')));
    t = await createTestApp({
      databaseUrl: proxy.url,
      databaseOptions: { connectTimeoutMs: 1_000, statementTimeoutMs: 1_000 },
      responseCacheBytes: 0,
    });
    team = await buildTeam(t.database);
  });
  afterAll(async () => proxy.close());

  const readOrganization = () => t.call('GET', `/v1/orgs/${team.organization.id}`, { token: team.admin.token });

  /** Requests until one succeeds: the pool replaces the connections it lost. */
  async function untilRecovered() {
    for (let attempt = 0; attempt < 20; attempt++) {
      const response = await readOrganization();
      if (response.statusCode === 200) return response;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the server did not recover');
  }

  function expectUnavailable(response: { statusCode: number; headers: Record<string, unknown>; json(): any }) {
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('5');
    expect(response.json()).toEqual({ error: { code: 503, message: 'The database is unavailable or too slow to answer; try again shortly' } });
  }

  it('answers 503 while the database is frozen, instead of hanging, and recovers when it answers again', async () => {
    expect((await readOrganization()).statusCode).toBe(200);
    proxy.freeze();
    try {
      expectUnavailable(await readOrganization());
      const ready = await t.call('GET', '/readyz');
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'unavailable', reason: expect.stringMatching(/^the database did not answer within|^the database does not answer$/) });
      expect((await t.call('GET', '/healthz')).statusCode).toBe(200);
      const graphql = await t.call('POST', '/graphql', { token: team.admin.token, body: { query: '{ viewer { user { id } } }' } });
      expect(graphql.statusCode).toBe(503);
      expect(graphql.json().errors[0].extensions.code).toBe(503);
    } finally {
      proxy.restore();
    }
    expect((await untilRecovered()).json()).toMatchObject({ id: team.organization.id });
  }, 30_000);

  it('answers 503 while the database refuses connections, writes nothing, and recovers', async () => {
    expect((await readOrganization()).statusCode).toBe(200);
    const before = await t.call('GET', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token });
    proxy.cut();
    try {
      expectUnavailable(await readOrganization());
      expect((await t.call('GET', '/readyz')).json()).toEqual({ status: 'unavailable', reason: 'the database does not answer' });
      expectUnavailable(await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Lost' } }));
    } finally {
      proxy.restore();
    }
    await untilRecovered();
    expect((await t.call('GET', '/readyz')).statusCode).toBe(200);
    const after = await t.call('GET', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token });
    expect(after.json().count).toBe(before.json().count);
  }, 30_000);
});

describe.skipIf(!onPostgres)('a PostgreSQL database that was dropped', () => {
  it('answers 503, not 500', async () => {
    const database = await emptyDatabase();
    const t = await createTestApp({ databaseUrl: database.url, responseCacheBytes: 0 });
    const { runMigrations } = await import('../../src/db/index.ts');
    await runMigrations(database.url);
    const team = await buildTeam(t.database);
    expect((await t.call('GET', `/v1/orgs/${team.organization.id}`, { token: team.admin.token })).statusCode).toBe(200);
    await t.database.close();
    await database.drop();
    const t2 = await createTestApp({ databaseUrl: database.url, responseCacheBytes: 0 });
    const response = await t2.call('GET', `/v1/orgs/${team.organization.id}`, { token: team.admin.token });
    expect(response.statusCode).toBe(503);
    expect(response.json().error.code).toBe(503);
  });
});
