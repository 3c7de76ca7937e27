import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { emptyDatabase } from '../support/databases.ts';
import { freePort } from '../support/network.ts';
import { BIN, CLI_TEST_TIMEOUT, childEnv, listening, prettyLines, printed, runProcess, serveChildren } from './support.ts';

/** `serve` where a user could go wrong: a taken port, an empty database, a second server on one SQLite file (beyond loopback: ./serve.test.ts). */

describe('docs-gateway serve, guarded', () => {
  const servers = serveChildren();

  it(
    'exits 1 with a message, its database closed, when the port is taken',
    async () => {
      const dir = servers.temporaryDirectory();
      const file = path.join(dir, 'x.db');
      const taken = net.createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = taken.address() as net.AddressInfo;
        const { output, exit } = servers.start(BIN, ['--port', String(port)], file);
        expect(await exit, output.stdout).toEqual({ code: 1, signal: null });
        expect(output.stderr).toMatch(/EADDRINUSE/);
        expect(fs.existsSync(`${file}-wal`), 'the database was left open').toBe(false);
      } finally {
        taken.close();
      }
    },
    CLI_TEST_TIMEOUT,
  );

  it(
    'on an empty database, says how to make an organization, its admin and a token, with the database to make them in; pretty logs give a request one line',
    async () => {
      const database = await emptyDatabase();
      try {
        const port = await freePort();
        const { child, output, exit } = servers.start(BIN, ['--port', String(port)], 'unused', {
          DATABASE_URL: database.url,
          LOG_FORMAT: 'pretty',
          LOG_LEVEL: 'info',
        });
        const base = `http://127.0.0.1:${port}`;
        await printed(child, output, /bootstrap.*\n/);
        // Last, after the addresses: the command for another terminal, which may not have this server's DATABASE_URL.
        const lines = prettyLines(output.stdout);
        expect(lines.slice(-3)).toEqual([
          `INFO: REST     ${base}/v1`,
          `INFO: GraphiQL ${base}/graphql`,
          `INFO: no organization or user yet: create them and a token with  DATABASE_URL=${database.url} npx docs-gateway bootstrap --org <title> --email <email>`,
        ]);
        expect(output.stdout).not.toMatch(/token {4}dgw_/);

        // Run as printed (docs-gateway from this checkout) in a terminal without DATABASE_URL, in another directory:
        // it makes the token in this server's database, not in a default one.
        const printedCommand = lines.at(-1)!.split('token with  ')[1]!;
        const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-elsewhere-'));
        try {
          const command = printedCommand
            .replace('npx docs-gateway', `${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)}`)
            .replace('<title>', 'Acme')
            .replace('<email>', 'first@example.test');
          const run = await runProcess('bash', ['-c', command], childEnv({ PWD: elsewhere }), elsewhere);
          expect(run.code, run.stderr).toBe(0);
          const token = /^token (dgw_\S+)$/m.exec(run.stdout)?.[1];
          expect(token, run.stdout).toBeDefined();
          expect(fs.readdirSync(elsewhere)).toEqual([]);
          expect((await fetch(`${base}/v1/user`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
        } finally {
          fs.rmSync(elsewhere, { recursive: true, force: true });
        }

        // One line per request: method, URL, status, time; not the request and response objects.
        expect((await fetch(`${base}/v1/user`)).status).toBe(401);
        await vi.waitUntil(() => output.stdout.split('\n').filter((line) => line.includes('/v1/user')).length === 2, { timeout: 30_000, interval: 100 });
        expect(output.stdout.split('\n').filter((line) => line.includes('/v1/user'))).toEqual([
          expect.stringMatching(/^\[[\d:.]+\] INFO: GET \/v1\/user 200 \d+\.\d ms$/),
          expect.stringMatching(/^\[[\d:.]+\] INFO: GET \/v1\/user 401 \d+\.\d ms$/),
        ]);
        expect(output.stdout).not.toMatch(/incoming request|request completed|reqId|remoteAddress/);

        child.kill('SIGTERM');
        expect(await exit, `${output.stdout}\n${output.stderr}`).toEqual({ code: 0, signal: null });
      } finally {
        await database.drop();
      }
    },
    CLI_TEST_TIMEOUT,
  );

  it(
    'refuses a second server on the same SQLite file in one line, exit 1; the lock goes with its holder, after kill -9 too',
    async () => {
      const dir = servers.temporaryDirectory();
      const file = path.join(dir, 'x.db');
      const [firstPort, secondPort, thirdPort] = [await freePort(), await freePort(), await freePort()];
      const first = servers.start(BIN, ['--port', String(firstPort)], file);
      await listening(`http://127.0.0.1:${firstPort}`, first.child, first.output);

      const second = servers.start(BIN, ['--port', String(secondPort)], file);
      expect(await second.exit, second.output.stdout).toEqual({ code: 1, signal: null });
      expect(second.output.stderr).toBe(`docs-gateway: another docs-gateway serve is using ${file}: SQLite serves one instance (several need PostgreSQL)\n`);
      expect(second.output.stdout).toBe('');
      // The first one serves on.
      expect((await fetch(`http://127.0.0.1:${firstPort}/healthz`)).status).toBe(200);

      // Killed without a chance to clean up, it leaves no lock behind.
      first.child.kill('SIGKILL');
      expect(await first.exit).toEqual({ code: null, signal: 'SIGKILL' });
      const third = servers.start(BIN, ['--port', String(thirdPort)], file);
      await listening(`http://127.0.0.1:${thirdPort}`, third.child, third.output);
      third.child.kill('SIGTERM');
      expect(await third.exit, `${third.output.stdout}\n${third.output.stderr}`).toEqual({ code: 0, signal: null });
    },
    CLI_TEST_TIMEOUT,
  );

  it(
    "runs itself again with V8's heap flags for a server, unless the operator chose them",
    async () => {
      const dir = servers.temporaryDirectory();
      const argumentsOf = (pid: number) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      const [ownPort, chosenPort] = [await freePort(), await freePort()];
      // Both at once: neither test needs the other's server.
      const own = servers.start(BIN, ['--port', String(ownPort)], path.join(dir, 'own.db'), {}, { forcedGc: false });
      const chosen = servers.start(
        BIN,
        ['--port', String(chosenPort)],
        path.join(dir, 'chosen.db'),
        { NODE_OPTIONS: '--max-semi-space-size=16' },
        { forcedGc: false },
      );
      await Promise.all([
        listening(`http://127.0.0.1:${ownPort}`, own.child, own.output),
        listening(`http://127.0.0.1:${chosenPort}`, chosen.child, chosen.output),
      ]);
      // The same process (execve keeps its id), now with the flags.
      expect(argumentsOf(own.child.pid!)).toEqual(expect.arrayContaining(['--max-semi-space-size=8', '--heap-growing-percent=50']));
      expect(argumentsOf(chosen.child.pid!).filter((arg) => arg.startsWith('--max-semi-space-size') || arg.startsWith('--heap-growing-percent'))).toEqual([]);
    },
    CLI_TEST_TIMEOUT,
  );
});
