import type { FastifyInstance } from 'fastify';
import type { PublicUrls } from '../config.ts';
import type { Database } from '../db/index.ts';

/**
 * The `urls.app` (and `urls.published` without a custom hostname) of every
 * object point into a web application. docs-gateway is the API behind one and
 * ships none; `APP_URL` names yours. Without it they are addresses of this
 * server under `/app`, answered here by a redirect to the REST resource of
 * that object (for a revision, of the content it belongs to). So every address
 * an answer carries leads somewhere.
 */

interface AppLink {
  pattern: RegExp;
  /** Where the object is served, or null when it does not exist. */
  target(match: string[], database: Database): Promise<string | null> | string | null;
}

const segment = '([^/?#]+)';

const LINKS: AppLink[] = [
  { pattern: new RegExp(`^/o/${segment}$`), target: ([org]) => `/v1/orgs/${org}` },
  { pattern: new RegExp(`^/o/${segment}/c/${segment}$`), target: ([, collection]) => `/v1/collections/${collection}` },
  { pattern: new RegExp(`^/o/${segment}/openapi/${segment}$`), target: ([org, slug]) => `/v1/orgs/${org}/openapi/${slug}` },
  { pattern: new RegExp(`^/o/${segment}/sites/${segment}$`), target: ([org, site]) => `/v1/orgs/${org}/sites/${site}` },
  // A preview is what members see of the site, published or not.
  { pattern: new RegExp(`^/o/${segment}/sites/${segment}/preview$`), target: ([org, site]) => `/v1/orgs/${org}/sites/${site}/published` },
  { pattern: new RegExp(`^/s/${segment}$`), target: ([space]) => `/v1/spaces/${space}` },
  { pattern: new RegExp(`^/s/${segment}/page/${segment}$`), target: ([space, page]) => `/v1/spaces/${space}/content/page/${page}` },
  { pattern: new RegExp(`^/s/${segment}/~/changes/${segment}$`), target: ([space, number]) => `/v1/spaces/${space}/change-requests/${number}` },
  // No operation reads a revision by id: it leads to the content it belongs to, as that is now.
  {
    pattern: new RegExp(`^/s/${segment}/revisions/${segment}$`),
    target: async ([space, revision], database) => {
      const row = await database.db.revision.findUnique({
        where: { id: decodeURIComponent(revision!) },
        select: { spaceId: true, changeRequestId: true, type: true },
      });
      if (!row || row.spaceId !== decodeURIComponent(space!)) return null;
      return row.changeRequestId && row.type !== 'merge' ? `/v1/spaces/${space}/change-requests/${row.changeRequestId}/content` : `/v1/spaces/${space}/content`;
    },
  },
  // A published site (no custom hostname): its organization is looked up. Its text
  // for assistants (llms.txt, llms-full.txt, <page>.md) is at the same place under it.
  {
    pattern: new RegExp(`^/sites/${segment}(/[^?#]*)?$`),
    target: async ([site, rest], database) => {
      const row = await database.db.site.findUnique({ where: { id: decodeURIComponent(site!) }, select: { organizationId: true } });
      const text = rest && /^\/(llms\.txt|llms-full\.txt|.+\.md)$/.test(rest) ? rest : '';
      return row ? `/v1/orgs/${row.organizationId}/sites/${site}/published${text}` : null;
    },
  },
];

/** The path `urls.app` starts with on this server, or null when it is another server's (APP_URL). */
export function appPathPrefix(urls: PublicUrls): string | null {
  if (!urls.app.startsWith(`${urls.api}/`)) return null;
  return urls.app.slice(urls.api.length);
}

export function registerAppLinks(app: FastifyInstance, { database, urls }: { database: Database; urls: PublicUrls }): void {
  const prefix = appPathPrefix(urls);
  if (!prefix) return;
  app.get(`${prefix}/*`, async (request, reply) => {
    const [path, query] = request.url.slice(prefix.length).split(/\?(.*)/s, 2) as [string, string | undefined];
    for (const link of LINKS) {
      const match = link.pattern.exec(path);
      if (!match) continue;
      const target = await link.target(match.slice(1), database);
      if (!target) break;
      // The query travels along (a share link's `shareKey`).
      return reply.redirect(query ? `${target}${target.includes('?') ? '&' : '?'}${query}` : target, 302);
    }
    return reply.code(404).send({
      error: {
        code: 404,
        message: `No object at ${prefix}${path}: app addresses name organizations, collections, spaces, pages, change requests, revisions, sites and OpenAPI specs`,
      },
    });
  });
}
