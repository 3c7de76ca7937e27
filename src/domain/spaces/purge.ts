import type { Db } from '../../db/index.ts';
import type { Clock } from '../../lib/clock.ts';
import { SPACE_RETENTION_MS } from './service.ts';

/** Permanently removes spaces deleted longer ago than the retention period. Returns how many. */
export async function purgeDeletedSpaces(db: Db, clock: Clock): Promise<number> {
  const cutoff = new Date(clock.now().getTime() - SPACE_RETENTION_MS);
  return db.$transaction(async (tx) => {
    // The search index has no foreign key (an FTS5 table on SQLite): its rows go with their space.
    await tx.$executeRaw`DELETE FROM "search_sections" WHERE "spaceId" IN (SELECT "id" FROM "spaces" WHERE "deletedAt" < ${cutoff})`;
    const { count } = await tx.space.deleteMany({ where: { deletedAt: { lt: cutoff } } });
    return count;
  });
}

export interface PurgeJob {
  /** Runs one purge now (also what each tick does). */
  runOnce(): Promise<number>;
  stop(): void;
}

/**
 * The background job behind the 7-day retention: purges at start and then every
 * `intervalMs`. Safe with several instances: a purge is one idempotent DELETE.
 */
export function startSpacePurgeJob(options: {
  db: Db;
  clock: Clock;
  intervalMs: number;
  onPurged?: (count: number) => void;
  onError?: (error: unknown) => void;
}): PurgeJob {
  const runOnce = async () => {
    const count = await purgeDeletedSpaces(options.db, options.clock);
    if (count > 0) options.onPurged?.(count);
    return count;
  };
  const tick = () => void runOnce().catch((error) => options.onError?.(error));
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  tick();
  return { runOnce, stop: () => clearInterval(timer) };
}
