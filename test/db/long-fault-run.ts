/**
 * The long fault run: a real server process (`bin/docs-gateway.js serve`)
 * under a mixed write load while faults are injected, round after round, and
 * a summary to paste into the README.
 *
 *   npx tsx test/db/long-fault-run.ts [--rounds N] [--seed S] [--fault-seconds LOW-HIGH]
 *
 * On a fresh SQLite database in a temporary directory, or, when DATABASE_URL
 * is a postgresql:// URL, on a fresh database created on that server (and
 * dropped afterwards), which the server reaches through a TCP proxy
 * (test/support/database-proxy.ts). Each round (default 20) opens a change
 * request and starts 4 to 8 writers (space creates, content batches of 2
 * pages, comment posts), then injects one fault chosen by the seeded random
 * generator: `kill -9` of the server and a restart (both databases); on
 * PostgreSQL also a freeze (nothing answered) or a cut (connections dropped
 * and refused) of 1 to 5 s (--fault-seconds), then restore. Checked: every
 * acknowledged write is there afterwards (through the API, after the restart
 * or recovery), no batch is half applied, no write is there twice, no 5xx but
 * 503 and every 503 in the error shape with Retry-After, no request during a
 * freeze or cut takes longer than a bound from the server's database timeouts
 * (the server runs with DATABASE_CONNECT_TIMEOUT_MS=1000 and
 * DATABASE_STATEMENT_TIMEOUT_MS=2000), readiness comes back and writes succeed
 * again, and (SQLite) the file passes `PRAGMA integrity_check` after each
 * kill. Exits 1 when any check failed; the server's log is kept then.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { sqliteFilePath } from '../../src/db/client.ts';
import { type DatabaseProxy, databaseProxy } from '../support/database-proxy.ts';
import { freePort } from '../support/network.ts';
import { scratchDatabase } from '../support/scratch-database.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '20' },
    seed: { type: 'string' },
    'fault-seconds': { type: 'string', default: '1-5' },
  },
});
const rounds = Number(values.rounds);
const seed = values.seed !== undefined ? Number(values.seed) : Date.now() % 2 ** 31;
const [faultLow, faultHigh] = values['fault-seconds'].split('-').map((part) => Number(part) * 1000) as [number, number | undefined];
if (!Number.isInteger(rounds) || rounds < 1 || !Number.isInteger(seed) || !(faultLow > 0) || !((faultHigh ?? faultLow) >= faultLow)) {
  console.error('usage: npx tsx test/db/long-fault-run.ts [--rounds N] [--seed S] [--fault-seconds LOW-HIGH]');
  process.exit(2);
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'docs-gateway.js');

/** The server's database waits (DATABASE_CONNECT_TIMEOUT_MS, DATABASE_STATEMENT_TIMEOUT_MS). */
const CONNECT_TIMEOUT_MS = 1_000;
const STATEMENT_TIMEOUT_MS = 2_000;
/**
 * The longest a request may take while the database is frozen or cut: a wait
 * for a connection, then for a statement's answer, and a transaction's
 * rollback as long again, and 2 s of slack for a loaded machine. A request
 * that hung until the database came back would break it (given a fault long
 * enough); a slow one would not.
 */
const BOUND_MS = 2 * (CONNECT_TIMEOUT_MS + STATEMENT_TIMEOUT_MS) + 2_000;
/** A request without an answer this long is a hang; readiness not back this long after a fault is a failure. */
const GIVE_UP_MS = 60_000;
const UNAVAILABLE = { error: { code: 503, message: 'The database is unavailable or too slow to answer; try again shortly' } };

type Fault = 'kill' | 'freeze' | 'cut';

/** mulberry32: a small seeded generator, so that a run's choices replay with its seed. */
function generator(state: number) {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = generator(seed);
const between = (next: () => number, low: number, high: number) => low + Math.floor(next() * (high - low + 1));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A fresh database (not migrated: bootstrap and serve migrate it), a direct reader of it, and how to drop it. */
async function freshDatabase() {
  const database = await scratchDatabase(process.env.DATABASE_URL, 'faults');
  /** Spaces of these titles, counted on a connection of its own (not through the proxy). */
  const countSpaces = async (titles: string[]): Promise<Map<string, number>> => {
    if (database.provider === 'sqlite') {
      const file = new BetterSqlite3(sqliteFilePath(database.url), { readonly: true, timeout: 5_000 });
      try {
        const statement = file.prepare('SELECT count(*) AS "count" FROM "spaces" WHERE "title" = ?');
        return new Map(titles.map((title) => [title, (statement.get(title) as { count: number }).count]));
      } finally {
        file.close();
      }
    }
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ title: string; count: string }>(
        'SELECT "title", count(*) AS "count" FROM "spaces" WHERE "title" = ANY($1) GROUP BY "title"',
        [titles],
      );
      return new Map(rows.map((row) => [row.title, Number(row.count)]));
    } finally {
      await client.end();
    }
  };
  return { ...database, countSpaces };
}

// ---------------------------------------------------------------- bookkeeping

const failures: string[] = [];
const fail = (message: string) => {
  failures.push(message);
  if (failures.length <= 30) console.log(`  FAILURE ${message}`);
};
const statuses = new Map<string, number>();
const tally = (key: string) => statuses.set(key, (statuses.get(key) ?? 0) + 1);
let unavailable = 0;
const roundsBy: Record<Fault, number> = { kill: 0, freeze: 0, cut: 0 };
const recoveryMax: Record<Fault, number> = { kill: 0, freeze: 0, cut: 0 };
/** From readiness back to the first acknowledged write. */
const firstWriteMax: Record<Fault, number> = { kill: 0, freeze: 0, cut: 0 };
let maxDuringFault = { ms: 0, what: '' };
let maxAnyRequest = { ms: 0, what: '' };
let refusedWhileDown = 0;
let checked = { spaces: 0, batches: 0, comments: 0 };
/** Space creates sent but answered 503 or not at all, and those of them in the database all the same (their COMMIT got through, its answer did not), by fault. */
const lostAnswers = { spaces: 0, committed: { kill: 0, freeze: 0, cut: 0 } as Record<Fault, number> };
let integrityChecks = 0;
let verificationRetries = 0;

interface Answer {
  status: number;
  body: any;
  text: string;
  retryAfter: string | null;
  error?: string;
  start: number;
  end: number;
}

// ---------------------------------------------------------------- the server

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-gateway-fault-run-'));
const logFile = path.join(work, 'server.log');
const database = await freshDatabase();
const proxy: DatabaseProxy | undefined = database.provider === 'postgresql' ? await databaseProxy(new URL(database.url)) : undefined;
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const env = (url: string) => ({
  ...process.env,
  DATABASE_URL: url,
  PORT: String(port),
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_MINUTE: '0',
  FILES_DIR: path.join(work, 'files'),
  DATABASE_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
  DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
});

let server: ChildProcess | undefined;
/** Starts `serve` (through the proxy on PostgreSQL) and waits until /readyz answers 200; returns how long that took. */
async function serve(): Promise<number> {
  const started = performance.now();
  const log = fs.openSync(logFile, 'a');
  fs.writeSync(log, `--- serve at ${new Date().toISOString()}\n`);
  const child = spawn(process.execPath, [BIN, 'serve'], { cwd: ROOT, env: env(proxy?.url ?? database.url), stdio: ['ignore', log, log] });
  fs.closeSync(log);
  server = child;
  while (performance.now() - started < GIVE_UP_MS) {
    if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode} (log: ${logFile})`);
    if ((await fetch(`${base}/readyz`).catch(() => null))?.ok) return performance.now() - started;
    await sleep(50);
  }
  throw new Error(`serve was not ready within ${GIVE_UP_MS} ms`);
}

async function killServer(signal: NodeJS.Signals) {
  const child = server;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  const late = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(late);
}

/** Polls /readyz until it answers 200; how long that took, or undefined after GIVE_UP_MS. */
async function untilReady(): Promise<number | undefined> {
  const started = performance.now();
  while (performance.now() - started < GIVE_UP_MS) {
    const response = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(5_000) }).catch(() => null);
    if (response?.ok) return performance.now() - started;
    await sleep(25);
  }
  return undefined;
}

/** The organization and admin token made by `bootstrap` (directly on the database, not through the proxy). */
let admin = { organizationId: '', token: '' };
const headers = () => ({ authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' });

async function call(method: string, route: string, body?: unknown): Promise<Answer> {
  const start = performance.now();
  try {
    const response = await fetch(`${base}${route}`, {
      method,
      headers: headers(),
      signal: AbortSignal.timeout(GIVE_UP_MS),
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: response.status, body: json, text, retryAfter: response.headers.get('retry-after'), start, end: performance.now() };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return {
      status: 0,
      body: undefined,
      text: '',
      retryAfter: null,
      error: cause?.code ?? (error as Error).name ?? String(error),
      start,
      end: performance.now(),
    };
  }
}

/** A read for checking, after recovery: a 503 is tried again (counted), for up to 10 s. */
async function verify(route: string): Promise<Answer> {
  const started = performance.now();
  for (;;) {
    const answer = await call('GET', route);
    if (answer.status !== 503 || performance.now() - started > 10_000) return answer;
    verificationRetries++;
    await sleep(200);
  }
}

// ---------------------------------------------------------------- the rounds

const runStarted = performance.now();
const faultsOffered: Fault[] = database.provider === 'postgresql' ? ['kill', 'freeze', 'cut'] : ['kill'];
console.log(
  `docs-gateway fault run on ${database.label}, Node ${process.version}: ${rounds} rounds, seed ${seed}, ` +
    `faults ${faultsOffered.join('/')}${proxy ? ` (freeze and cut ${values['fault-seconds']} s)` : ''}, connect timeout ${CONNECT_TIMEOUT_MS} ms, statement timeout ${STATEMENT_TIMEOUT_MS} ms, request bound ${BOUND_MS} ms`,
);

try {
  admin = JSON.parse(
    execFileSync(process.execPath, [BIN, 'bootstrap', '--org', 'Faults', '--email', 'faults@example.test', '--json'], { cwd: ROOT, env: env(database.url) })
      .toString()
      .trim(),
  );
  const firstStart = await serve();
  console.log(`server ready in ${Math.round(firstStart)} ms`);
  const space = await call('POST', `/v1/orgs/${admin.organizationId}/spaces`, { title: 'Fault target' });
  if (space.status !== 201) throw new Error(`creating the target space answered ${space.status}: ${space.text}`);
  const spaceId = space.body.id as string;

  for (let round = 1; round <= rounds; round++) {
    const fault = faultsOffered[Math.floor(random() * faultsOffered.length)]!;
    const writers = between(random, 4, 8);
    const warmupMs = between(random, 300, 1_000);
    const faultMs = fault === 'kill' ? between(random, 0, 1_000) : between(random, faultLow, faultHigh ?? faultLow);
    const writerSeeds = Array.from({ length: writers }, () => Math.floor(random() * 2 ** 31));
    roundsBy[fault]++;

    const changeRequest = await call('POST', `/v1/spaces/${spaceId}/change-requests`, {});
    if (changeRequest.status !== 201) {
      fail(`round ${round}: opening a change request answered ${changeRequest.status}: ${changeRequest.text.slice(0, 200)}`);
      continue;
    }
    const changeRequestId = changeRequest.body.id as string;

    const spaces: Array<{ id: string; title: string }> = [];
    const lostSpaces: string[] = [];
    const committedLost: string[] = [];
    const batches: number[] = [];
    const comments: Array<{ id: string; markdown: string }> = [];
    const answers: Array<{ what: string; answer: Answer }> = [];
    let stop = false;
    let faultStart = Number.POSITIVE_INFINITY;
    let faultEnd = Number.POSITIVE_INFINITY;

    /** Every answer: a 5xx other than 503 fails, a 503 must be in the error shape, nothing but a kill may drop a connection. */
    const judge = (what: string, answer: Answer) => {
      const where = `round ${round} (${fault}): ${what}`;
      if (answer.status === 0 && answer.error === 'ECONNREFUSED' && fault === 'kill') {
        refusedWhileDown++; // Never sent: nobody listened.
        return;
      }
      answers.push({ what, answer });
      if (answer.end - answer.start > maxAnyRequest.ms) maxAnyRequest = { ms: answer.end - answer.start, what: `${where} → ${answer.status || answer.error}` };
      tally(answer.status === 0 ? `dropped (${answer.error})` : String(answer.status));
      if (answer.status === 0) {
        if (answer.error === 'TimeoutError') fail(`${where}: no answer within ${GIVE_UP_MS} ms`);
        else if (fault !== 'kill') fail(`${where}: the connection failed (${answer.error}) though the server was not killed`);
      } else if (answer.status === 503) {
        unavailable++;
        if (answer.retryAfter !== '5' || !isDeepStrictEqual(answer.body, UNAVAILABLE)) {
          fail(`${where}: 503 not in the error shape (retry-after ${answer.retryAfter}): ${answer.text.slice(0, 300)}`);
        }
      } else if (answer.status >= 500) fail(`${where}: answered ${answer.status}: ${answer.text.slice(0, 300)}`);
      else if (answer.status !== 200 && answer.status !== 201) fail(`${where}: answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    };

    const writer = async (worker: number) => {
      const next = generator(writerSeeds[worker]!);
      for (let n = 0; !stop; n++) {
        const key = `${round}.${worker}.${n}`;
        const choice = next();
        let answer: Answer;
        if (choice < 0.4) {
          const title = `Space ${key}`;
          answer = await call('POST', `/v1/orgs/${admin.organizationId}/spaces`, { title });
          judge(`POST space "${title}"`, answer);
          if (answer.status === 201) {
            if (answer.body?.title !== title) fail(`round ${round}: space "${title}" came back as ${answer.text.slice(0, 200)}`);
            spaces.push({ id: answer.body.id, title });
          } else if (answer.status === 503 || (answer.status === 0 && answer.error !== 'ECONNREFUSED')) lostSpaces.push(title);
        } else if (choice < 0.75) {
          const batch = round * 1_000_000 + worker * 10_000 + n;
          answer = await call('POST', `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content`, {
            changes: [
              { operation: 'insert_page', title: `Batch ${batch} first`, document: { markdown: 'one\n' } },
              { operation: 'insert_page', title: `Batch ${batch} second`, document: { markdown: 'two\n' } },
            ],
          });
          judge(`POST content batch ${batch}`, answer);
          if (answer.status === 200) batches.push(batch);
        } else {
          const markdown = `Comment ${key}`;
          answer = await call('POST', `/v1/spaces/${spaceId}/comments`, { body: { markdown } });
          judge(`POST comment "${markdown}"`, answer);
          if (answer.status === 200) comments.push({ id: answer.body.id, markdown });
        }
        // A client that is told to wait (503) or finds nobody listening backs off a little.
        if (answer.status === 503) await sleep(25);
        if (answer.status === 0) await sleep(50);
      }
    };

    const running = Array.from({ length: writers }, (_, worker) => writer(worker));
    await sleep(warmupMs);
    let recoveryMs: number | undefined;
    faultStart = performance.now();
    if (fault === 'kill') {
      await killServer('SIGKILL');
      faultEnd = performance.now();
      if (database.provider === 'sqlite') {
        const file = new BetterSqlite3(sqliteFilePath(database.url));
        const result = file.pragma('integrity_check', { simple: true });
        file.close();
        integrityChecks++;
        if (result !== 'ok') fail(`round ${round}: integrity_check after kill -9: ${String(result)}`);
      }
      await sleep(faultMs);
      recoveryMs = await serve().catch((error) => {
        fail(`round ${round}: restart failed: ${(error as Error).message}`);
        return undefined;
      });
    } else {
      proxy![fault]();
      await sleep(faultMs);
      proxy!.restore();
      faultEnd = performance.now();
      recoveryMs = await untilReady();
      if (recoveryMs === undefined) fail(`round ${round}: /readyz not 200 within ${GIVE_UP_MS} ms after the ${fault} ended`);
    }
    if (recoveryMs !== undefined) recoveryMax[fault] = Math.max(recoveryMax[fault], recoveryMs);
    // The load goes on after recovery, for a second at least and until writes
    // succeed again (as many as there are writers; a restarted server opens its
    // connections under load first), for 20 s at most.
    const recovered = performance.now();
    const servedAfter = () => answers.filter(({ answer }) => answer.start >= recovered && (answer.status === 200 || answer.status === 201));
    while (performance.now() - recovered < 1_000 || (servedAfter().length < writers && performance.now() - recovered < 20_000)) await sleep(50);
    stop = true;
    await Promise.all(running);
    if (recoveryMs === undefined) break;
    const firstServed = Math.min(...servedAfter().map(({ answer }) => answer.end));
    if (servedAfter().length < writers) fail(`round ${round} (${fault}): ${servedAfter().length} writes succeeded in the 20 s after recovery`);
    else firstWriteMax[fault] = Math.max(firstWriteMax[fault], firstServed - recovered);

    // Requests that overlapped the freeze or cut: none may have waited past the bound.
    let roundMax = 0;
    let roundMaxWhen = '';
    if (fault !== 'kill') {
      for (const { what, answer } of answers) {
        if (answer.start > faultEnd || answer.end < faultStart) continue;
        const ms = answer.end - answer.start;
        if (ms > roundMax) {
          roundMax = ms;
          const offset = (ms: number) => `${ms < 0 ? '−' : '+'}${Math.abs(Math.round(ms))} ms`;
          roundMaxWhen = ` (${what} → ${answer.status}, sent ${offset(answer.start - faultStart)} from the fault's start, answered ${offset(answer.end - faultEnd)} from its end)`;
        }
        if (ms > maxDuringFault.ms) maxDuringFault = { ms, what: `round ${round} (${fault}): ${what} answered ${answer.status}` };
        if (ms >= BOUND_MS) fail(`round ${round} (${fault}): ${what} took ${Math.round(ms)} ms (bound ${BOUND_MS} ms), answered ${answer.status}`);
      }
    }

    // Every acknowledged write is there, once; every batch whole.
    for (const { id, title } of spaces) {
      const answer = await verify(`/v1/spaces/${id}`);
      if (answer.status !== 200 || answer.body?.title !== title)
        fail(`round ${round}: acknowledged space ${id} "${title}": GET answered ${answer.status} ${answer.text.slice(0, 200)}`);
    }
    const spaceCounts = await database.countSpaces([...spaces.map((s) => s.title), ...lostSpaces]);
    for (const { title } of spaces)
      if (spaceCounts.get(title) !== 1) fail(`round ${round}: acknowledged space "${title}" is in the database ${spaceCounts.get(title) ?? 0} times`);
    for (const title of lostSpaces) {
      const count = spaceCounts.get(title) ?? 0;
      if (count > 1) fail(`round ${round}: unacknowledged space "${title}" is in the database ${count} times`);
      if (count === 1) {
        lostAnswers.committed[fault]++;
        const answer = answers.find(({ what }) => what === `POST space "${title}"`)?.answer;
        if (answer) {
          committedLost.push(
            `"${title}" (${answer.status || answer.error}, sent ${Math.round(answer.start - faultStart)} ms and answered ${Math.round(answer.end - faultStart)} ms from the ${fault}'s start)`,
          );
        }
      }
    }
    lostAnswers.spaces += lostSpaces.length;
    for (const { id, markdown } of comments) {
      const answer = await verify(`/v1/spaces/${spaceId}/comments/${id}`);
      if (answer.status !== 200 || answer.body?.body?.markdown !== markdown)
        fail(`round ${round}: acknowledged comment ${id}: GET answered ${answer.status} ${answer.text.slice(0, 200)}`);
    }
    const pages = await verify(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/pages`);
    if (pages.status !== 200) fail(`round ${round}: the change request's pages: GET answered ${pages.status} ${pages.text.slice(0, 200)}`);
    else {
      const titles = new Map<string, number>();
      for (const page of pages.body.pages as Array<{ title: string }>) titles.set(page.title, (titles.get(page.title) ?? 0) + 1);
      for (const batch of batches) {
        if (titles.get(`Batch ${batch} first`) !== 1 || titles.get(`Batch ${batch} second`) !== 1)
          fail(`round ${round}: acknowledged batch ${batch} is not there once, whole`);
      }
      for (const [title, count] of titles) {
        const batch = /^Batch (\d+) (first|second)$/.exec(title)?.[1];
        if (!batch) continue;
        if (count !== 1) fail(`round ${round}: page "${title}" is there ${count} times`);
        if (!titles.has(`Batch ${batch} first`) || !titles.has(`Batch ${batch} second`)) fail(`round ${round}: batch ${batch} is half applied`);
      }
    }
    checked = { spaces: checked.spaces + spaces.length, batches: checked.batches + batches.length, comments: checked.comments + comments.length };
    const round503 = answers.filter(({ answer }) => answer.status === 503).length;
    const dropped = answers.filter(({ answer }) => answer.status === 0).length;
    console.log(
      `round ${round}: ${fault}${fault === 'kill' ? ` (down ${faultMs} ms)` : ` ${faultMs} ms`}, ${writers} writers, ${answers.length} requests ` +
        `(${round503} × 503${dropped ? `, ${dropped} dropped by the kill` : ''}), acknowledged ${spaces.length} spaces + ${batches.length} batches + ${comments.length} comments, ` +
        `${fault === 'kill' ? 'restart' : 'recovery'} ${Math.round(recoveryMs)} ms, first write after it ${Math.round(firstServed - recovered)} ms` +
        `${fault !== 'kill' ? `, longest request during the fault ${Math.round(roundMax)} ms${roundMaxWhen}` : ''}` +
        `${committedLost.length ? `; committed though unacknowledged: ${committedLost.join(', ')}` : ''}`,
    );
  }

  // Healthy at the end: a read and a write.
  const ready = await untilReady();
  const write = await call('POST', `/v1/orgs/${admin.organizationId}/spaces`, { title: 'After the run' });
  if (ready === undefined || write.status !== 201)
    fail(`after the run: /readyz ${ready === undefined ? 'not 200' : '200'}, a space create answered ${write.status}`);
} catch (error) {
  fail(`the run stopped: ${(error as Error).stack ?? String(error)}`);
} finally {
  await killServer('SIGTERM');
  await proxy?.close();
  await database.drop().catch((error) => console.log(`dropping the database failed: ${(error as Error).message}`));
}

const duration = (performance.now() - runStarted) / 1000;
const statusList = [...statuses.entries()]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([status, count]) => `${status} × ${count}`)
  .join(', ');
const requests = [...statuses.values()].reduce((sum, count) => sum + count, 0);
console.log('');
console.log(`summary (${database.label}, seed ${seed}):`);
console.log(`  rounds: ${rounds} (${faultsOffered.map((fault) => `${fault} ${roundsBy[fault]}`).join(', ')})`);
console.log(`  requests: ${requests} (${statusList})${refusedWhileDown ? `; besides, ${refusedWhileDown} connections refused while the server was down` : ''}`);
console.log(
  `  acknowledged writes checked: ${checked.spaces + checked.batches + checked.comments} (${checked.spaces} spaces, ${checked.batches} batches of 2 pages, ${checked.comments} comments); ` +
    `space creates sent but answered 503 or not at all: ${lostAnswers.spaces}, of which committed all the same: ` +
    `${faultsOffered.map((fault) => `${lostAnswers.committed[fault]} in ${fault} rounds`).join(', ')}`,
);
console.log(`  503s: ${unavailable}; verification reads retried after a 503: ${verificationRetries}`);
if (database.provider === 'sqlite')
  console.log(`  integrity_check after ${integrityChecks} kills: ${failures.some((f) => f.includes('integrity_check')) ? 'FAILED' : 'ok'}`);
if (database.provider === 'postgresql') {
  console.log(
    `  max request time during freeze/cut: ${Math.round(maxDuringFault.ms)} ms (bound ${BOUND_MS} ms)${maxDuringFault.what ? `: ${maxDuringFault.what}` : ''}`,
  );
}
console.log(`  max request time overall: ${Math.round(maxAnyRequest.ms)} ms (${maxAnyRequest.what})`);
console.log(
  `  max recovery (readyz 200): ${faultsOffered
    .filter((fault) => roundsBy[fault] > 0)
    .map((fault) => `${fault === 'kill' ? 'restart after kill -9' : `after ${fault}`} ${Math.round(recoveryMax[fault])} ms`)
    .join(', ')}; then to the first acknowledged write: ${faultsOffered
    .filter((fault) => roundsBy[fault] > 0)
    .map((fault) => `${fault} ${Math.round(firstWriteMax[fault])} ms`)
    .join(', ')}`,
);
console.log(`  failures: ${failures.length}`);
console.log(`  duration: ${duration.toFixed(1)} s`);
if (failures.length) console.log(`  server log kept: ${logFile}`);
else fs.rmSync(work, { recursive: true, force: true });
process.exit(failures.length ? 1 : 0);
