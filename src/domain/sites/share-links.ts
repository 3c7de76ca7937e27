import { randomBytes } from 'node:crypto';
import type { AuditFacts } from '../audit/record.ts';
import type { RequestContext } from '../../context.ts';
import type { Prisma } from '../../db/index.ts';
import { notFound } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { type Ordering, type Page, pageRequestOf } from '../../lib/pagination.ts';
import { parseInput } from '../../lib/validation.ts';
import { type ChildListing, countsBy, listChildren, mapPage } from '../shared/pages.ts';
import { inTransaction } from '../transaction.ts';
import { CreateShareLinkInput, ListShareLinksQuery, UpdateShareLinkInput } from './inputs.ts';
import { type ShareLinkJSON, presentShareLink } from './presenter.ts';
import { entryOfVisibleSite, manageableSite } from './records.ts';

/** Share links give visitors of a share-link site access: their secret key is the `shareKey`. Admins manage them. */

type ShareLinkRecord = Prisma.ShareLinkModel;

const byCreation: Ordering<ShareLinkRecord> = {
  name: 'share-links',
  keys: [
    { field: 'createdAt', direction: 'asc', type: 'date', value: (row) => row.createdAt },
    { field: 'id', direction: 'asc', type: 'string', value: (row) => row.id },
  ],
};

const linksOfSite: ChildListing<ShareLinkRecord, null> = {
  name: 'site-share-links',
  ordering: () => byCreation,
  parentOf: (row) => row.siteId,
  findMany: (ctx, siteIds, _filter, args) => ctx.db.shareLink.findMany({ ...args, where: { AND: [{ siteId: { in: siteIds } }, args.where] } }),
  count: async (ctx, siteIds) =>
    countsBy(await ctx.db.shareLink.groupBy({ by: ['siteId'], where: { siteId: { in: siteIds } }, _count: { _all: true } }), 'siteId'),
};

export async function listShareLinks(ctx: RequestContext, organizationId: string, siteId: string, query: unknown): Promise<Page<ShareLinkJSON>> {
  const { site } = await manageableSite(ctx, organizationId, siteId, "manage this site's share links");
  const params = parseInput(ListShareLinksQuery, query, 'query');
  const page = await listChildren(ctx, linksOfSite, siteId, null, pageRequestOf(params));
  return mapPage(page, (link) => presentShareLink(link, site, ctx.urls));
}

export async function createShareLink(ctx: RequestContext, organizationId: string, siteId: string, body: unknown) {
  const { site } = await manageableSite(ctx, organizationId, siteId, "manage this site's share links");
  const input = parseInput(CreateShareLinkInput, body);
  const link = await inTransaction(
    ctx,
    (created: { id: string; name: string | null }) => ({
      action: 'share_link.create',
      organizationId,
      target: { type: 'share-link', id: created.id, label: created.name ?? undefined },
      payload: { siteId },
    }),
    (tx) =>
      tx.db.shareLink.create({
        data: { id: newId('shareLink'), siteId, name: input.name || null, key: randomBytes(24).toString('base64url') },
      }),
  );
  return presentShareLink(link, site, ctx.urls);
}

/** A share link found by its id alone: a 404 naming it unless the viewer sees its site. */
export async function shareLinkById(ctx: RequestContext, shareLinkId: string) {
  const link = await ctx.db.shareLink.findUnique({ where: { id: shareLinkId }, select: { id: true, siteId: true } });
  return entryOfVisibleSite(ctx, 'Share link', link, shareLinkId);
}

async function linkOfSite(ctx: RequestContext, siteId: string, shareLinkId: string) {
  const link = await ctx.db.shareLink.findFirst({ where: { id: shareLinkId, siteId } });
  if (!link) throw notFound('Share link', shareLinkId);
  return link;
}

/** Renames a share link or (de)activates it: an inactive key opens nothing. */
export async function updateShareLink(ctx: RequestContext, organizationId: string, siteId: string, shareLinkId: string, body: unknown) {
  const { site } = await manageableSite(ctx, organizationId, siteId, "manage this site's share links");
  await linkOfSite(ctx, siteId, shareLinkId);
  const input = parseInput(UpdateShareLinkInput, body);
  const audit: AuditFacts = { action: 'share_link.update', organizationId, target: { type: 'share-link', id: shareLinkId }, payload: { siteId } };
  const link = await inTransaction(ctx, audit, (tx) =>
    tx.db.shareLink.update({
      where: { id: shareLinkId },
      data: { ...(input.name !== undefined ? { name: input.name || null } : {}), active: input.active },
    }),
  );
  return presentShareLink(link, site, ctx.urls);
}

/** Revokes a share link: its key stops working at once. */
export async function deleteShareLink(ctx: RequestContext, organizationId: string, siteId: string, shareLinkId: string) {
  await manageableSite(ctx, organizationId, siteId, "manage this site's share links");
  await linkOfSite(ctx, siteId, shareLinkId);
  await inTransaction(
    ctx,
    {
      action: 'share_link.delete',
      organizationId,
      target: { type: 'share-link', id: shareLinkId },
      payload: { siteId },
    },
    (tx) => tx.db.shareLink.delete({ where: { id: shareLinkId } }),
  );
}
