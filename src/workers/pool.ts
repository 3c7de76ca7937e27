import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { MessageChannel, type Worker } from 'node:worker_threads';
import type Piscina from 'piscina';
import { DomainError, type ErrorStatus, unavailable } from '../errors.ts';
import type { TaskInput, TaskName, TaskOutput } from './tasks.ts';
import type { TaskReply, TaskRequest } from './worker.ts';

/**
 * The worker pool: work whose cost grows with what a client sent (diffing page
 * bodies, converting imported HTML, rendering PDFs…) runs here, on worker
 * threads (piscina), never on the event loop that answers every request.
 *
 *     const hunks = await runTask('diff-bodies', { before, after, maxEditLength }, { budgetMs: 10_000 });
 *
 * Each task runs under budgets: a time budget, counted from when a worker
 * starts it in the processor time of its thread (past it the worker is ended
 * and the caller gets TaskOverBudget, a 400), and the memory bound of every
 * worker (a task needing more ends its worker the same way). Processor time,
 * not the clock: a busy machine slows a task down without its input costing
 * more, and must not turn a page that fits into one that does not. A thread
 * given less than a core's share still ends, at WALL_CLOCK_FACTOR times its
 * budget by the clock. A task that waits in the queue too long, or finds the
 * queue full, is refused with a 503 (Retry-After): the pool is saturated, the
 * client may try again. A task refusing its input (a DomainError thrown on the
 * worker) is thrown here again as the same DomainError.
 *
 * Threads start when a task first needs one and end after WORKER_IDLE_MS without
 * work, so an idle server holds none. Tasks are listed in ./tasks.ts; the worker
 * is ./worker.ts, run from the sources (tests, `npm run dev`) or built beside
 * the bundle as dist/cli/worker.mjs (bin/build.js).
 */

export interface WorkerPoolOptions {
  /** Threads at most (WORKER_THREADS); the machine's cores by default. */
  threads: number;
  /** The old-generation heap of each worker, in MB (WORKER_MEMORY_MB). */
  memoryMb: number;
  /** Tasks waiting for a thread at most; more are refused (503). */
  maxQueue: number;
  /** The longest a task waits for a thread before it is refused (503). */
  queueWaitMs: number;
  /** A thread without work for this long ends. */
  idleMs: number;
}

export const DEFAULT_WORKER_POOL: WorkerPoolOptions = {
  // A worker thread near its heap limit is ended with a little more room to finish: too small a heap
  // leaves too little, and V8 ends the whole process instead (WORKER_MEMORY_MB is at least 128).
  threads: Math.max(1, availableParallelism()),
  memoryMb: 512,
  maxQueue: 64,
  queueWaitMs: 30_000,
  idleMs: 30_000,
};

/** A task ends at this many times its budget by the clock, whatever processor time its thread was given. */
export const WALL_CLOCK_FACTOR = 4;

export interface TaskOptions {
  /** The processor time the task may use once a worker started it; past it, TaskOverBudget. */
  budgetMs: number;
  /** Aborted when the result is no longer wanted (the client went away): a waiting task is dropped, a running one ended. */
  signal?: AbortSignal | undefined;
}

/** A task needed more time or memory than its budget allows: its input is too large for this server (a 400). */
export class TaskOverBudget extends DomainError {
  constructor(
    readonly task: TaskName,
    readonly budget: 'time' | 'memory',
    message: string,
  ) {
    super(400, message);
    this.name = 'TaskOverBudget';
  }
}

let options = DEFAULT_WORKER_POOL;
let pool: Promise<Piscina<TaskRequest, TaskReply>> | undefined;

/** Sets the pool's bounds (the server does at start, from its configuration); a pool already running is replaced when idle. */
export function configureWorkerPool(bounds: Partial<WorkerPoolOptions>): void {
  options = { ...DEFAULT_WORKER_POOL, ...bounds };
  void closeWorkerPool();
}

/** The bounds in force. */
export function workerPoolOptions(): WorkerPoolOptions {
  return options;
}

/**
 * Where the worker's module is. Running from the sources (this file is pool.ts:
 * vitest, tsx), the worker runs worker.ts with tsx's loader; in the bundle,
 * this code is in dist/cli/<command>.mjs and the worker is dist/cli/worker.mjs.
 */
function workerModule(): { filename: string; execArgv: string[] } {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return { filename: new URL('./worker.mjs', here).href, execArgv: [] };
  const tsx = pathToFileURL(createRequire(here).resolve('tsx')).href;
  return { filename: new URL('./worker.ts', here).href, execArgv: ['--import', tsx] };
}

async function startPool(): Promise<Piscina<TaskRequest, TaskReply>> {
  // Loaded with the first task: a server that never needs a worker never loads piscina.
  const { Piscina } = await import('piscina');
  const { filename, execArgv } = workerModule();
  const started = new Piscina<TaskRequest, TaskReply>({
    filename,
    execArgv,
    minThreads: 0,
    maxThreads: options.threads,
    idleTimeout: options.idleMs,
    // Counted here (runTask), so that a full queue is a 503 rather than piscina's error.
    maxQueue: Number.POSITIVE_INFINITY,
    resourceLimits: { maxOldGenerationSizeMb: options.memoryMb },
  });
  // A thread that fails with no task of its own (out of memory as it was being ended, its task's
  // caller already answered at the time budget) has no caller to tell, and an 'error' event nobody
  // listens to would end the process. Operators see a warning, and the pool is replaced: once a
  // thread failed that way, the pool's tasks were seen to wait for a thread that never came.
  started.on('error', (error: Error) => {
    process.emitWarning(`a worker thread failed outside a task, the pool is replaced: ${error.message}`, 'WorkerPoolWarning');
    void retire(started);
  });
  return started;
}

function currentPool() {
  pool ??= startPool().catch((error: unknown) => {
    pool = undefined;
    throw error;
  });
  return pool;
}

/** The next task starts a new pool; this one ends once its tasks have (or piscina's close timeout). */
async function retire(instance: Piscina<TaskRequest, TaskReply>): Promise<void> {
  if (pool && (await pool.catch(() => undefined)) === instance) pool = undefined;
  await instance.close().catch(() => undefined);
}

/** Ends the pool's threads (at shutdown); the next task starts a new pool. */
export async function closeWorkerPool(): Promise<void> {
  const closing = pool;
  pool = undefined;
  if (closing) await (await closing).close();
}

/** What the pool is doing now (metrics, tests). */
export async function workerPoolState(): Promise<{ threads: number; queued: number }> {
  if (!pool) return { threads: 0, queued: 0 };
  const running = await pool;
  return { threads: running.threads.length, queued: running.queueSize };
}

const busy = (name: TaskName, why: string) => unavailable(`the server is busy (${name}: ${why}): try again later`);

/**
 * Runs a task of ./tasks.ts on a worker thread and answers its output: see
 * the top of this file for its budgets and errors.
 */
export async function runTask<Name extends TaskName>(name: Name, input: TaskInput<Name>, { budgetMs, signal }: TaskOptions): Promise<TaskOutput<Name>> {
  signal?.throwIfAborted();
  const running = await currentPool();
  if (running.queueSize >= options.maxQueue) throw busy(name, `${options.maxQueue} tasks are waiting for a worker`);
  const abort = new AbortController();
  let ended: 'queue' | 'time' | undefined;
  // The worker says when it starts the task: the time budget counts from then, not from the queue.
  const started = new MessageChannel();
  const timer = setTimeout(() => {
    ended = 'queue';
    abort.abort();
  }, options.queueWaitMs);
  let stopBudget = () => {};
  started.port1.once('message', (threadId: number) => {
    clearTimeout(timer);
    stopBudget = watchTimeBudget(
      running.threads.find((thread) => thread.threadId === threadId),
      budgetMs,
      () => {
        ended = 'time';
        abort.abort();
      },
    );
  });
  started.port1.unref();
  const stop = () => abort.abort();
  signal?.addEventListener('abort', stop, { once: true });
  let reply: TaskReply;
  try {
    reply = await running.run({ name, input, started: started.port2 }, { transferList: [started.port2], signal: abort.signal });
  } catch (error) {
    if (ended === 'time') throw new TaskOverBudget(name, 'time', `${name} took longer than ${formatMs(budgetMs)}, its budget`);
    if (ended === 'queue') throw busy(name, `no worker was free within ${formatMs(options.queueWaitMs)}`);
    if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
      throw new TaskOverBudget(name, 'memory', `${name} needed more than ${options.memoryMb} MB of memory, its budget`);
    }
    if (signal?.aborted) throw signal.reason;
    throw error;
  } finally {
    clearTimeout(timer);
    stopBudget();
    signal?.removeEventListener('abort', stop);
    started.port1.close();
  }
  if ('refused' in reply) throw new DomainError(reply.refused.status as ErrorStatus, reply.refused.message);
  return reply.output as TaskOutput<Name>;
}

/**
 * Calls `end` once the task on `thread` has used `budgetMs` of that thread's processor time since
 * now, or WALL_CLOCK_FACTOR times that by the clock; answers how to stop watching. Without the
 * thread's processor time (a thread not found), the clock alone counts.
 */
export function watchTimeBudget(thread: Pick<Worker, 'cpuUsage'> | undefined, budgetMs: number, end: () => void): () => void {
  const startedAt = performance.now();
  const cpuMs = async () => {
    const usage = await thread!.cpuUsage();
    return (usage.user + usage.system) / 1000;
  };
  const baseline = thread ? cpuMs() : undefined;
  // Read before it is awaited: a thread ended meanwhile is the task's failure, not the budget's.
  baseline?.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const checkAfter = (waitMs: number) => {
    timer = setTimeout(async () => {
      const elapsed = performance.now() - startedAt;
      if (!baseline || elapsed >= budgetMs * WALL_CLOCK_FACTOR) return end();
      let used: number;
      try {
        used = (await cpuMs()) - (await baseline);
      } catch {
        return; // The thread has ended: its task fails on its own.
      }
      if (stopped) return;
      if (used >= budgetMs) return end();
      checkAfter(Math.max(1, Math.min(budgetMs - used, budgetMs * WALL_CLOCK_FACTOR - elapsed)));
    }, waitMs);
  };
  checkAfter(budgetMs);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

function formatMs(ms: number) {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
