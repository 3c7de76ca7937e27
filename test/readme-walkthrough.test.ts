import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { closeWhenFileEnds } from './support/cleanup.ts';
import { demoDatabase } from './support/demo.ts';
import { freePort } from './support/network.ts';

/**
 * The shell walk-throughs of the README and docs/*.md run as written, with
 * bash, against `docs-gateway serve --demo` (what `npm start` serves) on a copy
 * of the demo data of its own: every ```sh block marked
 * `<!-- walk-through … -->`, in order, one bash session per file, with `TOKEN`
 * the token the server printed and the port of `http://127.0.0.1:4000`
 * changed to the server's. Each command must succeed (`set -euo pipefail`),
 * no answer may be an error, and the README's change request must end with
 * the page it wrote, merged.
 */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'docs-gateway.js');
const ADDRESS = 'http://127.0.0.1:4000';
// A server start, a demo seed and a `npx docs-gateway` on a slow machine.
const TIMEOUT = 180_000;

const FILES = [
  'README.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

function walkThrough(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  return [...text.matchAll(/<!-- walk-through[^>]*-->\n```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
}

const WALK_THROUGHS = FILES.map((file) => ({ file, blocks: walkThrough(file) })).filter(({ blocks }) => blocks.length > 0);

/** Our environment without the variables docs-gateway reads, plus `env`. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) =>
        !/^(DATABASE_\w+|PORT|HOST|PUBLIC_URL|APP_URL|LOG_\w+|FILES_DIR|PURGE_\w+|RESPONSE_CACHE_MB|CONTENT_CACHE_MB|CORS_ORIGINS|RATE_LIMIT_\w+|REDIS_\w+|FETCH_\w+|OPENAPI_\w+|GRAPHQL_\w+|PERSISTED_\w+|DEBUG_SQL|TOKEN)$/.test(
          name,
        ),
    ),
  );
  return { ...base, ...env };
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function bash(script: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let port: number;
let token: string;
let serverEnv: Record<string, string>;
beforeAll(async () => {
  // A copy of the demo data (test/support/demo.ts): `serve --demo` finds it loaded, as every start after
  // the first does (test/cli/serve.test.ts starts on an empty database). Dropped after the server stops.
  const { url, filesDir } = await demoDatabase();
  port = await freePort();
  serverEnv = {
    DATABASE_URL: url,
    FILES_DIR: filesDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_FORMAT: 'json',
  };
  const server: ChildProcess = spawn(process.execPath, [BIN, 'serve', '--demo'], {
    cwd: ROOT,
    env: childEnv(serverEnv),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  closeWhenFileEnds(async () => {
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM');
    await exited;
  });
  let output = '';
  token = await new Promise<string>((resolve, reject) => {
    const seen = (chunk: string) => {
      output += chunk;
      const printed = /token\s+(dgw_[\w-]+)/.exec(output);
      if (printed) resolve(printed[1]!);
    };
    server.stdout!.setEncoding('utf8').on('data', seen);
    server.stderr!.setEncoding('utf8').on('data', seen);
    server.once('exit', (code) => reject(new Error(`docs-gateway serve --demo exited (${code}) before printing a token:\n${output}`)));
  });
}, TIMEOUT);

describe('the walk-throughs of the README and docs/', () => {
  it('include the README, whose blocks use the address npm start prints', () => {
    const readme = WALK_THROUGHS.find(({ file }) => file === 'README.md');
    expect(readme?.blocks.length).toBeGreaterThanOrEqual(2);
    expect(readme!.blocks.join('\n')).toContain(`API=${ADDRESS}`);
  });

  it.each(WALK_THROUGHS.map(({ file, blocks }) => [file, blocks]))(
    '%s: every command of its walk-through succeeds on the demo data',
    async (file, blocks) => {
      const script = ['set -euo pipefail', 'trap \'echo "failed: $BASH_COMMAND" >&2\' ERR', ...blocks]
        .join('\n')
        .replaceAll(ADDRESS, `http://127.0.0.1:${port}`);
      // `npx docs-gateway …` in a walk-through works on the server's database, as it does with npm start's defaults.
      const run = await bash(script, childEnv({ DATABASE_URL: serverEnv.DATABASE_URL!, FILES_DIR: serverEnv.FILES_DIR!, TOKEN: token }));
      expect(run.stderr, run.stdout).not.toContain('failed:');
      expect(run.code, `${run.stderr}\n${run.stdout}`).toBe(0);
      // curl -s exits 0 on any status: no answer may be an error.
      expect(run.stdout).not.toMatch(/"error":\s*\{\s*"code":/);
      // Every answer ends its line (curl -w '\n'): no JSON runs on into the next output.
      for (const line of run.stdout.split('\n').filter((line) => line.startsWith('{"'))) expect(() => JSON.parse(line), line).not.toThrow();
      expect(run.stdout.endsWith('\n')).toBe(true);

      if (file === 'README.md') {
        // The change request inserts a page, merges it, then reads the space's page at its path: the page just written.
        const batch = /-d '(\{"changes":[\s\S]*?\})'\n/.exec(blocks.join('\n'));
        expect(batch, 'the README writes a page through a change request').not.toBeNull();
        const change = (JSON.parse(batch![1]!) as { changes: Array<{ operation: string; document: { markdown: string } }> }).changes[0]!;
        expect(change.operation).toBe('insert_page');
        expect(run.stdout).toContain('"result":"merge"');
        expect(run.stdout).toContain(change.document.markdown);
        // The subscription heard the comment posted while it followed the space.
        const streamed = /^data: (\{.*"spaceEvents".*\})$/m.exec(run.stdout);
        expect(streamed, run.stdout).not.toBeNull();
        expect(JSON.parse(streamed![1]!)).toEqual({
          data: {
            spaceEvents: { kind: 'COMMENT_POSTED', actor: { displayName: 'Alice Martin' }, comment: { body: { markdown: 'Pagination is documented' } } },
          },
        });
      }
      if (file === 'docs/api.md') {
        // Without and with the beta visitor token: the second list has one space more.
        const [without, withBeta] = run.stdout
          .trim()
          .split('\n')
          .slice(-2)
          .map((line) => line.split(', '));
        expect(withBeta).toEqual(expect.arrayContaining(without!));
        expect(withBeta!.length).toBe(without!.length + 1);
      }
    },
    TIMEOUT,
  );
});
