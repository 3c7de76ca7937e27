import { graphql } from './gql/index.ts';

/**
 * The navigation tree of a docs site in one request, as a frontend renders
 * it: its sections (and section groups) with their site spaces. Typed by the
 * GraphQL Code Generator: `SiteTreeQuery` and `SiteTreeQueryVariables`.
 */
export const SiteTree = graphql(`
  query SiteTree($organizationId: ID!) {
    node(id: $organizationId) {
      ... on Organization {
        title
        sites(published: true, first: 10) {
          edges {
            node {
              id
              title
              urls {
                published
              }
              sections(first: 50) {
                edges {
                  node {
                    title
                    path
                    default
                    siteSpaces {
                      path
                      title
                      space {
                        id
                        title
                        emoji
                      }
                    }
                  }
                }
              }
              sectionGroups(first: 20) {
                edges {
                  node {
                    title
                    sections {
                      title
                      path
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
`);
