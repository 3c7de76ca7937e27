import type { TestApp } from './app.ts';

/**
 * Reads of the database behind the API, to check what a request wrote, or
 * that a refused one wrote nothing. Shared by the REST and GraphQL tests of
 * the same resources.
 */

export const spaceRow = (t: TestApp, id: string) => t.database.db.space.findUnique({ where: { id } });

export const memberRow = (t: TestApp, organizationId: string, userId: string) =>
  t.database.db.member.findUnique({ where: { organizationId_userId: { organizationId, userId } } });

/** Every collection and space (with custom field values) of these organizations: what a failed write must leave alone. */
export async function snapshot(t: TestApp, ...organizationIds: string[]) {
  const { db } = t.database;
  const where = { organizationId: { in: organizationIds } };
  const [collections, spaces] = await Promise.all([
    db.collection.findMany({ where, orderBy: { id: 'asc' } }),
    db.space.findMany({
      where,
      orderBy: { id: 'asc' },
      include: { customFieldValues: { orderBy: { customFieldId: 'asc' } } },
    }),
  ]);
  return { collections, spaces };
}

/** Collections and (not deleted) spaces under one parent, in sibling order (keys compare byte by byte). */
export async function siblings(t: TestApp, organizationId: string, parentId: string | null) {
  const { db } = t.database;
  const select = { id: true, position: true };
  const [collections, spaces] = await Promise.all([
    db.collection.findMany({ where: { organizationId, parentId }, select }),
    db.space.findMany({ where: { organizationId, parentId, deletedAt: null }, select }),
  ]);
  return [...collections, ...spaces]
    .sort((a, b) => (a.position === b.position ? (a.id < b.id ? -1 : 1) : Buffer.compare(Buffer.from(a.position), Buffer.from(b.position))))
    .map((row) => row.id);
}
