import { importWebsiteJob, renderPdfJob } from '../domain/content/jobs.ts';
import { bindingPollJob, bindingSyncJob } from '../domain/git/binding-sync.ts';
import { exportGitJob, importGitJob } from '../domain/git/jobs.ts';
import { processOpenAPISpecJob, resumeOpenAPISpecsJob } from '../domain/openapi/processing.ts';
import { spacePurgeJob } from '../domain/spaces/purge.ts';
import { auditRetentionJob } from '../domain/audit/retention.ts';
import { webhookDeliveryJob, webhookSweepJob } from '../domain/webhooks/delivery.ts';
import type { AnyJobKind, JobKind } from '../context.ts';
import type { JobLog, JobQueue } from './queue.ts';
import { DEFAULT_WEBHOOK_SETTINGS } from '../lib/webhook-settings.ts';

// Functions, not constants: the job modules import the domain, which may import
// this module back, and a constant would capture kinds not yet defined.

/** Every kind of job; a server works them all from the start, so that any instance takes any job. */
export const jobKinds = (): AnyJobKind[] => [
  spacePurgeJob,
  auditRetentionJob,
  processOpenAPISpecJob,
  resumeOpenAPISpecsJob,
  renderPdfJob,
  importWebsiteJob,
  importGitJob,
  exportGitJob,
  bindingSyncJob,
  bindingPollJob,
  webhookDeliveryJob,
  webhookSweepJob,
];

/** The kinds queued every interval (below), each worked by its schedule. */
const periodicKinds = (): AnyJobKind[] => [spacePurgeJob, auditRetentionJob, resumeOpenAPISpecsJob];

export interface BackgroundWork {
  /** Stops queuing periodic jobs (the queue itself stops with the app). */
  stop(): Promise<void>;
}

/**
 * The server's background work: this instance works every kind of job, and
 * queues the periodic ones at start and then every interval. With several
 * instances each of them queues, and the queue keeps one job per interval.
 */
export function startBackgroundWork(options: {
  queue: JobQueue;
  log: JobLog;
  purgeIntervalMs: number;
  webhookSweepIntervalMs?: number;
  gitPollIntervalMs?: number;
}): BackgroundWork {
  const { queue, log } = options;
  let stopped = false;
  const periodicKindsNow = [...periodicKinds(), webhookSweepJob, bindingPollJob];
  for (const kind of jobKinds()) {
    if (!periodicKindsNow.includes(kind)) void work(queue, kind, log, () => stopped);
  }
  // Specs whose processing job was lost are found again at the purge interval.
  const periodic = periodicKinds().map((kind) => every(queue, kind, options.purgeIntervalMs, log));
  // Webhook retries, and deliveries a stopped server left, at their own interval.
  periodic.push(every(queue, webhookSweepJob, options.webhookSweepIntervalMs ?? DEFAULT_WEBHOOK_SETTINGS.sweepIntervalMs, log));
  // Bound Git branches, for pushes no webhook announced.
  periodic.push(every(queue, bindingPollJob, options.gitPollIntervalMs ?? 300_000, log));
  return {
    async stop() {
      stopped = true;
      await Promise.all(periodic.map((schedule) => schedule.stop()));
    },
  };
}

/** Works `kind`, trying again every 5 s while the database is unreachable. */
async function work(queue: JobQueue, kind: AnyJobKind, log: JobLog, stopped: () => boolean): Promise<void> {
  while (!stopped()) {
    try {
      return await queue.work(kind);
    } catch (error) {
      log.warn({ err: error, job: kind.name }, 'could not start working a job kind; trying again in 5 s');
      await new Promise((resolve) => setTimeout(resolve, 5_000).unref());
    }
  }
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
