import { type AddressSet, renderAddresses } from '../shared/addresses.ts';
import type { Api, Wire } from '../shared/api-types.ts';
import type { PublicUrls } from '../../config.ts';
import type { OrganizationRecord } from '../../db/index.ts';
import { type OrganizationAccess, asRole, organizationPermissions } from '../access.ts';

/** The contract's Organization; `internal_isOnNewTrial` is documented as always true. */
export type OrganizationJSON = Wire<Api.Organization> & { internal_isOnNewTrial: true };

/** The addresses of an organization (its `urls`). */
export const ORGANIZATION_ADDRESSES = {
  location: { address: [{ base: 'api' }, '/v1/orgs/', { column: 'id' }] },
  app: { address: [{ base: 'app' }, '/o/', { column: 'id' }] },
  logo: { address: [{ column: 'logo' }], when: 'logo' },
} satisfies AddressSet;

/** Fields computed from an organization row, shared by REST's presenter and GraphQL's resolvers. */
export function organizationUrls(org: OrganizationRecord, urls: PublicUrls): OrganizationJSON['urls'] {
  return renderAddresses(ORGANIZATION_ADDRESSES, org, urls) as OrganizationJSON['urls'];
}

/** Trials do not exist here: every organization answers the same. */
export const ORGANIZATION_TRIAL: OrganizationJSON['trial'] = { status: 'notapplicable', count: 0 };

export function presentOrganization(org: OrganizationRecord, emailDomains: string[], access: OrganizationAccess, urls: PublicUrls): OrganizationJSON {
  return {
    object: 'organization',
    id: org.id,
    title: org.title,
    createdAt: org.createdAt.toISOString(),
    emailDomains,
    ...(org.hostname ? { hostname: org.hostname } : {}),
    type: org.type as OrganizationJSON['type'],
    ...(org.useCase ? { useCase: org.useCase as OrganizationJSON['useCase'] } : {}),
    ...(org.communityType ? { communityType: org.communityType as OrganizationJSON['communityType'] } : {}),
    defaultRole: asRole(org.defaultRole),
    ...(org.defaultContentSiteId ? { defaultContent: { type: 'site' as const, site: org.defaultContentSiteId } } : {}),
    sso: org.sso,
    ai: org.ai,
    inviteLinks: org.inviteLinks,
    plan: org.plan as OrganizationJSON['plan'],
    mergeRules: org.mergeRules as unknown as OrganizationJSON['mergeRules'],
    urls: organizationUrls(org, urls),
    trial: ORGANIZATION_TRIAL,
    internal_isOnNewTrial: true,
    permissions: organizationPermissions(access),
  };
}
