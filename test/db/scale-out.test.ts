import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { providerOf } from '../../src/db/client.ts';
import { emptyDatabase } from '../support/databases.ts';
import { REDIS_URL, freePort, redisAvailable, withoutRedis } from '../support/network.ts';
import { serveOpenAPISources } from '../support/openapi-sources.ts';
import { testDatabaseUrl } from '../support/worker-database.ts';

/**
 * Two server processes on one PostgreSQL database, as `Running several
 * instances` in the README sets them up: both migrate at start, serve both
 * contracts, read each other's writes through their response caches, share
 * background jobs (each run by one of them) and change request numbers, and
 * count rate limits together in Redis.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'docs-gateway.js');
const onPostgres = providerOf(testDatabaseUrl()) === 'postgresql';
const withRedis = await redisAvailable();
const FAILED_AUTH_LIMIT = 10;

interface Instance {
  base: string;
  child: ChildProcess;
  /** The JSON log lines it printed so far. */
  logs(): Array<Record<string, any>>;
}

describe.skipIf(!onPostgres)('two instances on one PostgreSQL database', () => {
  let database: Awaited<ReturnType<typeof emptyDatabase>>;
  let filesDir: string;
  let one: Instance;
  let two: Instance;
  let admin: { organizationId: string; token: string };
  const startedAt = Date.now();
  const redisPrefix = `test-${randomUUID()}`;

  const env = (port: number) => ({
    ...withoutRedis(),
    DATABASE_URL: database.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    FILES_DIR: filesDir,
    PURGE_INTERVAL_SECONDS: '1',
    RESPONSE_CACHE_MB: '16',
    RATE_LIMIT_FAILED_AUTH_PER_MINUTE: String(FAILED_AUTH_LIMIT),
    // The OpenAPI sources and the website below are served on 127.0.0.1.
    FETCH_PRIVATE_ADDRESSES: 'true',
    ...(withRedis ? { REDIS_URL, REDIS_PREFIX: redisPrefix } : {}),
  });

  async function start(port: number): Promise<Instance> {
    const child = spawn(process.execPath, [BIN, 'serve'], { cwd: ROOT, env: env(port), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.resume();
    const base = `http://127.0.0.1:${port}`;
    await vi.waitUntil(
      async () => {
        if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}: ${stdout}`);
        return (await fetch(`${base}/readyz`).catch(() => null))?.ok;
      },
      { timeout: 60_000, interval: 100 },
    );
    const logs = () =>
      stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, any>);
    return { base, child, logs };
  }

  beforeAll(async () => {
    database = await emptyDatabase();
    filesDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-scale-out-'));
    const [portOne, portTwo] = [await freePort(), await freePort()];
    // Both start on the empty database at once: one applies the migrations, the other waits for it.
    [one, two] = await Promise.all([start(portOne), start(portTwo)]);
    admin = JSON.parse(
      execFileSync(process.execPath, [BIN, 'bootstrap', '--org', 'Scale', '--email', 'scale@example.test', '--json'], { cwd: ROOT, env: env(portOne) })
        .toString()
        .trim(),
    );
  }, 120_000);

  afterAll(async () => {
    for (const instance of [one, two]) {
      if (instance && instance.child.exitCode === null) {
        const exited = new Promise((resolve) => instance.child.once('exit', resolve));
        instance.child.kill('SIGTERM');
        await exited;
      }
    }
    await database?.drop();
    if (filesDir) fs.rmSync(filesDir, { recursive: true, force: true });
  });

  const rest = async (instance: Instance, method: string, route: string, body?: unknown, token = admin.token) => {
    const response = await fetch(`${instance.base}${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, headers: response.headers, body: (await response.json().catch(() => null)) as any };
  };
  const graphql = async (instance: Instance, query: string, variables: Record<string, unknown> = {}) => {
    const response = await fetch(`${instance.base}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };

  it('both serve REST and GraphQL after migrating the empty database together', async () => {
    for (const instance of [one, two]) {
      expect(await rest(instance, 'GET', `/v1/orgs/${admin.organizationId}`)).toMatchObject({
        status: 200,
        body: { id: admin.organizationId, title: 'Scale' },
      });
      const viewer = await graphql(instance, '{ viewer { organizations(first: 5) { edges { node { id } } } } }');
      expect(viewer.body).toEqual({ data: { viewer: { organizations: { edges: [{ node: { id: expect.any(String) } }] } } } });
    }
  });

  it('reads through one instance what was written through the other, response caches included', async () => {
    const listing = `/v1/orgs/${admin.organizationId}/spaces`;
    // Both instances cache the listing first.
    for (const instance of [one, two, one, two]) expect((await rest(instance, 'GET', listing)).status).toBe(200);
    expect((await rest(two, 'GET', listing)).headers.get('x-cache')).toBe('hit');

    // The other instance hears of a write when PostgreSQL delivers its announcement (NOTIFY, at
    // commit): usually before the writer's answer is back, on a loaded machine a few milliseconds later.
    const eventually = (read: () => Promise<boolean>) => vi.waitUntil(read, { timeout: 5_000, interval: 20 });
    const created = await rest(one, 'POST', listing, { title: 'Written through one' });
    expect(created.status).toBe(201);
    await eventually(async () => (await rest(two, 'GET', listing)).body.items.some((space: { id: string }) => space.id === created.body.id));

    const renamed = await rest(two, 'PATCH', `/v1/spaces/${created.body.id}`, { title: 'Renamed through two' });
    expect(renamed.status).toBe(200);
    await eventually(async () => (await rest(one, 'GET', `/v1/spaces/${created.body.id}`)).body.title === 'Renamed through two');
    const read = await graphql(one, 'query ($id: ID!) { space(id: $id) { title } }', { id: created.body.id });
    expect(read.body).toEqual({ data: { space: { title: 'Renamed through two' } } });
  });

  it('numbers change requests densely and uniquely across instances', async () => {
    const space = (await rest(one, 'POST', `/v1/orgs/${admin.organizationId}/spaces`, { title: 'Busy' })).body;
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) => rest(i % 2 ? one : two, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: `Change ${i}` })),
    );
    expect(created.map((response) => response.status)).toEqual(Array(20).fill(201));
    expect(created.map((response) => response.body.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('runs each background job in one instance only', async () => {
    const doomed: string[] = [];
    for (let i = 0; i < 3; i++) {
      const space = (await rest(two, 'POST', `/v1/orgs/${admin.organizationId}/spaces`, { title: `Doomed ${i}` })).body;
      expect((await rest(one, 'DELETE', `/v1/spaces/${space.id}`)).status).toBe(205);
      doomed.push(space.id);
    }
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      // Deleted eight days ago: the next purge removes them for good.
      await client.query(`UPDATE "spaces" SET "deletedAt" = now() - interval '8 days' WHERE "id" = ANY($1)`, [doomed]);
      await vi.waitUntil(async () => (await client.query(`SELECT count(*)::int AS n FROM "spaces" WHERE "id" = ANY($1)`, [doomed])).rows[0].n === 0, {
        timeout: 30_000,
        interval: 200,
      });
    } finally {
      await client.end();
    }

    const purgesBy = (instance: Instance) => instance.logs().filter((line) => line.msg === 'job done' && line.job === 'purge-deleted-spaces');
    // The job logs its end just after its transaction commits.
    const purged = () => [...purgesBy(one), ...purgesBy(two)].reduce((sum, line) => sum + line.purged, 0);
    await vi.waitUntil(() => purged() === 3, { timeout: 10_000, interval: 100 });
    const [byOne, byTwo] = [purgesBy(one), purgesBy(two)];
    const ids = [...byOne, ...byTwo].map((line) => line.jobId as string);
    // No job ran twice, and the instances queued one purge per interval between them, not one each.
    expect(new Set(ids).size).toBe(ids.length);
    const seconds = (Date.now() - startedAt) / 1000;
    expect(ids.length).toBeGreaterThanOrEqual(1);
    expect(ids.length).toBeLessThanOrEqual(Math.ceil(seconds) + 2);
    expect(purged()).toBe(3);
  });

  /** The `job done` lines of `kind` both instances logged, and whether any job id appears twice. */
  const jobsDone = (kind: string) => {
    const lines = [...one.logs(), ...two.logs()].filter((line) => line.msg === 'job done' && line.job === kind);
    return { lines, ids: lines.map((line) => line.jobId as string) };
  };

  it('processes an OpenAPI spec sent through one instance once, read through the other', async () => {
    const sources = await serveOpenAPISources();
    const specs = `/v1/orgs/${admin.organizationId}/openapi`;
    const created = await rest(one, 'POST', specs, { slug: 'petstore', source: { url: `${sources.base}/petstore.json` } });
    expect(created.status).toBe(201);
    await vi.waitUntil(async () => (await rest(two, 'GET', `${specs}/petstore`)).body.processingState === 'complete', { timeout: 30_000, interval: 200 });
    const versions = await rest(two, 'GET', `${specs}/petstore/versions`);
    expect(versions.body.items).toHaveLength(1);
    const { lines, ids } = jobsDone('process-openapi-spec');
    expect(lines.filter((line) => line.specId === created.body.id)).toHaveLength(1);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('renders PDFs and imports websites as jobs: each runs once, answered to the request that asked', async () => {
    const sources = await serveOpenAPISources();
    sources.documents['/site/index.html'] = {
      type: 'text/html',
      body: '<html><head><title>Welcome</title></head><body><main><p>Imported across instances.</p></main></body></html>',
    };
    const spaces = await Promise.all(
      [0, 1, 2, 3].map(async (i) => (await rest(i % 2 ? one : two, 'POST', `/v1/orgs/${admin.organizationId}/spaces`, { title: `Imported ${i}` })).body),
    );
    const imports = await Promise.all(
      spaces.map((space, i) =>
        rest(i % 2 ? two : one, 'POST', `/v1/spaces/${space.id}/content/import`, { url: `${sources.base}/site/index.html`, source: 'website' }),
      ),
    );
    expect(imports.map((response) => response.status)).toEqual([201, 201, 201, 201]);
    for (const [i, space] of spaces.entries()) {
      const content = await rest(i % 2 ? one : two, 'GET', `/v1/spaces/${space.id}/content`);
      expect(content.body.id).toBe(imports[i]!.body.revision);
      expect(content.body.pages.map((page: { title: string }) => page.title)).toEqual(['Welcome']);
    }
    const imported = jobsDone('import-website');
    expect(imported.lines).toHaveLength(4);
    expect(new Set(imported.ids).size).toBe(4);

    const changeRequest = (await rest(one, 'POST', `/v1/spaces/${spaces[0]!.id}/change-requests`, { subject: 'Printed' })).body;
    const pdfs = await Promise.all([one, two].map((instance) => rest(instance, 'GET', `/v1/spaces/${spaces[0]!.id}/change-requests/${changeRequest.id}/pdf`)));
    expect(pdfs.map((response) => response.status)).toEqual([200, 200]);
    // The file storage is shared: each PDF is served by the instance that did not answer for it.
    for (const [i, pdf] of pdfs.entries()) {
      const file = await fetch(`${(i ? one : two).base}${new URL(pdf.body.url).pathname}`);
      expect(file.status).toBe(200);
      expect(
        Buffer.from(await file.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
    }
    const rendered = jobsDone('render-pdf');
    expect(rendered.lines).toHaveLength(2);
    expect(new Set(rendered.ids).size).toBe(2);
  });

  it.skipIf(!withRedis)('counts failed authentications of both instances together (Redis)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < FAILED_AUTH_LIMIT; i++) statuses.push((await rest(i % 2 ? one : two, 'GET', '/v1/user', undefined, `gb_api_${randomUUID()}`)).status);
    expect(statuses).toEqual(Array(FAILED_AUTH_LIMIT).fill(401));
    for (const instance of [one, two]) {
      const limited = await rest(instance, 'GET', '/v1/user', undefined, `gb_api_${randomUUID()}`);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(limited.body).toEqual({ error: { code: 429, message: expect.stringMatching(/^Too many/) } });
    }
  });
});
