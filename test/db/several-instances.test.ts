import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { providerOf } from '../../src/db/client.ts';
import { REDIS_URL, freePort, withoutRedis } from '../support/network.ts';
import { testDatabaseUrl } from '../support/worker-database.ts';

/**
 * The block of docs/operations.md that runs several instances, as written,
 * with bash: a new database on the PostgreSQL server of the run (its name, the
 * server's address and the two ports made the test's own), two `npx
 * docs-gateway serve` in the background, and curl to each once both say they
 * are ready. Each command must succeed, and both instances answer the
 * bootstrapped user: the block waits for them instead of racing their start.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const onPostgres = providerOf(testDatabaseUrl()) === 'postgresql';

function block(): string {
  const text = fs.readFileSync(path.join(ROOT, 'docs', 'operations.md'), 'utf8');
  const found = /<!-- several-instances[^>]*-->\n```sh\n([\s\S]*?)```/.exec(text)?.[1];
  if (!found) throw new Error('docs/operations.md has no <!-- several-instances --> block');
  return found;
}

describe.skipIf(!onPostgres)('running several instances, as docs/operations.md says', () => {
  it('the block starts two instances on a new database, waits until both are ready, and reads the same user through each', { timeout: 180_000 }, async () => {
    const server = new URL(testDatabaseUrl());
    const name = `docs_gateway_instances_${process.pid}_${Date.now().toString(36)}`;
    const url = new URL(server);
    url.pathname = `/${name}`;
    const [first, second] = [await freePort(), await freePort()];
    const written = block();
    expect(written).toContain('/readyz');
    const script = [
      'set -euo pipefail',
      'trap \'echo "failed: $BASH_COMMAND" >&2\' ERR',
      written
        .replace(
          'createdb -h 127.0.0.1 -U postgres docs',
          `createdb -h ${server.hostname} -p ${server.port || 5432} -U ${decodeURIComponent(server.username) || 'postgres'} ${name}`,
        )
        .replace('postgresql://postgres@127.0.0.1:5432/docs', url.toString())
        .replace('redis://127.0.0.1:6379', REDIS_URL)
        .replaceAll('4001', String(first))
        .replaceAll('4002', String(second)),
    ].join('\n');

    // Its own process group, so that the servers it leaves running can be stopped with it.
    const env = { ...withoutRedis(), PGPASSWORD: decodeURIComponent(server.password), REDIS_PREFIX: `test-${randomUUID()}`, LOG_LEVEL: 'warn' };
    delete (env as Record<string, string | undefined>).DATABASE_URL;
    delete (env as Record<string, string | undefined>).PORT;
    const bash = spawn('bash', ['-c', script], { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    bash.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    bash.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    try {
      const code = await new Promise<number | null>((resolve) => bash.once('exit', resolve));
      expect(stderr, stdout).not.toContain('failed:');
      expect(code, `${stderr}\n${stdout}`).toBe(0);
      const users = stdout
        .split('\n')
        .filter((line) => line.startsWith('{') && line.includes('"object":"user"'))
        .map((line) => JSON.parse(line) as { id: string; email: string });
      expect(users).toHaveLength(2);
      expect(users[0]).toMatchObject({ email: 'you@acme.test' });
      expect(users[1]!.id).toBe(users[0]!.id);
    } finally {
      // The two servers, then their database.
      try {
        process.kill(-bash.pid!, 'SIGTERM');
      } catch {
        // Nothing left running.
      }
      await waitForGroupToEnd(bash.pid!);
      const admin = new URL(server);
      admin.pathname = '/postgres';
      const client = new pg.Client({ connectionString: admin.toString() });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    }
  });
});

/** Waits (up to 30 s) until no process of the group is left. */
async function waitForGroupToEnd(group: number) {
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      process.kill(-group, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
