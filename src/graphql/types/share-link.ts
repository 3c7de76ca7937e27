import type { RequestContext } from '../../context.ts';
import type { ShareLinkJSON } from '../../domain/sites/presenter.ts';
import { createShareLink, deleteShareLink, shareLinkById, updateShareLink } from '../../domain/sites/share-links.ts';
import { builder } from '../builder.ts';
import { type FieldBuilder, PublishedUrls, ShareLink, deletedPayload, pathOfSite, siteIdField } from './site-common.ts';

/** Share links: secret addresses of share-link sites (a site's `shareLinks`), and their mutations. */

ShareLink.implement({
  description: 'A secret address of a share-link site: its published URL carries the shareKey',
  fields: (t) => ({
    object: t.exposeString('object', { description: 'Always "share-link"' }),
    id: t.exposeID('id', { description: 'The share link id (not its secret key)' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created' }),
    name: t.exposeString('name', { nullable: true, description: 'A name to tell it apart; null when it has none' }),
    active: t.exposeBoolean('active', { nullable: true, description: 'Whether its key opens the site; an inactive link opens nothing' }),
    urls: t.expose('urls', {
      type: PublishedUrls,
      description: "Its address: the site's published address with the secret `shareKey` in the query string",
    }),
  }),
});

const pathOfShareLink = async (ctx: RequestContext, shareLinkId: string) => pathOfSite(ctx, (await shareLinkById(ctx, shareLinkId)).siteId);

const payload = {
  shareLink: {
    outputFields: (t: FieldBuilder<{ shareLink: ShareLinkJSON }>) => ({
      shareLink: t.expose('shareLink', { type: ShareLink }),
    }),
  },
  deleted: deletedPayload,
};

builder.relayMutationField(
  'createShareLink',
  {
    inputFields: (t) => ({
      ...siteIdField(t),
      name: t.string({ required: true, description: 'A name to tell it apart (up to 50 characters; empty for none)' }),
    }),
  },
  {
    description: 'Creates an active share link for a share-link site (admins of the organization); its published URL carries its new secret key',
    resolve: async (_root, { input: { siteId, ...body } }, ctx) => ({
      shareLink: await createShareLink(ctx, ...(await pathOfSite(ctx, siteId)), body),
    }),
  },
  payload.shareLink,
);

builder.relayMutationField(
  'updateShareLink',
  {
    inputFields: (t) => ({
      shareLinkId: t.id({ required: true, description: 'The share link' }),
      name: t.string({ description: 'Its new name (up to 50 characters; empty removes it)' }),
      active: t.boolean({ description: 'false: its key opens nothing until it is active again' }),
    }),
  },
  {
    description: 'Renames a share link or (de)activates it (admins of the organization); give name, active or both',
    resolve: async (_root, { input: { shareLinkId, ...body } }, ctx) => ({
      shareLink: await updateShareLink(ctx, ...(await pathOfShareLink(ctx, shareLinkId)), shareLinkId, body),
    }),
  },
  payload.shareLink,
);

builder.relayMutationField(
  'deleteShareLink',
  { inputFields: (t) => ({ shareLinkId: t.id({ required: true, description: 'The share link' }) }) },
  {
    description: 'Revokes a share link (admins of the organization): its key stops working at once',
    resolve: async (_root, { input: { shareLinkId } }, ctx) => {
      await deleteShareLink(ctx, ...(await pathOfShareLink(ctx, shareLinkId)), shareLinkId);
      return { deletedId: shareLinkId };
    },
  },
  payload.deleted,
);
