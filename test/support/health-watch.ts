import type { TestApp } from './app.ts';

/**
 * What the rest of the server sees while `work` runs: `/healthz` is asked over
 * HTTP again and again, one at a time, until `work` has ended, and each answer
 * timed. Work run on the event loop delays every one of them (issue 32 measured
 * stalls of seconds to minutes); the slowest answer is what a test bounds.
 */
const PROBE_INTERVAL_MS = 20;

export async function watchHealth<T>(t: TestApp, work: () => Promise<T>): Promise<{ result: T; slowestMs: number; probes: number }> {
  const base = await t.listen();
  let done = false;
  let slowestMs = 0;
  let probes = 0;
  const watching = (async () => {
    // Timed from when each probe was due, not from when it was sent: work holding the event loop
    // while the prober waits between probes delays its timer, and that delay is a client's wait too.
    let due = performance.now();
    while (!done) {
      const response = await fetch(`${base}/healthz`);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`/healthz answered ${response.status}`);
      slowestMs = Math.max(slowestMs, performance.now() - due);
      probes++;
      due = performance.now() + PROBE_INTERVAL_MS;
      await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS));
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
