// The REST calls a frontend makes for a site tree without a gateway, six at a
// time like a browser: the organization, its sites, each site's sections and
// site spaces, then each space — 1 + 1 + 10 + 10 + 1,000 calls.
import http from 'node:http';

interface Listing<T> {
  items: T[];
  next?: { page: string };
}

export async function restWaterfall(baseUrl: string, token: string, organizationId: string): Promise<{ calls: number; bytes: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 6 });
  let calls = 0;
  let bytes = 0;
  const get = <T>(path: string) =>
    new Promise<T>((resolve, reject) => {
      calls++;
      const request = http.get(`${baseUrl}${path}`, { agent, headers: { authorization: `Bearer ${token}` } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const body = Buffer.concat(chunks);
          bytes += body.length;
          if (response.statusCode !== 200) reject(new Error(`GET ${path}: ${response.statusCode} ${body}`));
          else resolve(JSON.parse(body.toString('utf8')) as T);
        });
      });
      request.on('error', reject);
    });
  const all = async <T>(path: string): Promise<T[]> => {
    const items: T[] = [];
    let page: string | undefined;
    do {
      const listing: Listing<T> = await get(`${path}?limit=1000${page ? `&page=${encodeURIComponent(page)}` : ''}`);
      items.push(...listing.items);
      page = listing.next?.page;
    } while (page);
    return items;
  };
  try {
    const org = `/v1/orgs/${organizationId}`;
    const [, sites] = await Promise.all([get(org), all<{ id: string }>(`${org}/sites`)]);
    const siteSpaces = await Promise.all(
      sites.flatMap((site) => [all(`${org}/sites/${site.id}/sections`), all<{ space: { id: string } }>(`${org}/sites/${site.id}/site-spaces`)]),
    );
    const spaceIds = siteSpaces.flat().flatMap((item) => ('space' in (item as object) ? [(item as { space: { id: string } }).space.id] : []));
    await Promise.all(spaceIds.map((id) => get(`/v1/spaces/${id}`)));
    return { calls, bytes };
  } finally {
    agent.destroy();
  }
}

/** One POST with the same client, for the wall-time comparison with the waterfall. */
export async function postOnce(url: string, token: string, body: unknown): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok || text.includes('"errors"')) throw new Error(`POST ${url}: ${response.status} ${text.slice(0, 300)}`);
  return text.length;
}
