import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SHUTTING_DOWN_MESSAGE } from '../../src/http/app.ts';
import { closeWhenFileEnds } from '../support/cleanup.ts';
import { emptyDatabase } from '../support/databases.ts';
import { freePort, withoutRedis } from '../support/network.ts';

/**
 * SIGTERM to a real server process under load: the requests in flight finish,
 * and every newcomer until the last connection closes is answered 503 in the
 * one error shape (REST's, or GraphQL's at /graphql) with Retry-After and
 * X-Request-Id; after that, connections are refused.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'docs-gateway.js');

interface Answer {
  kind: 'rest' | 'graphql' | 'pipelined';
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Waits until `condition` holds, checking every few milliseconds (bounded by the test's timeout). */
async function until(condition: () => boolean | Promise<boolean>) {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Whether a new connection to the port is refused (the server stopped listening). */
const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

/** Splits what a socket received into HTTP/1.1 answers with a Content-Length (100 Continue included). */
function parseAnswers(data: string): Array<{ status: number; headers: Record<string, string>; body: string }> {
  const answers = [];
  let rest = data;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) break;
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
    const length = Number(headers['content-length'] ?? 0);
    const body = rest.slice(end + 4, end + 4 + length);
    answers.push({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine!)?.[1]), headers, body });
    rest = rest.slice(end + 4 + length);
  }
  return answers;
}

describe('a server stopped with SIGTERM under load', () => {
  it('answers every request normally or 503 in the one error shape, with Retry-After and X-Request-Id', { timeout: 120_000 }, async () => {
    const database = await emptyDatabase();
    closeWhenFileEnds(() => database.drop());
    const port = await freePort();
    const env = {
      ...withoutRedis(),
      DATABASE_URL: database.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
      FILES_DIR: path.join(os.tmpdir(), 'docs-gateway-shutdown-files'),
    };
    const admin = JSON.parse(
      execFileSync(process.execPath, [BIN, 'bootstrap', '--org', 'Shutdown', '--email', 'shutdown@example.test', '--json'], { cwd: ROOT, env })
        .toString()
        .trim(),
    ) as { organizationId: string; userId: string; token: string };

    const server: ChildProcess = spawn(process.execPath, [BIN, 'serve'], { cwd: ROOT, env, stdio: 'ignore' });
    closeWhenFileEnds(() => {
      if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
    });
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => server.once('exit', (code, signal) => resolve({ code, signal })));
    await until(async () => {
      if (server.exitCode !== null) throw new Error(`serve exited with ${server.exitCode}`);
      return (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.ok === true;
    });

    // The load: clients on keep-alive connections, each sending REST and GraphQL requests one after another until the server is gone.
    const answers: Answer[] = [];
    let failures = 0;
    const client = async (worker: number) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      for (let round = 0; ; round++) {
        const kind = (worker + round) % 2 === 0 ? 'rest' : 'graphql';
        const payload = kind === 'graphql' ? JSON.stringify({ query: '{ viewer { user { id } } }' }) : undefined;
        try {
          answers.push(
            await new Promise<Answer>((resolve, reject) => {
              const request = http.request(
                {
                  host: '127.0.0.1',
                  port,
                  agent,
                  method: payload ? 'POST' : 'GET',
                  path: payload ? '/graphql' : '/v1/user',
                  headers: { authorization: `Bearer ${admin.token}`, ...(payload ? { 'content-type': 'application/json' } : {}) },
                },
                (response) => {
                  let body = '';
                  response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
                  response.on('end', () => resolve({ kind, status: response.statusCode!, headers: response.headers, body }));
                  response.on('error', reject);
                },
              );
              request.on('error', reject);
              request.end(payload);
            }),
          );
        } catch {
          // Refused or reset: the server closed this connection, and listens no more.
          failures += 1;
          agent.destroy();
          return;
        }
      }
    };
    const clients = Array.from({ length: 8 }, (_, worker) => client(worker));
    await until(() => answers.length >= 40);

    // A request in flight when the signal comes: its headers are in (the server
    // said 100 Continue), its body is not. Behind it on the same connection, a
    // request that arrives once the server is shutting down.
    const inFlight = net.connect(port, '127.0.0.1');
    let received = '';
    inFlight.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    const inFlightEnded = new Promise<void>((resolve) => inFlight.once('close', () => resolve()));
    const body = JSON.stringify({ title: 'Created while stopping' });
    await new Promise<void>((resolve) => inFlight.once('connect', () => resolve()));
    inFlight.write(
      `POST /v1/orgs/${admin.organizationId}/collections HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${admin.token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
    );
    await until(() => received.includes('100 Continue'));

    server.kill('SIGTERM');
    // Shutting down: it listens no more.
    await until(() => refused(port));
    inFlight.write(`${body}GET /v1/user HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${admin.token}\r\n\r\n`);
    await inFlightEnded;
    await Promise.all(clients);
    expect(await exited).toEqual({ code: 0, signal: null });

    const [, created, pipelined] = parseAnswers(received);
    expect(created?.status, received).toBe(201);
    expect(JSON.parse(created!.body)).toMatchObject({ object: 'collection', title: 'Created while stopping' });
    expect(pipelined?.status, received).toBe(503);
    answers.push({ kind: 'pipelined', ...pipelined! });

    expect(failures).toBe(clients.length);
    const unavailable = answers.filter((answer) => answer.status === 503);
    expect(unavailable.length).toBeGreaterThan(0);
    for (const answer of answers) {
      const json = JSON.parse(answer.body);
      if (answer.status === 200) {
        expect(answer.kind === 'graphql' ? json.data.viewer.user.id : json.id).toBe(admin.userId);
        continue;
      }
      expect(answer.status, answer.body).toBe(503);
      expect(answer.headers['retry-after']).toMatch(/^\d+$/);
      expect(answer.headers['x-request-id']).toMatch(/^[\da-f-]{36}$/);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(answer.headers.connection).toBe('close');
      expect(json).toEqual(
        answer.kind === 'graphql'
          ? { errors: [{ message: SHUTTING_DOWN_MESSAGE, extensions: { code: 503 } }] }
          : { error: { code: 503, message: SHUTTING_DOWN_MESSAGE } },
      );
    }
  });
});
