import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashApiToken } from '../src/lib/tokens.ts';
import { createTestApp, type TestApp } from './support/app.ts';
import { unique } from './support/factories.ts';
import { rawRequest } from './support/http.ts';
import { emptyDatabase } from './support/databases.ts';
import { freePort } from './support/network.ts';
import { testDatabaseUrl } from './support/worker-database.ts';

/**
 * The command-line contract: real `docs-gateway` processes (bin/docs-gateway.js,
 * running the bundle test/support/global-setup.ts built, as `npx docs-gateway`
 * does) on the run's database. Other tools depend on the exact flags and JSON output.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'docs-gateway.js');
/** The bundle itself, as the container image runs it (`node dist/cli/docs-gateway.mjs`). */
const BUNDLE = path.join(ROOT, 'dist', 'cli', 'docs-gateway.mjs');
// Servers load the demo data under forced garbage collection: allow for slow machines.
const CLI_TEST_TIMEOUT = 180_000;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Where the children keep uploaded files (the demo's among them): never the working directory. */
const FILES_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-cli-files-'));

/** The environment of a child: ours without the variables docs-gateway reads, plus `env`. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env, FILES_DIR };
  for (const name of [
    'DATABASE_URL',
    'PORT',
    'HOST',
    'PUBLIC_URL',
    'APP_URL',
    'LOG_LEVEL',
    'PURGE_INTERVAL_SECONDS',
    'RESPONSE_CACHE_MB',
    'CONTENT_CACHE_MB',
    'CORS_ORIGINS',
    'RATE_LIMIT_PER_MINUTE',
    'RATE_LIMIT_FAILED_AUTH_PER_MINUTE',
    'REDIS_URL',
    'REDIS_PREFIX',
    'FETCH_PRIVATE_ADDRESSES',
    'LOG_FORMAT',
    'DOCS_GATEWAY_COMMAND',
  ]) {
    delete base[name];
  }
  return { ...base, ...env };
}

/**
 * Node options that collect garbage all along and at exit (test/support/force-gc.mjs):
 * a database handle left to the collector instead of being closed shows up there.
 */
const FORCED_GC = ['--expose-gc', '--import', path.join(ROOT, 'test', 'support', 'force-gc.mjs')];

function cli(args: string[], env: Record<string, string> = {}, { forcedGc = false } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(forcedGc ? FORCED_GC : []), BIN, ...args], {
      cwd: ROOT,
      env: childEnv({ DATABASE_URL: testDatabaseUrl(), ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** The single JSON line a `--json` command prints. */
function jsonLine(run: Run): Record<string, any> {
  expect(run.code, `exit code; stderr: ${run.stderr}`).toBe(0);
  const lines = run.stdout.split('\n').filter((line) => line.trim() !== '');
  expect(lines, `stdout: ${run.stdout}`).toHaveLength(1);
  expect(run.stdout.endsWith('\n')).toBe(true);
  return JSON.parse(lines[0]!);
}

function expectFailure(run: Run, stderr: RegExp) {
  expect(run.code, `stdout: ${run.stdout}`).not.toBe(0);
  expect(run.code).not.toBeNull();
  expect(run.stderr).toMatch(stderr);
  expect(run.stdout.trim()).toBe('');
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const bootstrap = (org: string, email: string) => cli(['bootstrap', '--org', org, '--email', email, '--json']);

describe('docs-gateway --version', () => {
  it("prints the package's version and exits 0", async () => {
    const run = await cli(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version);
  });
});

describe('docs-gateway bootstrap', () => {
  it(
    'prints {organizationId, userId, token} on one line, and is idempotent',
    async () => {
      const title = `CLI Org ${unique()}`;
      const email = `cli-${unique()}@example.test`;

      const first = jsonLine(await bootstrap(title, email));
      expect(Object.keys(first).sort()).toEqual(['organizationId', 'token', 'userId']);
      expect(first.organizationId).toMatch(/^org_/);
      expect(first.userId).toMatch(/^usr_/);
      expect(first.token).toMatch(/^dgw_/);

      const organization = await t.database.db.organization.findUnique({ where: { id: first.organizationId } });
      expect(organization).toMatchObject({ title });
      expect(await t.database.db.user.findUnique({ where: { id: first.userId } })).toMatchObject({ email });
      const membership = await t.database.db.member.findUnique({
        where: { organizationId_userId: { organizationId: first.organizationId, userId: first.userId } },
      });
      expect(membership).toMatchObject({ role: 'admin', disabled: false });

      const second = jsonLine(await bootstrap(title, email));
      expect(second.organizationId).toBe(first.organizationId);
      expect(second.userId).toBe(first.userId);
      expect(second.token).toMatch(/^dgw_/);
      expect(second.token).not.toBe(first.token);
      expect(await t.database.db.organization.count({ where: { title } })).toBe(1);
      expect(await t.database.db.user.count({ where: { email } })).toBe(1);
      expect(await t.database.db.member.count({ where: { organizationId: first.organizationId } })).toBe(1);

      // Tokens are stored as their SHA-256 only.
      const tokens = await t.database.db.apiToken.findMany({ where: { userId: first.userId } });
      expect(tokens.map((row) => row.tokenHash).sort()).toEqual([hashApiToken(first.token), hashApiToken(second.token)].sort());
      expect(JSON.stringify(tokens)).not.toContain(second.token);

      // The new token works against the HTTP API.
      const viewer = await t.call('GET', '/v1/user', { token: second.token });
      expect(viewer.statusCode, viewer.body).toBe(200);
      expect(viewer.json()).toMatchObject({ object: 'user', id: first.userId, email });
      const org = await t.call('GET', `/v1/orgs/${first.organizationId}`, { token: second.token });
      expect(org.statusCode, org.body).toBe(200);
      expect(org.json()).toMatchObject({ id: first.organizationId, title });
      // An admin: it may create content.
      const space = await t.call('POST', `/v1/orgs/${first.organizationId}/spaces`, {
        token: second.token,
        body: { title: 'From the CLI' },
      });
      expect(space.statusCode, space.body).toBe(201);
    },
    CLI_TEST_TIMEOUT,
  );

  it(
    'gives the same user a second organization with another --org',
    async () => {
      const email = `cli-${unique()}@example.test`;
      const [titleA, titleB] = [`CLI Org A ${unique()}`, `CLI Org B ${unique()}`];
      const a = jsonLine(await bootstrap(titleA, email));
      const b = jsonLine(await bootstrap(titleB, email));
      expect(b.userId).toBe(a.userId);
      expect(b.organizationId).not.toBe(a.organizationId);
      expect(await t.database.db.organization.findUnique({ where: { id: b.organizationId } })).toMatchObject({
        title: titleB,
      });
      const memberships = await t.database.db.member.findMany({ where: { userId: a.userId }, orderBy: { joinedAt: 'asc' } });
      expect(memberships.map((row) => [row.organizationId, row.role]).sort()).toEqual(
        [
          [a.organizationId, 'admin'],
          [b.organizationId, 'admin'],
        ].sort(),
      );

      for (const token of [a.token, b.token]) {
        const orgs = await t.call('GET', '/v1/orgs', { token });
        expect(orgs.statusCode, orgs.body).toBe(200);
        expect(
          orgs
            .json()
            .items.map((org: { id: string }) => org.id)
            .sort(),
        ).toEqual([a.organizationId, b.organizationId].sort());
      }
    },
    CLI_TEST_TIMEOUT,
  );

  it(
    'fails with a message on stderr when a flag is missing or invalid',
    async () => {
      const email = `cli-${unique()}@example.test`;
      const [missingEmail, badEmail, badTitle] = await Promise.all([
        cli(['bootstrap', '--org', `CLI Org ${unique()}`, '--json']),
        cli(['bootstrap', '--org', `CLI Org ${unique()}`, '--email', 'not-an-email', '--json']),
        cli(['bootstrap', '--org', ' ', '--email', email, '--json']),
      ]);
      expectFailure(missingEmail, /--email/);
      expectFailure(badEmail, /email/);
      expectFailure(badTitle, /org/);
      expect(await t.database.db.user.count({ where: { email } })).toBe(0);
    },
    CLI_TEST_TIMEOUT,
  );
});

describe('docs-gateway users create', () => {
  it(
    'creates a member with the role and prints {userId, token}',
    async () => {
      const admin = jsonLine(await bootstrap(`CLI Team ${unique()}`, `cli-admin-${unique()}@example.test`));
      const organizationId = admin.organizationId!;
      const editorEmail = `cli-editor-${unique()}@example.test`;
      const guestEmail = `cli-guest-${unique()}@example.test`;
      const [editorRun, guestRun] = await Promise.all([
        cli(['users', 'create', '--email', editorEmail, '--org', organizationId, '--role', 'edit', '--json']),
        cli(['users', 'create', '--email', guestEmail, '--org', organizationId, '--role', 'guest', '--json']),
      ]);
      const editor = jsonLine(editorRun);
      const guest = jsonLine(guestRun);
      expect(Object.keys(editor).sort()).toEqual(['token', 'userId']);
      expect(Object.keys(guest).sort()).toEqual(['token', 'userId']);
      expect(editor.userId).toMatch(/^usr_/);
      expect(editor.token).toMatch(/^dgw_/);

      const memberRow = (userId: string) => t.database.db.member.findUnique({ where: { organizationId_userId: { organizationId, userId } } });
      expect(await memberRow(editor.userId!)).toMatchObject({ role: 'edit' });
      expect(await memberRow(guest.userId!)).toMatchObject({ role: null });
      expect(await t.database.db.user.findUnique({ where: { id: editor.userId } })).toMatchObject({ email: editorEmail });

      // Through the API, as the organization's admin and as the new users.
      const asAdmin = await t.call('GET', `/v1/orgs/${organizationId}/members/${editor.userId}`, { token: admin.token });
      expect(asAdmin.statusCode, asAdmin.body).toBe(200);
      expect(asAdmin.json()).toMatchObject({ id: editor.userId, role: 'edit' });
      const guestMember = await t.call('GET', `/v1/orgs/${organizationId}/members/${guest.userId}`, { token: admin.token });
      expect(guestMember.statusCode, guestMember.body).toBe(200);
      expect(guestMember.json()).toMatchObject({ id: guest.userId, role: null });
      const me = await t.call('GET', '/v1/user', { token: editor.token });
      expect(me.statusCode, me.body).toBe(200);
      expect(me.json()).toMatchObject({ id: editor.userId, email: editorEmail });
      // An editor may not create spaces; a guest may not list members.
      expect((await t.call('POST', `/v1/orgs/${organizationId}/spaces`, { token: editor.token, body: {} })).statusCode).toBe(403);
      expect((await t.call('GET', `/v1/orgs/${organizationId}/members`, { token: guest.token })).statusCode).toBe(403);
      expect((await t.call('GET', `/v1/orgs/${organizationId}/members`, { token: editor.token })).statusCode).toBe(200);

      // An existing email is reused, with the new role and a new token.
      const again = jsonLine(await cli(['users', 'create', '--email', editorEmail, '--org', organizationId, '--role', 'read', '--json']));
      expect(again.userId).toBe(editor.userId);
      expect(again.token).not.toBe(editor.token);
      expect(await memberRow(editor.userId!)).toMatchObject({ role: 'read' });
      expect(await t.database.db.user.count({ where: { email: editorEmail } })).toBe(1);
      expect((await t.call('GET', '/v1/user', { token: again.token })).json()).toMatchObject({ id: editor.userId });
    },
    CLI_TEST_TIMEOUT,
  );

  it(
    'fails on an invalid role or an unknown organization, and creates nobody',
    async () => {
      const admin = jsonLine(await bootstrap(`CLI Team ${unique()}`, `cli-admin-${unique()}@example.test`));
      const emails = [`cli-x-${unique()}@example.test`, `cli-y-${unique()}@example.test`, `cli-z-${unique()}@example.test`];
      const [badRole, unknownOrg, noRole] = await Promise.all([
        cli(['users', 'create', '--email', emails[0]!, '--org', admin.organizationId!, '--role', 'owner', '--json']),
        cli(['users', 'create', '--email', emails[1]!, '--org', 'org_doesnotexist', '--role', 'edit', '--json']),
        cli(['users', 'create', '--email', emails[2]!, '--org', admin.organizationId!, '--json']),
      ]);
      // The roles it takes, named.
      expectFailure(badRole, /^docs-gateway: role: must be one of admin, create, review, edit, comment, read, guest\n$/);
      expectFailure(unknownOrg, /org_doesnotexist/);
      expectFailure(noRole, /--role/);
      expect(await t.database.db.user.count({ where: { email: { in: emails } } })).toBe(0);
      expect(await t.database.db.member.count({ where: { organizationId: admin.organizationId } })).toBe(1);
    },
    CLI_TEST_TIMEOUT,
  );
});

describe('docs-gateway migrate and seed', () => {
  it(
    'migrate exits 0 on an up-to-date database and migrates a new one',
    async () => {
      const upToDate = await cli(['migrate']);
      expect(upToDate.code, upToDate.stderr).toBe(0);
      expect(upToDate.stdout).toMatch(/up to date/);

      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-cli-'));
      try {
        const url = `file:${path.join(dir, 'fresh.db')}`;
        const fresh = await cli(['migrate'], { DATABASE_URL: url });
        expect(fresh.code, fresh.stderr).toBe(0);
        expect(fresh.stdout).toMatch(/applied migration /);
        const again = await cli(['migrate'], { DATABASE_URL: url });
        expect(again.code, again.stderr).toBe(0);
        expect(again.stdout).toMatch(/up to date/);
        // The migrated database is usable by the CLI.
        const result = jsonLine(await cli(['bootstrap', '--org', 'Fresh', '--email', 'fresh@example.test', '--json'], { DATABASE_URL: url }));
        expect(result.organizationId).toMatch(/^org_/);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    CLI_TEST_TIMEOUT,
  );

  it(
    'seed --demo loads the demo data once',
    async () => {
      const demo = () => t.database.db.organization.findUnique({ where: { hostname: 'acme-docs' } });
      const existed = (await demo()) !== null;
      const first = await cli(['seed', '--demo']);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout.trim()).toBe(existed ? 'the demo data is already loaded' : 'loaded the demo data');

      const acme = await demo();
      expect(acme).toMatchObject({ title: 'Acme Docs' });
      for (const hostname of ['globex', 'initech']) {
        expect(await t.database.db.organization.findUnique({ where: { hostname } })).not.toBeNull();
      }
      const fields = await t.database.db.customField.findMany({ where: { organizationId: acme!.id } });
      expect(fields.length).toBeGreaterThan(0);
      expect(await t.database.db.space.count({ where: { organizationId: acme!.id } })).toBeGreaterThan(0);
      if (!existed) {
        // The guide's files, their bytes in FILES_DIR under their digest.
        const files = await t.database.db.fileVersion.findMany({ where: { space: { organizationId: acme!.id } } });
        expect(files.map((file) => file.name).sort()).toEqual(['content-flow.svg', 'style-guide.txt']);
        for (const file of files) expect(fs.readdirSync(FILES_DIR, { recursive: true }).join('\n')).toContain(file.sha256);
      }
      const alice = await t.database.db.user.findUnique({ where: { email: 'alice@acme.test' } });
      expect(
        await t.database.db.member.findUnique({
          where: { organizationId_userId: { organizationId: acme!.id, userId: alice!.id } },
        }),
      ).toMatchObject({ role: 'admin' });
      const counts = async () => ({
        organizations: await t.database.db.organization.count({ where: { hostname: { in: ['acme-docs', 'globex', 'initech'] } } }),
        spaces: await t.database.db.space.count({ where: { organizationId: acme!.id } }),
        fields: await t.database.db.customField.count({ where: { organizationId: acme!.id } }),
        acmeTitled: await t.database.db.organization.count({ where: { title: 'Acme Docs' } }),
      });
      const before = await counts();

      const second = await cli(['seed', '--demo']);
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout.trim()).toBe('the demo data is already loaded');
      expect(await counts()).toEqual(before);

      const noSet = await cli(['seed']);
      expectFailure(noSet, /--demo/);
    },
    CLI_TEST_TIMEOUT,
  );
});

describe('database handles', () => {
  // SQLite deletes a database's write-ahead log when its last connection closes
  // cleanly: a -wal file left behind means a handle was left open.
  it(
    'every command closes what it opens, also when it fails: exit codes under forced garbage collection',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-handles-'));
      try {
        const file = path.join(dir, 'handles.db');
        const env = { DATABASE_URL: `file:${file}` };
        const run = async (args: string[]) => {
          const result = await cli(args, env, { forcedGc: true });
          expect(fs.existsSync(`${file}-wal`), `${args.join(' ')} left the write-ahead log open`).toBe(false);
          return result;
        };

        const migrated = await run(['migrate']);
        expect(migrated.code, migrated.stderr).toBe(0);
        const admin = jsonLine(await run(['bootstrap', '--org', 'Handles', '--email', 'handles@example.test', '--json']));
        jsonLine(await run(['users', 'create', '--email', 'reader@example.test', '--org', admin.organizationId, '--role', 'read', '--json']));
        const seeded = await run(['seed', '--demo']);
        expect(seeded.code, seeded.stderr).toBe(0);
        expectFailure(await run(['users', 'create', '--email', 'x@example.test', '--org', 'org_missing', '--role', 'read', '--json']), /org_missing/);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    CLI_TEST_TIMEOUT,
  );
});

describe('docs-gateway serve', () => {
  let servers: ChildProcess[] = [];
  let dir: string | undefined;
  afterEach(async () => {
    for (const server of servers) {
      if (server.exitCode !== null || server.signalCode !== null) continue;
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGKILL');
      await exited;
    }
    servers = [];
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  function startServer(entryPoint: string, args: string[], file: string, env: Record<string, string> = {}) {
    const child = spawn(process.execPath, [...FORCED_GC, entryPoint, 'serve', ...args], {
      cwd: ROOT,
      env: childEnv({ DATABASE_URL: `file:${file}`, HOST: '127.0.0.1', LOG_LEVEL: 'warn', PORT: '1', ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    servers.push(child);
    const output = { stdout: '', stderr: '' };
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (output.stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output.stderr += chunk));
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    return { child, output, exit };
  }

  it.each([
    ['bin/docs-gateway.js', () => BIN, false],
    ['the bundle as the container runs it, --demo', () => BUNDLE, true],
  ])(
    'migrates, serves on --port, and stops with exit code 0 on SIGTERM, its database closed (%s)',
    async (_name, entryPoint, demo) => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-serve-'));
      const file = path.join(dir, 'x.db');
      const port = await freePort();
      const { child, output, exit } = startServer(entryPoint(), ['--port', String(port), ...(demo ? ['--demo'] : [])], file);
      const base = `http://127.0.0.1:${port}`;
      const root = await listening(base, child, output);
      expect(root.status).toBe(200);
      expect(root.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await root.json()).toEqual({
        name: 'docs-gateway',
        rest: `http://localhost:${port}/v1`,
        openapi: `http://localhost:${port}/v1/openapi.json`,
        graphql: `http://localhost:${port}/graphql`,
        docs: `http://localhost:${port}/docs`,
      });
      expect(output.stdout).toMatch(/applied migration /);
      // Not a terminal: every line is pino JSON with an ISO time, the start-up lines too.
      const lines = output.stdout.split('\n').filter((line) => line.trim() !== '');
      for (const line of lines)
        expect(JSON.parse(line), line).toMatchObject({ level: expect.any(Number), time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), msg: expect.any(String) });
      expect(lines.map((line) => JSON.parse(line).msg)).toContain(`REST     http://127.0.0.1:${port}/v1`);

      // The API is up, on the migrated database.
      const openapi = await fetch(`${base}/v1/openapi.json`);
      expect(openapi.status).toBe(200);
      expect((await openapi.json()).openapi).toBe('3.1.0');
      const anonymous = await fetch(`${base}/v1/user`);
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toMatchObject({ error: { code: 401 } });
      if (demo) {
        // The printed token is the demo admin's.
        const token = /token {4}(dgw_\S+)/.exec(output.stdout)?.[1];
        expect(token, output.stdout).toBeDefined();
        const user = await fetch(`${base}/v1/user`, { headers: { authorization: `Bearer ${token}` } });
        expect(user.status).toBe(200);
        expect(await user.json()).toMatchObject({ email: 'alice@acme.test' });
        // On loopback, GraphiQL opens with it in its headers.
        expect(await graphiqlPage(base)).toContain(token);
        // The demo spec, seeded from text, is fetched from this server's own /v1/openapi.json by the job queue.
        expect(output.stdout).toContain(`the demo OpenAPI spec is fetched from ${base}/v1/openapi.json`);
        const headers = { authorization: `Bearer ${token}` };
        const organizations = (await (await fetch(`${base}/v1/orgs`, { headers })).json()) as { items: Array<{ id: string; title: string }> };
        const acme = organizations.items.find((organization) => organization.title === 'Acme Docs')!;
        const spec = `${base}/v1/orgs/${acme.id}/openapi/docs-gateway-api`;
        await vi.waitUntil(async () => ((await (await fetch(`${spec}/versions`, { headers })).json()) as { items: unknown[] }).items.length === 2, {
          timeout: 30_000,
          interval: 200,
        });
        expect(await (await fetch(spec, { headers })).json()).toMatchObject({ processingState: 'complete' });
        expect(await (await fetch(`${spec}/versions/latest`, { headers })).json()).toMatchObject({ url: `${base}/v1/openapi.json` });
        // A Host header that makes no URL is the client's mistake, not a 500.
        const query = JSON.stringify({ query: '{ viewer { user { email } } }' });
        for (const host of ['undefined:undefined', 'a b']) {
          const answer = await rawRequest(
            port,
            `POST /graphql HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${query.length}\r\n\r\n${query}`,
          );
          expect(answer.status, `${host}: ${answer.body}`).toBe(200);
        }
      }

      child.kill('SIGTERM');
      const { code, signal } = await exit;
      expect({ code, signal }, `${output.stdout}\n${output.stderr}`).toEqual({ code: 0, signal: null });
      expect(fs.existsSync(`${file}-wal`), 'the database was left open').toBe(false);
      // It no longer listens.
      await expect(fetch(`${base}/`)).rejects.toThrow();
    },
    CLI_TEST_TIMEOUT,
  );

  it(
    'finishes the requests in flight when it is told to stop (SIGTERM), then exits 0',
    async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-serve-'));
      // A website that takes a second to answer: an import of it is in flight when the signal arrives.
      const slowSite = http.createServer((_request, response) => {
        setTimeout(
          () => response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body><main><h1>Slow</h1><p>Late page.</p></main></body></html>'),
          1_000,
        );
      });
      await new Promise<void>((resolve) => slowSite.listen(0, '127.0.0.1', resolve));
      try {
        const port = await freePort();
        const { child, output, exit } = startServer(BIN, ['--port', String(port), '--demo'], path.join(dir, 'x.db'), { FETCH_PRIVATE_ADDRESSES: 'true' });
        const base = `http://127.0.0.1:${port}`;
        await listening(base, child, output);
        const token = /token {4}(dgw_\S+)/.exec(output.stdout)?.[1];
        const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
        const organizations = (await (await fetch(`${base}/v1/orgs`, { headers })).json()) as { items: Array<{ id: string }> };
        const spaces = (await (await fetch(`${base}/v1/orgs/${organizations.items[0]!.id}/spaces`, { headers })).json()) as { items: Array<{ id: string }> };
        const siteUrl = `http://127.0.0.1:${(slowSite.address() as net.AddressInfo).port}/`;
        const inFlight = fetch(`${base}/v1/spaces/${spaces.items[0]!.id}/content/import`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ source: 'website', url: siteUrl }),
        });
        await new Promise((resolve) => setTimeout(resolve, 300));
        child.kill('SIGTERM');
        const answer = await inFlight;
        expect(answer.status, await answer.clone().text()).toBe(201);
        expect(await answer.json()).toMatchObject({ importedResources: 1 });
        expect(await exit, `${output.stdout}\n${output.stderr}`).toEqual({ code: 0, signal: null });
      } finally {
        slowSite.close();
      }
    },
    CLI_TEST_TIMEOUT,
  );

  it(
    'never puts the demo token into GraphiQL when it listens beyond loopback',
    async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-serve-'));
      const port = await freePort();
      const { child, output, exit } = startServer(BIN, ['--port', String(port), '--demo'], path.join(dir, 'x.db'), { HOST: '0.0.0.0' });
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
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-serve-'));
      const file = path.join(dir, 'x.db');
      const taken = net.createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = taken.address() as net.AddressInfo;
        const { output, exit } = startServer(BIN, ['--port', String(port)], file);
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
        const { child, output, exit } = startServer(entryPoint(), ['--port', String(port)], 'unused', {
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
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-serve-'));
      const file = path.join(dir, 'x.db');
      const [firstPort, secondPort, thirdPort] = [await freePort(), await freePort(), await freePort()];
      const first = startServer(BIN, ['--port', String(firstPort)], file);
      await listening(`http://127.0.0.1:${firstPort}`, first.child, first.output);

      const second = startServer(BIN, ['--port', String(secondPort)], file);
      expect(await second.exit, second.output.stdout).toEqual({ code: 1, signal: null });
      expect(second.output.stderr).toBe(`docs-gateway: another docs-gateway serve is using ${file}: SQLite serves one instance (several need PostgreSQL)\n`);
      expect(second.output.stdout).toBe('');
      // The first one serves on.
      expect((await fetch(`http://127.0.0.1:${firstPort}/healthz`)).status).toBe(200);

      // Killed without a chance to clean up, it leaves no lock behind.
      first.child.kill('SIGKILL');
      expect(await first.exit).toEqual({ code: null, signal: 'SIGKILL' });
      const third = startServer(BIN, ['--port', String(thirdPort)], file);
      await listening(`http://127.0.0.1:${thirdPort}`, third.child, third.output);
      third.child.kill('SIGTERM');
      expect(await third.exit, `${third.output.stdout}\n${third.output.stderr}`).toEqual({ code: 0, signal: null });
    },
    CLI_TEST_TIMEOUT,
  );
});

/** The Node.js of the system, when it is one docs-gateway does not run on (Node 20: better-sqlite3 13 crashes it). */
const SYSTEM_NODE = '/usr/bin/node';
const systemNodeVersion = fs.existsSync(SYSTEM_NODE) ? execFileSync(SYSTEM_NODE, ['--version'], { encoding: 'utf8' }).trim() : '';

describe.skipIf(!systemNodeVersion.startsWith('v20.'))(`on ${systemNodeVersion || 'Node 20'} (unsupported)`, () => {
  const NODE_LINE = `docs-gateway needs Node.js 22.15+ or 24+ (23 is not supported); this is Node.js ${systemNodeVersion.slice(1)}\n`;
  /** Only the system's commands: its node and npm first. */
  const systemEnv = { PATH: '/usr/bin:/bin', HOME: os.homedir(), NPM_CONFIG_UPDATE_NOTIFIER: 'false' };

  function run(command: string, args: string[]): Promise<Run> {
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, { cwd: ROOT, env: systemEnv, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.on('error', reject);
      child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    });
  }

  it('docs-gateway prints one line naming the supported versions and exits 1, instead of crashing', async () => {
    const result = await run(SYSTEM_NODE, [BIN, '--version']);
    expect(result).toEqual({ code: 1, signal: null, stdout: '', stderr: NODE_LINE });
  });

  it('npm start does the same (it runs the command)', async () => {
    const result = await run('/usr/bin/npm', ['start']);
    expect({ code: result.code, signal: result.signal, stderr: result.stderr }).toEqual({ code: 1, signal: null, stderr: NODE_LINE });
    // Only npm's own banner besides.
    expect(result.stdout.trim().split('\n')).toEqual(['> docs-gateway@0.1.0 start', '> node bin/docs-gateway.js serve --demo']);
  });
});

/** The GraphiQL page, as a browser asks for it. */
async function graphiqlPage(base: string): Promise<string> {
  const response = await fetch(`${base}/graphql`, { headers: { accept: 'text/html' } });
  expect(response.status).toBe(200);
  return response.text();
}

/** Waits until the server answers `/`, or fails with its output if it exits or never answers. */
async function listening(base: string, child: ChildProcess, output: { stdout: string; stderr: string }): Promise<Response> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`serve exited early (${child.exitCode}):\n${output.stdout}\n${output.stderr}`);
    if (Date.now() > deadline) throw new Error(`serve did not listen at ${base}:\n${output.stdout}\n${output.stderr}`);
    const root = await fetch(`${base}/`).catch(() => undefined);
    if (root) return root;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
