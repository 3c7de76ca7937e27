import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { buildTeam } from '../support/factories.ts';
import { rawRequest } from '../support/http.ts';

/**
 * Requests as a raw socket sends them, for what HTTP clients differ on. (Host
 * headers that make no URL: test/cli/serve.test.ts, on the production bundle.)
 */

let t: TestApp;
let team: Awaited<ReturnType<typeof buildTeam>>;
beforeAll(async () => {
  t = await createTestApp();
  team = await buildTeam(t.database);
});

const raw = async (request: string) => rawRequest(Number(new URL(await t.listen()).port), request);

describe('Host headers', () => {
  it('may be left out (HTTP/1.0): GraphQL and REST answer', async () => {
    const query = JSON.stringify({ query: '{ viewer { user { id } } }' });
    const graphql = await raw(
      `POST /graphql HTTP/1.0\r\nAuthorization: Bearer ${team.admin.token}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(query)}\r\n\r\n${query}`,
    );
    expect(graphql.status, graphql.body).toBe(200);
    expect(JSON.parse(graphql.body)).toEqual({ data: { viewer: { user: { id: team.admin.id } } } });

    const rest = await raw(`GET /v1/user HTTP/1.0\r\nAuthorization: Bearer ${team.admin.token}\r\n\r\n`);
    expect(rest.status, rest.body).toBe(200);
    expect(JSON.parse(rest.body)).toMatchObject({ id: team.admin.id });
  });
});
