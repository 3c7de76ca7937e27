import { DomainError } from '../../errors.ts';

/**
 * Verifies a SAML response posted to a provider's Assertion Consumer Service
 * (src/domain/saml/sign-in.ts), with @node-saml/node-saml: parsing the XML,
 * canonicalizing and checking XML signatures grow with the response, so this is
 * a task of the worker pool (the caller also caps the response's size first).
 *
 * What is checked here, from the response alone:
 * - a signature by the provider's certificate over the whole response or over
 *   its one assertion (node-saml reads the assertion from the signed XML only,
 *   and refuses more than one assertion: signature wrapping);
 * - the assertion's issuer is the provider's entity ID;
 * - its audience is this service provider's entity ID;
 * - a bearer subject confirmation whose Recipient is this provider's ACS URL;
 * - its time conditions (with `clockSkewMs`);
 * - it answers a request (InResponseTo present, equal in the response and in
 *   the subject confirmation). Whether that request was started here, is still
 *   pending and is used once is the caller's check, against the database.
 */

export interface VerifySamlResponseInput {
  /** The `SAMLResponse` form field: the response XML in base64. */
  samlResponse: string;
  /** The identity provider's X.509 certificate (PEM) and entity ID. */
  idpCertificate: string;
  idpEntityID: string;
  /** This service provider's entity ID (the audience) and ACS URL (the recipient). */
  spEntityID: string;
  acsURL: string;
  clockSkewMs: number;
}

export interface VerifiedSamlAssertion {
  /** The assertion's ID: used once. */
  assertionId: string;
  /** The ID of the request the response answers. */
  inResponseTo: string;
  nameID: string;
  nameIDFormat: string | null;
  /** From the attributes (email, mail, the emailaddress claim), or the NameID when its format is an email address. */
  email: string | null;
  /** From the attributes (displayName, name, the name claim, or given name and surname). */
  displayName: string | null;
}

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const CLAIMS = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/';

/** A refusal of the response: the sign-in is not allowed, for the reason named. */
const refused = (reason: string) => new DomainError(403, `SAMLResponse: ${reason}; the sign-in is refused`);

export async function verifySamlResponse(input: VerifySamlResponseInput): Promise<VerifiedSamlAssertion> {
  const { SAML, ValidateInResponseTo } = await import('@node-saml/node-saml');
  // node-saml asks its cache whether the InResponseTo is a request it made; the answer is
  // the database's, given by the caller after this task: here every id is accepted and noted.
  const asked = new Set<string>();
  const saml = new SAML({
    idpCert: input.idpCertificate,
    issuer: input.spEntityID,
    audience: input.spEntityID,
    callbackUrl: input.acsURL,
    // Signed responses or signed assertions: node-saml requires the assertion's own signature
    // whenever the response as a whole is not validly signed.
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    validateInResponseTo: ValidateInResponseTo.always,
    acceptedClockSkewMs: input.clockSkewMs,
    cacheProvider: {
      saveAsync: async () => null,
      getAsync: async (key: string) => {
        asked.add(key);
        return new Date().toISOString();
      },
      removeAsync: async () => null,
    },
  });
  let result: Awaited<ReturnType<typeof saml.validatePostResponseAsync>>;
  try {
    result = await saml.validatePostResponseAsync({ SAMLResponse: input.samlResponse });
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw refused(reasonOf(error));
  }
  const profile = result.profile;
  if (!profile) throw refused('it carries no assertion (a logout or passive answer)');
  const assertion = (profile.getAssertion?.() as { Assertion?: AssertionJs } | undefined)?.Assertion;
  const assertionId = assertion?.$?.ID;
  if (!assertion || !assertionId) throw refused('the assertion has no ID');
  if (profile.issuer !== input.idpEntityID) {
    throw refused(`the assertion's issuer "${profile.issuer ?? ''}" is not the provider's entityID "${input.idpEntityID}"`);
  }
  const confirmations = assertion.Subject?.[0]?.SubjectConfirmation ?? [];
  const bearer = confirmations.filter((confirmation) => confirmation.$?.Method === BEARER);
  if (bearer.length === 0) throw refused('the assertion has no bearer subject confirmation');
  const recipients = bearer.map((confirmation) => confirmation.SubjectConfirmationData?.[0]?.$?.Recipient);
  if (!recipients.includes(input.acsURL)) {
    throw refused(`the assertion's Recipient "${recipients.find(Boolean) ?? ''}" is not this provider's ACS URL "${input.acsURL}"`);
  }
  const inResponseTo = typeof profile.inResponseTo === 'string' ? profile.inResponseTo : null;
  if (!inResponseTo || asked.size !== 1 || !asked.has(inResponseTo)) throw refused('InResponseTo is missing or not the same throughout');
  const nameID = profile.nameID;
  if (typeof nameID !== 'string' || nameID.trim() === '') throw refused('the assertion has no NameID');
  const nameIDFormat = profile.nameIDFormat ?? null;
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  const email =
    firstText(attributes, ['email', 'mail', 'urn:oid:0.9.2342.19200300.100.1.3', `${CLAIMS}emailaddress`]) ?? (nameIDFormat === EMAIL_FORMAT ? nameID : null);
  const given = firstText(attributes, ['givenName', 'firstName', `${CLAIMS}givenname`]);
  const surname = firstText(attributes, ['sn', 'surname', 'lastName', `${CLAIMS}surname`]);
  const displayName =
    firstText(attributes, ['displayName', 'name', `${CLAIMS}name`, 'urn:oid:2.16.840.1.113730.3.1.241']) ??
    ([given, surname].filter(Boolean).join(' ') || null);
  return { assertionId, inResponseTo, nameID, nameIDFormat, email, displayName };
}

interface AssertionJs {
  $?: { ID?: string };
  Subject?: Array<{ SubjectConfirmation?: Array<{ $?: { Method?: string }; SubjectConfirmationData?: Array<{ $?: { Recipient?: string } }> }> }>;
}

/** The first of these attributes that holds text (its first value when it has several). */
function firstText(attributes: Record<string, unknown>, names: string[]): string | null {
  for (const name of names) {
    const value = attributes[name];
    const text = Array.isArray(value) ? value[0] : value;
    if (typeof text === 'string' && text.trim() !== '') return text.trim().slice(0, 254);
  }
  return null;
}

/** node-saml's (and its XML parser's) refusals, said for the client; anything unexpected is named as a malformed response. */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/multiple assertions/i.test(message)) return 'it holds more than one assertion (signature wrapping is refused)';
  if (/Invalid (document )?signature|No response found|Cannot obtain assertion from signed data|signature/i.test(message)) {
    return "no valid signature by the provider's certificate over the response or its assertion";
  }
  if (/audience/i.test(message))
    return message
      .replace(/^SAML assertion /, 'the assertion: ')
      .replace('Expected:', 'expected')
      .replace('Received:', 'received');
  if (/InResponseTo is missing/i.test(message))
    return 'InResponseTo is missing (only sign-ins started here are accepted, not ones the identity provider started)';
  if (/InResponseTo does not match/i.test(message)) return "the response's InResponseTo and its assertion's differ";
  if (/not yet valid|expired|too old/i.test(message)) return `the assertion is outside its validity period (${message})`;
  if (/status|SAML provider returned/i.test(message)) return `the identity provider did not sign the user in (${message.slice(0, 200)})`;
  if (/subject confirmation/i.test(message)) return 'no subject confirmation of the assertion is valid now';
  if (/Missing SAML assertion/i.test(message)) return 'it carries no assertion';
  return `it is not a SAML response this server can read (${message.slice(0, 200)})`;
}
