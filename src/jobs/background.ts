import type { Database } from '../db/index.ts';
import { spacePurgeJob } from '../domain/spaces/purge.ts';
import type { Clock } from '../lib/clock.ts';
import { type JobKind, type JobLog, type JobQueue, openJobQueue } from './queue.ts';

export interface BackgroundWork {
  queue: JobQueue;
  /** Stops queuing periodic jobs, then stops the queue (jobs running finish). */
  stop(): Promise<void>;
}

/**
 * The server's background work: this instance works every kind of job, and
 * queues the periodic ones at start and then every interval. With several
 * instances each of them queues, and the queue keeps one job per interval.
 */
export async function startBackgroundWork(options: { database: Database; clock: Clock; log: JobLog; purgeIntervalMs: number }): Promise<BackgroundWork> {
  const queue = openJobQueue(options.database, options.log);
  const purge = spacePurgeJob(options.database.db, options.clock, (purged) => options.log.info({ purged }, 'purged spaces deleted more than 7 days ago'));
  const periodic = [every(queue, purge, options.purgeIntervalMs, options.log)];
  return {
    queue,
    async stop() {
      await Promise.all(periodic.map((schedule) => schedule.stop()));
      await queue.stop();
    },
  };
}

/**
 * Works `kind` and queues it now and every `intervalMs`, at most once per
 * interval across instances. While the database is down the ticks log and
 * the next one tries again.
 */
function every(queue: JobQueue, kind: JobKind, intervalMs: number, log: JobLog): { stop(): Promise<void> } {
  let working: Promise<void> | undefined;
  let ticking: Promise<void> | undefined;
  const tick = async () => {
    try {
      await (working ??= queue.work(kind).catch((error: unknown) => {
        working = undefined;
        throw error;
      }));
      await queue.send(kind, {}, { oncePerSeconds: Math.max(1, Math.round(intervalMs / 1000)) });
    } catch (error) {
      log.warn({ err: error, job: kind.name }, 'could not queue a periodic job');
    }
  };
  const next = () => {
    ticking ??= tick().finally(() => (ticking = undefined));
  };
  const timer = setInterval(next, intervalMs);
  timer.unref();
  next();
  return {
    async stop() {
      clearInterval(timer);
      // A tick under way ends before the queue stops under it.
      await ticking;
    },
  };
}
