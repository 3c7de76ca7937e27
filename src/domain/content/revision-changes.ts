import { z } from 'zod';
import type { RequestContext } from '../../context.ts';
import { pageRequestOf } from '../../lib/pagination.ts';
import { parseInput } from '../../lib/validation.ts';
import { type ChangeRequestChanges, ChangesQuery, changesBetween, presentChanges } from '../change-requests/diff.ts';
import { ContentQuery } from './inputs.ts';
import { mergedFromOf, readableRevision } from './service.ts';

/**
 * What a revision changed (the official getRevisionSemanticChanges): the
 * semantic changes from its parent — the revision it was written on, its first
 * parent; a merge's is the space before the merge — to it, as a change
 * request's changes are listed (src/domain/change-requests/diff.ts). A first
 * revision is compared with no content: its pages and files are created.
 */

export const RevisionChangesQuery = z.object({ ...ChangesQuery.shape, ...ContentQuery.shape });

/** The changes of a revision of a space the viewer sees, a page at a time. */
export async function revisionChanges(ctx: RequestContext, spaceId: string, revisionId: string, query: unknown = {}): Promise<ChangeRequestChanges> {
  const { metadata: _metadata, computed: _computed, ...paging } = parseInput(RevisionChangesQuery, query, 'query');
  const { revision } = await readableRevision(ctx, spaceId, revisionId);
  const parent = (revision.parents as string[])[0] ?? null;
  return changesBetween(ctx, { base: parent, head: revision.id }, pageRequestOf(paging), `revision-changes:${revision.id}`);
}

/** As REST answers them (official RevisionSemanticChanges): with `mergedFrom` for a merge, and `base` (the parent) unless it is a first revision. */
export async function getRevisionChanges(ctx: RequestContext, spaceId: string, revisionId: string, query: unknown = {}) {
  const changes = await revisionChanges(ctx, spaceId, revisionId, query);
  const { revision } = await readableRevision(ctx, spaceId, revisionId);
  const [{ base, ...presented }, mergedFrom] = await Promise.all([presentChanges(changes), mergedFromOf(ctx, revision)]);
  return { ...(mergedFrom ? { mergedFrom } : {}), ...presented, ...(base !== null ? { base } : {}) };
}
