import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { buildTeam } from '../support/factories.ts';

/**
 * Writes that race each other, on both databases: every acknowledged write is
 * kept, invariants hold, and a refused write is a 4xx, never a 500.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

describe('concurrent writes', () => {
  it('never leave an organization without an admin, however many demotions race', async () => {
    const { organization, admin, member } = await buildTeam(t.database);
    const admins = [admin, await member('admin'), await member('admin')];
    // Each admin demotes every admin (itself included) at once.
    const demotions = await Promise.all(
      admins.flatMap((actor) =>
        admins.map((target) => t.call('PATCH', `/v1/orgs/${organization.id}/members/${target.id}`, { token: actor.token, body: { role: 'read' } })),
      ),
    );
    for (const response of demotions) expect([200, 403, 409], response.body).toContain(response.statusCode);
    expect(demotions.some((response) => response.statusCode === 409)).toBe(true);
    const remaining = await t.database.db.member.count({ where: { organizationId: organization.id, role: 'admin' } });
    expect(remaining).toBeGreaterThanOrEqual(1);
  });

  it('apply concurrent content batches to one change request one after the other, losing none', async () => {
    const { organization, admin } = await buildTeam(t.database);
    const space = (await t.call('POST', `/v1/orgs/${organization.id}/spaces`, { token: admin.token, body: { title: 'Racing' } })).json();
    const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: admin.token, body: {} })).json();
    const batches = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
          token: admin.token,
          body: { changes: [{ operation: 'insert_page', title: `Page ${index}`, document: { markdown: `Body ${index}\n` } }] },
        }),
      ),
    );
    expect(batches.map((response) => response.statusCode)).toEqual(Array(10).fill(200));
    const pages = (await t.call('GET', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content/pages`, { token: admin.token })).json().pages;
    expect(pages.map((page: { title: string }) => page.title).sort()).toEqual(Array.from({ length: 10 }, (_, index) => `Page ${index}`).sort());
    // Ten batches, ten revisions in one chain: each built on the one before.
    const revisions = await t.database.db.revision.findMany({ where: { spaceId: space.id }, select: { id: true, parents: true } });
    const byId = new Map(revisions.map((revision) => [revision.id, revision]));
    let chain = 0;
    for (let id: string | undefined = (await t.database.db.changeRequest.findUniqueOrThrow({ where: { id: changeRequest.id } })).revisionId; id; ) {
      chain++;
      id = (byId.get(id)?.parents as string[] | undefined)?.[0];
    }
    expect(chain).toBe(11);
  });
});
