import type { TestApp } from './app.ts';

/**
 * What the rest of the server sees while `work` runs: `/healthz` is asked over
 * HTTP again and again, one at a time, until `work` has ended, and each answer
 * timed. Work run on the event loop delays every one of them (issue 32 measured
 * stalls of seconds to minutes); the slowest answer is what a test bounds.
 */
export async function watchHealth<T>(t: TestApp, work: () => Promise<T>): Promise<{ result: T; slowestMs: number; probes: number }> {
  const base = await t.listen();
  let done = false;
  let slowestMs = 0;
  let probes = 0;
  const watching = (async () => {
    while (!done) {
      const started = performance.now();
      const response = await fetch(`${base}/healthz`);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`/healthz answered ${response.status}`);
      slowestMs = Math.max(slowestMs, performance.now() - started);
      probes++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  let result: T;
  try {
    result = await work();
  } finally {
    done = true;
    // The probe in flight when the work ended counts too.
    await watching;
  }
  return { result, slowestMs, probes };
}
