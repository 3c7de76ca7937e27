import { type Database, providerOf } from '../db/index.ts';
import { inProcessQueue } from './in-process-queue.ts';
import { pgBossQueue } from './pg-boss-queue.ts';
import type { JobQueue, JobRunner } from './queue.ts';

/** The queue of a database: pg-boss tables on PostgreSQL, shared by every instance; this process on SQLite. */
export function openJobQueue(database: Pick<Database, 'url'>, runner: JobRunner): JobQueue {
  return providerOf(database.url) === 'postgresql' ? pgBossQueue(database.url, runner) : inProcessQueue(runner);
}
