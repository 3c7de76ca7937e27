import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerOf } from '../../src/db/client.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { type DatabaseProxy, databaseProxy } from '../support/database-proxy.ts';
import { emptyDatabase } from '../support/databases.ts';
import { buildTeam, unique } from '../support/factories.ts';
import { testDatabaseUrl } from '../support/worker-database.ts';

const DATABASE_UNAVAILABLE = 'The database is unavailable or too slow to answer; try again shortly';
const onPostgres = providerOf(testDatabaseUrl()) === 'postgresql';

/** The database waits of the app under test; every request's time under a fault is bounded by them. */
const TIMEOUTS = { connectTimeoutMs: 1_000, statementTimeoutMs: 1_000 };

describe.skipIf(!onPostgres)('a PostgreSQL that stops answering', () => {
  let proxy: DatabaseProxy;
  let t: TestApp;
  let team: Awaited<ReturnType<typeof buildTeam>>;
  beforeAll(async () => {
    proxy = await databaseProxy(new URL(testDatabaseUrl()));
    t = await createTestApp({
      databaseUrl: proxy.url,
      databaseOptions: TIMEOUTS,
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
    expect(response.json()).toEqual({ error: { code: 503, message: DATABASE_UNAVAILABLE } });
  }

  it('answers 503 while the database is frozen, instead of hanging, and recovers when it answers again', async () => {
    expect((await readOrganization()).statusCode).toBe(200);
    proxy.freeze();
    try {
      expectUnavailable(await readOrganization());
      const ready = await t.call('GET', '/readyz');
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({
        status: 'unavailable',
        reason: expect.stringMatching(/^the database did not answer within|^the database does not answer$/),
      });
      expect((await t.call('GET', '/healthz')).statusCode).toBe(200);
      // What needs the database fails fast; the viewer behind the token is kept in memory (src/domain/users/viewer-cache.ts).
      const graphql = await t.call('POST', '/graphql', {
        token: team.admin.token,
        body: { query: 'query($id: ID!) { organization(id: $id) { title } }', variables: { id: team.organization.id } },
      });
      expect(graphql.statusCode).toBe(503);
      expect(graphql.json().errors[0].extensions.code).toBe(503);
      expect((await t.call('POST', '/graphql', { token: team.admin.token, body: { query: '{ viewer { user { id } } }' } })).statusCode).toBe(200);
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

  it('faults under load with a timing bound', async () => {
    // A request waits for a connection (connect timeout), then for each statement's
    // answer (statement timeout, and the client's own read timeout a second later),
    // and a transaction's rollback may wait as long again: twice that, and 2 s of
    // slack for a loaded machine. A request that hung until the database came back
    // would break it; a slow one would not.
    const boundMs = 2 * (TIMEOUTS.connectTimeoutMs + TIMEOUTS.statementTimeoutMs) + 2_000;
    const orgId = team.organization.id;
    type Kind = 'read' | 'write' | 'graphql';
    type Outcome = { kind: Kind; title?: string; ms: number; response: Awaited<ReturnType<TestApp['call']>> };
    /** ~20 concurrent requests, a third each of GET org, POST spaces and a GraphQL viewer query, each timed. */
    const load = (label: string, onFirstAnswer?: () => void) =>
      Promise.all(
        Array.from({ length: 21 }, async (_, i): Promise<Outcome> => {
          const kind = (['read', 'write', 'graphql'] as const)[i % 3]!;
          const title = kind === 'write' ? `Load ${label} ${i} ${unique()}` : undefined;
          const started = performance.now();
          const response =
            kind === 'read'
              ? await t.call('GET', `/v1/orgs/${orgId}`, { token: team.admin.token })
              : kind === 'write'
                ? await t.call('POST', `/v1/orgs/${orgId}/spaces`, { token: team.admin.token, body: { title } })
                : await t.call('POST', '/graphql', { token: team.admin.token, body: { query: '{ viewer { user { id } } }' } });
          const ms = performance.now() - started;
          onFirstAnswer?.();
          onFirstAnswer = undefined;
          return { kind, title, ms, response };
        }),
      );
    /** 200/201 with the right answer, or 503 in the error shape; never a 500, never past the bound. */
    const expectAnsweredInTime = (outcome: Outcome) => {
      const { kind, title, ms, response } = outcome;
      const what = `${kind} ${title ?? ''} answered ${response.statusCode} after ${Math.round(ms)} ms: ${response.body.slice(0, 300)}`;
      expect(ms, what).toBeLessThan(boundMs);
      expect([kind === 'write' ? 201 : 200, 503], what).toContain(response.statusCode);
      if (response.statusCode === 503) {
        expect(response.headers['retry-after'], what).toBe('5');
        if (kind === 'graphql') {
          expect(response.json().errors[0], what).toMatchObject({ message: DATABASE_UNAVAILABLE, extensions: { code: 503 } });
        } else expectUnavailable(response);
      } else if (kind === 'read') expect(response.json().id, what).toBe(orgId);
      else if (kind === 'write') expect(response.json().title, what).toBe(title);
      else expect(response.json(), what).toEqual({ data: { viewer: { user: { id: team.admin.id } } } });
    };
    /** Spaces of these titles in the database, counted on a connection of its own (not through the proxy). */
    const countByTitle = async (titles: string[]) => {
      const client = new pg.Client({ connectionString: testDatabaseUrl() });
      await client.connect();
      try {
        const { rows } = await client.query<{ title: string; count: string }>(
          'SELECT "title", count(*) AS "count" FROM "spaces" WHERE "title" = ANY($1) GROUP BY "title"',
          [titles],
        );
        return new Map(rows.map((row) => [row.title, Number(row.count)]));
      } finally {
        await client.end();
      }
    };

    // Before: the fault starts before the requests, so none of them can have sent
    // a COMMIT whose answer was lost, and a write answered 503 must have left
    // nothing. During: the connections are cut when the first answer is out,
    // with the other requests in flight (some in their transactions); a write
    // answered 503 then may have committed (its COMMIT reached the server, the
    // answer did not come back), but never twice.
    const scenarios = [
      { fault: 'freeze', when: 'before' },
      { fault: 'cut', when: 'before' },
      { fault: 'cut', when: 'during' },
      { fault: 'freeze', when: 'during' },
    ] as const;
    for (const { fault, when } of scenarios) {
      const label = `${fault} ${when} the load`;
      await untilRecovered();
      let outcomes: Outcome[];
      try {
        if (when === 'before') proxy[fault]();
        outcomes = await load(label, when === 'during' ? () => proxy[fault]() : undefined);
      } finally {
        proxy.restore();
      }
      for (const outcome of outcomes) expectAnsweredInTime(outcome);
      expect(outcomes.filter((outcome) => outcome.response.statusCode === 503).length, label).toBeGreaterThan(0);

      await untilRecovered();
      expect((await t.call('GET', '/readyz')).statusCode).toBe(200);
      const writes = outcomes.filter((outcome) => outcome.kind === 'write');
      const counts = await countByTitle(writes.map((outcome) => outcome.title!));
      for (const { title, response } of writes) {
        const count = counts.get(title!) ?? 0;
        const what = `${label}: ${title} answered ${response.statusCode}`;
        if (response.statusCode === 201) expect(count, what).toBe(1);
        else if (when === 'before') expect(count, what).toBe(0);
        else expect(count, what).toBeLessThanOrEqual(1);
      }

      // Recovered: the pool refills under a first round (a connection it opens
      // may still miss the 1 s connect timeout on a loaded machine; any answer
      // is in the bound and in shape), then the same load again, every request served.
      const refill = await load(`refill ${fault} ${when}`);
      for (const outcome of refill) expectAnsweredInTime(outcome);
      const after = await load(`after ${label}`);
      for (const outcome of after) {
        expectAnsweredInTime(outcome);
        expect(outcome.response.statusCode, `${outcome.kind} after the ${label}: ${outcome.response.body.slice(0, 300)}`).not.toBe(503);
      }
      const afterCounts = await countByTitle(after.filter((outcome) => outcome.kind === 'write').map((outcome) => outcome.title!));
      expect([...afterCounts.values()], `writes after the ${label}`).toEqual(Array(7).fill(1));
    }
  }, 60_000);
});

describe.skipIf(!onPostgres)('a PostgreSQL that stops answering as a transaction begins', () => {
  // Prisma gives up starting an interactive transaction after its `maxWait` (2 s
  // by default) with P2028: the database is unavailable, a 503 (it was a 500
  // until test/db/long-fault-run.ts found it).
  it('answers 503, not 500, when the transaction cannot start in time, and writes nothing', async () => {
    const proxy = await databaseProxy(new URL(testDatabaseUrl()));
    // The server's default waits (DATABASE_CONNECT_TIMEOUT_MS, DATABASE_STATEMENT_TIMEOUT_MS).
    const t = await createTestApp({ databaseUrl: proxy.url, responseCacheBytes: 0 });
    try {
      const team = await buildTeam(t.database);
      const title = `Begun ${unique()}`;
      // Authentication and the reads before the transaction are answered; its BEGIN is not.
      proxy.freezeOnceSent('BEGIN');
      const response = await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title } });
      proxy.restore();
      expect(response.json()).toEqual({ error: { code: 503, message: DATABASE_UNAVAILABLE } });
      expect(response.headers['retry-after']).toBe('5');
      expect(await t.database.db.space.count({ where: { title } })).toBe(0);
    } finally {
      proxy.restore();
      await proxy.close();
    }
  }, 60_000);
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

describe.skipIf(!onPostgres)('a PostgreSQL row locked by another transaction', () => {
  // The lock wait is bounded on its own (DATABASE_LOCK_TIMEOUT_MS): with the
  // statement timeout at a minute, the write could only answer within the
  // test's timeout through the lock timeout.
  it('answers 503 with Retry-After once the lock timeout passes, over REST and GraphQL, and writes once the lock is released', async () => {
    const t = await createTestApp({ databaseOptions: { lockTimeoutMs: 300, statementTimeoutMs: 60_000 }, responseCacheBytes: 0 });
    const team = await buildTeam(t.database);
    const holder = new pg.Client({ connectionString: testDatabaseUrl() });
    await holder.connect();
    try {
      const before = await t.database.db.organization.findUniqueOrThrow({ where: { id: team.organization.id } });
      await holder.query('BEGIN');
      await holder.query('SELECT "id" FROM "organizations" WHERE "id" = $1 FOR UPDATE', [team.organization.id]);

      const rest = await t.call('PATCH', `/v1/orgs/${team.organization.id}`, { token: team.admin.token, body: { inviteLinks: !before.inviteLinks } });
      expect(rest.statusCode, rest.body).toBe(503);
      expect(rest.headers['retry-after']).toBe('5');
      expect(rest.json()).toEqual({ error: { code: 503, message: DATABASE_UNAVAILABLE } });

      const graphql = await t.call('POST', '/graphql', {
        token: team.admin.token,
        body: {
          query: 'mutation($input: UpdateOrganizationInput!) { updateOrganization(input: $input) { organization { id } } }',
          variables: { input: { organizationId: team.organization.id, inviteLinks: !before.inviteLinks } },
        },
      });
      expect(graphql.statusCode, graphql.body).toBe(503);
      expect(graphql.headers['retry-after']).toBe('5');
      expect(graphql.json().errors[0]).toMatchObject({ message: DATABASE_UNAVAILABLE, extensions: { code: 503 } });
      // Reads do not wait for a row lock.
      expect((await t.call('GET', `/v1/orgs/${team.organization.id}`, { token: team.admin.token })).statusCode).toBe(200);

      await holder.query('ROLLBACK');
      const after = await t.call('PATCH', `/v1/orgs/${team.organization.id}`, { token: team.admin.token, body: { inviteLinks: !before.inviteLinks } });
      expect(after.statusCode, after.body).toBe(200);
      expect(after.json()).toMatchObject({ inviteLinks: !before.inviteLinks });
    } finally {
      await holder.end();
    }
  });
});
