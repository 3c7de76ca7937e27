/**
 * The address of a crawled page as a key (website import): without query or
 * fragment, and without a trailing index file or slash, so that `/docs/`,
 * `/docs` and `/docs/index.html` are one page.
 */
export function pageAddress(url: URL): string {
  return `${url.origin}${url.pathname.replace(/\/(index\.html?)?$/i, '') || '/'}`;
}
