import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import packageJson from '../../package.json' with { type: 'json' };
import type { PublicUrls } from '../config.ts';
import type { RequestContext } from '../context.ts';
import { isDomainError } from '../errors.ts';
import { type PublishedText, llmsIndex, oneLine, pageAddress, pageMarkdown, publishedPageAt, publishedText, searchPublished } from '../domain/sites/llms.ts';
import { withVisitorToken } from '../domain/sites/published.ts';

/**
 * A Model Context Protocol server per published site, at `…/published/mcp`
 * (Streamable HTTP, stateless: each POST is one exchange, answered as JSON),
 * built with the official SDK. Its tools and resources read the site as its
 * reader sees it (src/domain/sites/llms.ts): the same token, share key or
 * visitor token as `…/published`, none needed on a public site. The SDK is
 * loaded on the first call, not at start: most servers never serve one.
 */

const MAX_RESULTS = 20;

function instructionsOf(text: PublishedText): string {
  return `Documentation of "${text.title}" (${text.organizationTitle}). Use search to find pages about a topic, get_page to read one as Markdown (by the path search or list_pages gives), and list_pages for the table of contents by section. Pages are also resources (text/markdown).`;
}

async function mcpServerFor(ctx: RequestContext, text: PublishedText, base: string) {
  const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const server = new McpServer({ name: `docs-gateway: ${text.title}`, version: packageJson.version }, { instructions: instructionsOf(text) });
  const textResult = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
  const errorResult = (value: string) => ({ content: [{ type: 'text' as const, text: value }], isError: true });

  server.registerTool(
    'search',
    {
      title: 'Search the documentation',
      description: `Full-text search of the pages of "${text.title}". Returns the best matching pages, best first, each with its title, its path (for get_page), its Markdown address and a snippet of the matching section. Every word must match (as a prefix).`,
      inputSchema: {
        query: z.string().min(1).max(512).describe('Words to look for, e.g. "rate limits" or "authentication token"'),
        limit: z.number().int().min(1).max(MAX_RESULTS).optional().describe(`How many pages at most (default 10, at most ${MAX_RESULTS})`),
      },
    },
    async ({ query, limit }) => {
      const results = await searchPublished(ctx, text, query, limit ?? 10);
      if (!results.length) return textResult(`No page of "${text.title}" matches "${query}".`);
      return textResult(
        results
          .map(
            ({ entry, section, excerpt }) =>
              `## ${oneLine(entry.page.title)}\npath: ${entry.path}${section ? `#${section}` : ''}\nurl: ${pageAddress(text, base, entry)}\n\n${excerpt.trim()}`,
          )
          .join('\n\n'),
      );
    },
  );

  server.registerTool(
    'get_page',
    {
      title: 'Read a page',
      description: `One page of "${text.title}" as Markdown, with front matter holding its title and description. Give its path (as search and list_pages show it, e.g. "guides/quickstart") or its id (pg_…).`,
      inputSchema: {
        path: z.string().min(1).max(2048).optional().describe('The page path, without ".md"'),
        id: z.string().min(1).max(100).optional().describe('The page id, when known instead of the path'),
      },
    },
    async ({ path, id }) => {
      if ((path === undefined) === (id === undefined)) return errorResult('Give exactly one of path and id.');
      const entry = path !== undefined ? findByPath(text, path) : text.groups.flatMap((group) => group.pages).find((each) => each.page.pageId === id);
      if (!entry)
        return errorResult(`"${text.title}" has no page ${path !== undefined ? `at "${path}"` : `with id "${id}"`}: search or list_pages give the paths.`);
      return textResult(await pageMarkdown(ctx, entry));
    },
  );

  server.registerTool(
    'list_pages',
    {
      title: 'Table of contents',
      description: `Every page of "${text.title}" by section, in reading order, as Markdown links with their descriptions (the site's llms.txt). The path of a page is its link without the address before it and without ".md".`,
      inputSchema: {},
    },
    async () => textResult(llmsIndex(text, base)),
  );

  // Paths of site spaces may hold "/": two pages can share an address, the first one is found there.
  const registered = new Set<string>();
  for (const entry of text.groups.flatMap((group) => group.pages).filter((each) => each.listed)) {
    const uri = pageAddress(text, base, entry);
    if (registered.has(uri)) continue;
    registered.add(uri);
    server.registerResource(
      entry.path,
      uri,
      { title: entry.page.title, ...(entry.page.description ? { description: entry.page.description } : {}), mimeType: 'text/markdown' },
      async () => ({ contents: [{ uri, mimeType: 'text/markdown', text: await pageMarkdown(ctx, entry) }] }),
    );
  }
  return server;
}

function findByPath(text: PublishedText, path: string) {
  try {
    // "guides/setup.md#install" as search shows it: the section, then the extension.
    return publishedPageAt(text, path.replace(/#.*$/, '').replace(/\.md$/, ''));
  } catch (error) {
    if (isDomainError(error)) return undefined;
    throw error;
  }
}

export function registerPublishedMcp(app: FastifyInstance, { urls }: { urls: PublicUrls }) {
  const path = '/v1/orgs/:organizationId/sites/:siteId/published/mcp';
  type Params = { organizationId: string; siteId: string };

  app.post<{ Params: Params }>(path, async (request, reply) => {
    const { organizationId, siteId } = request.params;
    const ctx = request.ctx!;
    // The site as its reader sees it, before any MCP: a site it may not see answers 404 like `…/published`.
    const text = await publishedText(ctx, organizationId, siteId, readerQuery(request));
    const base = `${urls.api}/v1/orgs/${organizationId}/sites/${siteId}/published`;
    const server = await mcpServerFor(ctx, text, base);
    const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // Written by the SDK on the raw response from here: the headers set so far (CORS, request id) go with it.
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });

  // Stateless: no stream to open with GET, no session to end with DELETE.
  for (const method of ['GET', 'DELETE'] as const) {
    app.route<{ Params: Params }>({
      method,
      url: path,
      handler: async (_request, reply) =>
        reply
          .code(405)
          .header('allow', 'POST')
          .send({ error: { code: 405, message: `No operation ${method} on an MCP server without sessions: send each JSON-RPC message with POST` } }),
    });
  }
}

function readerQuery(request: FastifyRequest): Record<string, unknown> {
  return withVisitorToken(request.query as Record<string, unknown>, request.headers['x-visitor-token'] as string | undefined);
}
