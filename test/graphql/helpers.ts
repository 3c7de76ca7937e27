import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Role } from '../../src/domain/access.ts';
import { ensureUser, issueApiToken } from '../../src/domain/users/provisioning.ts';
import type { TestApp } from '../support/app.ts';
import { type TestUser, addMember, buildTeam, buildUser } from '../support/factories.ts';

/**
 * Helpers of the GraphQL and parity tests (test/graphql/*.test.ts, test/parity/*.test.ts).
 * Everything goes through the real server: GraphQL over POST /graphql, REST over /v1.
 */

export const unique = () => randomUUID().slice(0, 8);

export type GraphQLResult = Awaited<ReturnType<TestApp['graphql']>>;

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
  expect(result.errors!.map((error) => error.extensions?.code), JSON.stringify(result.errors)).toEqual([code]);
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

/** A user whose email is at a domain of its own (for organizationsForEmailDomain). */
export async function buildUserAt(t: TestApp, domain: string, name = 'user'): Promise<TestUser> {
  const email = `${name}-${unique()}@${domain}`;
  const user = await ensureUser(t.database.db, email, `${name} ${unique()}`);
  return { id: user.id, email, token: await issueApiToken(t.database.db, user.id, 'test') };
}

/** An organization with an admin, members at other roles on demand, and REST helpers to fill it. */
export async function buildWorld(t: TestApp) {
  const team = await buildTeam(t.database);
  const organizationId = team.organization.id;
  const rest = async (method: string, url: string, token: string, body?: unknown, status = 200) => {
    const response = await t.call(method, url, { token, ...(body !== undefined ? { body } : {}) });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(status);
    return response.statusCode === 204 || response.statusCode === 205 ? undefined : response.json();
  };
  const collection = (body: Record<string, unknown> = {}, organization = organizationId, token = team.admin.token) =>
    rest('POST', `/v1/orgs/${organization}/collections`, token, body, 201);
  const space = (body: Record<string, unknown> = {}, organization = organizationId, token = team.admin.token) =>
    rest('POST', `/v1/orgs/${organization}/spaces`, token, body, 201);
  const customField = (body: Record<string, unknown>, organization = organizationId, token = team.admin.token) =>
    rest('POST', `/v1/orgs/${organization}/custom-fields`, token, body, 201);
  const stranger = () => buildUser(t.database, 'stranger');
  return { ...team, organizationId, rest, collection, space, customField, stranger };
}

/** A second organization administered by `admin` (for transfers). */
export async function otherOrganizationOf(t: TestApp, admin: TestUser, role: Role | null = 'admin') {
  const other = await buildTeam(t.database);
  await addMember(t.database, other.organization.id, admin, role);
  return other;
}

/** Follows a GraphQL connection with `first`, `after` = endCursor until the last page; returns every page. */
export async function followForward<Node>(
  fetch: (after: string | undefined) => Promise<Connection<Node>>,
  maxPages = 50,
): Promise<Array<Connection<Node>>> {
  const pages: Array<Connection<Node>> = [];
  let after: string | undefined;
  for (let i = 0; i < maxPages; i++) {
    const page = await fetch(after);
    pages.push(page);
    if (!page.pageInfo.hasNextPage) return pages;
    expect(page.pageInfo.endCursor).toBeTruthy();
    after = page.pageInfo.endCursor!;
  }
  throw new Error(`more than ${maxPages} pages`);
}

/** Follows a GraphQL connection backward with `last`, `before` = startCursor until the first page. */
export async function followBackward<Node>(
  fetch: (before: string | undefined) => Promise<Connection<Node>>,
  maxPages = 50,
): Promise<Array<Connection<Node>>> {
  const pages: Array<Connection<Node>> = [];
  let before: string | undefined;
  for (let i = 0; i < maxPages; i++) {
    const page = await fetch(before);
    pages.push(page);
    if (!page.pageInfo.hasPreviousPage) return pages;
    expect(page.pageInfo.startCursor).toBeTruthy();
    before = page.pageInfo.startCursor!;
  }
  throw new Error(`more than ${maxPages} pages`);
}

/** Follows a REST listing with `limit`, `page` = next.page; returns every page body. */
export async function followRest(
  t: TestApp,
  token: string,
  url: string,
  firstPage?: string,
  maxPages = 50,
): Promise<Array<{ next?: { page: string }; count: number; items: any[] }>> {
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
 * Differences between a REST object and the GraphQL object of the same id: every
 * REST field must have the same value in GraphQL (relations: REST id = GraphQL
 * `{ id }`), and a GraphQL field the REST object omits must be null.
 */
export function parityProblems(rest: unknown, graphql: unknown, relations: readonly string[] = [], path = ''): string[] {
  if (rest !== null && typeof rest === 'object' && !Array.isArray(rest)) {
    if (graphql === null || typeof graphql !== 'object' || Array.isArray(graphql)) {
      return [`${path || '.'}: REST ${JSON.stringify(rest)} but GraphQL ${JSON.stringify(graphql)}`];
    }
    const problems: string[] = [];
    const restObject = rest as Record<string, unknown>;
    const graphqlObject = graphql as Record<string, unknown>;
    for (const [key, value] of Object.entries(restObject)) {
      const here = path ? `${path}.${key}` : key;
      if (!(key in graphqlObject)) {
        problems.push(`${here}: REST has ${JSON.stringify(value)}, GraphQL has no such field selected`);
      } else if (!path && relations.includes(key)) {
        const related = graphqlObject[key] as { id?: string } | null;
        if ((related?.id ?? null) !== (value ?? null)) {
          problems.push(`${here}: REST ${JSON.stringify(value)} but GraphQL ${JSON.stringify(related)}`);
        }
      } else {
        problems.push(...parityProblems(value, graphqlObject[key], relations, here));
      }
    }
    for (const [key, value] of Object.entries(graphqlObject)) {
      const here = path ? `${path}.${key}` : key;
      if (!(key in restObject) && value !== null) {
        problems.push(`${here}: absent from REST but GraphQL has ${JSON.stringify(value)}`);
      }
    }
    return problems;
  }
  if (Array.isArray(rest) && Array.isArray(graphql) && rest.length === graphql.length) {
    return rest.flatMap((item, index) => parityProblems(item, graphql[index], [], `${path}[${index}]`));
  }
  return JSON.stringify(rest) === JSON.stringify(graphql)
    ? []
    : [`${path || '.'}: REST ${JSON.stringify(rest)} but GraphQL ${JSON.stringify(graphql)}`];
}
