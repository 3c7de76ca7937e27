import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../src/graphql/schema.ts';
import { closeWhenFileEnds } from '../support/cleanup.ts';
import { graphqlCaseArbs } from './graphql-cases.ts';
import { type FuzzTarget, startFuzzTarget } from './harness.ts';
import type { OpenApiDocument } from './openapi-document.ts';
import { fetchOpenApi, formatStats, fuzzGraphQL, graphqlProblem, healthProblems } from './run.ts';
import { FUZZ_RUNS, FUZZ_SEED, withReplayHint } from './settings.ts';
import { testDatabaseUrl } from '../support/worker-database.ts';

/**
 * Random and malformed variables for every GraphQL mutation, generated from
 * the schema (test/fuzz/graphql-cases.ts): no HTTP 5xx, no error with a code
 * of 500 or more or the masked "Unexpected error.", nothing written when the
 * result is errors without data, and the server healthy afterwards.
 */

const RUNS = Math.ceil(FUZZ_RUNS / 2);

let target: FuzzTarget;
let document: OpenApiDocument;
beforeAll(async () => {
  target = await startFuzzTarget(testDatabaseUrl());
  closeWhenFileEnds(() => target.close());
  document = await fetchOpenApi(target);
});

describe('the GraphQL fuzzer', () => {
  it('generates variables for every mutation of the schema', () => {
    const generated = graphqlCaseArbs(schema, document);
    expect(generated.map((entry) => entry.field).sort()).toEqual(Object.keys(schema.getMutationType()!.getFields()).sort());
    for (const { arbitrary } of generated) expect(fc.sample(arbitrary, { numRuns: 3, seed: 1 })).toHaveLength(3);
  });

  it('tells a masked or server error from a refusal', () => {
    expect(graphqlProblem(200, '{"data":null,"errors":[{"message":"Site \\"x\\" was not found","extensions":{"code":404}}]}')).toEqual({
      refused: true,
      label: '200/404',
    });
    expect(graphqlProblem(200, '{"data":null,"errors":[{"message":"Unexpected error.","extensions":{"code":500}}]}').problem).toMatch(/code 500/);
    expect(graphqlProblem(200, '{"data":null,"errors":[{"message":"Unexpected error.","extensions":{"code":400}}]}').problem).toMatch(/masked/);
    expect(graphqlProblem(503, '{"errors":[]}').problem).toMatch(/HTTP 503/);
    expect(graphqlProblem(200, '{"data":{"x":{"__typename":"X"}}}')).toEqual({ refused: false, label: '200/ok' });
  });

  it(`answers ${RUNS} generated mutations without a server error, refusals without writing`, async () => {
    try {
      const stats = await fuzzGraphQL(target, document, schema, { numRuns: RUNS, seed: FUZZ_SEED });
      console.log(formatStats('GraphQL fuzzing', stats, FUZZ_SEED));
      expect(stats.cases).toBe(RUNS);
    } catch (error) {
      throw withReplayHint(error, FUZZ_SEED);
    }
  }, 300_000);

  it('leaves the server healthy: health check, a read and a write over REST and GraphQL', async () => {
    expect(await healthProblems(target)).toEqual([]);
  });
});
