import { beforeAll, describe, expect, it, vi } from 'vitest';
import { logDestination, redactUrl } from '../../src/http/logging.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { subscribe } from '../support/event-stream.ts';
import { buildTeam } from '../support/factories.ts';

/** What the logs hold: no secrets from query strings or headers; client errors as information. */

const lines: Array<Record<string, any>> = [];
let t: TestApp;
let team: Awaited<ReturnType<typeof buildTeam>>;
beforeAll(async () => {
  t = await createTestApp({ logLevel: 'info', logStream: { write: (line) => lines.push(JSON.parse(line)) } });
  team = await buildTeam(t.database);
});

describe('request logs', () => {
  it('redact share keys, visitor tokens and other secrets in query strings, and never hold the Authorization header', async () => {
    const shareKey = 'sk-secret-share-key-123';
    const visitorToken = 'eyJ.secret-visitor.token';
    lines.length = 0;
    await t.call('GET', `/v1/orgs/${team.organization.id}/sites?shareKey=${shareKey}&visitorToken=${visitorToken}&limit=5`, { token: team.admin.token });
    const text = JSON.stringify(lines);
    expect(text).not.toContain(shareKey);
    expect(text).not.toContain(visitorToken);
    expect(text).not.toContain(team.admin.token);
    const completed = lines.find((line) => line.msg === 'request completed');
    expect(completed?.req.url).toBe(`/v1/orgs/${team.organization.id}/sites?shareKey=[redacted]&visitorToken=[redacted]&limit=5`);
  });

  it('redacts by parameter name, whatever its case or encoding, and leaves other parameters alone', () => {
    expect(redactUrl('/a?TOKEN=x&b=1&share%4Bey=y&visitorToken&c=')).toBe('/a?TOKEN=[redacted]&b=1&share%4Bey=[redacted]&visitorToken&c=');
    expect(redactUrl('/a/b')).toBe('/a/b');
  });
});

describe('GraphQL errors', () => {
  it('log what the client got wrong (404, 403) as information, without a stack trace, with the request id', async () => {
    lines.length = 0;
    const response = await t.call('POST', '/graphql', {
      token: team.admin.token,
      headers: { 'x-request-id': 'edge-graphql.404' },
      body: { query: 'query($id: ID!) { space(id: $id) { id } }', variables: { id: 'spc_missing' } },
    });
    expect(response.json().errors?.[0]?.extensions?.code).toBe(404);
    const logged = lines.filter((line) => String(line.msg).startsWith('graphql'));
    expect(logged).toEqual([
      expect.objectContaining({ level: 30, status: 404, reqId: 'edge-graphql.404', msg: 'graphql client error: Space "spc_missing" was not found' }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('"stack"');
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  });

  it('log a 403 (a guest asking for a mutation that needs an admin) as information, without a stack trace', async () => {
    const guest = await team.member(null);
    lines.length = 0;
    const result = await t.graphql(guest.token, 'mutation($input: CreateTeamInput!) { createTeam(input: $input) { team { id } } }', {
      input: { organizationId: team.organization.id, title: 'Not theirs to create' },
    });
    expect(result.data).toBeNull();
    expect(result.errors).toEqual([
      expect.objectContaining({ message: 'You are not allowed to create teams in this organization', extensions: { code: 403 } }),
    ]);
    const logged = lines.filter((line) => String(line.msg).startsWith('graphql'));
    expect(logged).toEqual([
      expect.objectContaining({ level: 30, status: 403, msg: 'graphql client error: You are not allowed to create teams in this organization' }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('"stack"');
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    expect(await t.database.db.team.count({ where: { organizationId: team.organization.id } })).toBe(0);
  });
});

describe('GraphQL requests the client got wrong', () => {
  it.each([
    [
      'a syntax error (POST)',
      () => t.call('POST', '/graphql', { token: team.admin.token, body: { query: '{ viewer { ' } }),
      'Syntax Error: Expected Name, found <EOF>.',
    ],
    ['a syntax error (GET)', () => t.call('GET', '/graphql?query=%7B', { token: team.admin.token }), 'Syntax Error: Expected Name, found <EOF>.'],
    ['an empty JSON object for a body', () => t.call('POST', '/graphql', { token: team.admin.token, body: {} }), null],
    [
      'variables that are not an object',
      () => t.call('POST', '/graphql', { token: team.admin.token, body: { query: '{ viewer { user { id } } }', variables: 'x' } }),
      'Expected "variables" param to be empty or an object, but given string.',
    ],
  ] as const)('%s: logged once, as information, without a stack trace, with the request id', async (_name, send, message) => {
    lines.length = 0;
    const response = await send();
    expect(response.json().errors?.[0]?.extensions?.code, response.body).toBe(400);
    const logged = lines.filter((line) => String(line.msg).startsWith('graphql'));
    expect(logged, JSON.stringify(lines)).toEqual([
      expect.objectContaining({
        level: 30,
        status: 400,
        reqId: response.headers['x-request-id'],
        msg: message === null ? expect.stringMatching(/^graphql client error: /) : `graphql client error: ${message}`,
      }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('"stack"');
    expect(lines.filter((line) => line.level !== 30)).toEqual([]);
  });
});

describe('REST errors', () => {
  it('log a 403 (a read member updating the organization, a guest searching it) as the request completed, at information level, without a stack trace', async () => {
    const reader = await team.member('read');
    const guest = await team.member(null);
    const before = await t.database.db.organization.findUniqueOrThrow({ where: { id: team.organization.id } });
    for (const [token, method, url, body, message] of [
      [reader.token, 'PATCH', `/v1/orgs/${team.organization.id}`, { inviteLinks: !before.inviteLinks }, 'You are not allowed to update this organization'],
      [guest.token, 'GET', `/v1/orgs/${team.organization.id}/search?query=x`, undefined, /^You are not allowed to /],
    ] as const) {
      lines.length = 0;
      const response = await t.call(method, url, { token, ...(body !== undefined ? { body } : {}) });
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json().error.message).toMatch(message);
      expect(lines.find((line) => line.msg === 'request completed')).toMatchObject({ level: 30, res: { statusCode: 403 } });
      // Information only: no warning, no error, no stack.
      expect(
        lines.map((line) => line.level),
        url,
      ).toEqual(lines.map(() => 30));
      expect(JSON.stringify(lines)).not.toContain('"stack"');
      expect(JSON.stringify(lines)).not.toContain(token);
    }
    expect(await t.database.db.organization.findUniqueOrThrow({ where: { id: team.organization.id } })).toEqual(before);
  });
});

describe('pretty logs (a terminal)', () => {
  it('print one line per request: method, URL (secrets redacted), status and time, at information level', async () => {
    let output = '';
    const pretty = await createTestApp({ logLevel: 'info', logStream: logDestination('pretty', { write: (text) => (output += text) }, false) });
    const url = `/v1/orgs/${team.organization.id}?shareKey=sk-secret-123`;
    const response = await pretty.call('GET', url, { token: team.admin.token });
    expect(response.statusCode).toBe(200);
    await pretty.call('GET', '/v1/orgs/org_missing', { token: team.admin.token });
    const printed = output.split('\n').filter((line) => line.trim() !== '');
    expect(printed, output).toEqual([
      expect.stringMatching(
        new RegExp(`^\\[\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\] INFO: GET /v1/orgs/${team.organization.id}\\?shareKey=\\[redacted\\] 200 \\d+\\.\\d ms$`),
      ),
      expect.stringMatching(/^\[[\d:.]+\] INFO: GET \/v1\/orgs\/org_missing 404 \d+\.\d ms$/),
    ]);
    expect(output).not.toContain('sk-secret-123');
    expect(output).not.toContain(team.admin.token);
  });

  it('print one line for a subscription its client closed, as for any request (the normal end of a stream)', async () => {
    let output = '';
    const pretty = await createTestApp({ logLevel: 'info', logStream: logDestination('pretty', { write: (text) => (output += text) }, false) });
    const base = await pretty.listen();
    const spaceId = (await pretty.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: 'Logged' } })).json().id;
    const query = 'subscription($spaceId: ID!) { spaceEvents(spaceId: $spaceId) { ... on Event { kind } } }';
    const stream = await subscribe(base, team.admin.token, query, { spaceId });
    await pretty.call('POST', `/v1/spaces/${spaceId}/comments`, { token: team.admin.token, body: { body: { markdown: 'Logged' } } });
    await stream.until(1);
    output = '';
    stream.close();
    await vi.waitUntil(() => output.includes('/graphql'), { timeout: 5_000, interval: 20 });
    // Whatever else the close may have logged is out by the next request's line.
    await pretty.call('GET', '/v1/user', { token: team.admin.token });
    const printed = output.split('\n').filter((line) => line.trim() !== '');
    expect(printed, output).toEqual([
      expect.stringMatching(/^\[[\d:.]+\] INFO: POST \/graphql 200 \d+\.\d ms$/),
      expect.stringMatching(/^\[[\d:.]+\] INFO: GET \/v1\/user 200 \d+\.\d ms$/),
    ]);
  });

  it('print every other record on one line too, its fields after the message; a job says which and how long first', () => {
    let output = '';
    const pretty = logDestination('pretty', { write: (text) => (output += text) }, false);
    pretty.write(`${JSON.stringify({ level: 40, time: '2026-01-01T00:00:00.000Z', reqId: 'r1', msg: 'unavailable' })}\n`);
    pretty.write(
      `${JSON.stringify({ level: 30, time: '2026-01-01T00:00:00.000Z', reqId: 'r2', res: { statusCode: 204 }, responseTime: 1.25, msg: 'request completed' })}\n`,
    );
    pretty.write(
      `${JSON.stringify({ level: 30, time: '2026-01-01T00:00:00.000Z', job: 'purge-deleted-spaces', jobId: 'j1', attempt: 1, ms: 25, purged: 2, msg: 'job done' })}\n`,
    );
    const printed = output.split('\n').filter((line) => line.trim() !== '');
    expect(printed).toEqual([
      expect.stringMatching(/^\[[\d:.]+\] WARN: unavailable \{"reqId":"r1"\}$/),
      expect.stringMatching(/^\[[\d:.]+\] INFO: request 204 1\.3 ms \{"reqId":"r2"\}$/),
      expect.stringMatching(/^\[[\d:.]+\] INFO: job done: purge-deleted-spaces, 25 ms \{"jobId":"j1","attempt":1,"purged":2\}$/),
    ]);
  });

  it("print an error's stack on lines of its own", () => {
    let output = '';
    const pretty = logDestination('pretty', { write: (text) => (output += text) }, false);
    const err = { type: 'Error', message: 'boom', stack: 'Error: boom\n    at here (file.ts:1:1)' };
    pretty.write(`${JSON.stringify({ level: 50, time: '2026-01-01T00:00:00.000Z', err, msg: 'job failed' })}\n`);
    expect(output).toMatch(/ERROR: job failed/);
    expect(output).toContain('Error: boom\n');
    expect(output).toMatch(/\n +at here \(file\.ts:1:1\)/);
  });
});
