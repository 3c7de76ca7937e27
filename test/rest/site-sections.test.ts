import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/domain/access.ts';
import { type TestApp, createTestApp } from '../support/app.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { expectError } from '../support/http.ts';
import { followRest, itemIds, listAll } from '../support/listings.ts';
import { type OfficialClient, expectOfficialError, officialClient } from '../support/official.ts';
import { P, type SiteWorld, buildSiteWorld, shareKeyOf, siteSnapshot, treeOf } from '../support/sites.ts';

let t: TestApp;
let official: OfficialClient;
beforeAll(async () => {
  t = await createTestApp();
  official = await officialClient(t);
});

type Json = Record<string, any>;

const sectionRow = (id: string) => t.database.db.siteSection.findUnique({ where: { id } });

/** Section rows of a site by id: what a move must leave alone for every other section. */
async function sectionRows(siteId: string) {
  const rows = await t.database.db.siteSection.findMany({ where: { siteId } });
  return new Map(rows.map((row) => [row.id, row]));
}

/** Titles of the sections of a site as the listing gives them (site order). */
async function listedTitles(w: SiteWorld, siteId: string) {
  const body = await w.rest('GET', w.url(siteId, '/sections'));
  return body.items.map((item: Json) => item.title);
}

/** A site with three top-level sections A, B, C (showing spaces A, B, C). */
async function threeSections(w: SiteWorld) {
  const site = await w.site({ title: 'Docs' });
  const a = await w.section(site.id, (await w.space('Space A')).id, 'A section');
  const b = await w.section(site.id, (await w.space('Space B')).id, 'B section');
  const c = await w.section(site.id, (await w.space('Space C')).id, 'C section');
  return { site, a, b, c };
}

describe('POST /v1/orgs/{organizationId}/sites/{siteId}/sections', () => {
  it('makes the first section the default, giving it the root-level site spaces, through the official client', async () => {
    const w = await buildSiteWorld(t);
    const guide = await w.space('Guide');
    const api = await w.space('API');
    const site = await w.site({ title: 'Docs', spaces: [guide.id, api.id] });
    const before = (await w.rest('GET', w.url(site.id, '/site-spaces'))).items;

    const { data } = await official(w.admin).orgs.addSectionToSite(w.organizationId, site.id, { spaceId: api.id });
    expectMatchesSchema('POST', P.sections, 201, data);
    expect(data).toMatchObject({
      object: 'site-section',
      title: 'API',
      path: 'api',
      default: true,
      urls: { published: `http://app.docs-gateway.test/sites/${site.id}/api` },
    });
    expect(data.condition).toBeUndefined();
    expect(data.sectionGroup).toBeUndefined();
    // The same site spaces, moved into the section (not created again), in their order, with their default.
    expect(data.siteSpaces.map((siteSpace: Json) => [siteSpace.id, siteSpace.space.id, siteSpace.default, siteSpace.section])).toEqual([
      [before[0].id, guide.id, true, data.id],
      [before[1].id, api.id, false, data.id],
    ]);
    expect(data.siteSpaces[0]!.urls.published).toBe(`http://app.docs-gateway.test/sites/${site.id}/api/guide`);
    expect(await sectionRow(data.id)).toMatchObject({ siteId: site.id, title: 'API', path: 'api', isDefault: true, sectionGroupId: null });
    expect(await t.database.db.siteSpace.count({ where: { siteId: site.id, sectionId: null } })).toBe(0);
    expect((await w.rest('GET', w.url(site.id))).siteSpaces).toBe(2);
  });

  it('adds a site space for a space the site did not show yet', async () => {
    const w = await buildSiteWorld(t);
    const guide = await w.space('Guide');
    const other = await w.space('Other');
    const site = await w.site({ title: 'Docs', spaces: [guide.id] });
    const section = await w.section(site.id, other.id, 'Main');
    expect(section.siteSpaces.map((siteSpace: Json) => [siteSpace.space.id, siteSpace.path, siteSpace.default])).toEqual([
      [guide.id, 'guide', true],
      [other.id, 'other', false],
    ]);
    expect((await w.rest('GET', w.url(site.id))).siteSpaces).toBe(2);
  });

  it('puts later sections at the end, not default, with unique paths and a default site space of their own', async () => {
    const w = await buildSiteWorld(t);
    const empty = await w.site({ title: 'Docs' });
    const space = await w.space('Guide');
    const first = await w.section(empty.id, space.id);
    expect(first).toMatchObject({ title: 'Guide', path: 'guide', default: true });
    expect(first.siteSpaces.map((siteSpace: Json) => [siteSpace.space.id, siteSpace.default])).toEqual([[space.id, true]]);

    const again = await w.section(empty.id, space.id, 'Guide');
    expectMatchesSchema('POST', P.sections, 201, again);
    expect(again).toMatchObject({ title: 'Guide', path: 'guide-2', default: false });
    expect(again.siteSpaces.map((siteSpace: Json) => [siteSpace.space.id, siteSpace.default, siteSpace.section])).toEqual([[space.id, true, again.id]]);
    const longest = await w.section(empty.id, space.id, 'x'.repeat(64));
    expect(longest.title).toBe('x'.repeat(64));
    const shortest = await w.section(empty.id, space.id, 'ab');
    expect(await listedTitles(w, empty.id)).toEqual(['Guide', 'Guide', 'x'.repeat(64), 'ab']);
    expect(await t.database.db.siteSection.count({ where: { siteId: empty.id, isDefault: true } })).toBe(1);
    expect((await sectionRow(shortest.id))!.isDefault).toBe(false);
    expect((await w.rest('GET', w.url(empty.id))).siteSpaces).toBe(4);
  });

  it('rejects bad input and changes nothing', async () => {
    const w = await buildSiteWorld(t);
    const space = await w.space('Guide');
    const site = await w.site({ title: 'Docs', spaces: [space.id] });
    const foreign = await (await buildSiteWorld(t)).space('Foreign');
    const deleted = await w.space('Deleted');
    await w.rest('DELETE', `/v1/spaces/${deleted.id}`, undefined, 205);
    const before = await siteSnapshot(t, site.id);
    for (const [body, message] of [
      [{}, 'spaceId: is required'],
      [{ spaceId: '' }, /^spaceId: /],
      [{ spaceId: 'spc_missing' }, 'spaceId: space "spc_missing" does not exist in this organization'],
      [{ spaceId: foreign.id }, `spaceId: space "${foreign.id}" does not exist in this organization`],
      [{ spaceId: deleted.id }, `spaceId: space "${deleted.id}" does not exist in this organization`],
      [{ spaceId: space.id, title: 'x' }, /^title: /],
      [{ spaceId: space.id, title: 'x'.repeat(65) }, /^title: /],
      [{ spaceId: space.id, path: 'guide' }, /unknown field "path"/],
    ] as const) {
      expectError(await t.call('POST', w.url(site.id, '/sections'), { token: w.token, body }), 400, message);
    }
    expect(await siteSnapshot(t, site.id)).toEqual(before);
  });

  it('needs the admin role on a site of the organization', async () => {
    const w = await buildSiteWorld(t);
    const space = await w.space('Guide');
    const site = await w.site({ title: 'Docs', spaces: [space.id] });
    const before = await siteSnapshot(t, site.id);
    const url = w.url(site.id, '/sections');
    for (const role of ['create', 'edit', 'read'] as Role[]) {
      const user = await w.member(role);
      expectError(await t.call('POST', url, { token: user.token, body: { spaceId: space.id } }), 403);
    }
    expectError(await t.call('POST', url, { token: (await w.member(null)).token, body: { spaceId: space.id } }), 404);
    const stranger = await w.stranger();
    expectError(await t.call('POST', url, { token: stranger.token, body: { spaceId: space.id } }), 404);
    await expectOfficialError(official(stranger).orgs.addSectionToSite(w.organizationId, site.id, { spaceId: space.id }), 404);
    expectError(await t.call('POST', url, { body: { spaceId: space.id } }), 401);
    const other = await buildSiteWorld(t);
    expectError(await t.call('POST', other.url(site.id, '/sections'), { token: other.token, body: { spaceId: space.id } }), 404);
    expect(await siteSnapshot(t, site.id)).toEqual(before);
  });
});

describe('GET /v1/orgs/{organizationId}/sites/{siteId}/sections', () => {
  it('lists the sections in site order with their site spaces, through the official client', async () => {
    const w = await buildSiteWorld(t);
    const { site, a, b, c } = await threeSections(w);
    const d = await w.section(site.id, (await w.space('Space D')).id, 'D section');
    // A group in the second place holds C then B: site order is A, C, B, D.
    const group = await w.group(site.id, 'Group', [c.id, b.id]);
    await w.rest('POST', w.url(site.id, `/section-groups/${group.id}/move`), { position: { after: { type: 'site-section', id: a.id } } });
    const extra = await w.siteSpace(site.id, (await w.space('Extra')).id, a.id);

    const { data } = await official(w.admin).orgs.listSiteSections(w.organizationId, site.id);
    expectMatchesSchema('GET', P.sections, 200, data);
    expect(data.count).toBe(4);
    expect(itemIds(data)).toEqual([a.id, c.id, b.id, d.id]);
    expect(data.items.map((item) => item.sectionGroup)).toEqual([undefined, group.id, group.id, undefined]);
    expect(data.items[0]!.siteSpaces.map((siteSpace) => siteSpace.id)).toEqual([a.siteSpaces[0].id, extra.id]);
    expect(data.items[0]!.default).toBe(true);
  });

  it('pages with limit and next.page, and rejects a limit above 1000', async () => {
    const w = await buildSiteWorld(t);
    const { site, a, b, c } = await threeSections(w);
    const { seen, counts, rounds } = await listAll(t, w.url(site.id, '/sections'), w.token, 2);
    expect(seen).toEqual([a.id, b.id, c.id]);
    expect(counts).toEqual([3, 3]);
    expect(rounds).toBe(2);
    expectError(await t.call('GET', w.url(site.id, '/sections?limit=1001'), { token: w.token }), 400, /^limit: /);
    expectError(await t.call('GET', w.url(site.id, '/sections?page=nonsense'), { token: w.token }), 400, /^page: /);
  });

  it('shows members every section; strangers and guests get a 404 while the site is unpublished', async () => {
    const w = await buildSiteWorld(t);
    const { site, a, b, c } = await threeSections(w);
    await w.setSchema(site.id, { beta: 'boolean' });
    await w.updateSection(site.id, b.id, { condition: 'visitor.claims.beta' });
    const reader = await w.member('read');
    const listed = await w.rest('GET', w.url(site.id, '/sections'), undefined, 200, reader.token);
    expect(itemIds(listed)).toEqual([a.id, b.id, c.id]);
    const url = w.url(site.id, '/sections');
    expectError(await t.call('GET', url, { token: (await w.member(null)).token }), 404);
    const stranger = await w.stranger();
    expectError(await t.call('GET', url, { token: stranger.token }), 404);
    await expectOfficialError(official(stranger).orgs.listSiteSections(w.organizationId, site.id), 404);
    expectError(await t.call('GET', url), 401);
    const other = await buildSiteWorld(t);
    expectError(await t.call('GET', other.url(site.id, '/sections'), { token: other.token }), 404);
  });

  it('shows visitors of a published site the sections whose condition holds, with the share key of a share-link site', async () => {
    const w = await buildSiteWorld(t);
    const { site, a, b, c } = await threeSections(w);
    await w.setSchema(site.id, { beta: 'boolean' });
    await w.updateSection(site.id, a.id, { condition: 'visitor.claims.beta' });
    await w.patchSite(site.id, { visibility: 'share-link' });
    await w.publish(site.id);
    const key = shareKeyOf(await w.shareLink(site.id));
    const stranger = await w.stranger();
    const url = w.url(site.id, '/sections');
    expectError(await t.call('GET', url, { token: stranger.token }), 404);
    expectError(await t.call('GET', `${url}?shareKey=wrong`, { token: stranger.token }), 404);

    const { data } = await official(stranger).orgs.listSiteSections(w.organizationId, site.id, { shareKey: key });
    expectMatchesSchema('GET', P.sections, 200, data);
    expect(itemIds(data)).toEqual([b.id, c.id]);
    // The count is that of what the visitor is shown.
    expect.soft(data.count).toBe(2);
    // Paging one at a time reaches every section shown, even after a hidden one.
    const pages = await followRest(t, stranger.token, `${url}?shareKey=${encodeURIComponent(key)}&limit=1`);
    expect.soft(pages.flatMap(itemIds)).toEqual([b.id, c.id]);
  });
});

describe('PATCH /v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', () => {
  it('updates title, path, icon, description and condition through the official client', async () => {
    const w = await buildSiteWorld(t);
    const { site, a, b } = await threeSections(w);
    await w.setSchema(site.id, { beta: 'boolean', plan: 'string' });
    const condition = 'visitor.claims.beta && visitor.claims.plan === "enterprise"';
    const { data } = await official(w.admin).orgs.updateSiteSectionById(w.organizationId, site.id, b.id, {
      title: 'Reference',
      path: 'v2/reference',
      icon: 'book',
      description: 'Every endpoint',
      condition,
    });
    expectMatchesSchema('PATCH', P.section, 200, data);
    expect(data).toMatchObject({
      id: b.id,
      title: 'Reference',
      path: 'v2/reference',
      icon: 'book',
      description: 'Every endpoint',
      condition,
      default: false,
      urls: { published: `http://app.docs-gateway.test/sites/${site.id}/v2/reference` },
    });
    expect(data.siteSpaces[0]!.urls.published).toBe(`http://app.docs-gateway.test/sites/${site.id}/v2/reference/space-b`);
    expect(await sectionRow(b.id)).toMatchObject({
      title: 'Reference',
      path: 'v2/reference',
      icon: 'book',
      description: 'Every endpoint',
      condition,
    });
    // Other sections are untouched.
    expect(await sectionRow(a.id)).toMatchObject({ title: 'A section', path: 'a-section', condition: null, icon: null });
  });

  it('keeps what is not sent, removes condition, icon and description with null, and accepts the bounds', async () => {
    const w = await buildSiteWorld(t);
    const { site, b } = await threeSections(w);
    await w.setSchema(site.id, { beta: 'boolean' });
    await w.updateSection(site.id, b.id, { condition: 'visitor.claims.beta', icon: 'star', description: 'Beta' });
    const titleOnly = await w.updateSection(site.id, b.id, { title: 'Renamed' });
    expect(titleOnly).toMatchObject({ title: 'Renamed', condition: 'visitor.claims.beta', icon: 'star', description: 'Beta' });
    const cleared = await w.updateSection(site.id, b.id, { condition: null, icon: null, description: null });
    expectMatchesSchema('PATCH', P.section, 200, cleared);
    expect(cleared.condition).toBeUndefined();
    expect(cleared.icon).toBeUndefined();
    expect(cleared.description).toBeUndefined();
    expect(await sectionRow(b.id)).toMatchObject({ title: 'Renamed', condition: null, icon: null, description: null });

    const longest = 'visitor.claims.beta'.padEnd(1024, ' ');
    const bounds = await w.updateSection(site.id, b.id, {
      title: 't'.repeat(128),
      path: 'p'.repeat(100),
      icon: 'i'.repeat(50),
      description: 'd'.repeat(256),
      condition: longest,
    });
    expect(bounds).toMatchObject({ title: 't'.repeat(128), path: 'p'.repeat(100), condition: longest });
    expect(await w.updateSection(site.id, b.id, { title: 'ab', path: 'x', condition: 'true' })).toMatchObject({
      title: 'ab',
      path: 'x',
      condition: 'true',
    });
  });

  it('sets the default site space of the section', async () => {
    const w = await buildSiteWorld(t);
    const { site, a, b } = await threeSections(w);
    const added = await w.siteSpace(site.id, (await w.space('Extra')).id, a.id);
    const updated = await w.updateSection(site.id, a.id, { defaultSiteSpace: added.id });
    expect(updated.siteSpaces.map((siteSpace: Json) => [siteSpace.id, siteSpace.default])).toEqual([
      [a.siteSpaces[0].id, false],
      [added.id, true],
    ]);
    const before = await siteSnapshot(t, site.id);
    expectError(
      await t.call('PATCH', w.url(site.id, `/sections/${a.id}`), { token: w.token, body: { defaultSiteSpace: b.siteSpaces[0].id } }),
      400,
      `defaultSiteSpace: site space "${b.siteSpaces[0].id}" is not in this section`,
    );
    expect(await siteSnapshot(t, site.id)).toEqual(before);
  });

  it('is a 409 for a path another section of the site has, and changes nothing', async () => {
    const w = await buildSiteWorld(t);
    const { site, a, b } = await threeSections(w);
    const other = await threeSections(w);
    const before = await siteSnapshot(t, site.id);
    expectError(
      await t.call('PATCH', w.url(site.id, `/sections/${b.id}`), { token: w.token, body: { path: a.path, title: 'Taken' } }),
      409,
      `path: "${a.path}" is already the path of another section of this site`,
    );
    expect(await siteSnapshot(t, site.id)).toEqual(before);
    // The same path on another site, or a section keeping its own path, is fine.
    await w.updateSection(other.site.id, other.b.id, { path: 'shared/path' });
    expect(await w.updateSection(site.id, b.id, { path: 'shared/path' })).toMatchObject({ path: 'shared/path' });
    expect(await w.updateSection(site.id, a.id, { path: a.path, title: 'Same path' })).toMatchObject({ path: a.path });
  });

  it('rejects bad input and bad conditions, naming the field, and changes nothing', async () => {
    const w = await buildSiteWorld(t);
    const { site, b } = await threeSections(w);
    const bare = await threeSections(w);
    await w.setSchema(site.id, { beta: 'boolean', plan: 'string' });
    const before = await siteSnapshot(t, site.id);
    const url = w.url(site.id, `/sections/${b.id}`);
    for (const [body, message] of [
      [{ title: 'x' }, /^title: /],
      [{ title: 'x'.repeat(129) }, /^title: /],
      [{ path: '' }, /^path: /],
      [{ path: 'p'.repeat(101) }, /^path: /],
      [{ path: 'with space' }, /^path: /],
      [{ path: '/leading' }, /^path: /],
      [{ path: 'trailing/' }, /^path: /],
      [{ path: 'a//b' }, /^path: /],
      [{ path: 'caf\u00e9' }, /^path: /],
      [{ path: '..' }, /^path: must not have a "\." or "\.\." segment/],
      [{ path: 'docs/..' }, /^path: must not have a "\." or "\.\." segment/],
      [{ icon: 'i'.repeat(51) }, /^icon: /],
      [{ description: 'd'.repeat(257) }, /^description: /],
      [{ condition: '' }, /^condition: /],
      [{ condition: 'visitor.claims.beta'.padEnd(1025, ' ') }, /^condition: /],
      [{ condition: 'visitor.claims.beta &&' }, /^condition: syntax error/],
      [{ condition: 'visitor.claims.beta; true' }, /^condition: /],
      [{ condition: 'process.exit(1)' }, /^condition: /],
      [{ condition: 'visitor.claims.beta = true' }, /^condition: /],
      [{ condition: 'beta' }, /^condition: unknown name "beta"/],
      [{ condition: 42 }, /^condition: /],
      [{ siteSectionGroupId: null }, /unknown field "siteSectionGroupId"/],
    ] as const) {
      expectError(await t.call('PATCH', url, { token: w.token, body }), 400, message);
    }
    expect(await siteSnapshot(t, site.id)).toEqual(before);
    // Conditions may name attributes no schema declares yet (here: no schema at all).
    const accepted = await t.call('PATCH', w.url(bare.site.id, `/sections/${bare.b.id}`), { token: w.token, body: { condition: 'visitor.claims.beta' } });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await sectionRow(bare.b.id)).toMatchObject({ condition: 'visitor.claims.beta' });
  });

  it('needs the admin role, and a section of this site', async () => {
    const w = await buildSiteWorld(t);
    const { site, b } = await threeSections(w);
    const other = await threeSections(w);
    const before = await siteSnapshot(t, site.id);
    const url = w.url(site.id, `/sections/${b.id}`);
    for (const role of ['create', 'edit', 'read'] as Role[]) {
      const user = await w.member(role);
      expectError(await t.call('PATCH', url, { token: user.token, body: { title: 'Mine' } }), 403);
    }
    expectError(await t.call('PATCH', url, { token: (await w.member(null)).token, body: { title: 'Mine' } }), 404);
    const stranger = await w.stranger();
    expectError(await t.call('PATCH', url, { token: stranger.token, body: { title: 'Mine' } }), 404);
    await expectOfficialError(official(stranger).orgs.updateSiteSectionById(w.organizationId, site.id, b.id, { title: 'Mine' }), 404);
    expectError(await t.call('PATCH', url, { body: { title: 'Mine' } }), 401);
    expectError(
      await t.call('PATCH', w.url(site.id, `/sections/${other.b.id}`), { token: w.token, body: { title: 'Mine' } }),
      404,
      `Site section "${other.b.id}" was not found`,
    );
    expectError(await t.call('PATCH', w.url(site.id, '/sections/sec_missing'), { token: w.token, body: { title: 'Mine' } }), 404);
    expect(await siteSnapshot(t, site.id)).toEqual(before);
    expect(await sectionRow(other.b.id)).toMatchObject({ title: 'B section' });
  });
});

describe('DELETE /v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}', () => {
  it('deletes a section and its site spaces through the official client', async () => {
    const w = await buildSiteWorld(t);
    const { site, a, b, c } = await threeSections(w);
    const response = await official(w.admin).orgs.deleteSiteSectionById(w.organizationId, site.id, b.id);
    expect(response.status).toBe(205);
    expect(await sectionRow(b.id)).toBeNull();
    expect(await t.database.db.siteSpace.count({ where: { id: b.siteSpaces[0].id } })).toBe(0);
    expect(await t.database.db.space.count({ where: { id: b.siteSpaces[0].space.id, deletedAt: null } })).toBe(1);
    expect(await listedTitles(w, site.id)).toEqual(['A section', 'C section']);
    expect((await sectionRow(a.id))!.isDefault).toBe(true);
    expect((await sectionRow(c.id))!.isDefault).toBe(false);
    expect((await w.rest('GET', w.url(site.id))).siteSpaces).toBe(2);
    expectError(await t.call('DELETE', w.url(site.id, `/sections/${b.id}`), { token: w.token }), 404);
  });

  it('hands the default to the first remaining section, and leaves a site without sections after the last', async () => {
    const w = await buildSiteWorld(t);
    const { site, a, b, c } = await threeSections(w);
    await w.rest('POST', w.url(site.id, `/sections/${c.id}/move`), { position: { before: { type: 'site-section', siteSection: b.id } } });
    await w.rest('DELETE', w.url(site.id, `/sections/${a.id}`), undefined, 205);
    const defaults = await t.database.db.siteSection.findMany({ where: { siteId: site.id, isDefault: true } });
    expect(defaults.map((row) => row.id)).toEqual([c.id]);
    const listed = (await w.rest('GET', w.url(site.id, '/sections'))).items;
    expect(listed.map((item: Json) => [item.id, item.default])).toEqual([
      [c.id, true],
      [b.id, false],
    ]);
    await w.rest('DELETE', w.url(site.id, `/sections/${c.id}`), undefined, 205);
    expect((await sectionRow(b.id))!.isDefault).toBe(true);
    await w.rest('DELETE', w.url(site.id, `/sections/${b.id}`), undefined, 205);
    expect(await w.rest('GET', w.url(site.id, '/sections'))).toEqual({ count: 0, items: [] });
    expect((await w.rest('GET', w.url(site.id))).siteSpaces).toBe(0);
    const published = await w.rest('GET', w.url(site.id, '/published'));
    expect(published.structure).toEqual({ type: 'siteSpaces', structure: [] });
  });

  it('needs the admin role, and a section of this site', async () => {
    const w = await buildSiteWorld(t);
    const { site, b } = await threeSections(w);
    const other = await threeSections(w);
    const before = await siteSnapshot(t, site.id);
    const url = w.url(site.id, `/sections/${b.id}`);
    for (const role of ['create', 'edit', 'read'] as Role[]) {
      expectError(await t.call('DELETE', url, { token: (await w.member(role)).token }), 403);
    }
    expectError(await t.call('DELETE', url, { token: (await w.member(null)).token }), 404);
    const stranger = await w.stranger();
    expectError(await t.call('DELETE', url, { token: stranger.token }), 404);
    await expectOfficialError(official(stranger).orgs.deleteSiteSectionById(w.organizationId, site.id, b.id), 404);
    expectError(await t.call('DELETE', url), 401);
    expectError(await t.call('DELETE', w.url(site.id, `/sections/${other.b.id}`), { token: w.token }), 404);
    expect(await siteSnapshot(t, site.id)).toEqual(before);
    expect(await sectionRow(other.b.id)).not.toBeNull();
  });
});

describe('POST /v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move', () => {
  it('moves a section before, after, between and to the end, rewriting only its row, through the official client', async () => {
    const w = await buildSiteWorld(t);
    const { site, a, b, c } = await threeSections(w);
    const move = async (id: string, position?: Json) => {
      const before = await sectionRows(site.id);
      const { data } = await official(w.admin).orgs.moveSiteSection(w.organizationId, site.id, id, position ? { position } : {});
      expectMatchesSchema('POST', P.sectionMove, 200, data);
      expect(data.id).toBe(id);
      const after = await sectionRows(site.id);
      for (const [rowId, row] of before) if (rowId !== id) expect(after.get(rowId)).toEqual(row);
      expect(after.get(id)!.position).not.toBe(before.get(id)!.position);
      return itemIds(await w.rest('GET', w.url(site.id, '/sections')));
    };
    const pointer = (section: Json) => ({ type: 'site-section' as const, siteSection: section.id });
    expect(await move(c.id, { before: pointer(a) })).toEqual([c.id, a.id, b.id]);
    expect(await move(c.id, { after: pointer(a), before: pointer(b) })).toEqual([a.id, c.id, b.id]);
    expect(await move(a.id, { after: pointer(b) })).toEqual([c.id, b.id, a.id]);
    expect(await move(c.id)).toEqual([b.id, a.id, c.id]);
    const published = await w.rest('GET', w.url(site.id, '/published'));
    expect(treeOf(published).map((entry) => (entry as unknown[])[0])).toEqual(['B section', 'A section', 'C section']);
    expect((await sectionRow(a.id))!.isDefault).toBe(true);
  });

  it('moves a section among the sections of its group', async () => {
    const w = await buildSiteWorld(t);
    const { site, a, b, c } = await threeSections(w);
    const group = await w.group(site.id, 'Group', [b.id, c.id]);
    const before = await sectionRows(site.id);
    const moved = await w.rest('POST', w.url(site.id, `/sections/${c.id}/move`), {
      position: { before: { type: 'site-section', siteSection: b.id } },
    });
    expect(moved.sectionGroup).toBe(group.id);
    const after = await sectionRows(site.id);
    expect(after.get(c.id)!.topPosition).toBe(before.get(c.id)!.topPosition);
    expect(after.get(b.id)).toEqual(before.get(b.id));
    expect(after.get(a.id)).toEqual(before.get(a.id));
    expect(itemIds(await w.rest('GET', w.url(site.id, '/sections')))).toEqual([a.id, c.id, b.id]);
    const groups = await w.rest('GET', w.url(site.id, '/section-groups'));
    expect(groups.items[0].sections.map((section: Json) => section.id)).toEqual([c.id, b.id]);
    // A top-level section is not a sibling of a grouped one.
    const snapshot = await siteSnapshot(t, site.id);
    expectError(
      await t.call('POST', w.url(site.id, `/sections/${c.id}/move`), {
        token: w.token,
        body: { position: { after: { type: 'site-section', siteSection: a.id } } },
      }),
      400,
      `position.after: "${a.id}" is not a sibling of the moved entry`,
    );
    expect(await siteSnapshot(t, site.id)).toEqual(snapshot);
  });

  it('rejects bad positions and changes nothing', async () => {
    const w = await buildSiteWorld(t);
    const { site, a, b, c } = await threeSections(w);
    const other = await threeSections(w);
    const before = await siteSnapshot(t, site.id);
    const url = w.url(site.id, `/sections/${a.id}/move`);
    const pointer = (id: string) => ({ type: 'site-section', siteSection: id });
    for (const [body, message] of [
      [{ position: { before: pointer('sec_missing') } }, 'position.before: "sec_missing" is not a sibling of the moved entry'],
      [{ position: { after: pointer(other.b.id) } }, `position.after: "${other.b.id}" is not a sibling of the moved entry`],
      [{ position: { after: pointer(c.id), before: pointer(b.id) } }, 'position: "after" must come before "before" among the siblings'],
      [{ position: { before: { type: 'site-space', siteSection: b.id } } }, /^position\.before\.type: /],
      [{ position: { before: { type: 'site-section', id: b.id } } }, /^position\.before/],
      [{ position: { middle: pointer(b.id) } }, /unknown field "middle"/],
      [{ parent: null }, /unknown field "parent"/],
    ] as const) {
      expectError(await t.call('POST', url, { token: w.token, body }), 400, message);
    }
    expect(await siteSnapshot(t, site.id)).toEqual(before);
  });

  it('needs the admin role, and a section of this site', async () => {
    const w = await buildSiteWorld(t);
    const { site, a, b } = await threeSections(w);
    const before = await siteSnapshot(t, site.id);
    const body = { position: { before: { type: 'site-section', siteSection: a.id } } };
    const url = w.url(site.id, `/sections/${b.id}/move`);
    for (const role of ['create', 'edit', 'read'] as Role[]) {
      expectError(await t.call('POST', url, { token: (await w.member(role)).token, body }), 403);
    }
    expectError(await t.call('POST', url, { token: (await w.member(null)).token, body }), 404);
    const stranger = await w.stranger();
    expectError(await t.call('POST', url, { token: stranger.token, body }), 404);
    await expectOfficialError(official(stranger).orgs.moveSiteSection(w.organizationId, site.id, b.id, {}), 404);
    expectError(await t.call('POST', url, { body }), 401);
    expectError(await t.call('POST', w.url(site.id, '/sections/sec_missing/move'), { token: w.token, body }), 404);
    expect(await siteSnapshot(t, site.id)).toEqual(before);
  });
});
