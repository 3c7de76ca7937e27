import type { Db } from '../../db/index.ts';
import type { JobKind } from '../../context.ts';
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

/** The background job behind the 7-day retention (queued periodically, src/jobs/background.ts). */
export const spacePurgeJob: JobKind = {
  name: 'purge-deleted-spaces',
  retryLimit: 3,
  timeoutSeconds: 600,
  run: async (ctx) => ({ purged: await purgeDeletedSpaces(ctx.db, ctx.clock) }),
  idle: (output) => output.purged === 0,
};
