import { expect } from 'vitest';
import type { TestApp } from './app.ts';
import type { Connection } from './graphql.ts';

/**
 * Walking a listing page by page, to the end: REST listings with `limit` and
 * `page` = next.page, GraphQL connections with cursors. Several test files
 * check paging of their listings, and parity checks that both contracts page
 * alike.
 */

/** The ids of a REST listing page, in order. */
export const itemIds = (body: { items: Array<{ id: string }> }) => body.items.map((item) => item.id);

export interface RestPage {
  next?: { page: string };
  count: number;
  items: any[];
}

/** Follows a REST listing with `limit`, `page` = next.page; returns every page body. */
export async function followRest(t: TestApp, token: string, url: string, firstPage?: string, maxPages = 50): Promise<RestPage[]> {
  const pages = [];
  let page = firstPage;
  for (let i = 0; i < maxPages; i++) {
    const separator = url.includes('?') ? '&' : '?';
    const response = await t.call('GET', page ? `${url}${separator}page=${encodeURIComponent(page)}` : url, { token });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    pages.push(body);
    if (!body.next) return pages;
    page = body.next.page;
  }
  throw new Error(`more than ${maxPages} pages`);
}

/**
 * Every id of a REST listing, read `limit` at a time (no page longer than
 * that), with the `count` each page reported and how many pages it took.
 */
export async function listAll(t: TestApp, url: string, token: string, limit: number) {
  const separator = url.includes('?') ? '&' : '?';
  const pages = await followRest(t, token, `${url}${separator}limit=${limit}`);
  for (const body of pages) expect(body.items.length).toBeLessThanOrEqual(limit);
  return { seen: pages.flatMap(itemIds), counts: pages.map((body) => body.count), rounds: pages.length };
}

/** Follows a GraphQL connection with `first`, `after` = endCursor until the last page; returns every page. */
export function followForward<Node>(fetch: (after: string | undefined) => Promise<Connection<Node>>, maxPages = 50) {
  return follow(fetch, 'hasNextPage', 'endCursor', maxPages);
}

/** Follows a GraphQL connection backward with `last`, `before` = startCursor until the first page. */
export function followBackward<Node>(fetch: (before: string | undefined) => Promise<Connection<Node>>, maxPages = 50) {
  return follow(fetch, 'hasPreviousPage', 'startCursor', maxPages);
}

/** Fetches pages, passing each the cursor of the previous one, while `more` says there are more. */
async function follow<Node>(
  fetch: (cursor: string | undefined) => Promise<Connection<Node>>,
  more: 'hasNextPage' | 'hasPreviousPage',
  cursor: 'endCursor' | 'startCursor',
  maxPages: number,
): Promise<Array<Connection<Node>>> {
  const pages: Array<Connection<Node>> = [];
  let at: string | undefined;
  for (let i = 0; i < maxPages; i++) {
    const page = await fetch(at);
    pages.push(page);
    if (!page.pageInfo[more]) return pages;
    expect(page.pageInfo[cursor]).toBeTruthy();
    at = page.pageInfo[cursor]!;
  }
  throw new Error(`more than ${maxPages} pages`);
}
