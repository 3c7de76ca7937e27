import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as samlify from 'samlify';
import { closeWhenFileEnds } from './cleanup.ts';
import { ATTACKER_CERTIFICATE, ATTACKER_PRIVATE_KEY, IDP_CERTIFICATE, IDP_PRIVATE_KEY } from './saml-keys.ts';

/**
 * An identity provider run by the test itself (samlify in its IdP role) on
 * 127.0.0.1: `GET /sso` reads the AuthnRequest docs-gateway sent the browser
 * with (HTTP-Redirect binding) and answers the page a browser would post to the
 * ACS: a form with the signed `SAMLResponse`. What the next response says, who
 * signs it and what is signed are the test's to choose (`idp.next`).
 */

// The AuthnRequests it reads are docs-gateway's; their XML schema is not what these tests check.
samlify.setSchemaValidator({ validate: async () => 'skipped' });

export const IDP_ENTITY_ID = 'https://idp.example.test/metadata';
export const PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';

export interface NextResponse {
  nameID: string;
  email?: string | undefined;
  displayName?: string | undefined;
  /** Defaults: the service provider's entity ID, its ACS URL, the identity provider's entity ID, the request's ID. */
  audience?: string;
  recipient?: string;
  issuer?: string;
  inResponseTo?: string;
  /** What is signed: the assertion (the default: the metadata asks for it), the response alone, or both. */
  signed?: 'assertion' | 'response' | 'both';
  /** Signed with the trusted key, or another one (an attacker's identity provider with the same entity ID). */
  key?: 'trusted' | 'attacker';
}

export interface TestIdp {
  ssoURL: string;
  entityID: string;
  certificate: string;
  /** What the next sign-in is answered with. */
  next: NextResponse;
  /** The ID of the last AuthnRequest read. */
  lastRequestId: string | undefined;
  /** Trusts docs-gateway's service provider metadata (as an admin configures the identity provider with it). */
  trust(metadataXml: string): void;
}

const xml = (text: string) => text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
const newId = () => `_${randomBytes(16).toString('hex')}`;

export async function startTestIdp(): Promise<TestIdp> {
  let spMetadata: string | undefined;
  const server = http.createServer((request, response) => {
    answer(request.url ?? '/').then(
      (page) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page),
      (error: Error) => response.writeHead(400, { 'content-type': 'text/plain' }).end(error.message),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closeWhenFileEnds(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const ssoURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sso`;

  const identityProvider = (key: 'trusted' | 'attacker') =>
    samlify.IdentityProvider({
      entityID: IDP_ENTITY_ID,
      privateKey: key === 'trusted' ? IDP_PRIVATE_KEY : ATTACKER_PRIVATE_KEY,
      signingCert: key === 'trusted' ? IDP_CERTIFICATE : ATTACKER_CERTIFICATE,
      nameIDFormat: [PERSISTENT],
      singleSignOnService: [{ Binding: samlify.Constants.namespace.binding.redirect, Location: ssoURL }],
      // Not used (docs-gateway does no single logout); named so that samlify does not warn of its absence.
      singleLogoutService: [{ Binding: samlify.Constants.namespace.binding.redirect, Location: ssoURL.replace(/\/sso$/, '/slo') }],
    });
  const idps = { trusted: identityProvider('trusted'), attacker: identityProvider('attacker') };

  const idp: TestIdp = {
    ssoURL,
    entityID: IDP_ENTITY_ID,
    certificate: IDP_CERTIFICATE,
    next: { nameID: 'subject-1' },
    lastRequestId: undefined,
    trust(metadataXml) {
      spMetadata = metadataXml;
    },
  };

  async function answer(url: string): Promise<string> {
    if (!spMetadata) throw new Error('the identity provider trusts no service provider yet');
    const { pathname, searchParams } = new URL(url, ssoURL);
    if (pathname !== '/sso') throw new Error(`no page ${pathname}`);
    const next = idp.next;
    const signed = next.signed ?? 'assertion';
    // samlify signs the assertion when the metadata asks for signed assertions, the whole response when told to.
    const metadata = signed === 'response' ? spMetadata.replace('WantAssertionsSigned="true"', 'WantAssertionsSigned="false"') : spMetadata;
    const sp = samlify.ServiceProvider({ metadata, wantMessageSigned: signed !== 'assertion' });
    const signer = idps[next.key ?? 'trusted'];
    const query = Object.fromEntries(searchParams);
    const { extract } = await signer.parseLoginRequest(sp, 'redirect', { query, octetString: '' } as never);
    const requestId = String(extract.request?.id ?? '');
    idp.lastRequestId = requestId;
    const acsURL = /<AssertionConsumerService [^>]*Location="([^"]+)"/.exec(spMetadata)![1]!;
    const spEntityID = /<EntityDescriptor [^>]*entityID="([^"]+)"/.exec(spMetadata)![1]!;
    const context = (await signer.createLoginResponse(sp, { extract } as never, 'post', { email: next.nameID }, () => {
      const id = newId();
      return { id, context: responseXml(id, next, { acsURL, spEntityID, requestId }) };
    })) as { context: string; entityEndpoint: string };
    return `<!doctype html><form method="post" action="${xml(context.entityEndpoint)}"><input type="hidden" name="SAMLResponse" value="${xml(context.context)}"></form>`;
  }
  return idp;
}

function responseXml(id: string, next: NextResponse, sp: { acsURL: string; spEntityID: string; requestId: string }): string {
  const now = new Date();
  const later = new Date(now.getTime() + 5 * 60 * 1000).toISOString();
  const inResponseTo = next.inResponseTo ?? sp.requestId;
  const issuer = next.issuer ?? IDP_ENTITY_ID;
  const attributes = [
    ...(next.email ? [`<saml:Attribute Name="email"><saml:AttributeValue>${xml(next.email)}</saml:AttributeValue></saml:Attribute>`] : []),
    ...(next.displayName ? [`<saml:Attribute Name="displayName"><saml:AttributeValue>${xml(next.displayName)}</saml:AttributeValue></saml:Attribute>`] : []),
  ].join('');
  return (
    '<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"' +
    ` ID="${id}" Version="2.0" IssueInstant="${now.toISOString()}" Destination="${xml(next.recipient ?? sp.acsURL)}" InResponseTo="${xml(inResponseTo)}">` +
    `<saml:Issuer>${xml(issuer)}</saml:Issuer>` +
    '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>' +
    `<saml:Assertion ID="${newId()}" Version="2.0" IssueInstant="${now.toISOString()}">` +
    `<saml:Issuer>${xml(issuer)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${PERSISTENT}">${xml(next.nameID)}</saml:NameID>` +
    '<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">' +
    `<saml:SubjectConfirmationData NotOnOrAfter="${later}" Recipient="${xml(next.recipient ?? sp.acsURL)}" InResponseTo="${xml(inResponseTo)}"/>` +
    '</saml:SubjectConfirmation></saml:Subject>' +
    `<saml:Conditions NotBefore="${now.toISOString()}" NotOnOrAfter="${later}">` +
    `<saml:AudienceRestriction><saml:Audience>${xml(next.audience ?? sp.spEntityID)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="${newId()}"><saml:AuthnContext>` +
    '<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>' +
    '</saml:AuthnContext></saml:AuthnStatement>' +
    (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
    '</saml:Assertion></samlp:Response>'
  );
}

/** The `SAMLResponse` of the identity provider's page, as a browser would post it. */
export function samlResponseOf(page: string): string {
  const match = /name="SAMLResponse" value="([^"]+)"/.exec(page);
  if (!match) throw new Error(`no SAMLResponse in the identity provider's page: ${page.slice(0, 300)}`);
  return match[1]!.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
}

export const decodeResponse = (samlResponse: string) => Buffer.from(samlResponse, 'base64').toString('utf8');
export const encodeResponse = (text: string) => Buffer.from(text, 'utf8').toString('base64');
