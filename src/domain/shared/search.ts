import type { RequestContext } from '../../context.ts';

/**
 * A case-insensitive "contains" condition. SQLite's LIKE already ignores ASCII
 * case; PostgreSQL needs Prisma's insensitive mode (ILIKE).
 */
export function containsText(ctx: RequestContext, text: string) {
  return ctx.provider === 'postgresql' ? { contains: text, mode: 'insensitive' as const } : { contains: text };
}
