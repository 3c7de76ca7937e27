import { Worker } from 'node:worker_threads';

/**
 * Sends `GET /healthz` to a listening server every `intervalMs` from a thread
 * of its own (its own event loop: a server stalled on the test's thread cannot
 * hold its clock back), and reports the slowest answer once stopped. What a
 * client of a stalled server would see: its requests wait.
 */
export function probeHealthz(baseUrl: string, intervalMs = 50) {
  const worker = new Worker(
    `
    const { parentPort, workerData } = require('node:worker_threads');
    let worstMs = 0, answered = 0, stopped = false;
    parentPort.on('message', () => { stopped = true; });
    (async () => {
      while (!stopped) {
        const start = performance.now();
        const response = await fetch(workerData.url);
        await response.arrayBuffer();
        worstMs = Math.max(worstMs, performance.now() - start);
        answered += 1;
        await new Promise((resolve) => setTimeout(resolve, workerData.intervalMs));
      }
      parentPort.postMessage({ worstMs, answered });
    })().catch((error) => parentPort.postMessage({ error: String(error) }));
    `,
    { eval: true, workerData: { url: `${baseUrl}/healthz`, intervalMs } },
  );
  return {
    /** Stops probing; the slowest `/healthz` answer (ms) and how many there were. */
    stop: () =>
      new Promise<{ worstMs: number; answered: number }>((resolve, reject) => {
        worker.once('message', (result: { worstMs: number; answered: number; error?: string }) => {
          void worker.terminate();
          if (result.error) reject(new Error(result.error));
          else resolve(result);
        });
        worker.postMessage('stop');
      }),
  };
}
