import { DomainError } from '../errors.ts';
import type { CallOptions, JobKind, JobOutput, RequestContext } from '../context.ts';

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
