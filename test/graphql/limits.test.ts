import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_GRAPHQL_LIMITS } from '../../src/config.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { buildTeam } from '../support/factories.ts';
import { expectData } from '../support/graphql.ts';

/**
 * Documents that would exhaust the server are refused before they run — no SQL
 * beyond authentication — with an error naming the limit; what runs is bounded
 * in time and in the size of its answer. Limits: src/graphql/limits.ts.
 */

let t: TestApp;
let team: Awaited<ReturnType<typeof buildTeam>>;
beforeAll(async () => {
  t = await createTestApp({ responseCacheBytes: 0 });
  team = await buildTeam(t.database);
  for (let i = 0; i < 12; i++) {
    const created = await t.call('POST', `/v1/orgs/${team.organization.id}/spaces`, { token: team.admin.token, body: { title: `Space ${i}` } });
    expect(created.statusCode).toBe(201);
  }
});

/** `organization { spaces(first: 100) { edges { node { organization { spaces … title` nested `levels` times. */
function cycleBomb(levels: number): string {
  let selection = 'title';
  for (let level = 0; level < levels; level++) selection = `organization { spaces(first: 100) { edges { node { ${selection} } } } }`;
  return `query($id: ID!) { space(id: $id) { ${selection} } }`;
}

async function firstSpaceId() {
  const listing = await t.call('GET', `/v1/orgs/${team.organization.id}/spaces?limit=1`, { token: team.admin.token });
  return listing.json().items[0].id as string;
}

const GRAPHQL_RESPONSE = { accept: 'application/graphql-response+json' };

/**
 * Posts a document and checks that it was refused with `status`, having run no SQL
 * but authentication. (A client accepting only application/json gets the same
 * error with HTTP 200, as GraphQL over HTTP says for request errors.)
 */
async function expectRefused(body: unknown, status: number, message: RegExp) {
  // This instance's own writes are heard back first (PostgreSQL), not counted below.
  await t.database.generations.barrier();
  const before = t.statements();
  const response = await t.call('POST', '/graphql', { token: team.admin.token, body, headers: GRAPHQL_RESPONSE });
  expect(t.statements() - before, 'SQL statements beyond authentication').toBeLessThanOrEqual(1);
  expect(response.statusCode, response.body).toBe(status);
  const errors = response.json().errors as Array<{ message: string; extensions: { code: number } }>;
  expect(errors.map((error) => error.message).join('\n')).toMatch(message);
  expect(errors[0]!.extensions.code).toBe(status);
  expect(response.json().data ?? null).toBeNull();
  return response;
}

describe('documents refused before they run', () => {
  it('refuses the 13-level cycle of organization and spaces by its depth', async () => {
    const query = cycleBomb(13);
    expect(query.length).toBeGreaterThan(700);
    await expectRefused({ query, variables: { id: await firstSpaceId() } }, 400, /Query depth limit of 20 exceeded, found 54/);
  });

  it('refuses a shallower cycle by its cost: connections count at their first/last', async () => {
    // Depth 18, within the depth limit; 100 spaces of 100 spaces of 100 spaces…
    await expectRefused({ query: cycleBomb(4), variables: { id: await firstSpaceId() } }, 400, /Query cost \d+ exceeds the limit of 250000: .*first\/last/);
    // Without first, a connection counts its default page size.
    const query = `query($id: ID!) { organization(id: $id) { spaces { edges { node { organization { spaces { edges { node { organization { spaces { edges { node { title } } } } } } } } } } } } }`;
    await expectRefused({ query, variables: { id: team.organization.id } }, 400, /Query cost \d+ exceeds the limit of 250000/);
    // The first of a variable counts too.
    const sized = `query($id: ID!, $n: Int) { organization(id: $id) { spaces(first: $n) { edges { node { organization { spaces(first: $n) { edges { node { organization { spaces(first: $n) { edges { node { title } } } } } } } } } } } } }`;
    await expectRefused({ query: sized, variables: { id: team.organization.id, n: 1000 } }, 400, /exceeds the limit/);
    const small = await t.graphql(team.admin.token, sized, { id: team.organization.id, n: 3 });
    expect(expectData(small).organization.spaces.edges).toHaveLength(3);
  });

  it('refuses too many aliases, directives or tokens', async () => {
    const aliases = Array.from({ length: 40 }, (_, i) => `a${i}: viewer { user { id } }`).join(' ');
    await expectRefused({ query: `{ ${aliases} }` }, 400, /Aliases limit of 30 exceeded, found 40/);
    const directives = Array.from({ length: 40 }, () => '@include(if: true)').join(' ');
    await expectRefused({ query: `{ viewer ${directives} { user { id } } }` }, 400, /Directives limit of 30 exceeded, found 40/);
    const fields = Array.from({ length: 6000 }, () => 'id').join(' ');
    await expectRefused({ query: `{ viewer { user { ${fields} } } }` }, 400, /Token limit of 5000 exceeded/);
  });

  it('answers documents of thousands of nested selections with a 400, not a crash', async () => {
    const nested = (levels: number) => `${'{ a '.repeat(levels)}${'}'.repeat(levels)}`;
    // The parser recurses: depending on the stack left, it stops at the token limit or overflows first.
    await expectRefused({ query: nested(5000) }, 400, /Token limit of 5000 exceeded|the document is nested too deeply/);
    await expectRefused({ query: nested(30_000) }, 400, /Token limit of 5000 exceeded|the document is nested too deeply/);
    await expectRefused({ query: nested(1600) }, 400, /Query depth limit of 20 exceeded, found 1600/);
  });

  it('gives clients that accept only application/json the same error, with HTTP 200', async () => {
    const response = await t.call('POST', '/graphql', { token: team.admin.token, body: { query: cycleBomb(13), variables: { id: 'spc_x' } } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      errors: [{ message: 'Syntax Error: Query depth limit of 20 exceeded, found 54.', extensions: { code: 400 } }],
    });
  });

  it('refuses batched operations (an array of requests)', async () => {
    const response = await t.call('POST', '/graphql', {
      token: team.admin.token,
      body: [{ query: '{ viewer { user { id } } }' }, { query: '{ viewer { user { id } } }' }],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].message).toMatch(/batch/i);
  });

  it('lets a heavy but legitimate tree through, and the next request answers as usual', async () => {
    const tree = expectData(
      await t.graphql(
        team.admin.token,
        `query($id: ID!) { organization(id: $id) { spaces(first: 20) { totalCount edges { node { title organization { spaces(first: 20) { edges { node { title } } } } } } } } }`,
        { id: team.organization.id },
      ),
    );
    expect(tree.organization.spaces.totalCount).toBe(12);
    expect(tree.organization.spaces.edges[0].node.organization.spaces.edges).toHaveLength(12);
  });

  it('keeps memory flat and other requests answered while bombs arrive', async () => {
    const id = await firstSpaceId();
    global.gc?.();
    const before = process.memoryUsage().heapUsed;
    const bombs = Array.from({ length: 50 }, (_, i) =>
      t.call('POST', '/graphql', { token: team.admin.token, body: { query: cycleBomb(i % 2 ? 13 : 4), variables: { id } }, headers: GRAPHQL_RESPONSE }),
    );
    const meanwhile = t.call('GET', `/v1/orgs/${team.organization.id}`, { token: team.admin.token });
    const responses = await Promise.all(bombs);
    expect(responses.every((response) => response.statusCode === 400)).toBe(true);
    expect((await meanwhile).statusCode).toBe(200);
    global.gc?.();
    // Each refusal holds a few kilobytes at most; one executed bomb would hold megabytes.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(32 * 1024 * 1024);
  });
});

describe('what runs is bounded', () => {
  it('stops an execution that takes longer than the time limit, with a 503', async () => {
    // Executed field by field (compiled reads off: one statement can answer this tree within 1 ms on a fast
    // machine, and the direct path is bounded by the same limit): every level waits for the database, longer than 1 ms in all.
    const slow = await createTestApp({ responseCacheBytes: 0, compiledReads: 'off', graphqlLimits: { ...DEFAULT_GRAPHQL_LIMITS, timeoutMs: 1 } });
    const response = await slow.call('POST', '/graphql', {
      token: team.admin.token,
      body: {
        query: `query($id: ID!) { organization(id: $id) { spaces(first: 12) { edges { node { organization { spaces(first: 12) { edges { node { title } } } } } } } } }`,
        variables: { id: team.organization.id },
      },
    });
    expect(response.statusCode, response.body).toBe(503);
    expect(response.json().errors[0]).toMatchObject({
      message: 'Query execution took longer than 1 ms and was stopped: ask for less',
      extensions: { code: 503 },
    });
  });

  it('replaces an answer above the size limit with a 413', async () => {
    const small = await createTestApp({ graphqlLimits: { ...DEFAULT_GRAPHQL_LIMITS, maxResponseBytes: 1000 } });
    const response = await small.call('POST', '/graphql', {
      token: team.admin.token,
      body: {
        query: `query($id: ID!) { organization(id: $id) { spaces(first: 12) { edges { node { id title createdAt } } } } }`,
        variables: { id: team.organization.id },
      },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      errors: [{ message: expect.stringMatching(/^The answer is \d+ bytes, above the limit of 1000: ask for fewer items/), extensions: { code: 413 } }],
    });
    const fits = await small.call('POST', '/graphql', { token: team.admin.token, body: { query: '{ viewer { user { id } } }' } });
    expect(fits.statusCode).toBe(200);
  });
});
