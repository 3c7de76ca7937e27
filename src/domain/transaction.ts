import { type RequestContext, withDb, withoutMembershipSnapshot } from '../context.ts';
import type { Db, Provider } from '../db/index.ts';
import { Prisma } from '../db/index.ts';
import { conflict } from '../errors.ts';
import { clearLoaders } from './loaders.ts';

/**
 * Runs a write in one database transaction: if anything throws, nothing is kept.
 * Afterwards the request's loader caches and the viewer's memberships read at
 * authentication are dropped, so later reads see the write.
 */
export async function inTransaction<T>(ctx: RequestContext, work: (tx: RequestContext) => Promise<T>): Promise<T> {
  try {
    return await ctx.db.$transaction((tx) => work(withDb(ctx, tx as unknown as Db)), { timeout: 15_000 });
  } catch (error) {
    throw translateConstraintError(error);
  } finally {
    clearLoaders(ctx);
    ctx.viewer = withoutMembershipSnapshot(ctx.viewer);
  }
}

/**
 * Constraint violations a client can provoke (usually by racing another write)
 * are conflicts, not server errors: name the field when the driver tells it.
 */
export function translateConstraintError(error: unknown): unknown {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return error;
  const meta = error.meta as { modelName?: string; driverAdapterError?: { cause?: { constraint?: { fields?: string[] } } } };
  switch (error.code) {
    case 'P2002': {
      const fields = meta?.driverAdapterError?.cause?.constraint?.fields;
      return conflict(`${fields?.length ? fields.join(', ') : 'value'}: already used by another ${meta?.modelName ?? 'resource'}`);
    }
    case 'P2003':
      return conflict('A resource this request refers to was removed meanwhile');
    case 'P2025':
      return conflict(`The ${meta?.modelName ?? 'resource'} was changed or removed meanwhile`);
    default:
      return error;
  }
}

/**
 * Serializes the transactions that call it with the same key until they end:
 * a transaction-scoped advisory lock on PostgreSQL; on SQLite the database write
 * lock, taken by a write that changes nothing. Call it first in the transaction:
 * on SQLite a read before it could turn two waiting writers into a deadlock.
 */
export async function serializeOn(db: Db, provider: Provider, key: string): Promise<void> {
  if (provider === 'postgresql') {
    await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${key}))`;
  } else {
    await db.$executeRaw`UPDATE _docs_gateway_migrations SET name = name WHERE 0`;
  }
}
