/**
 * The long fuzzing run: many more cases than the bounded run of
 * test/fuzz/*.test.ts, every failure noted rather than the first one shrunk,
 * and a summary to paste into the README.
 *
 *   npx tsx test/fuzz/long-run.ts [--runs N] [--graphql-runs N] [--seed S]
 *
 * On a fresh SQLite database in a temporary directory, or, when DATABASE_URL
 * is a postgresql:// URL, on a fresh database created on that server (and
 * dropped afterwards). `--runs` REST cases (default 20,000) and
 * `--graphql-runs` GraphQL mutations (default: a third of --runs). Exits 1
 * when a property broke or the server is unwell afterwards; replay a run with
 * its seed.
 */
import { parseArgs } from 'node:util';
import { runMigrations } from '../../src/db/index.ts';
import { schema } from '../../src/graphql/schema.ts';
import { startFuzzTarget } from './harness.ts';
import { scratchDatabase } from '../support/scratch-database.ts';
import { fetchOpenApi, formatStats, fuzzGraphQL, fuzzRest, healthProblems } from './run.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '20000' },
    'graphql-runs': { type: 'string' },
    seed: { type: 'string' },
  },
});
const runs = Number(values.runs);
const graphqlRuns = values['graphql-runs'] !== undefined ? Number(values['graphql-runs']) : Math.ceil(runs / 3);
const seed = values.seed !== undefined ? Number(values.seed) : Date.now() % 2 ** 31;
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(graphqlRuns) || graphqlRuns < 0 || !Number.isInteger(seed)) {
  console.error('usage: npx tsx test/fuzz/long-run.ts [--runs N] [--graphql-runs N] [--seed S]');
  process.exit(2);
}

/** A fresh, migrated database, and how to drop it. */
async function freshDatabase() {
  const database = await scratchDatabase(process.env.DATABASE_URL, 'fuzz');
  await runMigrations(database.url);
  return database;
}

const database = await freshDatabase();
const target = await startFuzzTarget(database.url);
let failed = false;
try {
  const document = await fetchOpenApi(target);
  const operations = Object.values(document.paths).reduce((count, operations) => count + Object.keys(operations).length, 0);
  const mutations = Object.keys(schema.getMutationType()?.getFields() ?? {}).length;
  console.log(
    `docs-gateway fuzzing on ${database.label}, Node ${process.version}: ${operations} REST operations, ${mutations} GraphQL mutations, seed ${seed}`,
  );
  const rest = await fuzzRest(target, document, { numRuns: runs, seed, mode: 'collect' });
  console.log(formatStats('REST', rest, seed));
  const graphql = graphqlRuns > 0 ? await fuzzGraphQL(target, document, schema, { numRuns: graphqlRuns, seed, mode: 'collect' }) : undefined;
  if (graphql) console.log(formatStats('GraphQL', graphql, seed));
  const health = await healthProblems(target);
  console.log(`health after: ${health.length ? health.join('; ') : 'ok (GET /healthz 200, REST read and write, GraphQL query)'}`);
  const total = rest.durationMs + (graphql?.durationMs ?? 0);
  console.log(
    `total: ${rest.cases + (graphql?.cases ?? 0)} cases in ${(total / 1000).toFixed(1)} s, ${rest.failures.length + (graphql?.failures.length ?? 0)} failures`,
  );
  failed = rest.failures.length > 0 || (graphql?.failures.length ?? 0) > 0 || health.length > 0;
} finally {
  await target.close();
  await database.drop();
}
process.exit(failed ? 1 : 0);
