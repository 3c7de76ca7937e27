import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { OUTSIDE_ROUTE_TABLE } from '../../src/rest/openapi.ts';
import { restRoutes } from '../../src/rest/plugin.ts';
import { issueApiToken } from '../../src/domain/users/provisioning.ts';
import { closeWhenFileEnds } from '../support/cleanup.ts';
import { buildTeam } from '../support/factories.ts';
import { type FuzzTarget, startFuzzTarget } from './harness.ts';
import type { OpenApiDocument } from './openapi-document.ts';
import { caseArb, operationsOf } from './rest-cases.ts';
import { fetchOpenApi, formatStats, fuzzRest, healthProblems, restProblem } from './run.ts';
import { FUZZ_RUNS, FUZZ_SEED, withReplayHint } from './settings.ts';
import { testDatabaseUrl } from '../support/worker-database.ts';

/**
 * Random and malformed requests to every operation of /v1, generated from the
 * OpenAPI document the server serves (test/fuzz/rest-cases.ts): no 5xx, every
 * error in the one shape `{ error: { code, message } }`, nothing written by a
 * refused request, and the server healthy afterwards. A bounded run here; the
 * long one is test/fuzz/long-run.ts.
 */

let target: FuzzTarget;
let document: OpenApiDocument;
beforeAll(async () => {
  target = await startFuzzTarget(testDatabaseUrl());
  closeWhenFileEnds(() => target.close());
  document = await fetchOpenApi(target);
});

describe('the REST fuzzer', () => {
  it('generates requests for every operation of the route table', () => {
    const operations = operationsOf(document);
    expect(operations.map((operation) => operation.operation.operationId).sort()).toEqual(
      [...restRoutes, ...OUTSIDE_ROUTE_TABLE.map(({ operation }) => operation)].map((route) => route.operationId).sort(),
    );
    for (const operation of operations) expect(fc.sample(caseArb(operation), { numRuns: 3, seed: 1 })).toHaveLength(3);
  });

  it('holds a refusal to the one error shape, and notices a write', () => {
    expect(restProblem(404, '{"error":{"code":404,"message":"Space \\"x\\" was not found"}}', 'a', 'a')).toBeUndefined();
    expect(restProblem(400, '{"error":"Bad Request","code":"FST_ERR_BAD_URL","message":"x","statusCode":400}', 'a', 'a')).toMatch(/not \{"error"/);
    expect(restProblem(400, '{"error":{"code":404,"message":"x"}}', 'a', 'a')).toMatch(/not \{"error"/);
    expect(restProblem(400, '{"error":{"code":400,"message":""}}', 'a', 'a')).toMatch(/not \{"error"/);
    expect(restProblem(409, '{"error":{"code":409,"message":"x"}}', 'a', 'b')).toMatch(/but wrote/);
    expect(restProblem(500, '{"error":{"code":500,"message":"Internal server error"}}', 'a', undefined)).toMatch(/answered 500/);
  });

  it('fingerprints the writes of its organizations, and only theirs', async () => {
    const team = await buildTeam(target.database);
    const other = await buildTeam(target.database);
    const scopes = [team.organization.id, team.admin.id];
    const before = await target.fingerprint(scopes);
    expect((await target.json('POST', `/v1/orgs/${other.organization.id}/spaces`, other.admin.token, { title: 'Elsewhere' })).status).toBe(201);
    expect(await target.fingerprint(scopes)).toBe(before);
    expect((await target.json('POST', `/v1/orgs/${team.organization.id}/spaces`, team.admin.token, { title: 'Here' })).status).toBe(201);
    const afterSpace = await target.fingerprint(scopes);
    expect(afterSpace).not.toBe(before);
    await issueApiToken(target.database.db, team.admin.id, 'fuzz');
    expect(await target.fingerprint(scopes)).not.toBe(afterSpace);
  });

  it(`answers ${FUZZ_RUNS} generated requests below 500, refusals in the error shape and without writing`, async () => {
    try {
      const stats = await fuzzRest(target, document, { numRuns: FUZZ_RUNS, seed: FUZZ_SEED });
      console.log(formatStats('REST fuzzing', stats, FUZZ_SEED));
      expect(stats.cases).toBe(FUZZ_RUNS);
    } catch (error) {
      throw withReplayHint(error, FUZZ_SEED);
    }
  }, 300_000);

  it('leaves the server healthy: health check, a read and a write over REST and GraphQL', async () => {
    expect(await healthProblems(target)).toEqual([]);
  });
});
