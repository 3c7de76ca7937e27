import type { RequestContext } from '../../context.ts';
import { loader } from '../../domain/loaders.ts';
import type { ShareLinkJSON } from '../../domain/sites/presenter.ts';
import { type SectionGroupView, type SectionView, type SiteRecord, type SiteSpaceRecord, siteRecords } from '../../domain/sites/records.ts';
import { sectionGroupById } from '../../domain/sites/section-groups.ts';
import { sectionById } from '../../domain/sites/sections.ts';
import { siteById } from '../../domain/sites/service.ts';
import { siteSpaceById } from '../../domain/sites/site-spaces.ts';
import { builder } from '../builder.ts';
import { loadEach } from '../connection.ts';
import { urlsObject } from './common.ts';

/**
 * What the site type files share (site.ts, site-section.ts, site-section-group.ts,
 * site-space.ts, share-link.ts, published-site.ts): the refs of the types that
 * name one another (a section names its group and site spaces, which name it
 * back), declared here and implemented each in its own file, and the helpers of
 * their mutations. This file imports none of them.
 */

export const PublishedUrls = urlsObject('PublishedUrls', [], ['published']);

// Each type is backed by rows (sections and groups with the filter of their
// audience): fields are computed when a query asks for them, by the functions
// REST's presenters use, and related rows come from per-request loaders.

export const Site = builder.loadableNodeRef<SiteRecord, string>('Site', {
  id: { resolve: (site) => site.id },
  load: (ids, ctx) => loadEach(ids, (id) => siteById(ctx, id)),
});
export const SiteSection = builder.loadableNodeRef<SectionView, string>('SiteSection', {
  id: { resolve: (view) => view.section.id },
  load: (ids, ctx) => loadEach(ids, (id) => sectionById(ctx, id)),
});
export const SiteSectionGroup = builder.loadableNodeRef<SectionGroupView, string>('SiteSectionGroup', {
  id: { resolve: (view) => view.group.id },
  load: (ids, ctx) => loadEach(ids, (id) => sectionGroupById(ctx, id)),
});
export const SiteSpace = builder.loadableNodeRef<SiteSpaceRecord, string>('SiteSpace', {
  id: { resolve: (siteSpace) => siteSpace.id },
  load: (ids, ctx) => loadEach(ids, (id) => siteSpaceById(ctx, id)),
});
export const ShareLink = builder.objectRef<ShareLinkJSON>('ShareLink');

export const siteOf = async (ctx: RequestContext, siteId: string) => (await loader(ctx, siteRecords).load(siteId))!;

export const orgAndSite = (site: SiteRecord) => [site.organizationId, site.id] as const;

type InputBuilder = PothosSchemaTypes.InputFieldBuilder<typeof builder.$inferSchemaTypes, 'InputObject'>;
export const siteIdField = (t: InputBuilder) => ({ siteId: t.id({ required: true, description: 'The site' }) });

/*
 * Mutations name what they act on by its own id; the domain services take the
 * REST path. pathOfSite and its siblings (pathOfSection, … in the files of their
 * types) find that path (organization, site), answering a 404 that names the
 * given id when the caller cannot see it.
 */
type SitePath = readonly [organizationId: string, siteId: string];
export const pathOfSite = async (ctx: RequestContext, siteId: string): Promise<SitePath> => orgAndSite(await siteById(ctx, siteId));

export const SitePositionInput = builder.inputType('SitePositionInput', {
  description: 'Place the entry before and/or after sibling entries, given by id; the end when empty',
  fields: (t) => ({
    before: t.id({ description: 'The id of the sibling to place it just before' }),
    after: t.id({ description: 'The id of the sibling to place it just after' }),
  }),
});

export const pointer = (type: string, key: string, position?: { before?: string | null; after?: string | null } | null) =>
  position
    ? {
        position: Object.fromEntries(
          (['before', 'after'] as const).filter((side) => position[side] != null).map((side) => [side, { type, [key]: position[side] }]),
        ),
      }
    : {};

export type FieldBuilder<Shape> = PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, Shape>;
/** The payload of a deletion: the id of what is gone. */
export const deletedPayload = { outputFields: (t: FieldBuilder<{ deletedId: string }>) => ({ deletedId: t.exposeID('deletedId') }) };
