import { DomainError, JobTimedOut } from '../errors.ts';
import type { CallOptions, JobKind, JobOutput, RequestContext } from '../context.ts';
import { emitEvent } from './events/emit.ts';

/** Where a job's end is announced (`job.finished`, src/domain/events/emit.ts): the space it worked on. */
export interface JobScope {
  organizationId: string;
  spaceId: string;
  changeRequestId?: string | undefined;
}

/**
 * Runs a job for a request and answers with its output: through the queue
 * (any instance may run it), or in this context where nothing queues (seeds,
 * the CLI). A client error the job refused with is thrown here again. With
 * `announce`, subscribers of the organization hear that it finished, and how.
 */
export async function callJob<Data extends object>(
  ctx: RequestContext,
  kind: JobKind<Data>,
  data: Data,
  { announce, ...options }: CallOptions & { announce?: JobScope },
): Promise<JobOutput> {
  let outcome: 'succeeded' | 'failed' | undefined = 'failed';
  try {
    const output = ctx.jobs ? await ctx.jobs.call(kind, data, options) : (((await kind.run(ctx, data, { id: 'inline', attempt: 1 })) ?? {}) as JobOutput);
    if (output.refused) throw new DomainError(output.refused.status, output.refused.message);
    outcome = 'succeeded';
    return output;
  } catch (error) {
    // Not waited for any longer, but perhaps still running: how it ends is not known here.
    if (error instanceof JobTimedOut) outcome = undefined;
    throw error;
  } finally {
    if (announce && outcome) {
      emitEvent(ctx, { kind: 'job.finished', ...announce, subjectId: announce.changeRequestId ?? announce.spaceId, data: { job: kind.name, outcome } });
    }
  }
}
