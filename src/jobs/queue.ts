import type { FastifyBaseLogger } from 'fastify';
import type { RequestContext } from '../context.ts';
import { type Database, providerOf } from '../db/index.ts';
import { inProcessQueue } from './in-process-queue.ts';
import { pgBossQueue } from './pg-boss-queue.ts';

/**
 * Background work (purging deleted spaces, processing OpenAPI specs…), run
 * outside requests. On PostgreSQL jobs live in the database (pg-boss): every
 * instance works the same queue, each job is claimed by exactly one of them,
 * survives restarts and is retried when it throws. On the embedded SQLite
 * database there is one instance, and jobs run in its process.
 */

/** One kind of job: what it does and how failures are retried. */
export interface JobKind<Data extends object = object> {
  name: string;
  /** Attempts after the first before the job is marked failed. */
  retryLimit: number;
  /** An attempt running longer than this is considered lost and retried. */
  timeoutSeconds: number;
  /**
   * Does the work, in a context of its own with no viewer (no permissions to
   * check: whoever queued the job was checked then). What it returns is added
   * to the job's log line.
   */
  run(ctx: RequestContext, data: Data, job: { id: string; attempt: number }): Promise<void | Record<string, unknown>>;
}

export interface SendOptions {
  /** At most one job of this kind per window of this many seconds, across every instance. */
  oncePerSeconds?: number;
}

export interface JobQueue {
  readonly backend: 'postgresql' | 'in-process';
  /** This instance takes jobs of `kind` from now on. */
  work(kind: JobKind<any>): Promise<void>;
  /** Queues a job; its id, or null when the window of `oncePerSeconds` already has one. */
  send<Data extends object>(kind: JobKind<Data>, data: Data, options?: SendOptions): Promise<string | null>;
  /** Stops taking jobs and waits (bounded) for those running. */
  stop(): Promise<void>;
}

/** What the queue tells operators: every job's end, and its own trouble. */
export type JobLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/** What runs jobs: where to log, and a fresh context for each attempt. */
export interface JobRunner {
  log: JobLog;
  context(): RequestContext;
}

export function openJobQueue(database: Pick<Database, 'url'>, runner: JobRunner): JobQueue {
  return providerOf(database.url) === 'postgresql' ? pgBossQueue(database.url, runner) : inProcessQueue(runner);
}

/** Runs one attempt of a job and logs how it ended; rethrows so the queue retries. */
export async function runLogged(kind: JobKind<any>, data: object, job: { id: string; attempt: number }, { log, context }: JobRunner) {
  const started = performance.now();
  try {
    const summary = await kind.run(context(), data, job);
    log.info({ job: kind.name, jobId: job.id, attempt: job.attempt, ms: Math.round(performance.now() - started), ...summary }, 'job done');
  } catch (error) {
    const retried = job.attempt <= kind.retryLimit;
    log[retried ? 'warn' : 'error']({ job: kind.name, jobId: job.id, attempt: job.attempt, err: error }, retried ? 'job failed, will retry' : 'job failed');
    throw error;
  }
}

/**
 * How request handlers queue jobs: this instance starts working a kind the
 * first time it queues one (servers work every kind from the start, see
 * src/jobs/background.ts).
 */
export interface JobSender {
  send<Data extends object>(kind: JobKind<Data>, data: Data, options?: SendOptions): Promise<string | null>;
}

export function jobSender(queue: JobQueue): JobSender {
  const working = new Map<string, Promise<void>>();
  return {
    async send(kind, data, options) {
      let worked = working.get(kind.name);
      if (!worked) {
        worked = queue.work(kind);
        working.set(kind.name, worked);
        worked.catch(() => working.delete(kind.name));
      }
      await worked;
      return queue.send(kind, data, options);
    },
  };
}
