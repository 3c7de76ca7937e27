import type { FastifyInstance } from 'fastify';
import {
  SAML_RESPONSE_MAX_BYTES,
  type SamlSignIn,
  type SamlSignInSettings,
  completeSamlSignIn,
  samlMetadata,
  startSamlSignIn,
} from '../domain/saml/sign-in.ts';
import { invalid } from '../errors.ts';

/**
 * The addresses a browser and an identity provider use to sign in through a
 * SAML provider (src/domain/saml/sign-in.ts): no API token here, the person
 * signing in has none yet (src/http/app.ts reads none on these paths).
 *
 * - `GET .../saml/{id}/metadata`: the service provider's metadata (XML);
 * - `GET .../saml/{id}/start[?redirect=...]`: a 302 to the identity provider;
 * - `POST .../saml/{id}/acs` (form `SAMLResponse`): the new token, on a small
 *   page, or a 303 to the sign-in's `redirect` with the token in the fragment.
 *
 * Refusals answer in the one error shape (JSON), as everywhere.
 */
export const SAML_SIGN_IN_PATH = /^\/v1\/orgs\/[^/]+\/saml\/[^/]+\/(start|acs|metadata)\/?(\?|$)/;

const BASE = '/v1/orgs/:organizationId/saml/:samlProviderId';
type Params = { organizationId: string; samlProviderId: string };

export async function samlSignInPlugin(app: FastifyInstance, settings: SamlSignInSettings) {
  // The identity provider's browser form post; only here (the plugin's own parser).
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  app.get<{ Params: Params }>(`${BASE}/metadata`, async (request, reply) => {
    const { organizationId, samlProviderId } = request.params;
    const xml = await samlMetadata(request.ctx!, organizationId, samlProviderId);
    return reply.type('application/samlmetadata+xml; charset=utf-8').header('cache-control', 'no-cache').send(xml);
  });

  app.get<{ Params: Params }>(`${BASE}/start`, async (request, reply) => {
    const { organizationId, samlProviderId } = request.params;
    const location = await startSamlSignIn(request.ctx!, organizationId, samlProviderId, request.query, settings);
    return reply.code(302).header('cache-control', 'no-store').header('location', location).send();
  });

  app.post<{ Params: Params }>(
    `${BASE}/acs`,
    // The cap on the response itself is the domain's (SAML_RESPONSE_MAX_BYTES); the form around it adds RelayState.
    { bodyLimit: SAML_RESPONSE_MAX_BYTES + 16 * 1024 },
    async (request, reply) => {
      const { organizationId, samlProviderId } = request.params;
      if (!String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
        throw invalid('body: must be a form (application/x-www-form-urlencoded) with SAMLResponse, as identity providers post it');
      }
      const signIn = await completeSamlSignIn(request.ctx!, organizationId, samlProviderId, request.body);
      reply.header('cache-control', 'no-store');
      if (signIn.redirect) {
        const target = new URL(signIn.redirect);
        target.hash = new URLSearchParams({ token: signIn.token }).toString();
        return reply.code(303).header('location', target.href).send();
      }
      return reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
        .send(tokenPage(signIn));
    },
  );
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The page that shows a new token once. */
function tokenPage(signIn: SamlSignIn): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer">
<title>Signed in - docs-gateway</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;line-height:1.5}code{display:block;padding:.75rem;background:#f3f3f3;word-break:break-all}</style></head>
<body>
<h1>Signed in</h1>
<p>You are signed in as ${escapeHtml(signIn.user.displayName)} (${escapeHtml(signIn.user.email)}) through ${escapeHtml(signIn.providerLabel)}.</p>
<p>Your API token, shown this once (send it as <em>Authorization: Bearer &lt;token&gt;</em>):</p>
<code id="token">${escapeHtml(signIn.token)}</code>
<p>Keep it secret. Signing in again gives a new token.</p>
</body>
</html>
`;
}
