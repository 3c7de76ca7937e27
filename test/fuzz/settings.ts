/**
 * Size and seed of the bounded runs in test/fuzz/*.test.ts: a few thousand
 * cases per database in CI. FUZZ_SEED replays a run (fast-check prints the
 * seed of a failure); FUZZ_RUNS scales it (the REST run takes FUZZ_RUNS
 * cases, the GraphQL run half as many).
 */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 2500);
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

/** fast-check's failure, with how to replay it. */
export function withReplayHint(error: unknown, seed: number): unknown {
  if (error instanceof Error) error.message = `${error.message}\n\nReplay with FUZZ_SEED=${seed} (and the same FUZZ_RUNS).`;
  return error;
}
