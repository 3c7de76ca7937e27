import { describe, expect, it } from 'vitest';
import { InFlight } from '../../src/lib/in-flight.ts';

/** A task that ends when told to, counting how many run at once. */
function gate() {
  let running = 0;
  let most = 0;
  const waiting: Array<() => void> = [];
  const task =
    (value: number, fail = false) =>
    async () => {
      running++;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => waiting.push(resolve));
      running--;
      if (fail) throw new Error(`task ${value} failed`);
      return value;
    };
  const releaseOne = async () => {
    waiting.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { task, releaseOne, most: () => most, running: () => running, waiting: () => waiting.length };
}

describe('InFlight', () => {
  it('runs at most its limit at once, making the caller wait for room, and gives every result', async () => {
    const tasks = gate();
    const pool = new InFlight(3);
    const results: number[] = [];
    let added = 0;
    const adding = (async () => {
      for (let value = 0; value < 10; value++) {
        await pool.add(tasks.task(value), (result) => results.push(result));
        added++;
      }
    })();
    await new Promise((resolve) => setImmediate(resolve));
    // Three started; the fourth add waits for room.
    expect(tasks.running()).toBe(3);
    expect(added).toBe(3);
    while (added < 10 || tasks.waiting() > 0) await tasks.releaseOne();
    await adding;
    await pool.drain();
    expect(tasks.most()).toBe(3);
    expect(results.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('fails the next add with the first failure, once the tasks running have ended, and starts none after', async () => {
    const tasks = gate();
    const pool = new InFlight(2);
    const results: number[] = [];
    await pool.add(tasks.task(1, true), (result) => results.push(result));
    await pool.add(tasks.task(2), (result) => results.push(result));
    await tasks.releaseOne(); // task 1 fails
    const third = pool.add(tasks.task(3), (result) => results.push(result));
    let settled = false;
    void third.catch(() => undefined).finally(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    // Task 2 still runs: the add waits for it before it throws.
    expect(settled).toBe(false);
    await tasks.releaseOne();
    await expect(third).rejects.toThrow('task 1 failed');
    expect(results).toEqual([2]);
    expect(tasks.most()).toBe(2);
    await expect(pool.drain()).rejects.toThrow('task 1 failed');
  });

  it('keeps a failure of what receives a result, as of the task itself', async () => {
    const pool = new InFlight(4);
    await pool.add(
      async () => 1,
      () => {
        throw new Error('could not use it');
      },
    );
    await expect(pool.drain()).rejects.toThrow('could not use it');
  });
});
