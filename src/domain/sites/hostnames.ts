import type { AuditFacts } from '../audit/record.ts';
import type { RequestContext } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { authorize, sitePermissions } from '../access.ts';
import { inTransaction } from '../transaction.ts';
import { type SiteRecord, siteLevel } from './records.ts';

/**
 * Custom hostnames: a site serves its published content at the hostname set
 * through its update (`hostname`, unique across sites). This server terminates
 * no TLS and checks no DNS: the hostname is live as soon as it is set, and the
 * reverse proxy in front of it routes the hostname here.
 */

/** The site whose custom hostname this is (lowercase, without a port), or null. Reads one row; no permission check. */
export async function siteByHostname(ctx: RequestContext, hostname: string): Promise<SiteRecord | null> {
  const bare = hostname.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  if (!bare || bare.length > 512) return null;
  return ctx.db.site.findUnique({ where: { hostname: bare } });
}

/** The site of a hostname, for an admin of its organization; a 404 for anyone who does not see it. */
async function hostnameSite(ctx: RequestContext, hostname: string, action: string) {
  const site = await siteByHostname(ctx, hostname);
  const level = site ? await siteLevel(ctx, site) : null;
  if (!site || !sitePermissions(level).view) throw notFound('Custom hostname', hostname);
  authorize(sitePermissions(level).admin, action);
  return site;
}

export function presentCustomHostname(ctx: RequestContext, site: SiteRecord) {
  return {
    object: 'custom-hostname' as const,
    hostname: site.hostname!,
    target: { type: 'site' as const, site: site.id },
    isActive: site.published,
    status: 'live' as const,
    urls: { location: `${ctx.urls.api}/v1/custom-hostnames/${site.hostname}` },
  };
}

/** `getCustomHostname`: the site a hostname serves, for admins of its organization. */
export async function getCustomHostname(ctx: RequestContext, hostname: string) {
  return presentCustomHostname(ctx, await hostnameSite(ctx, hostname, 'read the custom hostnames of this organization'));
}

/** `removeCustomHostname`: the site stops answering at the hostname. 205 when removed, 204 when no site had it. */
export async function removeCustomHostname(ctx: RequestContext, hostname: string): Promise<204 | 205> {
  const found = await siteByHostname(ctx, hostname);
  if (!found) return 204;
  const site = await hostnameSite(ctx, hostname, 'remove the custom hostnames of this organization');
  const audit: AuditFacts = {
    action: 'site.remove_hostname',
    organizationId: site.organizationId,
    target: { type: 'site', id: site.id },
    payload: { hostname: site.hostname },
  };
  const { count } = await inTransaction(ctx, audit, (tx) =>
    tx.db.site.updateMany({ where: { id: site.id, hostname: site.hostname }, data: { hostname: null } }),
  );
  return count ? 205 : 204;
}
