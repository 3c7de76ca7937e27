import type { FastifyBaseLogger } from 'fastify';
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
  run(data: Data, job: { id: string; attempt: number }): Promise<void>;
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

export function openJobQueue(database: Database, log: JobLog): JobQueue {
  return providerOf(database.url) === 'postgresql' ? pgBossQueue(database.url, log) : inProcessQueue(log);
}

/** Runs one attempt of a job and logs how it ended; rethrows so the queue retries. */
export async function runLogged(kind: JobKind<any>, data: object, job: { id: string; attempt: number }, log: JobLog) {
  const started = performance.now();
  try {
    await kind.run(data, job);
    log.info({ job: kind.name, jobId: job.id, attempt: job.attempt, ms: Math.round(performance.now() - started) }, 'job done');
  } catch (error) {
    const retried = job.attempt <= kind.retryLimit;
    log[retried ? 'warn' : 'error']({ job: kind.name, jobId: job.id, attempt: job.attempt, err: error }, retried ? 'job failed, will retry' : 'job failed');
    throw error;
  }
}
