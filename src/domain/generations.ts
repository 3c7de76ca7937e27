import type { RequestContext } from '../context.ts';
import { defineLoader, loader } from './loaders.ts';

/**
 * Data generations (prisma/generation-triggers.ts): a version per scope that
 * every write to the scope's rows bumps. The response cache keeps an answer only
 * as long as the generations of everything it was made of stay the same.
 */
const scopeGenerations = defineLoader<string, string>(async (ctx, scopes) => {
  const rows = await ctx.db.dataGeneration.findMany({ where: { scope: { in: [...scopes] } } });
  const versions = new Map(rows.map((row) => [row.scope, String(row.version)]));
  return scopes.map((scope) => versions.get(scope) ?? '0');
});

/**
 * Notes that this request reads an organization the viewer is not a member of
 * (a visitor of its published site): its generation is read now, before its
 * data, so that a cached answer cannot outlive a write made meanwhile.
 */
export function noteForeignScope(ctx: RequestContext, organizationId: string): void {
  if (ctx.foreignScopes && !ctx.foreignScopes.has(organizationId)) {
    ctx.foreignScopes.set(organizationId, loader(ctx, scopeGenerations).load(organizationId));
  }
}

/** A scope's generation read in the same statement as its data (src/domain/sites/published.ts): noteForeignScope reads nothing more. */
export function primeScopeGeneration(ctx: RequestContext, scope: string, version: string | number | null): void {
  loader(ctx, scopeGenerations).prime(scope, version === null ? '0' : String(version));
}

/**
 * Notes that this request read a space (its row, and through it its content):
 * the response cache keeps an answer that read only this space against the
 * space's and its organization's finer scopes (src/http/response-cache.ts).
 */
export function noteSpaceRead(ctx: RequestContext, space: { id: string; organizationId: string }): void {
  ctx.spaceReads?.set(space.id, space.organizationId);
}
