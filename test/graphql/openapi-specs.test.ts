import { beforeAll, describe, expect, it, vi } from 'vitest';
import { type TestApp, createTestApp } from '../support/app.ts';
import { buildTeam } from '../support/factories.ts';
import { expectData, expectGraphQLError, mutate } from '../support/graphql.ts';
import { TEST_OPENAPI_FETCH, petstore, serveOpenAPISources } from '../support/openapi-sources.ts';

let t: TestApp;
let sources: Awaited<ReturnType<typeof serveOpenAPISources>>;
beforeAll(async () => {
  t = await createTestApp({ openApiFetch: TEST_OPENAPI_FETCH });
  sources = await serveOpenAPISources();
});

const SPEC_FIELDS = `id object slug sourceURL processingState lastProcessedAt lastProcessErrorCode lastProcessedErrors { message code }
  lastProcessedErrorCount createdAt updatedAt permissions { view edit } urls { location app } organization { id }`;
const VERSION_FIELDS = 'id object url createdAt urls { location } content { filesystem url urls { source public } }';

async function setup() {
  const team = await buildTeam(t.database);
  const organizationId = team.organization.id;
  const rest = async (method: string, url: string) => {
    const response = await t.call(method, url, { token: team.admin.token });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const run = async (name: string, input: Record<string, unknown>, selection = `openAPISpec { ${SPEC_FIELDS} }`, token = team.admin.token) =>
    expectData(await mutate(t, token, name, input, selection))[name];
  /** The spec over GraphQL once its processing ended. */
  const processed = async (specId: string) => {
    let spec: any;
    await vi.waitUntil(
      async () => {
        spec = expectData(
          await t.graphql(team.admin.token, `query($id: ID!) { node(id: $id) { ... on OpenAPISpec { ${SPEC_FIELDS} lastVersion { id } } } }`, { id: specId }),
        ).node;
        return spec.processingState === 'complete';
      },
      { timeout: 15_000, interval: 50 },
    );
    return spec;
  };
  return { ...team, organizationId, rest, run, processed };
}

/** A REST spec in GraphQL's shape: absent optional fields are nulls, lastVersion an object, organization an object. */
function restAsGraphQL(spec: any, organizationId: string) {
  const { lastVersion, ...rest } = spec;
  return {
    sourceURL: null,
    lastProcessedAt: null,
    lastProcessErrorCode: null,
    ...rest,
    lastProcessedErrors: (spec.lastProcessedErrors ?? []).map((error: { message: string; code?: string }) => ({ code: null, ...error })),
    organization: { id: organizationId },
    lastVersion: lastVersion ? { id: lastVersion } : null,
  };
}

describe('OpenAPI specs over GraphQL', () => {
  it('creates, processes, updates and deletes a spec through mutations, and reads as REST does', async () => {
    const { organizationId, rest, run, processed, admin } = await setup();
    const created = await run('createOpenAPISpec', { organizationId, slug: 'petstore', source: { url: `${sources.base}/petstore.json` } });
    expect(created.openAPISpec).toMatchObject({ object: 'openapi-spec', slug: 'petstore', sourceURL: `${sources.base}/petstore.json` });
    expect(['pending', 'progress', 'complete']).toContain(created.openAPISpec.processingState);
    const specId = created.openAPISpec.id as string;
    const first = await processed(specId);
    expect(first).toEqual(restAsGraphQL(await rest('GET', `/v1/orgs/${organizationId}/openapi/petstore`), organizationId));
    const v1 = first.lastVersion.id as string;

    // A failure keeps the version.
    const failing = await run('createOrUpdateOpenAPISpec', { organizationId, slug: 'petstore', source: { url: sources.unreachable } });
    expect(failing.openAPISpec.id).toBe(specId);
    const failed = await processed(specId);
    expect(failed).toMatchObject({ lastProcessErrorCode: 'FETCH_ERROR', lastVersion: { id: v1 }, lastProcessedErrorCount: 1 });
    expect(failed).toEqual(restAsGraphQL(await rest('GET', `/v1/orgs/${organizationId}/openapi/petstore`), organizationId));

    // A valid update (text): a second version.
    await run('createOrUpdateOpenAPISpec', { organizationId, slug: 'petstore', source: { text: JSON.stringify(petstore('2.0.0')) } });
    const second = await processed(specId);
    expect(second).toMatchObject({ lastProcessErrorCode: null, sourceURL: null, lastProcessedErrors: [] });
    expect(second.lastVersion.id).not.toBe(v1);

    const data = expectData(
      await t.graphql(
        admin.token,
        `query($org: ID!) { organization(id: $org) { openAPISpecs(first: 10) { totalCount edges { node { id slug
          lastVersion { ${VERSION_FIELDS} spec { id } }
          versions(first: 10) { totalCount edges { node { ${VERSION_FIELDS} } } } } } } } }`,
        { org: organizationId },
      ),
    );
    const specs = data.organization.openAPISpecs;
    expect(specs.totalCount).toBe(1);
    const node = specs.edges[0].node;
    const restVersions = (await rest('GET', `/v1/orgs/${organizationId}/openapi/petstore/versions`)).items;
    expect(node.versions.totalCount).toBe(2);
    const versions = node.versions.edges.map((edge: any) => edge.node);
    expect(versions.map(({ content: _, ...version }: any) => version)).toEqual(restVersions);
    for (const version of versions) {
      expect(version.content).toEqual(await rest('GET', `/v1/orgs/${organizationId}/openapi/petstore/versions/${version.id}/content`));
    }
    expect(node.lastVersion).toEqual({ ...versions[0], spec: { id: specId } });
    expect(node.lastVersion.content.filesystem).toEqual({ 'openapi.json': petstore('2.0.0') });
    // A version is a node too.
    expect(expectData(await t.graphql(admin.token, `query($id: ID!) { node(id: $id) { id ... on OpenAPISpecVersion { url } } }`, { id: v1 })).node).toEqual({
      id: v1,
      url: `${sources.base}/petstore.json`,
    });

    const deleted = await run('deleteOpenAPISpec', { specId }, 'deletedOpenAPISpecId');
    expect(deleted.deletedOpenAPISpecId).toBe(specId);
    expect(await t.database.db.openApiSpec.count({ where: { id: specId } })).toBe(0);
    expectGraphQLError(await t.graphql(admin.token, `query($id: ID!) { node(id: $id) { id } }`, { id: v1 }), 404);
  });

  it('refuses as REST does: bad input naming the field, 403, 404 and 409, writing nothing', async () => {
    const { organizationId, run, member, processed, admin } = await setup();
    const created = await run('createOpenAPISpec', { organizationId, slug: 'taken', source: { text: JSON.stringify(petstore('1')) } });
    await processed(created.openAPISpec.id);
    const before = await t.database.db.openApiSpec.count({ where: { organizationId } });
    const selection = 'openAPISpec { id }';
    const adminToken = admin.token;
    const token = (await buildTeam(t.database)).admin.token;
    const reader = await member('read');
    const guest = await member(null);

    expectGraphQLError(
      await mutate(t, adminToken, 'createOpenAPISpec', { organizationId, slug: 'Bad Slug', source: { text: '{}' } }, selection),
      400,
      /^slug: /,
    );
    expectGraphQLError(
      await mutate(t, adminToken, 'createOpenAPISpec', { organizationId, slug: 'ok', source: {} }, selection),
      400,
      /^source: must have either a url or a text/,
    );
    expectGraphQLError(
      await mutate(t, adminToken, 'createOpenAPISpec', { organizationId, slug: 'ok', source: { url: 'file:///etc/passwd' } }, selection),
      400,
      /^source\.url: /,
    );
    expectGraphQLError(
      await mutate(t, adminToken, 'createOrUpdateOpenAPISpec', { organizationId, slug: 'UPPER', source: { text: '{}' } }, selection),
      400,
      /^specSlug: /,
    );
    expectGraphQLError(await mutate(t, adminToken, 'createOpenAPISpec', { organizationId, slug: 'taken', source: { text: '{}' } }, selection), 409, /^slug: /);
    expectGraphQLError(await mutate(t, reader.token, 'createOpenAPISpec', { organizationId, slug: 'ok', source: { text: '{}' } }, selection), 403);
    expectGraphQLError(await mutate(t, reader.token, 'deleteOpenAPISpec', { specId: created.openAPISpec.id }, 'deletedOpenAPISpecId'), 403);
    expectGraphQLError(await mutate(t, token, 'deleteOpenAPISpec', { specId: created.openAPISpec.id }, 'deletedOpenAPISpecId'), 404);
    expectGraphQLError(await mutate(t, token, 'createOrUpdateOpenAPISpec', { organizationId, slug: 'taken', source: { text: '{}' } }, selection), 404);
    expectGraphQLError(
      await t.graphql(guest.token, `query($org: ID!) { organization(id: $org) { openAPISpecs(first: 1) { totalCount } } }`, { org: organizationId }),
      403,
    );
    expectGraphQLError(await t.graphql(token, `query($id: ID!) { node(id: $id) { id } }`, { id: created.openAPISpec.id }), 404);
    expect(await t.database.db.openApiSpec.count({ where: { organizationId } })).toBe(before);
  });
});
