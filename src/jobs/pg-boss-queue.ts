import type { PgBoss } from 'pg-boss';
import type { AnyJobKind, JobOutput } from '../context.ts';
import { type JobQueue, type JobRunner, jobTimedOut, runLogged } from './queue.ts';

/** How often a caller waiting for a job another instance runs looks at its state. */
const CALL_POLL_MS = 200;

/** Retries wait this long, doubling at each attempt (pg-boss adds jitter below the double), up to the maximum. */
const RETRY_DELAY_SECONDS = 1;
const RETRY_DELAY_MAX_SECONDS = 300;

/** When a job that failed its `retryCount`-th retry is due again, at the latest (pg-boss' backoff). */
const retryDueMs = (retryCount: number) => 1000 * Math.min(RETRY_DELAY_MAX_SECONDS, RETRY_DELAY_SECONDS * 2 ** Math.min(16, retryCount + 1)) + 100;

/** Jobs kept in PostgreSQL by pg-boss (its own schema), shared by every instance on the database. */
export function pgBossQueue(url: string, runner: JobRunner): JobQueue {
  const { log } = runner;
  // pg-boss itself is loaded with the first job (about 25 MB of a process' memory until then).
  const startBoss = async () => {
    const { PgBoss } = await import('pg-boss');
    boss = new PgBoss({
      connectionString: url,
      schema: 'pgboss',
      application_name: 'docs-gateway jobs',
      // Its own small pool: background work never takes the connections requests need.
      max: 3,
      connectionTimeoutMillis: 5_000,
      // A new job wakes the workers of every instance (LISTEN/NOTIFY on a connection of its
      // own): idle, a worker only polls as a backstop, not every second.
      useListenNotify: true,
      // No cron schedules here (periodic work is sent throttled, src/jobs/background.ts): none of its polling.
      schedule: false,
    });
    // Trouble reaching the database is reported here and retried by pg-boss itself.
    boss.on('error', (error) => log.warn({ err: error }, 'job queue: database error'));
    await boss.start();
  };
  /** Set once a job was sent or worked; every use below comes after `started`. */
  let boss!: PgBoss;

  // Nothing connects until a job is sent or worked: servers and tests that
  // never use the queue open no pool and install nothing.
  let started: Promise<unknown> | undefined;
  const queues = new Map<string, Promise<void>>();
  const queueOf = (kind: AnyJobKind) => {
    let ready = queues.get(kind.name);
    if (!ready) {
      const options = {
        retryLimit: kind.retryLimit,
        retryDelay: RETRY_DELAY_SECONDS,
        retryBackoff: true,
        retryDelayMax: RETRY_DELAY_MAX_SECONDS,
        expireInSeconds: kind.timeoutSeconds,
        deleteAfterSeconds: 7 * 24 * 3600,
        notify: true,
      };
      // Created once; a queue created by an earlier version takes today's options too.
      ready = (started ??= startBoss()).then(async () => {
        await boss.createQueue(kind.name, options);
        await boss.updateQueue(kind.name, options);
      });
      // A failed start (database down) is tried again by the next call.
      ready.catch(() => {
        queues.delete(kind.name);
        started = undefined;
      });
      queues.set(kind.name, ready);
    }
    return ready;
  };

  // This instance's worker of each kind, woken when it queues a job a caller waits for.
  const workers = new Map<string, string>();

  return {
    backend: 'postgresql',
    async work(kind) {
      await queueOf(kind);
      // Idle, a worker costs nothing but a poll every 30 s: a new job's NOTIFY wakes it (every
      // instance's), it drains the queue by waking itself after each job, and a job that will be
      // retried wakes it when due. Without LISTEN it polls every second.
      const wake = () => {
        const workerId = workers.get(kind.name);
        if (workerId) boss.notifyWorker(workerId);
      };
      const workerId = await boss.work(kind.name, { pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: 30, localConcurrency: 2 }, async ([job]) => {
        try {
          // pg-boss keeps what the handler returns as the job's output, for `call`.
          return await runLogged(kind, job!.data as object, { id: job!.id, attempt: job!.retryCount + 1 }, runner);
        } catch (error) {
          if (job!.retryCount < kind.retryLimit) setTimeout(wake, retryDueMs(job!.retryCount)).unref();
          throw error;
        } finally {
          setImmediate(wake);
        }
      });
      workers.set(kind.name, workerId);
    },
    async send(kind, data, options = {}) {
      await queueOf(kind);
      return options.oncePerSeconds ? boss.sendThrottled(kind.name, data, null, options.oncePerSeconds) : boss.send(kind.name, data);
    },
    async call(kind, data, { timeoutMs }) {
      await queueOf(kind);
      const deadline = Date.now() + timeoutMs;
      const id = (await boss.send(kind.name, data))!;
      // Ours takes it at once when it has a free slot; otherwise the next instance to poll does.
      const workerId = workers.get(kind.name);
      if (workerId) boss.notifyWorker(workerId);
      while (Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(CALL_POLL_MS, Math.max(0, deadline - Date.now()))));
        const job = await boss.getJobById<object>(kind.name, id);
        if (job?.state === 'completed') return (job.output ?? {}) as JobOutput;
        if (job?.state === 'failed' || job?.state === 'cancelled' || !job) {
          const reason = (job?.output as { message?: string } | undefined)?.message ?? job?.state ?? 'deleted';
          throw new Error(`job ${kind.name} ${id} ended without a result: ${reason}`);
        }
      }
      // Still waiting in the queue: it never starts. Already running: it ends unobserved.
      await boss.cancel(kind.name, id).catch(() => {});
      throw jobTimedOut(kind, timeoutMs);
    },
    async stop() {
      if (!started) return;
      await started.catch(() => {});
      // A start that failed before pg-boss was made left nothing to stop.
      if (boss) await boss.stop({ graceful: true, timeout: 10_000 });
    },
  };
}
