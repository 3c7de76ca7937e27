import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { providerOf } from '../../src/db/client.ts';

/**
 * A new, empty database beside the one `server` names (a PostgreSQL server's
 * database, or any SQLite URL: a file in a temporary directory then), not
 * migrated, and how to drop it. For tests (`emptyDatabase`) and for the long
 * runs, which run outside vitest.
 */
export async function scratchDatabase(server: string | undefined, purpose: string) {
  if (!server || providerOf(server) === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `docs-gateway-${purpose}-`));
    return {
      url: `file:${path.join(dir, `${purpose}.db`)}`,
      provider: 'sqlite' as const,
      label: 'SQLite',
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `docs_gateway_${purpose}_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  const admin = new URL(server);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    provider: 'postgresql' as const,
    label: 'PostgreSQL',
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
