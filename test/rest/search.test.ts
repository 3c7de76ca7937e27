import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { DAY, timeTravel } from '../support/clock.ts';
import { buildTeam } from '../support/factories.ts';
import { expectError } from '../support/http.ts';
import { purgeDeletedSpaces } from '../../src/domain/spaces/purge.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
const travel = timeTravel(() => t);

/** A space whose live content is these pages (written through a merged change request). */
async function spaceWith(team: Awaited<ReturnType<typeof buildTeam>>, title: string, pages: Array<{ title: string; markdown: string }>) {
  const { admin, organization } = team;
  const space = (await t.call('POST', `/v1/orgs/${organization.id}/spaces`, { token: admin.token, body: { title } })).json();
  const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: admin.token, body: {} })).json();
  const changes = pages.map((page) => ({ operation: 'insert_page', title: page.title, document: { markdown: page.markdown } }));
  const edited = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { token: admin.token, body: { changes } });
  expect(edited.statusCode, edited.body).toBe(200);
  expect((await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`, { token: admin.token })).statusCode).toBe(200);
  return space;
}

const search = (token: string, path: string) => t.call('GET', path, { token });

describe('search', () => {
  it('finds pages of the live content by title, heading and body, ranked, with the sections that matched', async () => {
    const team = await buildTeam(t.database);
    const space = await spaceWith(team, 'Guide', [
      { title: 'Installation', markdown: 'How to set up the tool.\n\n## Upgrading\n\nRun the installer again to upgrade.\n' },
      { title: 'Configuration', markdown: 'Settings live in a file.\n\n## Proxies\n\nBehind a proxy, installation needs `HTTPS_PROXY`.\n' },
      { title: 'Changelog', markdown: 'Nothing about it.\n' },
    ]);
    const response = await search(team.admin.token, `/v1/spaces/${space.id}/search?query=install`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expectMatchesSchema('GET', '/v1/spaces/{spaceId}/search', 200, body);
    expect(body.items.map((item: { title: string }) => item.title)).toEqual(['Installation', 'Configuration']);
    expect(body.count).toBe(2);
    const [installation, configuration] = body.items;
    expect(installation).toMatchObject({ path: 'installation', rank: 1, resultType: 'page' });
    expect(installation.score).toBeGreaterThan(configuration.score);
    expect(configuration.sections).toEqual([
      expect.objectContaining({ id: 'proxies', title: 'Proxies', path: 'configuration#proxies', body: expect.stringContaining('installation needs') }),
    ]);

    const twoWords = (await search(team.admin.token, `/v1/spaces/${space.id}/search?query=${encodeURIComponent('upgrade installer')}`)).json();
    expect(twoWords.items.map((item: { title: string }) => item.title)).toEqual(['Installation']);
    expect((await search(team.admin.token, `/v1/spaces/${space.id}/search?query=${encodeURIComponent('"); DROP TABLE spaces; --')}`)).statusCode).toBe(200);
  });

  it('pages through results with tokens bound to the query, and validates the query', async () => {
    const team = await buildTeam(t.database);
    const space = await spaceWith(
      team,
      'Many',
      Array.from({ length: 5 }, (_, index) => ({ title: `Widget ${index}`, markdown: 'About widgets.\n' })),
    );
    const first = (await search(team.admin.token, `/v1/spaces/${space.id}/search?query=widget&limit=2`)).json();
    expect(first.items).toHaveLength(2);
    const second = (await search(team.admin.token, `/v1/spaces/${space.id}/search?query=widget&limit=2&page=${first.next.page}`)).json();
    expect(second.items).toHaveLength(2);
    expect(new Set([...first.items, ...second.items].map((item: { id: string }) => item.id)).size).toBe(4);
    const otherQuery = await search(team.admin.token, `/v1/spaces/${space.id}/search?query=about&page=${first.next.page}`);
    expect(otherQuery.statusCode).toBe(400);
    expect(otherQuery.json().error.message).toMatch(/^page: /);
    for (const [query, message] of [
      ['', /^query: /],
      [`query=${'a'.repeat(513)}`, /^query: /],
      ['query=x&limit=0', /^limit: /],
    ] as const) {
      const response = await search(team.admin.token, `/v1/spaces/${space.id}/search?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error.message).toMatch(message);
    }
  });

  it('follows the live content: unmerged edits are not found, merged ones replace the old text', async () => {
    const team = await buildTeam(t.database);
    const { admin } = team;
    const space = await spaceWith(team, 'Live', [{ title: 'Notes', markdown: 'The old wording.\n' }]);
    const pageId = (await search(admin.token, `/v1/spaces/${space.id}/search?query=wording`)).json().items[0].id;
    const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: admin.token, body: {} })).json();
    await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
      token: admin.token,
      body: { changes: [{ operation: 'update_page', page: pageId, document: { markdown: 'The fresh phrasing.\n' } }] },
    });
    expect((await search(admin.token, `/v1/spaces/${space.id}/search?query=phrasing`)).json().count).toBe(0);
    await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`, { token: admin.token });
    expect((await search(admin.token, `/v1/spaces/${space.id}/search?query=phrasing`)).json().count).toBe(1);
    expect((await search(admin.token, `/v1/spaces/${space.id}/search?query=wording`)).json().count).toBe(0);
  });

  it('searches an organization, grouped by space; guests are refused, strangers find no organization', async () => {
    const team = await buildTeam(t.database);
    const guide = await spaceWith(team, 'Guide', [{ title: 'Deploying', markdown: 'Deploy with one command.\n' }]);
    const runbooks = await spaceWith(team, 'Runbooks', [{ title: 'Rollback', markdown: 'When a deploy fails, roll back.\n' }]);
    const response = await search(team.admin.token, `/v1/orgs/${team.organization.id}/search?query=deploy`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expectMatchesSchema('GET', '/v1/orgs/{organizationId}/search', 200, body);
    expect(body.items.map((item: { id: string }) => item.id).sort()).toEqual([guide.id, runbooks.id].sort());
    expect(body.items[0]).toMatchObject({ type: 'space', pages: [expect.objectContaining({ title: expect.any(String) })] });
    const guest = await team.member(null);
    expectError(
      await search(guest.token, `/v1/orgs/${team.organization.id}/search?query=deploy`),
      403,
      "You are not allowed to search this organization's content",
    );
    const stranger = (await buildTeam(t.database)).admin;
    expect((await search(stranger.token, `/v1/orgs/${team.organization.id}/search?query=deploy`)).statusCode).toBe(404);
    expect((await search(stranger.token, `/v1/spaces/${guide.id}/search?query=deploy`)).statusCode).toBe(404);
  });

  it('drops the index of a space when the space is purged, and hides it from search while deleted', async () => {
    const team = await buildTeam(t.database);
    const space = await spaceWith(team, 'Doomed', [{ title: 'Ephemeral', markdown: 'Gone soon.\n' }]);
    const indexed = () => t.database.db.$queryRaw<Array<{ n: number | bigint }>>`SELECT COUNT(*) AS n FROM "search_sections" WHERE "spaceId" = ${space.id}`;
    expect(Number((await indexed())[0]!.n)).toBeGreaterThan(0);
    expect((await t.call('DELETE', `/v1/spaces/${space.id}`, { token: team.admin.token })).statusCode).toBe(205);
    const hidden = await search(team.admin.token, `/v1/orgs/${team.organization.id}/search?query=ephemeral`);
    expect(hidden.json().count).toBe(0);
    travel(8 * DAY);
    await purgeDeletedSpaces(t.database.db, t.clock);
    expect(Number((await indexed())[0]!.n)).toBe(0);
  });
});

describe('cost of a merge', () => {
  it('does not grow with the number of pages merged and indexed', async () => {
    const team = await buildTeam(t.database);
    const statementsFor = async (count: number) => {
      const { admin, organization } = team;
      const space = (await t.call('POST', `/v1/orgs/${organization.id}/spaces`, { token: admin.token, body: {} })).json();
      const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: admin.token, body: {} })).json();
      const changes = Array.from({ length: count }, (_, index) => ({
        operation: 'insert_page',
        title: `Page ${index}`,
        document: { markdown: `Body ${index}.\n\n## Part\n\nMore ${index}.\n` },
      }));
      // This instance's own writes are heard back first (PostgreSQL), not counted below.
      await t.database.generations.barrier();
      const before = t.statements();
      await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { token: admin.token, body: { changes } });
      const edit = t.statements() - before;
      const beforeMerge = t.statements();
      expect((await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`, { token: admin.token })).statusCode).toBe(200);
      return { edit, merge: t.statements() - beforeMerge };
    };
    // The least of two runs each: on PostgreSQL a run may pay one statement for news of another write
    // arriving in its window (the viewer read again); growth with the pages would show in both.
    const least = async (count: number) => {
      const [one, two] = [await statementsFor(count), await statementsFor(count)];
      return { edit: Math.min(one.edit, two.edit), merge: Math.min(one.merge, two.merge) };
    };
    const small = await least(3);
    const large = await least(40);
    expect(large.edit).toBe(small.edit);
    // Within one statement either way (under a loaded PostgreSQL either merge may meet one more piece of background news); 37 more pages would cost dozens.
    expect(Math.abs(large.merge - small.merge)).toBeLessThanOrEqual(1);
  });
});
