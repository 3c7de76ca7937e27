import type { FastifyBaseLogger } from 'fastify';
import type { RequestContext } from '../context.ts';
import { type Database, providerOf } from '../db/index.ts';
import { DomainError, type ErrorStatus, unavailable } from '../errors.ts';
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
   * to the job's log line, and is what `call` answers with. A DomainError it
   * throws is the client's and ends the job (retrying cannot help): `call`
   * rethrows it where the job was queued.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a job may return nothing at all
  run(ctx: RequestContext, data: Data, job: { id: string; attempt: number }): Promise<void | Record<string, unknown>>;
}

/**
 * A kind whatever its data: the queue handles kinds of every data type alike,
 * and a kind's `run` takes its own data (parameters are contravariant, so no
 * narrower type holds them all).
 */
// biome-ignore lint/suspicious/noExplicitAny: see above
export type AnyJobKind = JobKind<any>;

export interface SendOptions {
  /** At most one job of this kind per window of this many seconds, across every instance. */
  oncePerSeconds?: number;
}

export interface CallOptions {
  timeoutMs: number;
}

/** What a finished job leaves: its run's result, or the client error that refused it. */
export type JobOutput = Record<string, unknown> & { refused?: { status: ErrorStatus; message: string } };

export interface JobQueue {
  readonly backend: 'postgresql' | 'in-process';
  /** This instance takes jobs of `kind` from now on. */
  work(kind: AnyJobKind): Promise<void>;
  /** Queues a job; its id, or null when the window of `oncePerSeconds` already has one. */
  send<Data extends object>(kind: JobKind<Data>, data: Data, options?: SendOptions): Promise<string | null>;
  /**
   * Queues a job and waits for its end, for work a request answers with
   * (website imports, PDFs) but that any instance may run. Resolves to the
   * job's output (see `outcomeOf`); rejects when its last attempt failed, or
   * with a 503 when it has not ended within `timeoutMs` (it is then cancelled
   * unless already running).
   */
  call<Data extends object>(kind: JobKind<Data>, data: Data, options: CallOptions): Promise<JobOutput>;
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

/**
 * Runs one attempt of a job and logs how it ended: its output, or a client
 * error kept as the output's `refused`; rethrows anything else so the queue retries.
 */
export async function runLogged(kind: AnyJobKind, data: object, job: { id: string; attempt: number }, { log, context }: JobRunner): Promise<JobOutput> {
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    const summary: JobOutput = (await kind.run(context(), data, job)) ?? {};
    log.info({ job: kind.name, jobId: job.id, attempt: job.attempt, ms: ms(), ...summary }, 'job done');
    return summary;
  } catch (error) {
    if (error instanceof DomainError) {
      log.info({ job: kind.name, jobId: job.id, attempt: job.attempt, ms: ms(), status: error.status, reason: error.message }, 'job refused');
      return { refused: { status: error.status, message: error.message } };
    }
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
export type JobSender = Pick<JobQueue, 'send' | 'call'>;

export function jobSender(queue: JobQueue): JobSender {
  const working = new Map<string, Promise<void>>();
  const worked = (kind: AnyJobKind) => {
    let started = working.get(kind.name);
    if (!started) {
      started = queue.work(kind);
      working.set(kind.name, started);
      started.catch(() => working.delete(kind.name));
    }
    return started;
  };
  return {
    async send(kind, data, options) {
      await worked(kind);
      return queue.send(kind, data, options);
    },
    async call(kind, data, options) {
      await worked(kind);
      return queue.call(kind, data, options);
    },
  };
}

/**
 * Runs a job for a request and answers with its output: through the queue
 * (any instance may run it), or in this context where nothing queues (seeds,
 * the CLI). A client error the job refused with is thrown here again.
 */
export async function callJob<Data extends object>(ctx: RequestContext, kind: JobKind<Data>, data: Data, options: CallOptions): Promise<JobOutput> {
  const output = ctx.jobs ? await ctx.jobs.call(kind, data, options) : (((await kind.run(ctx, data, { id: 'inline', attempt: 1 })) ?? {}) as JobOutput);
  if (output.refused) throw new DomainError(output.refused.status, output.refused.message);
  return output;
}

/** The 503 of a job that did not end in time. */
export const jobTimedOut = (kind: AnyJobKind, timeoutMs: number) =>
  unavailable(`the server is busy: ${kind.name} did not finish within ${Math.round(timeoutMs / 1000)} s, try again later`);
