// Peer: GraphQL Mesh over docs-gateway's own REST API (/v1/openapi.json),
// composed into a supergraph served by Hive Gateway. The nesting a frontend
// needs (organization → sites → sections → site spaces → space → organization,
// and for S7 a site's sections → site spaces → space → page tree)
// is declared with @resolveTo; each nested field is one REST call. The tree's
// organization id is written into the arguments: "{root.organization}" on a
// space nested in a listing reaches the gateway without a value (Mesh 0.112).
import { defineConfig } from '@graphql-mesh/compose-cli';
import { loadOpenAPISubgraph } from '@omnigraph/openapi';

export const composeConfig = defineConfig({
  output: process.env.SUPERGRAPH_FILE,
  subgraphs: [
    {
      sourceHandler: loadOpenAPISubgraph('docs', {
        source: process.env.OPENAPI_FILE,
        endpoint: process.env.DOCS_GATEWAY_URL,
        operationHeaders: { Authorization: '{context.headers.authorization}' },
      }),
    },
  ],
  additionalTypeDefs: /* GraphQL */ `
    extend type Organization {
      siteList: [Site] @resolveTo(
        sourceName: "docs", sourceTypeName: "Query", sourceFieldName: "listSites",
        requiredSelectionSet: "{ id }", sourceArgs: { organizationId: "{root.id}", limit: 1000 }, result: "items"
      )
    }
    extend type Site {
      sectionList: [SiteSection] @resolveTo(
        sourceName: "docs", sourceTypeName: "Query", sourceFieldName: "listSiteSections",
        requiredSelectionSet: "{ id }",
        sourceArgs: { organizationId: "${process.env.TREE_ORGANIZATION_ID}", siteId: "{root.id}", limit: 1000 }, result: "items"
      )
    }
    extend type Space {
      pageList: [RevisionPage] @resolveTo(
        sourceName: "docs", sourceTypeName: "Query", sourceFieldName: "listPages",
        requiredSelectionSet: "{ id }", sourceArgs: { spaceId: "{root.id}" }, result: "pages"
      )
      organizationObject: Organization @resolveTo(
        sourceName: "docs", sourceTypeName: "Query", sourceFieldName: "getOrganizationById",
        sourceArgs: { organizationId: "${process.env.TREE_ORGANIZATION_ID}" }
      )
    }
  `,
});
