import { afterEach } from 'vitest';
import type { TestApp } from './app.ts';

/** Moving the server's clock (TestClock) in tests about time: purges, restore windows, ages. */

export const DAY = 24 * 60 * 60 * 1000;

/**
 * Returns `travel(ms)`, which moves the server's clock by `ms`, and puts the
 * clock back after each test, so every test starts at the real time. `app` is
 * a getter because the file's app is created in `beforeAll`.
 */
export function timeTravel(app: () => TestApp): (ms: number) => void {
  let travelled = 0;
  afterEach(() => {
    app().clock.advance(-travelled);
    travelled = 0;
  });
  return (ms) => {
    travelled += ms;
    app().clock.advance(ms);
  };
}
