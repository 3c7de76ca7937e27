import type { Database } from '../../src/db/index.ts';

/**
 * Waits until the database's generation feed is live (PostgreSQL: its LISTEN
 * connection is up), so that the caches keep what they read from then on: tests
 * that count statements start from a known state.
 */
export async function untilGenerationsHeard(database: Database, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!database.generations.live) {
    if (Date.now() - started > timeoutMs) throw new Error('the generation feed did not become live');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
