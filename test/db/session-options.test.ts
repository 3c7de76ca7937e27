import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/db/index.ts';
import { scratchDatabase } from '../support/scratch-database.ts';
import { testDatabaseUrl } from '../support/worker-database.ts';

/**
 * PostgreSQL keeps the plan of every prepared statement (src/db/client.ts sessionOptions): planning
 * a compiled read at each execution cost more than running it. Options of the database URL stay.
 */
describe.runIf(testDatabaseUrl()?.startsWith('postgres'))('the PostgreSQL sessions of the pool', () => {
  let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
  let database: Database;
  beforeAll(async () => {
    scratch = await scratchDatabase(testDatabaseUrl(), 'session');
    const url = new URL(scratch.url);
    url.searchParams.set('options', '-c work_mem=8MB');
    database = openDatabase(url.toString());
  });
  afterAll(async () => {
    await database?.close();
    await scratch?.drop();
  });

  it('keep the generic plan of a prepared statement, and the options the URL gives', async () => {
    const [setting] = await database.readRows<{ plan: string; memory: string }>(
      "SELECT current_setting('plan_cache_mode') AS plan, current_setting('work_mem') AS memory",
      [],
    );
    expect(setting).toEqual({ plan: 'force_generic_plan', memory: '8MB' });
    // Prisma's statements go through the same pool.
    const [prisma] = await database.db.$queryRawUnsafe<Array<{ plan: string }>>("SELECT current_setting('plan_cache_mode') AS plan");
    expect(prisma).toEqual({ plan: 'force_generic_plan' });
  });
});
