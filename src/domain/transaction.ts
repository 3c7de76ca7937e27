import { type RequestContext, withDb } from '../context.ts';
import type { Db } from '../db/index.ts';
import { Prisma } from '../db/index.ts';
import { conflict } from '../errors.ts';
import { clearLoaders } from './loaders.ts';

/**
 * Runs a write in one database transaction: if anything throws, nothing is kept.
 * Afterwards the request's loader caches are dropped so later reads see the write.
 */
export async function inTransaction<T>(ctx: RequestContext, work: (tx: RequestContext) => Promise<T>): Promise<T> {
  try {
    return await ctx.db.$transaction((tx) => work(withDb(ctx, tx as unknown as Db)), { timeout: 15_000 });
  } catch (error) {
    throw translateConstraintError(error);
  } finally {
    clearLoaders(ctx);
  }
}

/** A unique-constraint violation is a conflict the client caused, not a server error. */
export function translateConstraintError(error: unknown): unknown {
  if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
    return conflict('A resource with the same unique value already exists');
  }
  return error;
}
