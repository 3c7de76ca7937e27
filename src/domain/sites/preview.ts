import rison from 'rison-node';
import { z } from 'zod';
import type { RequestContext } from '../../context.ts';
import { invalid } from '../../errors.ts';
import type { Claims } from '../../lib/conditions.ts';
import { parseInput, queryBool } from '../../lib/validation.ts';
import { siteSpacePublishedUrl } from './presenter.ts';
import { manageableSite } from './records.ts';
import { issueSiteToken } from './site-tokens.ts';

/**
 * `getSitePublishingPreviewById`: an address of the site that shows it as it
 * would be published, for an hour, whether it is published or not. It is the
 * published address of a site space (or the `target` under the site's address)
 * carrying a preview token (`?preview=`): a site token marked `preview`, with
 * the visitor claims to preview as. URL resolution answers that address with
 * `preview: true` and the site's content, published or not; the token it
 * answers (`apiToken`) reads it like a published site's.
 */

export const SitePreviewQuery = z.object({
  siteSpace: z.string().min(1).max(100).optional(),
  claims: z.string().max(4096).optional(),
  draft: queryBool().optional(),
  target: z.string().max(2048).optional(),
});

export const PREVIEW_PARAMETER = 'preview';

/**
 * Rison's own decoder, without the line its parser prints to the console for each text it cannot
 * read (a client's bad input is an answer, not a log line): the parser's error method only keeps
 * the message, and the error callback throws it.
 */
function decodeRison(text: string): unknown {
  const parser = new rison.parser((message) => {
    throw new Error(`rison decoder error: ${message}`);
  });
  parser.error = function (message) {
    this.message = message;
    return undefined;
  };
  return parser.parse(text);
}

/** The visitor claims of a preview: a Rison-encoded object (`(beta:!t,plan:pro)`). */
function claimsOf(encoded: string | undefined): Claims {
  if (encoded === undefined || encoded === '') return {};
  let decoded: unknown;
  try {
    decoded = decodeRison(encoded);
  } catch {
    throw invalid('claims: is not Rison-encoded (e.g. "(beta:!t,plan:pro)")');
  }
  if (decoded === null || typeof decoded !== 'object' || Array.isArray(decoded)) {
    throw invalid('claims: must be a Rison-encoded object of visitor attributes (e.g. "(beta:!t,plan:pro)")');
  }
  return decoded as Claims;
}

export async function getSitePreview(ctx: RequestContext, organizationId: string, siteId: string, query: unknown): Promise<{ url: string }> {
  const { site } = await manageableSite(ctx, organizationId, siteId, 'preview this site');
  const input = parseInput(SitePreviewQuery, query, 'query');
  const claims = claimsOf(input.claims);
  // Drafts of site structure do not exist here: a preview shows the live structure, draft or not.
  const siteSpaces = await ctx.db.siteSpace.findMany({
    where: { siteId },
    select: { id: true, path: true, sectionId: true, spaceId: true, isDefault: true, position: true, section: { select: { path: true, isDefault: true } } },
    orderBy: [{ position: 'asc' }, { id: 'asc' }],
  });
  const siteSpace =
    input.siteSpace !== undefined
      ? siteSpaces.find((entry) => entry.id === input.siteSpace)
      : (siteSpaces.find((entry) => entry.isDefault && (entry.section?.isDefault ?? true)) ?? siteSpaces[0]);
  if (!siteSpace) {
    throw invalid(
      input.siteSpace !== undefined ? `siteSpace: "${input.siteSpace}" is not a site space of this site` : 'siteSpace: this site shows no space to preview',
    );
  }
  const base = siteSpacePublishedUrl(site, siteSpace.section?.path ?? null, siteSpace as never, ctx.urls);
  let address: URL;
  if (input.target !== undefined) {
    const siteAddress = siteSpacePublishedUrl(site, null, { path: '' } as never, ctx.urls);
    try {
      address = new URL(input.target);
    } catch {
      throw invalid('target: must be an absolute URL');
    }
    if (!`${address.origin}${address.pathname}/`.startsWith(`${siteAddress}/`)) throw invalid(`target: must be an address of this site (under ${siteAddress})`);
  } else {
    address = new URL(base);
  }
  const token = await issueSiteToken(ctx, site, {
    organization: site.organizationId,
    site: site.id,
    siteSpace: siteSpace.id,
    space: siteSpace.spaceId,
    ...(siteSpace.sectionId ? { siteSection: siteSpace.sectionId } : {}),
    visitor: { claims },
    preview: true,
  });
  address.searchParams.set(PREVIEW_PARAMETER, token);
  return { url: address.toString() };
}
