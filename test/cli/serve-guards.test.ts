import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { emptyDatabase } from '../support/databases.ts';
import { freePort } from '../support/network.ts';
import { BIN, BUNDLE, CLI_TEST_TIMEOUT, graphiqlPage, listening, serverProcesses } from './support.ts';

/** `serve` where a user could go wrong: beyond loopback, a taken port, an empty database, a second server on one SQLite file. */

describe('docs-gateway serve, guarded', () => {
  const servers = serverProcesses();

  it(
    'never puts the demo token into GraphiQL when it listens beyond loopback',
    async () => {
      const dir = servers.temporaryDirectory();
      const port = await freePort();
      const { child, output, exit } = servers.start(BIN, ['--port', String(port), '--demo'], path.join(dir, 'x.db'), { HOST: '0.0.0.0' });
      const base = `http://127.0.0.1:${port}`;
      await listening(base, child, output);
      const token = /token {4}(dgw_\S+)/.exec(output.stdout)?.[1];
      expect(token, output.stdout).toBeDefined();
      const page = await graphiqlPage(base);
      expect(page).not.toContain(token);
      expect(page).not.toMatch(/dgw_/);
      // Where a token comes from, run from a checkout or from the container image.
      expect(page).toContain('paste a token: docs-gateway bootstrap --help (npx docs-gateway … in a checkout, docker run … docs-gateway … with the image)');
      // It says it listens on every interface, and prints an address one can open.
      const messages = output.stdout
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line).msg as string);
      expect(messages).toEqual(
        expect.arrayContaining([`listening on every interface (0.0.0.0), port ${port}; on this machine:`, `REST     ${base}/v1`, `GraphiQL ${base}/graphql`]),
      );
      expect(output.stdout).not.toContain('0.0.0.0:');
      child.kill('SIGTERM');
      expect(await exit).toEqual({ code: 0, signal: null });
    },
    CLI_TEST_TIMEOUT,
  );

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

  it.each([
    ['npx docs-gateway', () => BIN, {}],
    ['docker run --rm … docs-gateway', () => BUNDLE, { DOCS_GATEWAY_COMMAND: 'docker run --rm … docs-gateway' }],
  ] as const)(
    'on an empty database, says how to make an organization, its admin and a token (%s); pretty logs give a request one line',
    async (command, entryPoint, env) => {
      const database = await emptyDatabase();
      try {
        const port = await freePort();
        const { child, output, exit } = servers.start(entryPoint(), ['--port', String(port)], 'unused', {
          DATABASE_URL: database.url,
          LOG_FORMAT: 'pretty',
          LOG_LEVEL: 'info',
          ...env,
        });
        const base = `http://127.0.0.1:${port}`;
        await listening(base, child, output);
        await vi.waitUntil(() => output.stdout.includes('bootstrap'), { timeout: 30_000, interval: 100 });
        const hint = output.stdout.split('\n').find((line) => line.includes('bootstrap'));
        expect(hint).toMatch(
          new RegExp(
            `^\\[[\\d:.]+\\] INFO: no organization or user yet: create them and a token with +${command.replace('…', '.')} bootstrap --org <title> --email <email>$`,
          ),
        );
        expect(output.stdout).not.toMatch(/token {4}dgw_/);

        // One line per request: method, URL, status, time; not the request and response objects.
        expect((await fetch(`${base}/v1/user`)).status).toBe(401);
        await vi.waitUntil(() => output.stdout.includes('GET /v1/user'), { timeout: 30_000, interval: 100 });
        expect(output.stdout.split('\n').filter((line) => line.includes('/v1/user'))).toEqual([
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
      const own = servers.start(BIN, ['--port', String(ownPort)], path.join(dir, 'own.db'));
      await listening(`http://127.0.0.1:${ownPort}`, own.child, own.output);
      // The same process (execve keeps its id), now with the flags.
      expect(argumentsOf(own.child.pid!)).toEqual(expect.arrayContaining(['--max-semi-space-size=8', '--heap-growing-percent=50']));

      const chosen = servers.start(BIN, ['--port', String(chosenPort)], path.join(dir, 'chosen.db'), { NODE_OPTIONS: '--max-semi-space-size=16' });
      await listening(`http://127.0.0.1:${chosenPort}`, chosen.child, chosen.output);
      expect(argumentsOf(chosen.child.pid!).filter((arg) => arg.startsWith('--max-semi-space-size') || arg.startsWith('--heap-growing-percent'))).toEqual([]);
    },
    CLI_TEST_TIMEOUT,
  );
});
