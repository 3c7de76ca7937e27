import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client.ts';
import { MIGRATIONS_TABLE, migrationFiles } from '../db/migrate.ts';

/** How long readiness waits for the database: probes give up after a few seconds. */
const READY_TIMEOUT_MS = 2_000;

/**
 * Probes for orchestrators and load balancers, without a token and outside the
 * rate limits: `/healthz` answers while the process serves; `/readyz` only
 * while the database answers and has every migration this version needs
 * (503 with the reason otherwise), so that traffic goes to instances that can
 * serve it.
 */
export function registerHealth(app: FastifyInstance, database: Database) {
  const expected = migrationFiles(database.provider).map((migration) => migration.name);
  const probe = { config: { rateLimit: false } };

  app.get('/healthz', probe, async () => ({ status: 'ok' }));

  app.get('/readyz', probe, async (_request, reply) => {
    const unavailable = (reason: string) => reply.code(503).header('retry-after', '5').send({ status: 'unavailable', reason });
    let applied: Set<string>;
    try {
      const rows = await Promise.race([
        database.readRows<{ name: string }>(`SELECT "name" FROM "${MIGRATIONS_TABLE}"`, []),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), READY_TIMEOUT_MS).unref()),
      ]);
      applied = new Set(rows.map((row) => row.name));
    } catch (error) {
      const timedOut = (error as Error).message === 'timeout';
      return unavailable(timedOut ? `the database did not answer within ${READY_TIMEOUT_MS} ms` : 'the database does not answer');
    }
    const pending = expected.filter((name) => !applied.has(name));
    if (pending.length) return unavailable(`migrations not applied: ${pending.join(', ')} (run docs-gateway migrate)`);
    return { status: 'ready', database: database.provider, migrations: expected.length };
  });
}
