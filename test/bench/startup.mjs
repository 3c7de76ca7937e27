// Start time and idle memory of `npm start` (docs/benchmark.md, "Start and idle memory"):
// `node test/bench/startup.mjs [runs]`. Each run starts the server as `npm start` does in a
// fresh directory (no database yet: migrations and the demo data), times the first /healthz
// 200 (wall and the process's user+sys CPU), reads RSS after a few REST requests and 5 s idle (and
// again 5 s after a GraphQL query), stops
// it, then starts it again in the same directory (a restart) and times that. Medians are printed.
// DATABASE_URL=postgresql://…: each run on a new database of that server, dropped at the end.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RUNS = Number(process.argv[2] ?? 3);
// ENTRY=<file>: another entry point than the command (a bundle kept from before a change, to compare).
const ENTRY = process.env.ENTRY ? path.resolve(process.env.ENTRY) : path.join(ROOT, 'bin/docs-gateway.js');
const TICK = 100; // USER_HZ on Linux

const freePort = () =>
  new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

function cpuSeconds(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICK;
}

function rssMb(pid) {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line.split(/\s+/)[1]) / 1024;
}

async function start(dir, { idle, env: extra }) {
  const port = await freePort();
  const log = fs.openSync(path.join(dir, 'server.log'), 'a');
  const started = performance.now();
  const child = spawn(process.execPath, ['--max-semi-space-size=8', '--heap-growing-percent=50', ENTRY, 'serve', '--demo'], {
    cwd: dir,
    env: { ...process.env, ...extra, PORT: String(port), LOG_FORMAT: 'json' },
    stdio: ['ignore', log, log],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let wall;
  let cpu;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server ended (${child.exitCode}); see ${dir}/server.log`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (response.status === 200) {
        wall = (performance.now() - started) / 1000;
        cpu = cpuSeconds(child.pid);
        break;
      }
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  // The start-up ends with the token line (after the demo spec is fetched from the server): a
  // server stopped before would leave that work to the next start.
  const logFile = path.join(dir, 'server.log');
  let token;
  while (!(token = /"msg":"token +(\S+)/.exec(fs.readFileSync(logFile, 'utf8').split('"msg":"applied').at(-1))?.[1])) {
    if (child.exitCode !== null) throw new Error(`the server ended (${child.exitCode}); see ${logFile}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const headers = { authorization: `Bearer ${token}` };
  let rss;
  let rssAfterGraphql;
  if (idle) {
    // What a first visitor asks of REST: the home page, a list, the health check; then, apart,
    // a GraphQL query (the schema is built on the first one).
    for (const url of ['/', '/v1/orgs', '/healthz']) await fetch(`http://127.0.0.1:${port}${url}`, { headers }).catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 5000));
    rss = rssMb(child.pid);
    const answer = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ viewer { user { email } } }' }),
    });
    if (!(await answer.text()).includes('alice@acme.test')) throw new Error('the GraphQL query did not answer');
    await new Promise((resolve) => setTimeout(resolve, 5000));
    rssAfterGraphql = rssMb(child.pid);
  }
  child.kill('SIGTERM');
  await exited;
  fs.closeSync(log);
  return { wall, cpu, rss, rssAfterGraphql };
}

const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];
const results = { first: [], restart: [] };
const databases = [];
for (let run = 0; run < RUNS; run++) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-start-'));
  let env = {};
  if (process.env.DATABASE_URL?.startsWith('postgres')) {
    // A database of its own, so that nothing else on the server is touched.
    const { default: pg } = await import('pg');
    const name = `startup_bench_${process.pid}_${run}`;
    const client = new pg.Client(process.env.DATABASE_URL);
    await client.connect();
    await client.query(`CREATE DATABASE ${name}`);
    await client.end();
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    env = { DATABASE_URL: url.href };
    databases.push(name);
  }
  const first = await start(dir, { idle: false, env });
  const restart = await start(dir, { idle: true, env });
  results.first.push(first);
  results.restart.push(restart);
  console.log(
    `run ${run + 1}: first ${first.wall.toFixed(2)} s (cpu ${first.cpu.toFixed(2)} s), restart ${restart.wall.toFixed(2)} s (cpu ${restart.cpu.toFixed(2)} s), idle RSS ${restart.rss.toFixed(1)} MB, ${restart.rssAfterGraphql.toFixed(1)} MB after a GraphQL query  [${dir}]`,
  );
}
const m = (list, key) => median(list.map((r) => r[key]));
console.log(
  `median of ${RUNS}: first start ${m(results.first, 'wall').toFixed(2)} s (cpu ${m(results.first, 'cpu').toFixed(2)} s); restart ${m(results.restart, 'wall').toFixed(2)} s (cpu ${m(results.restart, 'cpu').toFixed(2)} s); idle RSS ${m(results.restart, 'rss').toFixed(1)} MB, ${m(results.restart, 'rssAfterGraphql').toFixed(1)} MB after a GraphQL query`,
);
if (databases.length > 0) {
  const { default: pg } = await import('pg');
  const client = new pg.Client(process.env.DATABASE_URL);
  await client.connect();
  for (const name of databases) await client.query(`DROP DATABASE IF EXISTS ${name}`);
  await client.end();
}
