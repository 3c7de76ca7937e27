import { isEnumType } from 'graphql';
import { expect } from 'vitest';
import { schema } from '../../src/graphql/schema.ts';
import type { TestApp } from './app.ts';

/**
 * GraphQL requests and assertions of the GraphQL and parity tests, all over
 * POST /graphql of the real server (TestApp.graphql).
 */

export type GraphQLResult = Awaited<ReturnType<TestApp['graphql']>>;

/** GraphQL enum names that spell their REST value differently (`share_link` for `share-link`), read from the schema. */
const REST_SPELLING = new Map(
  Object.values(schema.getTypeMap())
    .filter(isEnumType)
    .flatMap((type) =>
      type
        .getValues()
        .filter((value) => value.name !== value.value)
        .map((value) => [value.name, value.value as string] as const),
    ),
);

/** Whether a REST scalar and a GraphQL one are the same value: equal, or an enum name and the REST value it stands for. */
export function sameScalar(rest: unknown, graphql: unknown): boolean {
  return JSON.stringify(rest) === JSON.stringify(graphql) || (typeof graphql === 'string' && REST_SPELLING.get(graphql) === rest);
}

/** Every field of each object type, as selection sets (relations select their id). */
export const USER_FIELDS = 'id object displayName email photoURL urls { location }';
export const ORGANIZATION_FIELDS = `
  id object title createdAt emailDomains hostname type useCase communityType defaultRole
  defaultContent { type site } sso ai inviteLinks plan mergeRules urls { location app logo }
  trial { status count endDate decision } internal_isOnNewTrial
  permissions { view access admin ownTeam createContent createOpenAPISpec viewBilling listMembers listTeams listIntegrations listInstallations installIntegration }`;
export const MEMBER_FIELDS = `id object role disabled joinedAt lastSeenAt sso spaces teams sites user { ${USER_FIELDS} } organization { id }`;
export const COLLECTION_FIELDS = `
  id object title description defaultLevel organization { id } parent { id }
  urls { location app } permissions { view admin viewInviteLinks create }`;
export const SPACE_FIELDS = `
  id object title emoji visibility createdAt updatedAt deletedAt editMode mergeRules
  urls { location app published public icon } organization { id } parent { id } language revision defaultLevel
  comments changeRequests changeRequestsOpen changeRequestsDraft
  permissions { view access admin viewInviteLinks edit triggerGitSync comment merge review installIntegration }`;
export const CUSTOM_FIELD_FIELDS = `
  id object name type title description placeholder options createdAt updatedAt urls { location } permissions { view edit }`;

/** A connection's selection: cursors, page info and total count around `node { fields }`. */
export const connectionOf = (fields: string) => `
  totalCount
  pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  edges { cursor node { ${fields} } }`;

export interface Connection<Node = any> {
  totalCount: number;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  edges: Array<{ cursor: string; node: Node }>;
}

export const nodeIds = (connection: Connection<{ id: string }>) => connection.edges.map((edge) => edge.node.id);

/** The data of a successful GraphQL response. */
export function expectData<T = any>(result: GraphQLResult): T {
  expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
  expect(result.status).toBe(200);
  return result.data as T;
}

/** A GraphQL response failing with one error of this status (`extensions.code`) and message. */
export function expectGraphQLError(result: GraphQLResult, code: number, message?: RegExp | string) {
  expect(result.errors, `expected a ${code} error, got ${JSON.stringify(result)}`).toBeDefined();
  expect(
    result.errors!.map((error) => error.extensions?.code),
    JSON.stringify(result.errors),
  ).toEqual([code]);
  if (message !== undefined) {
    if (typeof message === 'string') expect(result.errors![0]!.message).toBe(message);
    else expect(result.errors![0]!.message).toMatch(message);
  }
  return result.errors![0]!;
}

/** A GraphQL request without a token is refused before execution with HTTP 401. */
export async function expectUnauthenticated(t: TestApp, query: string, variables?: Record<string, unknown>) {
  const response = await t.call('POST', '/graphql', { body: { query, variables } });
  expect(response.statusCode, response.body).toBe(401);
  const body = response.json();
  expect(body.data).toBeUndefined();
  expect(body.errors.map((error: { extensions: { code: number } }) => error.extensions.code)).toEqual([401]);
  // An unknown token is refused the same way.
  const unknown = await t.call('POST', '/graphql', { token: 'dgw_not_a_token', body: { query, variables } });
  expect(unknown.statusCode, unknown.body).toBe(401);
}

/** `mutation($input: XInput!) { x(input: $input) { selection } }` */
export function mutation(name: string, selection: string) {
  const inputType = `${name[0]!.toUpperCase()}${name.slice(1)}Input`;
  return `mutation($input: ${inputType}!) { ${name}(input: $input) { ${selection} } }`;
}

export async function mutate(t: TestApp, token: string, name: string, input: Record<string, unknown>, selection: string) {
  return t.graphql(token, mutation(name, selection), { input });
}
