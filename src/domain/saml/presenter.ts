import type { PublicUrls } from '../../config.ts';
import type { SamlProviderRecord } from '../../db/index.ts';
import type { Api, Wire } from '../shared/api-types.ts';
import type { TeamJSON } from '../teams/presenter.ts';

/** The identity provider's settings, absent until set (see presentSamlProvider). */
type UnsetUntilConfigured = 'ssoURL' | 'entityID' | 'certificate';
export type SamlProviderJSON = Omit<Wire<Api.OrganizationSAMLProvider>, UnsetUntilConfigured> &
  Partial<Pick<Wire<Api.OrganizationSAMLProvider>, UnsetUntilConfigured>>;
export type SsoProviderLoginJSON = Wire<Api.OrganizationSSOProviderLogin>;
export type SamlProviderStatus = 'active' | 'pending';

/** The provider's address in this API; the service provider's addresses hang below it. */
function providerBase(provider: Pick<SamlProviderRecord, 'id' | 'organizationId'>, urls: PublicUrls): string {
  return `${urls.api}/v1/orgs/${provider.organizationId}/saml/${provider.id}`;
}

/**
 * What the identity provider is configured with on its side (the service
 * provider's metadata), generated per provider from the server's public URL:
 * the Assertion Consumer Service `…/saml/{id}/acs`, the sign-in start
 * `…/saml/{id}/start`, and the entity ID `…/saml/{id}`.
 */
export function samlService(provider: Pick<SamlProviderRecord, 'id' | 'organizationId'>, urls: PublicUrls) {
  const base = providerBase(provider, urls);
  return { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: base };
}

/** `active` once the identity provider's sign-in URL, entity ID and certificate are all set; `pending` before. */
export function samlStatus(provider: Pick<SamlProviderRecord, 'ssoURL' | 'entityID' | 'certificate'>): SamlProviderStatus {
  return provider.ssoURL && provider.entityID && provider.certificate ? 'active' : 'pending';
}

export function samlUrls(provider: Pick<SamlProviderRecord, 'id' | 'organizationId'>, urls: PublicUrls) {
  return { location: providerBase(provider, urls) };
}

/**
 * `ssoURL`, `entityID` and `certificate` are absent until set: the contract
 * creates a provider from its label alone (it is `pending` until all three are
 * set), and an empty string is no URI. (The official object lists them as
 * required; our document says they are absent until set, src/rest/openapi.ts.)
 */
export function presentSamlProvider(provider: SamlProviderRecord, defaultTeam: TeamJSON | null, urls: PublicUrls): SamlProviderJSON {
  return {
    object: 'saml-provider',
    id: provider.id,
    label: provider.label,
    ...(provider.ssoURL !== null ? { ssoURL: provider.ssoURL } : {}),
    ...(provider.entityID !== null ? { entityID: provider.entityID } : {}),
    ...(provider.certificate !== null ? { certificate: provider.certificate } : {}),
    ...(defaultTeam ? { defaultTeam } : {}),
    defaultRole: (provider.defaultRole ?? null) as SamlProviderJSON['defaultRole'],
    createdAt: provider.createdAt.toISOString(),
    status: samlStatus(provider),
    service: samlService(provider, urls),
    urls: samlUrls(provider, urls),
  };
}

export function presentSsoProviderLogin(provider: SamlProviderRecord, urls: PublicUrls): SsoProviderLoginJSON {
  return { id: provider.id, label: provider.label, startURL: samlService(provider, urls).startURL };
}
