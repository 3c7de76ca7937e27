import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import packageJson from '../../package.json' with { type: 'json' };
import type { PublicUrls } from '../config.ts';
import type { RequestContext } from '../context.ts';
import { type DomainError, isDomainError } from '../errors.ts';
import {
  type PublishedText,
  listedPages,
  llmsIndex,
  oneLine,
  pageAddress,
  pageMarkdown,
  publishedPageAt,
  publishedText,
  searchPublished,
} from '../domain/sites/llms.ts';
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

/** What the answer to one POST may hold at most, its messages' answers together (a batch of up to 100). */
export const MCP_MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/** Resources listed per `resources/list` answer; `nextCursor` gives the next ones. */
export const MCP_RESOURCES_PAGE_SIZE = 100;

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

  // Each listed page is a resource, listed a page of MCP_RESOURCES_PAGE_SIZE at a time (MCP's cursors):
  // the list of a site of thousands of pages is not one answer.
  const { ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ReadResourceRequestSchema, McpError, ErrorCode } = await import(
    '@modelcontextprotocol/sdk/types.js'
  );
  const resources = new Map(listedPages(text).map((entry) => [pageAddress(text, base, entry), entry]));
  const uris = [...resources.keys()];
  server.server.registerCapabilities({ resources: {} });
  server.server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    const start = offsetOf(request.params?.cursor);
    if (start === undefined) throw new McpError(ErrorCode.InvalidParams, 'cursor: is not one this server gave (send the nextCursor of the previous answer)');
    const end = start + MCP_RESOURCES_PAGE_SIZE;
    return {
      resources: uris.slice(start, end).map((uri) => {
        const { path, page } = resources.get(uri)!;
        return { uri, name: path, title: page.title, ...(page.description ? { description: page.description } : {}), mimeType: 'text/markdown' };
      }),
      ...(end < uris.length ? { nextCursor: cursorOf(end) } : {}),
    };
  });
  server.server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: [] }));
  server.server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    const entry = resources.get(uri);
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `Resource ${uri} not found: resources/list gives the addresses`);
    return { contents: [{ uri, mimeType: 'text/markdown', text: await pageMarkdown(ctx, entry) }] };
  });
  return server;
}

/** A `resources/list` cursor: where the next answer starts. */
const cursorOf = (offset: number) => Buffer.from(`resources:${offset}`).toString('base64url');

/** The offset a cursor names (0 without one); undefined for one this server did not give. */
function offsetOf(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return 0;
  const offset = /^resources:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString())?.[1];
  return offset === undefined ? undefined : Number(offset);
}

type Transport = StreamableHTTPServerTransport;

const isRequest = (message: JSONRPCMessage): message is JSONRPCMessage & { id: string | number; method: string } => 'method' in message && 'id' in message;
const isResponse = (message: JSONRPCMessage): message is JSONRPCMessage & { id: string | number } =>
  'id' in message && ('result' in message || 'error' in message);

/**
 * One POST's messages (a batch holds up to 100) answered one at a time, so that
 * no more than one answer is being made at once, and their answers counted: one
 * that would take the POST's answer beyond `maxBytes` is replaced by a JSON-RPC
 * error, and once the budget is spent the messages left are answered that
 * error without being run. Memory stays within about `maxBytes` and one answer.
 */
function boundExchange(transport: Transport, maxBytes: number): void {
  const deliver = transport.onmessage!;
  const send = transport.send.bind(transport);
  const waiting: Array<[JSONRPCMessage, MessageExtraInfo | undefined]> = [];
  let answering: string | number | undefined;
  let spent = 0;
  const tooLarge = (id: string | number, bytes?: number): JSONRPCMessage => ({
    jsonrpc: '2.0',
    id,
    error: {
      code: -32000,
      message:
        bytes !== undefined && bytes > maxBytes
          ? `The answer to this message is ${bytes} bytes, above the ${maxBytes} one answer may hold: ask for less`
          : `The answers to this batch reached the ${maxBytes} bytes one answer may hold: send this message again, in a batch of its own or a smaller one`,
      data: { limitBytes: maxBytes },
    },
  });
  const next = () => {
    while (answering === undefined && waiting.length > 0) {
      const [message, extra] = waiting.shift()!;
      if (!isRequest(message)) deliver(message, extra);
      else if (spent >= maxBytes) void transport.send(tooLarge(message.id));
      else {
        answering = message.id;
        deliver(message, extra);
      }
    }
  };
  transport.send = async (message, options) => {
    let outgoing = message;
    if (isResponse(message)) {
      const bytes = Buffer.byteLength(JSON.stringify(message));
      if (spent + bytes > maxBytes) outgoing = tooLarge(message.id, bytes);
      spent += outgoing === message ? bytes : Buffer.byteLength(JSON.stringify(outgoing));
      if (message.id === answering) {
        answering = undefined;
        // On the next turn of the event loop: other requests are served between a batch's messages.
        setImmediate(next);
      }
    }
    return send(outgoing, options);
  };
  transport.onmessage = (message, extra) => {
    waiting.push([message, extra]);
    next();
  };
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

/**
 * The MCP endpoint, with errors in its protocol's shape: every refusal (a body
 * that is not JSON or holds NUL characters, a site the reader may not see, a
 * rate limit) is a JSON-RPC error response without an id, with the HTTP status
 * and headers the server's other answers would have — as Streamable HTTP says
 * of input the server cannot accept.
 */
export async function publishedMcpPlugin(
  app: FastifyInstance,
  { urls, countMessages }: { urls: PublicUrls; countMessages: (request: FastifyRequest, count: number) => Promise<DomainError | null> },
) {
  const path = '/v1/orgs/:organizationId/sites/:siteId/published/mcp';
  type Params = { organizationId: string; siteId: string };

  // The server's error shape ({"error": {"code", "message"}}), written by its error handler, becomes JSON-RPC's.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode < 400 || typeof payload !== 'string') return payload;
    let body: { error?: { code?: unknown; message?: unknown } };
    try {
      body = JSON.parse(payload);
    } catch {
      return payload;
    }
    if (typeof body.error?.message !== 'string') return payload;
    return JSON.stringify(jsonRpcError(reply.statusCode, body.error.message));
  });

  app.post<{ Params: Params }>(path, async (request, reply) => {
    const { organizationId, siteId } = request.params;
    const ctx = request.ctx!;
    // Each message of a batch counts against the rate limit (the request counted the first).
    if (Array.isArray(request.body) && request.body.length > 1) {
      const limited = await countMessages(request, request.body.length - 1);
      if (limited) throw limited;
    }
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
    boundExchange(transport, MCP_MAX_ANSWER_BYTES);
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

/**
 * A refusal as a JSON-RPC error response: a body that is not JSON is a parse error, a message
 * whose params are refused has invalid params, another bad request is an invalid request; the
 * rest (not found, too many requests, unavailable) are server errors, with the HTTP status in `data`.
 */
export function jsonRpcError(status: number, message: string) {
  const code = status !== 400 ? -32000 : message.startsWith('body: is not valid JSON') ? -32700 : /^(\d+\.)?params(\.|:)/.test(message) ? -32602 : -32600;
  return { jsonrpc: '2.0', id: null, error: { code, message, data: { status } } };
}

function readerQuery(request: FastifyRequest): Record<string, unknown> {
  return withVisitorToken(request.query as Record<string, unknown>, request.headers['x-visitor-token'] as string | undefined);
}
