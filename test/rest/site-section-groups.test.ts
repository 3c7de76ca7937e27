import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/domain/access.ts';
import { type TestApp, createTestApp } from '../support/app.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { expectError } from '../support/http.ts';
import { itemIds, listAll } from '../support/listings.ts';
import { type OfficialClient, expectOfficialError, officialClient } from '../support/official.ts';
import { P, type SiteWorld, buildSiteWorld, siteSnapshot, treeOf } from '../support/sites.ts';

let t: TestApp;
let official: OfficialClient;
beforeAll(async () => {
  t = await createTestApp();
  official = await officialClient(t);
});

type Json = Record<string, any>;

const groupRow = (id: string) => t.database.db.siteSectionGroup.findUnique({ where: { id } });
const sectionRow = (id: string) => t.database.db.siteSection.findUnique({ where: { id } });

/** A site with four top-level sections A, B, C, D. */
async function fourSections(w: SiteWorld) {
  const site = await w.site({ title: 'Docs' });
  const sections: Json[] = [];
  for (const name of ['A', 'B', 'C', 'D']) sections.push(await w.section(site.id, (await w.space(`Space ${name}`)).id, `${name} section`));
  return { site, a: sections[0]!, b: sections[1]!, c: sections[2]!, d: sections[3]! };
}

/** Section ids in site order (the sections listing). */
async function siteOrder(w: SiteWorld, siteId: string) {
  return itemIds(await w.rest('GET', w.url(siteId, '/sections')));
}

/** Group and section rows of a site by id: what a move must leave alone. */
async function structureRows(siteId: string) {
  const [sections, groups] = await Promise.all([
    t.database.db.siteSection.findMany({ where: { siteId } }),
    t.database.db.siteSectionGroup.findMany({ where: { siteId } }),
  ]);
  return new Map<string, unknown>([...sections, ...groups].map((row) => [row.id, row]));
}

describe('POST /v1/orgs/{organizationId}/sites/{siteId}/section-groups', () => {
  it('creates a group at the end of the site holding the sections given, in order, through the official client', async () => {
    const w = await buildSiteWorld(t);
    const { site, a, b, c, d } = await fourSections(w);
    const { data } = await official(w.admin).orgs.addSectionGroupToSite(w.organizationId, site.id, {
      title: 'Guides',
      icon: 'book',
      sections: [c.id, a.id],
    });
    expectMatchesSchema('POST', P.groups, 201, data);
    expect(data).toMatchObject({ object: 'site-section-group', title: 'Guides', icon: 'book' });
    expect(data.sections.map((section) => [section.id, section.sectionGroup])).toEqual([
      [c.id, data.id],
      [a.id, data.id],
    ]);
    expect(await groupRow(data.id)).toMatchObject({ siteId: site.id, title: 'Guides', icon: 'book' });
    expect(await sectionRow(c.id)).toMatchObject({ sectionGroupId: data.id });
    expect(await sectionRow(b.id)).toMatchObject({ sectionGroupId: null });
    // The group comes after the remaining top-level sections.
    expect(await siteOrder(w, site.id)).toEqual([b.id, d.id, c.id, a.id]);
    expect(treeOf(await w.rest('GET', w.url(site.id, '/published')))).toEqual([
      ['B section', ['space-b']],
      ['D section', ['space-d']],
      {
        Guides: [
          ['C section', ['space-c']],
          ['A section', ['space-a']],
        ],
      },
    ]);
    // The default section stays the default.
    expect((await sectionRow(a.id))!.isDefault).toBe(true);
  });

  it('creates an empty group, with title bounds 1 and 100', async () => {
    const w = await buildSiteWorld(t);
    const { site } = await fourSections(w);
    const empty = await w.rest('POST', w.url(site.id, '/section-groups'), { title: 'G' }, 201);
    expectMatchesSchema('POST', P.groups, 201, empty);
    expect(empty).toMatchObject({ title: 'G', sections: [] });
    expect(empty.icon).toBeUndefined();
    const long = await w.rest('POST', w.url(site.id, '/section-groups'), { title: 'g'.repeat(100), icon: null }, 201);
    expect(long.title).toBe('g'.repeat(100));
    expect(await t.database.db.siteSectionGroup.count({ where: { siteId: site.id } })).toBe(2);
  });

  it('rejects bad input, sections of other sites or groups, and changes nothing', async () => {
    const w = await buildSiteWorld(t);
    const { site, a, b } = await fourSections(w);
    const other = await fourSections(w);
    const taken = await w.group(site.id, 'Taken', [b.id]);
    const before = await siteSnapshot(t, site.id);
    for (const [body, status, message] of [
      [{}, 400, 'title: is required'],
      [{ title: '' }, 400, /^title: /],
      [{ title: 'g'.repeat(101) }, 400, /^title: /],
      [{ title: 'G', icon: 'i'.repeat(51) }, 400, /^icon: /],
      [{ title: 'G', sections: [a.id, a.id] }, 400, 'sections: must not repeat a section'],
      [{ title: 'G', sections: ['sec_missing'] }, 400, 'sections.0: section "sec_missing" is not a section of this site'],
      [{ title: 'G', sections: [a.id, other.a.id] }, 400, `sections.1: section "${other.a.id}" is not a section of this site`],
      [{ title: 'G', sections: [a.id, b.id] }, 409, `sections.1: section "${b.id}" already belongs to group "${taken.id}"`],
      [{ title: 'G', parent: taken.id }, 400, /unknown field "parent"/],
    ] as const) {
      expectError(await t.call('POST', w.url(site.id, '/section-groups'), { token: w.token, body }), status, message);
    }
    expect(await siteSnapshot(t, site.id)).toEqual(before);
  });

  it('needs the admin role on a site of the organization', async () => {
    const w = await buildSiteWorld(t);
    const { site } = await fourSections(w);
    const before = await siteSnapshot(t, site.id);
    const url = w.url(site.id, '/section-groups');
    const body = { title: 'Mine' };
    for (const role of ['create', 'edit', 'read'] as Role[]) {
      expectError(await t.call('POST', url, { token: (await w.member(role)).token, body }), 403);
    }
    expectError(await t.call('POST', url, { token: (await w.member(null)).token, body }), 404);
    const stranger = await w.stranger();
    expectError(await t.call('POST', url, { token: stranger.token, body }), 404);
    await expectOfficialError(official(stranger).orgs.addSectionGroupToSite(w.organizationId, site.id, body), 404);
    expectError(await t.call('POST', url, { body }), 401);
    const other = await buildSiteWorld(t);
    expectError(await t.call('POST', other.url(site.id, '/section-groups'), { token: other.token, body }), 404);
    expect(await siteSnapshot(t, site.id)).toEqual(before);
  });
});

describe('GET /v1/orgs/{organizationId}/sites/{siteId}/section-groups', () => {
  it('lists the groups in site order with their sections, through the official client', async () => {
    const w = await buildSiteWorld(t);
    const { site, a, b, c, d } = await fourSections(w);
    const first = await w.group(site.id, 'First', [b.id]);
    const second = await w.group(site.id, 'Second', [d.id, c.id]);
    await w.rest('POST', w.url(site.id, `/section-groups/${second.id}/move`), {
      position: { before: { type: 'site-section', id: first.id } },
    });
    const { data } = await official(w.admin).orgs.listSiteSectionGroups(w.organizationId, site.id);
    expectMatchesSchema('GET', P.groups, 200, data);
    expect(data.count).toBe(2);
    expect(itemIds(data)).toEqual([second.id, first.id]);
    expect(data.items[0]!.sections.map((section) => section.id)).toEqual([d.id, c.id]);
    expect(data.items[1]!.sections.map((section) => section.id)).toEqual([b.id]);
    expect(await siteOrder(w, site.id)).toEqual([a.id, d.id, c.id, b.id]);
  });

  it('pages with limit and next.page, rejects a limit above 1000, and is for members', async () => {
    const w = await buildSiteWorld(t);
    const { site } = await fourSections(w);
    const ids = [];
    for (const title of ['One', 'Two', 'Three']) ids.push((await w.group(site.id, title)).id);
    const { seen, counts } = await listAll(t, w.url(site.id, '/section-groups'), w.token, 2);
    expect(seen).toEqual(ids);
    expect(counts).toEqual([3, 3]);
    expectError(await t.call('GET', w.url(site.id, '/section-groups?limit=1001'), { token: w.token }), 400, /^limit: /);
    const reader = await w.member('read');
    expect(itemIds(await w.rest('GET', w.url(site.id, '/section-groups'), undefined, 200, reader.token))).toEqual(ids);
    expectError(await t.call('GET', w.url(site.id, '/section-groups'), { token: (await w.member(null)).token }), 404);
    const stranger = await w.stranger();
    expectError(await t.call('GET', w.url(site.id, '/section-groups'), { token: stranger.token }), 404);
    await expectOfficialError(official(stranger).orgs.listSiteSectionGroups(w.organizationId, site.id), 404);
    expectError(await t.call('GET', w.url(site.id, '/section-groups')), 401);
  });
});

describe('PATCH /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}', () => {
  it('updates the title and icon through the official client, and removes the icon with null', async () => {
    const w = await buildSiteWorld(t);
    const { site, a } = await fourSections(w);
    const group = await w.group(site.id, 'Guides', [a.id]);
    const { data } = await official(w.admin).orgs.updateSiteSectionGroupById(w.organizationId, site.id, group.id, {
      title: 'Tutorials',
      icon: 'graduation-cap',
    });
    expectMatchesSchema('PATCH', P.group, 200, data);
    expect(data).toMatchObject({ id: group.id, title: 'Tutorials', icon: 'graduation-cap' });
    expect(data.sections.map((section) => section.id)).toEqual([a.id]);
    const iconOnly = await w.rest('PATCH', w.url(site.id, `/section-groups/${group.id}`), { icon: null });
    expect(iconOnly.title).toBe('Tutorials');
    expect(iconOnly.icon).toBeUndefined();
    expect(await groupRow(group.id)).toMatchObject({ title: 'Tutorials', icon: null });
  });

  it('rejects bad input, needs the admin role and a group of this site, changing nothing', async () => {
    const w = await buildSiteWorld(t);
    const { site, a } = await fourSections(w);
    const group = await w.group(site.id, 'Guides', [a.id]);
    const other = await fourSections(w);
    const foreign = await w.group(other.site.id, 'Foreign');
    const before = await siteSnapshot(t, site.id);
    const url = w.url(site.id, `/section-groups/${group.id}`);
    for (const [body, message] of [
      [{ title: '' }, /^title: /],
      [{ title: 'g'.repeat(101) }, /^title: /],
      [{ icon: 'i'.repeat(51) }, /^icon: /],
      [{ draft: true }, /unknown field "draft"/],
    ] as const) {
      expectError(await t.call('PATCH', url, { token: w.token, body }), 400, message);
    }
    for (const role of ['create', 'edit', 'read'] as Role[]) {
      expectError(await t.call('PATCH', url, { token: (await w.member(role)).token, body: { title: 'Mine' } }), 403);
    }
    expectError(await t.call('PATCH', url, { token: (await w.member(null)).token, body: { title: 'Mine' } }), 404);
    const stranger = await w.stranger();
    expectError(await t.call('PATCH', url, { token: stranger.token, body: { title: 'Mine' } }), 404);
    await expectOfficialError(official(stranger).orgs.updateSiteSectionGroupById(w.organizationId, site.id, group.id, { title: 'Mine' }), 404);
    expectError(await t.call('PATCH', url, { body: { title: 'Mine' } }), 401);
    expectError(
      await t.call('PATCH', w.url(site.id, `/section-groups/${foreign.id}`), { token: w.token, body: { title: 'Mine' } }),
      404,
      `Site section group "${foreign.id}" was not found`,
    );
    expect(await siteSnapshot(t, site.id)).toEqual(before);
    expect(await groupRow(foreign.id)).toMatchObject({ title: 'Foreign' });
  });
});

describe('DELETE /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}', () => {
  it('deletes the group and keeps its sections on the site, where the group was, through the official client', async () => {
    const w = await buildSiteWorld(t);
    const { site, a, b, c, d } = await fourSections(w);
    const group = await w.group(site.id, 'Group', [c.id, b.id]);
    await w.rest('POST', w.url(site.id, `/section-groups/${group.id}/move`), {
      position: { after: { type: 'site-section', id: a.id } },
    });
    expect(await siteOrder(w, site.id)).toEqual([a.id, c.id, b.id, d.id]);

    const response = await official(w.admin).orgs.deleteSiteSectionGroupById(w.organizationId, site.id, group.id);
    expect(response.status).toBe(205);
    expect(await groupRow(group.id)).toBeNull();
    expect(await sectionRow(b.id)).toMatchObject({ sectionGroupId: null });
    expect(await sectionRow(c.id)).toMatchObject({ sectionGroupId: null });
    const listed = (await w.rest('GET', w.url(site.id, '/sections'))).items;
    expect(listed.map((section: Json) => [section.id, section.sectionGroup])).toEqual([
      [a.id, undefined],
      [c.id, undefined],
      [b.id, undefined],
      [d.id, undefined],
    ]);
    expect(treeOf(await w.rest('GET', w.url(site.id, '/published'))).map((entry) => (entry as unknown[])[0])).toEqual([
      'A section',
      'C section',
      'B section',
      'D section',
    ]);
    expect(await w.rest('GET', w.url(site.id, '/section-groups'))).toEqual({ count: 0, items: [] });
    // Moves among the top level work on the freed sections.
    await w.rest('POST', w.url(site.id, `/sections/${b.id}/move`), { position: { before: { type: 'site-section', siteSection: a.id } } });
    expect(await siteOrder(w, site.id)).toEqual([b.id, a.id, c.id, d.id]);
  });

  it('needs the admin role and a group of this site, changing nothing', async () => {
    const w = await buildSiteWorld(t);
    const { site, a } = await fourSections(w);
    const group = await w.group(site.id, 'Guides', [a.id]);
    const other = await fourSections(w);
    const foreign = await w.group(other.site.id, 'Foreign');
    const before = await siteSnapshot(t, site.id);
    const url = w.url(site.id, `/section-groups/${group.id}`);
    for (const role of ['create', 'edit', 'read'] as Role[]) {
      expectError(await t.call('DELETE', url, { token: (await w.member(role)).token }), 403);
    }
    expectError(await t.call('DELETE', url, { token: (await w.member(null)).token }), 404);
    const stranger = await w.stranger();
    expectError(await t.call('DELETE', url, { token: stranger.token }), 404);
    await expectOfficialError(official(stranger).orgs.deleteSiteSectionGroupById(w.organizationId, site.id, group.id), 404);
    expectError(await t.call('DELETE', url), 401);
    expectError(await t.call('DELETE', w.url(site.id, `/section-groups/${foreign.id}`), { token: w.token }), 404);
    expect(await siteSnapshot(t, site.id)).toEqual(before);
    expect(await groupRow(foreign.id)).not.toBeNull();
  });
});

describe('POST and DELETE /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections', () => {
  it('adds a section at the end of a group', async () => {
    const w = await buildSiteWorld(t);
    const { site, a, b, c, d } = await fourSections(w);
    const group = await w.group(site.id, 'Group', [b.id]);
    const response = await t.call('POST', w.url(site.id, `/section-groups/${group.id}/sections`), {
      token: w.token,
      body: { sectionId: d.id },
    });
    expect(response.statusCode, response.body).toBe(201);
    expectMatchesSchema('POST', P.groupSections, 201, response.json());
    expect(response.json()).toMatchObject({ id: group.id, object: 'site-section-group' });
    expect(response.json().sections.map((section: Json) => section.id)).toEqual([b.id, d.id]);
    expect(await sectionRow(d.id)).toMatchObject({ sectionGroupId: group.id });
    expect(await siteOrder(w, site.id)).toEqual([a.id, c.id, b.id, d.id]);
  });

  it('refuses a section that is in a group already (409), or not of this site (400), changing nothing', async () => {
    const w = await buildSiteWorld(t);
    const { site, a, b, c } = await fourSections(w);
    const first = await w.group(site.id, 'First', [a.id]);
    const second = await w.group(site.id, 'Second', [b.id]);
    const other = await fourSections(w);
    const before = await siteSnapshot(t, site.id);
    const url = w.url(site.id, `/section-groups/${second.id}/sections`);
    for (const [body, status, message] of [
      [{ sectionId: a.id }, 409, `sectionId: section "${a.id}" already belongs to group "${first.id}"`],
      [{ sectionId: b.id }, 409, `sectionId: section "${b.id}" is already in this group`],
      [{ sectionId: other.c.id }, 400, `sectionId: section "${other.c.id}" is not a section of this site`],
      [{ sectionId: 'sec_missing' }, 400, 'sectionId: section "sec_missing" is not a section of this site'],
      [{}, 400, 'sectionId: is required'],
      [{ sectionId: c.id, position: 0 }, 400, /unknown field "position"/],
    ] as const) {
      expectError(await t.call('POST', url, { token: w.token, body }), status, message);
    }
    expectError(await t.call('POST', w.url(site.id, '/section-groups/ssg_missing/sections'), { token: w.token, body: { sectionId: c.id } }), 404);
    expect(await siteSnapshot(t, site.id)).toEqual(before);
  });

  it('takes a section out of its group: it stays on the site, right after the group', async () => {
    const w = await buildSiteWorld(t);
    const { site, a, b, c, d } = await fourSections(w);
    const group = await w.group(site.id, 'Group', [b.id, c.id]);
    await w.rest('POST', w.url(site.id, `/section-groups/${group.id}/move`), {
      position: { after: { type: 'site-section', id: a.id } },
    });
    const response = await t.call('DELETE', w.url(site.id, `/section-groups/${group.id}/sections/${b.id}`), { token: w.token });
    expect(response.statusCode, response.body).toBe(205);
    expect(response.body).toBe('');
    expect(await sectionRow(b.id)).toMatchObject({ siteId: site.id, sectionGroupId: null });
    const listed = (await w.rest('GET', w.url(site.id, '/sections'))).items;
    expect(listed.map((section: Json) => [section.id, section.sectionGroup])).toEqual([
      [a.id, undefined],
      [c.id, group.id],
      [b.id, undefined],
      [d.id, undefined],
    ]);
    expect(treeOf(await w.rest('GET', w.url(site.id, '/published')))).toEqual([
      ['A section', ['space-a']],
      { Group: [['C section', ['space-c']]] },
      ['B section', ['space-b']],
      ['D section', ['space-d']],
    ]);
    // It can join another group now.
    const next = await w.group(site.id, 'Next', [b.id]);
    expect(next.sections.map((section: Json) => section.id)).toEqual([b.id]);
  });

  it('is a 404 for a section that is not in the group, and needs the admin role, changing nothing', async () => {
    const w = await buildSiteWorld(t);
    const { site, a, b } = await fourSections(w);
    const group = await w.group(site.id, 'Group', [a.id]);
    const before = await siteSnapshot(t, site.id);
    expectError(await t.call('DELETE', w.url(site.id, `/section-groups/${group.id}/sections/${b.id}`), { token: w.token }), 404);
    expectError(await t.call('DELETE', w.url(site.id, `/section-groups/${group.id}/sections/sec_missing`), { token: w.token }), 404);
    const remove = w.url(site.id, `/section-groups/${group.id}/sections/${a.id}`);
    const add = w.url(site.id, `/section-groups/${group.id}/sections`);
    for (const role of ['create', 'edit', 'read'] as Role[]) {
      const user = await w.member(role);
      expectError(await t.call('DELETE', remove, { token: user.token }), 403);
      expectError(await t.call('POST', add, { token: user.token, body: { sectionId: b.id } }), 403);
    }
    const guest = await w.member(null);
    const stranger = await w.stranger();
    for (const token of [guest.token, stranger.token]) {
      expectError(await t.call('DELETE', remove, { token }), 404);
      expectError(await t.call('POST', add, { token, body: { sectionId: b.id } }), 404);
    }
    expectError(await t.call('DELETE', remove), 401);
    expectError(await t.call('POST', add, { body: { sectionId: b.id } }), 401);
    expect(await siteSnapshot(t, site.id)).toEqual(before);
  });
});

describe('POST /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move', () => {
  it('moves a group among the top-level entries, its sections following, through the official client', async () => {
    const w = await buildSiteWorld(t);
    const { site, a, b, c, d } = await fourSections(w);
    const group = await w.group(site.id, 'Group', [b.id, c.id]);
    expect(await siteOrder(w, site.id)).toEqual([a.id, d.id, b.id, c.id]);
    const move = async (position?: Json) => {
      const before = await structureRows(site.id);
      const { data } = await official(w.admin).orgs.moveSiteSectionGroup(w.organizationId, site.id, group.id, position ? { position } : {});
      expectMatchesSchema('POST', P.groupMove, 200, data);
      expect(data.sections.map((section) => section.id)).toEqual([b.id, c.id]);
      // Only the group (and the site order key of its own sections) changes.
      const after = await structureRows(site.id);
      for (const id of [a.id, d.id]) expect(after.get(id)).toEqual(before.get(id));
      for (const id of [b.id, c.id]) {
        const [was, is] = [before.get(id) as Json, after.get(id) as Json];
        expect({ ...is, topPosition: undefined, updatedAt: undefined }).toEqual({ ...was, topPosition: undefined, updatedAt: undefined });
        expect(is.topPosition).toBe((after.get(group.id) as Json).position);
      }
      return siteOrder(w, site.id);
    };
    expect(await move({ before: { type: 'site-section', id: a.id } })).toEqual([b.id, c.id, a.id, d.id]);
    expect(await move({ after: { type: 'site-section', id: a.id }, before: { type: 'site-section', id: d.id } })).toEqual([a.id, b.id, c.id, d.id]);
    expect(await move({ after: { type: 'site-section', id: d.id } })).toEqual([a.id, d.id, b.id, c.id]);
    expect(await move({ before: { type: 'site-section', id: a.id } })).toEqual([b.id, c.id, a.id, d.id]);
    expect(await move()).toEqual([a.id, d.id, b.id, c.id]);
    expect(treeOf(await w.rest('GET', w.url(site.id, '/published')))).toEqual([
      ['A section', ['space-a']],
      ['D section', ['space-d']],
      {
        Group: [
          ['B section', ['space-b']],
          ['C section', ['space-c']],
        ],
      },
    ]);
  });

  it('places a group relative to another group, named as a site-section-group (official pointer)', async () => {
    const w = await buildSiteWorld(t);
    const { site, a, b, c, d } = await fourSections(w);
    const first = await w.group(site.id, 'First', [a.id]);
    const second = await w.group(site.id, 'Second', [b.id]);
    const moved = await official(w.admin).orgs.moveSiteSectionGroup(w.organizationId, site.id, second.id, {
      position: { before: { type: 'site-section-group', id: first.id } },
    });
    expect(moved.status).toBe(200);
    expect(itemIds(await w.rest('GET', w.url(site.id, '/section-groups')))).toEqual([second.id, first.id]);
    expect(await siteOrder(w, site.id)).toEqual([c.id, d.id, b.id, a.id]);
  });

  it('rejects bad positions, needs the admin role, and changes nothing', async () => {
    const w = await buildSiteWorld(t);
    const { site, a, b, c } = await fourSections(w);
    const group = await w.group(site.id, 'Group', [b.id]);
    const other = await fourSections(w);
    const before = await siteSnapshot(t, site.id);
    const url = w.url(site.id, `/section-groups/${group.id}/move`);
    for (const [body, message] of [
      [{ position: { before: { type: 'site-section', id: 'sec_missing' } } }, 'position.before: "sec_missing" is not a sibling of the moved entry'],
      [{ position: { before: { type: 'site-section', id: b.id } } }, `position.before: "${b.id}" is not a sibling of the moved entry`],
      [{ position: { after: { type: 'site-section', id: other.a.id } } }, `position.after: "${other.a.id}" is not a sibling of the moved entry`],
      [
        { position: { after: { type: 'site-section', id: c.id }, before: { type: 'site-section', id: a.id } } },
        'position: "after" must come before "before" among the siblings',
      ],
      [{ position: { before: { type: 'site-space', id: a.id } } }, /^position\.before\.type: /],
      [{ position: { before: { type: 'site-section', siteSection: a.id } } }, /^position\.before/],
      [{ parent: null }, /unknown field "parent"/],
    ] as const) {
      expectError(await t.call('POST', url, { token: w.token, body }), 400, message);
    }
    const body = { position: { before: { type: 'site-section', id: a.id } } };
    for (const role of ['create', 'edit', 'read'] as Role[]) {
      expectError(await t.call('POST', url, { token: (await w.member(role)).token, body }), 403);
    }
    expectError(await t.call('POST', url, { token: (await w.member(null)).token, body }), 404);
    const stranger = await w.stranger();
    expectError(await t.call('POST', url, { token: stranger.token, body }), 404);
    await expectOfficialError(official(stranger).orgs.moveSiteSectionGroup(w.organizationId, site.id, group.id, {}), 404);
    expectError(await t.call('POST', url, { body }), 401);
    expectError(await t.call('POST', w.url(site.id, '/section-groups/ssg_missing/move'), { token: w.token, body }), 404);
    expect(await siteSnapshot(t, site.id)).toEqual(before);
  });
});
