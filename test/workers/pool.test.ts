import { once } from 'node:events';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { DomainError } from '../../src/errors.ts';
import {
  DEFAULT_WORKER_POOL,
  TaskOverBudget,
  WALL_CLOCK_FACTOR,
  configureWorkerPool,
  runTask,
  watchTimeBudget,
  workerPoolState,
} from '../../src/workers/pool.ts';

/**
 * The worker pool (src/workers/pool.ts) on real worker threads, with the tasks
 * of the server: outputs, client errors, the time and memory budgets, a
 * saturated pool, threads started on demand and ended when idle.
 */

const HTML_LIMITS = { maxDepth: 512, maxElements: 50_000, maxMarkdownCharacters: 1_000_000 };
const page = (html: string, limits = HTML_LIMITS) => ({
  html,
  url: 'http://site.test/docs/page.html',
  fallbackTitle: '/docs/page.html',
  crawl: { origin: 'http://site.test', scope: '/docs/' },
  limits,
});

/** Two bodies of 5,000 lines (or `lines`), every other line of the first 80% changed: a few seconds of Myers' search. */
function heavyDiff(lines = 5_000) {
  const body = (changed: boolean) =>
    Array.from({ length: lines }, (_, i) => `line ${i} ${changed && i % 2 && i < lines * 0.8 ? 'changed' : 'as it was'}`).join('\n');
  return { before: body(false), after: body(true), budget: { maxEditLines: 5_000, maxWork: 50_000_000 } };
}

afterEach(() => configureWorkerPool(DEFAULT_WORKER_POOL));

describe('the worker pool', () => {
  it('runs a task on a worker thread and answers its output', async () => {
    expect(await runTask('diff-bodies', { before: 'a\nsame\n', after: 'b\nsame\n', budget: null }, { budgetMs: 10_000 })).toBe(
      '@@ -1,2 +1,2 @@\n-a\n+b\n same\n',
    );
    const converted = await runTask('html-page', page('<title>T</title><main><h1>Hi</h1><a href="/docs/next">next</a></main>'), { budgetMs: 10_000 });
    expect(converted).toEqual({ title: 'T', links: ['http://site.test/docs/next'], resources: [], markdown: '# Hi\n\n[next](/docs/next)\n' });
    expect((await workerPoolState()).threads).toBeGreaterThanOrEqual(1);
  });

  it('gives a client error the task refused its input with back as the same DomainError', async () => {
    const deep = `<main>${'<div>'.repeat(100_000)}deep${'</div>'.repeat(100_000)}</main>`;
    const refused = await runTask('html-page', page(deep), { budgetMs: 10_000 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({
      status: 400,
      message: 'url: http://site.test/docs/page.html nests HTML elements more than 512 deep, the most a page may nest',
    });
  });

  it('ends a task past its time budget with a 400, and goes on with a new thread', async () => {
    const started = performance.now();
    const over = await runTask('diff-bodies', heavyDiff(), { budgetMs: 100 }).catch((error: unknown) => error);
    expect(over).toBeInstanceOf(TaskOverBudget);
    expect(over).toMatchObject({ status: 400, budget: 'time', message: 'diff-bodies took longer than 100 ms, its budget' });
    // Ended, not waited for: the search takes seconds.
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(await runTask('diff-bodies', { before: 'x\n', after: 'y\n', budget: null }, { budgetMs: 10_000 })).toBe('@@ -1,1 +1,1 @@\n-x\n+y\n');
  });

  it("counts a task's budget in the processor time of its thread: a machine kept busy does not end a task that fits", async () => {
    configureWorkerPool({ threads: 1 });
    const expected = await runTask('diff-bodies', heavyDiff(2_000), { budgetMs: 60_000 });
    const alone = performance.now();
    expect(await runTask('diff-bodies', heavyDiff(2_000), { budgetMs: 60_000 })).toBe(expected);
    const budgetMs = Math.ceil(1.5 * (performance.now() - alone));
    // Threads that spin on every core and more: the task's thread gets a fraction of one, so by the clock it
    // takes about twice as long as its budget, within WALL_CLOCK_FACTOR times it.
    const spinners = Array.from({ length: 2 * availableParallelism() }, () => new Worker('for (;;) {}', { eval: true }));
    try {
      await Promise.all(spinners.map((spinner) => once(spinner, 'online')));
      expect(await runTask('diff-bodies', heavyDiff(2_000), { budgetMs })).toBe(expected);
    } finally {
      await Promise.all(spinners.map((spinner) => spinner.terminate()));
    }
  });

  it('ends a task once its thread used its budget of processor time, or at WALL_CLOCK_FACTOR times it by the clock', async () => {
    // A thread whose processor time is set by the test: 'running' uses it as the clock goes, 'starved' not at all.
    const thread = (mode: 'running' | 'starved') => {
      const since = performance.now();
      return { cpuUsage: async () => ({ user: mode === 'running' ? (performance.now() - since) * 1000 : 0, system: 0 }) };
    };
    const endedAfter = (watched: Parameters<typeof watchTimeBudget>[0], budgetMs: number) =>
      new Promise<number>((resolve) => {
        const started = performance.now();
        watchTimeBudget(watched, budgetMs, () => resolve(performance.now() - started));
      });
    expect(await endedAfter(thread('running'), 100)).toBeGreaterThanOrEqual(99);
    // Given no processor time, it still ends: by the clock, at WALL_CLOCK_FACTOR times its budget.
    expect(await endedAfter(thread('starved'), 100)).toBeGreaterThanOrEqual(100 * WALL_CLOCK_FACTOR - 1);
    // Without its thread (not found), the clock alone counts.
    const clockOnly = await endedAfter(undefined, 100);
    expect(clockOnly).toBeGreaterThanOrEqual(99);
    expect(clockOnly).toBeLessThan(100 * WALL_CLOCK_FACTOR);
    // Stopped (the task answered), it never ends the task.
    let ended = false;
    const stop = watchTimeBudget(thread('running'), 50, () => {
      ended = true;
    });
    stop();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ended).toBe(false);
  });

  it('ends a task that needs more memory than a worker has with a 400', async () => {
    configureWorkerPool({ memoryMb: 128 });
    // A 1,900 × 100-cell table (2 MB) with the limits lifted: hundreds of MB to convert.
    const table = `<main><table>${Array.from({ length: 1_900 }, () => `<tr>${'<td>1</td>'.repeat(100)}</tr>`).join('')}</table></main>`;
    const over = await runTask('html-page', page(table, { ...HTML_LIMITS, maxElements: 1_000_000, maxMarkdownCharacters: 100_000_000 }), {
      budgetMs: 120_000,
    }).catch((error: unknown) => error);
    expect(over).toBeInstanceOf(TaskOverBudget);
    expect(over).toMatchObject({ status: 400, budget: 'memory', message: 'html-page needed more than 128 MB of memory, its budget' });
    expect(await runTask('diff-bodies', { before: 'x\n', after: 'y\n', budget: null }, { budgetMs: 10_000 })).toBe('@@ -1,1 +1,1 @@\n-x\n+y\n');
  });

  it('refuses a task with a 503 when its queue is full or no thread frees up in time', async () => {
    configureWorkerPool({ threads: 1, maxQueue: 1, queueWaitMs: 300 });
    // Its thread started (a thread starting counts as waiting: asked again until it has).
    const warm = () =>
      runTask('diff-bodies', { before: 'x\n', after: 'y\n', budget: null }, { budgetMs: 10_000 }).then(
        () => true,
        () => false,
      );
    await expect.poll(warm, { timeout: 20_000, interval: 100 }).toBe(true);
    const stop = new AbortController();
    const running = runTask('diff-bodies', heavyDiff(), { budgetMs: 60_000, signal: stop.signal }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const waiting = runTask('diff-bodies', heavyDiff(), { budgetMs: 60_000 }).catch((error: unknown) => error);
    const third = await runTask('diff-bodies', heavyDiff(), { budgetMs: 60_000 }).catch((error: unknown) => error);
    expect(third).toMatchObject({ status: 503, message: 'the server is busy (diff-bodies: 1 tasks are waiting for a worker): try again later' });
    expect(await waiting).toMatchObject({ status: 503, message: 'the server is busy (diff-bodies: no worker was free within 300 ms): try again later' });
    // The caller gone: the running task is ended too.
    stop.abort(new Error('the client went away'));
    expect(await running).toMatchObject({ message: 'the client went away' });
  });

  it('starts a thread when a task needs one, and ends it once idle', async () => {
    configureWorkerPool({ idleMs: 200 });
    expect(await workerPoolState()).toEqual({ threads: 0, queued: 0 });
    await runTask('diff-bodies', { before: 'x\n', after: 'y\n', budget: null }, { budgetMs: 10_000 });
    expect((await workerPoolState()).threads).toBe(1);
    await expect.poll(async () => (await workerPoolState()).threads, { timeout: 5_000 }).toBe(0);
  });
});
