import { createHmac } from 'node:crypto';
import { SignJWT, decodeJwt, jwtVerify } from 'jose';
import type { RequestContext } from '../../context.ts';
import { forbidden, unauthenticated } from '../../errors.ts';
import type { Claims } from '../../lib/conditions.ts';
import { conditionHolds } from '../../lib/conditions.ts';
import { sameSecret } from '../../lib/tokens.ts';
import { loader } from '../loaders.ts';
import { spaceRecords } from '../spaces/service.ts';

/**
 * Site tokens: the short-lived, read-only bearer token a URL lookup answers
 * (`apiToken` of the official PublishedSiteContent). A renderer decodes it for
 * the site and the visitor's claims, then sends it to read that one site's
 * published content. It is a JWT (HS256) signed with a key derived from the
 * site's publishing key (`visitorAuthSecret`): regenerating that key
 * (`regenerateSitePublishingAuthById`) invalidates every token issued for the site.
 */

/** A site token lives at most this long (and never longer than the visitor token it was issued for). */
export const SITE_TOKEN_LIFETIME_SECONDS = 60 * 60;

const ISSUER = 'docs-gateway';
const AUDIENCE = 'docs-gateway:site';

/** What a verified site token grants the request that carries it. */
export interface SiteTokenGrant {
  organizationId: string;
  siteId: string;
  siteSpaceId: string;
  spaceId: string;
  /** The visitor's claims (adaptive content): empty for an anonymous visitor. */
  claims: Claims;
  /** The spaces of the site's site spaces the visitor is shown: the only spaces the token reads. */
  spaceIds: ReadonlySet<string>;
}

/** The payload of a site token (public: a renderer decodes it). */
export interface SiteTokenPayload {
  kind: 'site';
  organization: string;
  site: string;
  siteSpace: string;
  space: string;
  siteSection?: string;
  shareKey?: string;
  visitor: { claims: Claims };
  /** A preview token (getSitePublishingPreviewById): it reads its site published or not. */
  preview?: boolean;
}

/** The HS256 key of a site's tokens: derived from its publishing key, so that rotating that key revokes them. */
function siteTokenKey(publishingKey: string): Uint8Array {
  return createHmac('sha256', publishingKey).update('docs-gateway site token v1').digest();
}

/** Whether a bearer token is a JWT (a site token) rather than an API token (`dgw_...`). */
export function looksLikeSiteToken(token: string): boolean {
  return /^eyJ[\w-]*\.[\w-]+\.[\w-]+$/.test(token);
}

/** Signs a site token for a site (with its publishing key), expiring within the hour, or when `notAfter` (seconds) says. */
export async function issueSiteToken(
  ctx: RequestContext,
  site: { visitorAuthSecret: string },
  payload: Omit<SiteTokenPayload, 'kind'>,
  notAfter?: number,
): Promise<string> {
  const now = Math.floor(ctx.clock.now().getTime() / 1000);
  const expires = Math.min(now + SITE_TOKEN_LIFETIME_SECONDS, notAfter ?? Number.POSITIVE_INFINITY);
  return new SignJWT({ ...payload, kind: 'site' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(payload.site)
    .setIssuedAt(now)
    .setExpirationTime(expires)
    .sign(siteTokenKey(site.visitorAuthSecret));
}

/**
 * The payload of a preview token of this site (getSitePublishingPreviewById),
 * or null for a token that is not one, does not verify or has expired.
 */
export async function verifiedPreview(
  ctx: RequestContext,
  site: { id: string; visitorAuthSecret: string },
  token: string,
): Promise<(SiteTokenPayload & { exp: number }) | null> {
  try {
    const { payload } = await jwtVerify(token, siteTokenKey(site.visitorAuthSecret), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      subject: site.id,
      currentDate: ctx.clock.now(),
      requiredClaims: ['exp', 'iat'],
      maxTokenAge: SITE_TOKEN_LIFETIME_SECONDS,
    });
    const preview = payload as unknown as SiteTokenPayload & { exp: number };
    return preview.kind === 'site' && preview.preview === true && preview.site === site.id ? preview : null;
  } catch {
    return null;
  }
}

/**
 * Verifies a site token and grants its request the reads of that site:
 * `ctx.siteToken`, and the site opened as a visitor with the token's claims
 * (`ctx.siteVisits`, which the published reads follow). A token that does not
 * verify, has expired, or names a site no longer published (or a share link no
 * longer active) is a 401.
 */
export async function authenticateSiteToken(ctx: RequestContext, token: string): Promise<SiteTokenGrant> {
  const refused = unauthenticated('The site token is not valid: it has expired, or its site was unpublished or its publishing key regenerated');
  let siteId: unknown;
  try {
    siteId = decodeJwt(token).sub;
  } catch {
    throw refused;
  }
  if (typeof siteId !== 'string') throw refused;
  const site = await ctx.db.site.findUnique({
    where: { id: siteId },
    select: { id: true, organizationId: true, published: true, visibility: true, visitorAuthSecret: true },
  });
  if (!site) throw refused;
  let payload: SiteTokenPayload;
  try {
    const verified = await jwtVerify(token, siteTokenKey(site.visitorAuthSecret), {
      algorithms: ['HS256'],
      issuer: ISSUER,
      audience: AUDIENCE,
      currentDate: ctx.clock.now(),
      requiredClaims: ['exp', 'iat'],
      maxTokenAge: SITE_TOKEN_LIFETIME_SECONDS,
    });
    payload = verified.payload as unknown as SiteTokenPayload;
  } catch {
    throw refused;
  }
  if (payload.kind !== 'site' || payload.site !== site.id || payload.organization !== site.organizationId) throw refused;
  if (!site.published && payload.preview !== true) throw refused;
  if (site.visibility === 'share-link' && payload.preview !== true) {
    const links = payload.shareKey ? await ctx.db.shareLink.findMany({ where: { siteId: site.id, active: true }, select: { key: true } }) : [];
    if (!links.some((link) => sameSecret(link.key, payload.shareKey!))) throw refused;
  }
  const claims = (payload.visitor?.claims ?? {}) as Claims;
  const siteSpaces = await ctx.db.siteSpace.findMany({
    where: { siteId: site.id },
    select: { spaceId: true, condition: true, section: { select: { condition: true } } },
  });
  const spaceIds = new Set(
    siteSpaces
      .filter((entry) => conditionHolds(entry.condition, claims) && (!entry.section || conditionHolds(entry.section.condition, claims)))
      .map((entry) => entry.spaceId),
  );
  const grant: SiteTokenGrant = {
    organizationId: site.organizationId,
    siteId: site.id,
    siteSpaceId: payload.siteSpace,
    spaceId: payload.space,
    claims,
    spaceIds,
  };
  ctx.siteToken = grant;
  ctx.siteVisits.set(site.id, { claims });
  return grant;
}

/**
 * The operations a site token may call: the reads a renderer makes of its one
 * site (the published site, its spaces, their current content and revisions,
 * pages, page documents, files; the site's search, structure, customization
 * and redirects where the server has them). Everything else is refused (403).
 */
export const SITE_TOKEN_OPERATIONS: ReadonlySet<string> = new Set([
  // URL lookups answer anyone (what an anonymous visitor may know): a renderer holding a site token may ask again.
  'resolvePublishedContentByUrl',
  'getPublishedContentByUrl',
  'getPublishedContentSite',
  'getSpaceById',
  'getCurrentRevision',
  'listPages',
  'getPageById',
  'getPageByPath',
  'listFiles',
  'getFileById',
  'listSpacePageMetaLinks',
  'getRevisionById',
  'listPagesInRevisionById',
  'getPageInRevisionById',
  'getPageInRevisionByPath',
  'listFilesInRevisionById',
  'getFileInRevisionById',
  'getPageDocumentInRevisionById',
  'listRevisionPageMetaLinks',
  // The site groups of issue 34 (items 3-5): allowed once they exist.
  'searchSiteContent',
  'getSiteStructure',
  'getSiteCustomizationById',
  'getSiteSpaceCustomizationById',
  'getSiteRedirectBySource',
]);

/**
 * Refuses (403) what a site token may not do: any operation outside
 * SITE_TOKEN_OPERATIONS, another organization or site, a space its site does
 * not show the visitor, a revision other than that space's published one.
 */
export async function assertSiteTokenReach(ctx: RequestContext, operationId: string, params: Record<string, string>): Promise<void> {
  const grant = ctx.siteToken;
  if (!grant) return;
  if (!SITE_TOKEN_OPERATIONS.has(operationId)) {
    throw forbidden(`Authorization: a site token reads the published content of its site only; it may not call ${operationId}`);
  }
  if (params.organizationId !== undefined && params.organizationId !== grant.organizationId) {
    throw forbidden(`organizationId: a site token reads the organization of its site only ("${grant.organizationId}")`);
  }
  if (params.siteId !== undefined && params.siteId !== grant.siteId) {
    throw forbidden(`siteId: a site token reads its own site only ("${grant.siteId}")`);
  }
  if (params.spaceId !== undefined) {
    if (!grant.spaceIds.has(params.spaceId)) throw forbidden('spaceId: a site token reads the spaces its site publishes to its visitor only');
    if (params.revisionId !== undefined) {
      const space = await loader(ctx, spaceRecords).load(params.spaceId);
      if (!space || space.deletedAt || space.revisionId !== params.revisionId) {
        throw forbidden("revisionId: a site token reads a space's published revision only");
      }
    }
  }
}

/** Whether a site token grants reading this space (as a reader: the level `read`). */
export function siteTokenReads(ctx: RequestContext, spaceId: string): boolean {
  return ctx.siteToken?.spaceIds.has(spaceId) === true;
}
