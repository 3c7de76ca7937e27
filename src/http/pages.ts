import { createRequire } from 'node:module';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PublicUrls } from '../config.ts';
import { OPENAPI_PATH } from '../rest/plugin.ts';

/**
 * The pages people open in a browser: `/`, a landing page linking everything
 * else (JSON for programs), and `/docs`, the REST reference rendered from
 * `/v1/openapi.json` by Swagger UI (swagger-ui-dist, served from our own
 * origin: nothing is loaded from elsewhere).
 */

export const DOCS_PATH = '/docs';

const swaggerUi = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const swaggerUiVersion = (createRequire(import.meta.url)('swagger-ui-dist/package.json') as { version: string }).version;
/** Versioned, so that browsers may keep them for a year: a new version is a new address. */
const ASSETS_PREFIX = `${DOCS_PATH}/assets/${swaggerUiVersion}/`;
const ASSETS = new Set(['swagger-ui-bundle.js', 'swagger-ui.css', 'favicon-32x32.png']);

/** The reference page: its script and styles come from this server; Swagger UI styles some elements inline. */
const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const LANDING_CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function docsPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>docs-gateway REST API reference</title>
<link rel="icon" type="image/png" href="${ASSETS_PREFIX}favicon-32x32.png">
<link rel="stylesheet" href="${ASSETS_PREFIX}swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="${ASSETS_PREFIX}swagger-ui-bundle.js"></script>
<script src="${DOCS_PATH}/init.js"></script>
</body>
</html>
`;
}

/**
 * Swagger UI on our own document; "Try it out" sends a token pasted under
 * Authorize. It calls the server the page was opened at, whatever its address
 * (127.0.0.1, a LAN name, a proxy's): the document names PUBLIC_URL for API
 * clients, which the page may not reach and its policy (`connect-src 'self'`)
 * would refuse anyway.
 */
const INIT_SCRIPT = `fetch(${JSON.stringify(OPENAPI_PATH)})
  .then(function (response) {
    if (!response.ok) throw new Error(${JSON.stringify(`${OPENAPI_PATH} answered `)} + response.status);
    return response.json();
  })
  .then(function (spec) {
    spec.servers = [{ url: window.location.origin, description: 'This server, where this page was opened' }];
    window.ui = SwaggerUIBundle({ spec: spec, dom_id: '#reference', deepLinking: true, persistAuthorization: true });
  })
  .catch(function (error) {
    document.getElementById('reference').textContent = 'The OpenAPI document could not be loaded: ' + error.message;
  });
`;

function landingPage(urls: PublicUrls): string {
  const links: Array<[string, string, string]> = [
    ['GraphiQL', '/graphql', 'explore the GraphQL API (send a token in the headers pane)'],
    ['REST reference', DOCS_PATH, 'every /v1 operation, its parameters, bodies and answers'],
    ['REST index', '/v1', 'the operations by resource, as JSON'],
    ['OpenAPI document', OPENAPI_PATH, 'for clients and code generators'],
    ['Health', '/healthz', 'the process is up'],
    ['Readiness', '/readyz', 'the database answers and is migrated'],
    ['Metrics', '/metrics', 'Prometheus'],
  ];
  const items = links.map(([title, href, what]) => `<li><a href="${escapeHtml(href)}">${escapeHtml(title)}</a> — ${escapeHtml(what)}</li>`).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>docs-gateway</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#222}code{background:#f3f3f3;padding:0 .2em}</style>
</head>
<body>
<h1>docs-gateway</h1>
<p>The API server of a documentation platform: REST at <code>${escapeHtml(urls.api)}/v1</code> and GraphQL at <code>${escapeHtml(urls.api)}/graphql</code>, over the same data. Calls carry <code>Authorization: Bearer &lt;token&gt;</code>.</p>
<ul>
${items}
</ul>
</body>
</html>
`;
}

const wantsHtml = (request: FastifyRequest) => /\btext\/html\b/.test(request.headers.accept ?? '');

export async function registerPages(app: FastifyInstance, urls: PublicUrls): Promise<void> {
  const landing = landingPage(urls);
  app.get('/', async (request, reply) => {
    reply.header('vary', 'accept');
    if (!wantsHtml(request)) {
      return {
        name: 'docs-gateway',
        rest: `${urls.api}/v1`,
        openapi: `${urls.api}${OPENAPI_PATH}`,
        graphql: `${urls.api}/graphql`,
        docs: `${urls.api}${DOCS_PATH}`,
      };
    }
    return html(reply, landing, LANDING_CONTENT_SECURITY_POLICY);
  });

  const page = docsPage();
  app.get(DOCS_PATH, async (_request, reply) => html(reply, page, DOCS_CONTENT_SECURITY_POLICY));
  app.get(`${DOCS_PATH}/init.js`, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(INIT_SCRIPT),
  );
  await app.register(fastifyStatic, {
    root: swaggerUi,
    prefix: ASSETS_PREFIX,
    decorateReply: false,
    allowedPath: (pathName) => ASSETS.has(pathName.replace(/^\//, '')),
    immutable: true,
    maxAge: '365d',
  });
}

function html(reply: FastifyReply, body: string, policy: string) {
  return reply.type('text/html; charset=utf-8').header('content-security-policy', policy).header('cache-control', 'no-cache').send(body);
}
