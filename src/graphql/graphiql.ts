import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlibConstants } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * GraphiQL as a small page and cacheable files: the GraphiQL build that
 * @graphql-yoga/render-graphiql ships (script, styles, editor workers, icon)
 * is served at a versioned address, compressed once and kept by browsers for
 * a year; the page itself is a few hundred bytes carrying its options
 * (endpoint, headers, the example query) as JSON. Nothing runs inline.
 */

export const GRAPHIQL_ASSETS_PATH = '/graphql/assets';

const require = createRequire(import.meta.url);
const packageDir = path.dirname(require.resolve('@graphql-yoga/render-graphiql/package.json'));
const version = (require('@graphql-yoga/render-graphiql/package.json') as { version: string }).version;
const assetsBase = `${GRAPHIQL_ASSETS_PATH}/${version}`;

/** What the page opens with: the navigation tree of every published docs site the token can see. */
export const GRAPHIQL_EXAMPLE_QUERY = `# The navigation tree of your published docs sites, in one request.
# Run it with the ▶ button (the token goes in the Headers pane below).
{
  viewer {
    organizations(first: 5) {
      edges {
        node {
          title
          sites(published: true, first: 10) {
            edges {
              node {
                title
                urls { published }
                sections(first: 20) {
                  edges { node { title path default siteSpaces { path title space { title } } } }
                }
                sectionGroups(first: 10) {
                  edges { node { title sections { title path siteSpaces { path space { title } } } } }
                }
              }
            }
          }
        }
      }
    }
  }
}
`;

/** Starts the editor: workers from this server, options from the page. */
const START_SCRIPT = `(function () {
  var workers = { editorWorkerService: 'editor.worker.js', json: 'json.worker.js', graphql: 'graphql.worker.js' };
  self.MonacoEnvironment = {
    globalAPI: false,
    getWorkerUrl: function (_moduleId, label) { return '${assetsBase}/' + workers[label]; },
  };
  var options = JSON.parse(document.getElementById('graphiql-options').textContent);
  YogaGraphiQL.renderYogaGraphiQL(document.querySelector('#root'), options);
})();
`;

interface Asset {
  type: string;
  body: Buffer;
  etag: string;
  /** Compressed when first asked for (off the event loop), then kept. */
  encoded: Partial<Record<'br' | 'gzip', Promise<Buffer>>>;
}

let assets: Promise<Map<string, Asset>> | undefined;

/** The GraphiQL build, loaded when first asked for: it is megabytes of script. */
function loadAssets(): Promise<Map<string, Asset>> {
  assets ??= import(pathToFileURL(path.join(packageDir, 'esm', 'graphiql.js')).href).then((build: Record<string, string>) => {
    const asset = (type: string, body: string | Buffer): Asset => {
      const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
      return { type, body: bytes, etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 22)}"`, encoded: {} };
    };
    const icon = /^data:([^;]+);base64,(.*)$/.exec(build.favicon ?? '');
    return new Map<string, Asset>([
      ['graphiql.js', asset('text/javascript; charset=utf-8', build.js!)],
      ['graphiql.css', asset('text/css; charset=utf-8', build.css!)],
      ['editor.worker.js', asset('text/javascript; charset=utf-8', build.editorWorkerService!)],
      ['json.worker.js', asset('text/javascript; charset=utf-8', build.jsonWorker!)],
      ['graphql.worker.js', asset('text/javascript; charset=utf-8', build.graphqlWorker!)],
      ['start.js', asset('text/javascript; charset=utf-8', START_SCRIPT)],
      ...(icon ? [['favicon.ico', asset(icon[1]!, Buffer.from(icon[2]!, 'base64'))] as [string, Asset]] : []),
    ]);
  });
  return assets;
}

function encodingFor(request: FastifyRequest): 'br' | 'gzip' | null {
  const accepted = String(request.headers['accept-encoding'] ?? '');
  return /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : null;
}

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

function encode(asset: Asset, encoding: 'br' | 'gzip'): Promise<Buffer> {
  return (asset.encoded[encoding] ??=
    encoding === 'br'
      ? brotli(asset.body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: asset.body.length } })
      : gzipped(asset.body, { level: 9 }));
}

/** `JSON` that is safe inside a `<script>` element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** The page: the options as JSON, then the build and the start script, all from this server. */
export function renderGraphiQLPage(options: Record<string, unknown>): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>docs-gateway GraphiQL</title>
<link rel="icon" href="${assetsBase}/favicon.ico">
<link rel="stylesheet" href="${assetsBase}/graphiql.css">
</head>
<body id="body" class="no-focus-outline">
<noscript>GraphiQL needs JavaScript.</noscript>
<div id="root"></div>
<script type="application/json" id="graphiql-options">${scriptJson(options)}</script>
<script src="${assetsBase}/graphiql.js"></script>
<script src="${assetsBase}/start.js"></script>
</body>
</html>
`;
}

export function registerGraphiQLAssets(app: FastifyInstance): void {
  app.get<{ Params: { version: string; file: string } }>(`${GRAPHIQL_ASSETS_PATH}/:version/:file`, async (request, reply: FastifyReply) => {
    const asset = request.params.version === version ? (await loadAssets()).get(request.params.file) : undefined;
    if (!asset) return reply.code(404).send({ error: { code: 404, message: `No GraphiQL asset ${request.params.version}/${request.params.file}` } });
    reply.type(asset.type).header('cache-control', 'public, max-age=31536000, immutable').header('etag', asset.etag).header('vary', 'accept-encoding');
    if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
    const encoding = encodingFor(request);
    if (!encoding || asset.body.length < 1024) return reply.send(asset.body);
    return reply.header('content-encoding', encoding).send(await encode(asset, encoding));
  });
}
