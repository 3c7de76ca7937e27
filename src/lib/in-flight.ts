/**
 * Asynchronous work kept a few at a time: `add` starts a task once fewer than
 * `limit` run, waiting otherwise (the caller makes no more work than is being
 * done: what it holds stays bounded), and `drain` waits for the rest. A failed
 * task fails the next `add` or `drain`; the tasks then running are waited for,
 * none started after. Used where each task waits on I/O (writing Git objects:
 * compressing on libuv's threads, then the file system), so that the waits
 * overlap one another and the CPU work between them.
 */
export class InFlight {
  readonly #limit: number;
  readonly #running = new Set<Promise<void>>();
  #failure: { error: unknown } | undefined;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** Starts `task` when there is room; `use` receives its result when it ends. */
  async add<T>(task: () => Promise<T>, use: (value: T) => void): Promise<void> {
    while (this.#running.size >= this.#limit) await Promise.race(this.#running);
    if (this.#failure) await this.drain();
    // Never rejects: a failure is kept for the next add or drain (nothing is left unhandled meanwhile).
    const run: Promise<void> = task()
      .then(use)
      .catch((error: unknown) => {
        this.#failure ??= { error };
      })
      .finally(() => this.#running.delete(run));
    this.#running.add(run);
  }

  /** Waits until every task added has ended; throws the first failure. */
  async drain(): Promise<void> {
    while (this.#running.size > 0) await Promise.all(this.#running);
    if (this.#failure) throw this.#failure.error;
  }
}
