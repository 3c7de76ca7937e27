import { z } from 'zod';
import type { RequestContext } from '../../context.ts';
import { invalid, notFound } from '../../errors.ts';
import { parseInput } from '../../lib/validation.ts';
import { moveSectionGroup } from './section-groups.ts';
import { moveSection } from './sections.ts';
import { moveSiteSpace } from './site-spaces.ts';

/**
 * `sortSiteStructure`: moves a site space, a section or a section group among
 * its siblings (the official body: `item`, and `position` before and/or after
 * a sibling; the end when neither is given). It is the move operation of the
 * item's kind (moveSiteSpace, moveSiteSection, moveSiteSectionGroup), with the
 * same rules, errors and audit entry. Sites here have no external links.
 */

const pointer = z.strictObject({
  type: z.enum(['site-space', 'site-section', 'site-section-group', 'site-external-link']),
  id: z.string().min(1).max(100),
});
export const SortSiteStructureInput = z.strictObject({
  item: pointer,
  position: z.strictObject({ before: pointer.optional(), after: pointer.optional() }),
});

type Pointer = z.infer<typeof pointer>;

export async function sortSiteStructure(ctx: RequestContext, organizationId: string, siteId: string, body: unknown) {
  const { item, position } = parseInput(SortSiteStructureInput, body);
  if (item.type === 'site-external-link') throw notFound('Site external link', item.id);
  // Siblings of a site space are site spaces; a top-level section's are sections and groups.
  const allowed: Record<Exclude<Pointer['type'], 'site-external-link'>, Array<Pointer['type']>> = {
    'site-space': ['site-space'],
    'site-section': ['site-section', 'site-section-group'],
    'site-section-group': ['site-section', 'site-section-group'],
  };
  for (const side of ['before', 'after'] as const) {
    const sibling = position[side];
    if (sibling && !allowed[item.type].includes(sibling.type)) {
      throw invalid(`position.${side}.type: a ${item.type} moves among entries of type ${allowed[item.type].join(' or ')}, not ${sibling.type}`);
    }
  }
  switch (item.type) {
    case 'site-space': {
      const to = (sibling?: Pointer) => (sibling ? { type: 'site-space', siteSpace: sibling.id } : undefined);
      return moveSiteSpace(ctx, organizationId, siteId, item.id, { position: { before: to(position.before), after: to(position.after) } });
    }
    case 'site-section': {
      // A top-level section is placed among sections and groups by their ids alike.
      const to = (sibling?: Pointer) => (sibling ? { type: 'site-section', siteSection: sibling.id } : undefined);
      return moveSection(ctx, organizationId, siteId, item.id, { position: { before: to(position.before), after: to(position.after) } });
    }
    case 'site-section-group':
      return moveSectionGroup(ctx, organizationId, siteId, item.id, { position });
  }
}
