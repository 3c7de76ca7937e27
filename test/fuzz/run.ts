import fc from 'fast-check';
import type { GraphQLSchema } from 'graphql';
import { buildTeam } from '../support/factories.ts';
import { type Fixtures, buildFixtures } from './fixtures.ts';
import { type GraphQLCase, graphqlBody, graphqlCaseArbs } from './graphql-cases.ts';
import { type FuzzTarget, safeJson } from './harness.ts';
import type { OpenApiDocument } from './openapi-document.ts';
import { type RestCase, isDestructive, materialize, restCaseArb } from './rest-cases.ts';

/**
 * The properties, for the bounded runs of test/fuzz/*.test.ts and the long run
 * of test/fuzz/long-run.ts. Every generated request is sent as the admin of
 * the fixture organization and must hold:
 * - REST: status < 500; a 4xx body is exactly `{ error: { code: <status>, message: <non-empty> } }`;
 * - GraphQL: HTTP status < 500; every error has a numeric `extensions.code` below 500
 *   and is not the masked "Unexpected error.";
 * - a refused request (REST 4xx; GraphQL errors without data) wrote nothing:
 *   the database's fingerprint (FuzzTarget.fingerprint) is unchanged.
 */

export interface FuzzOptions {
  numRuns: number;
  seed: number;
  /** Fixtures are rebuilt after this many cases: fuzzed requests delete and move them. */
  rebuildEvery?: number;
  /** 'assert': fail on the first broken property, shrunk to a minimal case; 'collect': note every failure and go on. */
  mode?: 'assert' | 'collect';
}

export interface FuzzStats {
  cases: number;
  /** Status histogram; for GraphQL `<HTTP status>/<first error code or "ok">`. */
  statuses: Map<string, number>;
  failures: Array<{ problem: string; request: string }>;
  slowest: Array<{ ms: number; request: string }>;
  fixtureBuilds: number;
  durationMs: number;
}

const clip = (text: string, length = 400) => (text.length > length ? `${text.slice(0, length)}… (${text.length} characters)` : text);

/** Why a REST response breaks the properties, if it does. */
export function restProblem(status: number, text: string, before: string, after: string | undefined): string | undefined {
  if (status >= 500) return `answered ${status}: ${clip(text)}`;
  if (status < 400) return undefined;
  const body = safeJson(text);
  const error = body?.error;
  const shaped =
    body &&
    typeof body === 'object' &&
    !Array.isArray(body) &&
    Object.keys(body).join() === 'error' &&
    error &&
    typeof error === 'object' &&
    Object.keys(error).sort().join() === 'code,message' &&
    error.code === status &&
    typeof error.message === 'string' &&
    error.message.trim() !== '';
  if (!shaped) return `answered ${status} with a body that is not {"error":{"code":${status},"message":"…"}}: ${clip(text)}`;
  if (after !== undefined && after !== before) return `refused with ${status} (${clip(error.message, 200)}) but wrote: fingerprint ${before} → ${after}`;
  return undefined;
}

/** Why a GraphQL response breaks the properties, if it does; and whether it was refused (errors and no data). */
export function graphqlProblem(status: number, text: string): { problem?: string; refused: boolean; label: string } {
  if (status >= 500) return { problem: `answered HTTP ${status}: ${clip(text)}`, refused: true, label: `${status}` };
  const body = safeJson(text);
  if (!body || typeof body !== 'object')
    return { problem: `answered ${status} with a body that is not JSON: ${clip(text)}`, refused: true, label: `${status}/?` };
  const errors: Array<{ message?: unknown; extensions?: { code?: unknown } }> | undefined = body.errors;
  const refused = Array.isArray(errors) && errors.length > 0 && (body.data === null || body.data === undefined);
  const label = `${status}/${errors?.length ? String(errors[0]?.extensions?.code ?? '-') : 'ok'}`;
  for (const error of errors ?? []) {
    const code = error?.extensions?.code;
    if (typeof code !== 'number') return { problem: `an error without a numeric extensions.code: ${clip(JSON.stringify(error))}`, refused, label };
    if (code >= 500) return { problem: `an error with code ${code}: ${clip(JSON.stringify(error))}`, refused, label };
    if (error.message === 'Unexpected error.') return { problem: `the masked "Unexpected error.": ${clip(JSON.stringify(error))}`, refused, label };
    if (typeof error.message !== 'string' || error.message === '')
      return { problem: `an error without a message: ${clip(JSON.stringify(error))}`, refused, label };
  }
  return { refused, label };
}

/** The OpenAPI document the server serves, as a client reads it. */
export async function fetchOpenApi(target: FuzzTarget): Promise<OpenApiDocument> {
  const response = await target.send({ method: 'GET', url: '/v1/openapi.json' });
  if (response.statusCode !== 200) throw new Error(`GET /v1/openapi.json answered ${response.statusCode}`);
  return response.json();
}

interface Sent {
  status: number;
  label: string;
  problem: string | undefined;
}

/** Runs `numRuns` generated cases through `send`, fixtures rebuilt every so often, and returns the statistics. */
async function fuzz<Case>(
  target: FuzzTarget,
  document: OpenApiDocument,
  arbitrary: fc.Arbitrary<Case>,
  send: (request: Case, fixtures: Fixtures) => Promise<Sent>,
  options: FuzzOptions,
): Promise<FuzzStats> {
  const started = performance.now();
  const stats: FuzzStats = { cases: 0, statuses: new Map(), failures: [], slowest: [], fixtureBuilds: 0, durationMs: 0 };
  const rebuildEvery = options.rebuildEvery ?? 250;
  let fixtures = await buildFixtures(target, document);
  stats.fixtureBuilds += 1;
  let sinceBuild = 0;
  const property = fc.asyncProperty(arbitrary, async (request) => {
    if (sinceBuild >= rebuildEvery) {
      fixtures = await buildFixtures(target, document, fixtures);
      stats.fixtureBuilds += 1;
      sinceBuild = 0;
    }
    sinceBuild += 1;
    const begin = performance.now();
    const { label, problem } = await send(request, fixtures);
    const ms = performance.now() - begin;
    stats.cases += 1;
    stats.statuses.set(label, (stats.statuses.get(label) ?? 0) + 1);
    if (stats.slowest.length < 5 || ms > stats.slowest.at(-1)!.ms) {
      stats.slowest.push({ ms, request: fc.stringify(request) });
      stats.slowest.sort((a, b) => b.ms - a.ms).splice(5);
    }
    if (problem) {
      if (options.mode === 'collect') stats.failures.push({ problem, request: fc.stringify(request) });
      else throw new Error(problem);
    }
  });
  try {
    await fc.assert(property, { numRuns: options.numRuns, seed: options.seed, verbose: 0 });
  } finally {
    stats.durationMs = performance.now() - started;
  }
  return stats;
}

export async function fuzzRest(target: FuzzTarget, document: OpenApiDocument, options: FuzzOptions): Promise<FuzzStats> {
  return fuzz(
    target,
    document,
    restCaseArb(document),
    async (request: RestCase, fixtures) => {
      const { method, url, payload, contentType } = materialize(request, fixtures);
      const before = await target.fingerprint(fixtures.scopes);
      const response = await target.send({ method, url, token: fixtures.token, payload, contentType });
      const status = response.statusCode;
      const after = status >= 400 && status < 500 ? await target.fingerprint(fixtures.scopes) : undefined;
      const problem = restProblem(status, response.body, before, after);
      return { status, label: String(status), problem: problem && `${problem}\n    request: ${method} ${clip(url, 300)}` };
    },
    options,
  );
}

export async function fuzzGraphQL(target: FuzzTarget, document: OpenApiDocument, schema: GraphQLSchema, options: FuzzOptions): Promise<FuzzStats> {
  const arbitrary = fc.oneof(...graphqlCaseArbs(schema, document).map(({ field, arbitrary }) => ({ weight: isDestructive(field) ? 1 : 3, arbitrary })));
  return fuzz(
    target,
    document,
    arbitrary,
    async (request: GraphQLCase, fixtures) => {
      const before = await target.fingerprint(fixtures.scopes);
      const response = await target.send({
        method: 'POST',
        url: '/graphql',
        token: fixtures.token,
        payload: graphqlBody(request, fixtures),
        contentType: 'application/json',
      });
      const result = graphqlProblem(response.statusCode, response.body);
      let problem = result.problem;
      if (!problem && result.refused) {
        const after = await target.fingerprint(fixtures.scopes);
        if (after !== before) problem = `refused (${clip(response.body, 300)}) but wrote: fingerprint ${before} → ${after}`;
      }
      return { status: response.statusCode, label: result.label, problem };
    },
    options,
  );
}

/** After a run: the server still answers its health check, a read and a write, over REST and GraphQL. */
export async function healthProblems(target: FuzzTarget): Promise<string[]> {
  const problems: string[] = [];
  const health = await target.send({ method: 'GET', url: '/healthz' });
  if (health.statusCode !== 200) problems.push(`GET /healthz answered ${health.statusCode}: ${health.body}`);
  const team = await buildTeam(target.database);
  const user = await target.json('GET', '/v1/user', team.admin.token);
  if (user.status !== 200 || user.body?.id !== team.admin.id) problems.push(`GET /v1/user answered ${user.status}: ${JSON.stringify(user.body)}`);
  const space = await target.json('POST', `/v1/orgs/${team.organization.id}/spaces`, team.admin.token, { title: 'After the fuzzing' });
  if (space.status !== 201) problems.push(`POST /v1/orgs/{id}/spaces answered ${space.status}: ${JSON.stringify(space.body)}`);
  const graph = await target.json('POST', '/graphql', team.admin.token, { query: '{ viewer { user { id } } }' });
  if (graph.status !== 200 || graph.body?.data?.viewer?.user?.id !== team.admin.id)
    problems.push(`GraphQL viewer answered ${graph.status}: ${JSON.stringify(graph.body)}`);
  return problems;
}

export function formatStats(title: string, stats: FuzzStats, seed: number): string {
  const histogram = [...stats.statuses.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, count]) => `${status}: ${count}`)
    .join(', ');
  const lines = [
    `${title}: ${stats.cases} cases in ${(stats.durationMs / 1000).toFixed(1)} s (seed ${seed}, fixtures built ${stats.fixtureBuilds} times)`,
    `  statuses: ${histogram}`,
    `  failures: ${stats.failures.length}`,
    ...stats.failures.slice(0, 20).map((failure) => `    - ${failure.problem}\n      case: ${clip(failure.request, 600)}`),
    `  slowest: ${stats.slowest.map((entry) => `${entry.ms.toFixed(0)} ms`).join(', ')}`,
    ...stats.slowest.slice(0, 3).map((entry) => `    ${entry.ms.toFixed(0)} ms: ${clip(entry.request, 200)}`),
  ];
  return lines.join('\n');
}
