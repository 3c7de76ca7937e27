import { PgBoss } from 'pg-boss';
import { type JobKind, type JobRunner, type JobQueue, runLogged } from './queue.ts';

/** Jobs kept in PostgreSQL by pg-boss (its own schema), shared by every instance on the database. */
export function pgBossQueue(url: string, runner: JobRunner): JobQueue {
  const { log } = runner;
  const boss = new PgBoss({
    connectionString: url,
    schema: 'pgboss',
    application_name: 'docs-gateway jobs',
    // Its own small pool: background work never takes the connections requests need.
    max: 3,
    connectionTimeoutMillis: 5_000,
  });
  // Trouble reaching the database is reported here and retried by pg-boss itself.
  boss.on('error', (error) => log.warn({ err: error }, 'job queue: database error'));

  // Nothing connects until a job is sent or worked: servers and tests that
  // never use the queue open no pool and install nothing.
  let started: Promise<unknown> | undefined;
  const queues = new Map<string, Promise<void>>();
  const queueOf = (kind: JobKind<any>) => {
    let ready = queues.get(kind.name);
    if (!ready) {
      ready = (started ??= boss.start()).then(() =>
        boss.createQueue(kind.name, {
          retryLimit: kind.retryLimit,
          retryDelay: 1,
          retryBackoff: true,
          retryDelayMax: 300,
          expireInSeconds: kind.timeoutSeconds,
          deleteAfterSeconds: 7 * 24 * 3600,
        }),
      );
      // A failed start (database down) is tried again by the next call.
      ready.catch(() => {
        queues.delete(kind.name);
        started = undefined;
      });
      queues.set(kind.name, ready);
    }
    return ready;
  };

  return {
    backend: 'postgresql',
    async work(kind) {
      await queueOf(kind);
      await boss.work(kind.name, { pollingIntervalSeconds: 1, localConcurrency: 2 }, async ([job]) => {
        await runLogged(kind, job!.data as object, { id: job!.id, attempt: job!.retryCount + 1 }, runner);
      });
    },
    async send(kind, data, options = {}) {
      await queueOf(kind);
      return options.oncePerSeconds ? boss.sendThrottled(kind.name, data, null, options.oncePerSeconds) : boss.send(kind.name, data);
    },
    async stop() {
      if (!started) return;
      await started.catch(() => {});
      await boss.stop({ graceful: true, timeout: 10_000 });
    },
  };
}
