import { beforeAll, describe, expect, it, vi } from 'vitest';
import { STALE_PROCESSING_MS, processOpenAPISpec, resumeOpenAPISpecsJob } from '../../src/domain/openapi/processing.ts';
import { parse as parseYaml } from 'yaml';
import { type TestApp, TEST_URLS, createTestApp } from '../support/app.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { buildTeam, unique } from '../support/factories.ts';
import { expectError } from '../support/http.ts';
import { jobRunner } from '../support/jobs.ts';
import { type OfficialClient, expectOfficialError, officialClient } from '../support/official.ts';
import { INVALID_DOCUMENT, TEST_OPENAPI_FETCH, petstore, serveOpenAPISources } from '../support/openapi-sources.ts';

let t: TestApp;
let official: OfficialClient;
let sources: Awaited<ReturnType<typeof serveOpenAPISources>>;
beforeAll(async () => {
  t = await createTestApp({ openApiFetch: TEST_OPENAPI_FETCH });
  official = await officialClient(t);
  sources = await serveOpenAPISources();
});

const SPECS = '/v1/orgs/{organizationId}/openapi';
const SPEC = '/v1/orgs/{organizationId}/openapi/{specSlug}';
const VERSIONS = `${SPEC}/versions`;
const LATEST = `${SPEC}/versions/latest`;
const LATEST_CONTENT = `${SPEC}/versions/latest/content`;
const VERSION = `${SPEC}/versions/{versionId}`;
const VERSION_CONTENT = `${SPEC}/versions/{versionId}/content`;

async function setup() {
  const team = await buildTeam(t.database);
  const organizationId = team.organization.id;
  const base = `/v1/orgs/${organizationId}/openapi`;
  const call = (method: string, url: string, token: string = team.admin.token, body?: unknown) =>
    t.call(method, url, { token, ...(body !== undefined ? { body } : {}) });
  /** Waits for the spec's processing to end (the job runs in the background) and returns it. */
  const processed = async (slug: string) => {
    let spec: any;
    await vi.waitUntil(
      async () => {
        const response = await call('GET', `${base}/${slug}`);
        expect(response.statusCode, response.body).toBe(200);
        spec = response.json();
        return spec.processingState === 'complete';
      },
      { timeout: 15_000, interval: 50 },
    );
    expectMatchesSchema('GET', SPEC, 200, spec);
    return spec;
  };
  const put = async (slug: string, source: object) => {
    const response = await call('PUT', `${base}/${slug}`, team.admin.token, { source });
    expect(response.statusCode, response.body).toBe(200);
    expectMatchesSchema('PUT', SPEC, 200, response.json());
    expect(response.json().processingState).toBe('pending');
    return processed(slug);
  };
  const versions = async (slug: string) => {
    const response = await call('GET', `${base}/${slug}/versions`);
    expect(response.statusCode, response.body).toBe(200);
    expectMatchesSchema('GET', VERSIONS, 200, response.json());
    return response.json();
  };
  const rows = async () => ({
    specs: await t.database.db.openApiSpec.count({ where: { organizationId } }),
    versions: await t.database.db.openApiSpecVersion.count({ where: { spec: { organizationId } } }),
  });
  return { ...team, organizationId, base, call, processed, put, versions, rows };
}

describe('OpenAPI specs', () => {
  it('processes a spec from its URL into a version, through every failure without losing it, then a new version', async () => {
    const { organizationId, admin, base, call, processed, put, versions } = await setup();
    const slug = `petstore-${unique()}`;
    const sourceURL = `${sources.base}/petstore.json`;

    // Created pending; the job fetches, validates and stores the first version.
    const created = await official(admin).orgs.createOpenApiSpec(organizationId, { slug, source: { url: sourceURL } });
    expect(created.status).toBe(201);
    expectMatchesSchema('POST', SPECS, 201, created.data);
    expect(created.data).toEqual({
      object: 'openapi-spec',
      id: expect.stringMatching(/^oas_/),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      slug,
      sourceURL,
      processingState: 'pending',
      lastProcessedErrorCount: 0,
      permissions: { view: true, edit: true },
      urls: { location: `${TEST_URLS.api}${base}/${slug}`, app: `${TEST_URLS.app}/o/${organizationId}/openapi/${slug}` },
    });
    const first = await processed(slug);
    expect(first).toMatchObject({ processingState: 'complete', lastVersion: expect.stringMatching(/^oasv_/), lastProcessedAt: expect.any(String) });
    expect(first).not.toHaveProperty('lastProcessErrorCode');
    const v1 = first.lastVersion as string;
    expect((await official(admin).orgs.getOpenApiSpecBySlug(organizationId, slug)).data).toEqual(first);

    const latest = await official(admin).orgs.getLatestOpenApiSpecVersion(organizationId, slug);
    expectMatchesSchema('GET', LATEST, 200, latest.data);
    expect(latest.data).toEqual({
      object: 'openapi-spec-version',
      id: v1,
      createdAt: expect.any(String),
      url: sourceURL,
      urls: { location: `${TEST_URLS.api}${base}/${slug}/versions/${v1}` },
    });
    const content = await official(admin).orgs.getLatestOpenApiSpecVersionContent(organizationId, slug);
    expectMatchesSchema('GET', LATEST_CONTENT, 200, content.data);
    expect(content.data).toEqual({ filesystem: { 'petstore.json': petstore('1.0.0') }, url: sourceURL, urls: { source: sourceURL, public: null } });

    // The same document again: processed, no new version.
    const again = await put(slug, { url: sourceURL });
    expect(again).toMatchObject({ processingState: 'complete', lastVersion: v1 });
    expect(new Date(again.lastProcessedAt).getTime()).toBeGreaterThanOrEqual(new Date(first.lastProcessedAt).getTime());
    expect((await versions(slug)).items.map((version: { id: string }) => version.id)).toEqual([v1]);

    // Failures: each recorded with its code, the last version kept.
    const invalid = await put(slug, { url: `${sources.base}/invalid.json` });
    expect(invalid).toMatchObject({
      processingState: 'complete',
      lastVersion: v1,
      lastProcessErrorCode: 'PARSE_ERROR',
      sourceURL: `${sources.base}/invalid.json`,
    });
    expect(invalid.lastProcessedErrorCount).toBeGreaterThan(0);
    expect(invalid.lastProcessedErrors).toHaveLength(invalid.lastProcessedErrorCount);
    expect(invalid.lastProcessedErrors.map((error: { message: string }) => error.message).join('\n')).toMatch(/version|petId/);

    // 80 validator errors: 50 listed, one MORE_ERRORS entry for the rest, and the count of them all.
    const paths = Object.fromEntries(Array.from({ length: 80 }, (_, index) => [`/p${index}`, { get: { responses: { '200': { description: 5 } } } }]));
    const many = await put(slug, { text: JSON.stringify({ openapi: '3.0.3', info: { title: 'Many', version: '1' }, paths }) });
    expect(many).toMatchObject({ lastProcessErrorCode: 'PARSE_ERROR', lastProcessedErrorCount: 80 });
    expect(many.lastProcessedErrors).toHaveLength(51);
    expect(many.lastProcessedErrors[50]).toEqual({ message: '…and 30 more errors', code: 'MORE_ERRORS' });
    const graph = await t.graphql(admin.token, 'query($id: ID!) { node(id: $id) { ... on OpenAPISpec { lastProcessedErrorCount } } }', { id: many.id });
    expect(graph.data.node.lastProcessedErrorCount).toBe(80);

    const notYaml = await put(slug, { url: `${sources.base}/not-yaml.yaml` });
    expect(notYaml).toMatchObject({ processingState: 'complete', lastVersion: v1, lastProcessErrorCode: 'PARSE_ERROR', lastProcessedErrorCount: 1 });
    expect(notYaml.lastProcessedErrors[0].message).toMatch(/not valid YAML/);

    const missing = await put(slug, { url: `${sources.base}/missing.json` });
    expect(missing).toMatchObject({ processingState: 'complete', lastVersion: v1, lastProcessErrorCode: 'FETCH_ERROR' });
    expect(missing.lastProcessedErrors).toEqual([{ message: `${sources.base}/missing.json answered HTTP 404`, code: 'HTTP_404' }]);

    const unreachable = await put(slug, { url: sources.unreachable });
    expect(unreachable).toMatchObject({ processingState: 'complete', lastVersion: v1, lastProcessErrorCode: 'FETCH_ERROR' });
    expect(unreachable.lastProcessedErrors[0].message).toMatch(/could not be reached/);

    const large = await put(slug, { url: `${sources.base}/large.json` });
    expect(large).toMatchObject({ processingState: 'complete', lastVersion: v1, lastProcessErrorCode: 'FETCH_ERROR' });
    expect(large.lastProcessedErrors[0].message).toMatch(`larger than ${TEST_OPENAPI_FETCH.maxBytes} bytes`);

    const started = Date.now();
    const slow = await put(slug, { url: `${sources.base}/slow.json` });
    expect(slow).toMatchObject({ processingState: 'complete', lastVersion: v1, lastProcessErrorCode: 'FETCH_TIMEOUT' });
    expect(slow.lastProcessedErrors[0].message).toMatch(`did not answer within ${TEST_OPENAPI_FETCH.timeoutMs} ms`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(TEST_OPENAPI_FETCH.timeoutMs);
    const stalled = await put(slug, { url: `${sources.base}/stalled.json` });
    expect(stalled).toMatchObject({ processingState: 'complete', lastVersion: v1, lastProcessErrorCode: 'FETCH_TIMEOUT' });

    // Still one version, still served.
    expect((await versions(slug)).items.map((version: { id: string }) => version.id)).toEqual([v1]);
    expect((await call('GET', `${base}/${slug}/versions/latest/content`)).json().filesystem).toEqual({ 'petstore.json': petstore('1.0.0') });

    // A valid update (YAML): a second version, the error cleared.
    const updatedURL = `${sources.base}/petstore-2.yaml`;
    const updated = await official(admin).orgs.createOrUpdateOpenApiSpecBySlug(organizationId, slug, { source: { url: updatedURL } });
    expect(updated.status).toBe(200);
    expect(updated.data).toMatchObject({ processingState: 'pending', sourceURL: updatedURL, lastVersion: v1 });
    const second = await processed(slug);
    expect(second).toMatchObject({ processingState: 'complete', lastProcessedErrorCount: 0 });
    expect(second).not.toHaveProperty('lastProcessErrorCode');
    expect(second).not.toHaveProperty('lastProcessedErrors');
    const v2 = second.lastVersion as string;
    expect(v2).not.toBe(v1);

    const listed = await official(admin).orgs.listOpenApiSpecVersions(organizationId, slug);
    expectMatchesSchema('GET', VERSIONS, 200, listed.data);
    expect(listed.data.count).toBe(2);
    expect(listed.data.items.map((version) => [version.id, version.url])).toEqual([
      [v2, updatedURL],
      [v1, sourceURL],
    ]);
    const byId = await official(admin).orgs.getOpenApiSpecVersionById(organizationId, slug, v1);
    expectMatchesSchema('GET', VERSION, 200, byId.data);
    expect(byId.data).toEqual(listed.data.items[1]);
    const oldContent = await official(admin).orgs.getOpenApiSpecVersionContentById(organizationId, slug, v1);
    expectMatchesSchema('GET', VERSION_CONTENT, 200, oldContent.data);
    expect(oldContent.data.filesystem).toEqual({ 'petstore.json': petstore('1.0.0') });
    const newContent = (await call('GET', `${base}/${slug}/versions/latest/content`)).json();
    expect(newContent).toEqual({ filesystem: { 'petstore-2.yaml': petstore('2.0.0') }, url: updatedURL, urls: { source: updatedURL, public: null } });

    // Paging: one version a page, newest first.
    const page1 = (await call('GET', `${base}/${slug}/versions?limit=1`)).json();
    expect(page1.items.map((version: { id: string }) => version.id)).toEqual([v2]);
    const page2 = (await call('GET', `${base}/${slug}/versions?limit=1&page=${encodeURIComponent(page1.next.page)}`)).json();
    expect(page2.items.map((version: { id: string }) => version.id)).toEqual([v1]);
    expect(page2.next).toBeUndefined();
  });

  it('processes a spec given as text (JSON or YAML) without fetching; PUT creates one', async () => {
    const { organizationId, admin, base, call, processed, put } = await setup();
    const yamlText = `openapi: 3.1.0\ninfo:\n  title: Inline\n  version: "1"\npaths:\n  /ping:\n    get:\n      responses:\n        "204":\n          description: Pong\n`;
    const created = await call('POST', base, admin.token, { slug: 'inline', source: { text: yamlText } });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.headers.location).toBe(created.json().urls.location);
    expect(created.json()).not.toHaveProperty('sourceURL');
    const spec = await processed('inline');
    expect(spec).toMatchObject({ processingState: 'complete', lastVersion: expect.stringMatching(/^oasv_/) });
    const versionUrl = `${TEST_URLS.api}${base}/inline/versions/${spec.lastVersion}/content`;
    const content = (await call('GET', `${base}/inline/versions/latest/content`)).json();
    expectMatchesSchema('GET', LATEST_CONTENT, 200, content);
    expect(content).toEqual({ filesystem: { 'openapi.yaml': parseYaml(yamlText) }, url: versionUrl, urls: { source: versionUrl, public: null } });

    // The same text again: processed, no new version.
    const again = await put('inline', { text: yamlText });
    expect(again).toMatchObject({ processingState: 'complete', lastVersion: spec.lastVersion });
    expect((await call('GET', `${base}/inline/versions`)).json().count).toBe(1);

    // PUT of a slug that does not exist yet creates it (200, as the contract says).
    const json = await put('from-put', { text: JSON.stringify(petstore('3.0.0')) });
    expect(json).toMatchObject({ slug: 'from-put', processingState: 'complete', lastVersion: expect.any(String) });
    expect((await call('GET', `${base}/from-put/versions/latest/content`)).json().filesystem).toEqual({ 'openapi.json': petstore('3.0.0') });

    // Invalid text: recorded, nothing stored.
    const broken = await put('broken', { text: JSON.stringify(INVALID_DOCUMENT) });
    expect(broken).toMatchObject({ processingState: 'complete', lastProcessErrorCode: 'PARSE_ERROR' });
    expect(broken).not.toHaveProperty('lastVersion');
    expectError(await call('GET', `${base}/broken/versions/latest`), 404);
    expectError(await call('GET', `${base}/broken/versions/latest/content`), 404);
    expect((await call('GET', `${base}/broken/versions`)).json()).toEqual({ count: 0, items: [] });
    const notApi = await put('not-api', { text: '- just\n- a list\n' });
    expect(notApi).toMatchObject({ lastProcessErrorCode: 'PARSE_ERROR', lastProcessedErrors: [{ message: expect.stringMatching(/not an object/) }] });

    // Listed by slug.
    const listed = await official(admin).orgs.listOpenApiSpecs(organizationId);
    expectMatchesSchema('GET', SPECS, 200, listed.data);
    expect(listed.data.items.map((item) => item.slug)).toEqual(['broken', 'from-put', 'inline', 'not-api']);
    expect(listed.data.count).toBe(4);
    const page = (await call('GET', `${base}?limit=3`)).json();
    expect(page.items.map((item: { slug: string }) => item.slug)).toEqual(['broken', 'from-put', 'inline']);
    expect((await call('GET', `${base}?page=${encodeURIComponent(page.next.page)}`)).json().items.map((item: { slug: string }) => item.slug)).toEqual([
      'not-api',
    ]);
  });

  it('fetches no source on a loopback or link-local address when the server fetches public addresses only: a FETCH_ERROR, no version', async () => {
    // The suite's app may fetch 127.0.0.1 (its sources are served there); production servers may not.
    const strict = await createTestApp({ openApiFetch: TEST_OPENAPI_FETCH, fetchPrivateAddresses: false });
    const { organization, admin } = await buildTeam(strict.database);
    const base = `/v1/orgs/${organization.id}/openapi`;
    const call = (method: string, url: string, body?: unknown) => strict.call(method, url, { token: admin.token, ...(body !== undefined ? { body } : {}) });
    const processed = async (slug: string) => {
      let spec: any;
      await vi.waitUntil(async () => (spec = (await call('GET', `${base}/${slug}`)).json()).processingState === 'complete', { timeout: 15_000, interval: 50 });
      expectMatchesSchema('GET', SPEC, 200, spec);
      return spec;
    };
    const port = new URL(sources.base).port;
    const cases: Array<[string, string, string]> = [
      // The same document the suite's app processes into a version.
      ['loopback', `${sources.base}/petstore.json`, 'the host "127.0.0.1" is a loopback address, which is not fetched'],
      ['localhost', `http://localhost:${port}/petstore.json`, 'the host "localhost" is a loopback address, which is not fetched'],
      ['metadata', 'http://169.254.169.254/latest/meta-data/openapi.json', 'the host "169.254.169.254" is a linkLocal address, which is not fetched'],
    ];
    for (const [slug, url, message] of cases) {
      // Accepted: the address is checked where the source is fetched, by the job.
      const created = await call('POST', base, { slug, source: { url } });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json()).toMatchObject({ processingState: 'pending', sourceURL: url });
      const spec = await processed(slug);
      expect(spec, slug).toMatchObject({
        processingState: 'complete',
        lastProcessErrorCode: 'FETCH_ERROR',
        lastProcessedErrorCount: 1,
        lastProcessedErrors: [{ message }],
        lastProcessedAt: expect.any(String),
      });
      expect(spec).not.toHaveProperty('lastVersion');
      expectError(await call('GET', `${base}/${slug}/versions/latest`), 404);
      expectError(await call('GET', `${base}/${slug}/versions/latest/content`), 404);
      expect((await call('GET', `${base}/${slug}/versions`)).json()).toEqual({ count: 0, items: [] });
    }
    const rows = await strict.database.db.openApiSpec.findMany({ where: { organizationId: organization.id }, orderBy: { slug: 'asc' } });
    expect(rows.map((row) => [row.slug, row.lastVersionId, row.lastProcessErrorCode])).toEqual([
      ['localhost', null, 'FETCH_ERROR'],
      ['loopback', null, 'FETCH_ERROR'],
      ['metadata', null, 'FETCH_ERROR'],
    ]);
    expect(await strict.database.db.openApiSpecVersion.count({ where: { spec: { organizationId: organization.id } } })).toBe(0);
  });

  it('deletes a spec with its versions (205)', async () => {
    const { organizationId, admin, base, call, processed } = await setup();
    await call('POST', base, admin.token, { slug: 'doomed', source: { text: JSON.stringify(petstore('1')) } });
    const spec = await processed('doomed');
    await official(admin).orgs.deleteOpenApiSpecBySlug(organizationId, 'doomed');
    expectError(await call('GET', `${base}/doomed`), 404, 'OpenAPI spec "doomed" was not found');
    expect(await t.database.db.openApiSpecVersion.count({ where: { specId: spec.id } })).toBe(0);
    const response = await call('DELETE', `${base}/doomed`);
    expectError(response, 404);
    // A job still queued for it finds nothing to do, and writes nothing.
    expect(await processOpenAPISpec(jobRunner(t).context(), spec.id)).toEqual({ specId: spec.id, outcome: 'deleted' });
    expect(await t.database.db.openApiSpec.count({ where: { organizationId } })).toBe(0);
    // The slug is free again.
    expect((await call('POST', base, admin.token, { slug: 'doomed', source: { text: '{}' } })).statusCode).toBe(201);
  });

  it('finds again, and processes, a spec whose job was lost (a restart on SQLite)', async () => {
    const { organizationId, base, call } = await setup();
    const old = new Date(Date.now() - STALE_PROCESSING_MS - 60_000);
    const lost = await t.database.db.openApiSpec.create({
      data: {
        id: `oas_lost${unique()}`,
        organizationId,
        slug: 'lost',
        sourceText: JSON.stringify(petstore('9')),
        processingState: 'pending',
        createdAt: old,
        updatedAt: old,
      },
    });
    // A spec queued a moment ago is left to its own job.
    const recent = await t.database.db.openApiSpec.create({
      data: { id: `oas_new${unique()}`, organizationId, slug: 'recent', sourceText: '{}', processingState: 'pending' },
    });
    const summary = await resumeOpenAPISpecsJob.run(jobRunner(t).context(), {}, { id: 'test', attempt: 1 });
    expect((summary as { resumed: number }).resumed).toBeGreaterThanOrEqual(1);
    const spec = (await call('GET', `${base}/lost`)).json();
    expect(spec).toMatchObject({ id: lost.id, processingState: 'complete', lastVersion: expect.stringMatching(/^oasv_/) });
    expect((await call('GET', `${base}/lost/versions/latest/content`)).json().filesystem).toEqual({ 'openapi.json': petstore('9') });
    expect((await t.database.db.openApiSpec.findUniqueOrThrow({ where: { id: recent.id } })).processingState).toBe('pending');
  });

  it('refuses bad input naming the field, and writes nothing', async () => {
    const { base, call, rows } = await setup();
    const before = await rows();
    const cases: Array<[string, string, unknown, RegExp]> = [
      ['POST', base, { source: { url: 'https://example.test/openapi.json' } }, /^slug: is required$/],
      ['POST', base, { slug: 'Bad_Slug', source: { text: '{}' } }, /^slug: must be lowercase letters and digits/],
      ['POST', base, { slug: '-lead', source: { text: '{}' } }, /^slug: /],
      ['POST', base, { slug: 'a'.repeat(101), source: { text: '{}' } }, /^slug: /],
      ['POST', base, { slug: 'ok' }, /^source: is required$/],
      ['POST', base, { slug: 'ok', source: {} }, /^source: must have either a url or a text/],
      ['POST', base, { slug: 'ok', source: { url: 'https://example.test/a.json', text: '{}' } }, /^source: must have either a url or a text/],
      ['POST', base, { slug: 'ok', source: { url: 'ftp://example.test/a.json' } }, /^source\.url: must be an http or https URL$/],
      ['POST', base, { slug: 'ok', source: { url: 'not a url' } }, /^source\.url: /],
      ['POST', base, { slug: 'ok', source: { text: '' } }, /^source\.text: /],
      ['POST', base, { slug: 'ok', source: { text: '{}' }, visibility: 'public' }, /^body: unknown field "visibility"$/],
      ['PUT', `${base}/Not_A_Slug`, { source: { text: '{}' } }, /^specSlug: must be lowercase letters/],
      ['PUT', `${base}/ok`, {}, /^source: is required$/],
      ['PUT', `${base}/ok`, { source: { url: 42 } }, /^source\.url: /],
      ['GET', `${base}?limit=1001`, undefined, /^limit: /],
    ];
    for (const [method, url, body, message] of cases) expectError(await call(method, url, undefined, body), 400, message);
    expect(await rows()).toEqual(before);
  });

  it('answers 401, 403, 404 and 409 as the permissions say', async () => {
    const { organizationId, admin, member, base, call, processed, rows } = await setup();
    await call('POST', base, admin.token, { slug: 'shared', source: { text: JSON.stringify(petstore('1')) } });
    const spec = await processed('shared');
    const before = await rows();

    expectError(await t.call('GET', base), 401);
    expectError(await t.call('POST', base, { body: { slug: 'x', source: { text: '{}' } } }), 401);

    // `create` members write; others read; guests neither.
    const creator = await member('create');
    expect((await call('PUT', `${base}/by-creator`, creator.token, { source: { text: '{}' } })).statusCode).toBe(200);
    await call('DELETE', `${base}/by-creator`, creator.token);
    const reader = await member('read');
    const read = (await call('GET', `${base}/shared`, reader.token)).json();
    expect(read.permissions).toEqual({ view: true, edit: false });
    expect((await call('GET', `${base}/shared/versions/${spec.lastVersion}/content`, reader.token)).statusCode).toBe(200);
    expectError(await call('POST', base, reader.token, { slug: 'nope', source: { text: '{}' } }), 403);
    expectError(await call('PUT', `${base}/shared`, reader.token, { source: { text: '{}' } }), 403);
    expectError(await call('DELETE', `${base}/shared`, reader.token), 403);
    await expectOfficialError(official(reader).orgs.deleteOpenApiSpecBySlug(organizationId, 'shared'), 403);
    const guest = await member(null);
    expectError(await call('GET', base, guest.token), 403);
    expectError(await call('GET', `${base}/shared`, guest.token), 403);

    // Another organization's member: nothing here exists.
    const outsider = (await buildTeam(t.database)).admin;
    expectError(await call('GET', `${base}/shared`, outsider.token), 404);
    expectError(await call('PUT', `${base}/shared`, outsider.token, { source: { text: '{}' } }), 404);
    await expectOfficialError(official(outsider).orgs.listOpenApiSpecs(organizationId), 404);

    // Unknown slugs and versions; a version of another spec.
    expectError(await call('GET', `${base}/nothing`), 404);
    expectError(await call('GET', `${base}/nothing/versions`), 404);
    expectError(await call('GET', `${base}/shared/versions/oasv_unknown`), 404);
    expectError(await call('GET', `${base}/shared/versions/oasv_unknown/content`), 404);
    await call('POST', base, admin.token, { slug: 'other', source: { text: JSON.stringify(petstore('2')) } });
    const other = await processed('other');
    expectError(await call('GET', `${base}/shared/versions/${other.lastVersion}`), 404);

    // The slug is taken.
    expectError(await call('POST', base, admin.token, { slug: 'shared', source: { text: '{}' } }), 409, /^slug: /);
    expect((await rows()).specs).toBe(before.specs + 1);
  });
});
