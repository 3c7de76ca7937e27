import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/domain/access.ts';
import { type TestApp, createTestApp } from '../support/app.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { expectError } from '../support/http.ts';
import { itemIds, listAll } from '../support/listings.ts';
import { type OfficialClient, expectOfficialError, officialClient } from '../support/official.ts';
import { P, type SiteWorld, buildSiteWorld, shareKeyOf, siteSnapshot, treeOf } from '../support/sites.ts';

let t: TestApp;
let official: OfficialClient;
beforeAll(async () => {
  t = await createTestApp();
  official = await officialClient(t);
});

type Json = Record<string, any>;

const siteSpaceRow = (id: string) => t.database.db.siteSpace.findUnique({ where: { id } });

/** Site space rows of a site by id: what a move must leave alone. */
async function siteSpaceRows(siteId: string) {
  const rows = await t.database.db.siteSpace.findMany({ where: { siteId } });
  return new Map(rows.map((row) => [row.id, row]));
}

/** A site without sections showing spaces A, B, C at its root level; returns their site spaces too. */
async function rootSite(w: SiteWorld) {
  const spaces = [await w.space('Space A'), await w.space('Space B'), await w.space('Space C')];
  const site = await w.site({ title: 'Docs', spaces: spaces.map((space) => space.id) });
  const { items } = await w.rest('GET', w.url(site.id, '/site-spaces'));
  const bySpace = (space: Json) => items.find((item: Json) => item.space.id === space.id);
  return { site, spaces, a: bySpace(spaces[0]!), b: bySpace(spaces[1]!), c: bySpace(spaces[2]!) };
}

/** Site space ids of a section (or of the root level: the published tree) in order. */
async function publishedOrder(w: SiteWorld, siteId: string) {
  return treeOf(await w.rest('GET', w.url(siteId, '/published')));
}

describe('POST /v1/orgs/{organizationId}/sites/{siteId}/site-spaces', () => {
  it('adds a space at the root level of a site without sections, through the official client', async () => {
    const w = await buildSiteWorld(t);
    const site = await w.site({ title: 'Docs' });
    const guide = await w.space('Guide');
    const api = await w.space('Guide');
    const { data } = await official(w.admin).orgs.addSpaceToSite(w.organizationId, site.id, { spaceId: guide.id });
    expectMatchesSchema('POST', P.siteSpaces, 201, data);
    expect(data).toMatchObject({
      object: 'site-space',
      path: 'guide',
      title: 'Guide',
      default: true,
      space: { id: guide.id, object: 'space' },
      urls: { published: `http://app.docs-gateway.test/sites/${site.id}/guide` },
    });
    expect(data.section).toBeUndefined();
    expect(data.condition).toBeUndefined();
    expect(await siteSpaceRow(data.id)).toMatchObject({ siteId: site.id, sectionId: null, spaceId: guide.id, path: 'guide', isDefault: true });

    const second = await w.siteSpace(site.id, api.id);
    expect(second).toMatchObject({ path: 'guide-2', default: false });
    expect((await w.rest('GET', w.url(site.id))).siteSpaces).toBe(2);
    expect(await publishedOrder(w, site.id)).toEqual(['guide', 'guide-2']);
  });

  it('adds to the default section when no section is named, and to the section named otherwise', async () => {
    const w = await buildSiteWorld(t);
    const site = await w.site({ title: 'Docs' });
    const [a, b, c] = [await w.space('A'), await w.space('B'), await w.space('C')];
    const first = await w.section(site.id, a.id, 'First');
    const second = await w.section(site.id, b.id, 'Second');
    await w.patchSite(site.id, { defaultSiteSection: second.id });

    const toDefault = await w.siteSpace(site.id, c.id);
    expectMatchesSchema('POST', P.siteSpaces, 201, toDefault);
    expect(toDefault).toMatchObject({ section: second.id, default: false, path: 'c' });
    expect(toDefault.urls.published).toBe(`http://app.docs-gateway.test/sites/${site.id}/second/c`);
    const named = await official(w.admin).orgs.addSpaceToSite(w.organizationId, site.id, { spaceId: c.id, sectionId: first.id });
    expect(named.data).toMatchObject({ section: first.id, default: false });
    // The same space in two sections is fine.
    expect(await siteSpaceRow(named.data.id)).toMatchObject({ sectionId: first.id, spaceId: c.id });
    expect(await t.database.db.siteSpace.count({ where: { siteId: site.id, spaceId: c.id } })).toBe(2);
    expect((await w.rest('GET', w.url(site.id))).siteSpaces).toBe(4);
    expect(await publishedOrder(w, site.id)).toEqual([
      ['First', ['a', 'c']],
      ['Second', ['b', 'c']],
    ]);
  });

  it('is a 409 for a space already in the section (or root level), changing nothing', async () => {
    const w = await buildSiteWorld(t);
    const { site, spaces } = await rootSite(w);
    const before = await siteSnapshot(t, site.id);
    expectError(
      await t.call('POST', w.url(site.id, '/site-spaces'), { token: w.token, body: { spaceId: spaces[1]!.id } }),
      409,
      `spaceId: space "${spaces[1]!.id}" is already in this site`,
    );
    expect(await siteSnapshot(t, site.id)).toEqual(before);
    const section = await w.section(site.id, spaces[0]!.id, 'Main');
    const withSection = await siteSnapshot(t, site.id);
    expectError(
      await t.call('POST', w.url(site.id, '/site-spaces'), { token: w.token, body: { spaceId: spaces[2]!.id, sectionId: section.id } }),
      409,
      `spaceId: space "${spaces[2]!.id}" is already in this section`,
    );
    expectError(await t.call('POST', w.url(site.id, '/site-spaces'), { token: w.token, body: { spaceId: spaces[0]!.id } }), 409);
    expect(await siteSnapshot(t, site.id)).toEqual(withSection);
  });

  it('rejects bad input and changes nothing', async () => {
    const w = await buildSiteWorld(t);
    const { site } = await rootSite(w);
    const fresh = await w.space('Fresh');
    const other = await rootSite(w);
    const otherSection = await w.section(other.site.id, other.spaces[0]!.id, 'Other');
    const foreign = await (await buildSiteWorld(t)).space('Foreign');
    const before = await siteSnapshot(t, site.id);
    for (const [body, message] of [
      [{}, 'spaceId: is required'],
      [{ spaceId: null }, /^spaceId: /],
      [{ spaceId: 'spc_missing' }, 'spaceId: space "spc_missing" does not exist in this organization'],
      [{ spaceId: foreign.id }, `spaceId: space "${foreign.id}" does not exist in this organization`],
      [{ spaceId: fresh.id, sectionId: otherSection.id }, `sectionId: section "${otherSection.id}" is not a section of this site`],
      [{ spaceId: fresh.id, sectionId: '' }, /^sectionId: /],
      [{ spaceId: fresh.id, draft: true }, /unknown field "draft"/],
    ] as const) {
      expectError(await t.call('POST', w.url(site.id, '/site-spaces'), { token: w.token, body }), 400, message);
    }
    expect(await siteSnapshot(t, site.id)).toEqual(before);
  });

  it('needs the admin role on a site of the organization', async () => {
    const w = await buildSiteWorld(t);
    const { site } = await rootSite(w);
    const fresh = await w.space('Fresh');
    const before = await siteSnapshot(t, site.id);
    const url = w.url(site.id, '/site-spaces');
    const body = { spaceId: fresh.id };
    for (const role of ['create', 'edit', 'read'] as Role[]) {
      expectError(await t.call('POST', url, { token: (await w.member(role)).token, body }), 403);
    }
    expectError(await t.call('POST', url, { token: (await w.member(null)).token, body }), 404);
    const stranger = await w.stranger();
    expectError(await t.call('POST', url, { token: stranger.token, body }), 404);
    await expectOfficialError(official(stranger).orgs.addSpaceToSite(w.organizationId, site.id, body), 404);
    expectError(await t.call('POST', url, { body }), 401);
    const other = await buildSiteWorld(t);
    expectError(await t.call('POST', other.url(site.id, '/site-spaces'), { token: other.token, body }), 404);
    expect(await siteSnapshot(t, site.id)).toEqual(before);
  });
});

describe('GET /v1/orgs/{organizationId}/sites/{siteId}/site-spaces', () => {
  it('lists the site spaces oldest first, filtered by default, through the official client', async () => {
    const w = await buildSiteWorld(t);
    const { site, a, b, c } = await rootSite(w);
    const dates = [a, b, c].map((item, index) => ({ id: item.id, createdAt: new Date(Date.UTC(2022, 0, 3 - index)) }));
    for (const { id, createdAt } of dates) await t.database.db.siteSpace.update({ where: { id }, data: { createdAt } });
    const { data } = await official(w.admin).orgs.listSiteSpaces(w.organizationId, site.id);
    expectMatchesSchema('GET', P.siteSpaces, 200, data);
    expect(data.count).toBe(3);
    expect(itemIds(data)).toEqual([c.id, b.id, a.id]);
    const defaults = await official(w.admin).orgs.listSiteSpaces(w.organizationId, site.id, { default: true });
    expect(itemIds(defaults.data)).toEqual([a.id]);
    expect(defaults.data.count).toBe(1);
    const others = await w.rest('GET', w.url(site.id, '/site-spaces?default=false'));
    expect(itemIds(others)).toEqual([c.id, b.id]);
    expect(others.count).toBe(2);
  });

  it('pages with limit and next.page, rejects bad query parameters, and is for members', async () => {
    const w = await buildSiteWorld(t);
    const { site, a, b, c } = await rootSite(w);
    const { seen, counts } = await listAll(t, w.url(site.id, '/site-spaces'), w.token, 2);
    expect([...seen].sort()).toEqual([a.id, b.id, c.id].sort());
    expect(counts).toEqual([3, 3]);
    expectError(await t.call('GET', w.url(site.id, '/site-spaces?limit=1001'), { token: w.token }), 400, /^limit: /);
    expectError(await t.call('GET', w.url(site.id, '/site-spaces?default=yes'), { token: w.token }), 400, /^default: /);
    const reader = await w.member('read');
    expect((await w.rest('GET', w.url(site.id, '/site-spaces'), undefined, 200, reader.token)).count).toBe(3);
    expectError(await t.call('GET', w.url(site.id, '/site-spaces'), { token: (await w.member(null)).token }), 404);
    const stranger = await w.stranger();
    expectError(await t.call('GET', w.url(site.id, '/site-spaces'), { token: stranger.token }), 404);
    await expectOfficialError(official(stranger).orgs.listSiteSpaces(w.organizationId, site.id), 404);
    expectError(await t.call('GET', w.url(site.id, '/site-spaces')), 401);
    const other = await buildSiteWorld(t);
    expectError(await t.call('GET', other.url(site.id, '/site-spaces'), { token: other.token }), 404);
  });

  it('shows visitors of a published site only the site spaces shown to them', async () => {
    const w = await buildSiteWorld(t);
    const site = await w.site({ title: 'Docs', visibility: 'share-link' });
    const [a, b, c] = [await w.space('A'), await w.space('B'), await w.space('C')];
    const open = await w.section(site.id, a.id, 'Open');
    const hidden = await w.section(site.id, b.id, 'Hidden');
    const conditional = await w.siteSpace(site.id, c.id, open.id);
    await w.setSchema(site.id, { beta: 'boolean' });
    await w.updateSiteSpace(site.id, conditional.id, { condition: 'visitor.claims.beta' });
    await w.updateSection(site.id, hidden.id, { condition: 'visitor.claims.beta' });
    await w.publish(site.id);
    const key = shareKeyOf(await w.shareLink(site.id));
    const stranger = await w.stranger();
    expectError(await t.call('GET', w.url(site.id, '/site-spaces'), { token: stranger.token }), 404);
    const { data } = await official(stranger).orgs.listSiteSpaces(w.organizationId, site.id, { shareKey: key });
    expectMatchesSchema('GET', P.siteSpaces, 200, data);
    // Neither the conditional site space nor the site space of the hidden section.
    expect.soft(itemIds(data)).not.toContain(conditional.id);
    expect.soft(itemIds(data)).not.toContain(hidden.siteSpaces[0].id);
    expect.soft(itemIds(data)).toEqual([open.siteSpaces[0].id]);
    expect.soft(data.count).toBe(1);
    // Members see them all.
    expect((await w.rest('GET', w.url(site.id, '/site-spaces'))).count).toBe(3);
  });
});

describe('PATCH /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}', () => {
  it('updates the path and condition through the official client, and removes the condition with null', async () => {
    const w = await buildSiteWorld(t);
    const site = await w.site({ title: 'Docs' });
    const section = await w.section(site.id, (await w.space('Guide')).id, 'Docs section');
    const siteSpace = section.siteSpaces[0];
    await w.setSchema(site.id, { plan: 'string' });
    const { data } = await official(w.admin).orgs.updateSiteSpaceById(w.organizationId, site.id, siteSpace.id, {
      path: 'v2/guide',
      condition: 'visitor.claims.plan === "pro"',
    });
    expectMatchesSchema('PATCH', P.siteSpace, 200, data);
    expect(data).toMatchObject({
      id: siteSpace.id,
      path: 'v2/guide',
      condition: 'visitor.claims.plan === "pro"',
      section: section.id,
      urls: { published: `http://app.docs-gateway.test/sites/${site.id}/docs-section/v2/guide` },
    });
    expect(await siteSpaceRow(siteSpace.id)).toMatchObject({ path: 'v2/guide', condition: 'visitor.claims.plan === "pro"' });
    const pathOnly = await w.updateSiteSpace(site.id, siteSpace.id, { path: 'p'.repeat(100) });
    expect(pathOnly).toMatchObject({ path: 'p'.repeat(100), condition: 'visitor.claims.plan === "pro"' });
    const cleared = await w.updateSiteSpace(site.id, siteSpace.id, { condition: null });
    expectMatchesSchema('PATCH', P.siteSpace, 200, cleared);
    expect(cleared.condition).toBeUndefined();
    expect(await siteSpaceRow(siteSpace.id)).toMatchObject({ path: 'p'.repeat(100), condition: null });
    const longest = 'visitor.claims.plan'.padEnd(1024, ' ');
    expect(await w.updateSiteSpace(site.id, siteSpace.id, { condition: longest, path: 'x' })).toMatchObject({ condition: longest, path: 'x' });
  });

  it('is a 409 for a path another site space of the section has; other sections and sites are fine', async () => {
    const w = await buildSiteWorld(t);
    const { site, a, b } = await rootSite(w);
    const before = await siteSnapshot(t, site.id);
    expectError(
      await t.call('PATCH', w.url(site.id, `/site-spaces/${b.id}`), { token: w.token, body: { path: a.path } }),
      409,
      `path: "${a.path}" is already the path of another site space of this site`,
    );
    expect(await siteSnapshot(t, site.id)).toEqual(before);
    expect(await w.updateSiteSpace(site.id, a.id, { path: a.path })).toMatchObject({ path: a.path });

    const sectioned = await w.site({ title: 'Sectioned' });
    const [x, y, z] = [await w.space('X'), await w.space('Y'), await w.space('Z')];
    const one = await w.section(sectioned.id, x.id, 'One');
    const two = await w.section(sectioned.id, y.id, 'Two');
    const extra = await w.siteSpace(sectioned.id, z.id, one.id);
    const snapshot = await siteSnapshot(t, sectioned.id);
    expectError(
      await t.call('PATCH', w.url(sectioned.id, `/site-spaces/${extra.id}`), { token: w.token, body: { path: 'x' } }),
      409,
      'path: "x" is already the path of another site space of this section',
    );
    expect(await siteSnapshot(t, sectioned.id)).toEqual(snapshot);
    // The path of a site space in another section.
    expect(await w.updateSiteSpace(sectioned.id, two.siteSpaces[0].id, { path: 'x' })).toMatchObject({ path: 'x' });
    // And of a site space of another site.
    expect(await w.updateSiteSpace(site.id, a.id, { path: 'z' })).toMatchObject({ path: 'z' });
  });

  it('rejects bad paths and conditions, naming the field, and changes nothing', async () => {
    const w = await buildSiteWorld(t);
    const { site, a } = await rootSite(w);
    await w.setSchema(site.id, { beta: 'boolean' });
    const before = await siteSnapshot(t, site.id);
    const url = w.url(site.id, `/site-spaces/${a.id}`);
    for (const [body, message] of [
      [{ path: '' }, /^path: /],
      [{ path: 'p'.repeat(101) }, /^path: /],
      [{ path: 'a b' }, /^path: /],
      [{ path: '/a' }, /^path: /],
      [{ path: 'a/' }, /^path: /],
      [{ path: 'a?b' }, /^path: /],
      // Dot segments would take the site's addresses (llms.txt links) outside it.
      [{ path: '..' }, /^path: must not have a "\." or "\.\." segment/],
      [{ path: 'v2/../../elsewhere' }, /^path: must not have a "\." or "\.\." segment/],
      [{ path: './guide' }, /^path: must not have a "\." or "\.\." segment/],
      [{ condition: '' }, /^condition: /],
      [{ condition: 'visitor.claims.beta'.padEnd(1025, ' ') }, /^condition: /],
      [{ condition: '(visitor.claims.beta' }, /^condition: syntax error/],
      [{ condition: 'visitor.claims.beta ? ' }, /^condition: /],
      [{ condition: 'globalThis.process' }, /^condition: /],
      [{ title: 'Renamed' }, /unknown field "title"/],
    ] as const) {
      expectError(await t.call('PATCH', url, { token: w.token, body }), 400, message);
    }
    expect(await siteSnapshot(t, site.id)).toEqual(before);
    // An attribute the schema does not declare (yet) is accepted: it reads as undefined until it does.
    const undeclared = 'visitor.claims.beta && visitor.claims.country === "FR"';
    expect((await t.call('PATCH', url, { token: w.token, body: { condition: undeclared } })).statusCode).toBe(200);
    expect(await siteSpaceRow(a.id)).toMatchObject({ condition: undeclared });
  });

  it('needs the admin role and a site space of this site, changing nothing', async () => {
    const w = await buildSiteWorld(t);
    const { site, a } = await rootSite(w);
    const other = await rootSite(w);
    const before = await siteSnapshot(t, site.id);
    const url = w.url(site.id, `/site-spaces/${a.id}`);
    const body = { path: 'mine' };
    for (const role of ['create', 'edit', 'read'] as Role[]) {
      expectError(await t.call('PATCH', url, { token: (await w.member(role)).token, body }), 403);
    }
    expectError(await t.call('PATCH', url, { token: (await w.member(null)).token, body }), 404);
    const stranger = await w.stranger();
    expectError(await t.call('PATCH', url, { token: stranger.token, body }), 404);
    await expectOfficialError(official(stranger).orgs.updateSiteSpaceById(w.organizationId, site.id, a.id, body), 404);
    expectError(await t.call('PATCH', url, { body }), 401);
    expectError(await t.call('PATCH', w.url(site.id, `/site-spaces/${other.a.id}`), { token: w.token, body }), 404, `Site space "${other.a.id}" was not found`);
    expect(await siteSnapshot(t, site.id)).toEqual(before);
    expect(await siteSpaceRow(other.a.id)).toMatchObject({ path: 'space-a' });
  });
});

describe('DELETE /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}', () => {
  it('removes a space from the site through the official client, handing the default to the next one', async () => {
    const w = await buildSiteWorld(t);
    const { site, spaces, a, b, c } = await rootSite(w);
    await w.rest('POST', w.url(site.id, `/site-spaces/${c.id}/move`), { position: { before: { type: 'site-space', siteSpace: b.id } } });
    const response = await official(w.admin).orgs.deleteSiteSpaceById(w.organizationId, site.id, a.id);
    expect(response.status).toBe(205);
    expect(await siteSpaceRow(a.id)).toBeNull();
    expect(await t.database.db.space.count({ where: { id: spaces[0]!.id, deletedAt: null } })).toBe(1);
    expect((await siteSpaceRow(c.id))!.isDefault).toBe(true);
    expect((await siteSpaceRow(b.id))!.isDefault).toBe(false);
    expect((await w.rest('GET', w.url(site.id))).siteSpaces).toBe(2);
    expect(await publishedOrder(w, site.id)).toEqual(['space-c', 'space-b']);
    // A non-default one leaves the default alone.
    await w.rest('DELETE', w.url(site.id, `/site-spaces/${b.id}`), undefined, 205);
    expect((await siteSpaceRow(c.id))!.isDefault).toBe(true);
    expectError(await t.call('DELETE', w.url(site.id, `/site-spaces/${b.id}`), { token: w.token }), 404);
  });

  it('needs the admin role and a site space of this site, changing nothing', async () => {
    const w = await buildSiteWorld(t);
    const { site, a } = await rootSite(w);
    const other = await rootSite(w);
    const before = await siteSnapshot(t, site.id);
    const url = w.url(site.id, `/site-spaces/${a.id}`);
    for (const role of ['create', 'edit', 'read'] as Role[]) {
      expectError(await t.call('DELETE', url, { token: (await w.member(role)).token }), 403);
    }
    expectError(await t.call('DELETE', url, { token: (await w.member(null)).token }), 404);
    const stranger = await w.stranger();
    expectError(await t.call('DELETE', url, { token: stranger.token }), 404);
    await expectOfficialError(official(stranger).orgs.deleteSiteSpaceById(w.organizationId, site.id, a.id), 404);
    expectError(await t.call('DELETE', url), 401);
    expectError(await t.call('DELETE', w.url(site.id, `/site-spaces/${other.a.id}`), { token: w.token }), 404);
    expect(await siteSnapshot(t, site.id)).toEqual(before);
    expect(await siteSpaceRow(other.a.id)).not.toBeNull();
  });
});

describe('POST /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move', () => {
  it('moves a site space among its siblings, rewriting only its row, through the official client', async () => {
    const w = await buildSiteWorld(t);
    const { site, a, b, c } = await rootSite(w);
    const move = async (id: string, position?: Json) => {
      const before = await siteSpaceRows(site.id);
      const { data } = await official(w.admin).orgs.moveSiteSpace(w.organizationId, site.id, id, position ? { position } : {});
      expectMatchesSchema('POST', P.siteSpaceMove, 200, data);
      expect(data.id).toBe(id);
      const after = await siteSpaceRows(site.id);
      for (const [rowId, row] of before) if (rowId !== id) expect(after.get(rowId)).toEqual(row);
      expect(after.get(id)!.position).not.toBe(before.get(id)!.position);
      return publishedOrder(w, site.id);
    };
    const pointer = (item: Json) => ({ type: 'site-space' as const, siteSpace: item.id });
    expect(await move(c.id, { before: pointer(a) })).toEqual(['space-c', 'space-a', 'space-b']);
    expect(await move(c.id, { after: pointer(a), before: pointer(b) })).toEqual(['space-a', 'space-c', 'space-b']);
    expect(await move(a.id, { after: pointer(b) })).toEqual(['space-c', 'space-b', 'space-a']);
    expect(await move(c.id)).toEqual(['space-b', 'space-a', 'space-c']);
    // Moving does not change which one is the default.
    expect((await siteSpaceRow(a.id))!.isDefault).toBe(true);
  });

  it('moves within a section, not across sections', async () => {
    const w = await buildSiteWorld(t);
    const site = await w.site({ title: 'Docs' });
    const [x, y, z] = [await w.space('X'), await w.space('Y'), await w.space('Z')];
    const one = await w.section(site.id, x.id, 'One');
    const two = await w.section(site.id, y.id, 'Two');
    const extra = await w.siteSpace(site.id, z.id, one.id);
    await w.rest('POST', w.url(site.id, `/site-spaces/${extra.id}/move`), {
      position: { before: { type: 'site-space', siteSpace: one.siteSpaces[0].id } },
    });
    expect(await publishedOrder(w, site.id)).toEqual([
      ['One', ['z', 'x']],
      ['Two', ['y']],
    ]);
    const sections = await w.rest('GET', w.url(site.id, '/sections'));
    expect(sections.items[0].siteSpaces.map((item: Json) => item.id)).toEqual([extra.id, one.siteSpaces[0].id]);
    const before = await siteSnapshot(t, site.id);
    expectError(
      await t.call('POST', w.url(site.id, `/site-spaces/${extra.id}/move`), {
        token: w.token,
        body: { position: { after: { type: 'site-space', siteSpace: two.siteSpaces[0].id } } },
      }),
      400,
      `position.after: "${two.siteSpaces[0].id}" is not a sibling of the moved entry`,
    );
    expect(await siteSnapshot(t, site.id)).toEqual(before);
  });

  it('rejects bad positions, needs the admin role, and changes nothing', async () => {
    const w = await buildSiteWorld(t);
    const { site, a, b, c } = await rootSite(w);
    const other = await rootSite(w);
    const before = await siteSnapshot(t, site.id);
    const url = w.url(site.id, `/site-spaces/${a.id}/move`);
    const pointer = (id: string) => ({ type: 'site-space', siteSpace: id });
    for (const [body, message] of [
      [{ position: { before: pointer('ss_missing') } }, 'position.before: "ss_missing" is not a sibling of the moved entry'],
      [{ position: { before: pointer(other.b.id) } }, `position.before: "${other.b.id}" is not a sibling of the moved entry`],
      [{ position: { after: pointer(c.id), before: pointer(b.id) } }, 'position: "after" must come before "before" among the siblings'],
      [{ position: { before: { type: 'site-section', siteSpace: b.id } } }, /^position\.before\.type: /],
      [{ position: 'first' }, /^position: /],
      [{ section: null }, /unknown field "section"/],
    ] as const) {
      expectError(await t.call('POST', url, { token: w.token, body }), 400, message);
    }
    const body = { position: { before: pointer(c.id) } };
    for (const role of ['create', 'edit', 'read'] as Role[]) {
      expectError(await t.call('POST', url, { token: (await w.member(role)).token, body }), 403);
    }
    expectError(await t.call('POST', url, { token: (await w.member(null)).token, body }), 404);
    const stranger = await w.stranger();
    expectError(await t.call('POST', url, { token: stranger.token, body }), 404);
    await expectOfficialError(official(stranger).orgs.moveSiteSpace(w.organizationId, site.id, a.id, {}), 404);
    expectError(await t.call('POST', url, { body }), 401);
    expectError(await t.call('POST', w.url(site.id, `/site-spaces/${other.a.id}/move`), { token: w.token, body }), 404);
    expect(await siteSnapshot(t, site.id)).toEqual(before);
  });
});
