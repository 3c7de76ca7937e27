// `npm run bench [-- --quick] [-- --only S1,S3]`: docs-gateway side by side with
// the systems a user would pick instead, on the same data, in one run.
// See docs/benchmark.md for what each scenario and peer is.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { type DataSet, FULL, type Sizes, prepareDataSet, prepareTenants } from './dataset.ts';
import { type LoadResult, type MixResult, type Request, median, runLoad, runMix } from './load.ts';
import { profileScenario } from './profile.ts';
import { BENCH_DIR, type RunningSystem, memoryOf, resetPeakMemory } from './processes.ts';
import { type Measurement, type Results, renderMarkdown } from './report.ts';
import { SCENARIO_REQUESTS, TREE_QUERY, auth, graphql } from './scenarios.ts';
import { countStatements, explainRequest } from './statements.ts';
import { startDocsGateway, startFastifyConstant, startFastifySqlite, startMesh, startPostGraphile } from './systems.ts';
import { postOnce, restWaterfall } from './waterfall.ts';

const { values: flags } = parseArgs({
  options: { quick: { type: 'boolean' }, only: { type: 'string' }, seconds: { type: 'string' }, warmup: { type: 'string' } },
});
const quick = flags.quick ?? false;
const only = flags.only?.split(',');
const QUICK: Sizes = { sites: 10, largeSpaces: 10_000, largeMembers: 1_000 };
/** S6: organizations in the mix, and how often a request is a write. */
const TENANTS = 100;
const WRITE_EVERY = 100;
const sizes = quick ? QUICK : FULL;
const basePlan = quick
  ? { rounds: 1, seconds: 2, warmup: 1, connections: 10, waterfalls: 1, soakSeconds: 0 }
  : { rounds: 3, seconds: 5, warmup: 3, connections: 10, waterfalls: 3, soakSeconds: 300 };
// --seconds / --warmup: longer rounds for one scenario on the quick data set (e.g. S6's steady hit rate).
const plan = {
  ...basePlan,
  ...(flags.seconds ? { seconds: Number(flags.seconds) } : {}),
  ...(flags.warmup ? { warmup: Number(flags.warmup) } : {}),
};
const suffix = quick ? '_quick' : '';
const SQLITE_FILE = path.join(BENCH_DIR, 'data', `bench${suffix}.db`);
const URLS = {
  sqlite: `file:${SQLITE_FILE}`,
  // BENCH_POSTGRES_URL: another database, e.g. when several checkouts run the benchmark on one server.
  postgresql: process.env.BENCH_POSTGRES_URL ?? `postgresql://postgres@127.0.0.1:5432/docs_gateway_bench${suffix}`,
};
const started = Date.now();
const log = (message: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s] ${message}`);

/** Installs the peers from their lockfile, again whenever the lockfile changed since. */
function ensurePeersInstalled() {
  const installed = path.join(BENCH_DIR, 'node_modules', '.package-lock.json');
  const lockfile = path.join(BENCH_DIR, 'package-lock.json');
  if (fs.existsSync(installed) && fs.statSync(installed).mtimeMs >= fs.statSync(lockfile).mtimeMs) return;
  log('installing the peers (test/bench/package-lock.json)');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: BENCH_DIR, stdio: 'inherit' });
}

async function withPostgres<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function ensurePostgresDatabase(url: string) {
  const name = new URL(url).pathname.slice(1);
  await withPostgres(url.replace(/\/[^/]*$/, '/postgres'), async (admin) => {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!exists.rowCount) await admin.query(`CREATE DATABASE "${name}"`);
  });
}

const postGraphileSpace = (id: string) => `{ spaceByRowId(rowId: "${id}") { rowId title emoji visibility createdAt } }`;
const postGraphileTree = (organizationId: string) => `{ organizationByRowId(rowId: "${organizationId}") { title
  sitesByOrganizationId { nodes { rowId title siteSectionsBySiteId { nodes { rowId title path
    siteSpacesBySectionId { nodes { rowId path spaceBySpaceId { rowId title emoji visibility
      organizationByOrganizationId { title } } } } } } } } } }`;
/**
 * PostGraphile's best query for S7 over the same tables: it cannot nest pages
 * by parent or compute their paths, so it answers each space's pages flat
 * (id, parent, position, title, slug) and the client builds the tree. The
 * space's active revision is a computed column (a STABLE SQL function, as
 * PostGraphile recommends), created in the bench database only.
 */
const POSTGRAPHILE_CONTENT_FUNCTION = `CREATE OR REPLACE FUNCTION public.spaces_content(space public.spaces) RETURNS public.revisions
  AS $$ SELECT * FROM public.revisions WHERE id = space."revisionId" $$ LANGUAGE sql STABLE`;
const postGraphileNavigation = (siteId: string) => `{ siteByRowId(rowId: "${siteId}") { title
  siteSectionsBySiteId { nodes { rowId title path siteSpacesBySectionId { nodes { rowId path spaceBySpaceId { rowId title
    content { revisionPagesByRevisionId { nodes { pageId parentId position pageVersionByVersionId { title slug } } } } } } } } } } }`;
const meshNavigation = (organizationId: string, siteId: string) => `{ getSiteById(organizationId: "${organizationId}", siteId: "${siteId}") { title
  sectionList { id title path siteSpaces { id path space { id title pageList { ...on RevisionPageDocument { id title path
    pages { ...on RevisionPageDocument { id title path pages { ...on RevisionPageDocument { id title path } } } } } } } } } } }`;
const meshTree = (organizationId: string) => `{ getOrganizationById(organizationId: "${organizationId}") { title
  siteList { id title sectionList { id title path siteSpaces { id path
    space { id title emoji visibility organizationObject { title } } } } } } }`;

/** The `page` token of page `page` (1-based) of a listing at `limit`, walked with the largest pages. */
async function pageToken(system: RunningSystem, token: string, listing: string, page: number, limit: number): Promise<string | undefined> {
  let skip = (page - 1) * limit;
  let cursor: string | undefined;
  while (skip > 0) {
    const step = skip >= 1000 ? 1000 : limit;
    const response = await fetch(`${system.url}${listing}?limit=${step}${cursor ? `&page=${encodeURIComponent(cursor)}` : ''}`, { headers: auth(token) });
    const body = (await response.json()) as { next?: { page: string } };
    cursor = body.next?.page;
    if (!cursor) throw new Error(`${listing} has fewer than ${page} pages of ${limit}`);
    skip -= step;
  }
  return cursor;
}

interface Target {
  scenario: string;
  system: RunningSystem;
  database: string;
  request: Request;
  connections?: number;
  /** Slow systems get longer rounds, so that a round holds several responses. */
  minSeconds?: number;
}

async function measure(targets: Target[]): Promise<Measurement[]> {
  const rounds = new Map<Target, LoadResult[]>(targets.map((target) => [target, []]));
  const options = (target: Target, seconds: number) => ({
    seconds: Math.max(seconds, target.minSeconds ?? 0),
    connections: target.connections ?? plan.connections,
  });
  for (const target of targets) await runLoad(target.system.url, target.request, options(target, plan.warmup));
  for (let round = 0; round < plan.rounds; round++) {
    // Alternate the order so that no system always runs right after the same one.
    const order = round % 2 ? [...targets].reverse() : targets;
    for (const target of order) {
      const result = await runLoad(target.system.url, target.request, options(target, plan.seconds));
      rounds.get(target)!.push(result);
      log(
        `  ${target.scenario} ${target.system.name}: ${result.requestsPerSecond.toFixed(1)} req/s, p50 ${result.latencyP50} ms${result.failures ? `, ${result.failures} failures` : ''}`,
      );
    }
  }
  return targets.map((target) => {
    const results = rounds.get(target)!;
    const pick = (key: keyof LoadResult) => median(results.map((result) => result[key]));
    return {
      scenario: target.scenario,
      system: target.system.name,
      database: target.database,
      requestsPerSecond: pick('requestsPerSecond'),
      latencyP50: pick('latencyP50'),
      latencyP99: pick('latencyP99'),
      failures: results.reduce((sum, result) => sum + result.failures, 0),
      bytesPerRequest: pick('bytesPerRequest'),
      rounds: results.map((result) => Math.round(result.requestsPerSecond * 10) / 10),
    };
  });
}

async function main() {
  ensurePeersInstalled();
  log('building docs-gateway as npm start runs it');
  execFileSync('npm', ['run', '-s', 'build'], { cwd: path.resolve(BENCH_DIR, '../..'), stdio: 'inherit' });
  await ensurePostgresDatabase(URLS.postgresql);
  const sets: Record<'sqlite' | 'postgresql', DataSet> = {
    sqlite: await prepareDataSet(URLS.sqlite, sizes, log),
    postgresql: await prepareDataSet(URLS.postgresql, sizes, log),
  };
  const deepPage = sizes.largeSpaces / 100;
  // S6's tenants are written before the servers start: each SQLite server gets a copy of the file as it is then.
  const wantsMix = !only || only.includes('S6');
  const sqliteTenants = wantsMix ? await prepareTenants(URLS.sqlite, TENANTS, log) : [];
  const results: Results = {
    date: new Date().toISOString(),
    quick,
    machine: { cpus: os.cpus()[0]?.model ?? 'unknown', cores: os.cpus().length, memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version },
    plan,
    sizes,
    measurements: [],
    statements: {},
    memory: {},
    waterfall: {},
    plans: {},
    hitRates: {},
    cpu: [],
  };

  log('starting the systems');
  // SQLite serves one instance per file: each server gets its own copy of the data set.
  const sqliteCopy = (name: string) => {
    const file = path.join(BENCH_DIR, 'data', `${name}${suffix}.db`);
    fs.rmSync(file, { force: true });
    const source = new BetterSqlite3(SQLITE_FILE, { readonly: true });
    source.exec(`VACUUM INTO '${file.replaceAll("'", "''")}'`);
    source.close();
    return `file:${file}`;
  };
  const docs = {
    sqlite: await startDocsGateway('docs-gateway-sqlite', sqliteCopy('docs-gateway-sqlite')),
    postgresql: await startDocsGateway('docs-gateway-postgresql', URLS.postgresql),
  };
  // The same servers with the response cache off: what executing each request costs.
  const uncachedDocs = {
    sqlite: await startDocsGateway('docs-gateway-sqlite-uncached', sqliteCopy('docs-gateway-sqlite-uncached'), { responseCacheMB: 0 }),
    postgresql: await startDocsGateway('docs-gateway-postgresql-uncached', URLS.postgresql, { responseCacheMB: 0 }),
  };
  const uncached = uncachedDocs.postgresql;
  // And with no page tree kept between requests either: every tree read from the database (S7).
  const coldDocs = {
    sqlite: await startDocsGateway('docs-gateway-sqlite-cold', sqliteCopy('docs-gateway-sqlite-cold'), { responseCacheMB: 0, contentCacheMB: 0 }),
    postgresql: await startDocsGateway('docs-gateway-postgresql-cold', URLS.postgresql, { responseCacheMB: 0, contentCacheMB: 0 }),
  };
  const constant = await startFastifyConstant();
  const rawSqlite = await startFastifySqlite(SQLITE_FILE);
  await withPostgres(URLS.postgresql, (client) => client.query(POSTGRAPHILE_CONTENT_FUNCTION));
  const postgraphile = await startPostGraphile(URLS.postgresql);
  // Mesh's REST backend is an instance of its own, so that its traffic is not
  // counted in the memory of the systems under test.
  const meshBackend = await startDocsGateway('docs-gateway-mesh-backend', URLS.postgresql);
  const mesh = await startMesh(meshBackend, sets.postgresql.treeOrganizationId);
  const systems = [
    docs.sqlite,
    docs.postgresql,
    uncachedDocs.sqlite,
    uncached,
    coldDocs.sqlite,
    coldDocs.postgresql,
    constant,
    rawSqlite,
    postgraphile,
    meshBackend,
    mesh,
  ];
  for (const system of systems) results.memory[system.name] = { idleMB: memoryOf(system.pid, 'VmRSS'), peakUnderTreeMB: Number.NaN };

  try {
    const requests = (database: 'sqlite' | 'postgresql') => {
      const set = sets[database];
      return {
        S1: SCENARIO_REQUESTS.S1!(set),
        S2: SCENARIO_REQUESTS.S2!(set),
        S3: SCENARIO_REQUESTS.S3!(set),
        S7: SCENARIO_REQUESTS.S7!(set),
        S8: SCENARIO_REQUESTS.S8!(set),
      };
    };
    const wanted = (scenario: string) => !only || only.includes(scenario);

    log('counting SQL statements per request');
    for (const database of ['sqlite', 'postgresql'] as const) {
      const set = sets[database];
      const listing = `/v1/orgs/${set.largeOrganizationId}/spaces`;
      const deepToken = await pageToken(docs[database], set.token, listing, deepPage, 100);
      results.statements[database] = await countStatements(URLS[database], {
        ...requests(database),
        'S4 page 1': { path: `${listing}?limit=100`, headers: auth(set.token) },
        [`S4 page ${deepPage}`]: { path: `${listing}?limit=100&page=${encodeURIComponent(deepToken!)}`, headers: auth(set.token) },
      });
      results.plans[`${database} S4 page ${deepPage}`] = await explainRequest(URLS[database], {
        path: `${listing}?limit=100&page=${encodeURIComponent(deepToken!)}`,
        headers: auth(set.token),
      });
    }

    const targets: Target[] = [];
    for (const database of ['sqlite', 'postgresql'] as const) {
      const request = requests(database);
      targets.push({ scenario: 'S1 REST space', system: docs[database], database, request: request.S1 });
      targets.push({ scenario: 'S2 GraphQL space', system: docs[database], database, request: request.S2 });
      targets.push({ scenario: 'S3 site tree', system: docs[database], database, request: request.S3 });
    }
    const pgSet = sets.postgresql;
    const pgRequests = requests('postgresql');
    targets.push(
      { scenario: 'S1 REST space', system: uncached, database: 'postgresql', request: pgRequests.S1 },
      { scenario: 'S2 GraphQL space', system: uncached, database: 'postgresql', request: pgRequests.S2 },
      { scenario: 'S3 site tree', system: uncached, database: 'postgresql', request: pgRequests.S3 },
      { scenario: 'S3 site tree', system: uncachedDocs.sqlite, database: 'sqlite', request: requests('sqlite').S3 },
      { scenario: 'S1 REST space', system: constant, database: 'none', request: { path: '/v1/spaces/x' } },
      { scenario: 'S1 REST space', system: rawSqlite, database: 'sqlite', request: { path: `/v1/spaces/${sets.sqlite.spaceId}` } },
      { scenario: 'S2 GraphQL space', system: postgraphile, database: 'postgresql', request: graphql('', postGraphileSpace(pgSet.spaceId)) },
      { scenario: 'S3 site tree', system: postgraphile, database: 'postgresql', request: graphql('', postGraphileTree(pgSet.treeOrganizationId)) },
      {
        scenario: 'S3 site tree',
        system: mesh,
        database: 'postgresql',
        request: graphql(pgSet.token, meshTree(pgSet.treeOrganizationId)),
        connections: 4,
        minSeconds: 15,
      },
    );
    for (const database of ['sqlite', 'postgresql'] as const) {
      targets.push({ scenario: 'S7 site navigation', system: docs[database], database, request: requests(database).S7 });
      targets.push({ scenario: 'S7 site navigation', system: uncachedDocs[database], database, request: requests(database).S7 });
      targets.push({ scenario: 'S7 site navigation', system: coldDocs[database], database, request: requests(database).S7 });
    }
    targets.push(
      { scenario: 'S7 site navigation', system: postgraphile, database: 'postgresql', request: graphql('', postGraphileNavigation(pgSet.navigationSiteId)) },
      {
        scenario: 'S7 site navigation',
        system: mesh,
        database: 'postgresql',
        request: graphql(pgSet.token, meshNavigation(pgSet.treeOrganizationId, pgSet.navigationSiteId)),
        connections: 4,
        minSeconds: 15,
      },
    );
    // A renderer's page view, every request executed, against the floor of a read (one row by id, raw better-sqlite3).
    const PAGE_VIEW = 'S8 renderer page view';
    for (const database of ['sqlite', 'postgresql'] as const) {
      targets.push({ scenario: PAGE_VIEW, system: uncachedDocs[database], database, request: requests(database).S8 });
      targets.push({ scenario: PAGE_VIEW, system: docs[database], database, request: requests(database).S8 });
    }
    targets.push({ scenario: PAGE_VIEW, system: rawSqlite, database: 'sqlite', request: { path: `/v1/spaces/${sets.sqlite.spaceId}` } });
    // The cached tree as a browser asks for it: compressed (the cache keeps each encoding once).
    const COMPRESSED_TREE = 'S3 site tree, Accept-Encoding: gzip, deflate, br';
    for (const database of ['sqlite', 'postgresql'] as const) {
      const request = requests(database).S3;
      targets.push({
        scenario: COMPRESSED_TREE,
        system: docs[database],
        database,
        request: { ...request, headers: { ...request.headers, 'accept-encoding': 'gzip, deflate, br' } },
      });
    }
    for (const scenario of ['S1 REST space', 'S2 GraphQL space', 'S3 site tree', COMPRESSED_TREE, 'S7 site navigation', PAGE_VIEW]) {
      if (!wanted(scenario.slice(0, 2))) continue;
      log(`${scenario}`);
      const selected = targets.filter((target) => target.scenario === scenario);
      if (scenario === 'S3 site tree') for (const target of selected) resetPeakMemory(target.system.pid);
      results.measurements.push(...(await measure(selected)));
      if (scenario === 'S3 site tree') {
        for (const target of selected) results.memory[target.system.name]!.peakUnderTreeMB = memoryOf(target.system.pid, 'VmHWM');
      }
    }

    if (wanted('S3')) {
      log('S3 against the REST waterfall (wall time of one tree, one client)');
      const servers = [
        ['sqlite', docs.sqlite],
        ['postgresql', docs.postgresql],
        ['sqlite, cache off', uncachedDocs.sqlite],
        ['postgresql, cache off', uncachedDocs.postgresql],
      ] as const;
      for (const [label, server] of servers) {
        const database = label.startsWith('sqlite') ? 'sqlite' : 'postgresql';
        const set = sets[database];
        const waterfalls: number[] = [];
        let shape = { calls: 0, bytes: 0 };
        for (let i = 0; i < plan.waterfalls; i++) {
          const begin = performance.now();
          shape = await restWaterfall(server.url, set.token, set.treeOrganizationId);
          waterfalls.push(performance.now() - begin);
        }
        const trees: number[] = [];
        let treeBytes = 0;
        for (let i = 0; i < 5; i++) {
          const begin = performance.now();
          treeBytes = await postOnce(`${server.url}/graphql`, set.token, requests(database).S3.body);
          trees.push(performance.now() - begin);
        }
        results.waterfall[label] = { ...shape, waterfallMs: Math.round(median(waterfalls)), treeQueryMs: Math.round(median(trees)), treeBytes };
        log(`  ${label}: waterfall ${shape.calls} calls ${Math.round(median(waterfalls))} ms; one tree query ${Math.round(median(trees))} ms`);
      }
    }

    if (wanted('S6')) {
      log(`S6 multi-tenant mix: ${TENANTS} organizations, reads spread over their members, 1 request in ${WRITE_EVERY} a write`);
      const tenants = {
        sqlite: sqliteTenants,
        postgresql: await prepareTenants(URLS.postgresql, TENANTS, log),
      };
      const docsMix = (database: 'sqlite' | 'postgresql') => ({
        reads: tenants[database].flatMap((tenant) =>
          tenant.tokens.flatMap((token) => [
            graphql(token, TREE_QUERY, { id: tenant.organizationId }),
            { path: `/v1/spaces/${tenant.spaceIds[tenant.tokens.indexOf(token) % tenant.spaceIds.length]}`, headers: auth(token) },
          ]),
        ),
        writes: tenants[database].map((tenant) => ({
          method: 'PATCH' as const,
          path: `/v1/spaces/${tenant.spaceIds[0]}`,
          headers: auth(tenant.tokens[0]!),
          body: { title: 'Renamed in the mix' },
        })),
        writeEvery: WRITE_EVERY,
      });
      // PostGraphile caches nothing, so writes would not change what its reads cost: it gets the reads only.
      const postgraphileMix = {
        reads: tenants.postgresql.flatMap((tenant) => [
          graphql('', postGraphileTree(tenant.organizationId)),
          graphql('', postGraphileSpace(tenant.spaceIds[0]!)),
        ]),
        writes: [],
        writeEvery: WRITE_EVERY,
      };
      const mixTargets: Array<[RunningSystem, string, Parameters<typeof runMix>[1]]> = [
        [docs.postgresql, 'postgresql', docsMix('postgresql')],
        [uncached, 'postgresql', docsMix('postgresql')],
        [postgraphile, 'postgresql', postgraphileMix],
        [docs.sqlite, 'sqlite', docsMix('sqlite')],
      ];
      const mixRounds = new Map(mixTargets.map((target) => [target, [] as MixResult[]]));
      for (const [system, , mix] of mixTargets) await runMix(system.url, mix, { seconds: plan.warmup, connections: plan.connections });
      for (let round = 0; round < plan.rounds; round++) {
        for (const target of round % 2 ? [...mixTargets].reverse() : mixTargets) {
          const [system, , mix] = target;
          const result = await runMix(system.url, mix, { seconds: plan.seconds, connections: plan.connections });
          mixRounds.get(target)!.push(result);
          log(
            `  ${system.name}: ${result.requestsPerSecond.toFixed(1)} req/s, cache hits ${Number.isFinite(result.hitRate) ? `${(100 * result.hitRate).toFixed(1)}%` : '–'}`,
          );
        }
      }
      for (const target of mixTargets) {
        const [system, database] = target;
        const rounds = mixRounds.get(target)!;
        const pick = (key: keyof MixResult) => median(rounds.map((result) => result[key]));
        results.measurements.push({
          scenario: 'S6 multi-tenant mix',
          system: system.name,
          database,
          requestsPerSecond: pick('requestsPerSecond'),
          latencyP50: pick('latencyP50'),
          latencyP99: pick('latencyP99'),
          failures: rounds.reduce((sum, result) => sum + result.failures, 0),
          bytesPerRequest: pick('bytesPerRequest'),
          rounds: rounds.map((result) => Math.round(result.requestsPerSecond * 10) / 10),
        });
        results.hitRates[system.name] = pick('hitRate');
      }
    }

    if (wanted('S4')) {
      log('S4 listing of the large organization, page 1 and a deep page (response cache off)');
      const listingTargets: Target[] = [];
      for (const database of ['sqlite', 'postgresql'] as const) {
        const set = sets[database];
        const listing = `/v1/orgs/${set.largeOrganizationId}/spaces`;
        const deepToken = await pageToken(docs[database], set.token, listing, deepPage, 100);
        listingTargets.push(
          { scenario: 'S4 listing page 1', system: uncachedDocs[database], database, request: { path: `${listing}?limit=100`, headers: auth(set.token) } },
          {
            scenario: `S4 listing page ${deepPage}`,
            system: uncachedDocs[database],
            database,
            request: { path: `${listing}?limit=100&page=${encodeURIComponent(deepToken!)}`, headers: auth(set.token) },
          },
        );
      }
      results.measurements.push(...(await measure(listingTargets)));
    }

    if (wanted('S5')) {
      log('S5 writes');
      const writeTargets: Target[] = [];
      for (const database of ['sqlite', 'postgresql'] as const) {
        const set = sets[database];
        const { siteId, siteSpaceId, before } = set.move;
        const writes: Array<[string, Request]> = [
          ['S5 create space', { method: 'POST', path: `/v1/orgs/${set.treeOrganizationId}/spaces`, headers: auth(set.token), body: { title: 'Bench space' } }],
          ['S5 update space', { method: 'PATCH', path: `/v1/spaces/${set.spaceId}`, headers: auth(set.token), body: { title: 'Renamed space' } }],
          [
            'S5 move site space',
            {
              method: 'POST',
              path: `/v1/orgs/${set.treeOrganizationId}/sites/${siteId}/site-spaces/${siteSpaceId}/move`,
              headers: auth(set.token),
              body: { position: { before: { type: 'site-space', siteSpace: before } } },
            },
          ],
        ];
        for (const [scenario, request] of writes) writeTargets.push({ scenario, system: docs[database], database, request, connections: 4 });
      }
      results.measurements.push(...(await measure(writeTargets)));
    }

    if (plan.soakSeconds && wanted('soak')) {
      log(`soak: ${plan.soakSeconds} s of S3 on docs-gateway-postgresql-uncached (every request executed)`);
      const system = uncached;
      const samples: NonNullable<Results['soak']>['samples'] = [];
      for (let at = 0; at < plan.soakSeconds; at += 30) {
        const result = await runLoad(system.url, requests('postgresql').S3, { seconds: 30, connections: plan.connections });
        samples.push({ atSeconds: at + 30, rssMB: memoryOf(system.pid, 'VmRSS'), requestsPerSecond: Math.round(result.requestsPerSecond * 10) / 10 });
        log(`  ${at + 30} s: RSS ${samples.at(-1)!.rssMB} MB, ${samples.at(-1)!.requestsPerSecond} req/s`);
      }
      results.soak = { seconds: plan.soakSeconds, samples };
    }
  } finally {
    for (const system of systems) await system.stop();
  }

  if (!only || only.includes('cpu')) {
    log('where the CPU goes, per scenario (in-process, response cache off, V8 profiler)');
    for (const database of ['sqlite', 'postgresql'] as const) {
      for (const scenario of ['S1', 'S2', 'S3', 'S7', 'S8']) {
        const { profile: _profile, ...measured } = await profileScenario(URLS[database], sets[database], scenario, quick ? 50 : 200);
        results.cpu.push(measured);
        log(`  ${scenario} ${database}: ${measured.msPerRequest.toFixed(1)} ms, ${measured.statements} statements`);
      }
    }
  }

  const resultsDir = path.join(BENCH_DIR, 'results');
  fs.mkdirSync(resultsDir, { recursive: true });
  const stem = path.join(resultsDir, `${results.date.slice(0, 10)}${quick ? '-quick' : ''}${only ? `-only-${only.join('-')}` : ''}`);
  fs.writeFileSync(`${stem}.json`, `${JSON.stringify(results, null, 2)}\n`);
  const markdown = renderMarkdown(results);
  fs.writeFileSync(`${stem}.md`, markdown);
  console.log(`\n${markdown}`);
  log(`results in ${path.relative(process.cwd(), stem)}.{json,md}`);
}

await main();
