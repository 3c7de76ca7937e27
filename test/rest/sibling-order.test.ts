import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { buildTeam } from '../support/factories.ts';

/**
 * Collections and spaces share one order under each parent. Concurrent
 * creations and moves once left siblings sharing a key on PostgreSQL, and moves
 * next to them then failed with 409 forever; writes under one parent now wait
 * for each other, and a tie found anyway is repaired.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

async function siblingKeys(organizationId: string, parentId: string | null) {
  const where = { organizationId, parentId };
  const rows = [
    ...(await t.database.db.collection.findMany({ where, select: { id: true, position: true } })),
    ...(await t.database.db.space.findMany({ where: { ...where, deletedAt: null }, select: { id: true, position: true } })),
  ];
  return rows.sort((a, b) => (a.position === b.position ? (a.id < b.id ? -1 : 1) : a.position < b.position ? -1 : 1));
}

function expectDistinct(rows: Array<{ position: string }>) {
  expect(new Set(rows.map((row) => row.position)).size).toBe(rows.length);
}

describe('sibling order under concurrency', () => {
  it('gives spaces created at once each their own key', async () => {
    const { organization, admin } = await buildTeam(t.database);
    for (let round = 0; round < 3; round++) {
      const created = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          t.call('POST', `/v1/orgs/${organization.id}/spaces`, { token: admin.token, body: { title: `Space ${round}.${index}` } }),
        ),
      );
      expect(created.map((response) => response.statusCode)).toEqual(Array(10).fill(201));
    }
    const siblings = await siblingKeys(organization.id, null);
    expect(siblings).toHaveLength(30);
    expectDistinct(siblings);
  });

  it('keeps a total order through concurrent moves, and every move next to any sibling still succeeds', async () => {
    const { organization, admin } = await buildTeam(t.database);
    const parent = (await t.call('POST', `/v1/orgs/${organization.id}/collections`, { token: admin.token, body: { title: 'Parent' } })).json();
    const children: string[] = [];
    for (let index = 0; index < 20; index++) {
      const child = await t.call('POST', `/v1/orgs/${organization.id}/collections`, {
        token: admin.token,
        body: { title: `Child ${index}`, parent: parent.id },
      });
      children.push(child.json().id);
    }
    // Half of them to the end, half before the first: concurrent moves that read the same neighbours.
    const moves = await Promise.all(
      children.slice(1).map((moving, index) =>
        t.call('POST', `/v1/collections/${moving}/move`, {
          token: admin.token,
          body: { position: index % 2 ? { before: { type: 'collection', collection: children[0] } } : {} },
        }),
      ),
    );
    expect(moves.map((response) => response.statusCode)).toEqual(Array(19).fill(200));
    expectDistinct(await siblingKeys(organization.id, parent.id));
    for (const target of children.slice(1, 8)) {
      const moved = await t.call('POST', `/v1/collections/${children[0]}/move`, {
        token: admin.token,
        body: { position: { before: { type: 'collection', collection: target } } },
      });
      expect(moved.statusCode, moved.body).toBe(200);
      const order = (await siblingKeys(organization.id, parent.id)).map((row) => row.id);
      expect(order.indexOf(children[0]!)).toBe(order.indexOf(target) - 1);
    }
  });

  it('repairs siblings that share a key when a move meets them, keeping their order', async () => {
    const { organization, admin } = await buildTeam(t.database);
    const ids: string[] = [];
    for (let index = 0; index < 4; index++) {
      ids.push((await t.call('POST', `/v1/orgs/${organization.id}/spaces`, { token: admin.token, body: { title: `Space ${index}` } })).json().id);
    }
    // Three siblings sharing one key, as concurrent writes once left them.
    await t.database.db.space.updateMany({ where: { id: { in: ids.slice(0, 3) } }, data: { position: 'a5' } });
    const tiedOrder = (await siblingKeys(organization.id, null)).map((row) => row.id).filter((id) => id !== ids[3]);

    const moved = await t.call('POST', `/v1/spaces/${ids[3]}/move`, {
      token: admin.token,
      body: { position: { before: { type: 'space', space: tiedOrder[1] } } },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const after = await siblingKeys(organization.id, null);
    expectDistinct(after);
    expect(after.map((row) => row.id)).toEqual([tiedOrder[0], ids[3], tiedOrder[1], tiedOrder[2]]);
  });
});
