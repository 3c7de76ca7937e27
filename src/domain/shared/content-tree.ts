import type { RequestContext } from '../../context.ts';
import type { CollectionRecord, MemberRecord, SpaceRecord } from '../../db/index.ts';
import { invalid } from '../../errors.ts';
import { generateNKeysBetween } from 'fractional-indexing';
import { keyBetween } from '../../lib/ordering.ts';
import { serializeOn } from '../transaction.ts';
import { type Role, activeMember, asRole, contentLevel, effectiveLevel, readsContent } from '../access.ts';
import { grantedOn, memberGrants } from '../permissions/grants.ts';
import { defineRecordLoader, loader } from '../loaders.ts';
import { organizationAccess } from '../organizations/service.ts';
import type { ContentPosition } from './schemas.ts';

/**
 * The content tree of an organization: collections nest, and collections and
 * spaces share one sibling order under each parent (null is the root).
 */

export const collectionRecords = defineRecordLoader((ctx, ids) => ctx.db.collection.findMany({ where: { id: { in: ids } } }));

/** Collections from `collectionId` up to the root, nearest first. */
export async function ancestry(ctx: RequestContext, collectionId: string | null): Promise<CollectionRecord[]> {
  const chain: CollectionRecord[] = [];
  let next = collectionId;
  while (next) {
    const collection = await loader(ctx, collectionRecords).load(next);
    if (!collection || chain.some((seen) => seen.id === collection.id)) break;
    chain.push(collection);
    next = collection.parentId;
  }
  return chain;
}

/** A collection or a space, as far as levels go. */
export interface ContentNode {
  kind: 'space' | 'collection';
  id: string;
  organizationId: string;
  defaultLevel: string | null;
  parentId: string | null;
}

/** A collection as a node of the content tree. */
export const collectionNode = (collection: CollectionRecord): ContentNode => ({ kind: 'collection', ...pickNode(collection) });

/** A space as a node of the content tree. */
export const spaceNode = (space: SpaceRecord): ContentNode => ({ kind: 'space', ...pickNode(space) });

const pickNode = (row: { id: string; organizationId: string; defaultLevel: string | null; parentId: string | null }) => ({
  id: row.id,
  organizationId: row.organizationId,
  defaultLevel: row.defaultLevel,
  parentId: row.parentId,
});

/** The viewer's level on a collection or a space (src/domain/access.ts effectiveLevel). */
export async function levelOn(ctx: RequestContext, content: ContentNode): Promise<Role | null> {
  const { member } = await organizationAccess(ctx, content.organizationId);
  return memberLevelOn(ctx, member, content);
}

/**
 * A member's level on a collection or a space: the organization role with the
 * default levels, raised by what is granted on the content and on the
 * collections above it, to the member or its teams (src/domain/access.ts effectiveLevel).
 */
export async function memberLevelOn(ctx: RequestContext, member: MemberRecord | null, content: ContentNode): Promise<Role | null> {
  if (!activeMember(member)) return null;
  const levels = readsContent(member) ? await defaultLevelsOn(ctx, member, content) : [];
  const base = contentLevel(member, levels);
  if (base === 'admin') return base;
  const grants = await memberGrants(ctx, member);
  if (grants.spaces.size === 0 && grants.collections.size === 0) return base;
  // Collection grants reach everything below: the whole chain of parents counts.
  const above = grants.collections.size ? (await ancestry(ctx, content.parentId)).map((collection) => collection.id) : [];
  return effectiveLevel(member, levels, grantedOn(grants, content, above));
}

/** The default levels from the content up to the first explicit one. */
async function defaultLevelsOn(ctx: RequestContext, member: MemberRecord, content: ContentNode): Promise<Array<string | null>> {
  if (asRole(member.role) === 'admin') return [];
  const levels: Array<string | null> = [content.defaultLevel];
  let next = content.defaultLevel == null ? content.parentId : null;
  while (next) {
    const collection = await loader(ctx, collectionRecords).load(next);
    if (!collection) break;
    levels.push(collection.defaultLevel);
    next = collection.defaultLevel == null ? collection.parentId : null;
  }
  return levels;
}

interface Sibling {
  id: string;
  position: string;
}

const bySiblingOrder = (a: Sibling, b: Sibling) => (a.position === b.position ? (a.id < b.id ? -1 : 1) : a.position < b.position ? -1 : 1);

/**
 * The sibling next to `from` on one side (collections and spaces together),
 * or the last/first one when `from` is undefined.
 */
async function neighbour(
  ctx: RequestContext,
  scope: { organizationId: string; parentId: string | null; excludeId: string | undefined },
  side: 'below' | 'above',
  from?: Sibling,
): Promise<Sibling | undefined> {
  const operator = side === 'below' ? 'lt' : 'gt';
  const direction = side === 'below' ? 'desc' : 'asc';
  const where = {
    organizationId: scope.organizationId,
    parentId: scope.parentId,
    ...(scope.excludeId ? { id: { not: scope.excludeId } } : {}),
    ...(from
      ? {
          OR: [{ position: { [operator]: from.position } }, { position: from.position, id: { [operator]: from.id } }],
        }
      : {}),
  };
  const args = { where, orderBy: [{ position: direction }, { id: direction }], select: { id: true, position: true } };
  const [collection, space] = await Promise.all([
    ctx.db.collection.findFirst(args as never) as Promise<Sibling | null>,
    ctx.db.space.findFirst({ ...args, where: { ...where, deletedAt: null } } as never) as Promise<Sibling | null>,
  ]);
  const found = [collection, space].filter((row): row is Sibling => row !== null).sort(bySiblingOrder);
  return side === 'below' ? found.at(-1) : found[0];
}

/**
 * Writes that place a child under one parent wait for each other (inside their
 * transaction): two concurrent creations or moves would otherwise read the same
 * neighbours and compute the same key.
 */
function lockSiblings(tx: RequestContext, organizationId: string, parentId: string | null) {
  return serializeOn(tx.db, tx.provider, `siblings:${organizationId}:${parentId ?? 'top'}`);
}

/**
 * Gives every child of a parent a distinct key, in their current order: the
 * repair for siblings that share one (written before writes were serialized,
 * or by hand), run under the siblings' lock when a placement meets a tie.
 */
async function rekeySiblings(tx: RequestContext, organizationId: string, parentId: string | null) {
  const where = { organizationId, parentId };
  const select = { id: true, position: true } as const;
  const [collections, spaces] = await Promise.all([
    tx.db.collection.findMany({ where, select }),
    tx.db.space.findMany({ where: { ...where, deletedAt: null }, select }),
  ]);
  const siblings = [...collections.map((row) => ({ ...row, kind: 'collection' as const })), ...spaces.map((row) => ({ ...row, kind: 'space' as const }))];
  siblings.sort(bySiblingOrder);
  const keys = generateNKeysBetween(null, null, siblings.length);
  for (const [index, sibling] of siblings.entries()) {
    const data = { position: keys[index]! };
    if (sibling.kind === 'collection') await tx.db.collection.update({ where: { id: sibling.id }, data });
    else await tx.db.space.update({ where: { id: sibling.id }, data });
  }
}

/** Ordering key at the end of a parent's children (`tx`: a transaction, whose end releases the siblings' lock). */
export async function endPosition(ctx: RequestContext, organizationId: string, parentId: string | null) {
  await lockSiblings(ctx, organizationId, parentId);
  const last = await neighbour(ctx, { organizationId, parentId, excludeId: undefined }, 'below');
  return keyBetween(last?.position ?? null, null);
}

/**
 * Ordering key for `movingId` placed under `parentId` at `position` (the end when
 * absent). `before`/`after` must name siblings under that parent. Reads at most
 * four rows and writes none (unless it finds siblings sharing a key, which it
 * repairs first): the caller updates the moving row only. `ctx` must be a
 * transaction: it holds the siblings' lock until it ends.
 */
export async function positionAmongSiblings(
  ctx: RequestContext,
  organizationId: string,
  parentId: string | null,
  position: ContentPosition | undefined,
  movingId?: string,
): Promise<string> {
  await lockSiblings(ctx, organizationId, parentId);
  const placed = await placeAmongSiblings(ctx, organizationId, parentId, position, movingId);
  if (placed !== null) return placed;
  await rekeySiblings(ctx, organizationId, parentId);
  return (await placeAmongSiblings(ctx, organizationId, parentId, position, movingId))!;
}

/** The key between the neighbours `position` names, or null when they share one (a tie to repair). */
async function placeAmongSiblings(
  ctx: RequestContext,
  organizationId: string,
  parentId: string | null,
  position: ContentPosition | undefined,
  movingId?: string,
): Promise<string | null> {
  const scope = { organizationId, parentId, excludeId: movingId };
  const pointed = async (name: 'before' | 'after'): Promise<Sibling | undefined> => {
    const pointer = position?.[name];
    if (!pointer) return undefined;
    const id = pointer.type === 'space' ? pointer.space : pointer.collection;
    const where = { id, organizationId, parentId };
    const row =
      id === movingId
        ? null
        : pointer.type === 'space'
          ? await ctx.db.space.findFirst({ where: { ...where, deletedAt: null }, select: { id: true, position: true } })
          : await ctx.db.collection.findFirst({ where, select: { id: true, position: true } });
    if (!row) throw invalid(`position.${name}: ${pointer.type} "${id}" is not a sibling under the target parent`);
    return row;
  };
  const [before, after] = await Promise.all([pointed('before'), pointed('after')]);
  let lower: Sibling | undefined;
  let upper: Sibling | undefined;
  if (after && before) {
    if (bySiblingOrder(after, before) >= 0) throw invalid('position: "after" must come before "before" among the siblings');
    [lower, upper] = [after, before];
  } else if (after) {
    [lower, upper] = [after, await neighbour(ctx, scope, 'above', after)];
  } else if (before) {
    [lower, upper] = [await neighbour(ctx, scope, 'below', before), before];
  } else {
    lower = await neighbour(ctx, scope, 'below');
  }
  if (lower && upper && lower.position >= upper.position) return null;
  return keyBetween(lower?.position, upper?.position);
}
