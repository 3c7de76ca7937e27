import { z } from 'zod';
import type { RequestContext } from '../../context.ts';
import type { Db, SamlProviderRecord } from '../../db/index.ts';
import { conflict, forbidden, invalid, notFound } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { userSearchText } from '../../lib/search.ts';
import { parseInput } from '../../lib/validation.ts';
import { authnRequestUrl, newRequestId, serviceProviderMetadata } from '../../saml/service-provider.ts';
import { runTask } from '../../workers/pool.ts';
import type { VerifiedSamlAssertion } from '../../workers/tasks/verify-saml-response.ts';
import { auditWrite } from '../audit/record.ts';
import { inTransaction, serializeOn } from '../transaction.ts';
import { issueApiToken } from '../users/provisioning.ts';
import { joinTeamGrants } from '../permissions/grants.ts';
import { samlService, samlStatus } from './presenter.ts';

/**
 * Signing in through an organization's SAML provider (service-provider
 * initiated, Web Browser SSO profile):
 *
 * 1. `GET .../saml/{id}/start[?redirect=...]` records a request (its ID, where the
 *    token goes, when it expires) in the database and sends the browser to the
 *    identity provider with an AuthnRequest of that ID;
 * 2. the identity provider posts its response to `POST .../saml/{id}/acs`: the
 *    response is verified on the worker pool (signatures, issuer, audience,
 *    recipient, times: src/workers/tasks/verify-saml-response.ts), then, in one
 *    transaction, its InResponseTo must name a pending request of this provider
 *    (which is used up: any instance completes what another started, once), its
 *    assertion must not have been used before (replay), and the member is
 *    provisioned and given a token.
 *
 * The member is found by the provider's NameID for it (a SAML identity), never
 * by email: an address is what an identity provider may change or reuse. A
 * first sign-in creates the user, the identity and the membership, with the
 * provider's default role and team. Nothing of a refused response is kept.
 */

/** How long a started sign-in may take at the identity provider. */
export const SAML_REQUEST_TTL_MS = 10 * 60 * 1000;
/** Clock skew allowed between the identity provider and this server. */
export const SAML_CLOCK_SKEW_MS = 3 * 60 * 1000;
/** Largest `SAMLResponse` accepted (base64 characters), checked before anything parses it. */
export const SAML_RESPONSE_MAX_BYTES = 256 * 1024;
/** The worker's time budget for verifying one response. */
const VERIFY_BUDGET_MS = 5_000;
const REDIRECT_MAX_LENGTH = 2048;

export interface SamlSignInSettings {
  /** Origins a sign-in may name as its `redirect` (SAML_REDIRECT_ORIGINS); none: the token is shown on a page. */
  redirectOrigins: readonly string[];
}

export interface SamlSignIn {
  /** The new API token, shown once. */
  token: string;
  /** Where the token goes (in the fragment), or null: shown on a page. */
  redirect: string | null;
  user: { id: string; email: string; displayName: string };
  organizationId: string;
  providerLabel: string;
  /** Whether this sign-in created the user. */
  created: boolean;
}

const StartQuery = z.object({ redirect: z.string().max(REDIRECT_MAX_LENGTH).optional() });

/** A provider of this organization, by id, for a browser that holds no token. */
async function providerOf(ctx: RequestContext, organizationId: string, providerId: string): Promise<SamlProviderRecord> {
  const provider = await ctx.db.samlProvider.findUnique({ where: { id: providerId } });
  if (!provider || provider.organizationId !== organizationId) throw notFound('SAML provider', providerId);
  return provider;
}

/** A provider whose identity provider settings are all set. */
function active(provider: SamlProviderRecord): SamlProviderRecord & { ssoURL: string; entityID: string; certificate: string } {
  if (samlStatus(provider) !== 'active') {
    throw conflict(`SAML provider "${provider.id}" is pending: set its ssoURL, entityID and certificate before signing in through it`);
  }
  return provider as SamlProviderRecord & { ssoURL: string; entityID: string; certificate: string };
}

/** The service provider's metadata (XML) for this provider: its entity ID and ACS URL (anyone may read it). */
export async function samlMetadata(ctx: RequestContext, organizationId: string, providerId: string): Promise<string> {
  const provider = await providerOf(ctx, organizationId, providerId);
  const { entityID, acsURL } = samlService(provider, ctx.urls);
  return serviceProviderMetadata({ entityID, acsURL });
}

/** `redirect` of a sign-in: an absolute http(s) address of one of the allowed origins. */
function allowedRedirect(value: string | undefined, settings: SamlSignInSettings): string | null {
  if (value === undefined || value === '') return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid('redirect: must be an absolute URL');
  }
  if (!/^https?:$/.test(url.protocol) || url.username || url.password) throw invalid('redirect: must be an http or https URL without credentials');
  if (!settings.redirectOrigins.includes(url.origin)) {
    throw invalid(
      settings.redirectOrigins.length === 0
        ? 'redirect: this server allows no sign-in redirects (SAML_REDIRECT_ORIGINS is empty); sign in without one to see the token'
        : `redirect: ${url.origin} is not one of the origins sign-ins may return to (SAML_REDIRECT_ORIGINS)`,
    );
  }
  url.hash = '';
  return url.href;
}

/**
 * Starts a sign-in: records its request and answers the identity provider's
 * address to send the browser to. Expired requests and used assertions of any
 * provider are cleared on the way (their indexes make it cheap).
 */
export async function startSamlSignIn(
  ctx: RequestContext,
  organizationId: string,
  providerId: string,
  query: unknown,
  settings: SamlSignInSettings,
): Promise<string> {
  const { redirect: wanted } = parseInput(StartQuery, query, 'query');
  const provider = active(await providerOf(ctx, organizationId, providerId));
  const redirect = allowedRedirect(wanted, settings);
  const { entityID, acsURL } = samlService(provider, ctx.urls);
  const id = newRequestId();
  const location = await authnRequestUrl({ entityID, acsURL }, { ssoURL: provider.ssoURL, certificate: provider.certificate }, id);
  const now = ctx.clock.now();
  // Not an audited write: a pending request of no one yet (the sign-in it completes is).
  await inTransaction(ctx, [], async (tx) => {
    await tx.db.samlRequest.deleteMany({ where: { expiresAt: { lt: now } } });
    await tx.db.samlUsedAssertion.deleteMany({ where: { expiresAt: { lt: now } } });
    await tx.db.samlRequest.create({ data: { id, providerId, redirect, createdAt: now, expiresAt: new Date(now.getTime() + SAML_REQUEST_TTL_MS) } });
  });
  return location;
}

/** The `SAMLResponse` field, refused before any parsing when it is missing, too large or no base64. */
export function samlResponseField(body: unknown): string {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>).SAMLResponse : undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    throw invalid('SAMLResponse: is required (the form field the identity provider posts to this address)');
  }
  if (value.length > SAML_RESPONSE_MAX_BYTES) throw invalid(`SAMLResponse: is larger than ${SAML_RESPONSE_MAX_BYTES / 1024} KiB`);
  const compact = value.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) throw invalid('SAMLResponse: must be base64');
  return compact;
}

/** Completes a sign-in with the identity provider's response: the member signed in and a new token. */
export async function completeSamlSignIn(ctx: RequestContext, organizationId: string, providerId: string, body: unknown): Promise<SamlSignIn> {
  const samlResponse = samlResponseField(body);
  const provider = active(await providerOf(ctx, organizationId, providerId));
  const { entityID, acsURL } = samlService(provider, ctx.urls);
  const assertion = await runTask(
    'verify-saml-response',
    { samlResponse, idpCertificate: provider.certificate, idpEntityID: provider.entityID, spEntityID: entityID, acsURL, clockSkewMs: SAML_CLOCK_SKEW_MS },
    { budgetMs: VERIFY_BUDGET_MS, signal: ctx.clientGone },
  );
  return inTransaction(ctx, 'recorded-by-work', async (tx) => {
    const now = ctx.clock.now();
    const used = await tx.db.samlUsedAssertion.findUnique({ where: { providerId_assertionId: { providerId, assertionId: assertion.assertionId } } });
    if (used) throw forbidden(`SAMLResponse: assertion "${assertion.assertionId}" was already used (a replayed response); the sign-in is refused`);
    const request = await tx.db.samlRequest.findUnique({ where: { id: assertion.inResponseTo } });
    // Used up here: a concurrent completion of the same request deletes nothing and is refused.
    const { count } = await tx.db.samlRequest.deleteMany({ where: { id: assertion.inResponseTo, providerId, expiresAt: { gt: now } } });
    if (!request || request.providerId !== providerId || count !== 1) {
      throw forbidden(
        `SAMLResponse: InResponseTo "${assertion.inResponseTo}" names no pending sign-in of this provider (never started here, expired or already completed); the sign-in is refused`,
      );
    }
    await tx.db.samlUsedAssertion.create({
      data: { providerId, assertionId: assertion.assertionId, expiresAt: new Date(request.expiresAt.getTime() + SAML_CLOCK_SKEW_MS) },
    });
    const { user, created } = await provisionMember(tx, provider, assertion);
    const token = await issueApiToken(tx.db, user.id, `SAML sign-in: ${provider.label}`);
    auditWrite(tx, {
      action: 'member.saml_sign_in',
      organizationId,
      target: { type: 'user', id: user.id, label: user.displayName },
      payload: { provider: provider.label, created },
      actor: { id: user.id, label: user.displayName },
    });
    return {
      token,
      redirect: request.redirect,
      user: { id: user.id, email: user.email, displayName: user.displayName },
      organizationId,
      providerLabel: provider.label,
      created,
    };
  });
}

/**
 * The user of this NameID at this provider, created at its first sign-in, and
 * its membership of the provider's organization: a new member gets the
 * provider's default role (null: guest) and team; an existing member keeps its
 * role; a disabled member is refused.
 */
async function provisionMember(tx: RequestContext, provider: SamlProviderRecord, assertion: VerifiedSamlAssertion) {
  await serializeOn(tx.db, tx.provider, `saml:${provider.id}:${assertion.nameID}`);
  const identity = await tx.db.samlIdentity.findUnique({
    where: { providerId_nameID: { providerId: provider.id, nameID: assertion.nameID } },
    include: { user: true },
  });
  let user = identity?.user;
  const created = !user;
  if (!user) user = await createUser(tx.db, provider, assertion);
  const key = { organizationId_userId: { organizationId: provider.organizationId, userId: user.id } };
  const member = await tx.db.member.findUnique({ where: key });
  if (member?.disabled) throw forbidden('Your membership of this organization is disabled: an admin must enable it before you can sign in');
  if (!member) {
    await tx.db.member.create({
      data: { organizationId: provider.organizationId, userId: user.id, role: provider.defaultRole, sso: true, joinedAt: tx.clock.now() },
    });
  } else if (!member.sso) {
    await tx.db.member.update({ where: key, data: { sso: true } });
  }
  if (provider.defaultTeamId && !member) {
    await tx.db.teamMember.create({ data: { teamId: provider.defaultTeamId, organizationId: provider.organizationId, userId: user.id, role: 'member' } });
    await joinTeamGrants(tx, provider.organizationId, provider.defaultTeamId, [user.id]);
  }
  return { user, created };
}

/**
 * A new user for a subject: its email when the assertion gives one no other
 * user has (a user is never taken over by its address), else an address of
 * its own under `.invalid`, which can receive nothing.
 */
async function createUser(db: Db, provider: SamlProviderRecord, assertion: VerifiedSamlAssertion) {
  const id = newId('user');
  const asserted = assertion.email?.toLowerCase() ?? null;
  const validEmail = asserted !== null && z.email().safeParse(asserted).success;
  const taken = validEmail ? (await db.user.findUnique({ where: { email: asserted }, select: { id: true } })) !== null : true;
  const email = validEmail && !taken ? asserted : `${id}@saml.invalid`;
  const displayName = (assertion.displayName ?? (validEmail ? asserted.split('@')[0]! : assertion.nameID)).slice(0, 255);
  const user = await db.user.create({ data: { id, email, displayName, searchText: userSearchText({ displayName, email }) } });
  await db.samlIdentity.create({ data: { providerId: provider.id, nameID: assertion.nameID, userId: id } });
  return user;
}
