import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { sqliteFilePath } from '../../src/db/client.ts';
import { scratchDatabase } from './scratch-database.ts';
import { testDatabaseUrl } from './worker-database.ts';

/** A fresh, empty database of the run's provider, and a way to read the bookkeeping table. */
export async function emptyDatabase() {
  const database = await scratchDatabase(testDatabaseUrl(), 'extra');
  const applied = async (): Promise<string[]> => {
    if (database.provider === 'sqlite') {
      const db = new BetterSqlite3(sqliteFilePath(database.url));
      const rows = db.prepare('SELECT name FROM _docs_gateway_migrations ORDER BY name').all() as Array<{ name: string }>;
      db.close();
      return rows.map((row) => row.name);
    }
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    const { rows } = await db.query<{ name: string }>('SELECT name FROM _docs_gateway_migrations ORDER BY name');
    await db.end();
    return rows.map((row) => row.name);
  };
  return { ...database, applied };
}
