import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../support/app.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { buildTeam } from '../support/factories.ts';
import { expectData, expectGraphQLError, mutate } from '../support/graphql.ts';
import { expectError } from '../support/http.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const LIST = '/v1/orgs/{organizationId}/translations';
const ONE = '/v1/orgs/{organizationId}/translations/{translationSettingsId}';

/** An organization with an admin, a reader and a guest, and a way to create settings as the admin. */
async function setup() {
  const team = await buildTeam(t.database);
  const organizationId = team.organization.id;
  const base = `/v1/orgs/${organizationId}/translations`;
  const [reader, guest] = [await team.member('read'), await team.member(null)];
  const create = async (body: Record<string, unknown>) => {
    const response = await t.call('POST', base, { token: team.admin.token, body });
    expect(response.statusCode, response.body).toBe(201);
    expectMatchesSchema('POST', LIST, 201, response.json());
    return response.json();
  };
  const rows = () => t.database.db.translationSettings.findMany({ where: { organizationId }, orderBy: { createdAt: 'asc' } });
  return { ...team, organizationId, base, reader, guest, create, rows };
}

describe('translation settings over REST', () => {
  it('creates, reads, lists, updates and deletes them', async () => {
    const { organizationId, base, admin, reader, create, rows } = await setup();
    const created = await create({ title: ' Europe ', languages: ['fr', 'de', 'pt-br'] });
    expect(created).toEqual({
      object: 'translation-settings',
      id: expect.stringMatching(/^trs_/),
      title: 'Europe',
      languages: ['fr', 'de', 'pt-br'],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      permissions: { view: true, edit: true },
      urls: { location: `http://docs-gateway.test/v1/orgs/${organizationId}/translations/${created.id}` },
    });
    const asia = await create({ title: 'Asia' });
    expect(asia.languages).toEqual([]);

    const asReader = await t.call('GET', `${base}/${created.id}`, { token: reader.token });
    expectMatchesSchema('GET', ONE, 200, asReader.json());
    expect(asReader.json()).toEqual({ ...created, permissions: { view: true, edit: false } });
    const listed = await t.call('GET', `${base}?limit=1`, { token: reader.token });
    expectMatchesSchema('GET', LIST, 200, listed.json());
    expect(listed.json()).toMatchObject({ count: 2, items: [{ id: created.id }], next: { page: expect.any(String) } });
    const rest = await t.call('GET', `${base}?limit=1&page=${listed.json().next.page}`, { token: reader.token });
    expect(rest.json().items.map((item: { id: string }) => item.id)).toEqual([asia.id]);

    const updated = await t.call('PUT', `${base}/${created.id}`, { token: admin.token, body: { title: 'Europe and more', languages: ['es'] } });
    expect(updated.statusCode, updated.body).toBe(200);
    expectMatchesSchema('PUT', ONE, 200, updated.json());
    expect(updated.json()).toMatchObject({ title: 'Europe and more', languages: ['es'] });
    // A title alone keeps the languages.
    expect((await t.call('PUT', `${base}/${created.id}`, { token: admin.token, body: { title: 'Europe' } })).json().languages).toEqual(['es']);

    expect((await t.call('DELETE', `${base}/${created.id}`, { token: admin.token })).statusCode).toBe(205);
    expectError(await t.call('GET', `${base}/${created.id}`, { token: admin.token }), 404);
    expect((await rows()).map((row) => row.id)).toEqual([asia.id]);
  });

  it('refuses bad titles and languages, writing nothing', async () => {
    const { base, admin, create, rows } = await setup();
    const existing = await create({ title: 'Kept', languages: ['fr'] });
    const before = await rows();
    expectError(await t.call('POST', base, { token: admin.token, body: {} }), 400, 'title: is required');
    expectError(await t.call('POST', base, { token: admin.token, body: { title: 'x'.repeat(101) } }), 400, /^title: /);
    expectError(await t.call('POST', base, { token: admin.token, body: { title: '' } }), 400, /^title: /);
    expectError(await t.call('POST', base, { token: admin.token, body: { title: '   ' } }), 400, /^title: /);
    expectError(await t.call('PUT', `${base}/${existing.id}`, { token: admin.token, body: { title: '' } }), 400, /^title: /);
    expectError(
      await t.call('POST', base, { token: admin.token, body: { title: 'A', languages: ['fr', 'klingon'] } }),
      400,
      /^languages\.1: must be one of en, fr/,
    );
    expectError(
      await t.call('POST', base, { token: admin.token, body: { title: 'A', languages: ['fr', 'fr'] } }),
      400,
      'languages: must not repeat a language',
    );
    expectError(await t.call('POST', base, { token: admin.token, body: { title: 'A', source: { space: 'x' } } }), 400, 'body: unknown field "source"');
    expectError(await t.call('PUT', `${base}/${existing.id}`, { token: admin.token, body: { languages: ['de'] } }), 400, 'title: is required');
    expect(await rows()).toEqual(before);
  });

  it('is read by non-guest members, managed by admins, and invisible elsewhere', async () => {
    const { organizationId, base, reader, guest, create, rows } = await setup();
    const existing = await create({ title: 'Kept' });
    const stranger = (await buildTeam(t.database)).admin;
    expectError(await t.call('GET', base, { token: guest.token }), 403);
    expectError(await t.call('GET', `${base}/${existing.id}`, { token: guest.token }), 403);
    expectError(await t.call('POST', base, { token: reader.token, body: { title: 'Mine' } }), 403);
    expectError(await t.call('PUT', `${base}/${existing.id}`, { token: reader.token, body: { title: 'Mine' } }), 403);
    expectError(await t.call('DELETE', `${base}/${existing.id}`, { token: reader.token }), 403);
    expectError(await t.call('GET', base, { token: stranger.token }), 404);
    expectError(await t.call('GET', base), 401);
    // Settings of another organization through this one do not exist.
    const other = await setup();
    const foreign = await other.create({ title: 'Foreign' });
    expectError(await t.call('GET', `/v1/orgs/${organizationId}/translations/${foreign.id}`, { token: (await setup()).admin.token }), 404);
    expect((await rows()).map((row) => row.title)).toEqual(['Kept']);
  });
});

describe('translation settings over GraphQL', () => {
  it('lists, creates, updates and deletes them as REST does', async () => {
    const { organizationId, base, admin, reader, create } = await setup();
    const europe = await create({ title: 'Europe', languages: ['fr'] });
    const created = expectData(
      await mutate(
        t,
        admin.token,
        'createTranslationSettings',
        { organizationId, title: 'Asia', languages: ['ja', 'ko'] },
        'translationSettings { id title languages }',
      ),
    );
    const asiaId = created.createTranslationSettings.translationSettings.id as string;
    expect(created.createTranslationSettings.translationSettings).toEqual({ id: asiaId, title: 'Asia', languages: ['ja', 'ko'] });

    const fields = 'id object title languages createdAt updatedAt permissions { view edit } urls { location }';
    const data = expectData(
      await t.graphql(reader.token, `query($id: ID!) { organization(id: $id) { translations(first: 10) { totalCount edges { node { ${fields} } } } } }`, {
        id: organizationId,
      }),
    );
    const restItems = (await t.call('GET', base, { token: reader.token })).json().items;
    expect(data.organization.translations.edges.map((edge: { node: object }) => edge.node)).toEqual(restItems);
    expect(data.organization.translations.totalCount).toBe(2);

    expectGraphQLError(
      await mutate(t, reader.token, 'updateTranslationSettings', { translationSettingsId: europe.id, title: 'Mine' }, 'translationSettings { id }'),
      403,
    );
    expectGraphQLError(
      await mutate(
        t,
        admin.token,
        'updateTranslationSettings',
        { translationSettingsId: europe.id, title: 'Europe', languages: ['xx'] },
        'translationSettings { id }',
      ),
      400,
      /at "input\.languages\[0\]"; Value "xx" does not exist in "Language" enum/,
    );
    const updated = expectData(
      await mutate(
        t,
        admin.token,
        'updateTranslationSettings',
        { translationSettingsId: europe.id, title: 'Europe', languages: ['it', 'pt_br'] },
        'translationSettings { languages }',
      ),
    );
    // GraphQL names cannot hold dashes: REST's pt-br is pt_br here, and stored as pt-br.
    expect(updated.updateTranslationSettings.translationSettings.languages).toEqual(['it', 'pt_br']);
    expect((await t.call('GET', `${base}/${europe.id}`, { token: reader.token })).json().languages).toEqual(['it', 'pt-br']);
    expect(
      expectData(await mutate(t, admin.token, 'deleteTranslationSettings', { translationSettingsId: asiaId }, 'deletedId')).deleteTranslationSettings.deletedId,
    ).toBe(asiaId);
    expectGraphQLError(await t.graphql(admin.token, 'query($id: ID!) { node(id: $id) { id } }', { id: asiaId }), 404);
  });
});
