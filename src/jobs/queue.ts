import type { FastifyBaseLogger } from 'fastify';
import type { AnyJobKind, JobOutput, JobSender, RequestContext } from '../context.ts';
import { DomainError, JobTimedOut } from '../errors.ts';

/**
 * Background work (purging deleted spaces, processing OpenAPI specs…), run
 * outside requests. On PostgreSQL jobs live in the database (pg-boss): every
 * instance works the same queue, each job is claimed by exactly one of them,
 * survives restarts and is retried when it throws. On the embedded SQLite
 * database there is one instance, and jobs run in its process.
 */

/** A queue of jobs: what request handlers send to (JobSender, src/context.ts), and what works them. */
export interface JobQueue extends JobSender {
  readonly backend: 'postgresql' | 'in-process';
  /** This instance takes jobs of `kind` from now on. */
  work(kind: AnyJobKind): Promise<void>;
  /** Stops taking jobs and waits (bounded) for those running. */
  stop(): Promise<void>;
  /** In-process only: waits (at most `ms`) until no job of this process is running or about to start. */
  settled?(ms: number): Promise<void>;
}

/** What the queue tells operators: every job's end, and its own trouble. */
export type JobLog = Pick<FastifyBaseLogger, 'debug' | 'info' | 'warn' | 'error'>;

/** What runs jobs: where to log, and a fresh context for each attempt. */
export interface JobRunner {
  log: JobLog;
  context(): RequestContext;
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
    log[kind.idle?.(summary) ? 'debug' : 'info']({ job: kind.name, jobId: job.id, attempt: job.attempt, ms: ms(), ...summary }, 'job done');
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

/** The 503 of a job that did not end in time. */
export const jobTimedOut = (kind: AnyJobKind, timeoutMs: number) =>
  new JobTimedOut(`the server is busy: ${kind.name} did not finish within ${Math.round(timeoutMs / 1000)} s, try again later`);
