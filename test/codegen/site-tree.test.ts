import { fileURLToPath } from 'node:url';
import { print } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadPersistedOperations } from '../../src/graphql/persisted-operations.ts';
import { type TestApp, createTestApp } from '../support/app.ts';
import { buildTeam } from '../support/factories.ts';
import type { SiteTreeQuery, SiteTreeQueryVariables } from './gql/graphql.ts';
import { SiteTree } from './site-tree.ts';

/**
 * What GraphQL Code Generator gives a frontend: the typed site-tree document
 * runs against the server and its result has the generated type; its hash, from
 * the generated manifest, runs it as a persisted operation — the only kind of
 * operation a server with PERSISTED_OPERATIONS_ONLY accepts.
 */

const MANIFEST = fileURLToPath(new URL('./gql/persisted-documents.json', import.meta.url));
let t: TestApp;
let persistedOnly: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  persistedOnly = await createTestApp({ persistedOperations: loadPersistedOperations(MANIFEST, true) });
});

async function publishedSite() {
  const team = await buildTeam(t.database);
  const ok = async (method: string, url: string, body?: unknown, status = 200) => {
    const response = await t.call(method, url, { token: team.admin.token, ...(body ? { body } : {}) });
    expect(response.statusCode, response.body).toBe(status);
    return response.json();
  };
  const space = await ok('POST', `/v1/orgs/${team.organization.id}/spaces`, { title: 'Handbook' }, 201);
  const site = await ok('POST', `/v1/orgs/${team.organization.id}/sites`, { title: 'Docs', visibility: 'public' }, 201);
  await ok('POST', `/v1/orgs/${team.organization.id}/sites/${site.id}/site-spaces`, { spaceId: space.id }, 201);
  await ok('POST', `/v1/orgs/${team.organization.id}/sites/${site.id}/publish`);
  return { team, site, space };
}

describe('the typed site-tree document', () => {
  it('runs against the server, its result typed by the generated SiteTreeQuery', async () => {
    const { team, site } = await publishedSite();
    const variables: SiteTreeQueryVariables = { organizationId: team.organization.id };
    const result = await t.graphql<SiteTreeQuery>(team.admin.token, print(SiteTree), variables);
    expect(result.errors).toBeUndefined();
    const organization = result.data!.node as Extract<SiteTreeQuery['node'], { sites: unknown }>;
    const sites = organization.sites.edges.map((edge) => edge.node);
    expect(sites.map((node) => node.id)).toEqual([site.id]);
    expect(sites[0]).toMatchObject({ title: 'Docs', urls: { published: expect.stringContaining(site.id) }, sections: { edges: [] } });
    expect(organization.title).toBe(team.organization.title);
  });

  it('runs by its hash alone on a server that accepts persisted operations only, and nothing else', async () => {
    const { team, site } = await publishedSite();
    const [hash, text] = Object.entries(loadPersistedOperations(MANIFEST, true).documents)[0]!;
    expect(text).toContain('query SiteTree');
    const byHash = await persistedOnly.call('POST', '/graphql', {
      token: team.admin.token,
      body: { documentId: `sha256:${hash}`, variables: { organizationId: team.organization.id } },
    });
    expect(byHash.statusCode).toBe(200);
    expect(byHash.json().data.node.sites.edges[0].node.id).toBe(site.id);
    // Apollo's way of sending the hash works too.
    const apollo = await persistedOnly.call('POST', '/graphql', {
      token: team.admin.token,
      body: { extensions: { persistedQuery: { version: 1, sha256Hash: hash } }, variables: { organizationId: team.organization.id } },
    });
    expect(apollo.json().data.node.sites.edges[0].node.id).toBe(site.id);

    const asText = await persistedOnly.call('POST', '/graphql', {
      token: team.admin.token,
      body: { query: print(SiteTree), variables: { organizationId: team.organization.id } },
    });
    expect(asText.statusCode).toBe(403);
    expect(asText.json().errors[0]).toMatchObject({ message: expect.stringContaining('persisted operations only'), extensions: { code: 403 } });
    const unknown = await persistedOnly.call('POST', '/graphql', { token: team.admin.token, body: { documentId: 'sha256:0000' } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().errors[0].extensions.code).toBe(404);
    // A server without the option runs text as always.
    expect((await t.graphql(team.admin.token, '{ viewer { user { id } } }')).errors).toBeUndefined();
  });
});
