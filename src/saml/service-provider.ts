import { randomBytes } from 'node:crypto';

/**
 * docs-gateway as a SAML service provider, the outgoing half (@node-saml/node-saml):
 * the AuthnRequest a sign-in starts with (HTTP-Redirect binding to the identity
 * provider, the response expected by HTTP-POST at the ACS URL) and the service
 * provider's metadata. The incoming half, verifying responses, is a task of the
 * worker pool (src/workers/tasks/verify-saml-response.ts). Which provider,
 * member and token: src/domain/saml/sign-in.ts.
 */

export interface ServiceProvider {
  /** This service provider's entity ID (the audience of assertions). */
  entityID: string;
  /** The Assertion Consumer Service: where the identity provider posts its response. */
  acsURL: string;
}

/** A new AuthnRequest ID: an XML NCName (starts with `_`), 160 random bits. */
export function newRequestId(): string {
  return `_${randomBytes(20).toString('hex')}`;
}

/** The identity provider's sign-in address with an AuthnRequest of this ID (deflated, base64, in `SAMLRequest`). */
export async function authnRequestUrl(sp: ServiceProvider, idp: { ssoURL: string; certificate: string }, requestId: string): Promise<string> {
  const { SAML } = await import('@node-saml/node-saml');
  const saml = new SAML({
    idpCert: idp.certificate,
    entryPoint: idp.ssoURL,
    issuer: sp.entityID,
    callbackUrl: sp.acsURL,
    // The identity provider's own NameID format and authentication methods (MFA included).
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    generateUniqueId: () => requestId,
  });
  return saml.getAuthorizeUrlAsync('', undefined, {});
}

/** The service provider's metadata (XML) to configure the identity provider with. */
export async function serviceProviderMetadata(sp: ServiceProvider): Promise<string> {
  const { generateServiceProviderMetadata } = await import('@node-saml/node-saml');
  return generateServiceProviderMetadata({ issuer: sp.entityID, callbackUrl: sp.acsURL, identifierFormat: null, wantAssertionsSigned: true });
}
