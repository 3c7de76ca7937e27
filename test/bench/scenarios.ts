// The requests of the scenarios docs-gateway answers itself (S1–S3, S7, S8), shared by
// the benchmark (run.ts) and the profiler (profile.ts).
import type { DataSet } from './dataset.ts';
import type { Request } from './load.ts';

export const auth = (token: string) => ({ authorization: `Bearer ${token}` });
export const graphql = (token: string, query: string, variables: Record<string, unknown> = {}): Request => ({
  method: 'POST',
  path: '/graphql',
  headers: auth(token),
  body: { query, variables },
});

export const SPACE_QUERY = 'query Space($id: ID!) { space(id: $id) { id title emoji visibility createdAt urls { app } } }';
export const TREE_QUERY = `query Tree($id: ID!) { organization(id: $id) { title sites(first: 20) { edges { node { id title
  sections(first: 20) { edges { node { id title path siteSpaces { id path
    space { id title emoji visibility organization { title } } } } } } } } } } }`;

/** What a docs frontend renders as a site's navigation: sections, their site spaces, each space's page tree. */
export const NAVIGATION_QUERY = `query Navigation($id: ID!) { site(id: $id) { title sections(first: 20) { edges { node { id title path
  siteSpaces { id path space { id title content { pages { id title path pages { id title path pages { id title path } } } } } } } } } } }`;

export const SCENARIO_REQUESTS: Record<string, (set: DataSet) => Request> = {
  S1: (set) => ({ path: `/v1/spaces/${set.spaceId}`, headers: auth(set.token) }),
  S2: (set) => graphql(set.token, SPACE_QUERY, { id: set.spaceId }),
  S3: (set) => graphql(set.token, TREE_QUERY, { id: set.treeOrganizationId }),
  S7: (set) => graphql(set.token, NAVIGATION_QUERY, { id: set.navigationSiteId }),
  // A renderer's page view: one page's structured document, by revision and page id.
  S8: ({ pageView, token }) => ({
    path: `/v1/spaces/${pageView.spaceId}/revisions/${pageView.revisionId}/page/${pageView.pageId}/document`,
    headers: auth(token),
  }),
};
