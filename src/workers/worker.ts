import { type MessagePort, threadId } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { TASKS, type TaskName } from './tasks.ts';

/**
 * The module each worker thread of the pool runs (./pool.ts): it runs one task
 * at a time by name. Built as its own entry point of the bundle
 * (dist/cli/worker.mjs, bin/build.js).
 */

export interface TaskRequest {
  name: TaskName;
  input: unknown;
  /** Told when the task starts, and on which thread: its time budget counts from then, in that thread's processor time. */
  started: MessagePort;
}

/** A task's output, or the client error it refused its input with (a DomainError does not cross threads whole). */
export type TaskReply = { output: unknown } | { refused: { status: number; message: string } };

export default async function runTask({ name, input, started }: TaskRequest) {
  started.postMessage(threadId);
  started.close();
  try {
    const task = await TASKS[name]();
    const output: unknown = await task(input as never);
    // Bytes own their memory: handed over, not copied.
    if (output instanceof Uint8Array && output.byteOffset === 0 && output.byteLength === output.buffer.byteLength) {
      return move({ [transferableSymbol]: output.buffer, [valueSymbol]: { output } } as never);
    }
    return { output } satisfies TaskReply;
  } catch (error) {
    // Imported as the tasks import it: piscina require()s this module, so from the sources (tsx) a static
    // import would be another copy of errors.ts than the one of the task modules, which load as ES modules.
    const { DomainError } = await import('../errors.ts');
    if (error instanceof DomainError) return { refused: { status: error.status, message: error.message } } satisfies TaskReply;
    throw error;
  }
}
