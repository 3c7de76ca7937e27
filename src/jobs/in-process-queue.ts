import { randomUUID } from 'node:crypto';
import type { AnyJobKind, JobOutput } from '../context.ts';
import { type JobQueue, type JobRunner, jobTimedOut, runLogged } from './queue.ts';

const RETRY_DELAY_MS = 1_000;
const MAX_RETRY_DELAY_MS = 300_000;

interface Waiter {
  resolve(output: JobOutput): void;
  reject(error: unknown): void;
}

/**
 * Jobs run in this process, for the embedded SQLite database (one instance).
 * Retries back off exponentially like pg-boss's; jobs queued when the process
 * stops are not kept (what needs to survive a restart is found again from
 * the database by the job's owner, e.g. specs still waiting to be processed).
 */
export function inProcessQueue(runner: JobRunner): JobQueue {
  const workers = new Set<string>();
  const waiting = new Map<string, Array<() => void>>();
  const windows = new Map<string, number>();
  const running = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  // Jobs a caller waits for (`call`), and those it gave up on before they started.
  const waiters = new Map<string, Waiter>();
  const cancelled = new Set<string>();
  let stopped = false;

  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timer.unref();
    timers.add(timer);
  };

  const attempt = (kind: AnyJobKind, data: object, id: string, number: number) => {
    if (stopped || cancelled.delete(id)) return;
    const done = runLogged(kind, data, { id, attempt: number }, runner).then(
      (output) => {
        cancelled.delete(id);
        waiters.get(id)?.resolve(output);
      },
      (error: unknown) => {
        if (number <= kind.retryLimit)
          return later(Math.min(RETRY_DELAY_MS * 2 ** (number - 1), MAX_RETRY_DELAY_MS), () => attempt(kind, data, id, number + 1));
        cancelled.delete(id);
        waiters.get(id)?.reject(error);
      },
    );
    running.add(done);
    void done.finally(() => running.delete(done));
  };

  const send: JobQueue['send'] = async (kind, data, options = {}) => {
    if (stopped) throw new Error('the job queue is stopped');
    if (options.oncePerSeconds) {
      const window = Math.floor(Date.now() / 1000 / options.oncePerSeconds);
      if (windows.get(kind.name) === window) return null;
      windows.set(kind.name, window);
    }
    const id = randomUUID();
    const start = () => later(0, () => attempt(kind, data, id, 1));
    if (workers.has(kind.name)) start();
    else waiting.set(kind.name, [...(waiting.get(kind.name) ?? []), start]);
    return id;
  };

  return {
    backend: 'in-process',
    async work(kind) {
      workers.add(kind.name);
      for (const start of waiting.get(kind.name) ?? []) start();
      waiting.delete(kind.name);
    },
    send,
    async call(kind, data, { timeoutMs }) {
      const id = (await send(kind, data))!;
      let timer: NodeJS.Timeout | undefined;
      try {
        return await new Promise<JobOutput>((resolve, reject) => {
          waiters.set(id, { resolve, reject });
          timer = setTimeout(() => {
            // Not started yet: it never will be. Running: it ends unobserved.
            cancelled.add(id);
            reject(jobTimedOut(kind, timeoutMs));
          }, timeoutMs);
        });
      } finally {
        clearTimeout(timer);
        waiters.delete(id);
      }
    },
    async settled(ms) {
      const deadline = Date.now() + ms;
      while ((running.size > 0 || timers.size > 0) && Date.now() < deadline) {
        const tick = new Promise((resolve) => setTimeout(resolve, 10));
        // Nothing running, a timer pending: wait on the clock alone. (Racing an
        // empty allSettled resolves at once and would spin here on microtasks,
        // the timer never getting its turn.)
        await (running.size > 0 ? Promise.race([Promise.allSettled([...running]), tick]) : tick);
      }
    },
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const waiter of waiters.values()) waiter.reject(new Error('the job queue stopped'));
      await Promise.allSettled([...running]);
    },
  };
}
