/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query SiteTree($organizationId: ID!) {\n    node(id: $organizationId) {\n      ... on Organization {\n        title\n        sites(published: true, first: 10) {\n          edges {\n            node {\n              id\n              title\n              urls {\n                published\n              }\n              sections(first: 50) {\n                edges {\n                  node {\n                    title\n                    path\n                    default\n                    siteSpaces {\n                      path\n                      title\n                      space {\n                        id\n                        title\n                        emoji\n                      }\n                    }\n                  }\n                }\n              }\n              sectionGroups(first: 20) {\n                edges {\n                  node {\n                    title\n                    sections {\n                      title\n                      path\n                    }\n                  }\n                }\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n": typeof types.SiteTreeDocument,
    "\n  subscription SpaceEvents($spaceId: ID!) {\n    spaceEvents(spaceId: $spaceId) {\n      __typename\n      ... on Event {\n        id\n        kind\n        at\n      }\n      ... on ChangeRequestEvent {\n        changeRequest {\n          number\n          subject\n          status\n        }\n      }\n      ... on CommentEvent {\n        commentId\n        comment {\n          body\n        }\n      }\n      ... on SpaceContentEvent {\n        revision {\n          id\n        }\n      }\n    }\n  }\n": typeof types.SpaceEventsDocument,
};
const documents: Documents = {
    "\n  query SiteTree($organizationId: ID!) {\n    node(id: $organizationId) {\n      ... on Organization {\n        title\n        sites(published: true, first: 10) {\n          edges {\n            node {\n              id\n              title\n              urls {\n                published\n              }\n              sections(first: 50) {\n                edges {\n                  node {\n                    title\n                    path\n                    default\n                    siteSpaces {\n                      path\n                      title\n                      space {\n                        id\n                        title\n                        emoji\n                      }\n                    }\n                  }\n                }\n              }\n              sectionGroups(first: 20) {\n                edges {\n                  node {\n                    title\n                    sections {\n                      title\n                      path\n                    }\n                  }\n                }\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n": types.SiteTreeDocument,
    "\n  subscription SpaceEvents($spaceId: ID!) {\n    spaceEvents(spaceId: $spaceId) {\n      __typename\n      ... on Event {\n        id\n        kind\n        at\n      }\n      ... on ChangeRequestEvent {\n        changeRequest {\n          number\n          subject\n          status\n        }\n      }\n      ... on CommentEvent {\n        commentId\n        comment {\n          body\n        }\n      }\n      ... on SpaceContentEvent {\n        revision {\n          id\n        }\n      }\n    }\n  }\n": types.SpaceEventsDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SiteTree($organizationId: ID!) {\n    node(id: $organizationId) {\n      ... on Organization {\n        title\n        sites(published: true, first: 10) {\n          edges {\n            node {\n              id\n              title\n              urls {\n                published\n              }\n              sections(first: 50) {\n                edges {\n                  node {\n                    title\n                    path\n                    default\n                    siteSpaces {\n                      path\n                      title\n                      space {\n                        id\n                        title\n                        emoji\n                      }\n                    }\n                  }\n                }\n              }\n              sectionGroups(first: 20) {\n                edges {\n                  node {\n                    title\n                    sections {\n                      title\n                      path\n                    }\n                  }\n                }\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query SiteTree($organizationId: ID!) {\n    node(id: $organizationId) {\n      ... on Organization {\n        title\n        sites(published: true, first: 10) {\n          edges {\n            node {\n              id\n              title\n              urls {\n                published\n              }\n              sections(first: 50) {\n                edges {\n                  node {\n                    title\n                    path\n                    default\n                    siteSpaces {\n                      path\n                      title\n                      space {\n                        id\n                        title\n                        emoji\n                      }\n                    }\n                  }\n                }\n              }\n              sectionGroups(first: 20) {\n                edges {\n                  node {\n                    title\n                    sections {\n                      title\n                      path\n                    }\n                  }\n                }\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription SpaceEvents($spaceId: ID!) {\n    spaceEvents(spaceId: $spaceId) {\n      __typename\n      ... on Event {\n        id\n        kind\n        at\n      }\n      ... on ChangeRequestEvent {\n        changeRequest {\n          number\n          subject\n          status\n        }\n      }\n      ... on CommentEvent {\n        commentId\n        comment {\n          body\n        }\n      }\n      ... on SpaceContentEvent {\n        revision {\n          id\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription SpaceEvents($spaceId: ID!) {\n    spaceEvents(spaceId: $spaceId) {\n      __typename\n      ... on Event {\n        id\n        kind\n        at\n      }\n      ... on ChangeRequestEvent {\n        changeRequest {\n          number\n          subject\n          status\n        }\n      }\n      ... on CommentEvent {\n        commentId\n        comment {\n          body\n        }\n      }\n      ... on SpaceContentEvent {\n        revision {\n          id\n        }\n      }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;