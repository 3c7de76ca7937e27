import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { inject } from 'vitest';
import { providerOf } from '../../src/db/client.ts';

/** A fresh, empty database of the run's provider, and a way to read the bookkeeping table. */
export async function emptyDatabase() {
  const runUrl = inject('databaseUrl');
  if (providerOf(runUrl) === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-extra-'));
    const url = `file:${path.join(dir, 'fresh.db')}`;
    return {
      url,
      provider: 'sqlite' as const,
      applied: async () => {
        const db = new BetterSqlite3(path.join(dir, 'fresh.db'));
        const rows = db.prepare('SELECT name FROM _docs_gateway_migrations ORDER BY name').all() as Array<{ name: string }>;
        db.close();
        return rows.map((row) => row.name);
      },
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `docs_gateway_extra_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  const admin = new URL(runUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
  const url = new URL(runUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    provider: 'postgresql' as const,
    applied: async () => {
      const db = new pg.Client({ connectionString: url.toString() });
      await db.connect();
      const { rows } = await db.query<{ name: string }>('SELECT name FROM _docs_gateway_migrations ORDER BY name');
      await db.end();
      return rows.map((row) => row.name);
    },
    drop: async () => {
      const c = new pg.Client({ connectionString: admin.toString() });
      await c.connect();
      // A closed pool's connections finish closing just after it resolves: give them
      // a moment before forcing (a forced end of a closing connection is an
      // uncaught error in the process that owned it).
      for (let attempt = 0; ; attempt++) {
        try {
          await c.query(`DROP DATABASE IF EXISTS "${name}"${attempt >= 20 ? ' WITH (FORCE)' : ''}`);
          break;
        } catch (error) {
          if (attempt >= 20) throw error;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
      await c.end();
    },
  };
}
