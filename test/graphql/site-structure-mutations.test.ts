import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { type GraphQLResult, expectData, expectGraphQLError, mutate } from '../support/graphql.ts';
import {
  GROUP_FIELDS,
  SECTION_FIELDS,
  SITE_SPACE_FIELDS,
  buildSitesWorld,
  groupSectionTitles,
  sectionTitlesInOrder,
  siteRows,
  siteSpacePaths,
  topLevelTitles,
} from '../support/site-tree.ts';

/**
 * Mutations of a site's structure: sections, section groups and site spaces.
 * Each writes what the database then holds (rows, defaults, order), and
 * refuses invalid input with a 400 naming the field, writing nothing.
 * (Permission and other-organization refusals: site-mutation-refusals.test.ts.)
 *
 * The site of `sectionedSite()`, in site order: section A "Guide" (default;
 * site spaces guide*, extra), section C "Beta" (extra*), then group
 * "Reference group" holding section B "Reference" (api*).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const APP = 'http://app.docs-gateway.test';

async function run(token: string, name: string, input: Record<string, unknown>, selection: string) {
  return expectData(await mutate(t, token, name, input, selection))[name];
}

function expectMissing(result: GraphQLResult, field: string) {
  const error = expectGraphQLError(result, 400);
  expect(error.message).toContain(`Field "${field}" of required type "ID!" was not provided`);
}

/** Mutations that add to the site take its id; the others take only the id of their section, group or site space. */
const ON_THE_SITE = new Set(['createSiteSection', 'createSiteSectionGroup', 'addSiteSpace']);

/** A world with its sectioned site, and `act(name, input, selection)` running a mutation on that site as the admin. */
async function sectioned() {
  const world = await buildSitesWorld(t);
  const site = await world.sectionedSite();
  const input = (name: string, rest: Record<string, unknown>) => (ON_THE_SITE.has(name) ? { siteId: site.siteId, ...rest } : rest);
  const act = (name: string, rest: Record<string, unknown>, selection: string) => run(world.admin.token, name, input(name, rest), selection);
  const attempt = (name: string, rest: Record<string, unknown>, selection = 'clientMutationId: __typename') =>
    mutate(t, world.admin.token, name, input(name, rest), selection);
  return { world, site, ...site, act, attempt, rows: () => siteRows(t, site.siteId) };
}

describe('mutation createSiteSection', () => {
  it('makes the first section the default, taking the site spaces of the root level', async () => {
    const world = await buildSitesWorld(t);
    const { admin, spaces } = world;
    const site = await world.site({ spaces: [spaces.guide.id, spaces.api.id] });
    const section = (await run(admin.token, 'createSiteSection', { siteId: site.id, spaceId: spaces.guide.id }, `section { ${SECTION_FIELDS} }`)).section;
    expect(section).toMatchObject({
      object: 'site-section',
      title: 'Guide',
      path: 'guide',
      default: true,
      draft: false,
      condition: null,
      description: null,
      icon: null,
      sectionGroup: null,
      urls: { published: `${APP}/sites/${site.id}/guide` },
    });
    expect(section.siteSpaces.map((entry: any) => [entry.path, entry.default, entry.section.id, entry.space.id])).toEqual([
      ['guide', true, section.id, spaces.guide.id],
      ['api', false, section.id, spaces.api.id],
    ]);
    expect(await t.database.db.siteSection.findUnique({ where: { id: section.id } })).toMatchObject({
      siteId: site.id,
      title: 'Guide',
      path: 'guide',
      isDefault: true,
      sectionGroupId: null,
    });
    expect(await siteSpacePaths(t, site.id, null)).toEqual([]);
    expect(await siteSpacePaths(t, site.id, section.id)).toEqual(['guide*', 'api']);

    // The next one goes last, with a path of its own and its space as its only site space.
    const next = (await run(admin.token, 'createSiteSection', { siteId: site.id, spaceId: spaces.extra.id, title: 'Guide' }, `section { ${SECTION_FIELDS} }`))
      .section;
    expect(next).toMatchObject({ title: 'Guide', path: 'guide-2', default: false });
    expect(next.siteSpaces.map((entry: any) => [entry.path, entry.default, entry.space.id])).toEqual([['extra', true, spaces.extra.id]]);
    expect(await t.database.db.siteSection.findUnique({ where: { id: next.id } })).toMatchObject({ path: 'guide-2', isDefault: false });
    expect(await topLevelTitles(t, site.id)).toEqual(['Guide', 'Guide']);
    expect((await t.database.db.siteSection.findMany({ where: { siteId: site.id }, orderBy: { topPosition: 'asc' } })).map((row) => row.id)).toEqual([
      section.id,
      next.id,
    ]);
  });

  it('rejects invalid input with a 400 naming the field, and creates nothing', async () => {
    const { world, attempt, rows } = await sectioned();
    const other = await buildSitesWorld(t);
    const before = await rows();
    for (const [input, message] of [
      [{ spaceId: world.spaces.api.id, title: 'x' }, /^title: /],
      [{ spaceId: world.spaces.api.id, title: 'x'.repeat(65) }, /^title: /],
      [{ spaceId: other.spaces.api.id }, new RegExp(`^spaceId: space "${other.spaces.api.id}" does not exist in this organization`)],
      [{ spaceId: 'spc_missing' }, /^spaceId: /],
    ] as const) {
      expectGraphQLError(await attempt('createSiteSection', input, 'section { id }'), 400, message);
    }
    expect(await rows()).toEqual(before);
  });
});

describe('mutation updateSiteSection', () => {
  it('updates title, path, icon, description, condition and the default site space; null removes the condition', async () => {
    const { siteId, sectionIds, siteSpaceIds, act } = await sectioned();
    const section = (
      await act(
        'updateSiteSection',
        {
          sectionId: sectionIds.a,
          title: 'Start here',
          path: 'start',
          icon: 'book',
          description: 'Where to begin',
          condition: 'visitor.claims.beta',
          defaultSiteSpace: siteSpaceIds.extraInA,
        },
        `section { ${SECTION_FIELDS} }`,
      )
    ).section;
    expect(section).toMatchObject({
      id: sectionIds.a,
      title: 'Start here',
      path: 'start',
      icon: 'book',
      description: 'Where to begin',
      condition: 'visitor.claims.beta',
      default: true,
      urls: { published: `${APP}/sites/${siteId}/start` },
    });
    expect(section.siteSpaces.map((entry: any) => [entry.id, entry.default, entry.urls.published])).toEqual([
      [siteSpaceIds.guideInA, false, `${APP}/sites/${siteId}/start/guide`],
      [siteSpaceIds.extraInA, true, `${APP}/sites/${siteId}/start/extra`],
    ]);
    expect(await t.database.db.siteSection.findUnique({ where: { id: sectionIds.a } })).toMatchObject({
      title: 'Start here',
      path: 'start',
      icon: 'book',
      description: 'Where to begin',
      condition: 'visitor.claims.beta',
    });
    expect(await siteSpacePaths(t, siteId, sectionIds.a)).toEqual(['guide', 'extra*']);

    const cleared = (await act('updateSiteSection', { sectionId: sectionIds.a, condition: null }, 'section { condition icon title }')).section;
    expect(cleared).toEqual({ condition: null, icon: 'book', title: 'Start here' });
    expect(await t.database.db.siteSection.findUnique({ where: { id: sectionIds.a } })).toMatchObject({ condition: null, icon: 'book' });
  });

  it('rejects invalid input with a 400 naming the field (409 for a path taken), and changes nothing', async () => {
    const { sectionIds, siteSpaceIds, attempt, rows } = await sectioned();
    const before = await rows();
    for (const [input, code, message] of [
      [{ title: 'x' }, 400, /^title: /],
      [{ path: 'bad path' }, 400, /^path: /],
      [{ path: '../other-site' }, 400, /^path: must not have a "\." or "\.\." segment/],
      [{ icon: 'x'.repeat(51) }, 400, /^icon: /],
      [{ description: 'x'.repeat(257) }, 400, /^description: /],
      [{ condition: 'process.exit()' }, 400, /^condition: /],
      [{ condition: '' }, 400, /^condition: /],
      [{ defaultSiteSpace: siteSpaceIds.apiInB }, 400, /^defaultSiteSpace: /],
      [{ title: 'Renamed', path: 'beta' }, 409, /^path: "beta" is already the path of another section/],
    ] as const) {
      expectGraphQLError(await attempt('updateSiteSection', { sectionId: sectionIds.a, ...input }, 'section { id }'), code, message);
    }
    expect(await rows()).toEqual(before);
  });
});

describe('mutation deleteSiteSection', () => {
  it('deletes the section and its site spaces; the next section in site order becomes the default', async () => {
    const { siteId, sectionIds, siteSpaceIds, act } = await sectioned();
    expect(await act('deleteSiteSection', { sectionId: sectionIds.a }, 'deletedId')).toEqual({ deletedId: sectionIds.a });
    expect(await t.database.db.siteSection.findUnique({ where: { id: sectionIds.a } })).toBeNull();
    expect(await t.database.db.siteSpace.count({ where: { id: { in: [siteSpaceIds.guideInA, siteSpaceIds.extraInA] } } })).toBe(0);
    expect(await sectionTitlesInOrder(t, siteId)).toEqual(['Beta', 'Reference']);
    expect((await t.database.db.siteSection.findMany({ where: { siteId, isDefault: true } })).map((row) => row.id)).toEqual([sectionIds.c]);
    expect(await t.database.db.siteSpace.count({ where: { siteId } })).toBe(2);
  });

  it('is a 400 naming sectionId when it is missing, a 404 for a section of another organization, and deletes nothing', async () => {
    const { attempt, rows } = await sectioned();
    const other = await (await buildSitesWorld(t)).sectionedSite('Other');
    const before = await rows();
    expectMissing(await attempt('deleteSiteSection', {}, 'deletedId'), 'sectionId');
    expectGraphQLError(
      await attempt('deleteSiteSection', { sectionId: other.sectionIds.a }, 'deletedId'),
      404,
      `Site section "${other.sectionIds.a}" was not found`,
    );
    expect(await rows()).toEqual(before);
    expect(await t.database.db.siteSection.count({ where: { id: other.sectionIds.a } })).toBe(1);
  });
});

describe('mutation moveSiteSection', () => {
  it('moves a section among the top-level entries, and a grouped one among the sections of its group', async () => {
    const { world, siteId, groupId, sectionIds, act } = await sectioned();
    const moved = (await act('moveSiteSection', { sectionId: sectionIds.c, position: { before: sectionIds.a } }, 'section { id title }')).section;
    expect(moved).toEqual({ id: sectionIds.c, title: 'Beta' });
    expect(await topLevelTitles(t, siteId)).toEqual(['Beta', 'Guide', 'Reference group']);
    // A group is a top-level sibling too.
    await act('moveSiteSection', { sectionId: sectionIds.c, position: { after: groupId } }, 'section { id }');
    expect(await topLevelTitles(t, siteId)).toEqual(['Guide', 'Reference group', 'Beta']);
    await act('moveSiteSection', { sectionId: sectionIds.a, position: { after: groupId, before: sectionIds.c } }, 'section { id }');
    expect(await topLevelTitles(t, siteId)).toEqual(['Reference group', 'Guide', 'Beta']);
    // Without a position: the end.
    await act('moveSiteSection', { sectionId: sectionIds.a }, 'section { id }');
    expect(await topLevelTitles(t, siteId)).toEqual(['Reference group', 'Beta', 'Guide']);
    expect(await sectionTitlesInOrder(t, siteId)).toEqual(['Reference', 'Beta', 'Guide']);

    const more = await world.section(siteId, world.spaces.guide.id, 'More');
    await world.rest('POST', world.url(siteId, `/section-groups/${groupId}/sections`), { sectionId: more.id }, 201);
    expect(await groupSectionTitles(t, groupId)).toEqual(['Reference', 'More']);
    await act('moveSiteSection', { sectionId: more.id, position: { before: sectionIds.b } }, 'section { id }');
    expect(await groupSectionTitles(t, groupId)).toEqual(['More', 'Reference']);
    expect(await sectionTitlesInOrder(t, siteId)).toEqual(['More', 'Reference', 'Beta', 'Guide']);
    expect(await topLevelTitles(t, siteId)).toEqual(['Reference group', 'Beta', 'Guide']);
  });

  it('rejects a position that is not among the siblings with a 400 naming it, and moves nothing', async () => {
    const { sectionIds, attempt, rows } = await sectioned();
    const before = await rows();
    for (const [position, message] of [
      // B is in the group: not a sibling of the top-level section C.
      [{ before: sectionIds.b }, /^position\.before: /],
      [{ after: 'sec_missing' }, /^position\.after: /],
      [{ after: sectionIds.a, before: sectionIds.a }, /^position: /],
    ] as const) {
      expectGraphQLError(await attempt('moveSiteSection', { sectionId: sectionIds.c, position }, 'section { id }'), 400, message);
    }
    expect(await rows()).toEqual(before);
  });
});

describe('mutation createSiteSectionGroup', () => {
  it('adds a group at the end of the top level, holding the given sections in order', async () => {
    const { siteId, groupId, sectionIds, act } = await sectioned();
    const group = (
      await act('createSiteSectionGroup', { title: 'Extras', icon: 'star', sections: [sectionIds.c, sectionIds.a] }, `sectionGroup { ${GROUP_FIELDS} }`)
    ).sectionGroup;
    expect(group).toMatchObject({ object: 'site-section-group', title: 'Extras', icon: 'star', draft: false });
    expect(group.sections.map((section: any) => [section.id, section.sectionGroup.id])).toEqual([
      [sectionIds.c, group.id],
      [sectionIds.a, group.id],
    ]);
    const row = (await t.database.db.siteSectionGroup.findUnique({ where: { id: group.id } }))!;
    expect(row).toMatchObject({ siteId, title: 'Extras', icon: 'star' });
    const members = await t.database.db.siteSection.findMany({ where: { sectionGroupId: group.id } });
    expect(members.map((section) => section.topPosition)).toEqual([row.position, row.position]);
    expect(await groupSectionTitles(t, group.id)).toEqual(['Beta', 'Guide']);
    expect(await topLevelTitles(t, siteId)).toEqual(['Reference group', 'Extras']);
    expect(await sectionTitlesInOrder(t, siteId)).toEqual(['Reference', 'Beta', 'Guide']);

    const empty = (await act('createSiteSectionGroup', { title: 'Empty' }, 'sectionGroup { id title icon sections { id } }')).sectionGroup;
    expect(empty).toMatchObject({ title: 'Empty', icon: null, sections: [] });
    expect(await topLevelTitles(t, siteId)).toEqual(['Reference group', 'Extras', 'Empty']);
    expect(await groupSectionTitles(t, groupId)).toEqual(['Reference']);
  });

  it('rejects invalid input with a 400 naming the field (409 for a section in a group), and creates nothing', async () => {
    const { world, sectionIds, attempt, rows } = await sectioned();
    const other = await world.sectionedSite('Other');
    const before = await rows();
    for (const [input, code, message] of [
      [{ title: '' }, 400, /^title: /],
      [{ title: 'x'.repeat(101) }, 400, /^title: /],
      [{ title: 'G', icon: 'x'.repeat(51) }, 400, /^icon: /],
      [{ title: 'G', sections: [sectionIds.c, sectionIds.c] }, 400, /^sections: /],
      [{ title: 'G', sections: [sectionIds.c, other.sectionIds.c] }, 400, /^sections\.1: /],
      [{ title: 'G', sections: ['sec_missing'] }, 400, /^sections\.0: /],
      [{ title: 'G', sections: [sectionIds.b] }, 409, /^sections\.0: /],
    ] as const) {
      expectGraphQLError(await attempt('createSiteSectionGroup', input, 'sectionGroup { id }'), code, message);
    }
    expect(await rows()).toEqual(before);
  });
});

describe('mutation updateSiteSectionGroup', () => {
  it('renames the group and sets its icon; null removes the icon', async () => {
    const { groupId, sectionIds, act } = await sectioned();
    const group = (
      await act('updateSiteSectionGroup', { sectionGroupId: groupId, title: 'API', icon: 'code' }, 'sectionGroup { id title icon sections { id } }')
    ).sectionGroup;
    expect(group).toEqual({ id: groupId, title: 'API', icon: 'code', sections: [{ id: sectionIds.b }] });
    expect(await t.database.db.siteSectionGroup.findUnique({ where: { id: groupId } })).toMatchObject({ title: 'API', icon: 'code' });
    await act('updateSiteSectionGroup', { sectionGroupId: groupId, icon: null }, 'sectionGroup { id }');
    expect(await t.database.db.siteSectionGroup.findUnique({ where: { id: groupId } })).toMatchObject({ title: 'API', icon: null });
  });

  it('rejects invalid input with a 400 naming the field, and changes nothing', async () => {
    const { groupId, attempt, rows } = await sectioned();
    const before = await rows();
    for (const [input, message] of [
      [{ title: '' }, /^title: /],
      [{ icon: 'x'.repeat(51) }, /^icon: /],
    ] as const) {
      expectGraphQLError(await attempt('updateSiteSectionGroup', { sectionGroupId: groupId, ...input }, 'sectionGroup { id }'), 400, message);
    }
    expect(await rows()).toEqual(before);
    // An explicit null on a field whose null means nothing is its absence: the title stays.
    const { title } = await t.database.db.siteSectionGroup.findUniqueOrThrow({ where: { id: groupId } });
    const kept = expectData(await attempt('updateSiteSectionGroup', { sectionGroupId: groupId, title: null }, 'sectionGroup { title }'));
    expect(kept.updateSiteSectionGroup.sectionGroup.title).toBe(title);
  });
});

describe('mutation deleteSiteSectionGroup', () => {
  it('deletes the group; its sections stay, in order, at the top level where it was', async () => {
    const { world, siteId, groupId, sectionIds, act } = await sectioned();
    await world.section(siteId, world.spaces.guide.id, 'Last');
    const more = await world.section(siteId, world.spaces.guide.id, 'More');
    await world.rest('POST', world.url(siteId, `/section-groups/${groupId}/sections`), { sectionId: more.id }, 201);
    expect(await topLevelTitles(t, siteId)).toEqual(['Guide', 'Beta', 'Reference group', 'Last']);
    expect(await groupSectionTitles(t, groupId)).toEqual(['Reference', 'More']);

    expect(await act('deleteSiteSectionGroup', { sectionGroupId: groupId }, 'deletedId')).toEqual({ deletedId: groupId });
    expect(await t.database.db.siteSectionGroup.findUnique({ where: { id: groupId } })).toBeNull();
    expect(await topLevelTitles(t, siteId)).toEqual(['Guide', 'Beta', 'Reference', 'More', 'Last']);
    expect(await sectionTitlesInOrder(t, siteId)).toEqual(['Guide', 'Beta', 'Reference', 'More', 'Last']);
    const freed = await t.database.db.siteSection.findMany({ where: { id: { in: [sectionIds.b, more.id] } } });
    for (const section of freed) {
      expect(section.sectionGroupId).toBeNull();
      expect(section.topPosition).toBe(section.position);
    }
  });

  it('is a 400 naming sectionGroupId when it is missing, a 404 for a group of another organization, and deletes nothing', async () => {
    const { attempt, rows } = await sectioned();
    const other = await (await buildSitesWorld(t)).sectionedSite('Other');
    const before = await rows();
    expectMissing(await attempt('deleteSiteSectionGroup', {}, 'deletedId'), 'sectionGroupId');
    expectGraphQLError(
      await attempt('deleteSiteSectionGroup', { sectionGroupId: other.groupId }, 'deletedId'),
      404,
      `Site section group "${other.groupId}" was not found`,
    );
    expect(await rows()).toEqual(before);
    expect(await t.database.db.siteSectionGroup.count({ where: { id: other.groupId } })).toBe(1);
  });
});

describe('mutation addSectionToGroup', () => {
  it('puts the section at the end of the group, where the group is in site order', async () => {
    const { siteId, groupId, sectionIds, act } = await sectioned();
    const group = (
      await act('addSectionToGroup', { sectionGroupId: groupId, sectionId: sectionIds.c }, 'sectionGroup { id sections { id sectionGroup { id } } }')
    ).sectionGroup;
    expect(group).toEqual({
      id: groupId,
      sections: [
        { id: sectionIds.b, sectionGroup: { id: groupId } },
        { id: sectionIds.c, sectionGroup: { id: groupId } },
      ],
    });
    const groupRow = (await t.database.db.siteSectionGroup.findUnique({ where: { id: groupId } }))!;
    expect(await t.database.db.siteSection.findUnique({ where: { id: sectionIds.c } })).toMatchObject({
      sectionGroupId: groupId,
      topPosition: groupRow.position,
    });
    expect(await topLevelTitles(t, siteId)).toEqual(['Guide', 'Reference group']);
    expect(await sectionTitlesInOrder(t, siteId)).toEqual(['Guide', 'Reference', 'Beta']);
  });

  it('rejects a section of another site (400) or already in a group (409) naming sectionId, and changes nothing', async () => {
    const { world, groupId, sectionIds, attempt, rows } = await sectioned();
    const other = await world.sectionedSite('Other');
    const before = await rows();
    for (const [sectionId, code] of [
      [other.sectionIds.c, 400],
      ['sec_missing', 400],
      [sectionIds.b, 409],
    ] as const) {
      expectGraphQLError(await attempt('addSectionToGroup', { sectionGroupId: groupId, sectionId }, 'sectionGroup { id }'), code, /^sectionId: /);
    }
    expect(await rows()).toEqual(before);
  });
});

describe('mutation removeSectionFromGroup', () => {
  it('takes the section out of the group, to the top level right after the group', async () => {
    const { world, siteId, groupId, sectionIds, act } = await sectioned();
    await world.section(siteId, world.spaces.guide.id, 'Last');
    const group = (await act('removeSectionFromGroup', { sectionGroupId: groupId, sectionId: sectionIds.b }, 'sectionGroup { id title sections { id } }'))
      .sectionGroup;
    expect(group).toEqual({ id: groupId, title: 'Reference group', sections: [] });
    const section = (await t.database.db.siteSection.findUnique({ where: { id: sectionIds.b } }))!;
    expect(section.sectionGroupId).toBeNull();
    expect(section.topPosition).toBe(section.position);
    expect(await topLevelTitles(t, siteId)).toEqual(['Guide', 'Beta', 'Reference group', 'Reference', 'Last']);
  });

  it('is a 400 naming sectionId when it is missing, a 404 for a section not in the group, and changes nothing', async () => {
    const { groupId, sectionIds, attempt, rows } = await sectioned();
    const before = await rows();
    expectMissing(await attempt('removeSectionFromGroup', { sectionGroupId: groupId }, 'sectionGroup { id }'), 'sectionId');
    expectGraphQLError(
      await attempt('removeSectionFromGroup', { sectionGroupId: groupId, sectionId: sectionIds.a }, 'sectionGroup { id }'),
      404,
      new RegExp(`"${sectionIds.a}" was not found`),
    );
    expect(await rows()).toEqual(before);
  });
});

describe('mutation moveSiteSectionGroup', () => {
  it('moves the group among the top-level entries; its sections follow it in site order', async () => {
    const { siteId, groupId, sectionIds, act } = await sectioned();
    const group = (await act('moveSiteSectionGroup', { sectionGroupId: groupId, position: { before: sectionIds.a } }, 'sectionGroup { id title }'))
      .sectionGroup;
    expect(group).toEqual({ id: groupId, title: 'Reference group' });
    expect(await topLevelTitles(t, siteId)).toEqual(['Reference group', 'Guide', 'Beta']);
    expect(await sectionTitlesInOrder(t, siteId)).toEqual(['Reference', 'Guide', 'Beta']);
    const groupRow = (await t.database.db.siteSectionGroup.findUnique({ where: { id: groupId } }))!;
    expect((await t.database.db.siteSection.findUnique({ where: { id: sectionIds.b } }))!.topPosition).toBe(groupRow.position);

    await act('moveSiteSectionGroup', { sectionGroupId: groupId, position: { after: sectionIds.a } }, 'sectionGroup { id }');
    expect(await topLevelTitles(t, siteId)).toEqual(['Guide', 'Reference group', 'Beta']);
    expect(await sectionTitlesInOrder(t, siteId)).toEqual(['Guide', 'Reference', 'Beta']);
  });

  it('rejects a position that is not among the top-level entries with a 400 naming it, and moves nothing', async () => {
    const { groupId, sectionIds, attempt, rows } = await sectioned();
    const before = await rows();
    for (const [position, message] of [
      [{ after: sectionIds.b }, /^position\.after: /],
      [{ before: 'sec_missing' }, /^position\.before: /],
    ] as const) {
      expectGraphQLError(await attempt('moveSiteSectionGroup', { sectionGroupId: groupId, position }, 'sectionGroup { id }'), 400, message);
    }
    expect(await rows()).toEqual(before);
  });
});

describe('mutation addSiteSpace', () => {
  it('adds a space to the given section, else to the default section, else to the root level', async () => {
    const { world, siteId, sectionIds, act } = await sectioned();
    const added = (await act('addSiteSpace', { spaceId: world.spaces.api.id, sectionId: sectionIds.c }, `siteSpace { ${SITE_SPACE_FIELDS} }`)).siteSpace;
    expect(added).toMatchObject({
      object: 'site-space',
      path: 'api',
      title: 'API',
      default: false,
      condition: null,
      draft: false,
      section: { id: sectionIds.c },
      space: { id: world.spaces.api.id, title: 'API' },
      urls: { published: `${APP}/sites/${siteId}/beta/api` },
    });
    expect(await t.database.db.siteSpace.findUnique({ where: { id: added.id } })).toMatchObject({
      siteId,
      sectionId: sectionIds.c,
      spaceId: world.spaces.api.id,
      path: 'api',
      isDefault: false,
    });
    expect(await siteSpacePaths(t, siteId, sectionIds.c)).toEqual(['extra*', 'api']);

    const toDefault = (await act('addSiteSpace', { spaceId: world.spaces.api.id }, 'siteSpace { id section { id } }')).siteSpace;
    expect(toDefault.section).toEqual({ id: sectionIds.a });
    expect(await siteSpacePaths(t, siteId, sectionIds.a)).toEqual(['guide*', 'extra', 'api']);

    const plain = await world.site({ title: 'Plain' });
    const root = (await run(world.admin.token, 'addSiteSpace', { siteId: plain.id, spaceId: world.spaces.guide.id }, 'siteSpace { id default section { id } }'))
      .siteSpace;
    expect(root).toMatchObject({ default: true, section: null });
    expect(await siteSpacePaths(t, plain.id, null)).toEqual(['guide*']);
  });

  it('rejects invalid input with a 400 naming the field (409 for a space already there), and adds nothing', async () => {
    const { world, sectionIds, attempt, rows } = await sectioned();
    const other = await buildSitesWorld(t);
    const otherSite = await world.sectionedSite('Other');
    const before = await rows();
    for (const [input, code, message] of [
      [{ spaceId: other.spaces.api.id, sectionId: sectionIds.c }, 400, /^spaceId: /],
      [{ spaceId: world.spaces.api.id, sectionId: otherSite.sectionIds.c }, 400, /^sectionId: /],
      [{ spaceId: world.spaces.api.id, sectionId: 'sec_missing' }, 400, /^sectionId: /],
      [{ spaceId: world.spaces.guide.id, sectionId: sectionIds.a }, 409, /^spaceId: /],
    ] as const) {
      expectGraphQLError(await attempt('addSiteSpace', input, 'siteSpace { id }'), code, message);
    }
    expect(await rows()).toEqual(before);
  });
});

describe('mutation updateSiteSpace', () => {
  it('updates path and condition; null removes the condition, absent keeps it', async () => {
    const { siteId, sectionIds, siteSpaceIds, act } = await sectioned();
    const condition = 'visitor.claims.plan === "enterprise"';
    const siteSpace = (await act('updateSiteSpace', { siteSpaceId: siteSpaceIds.guideInA, path: 'start', condition }, `siteSpace { ${SITE_SPACE_FIELDS} }`))
      .siteSpace;
    expect(siteSpace).toMatchObject({
      id: siteSpaceIds.guideInA,
      path: 'start',
      condition,
      default: true,
      urls: { published: `${APP}/sites/${siteId}/guide/start` },
    });
    expect(await t.database.db.siteSpace.findUnique({ where: { id: siteSpaceIds.guideInA } })).toMatchObject({ path: 'start', condition });
    await act('updateSiteSpace', { siteSpaceId: siteSpaceIds.guideInA, path: 'begin' }, 'siteSpace { id }');
    expect(await t.database.db.siteSpace.findUnique({ where: { id: siteSpaceIds.guideInA } })).toMatchObject({ path: 'begin', condition });
    await act('updateSiteSpace', { siteSpaceId: siteSpaceIds.guideInA, condition: null }, 'siteSpace { id }');
    expect(await t.database.db.siteSpace.findUnique({ where: { id: siteSpaceIds.guideInA } })).toMatchObject({ path: 'begin', condition: null });
    expect(await siteSpacePaths(t, siteId, sectionIds.a)).toEqual(['begin*', 'extra']);
  });

  it('rejects invalid input with a 400 naming the field (409 for a path taken), and changes nothing', async () => {
    const { siteSpaceIds, attempt, rows } = await sectioned();
    const other = await (await buildSitesWorld(t)).sectionedSite('Other');
    const before = await rows();
    for (const [input, code, message] of [
      [{ path: 'bad path' }, 400, /^path: /],
      [{ path: '' }, 400, /^path: /],
      [{ path: 'a/..' }, 400, /^path: must not have a "\." or "\.\." segment/],
      [{ condition: 'visitor.claims.' }, 400, /^condition: /],
      [{ path: 'extra' }, 409, /^path: "extra" is already the path of another site space/],
    ] as const) {
      expectGraphQLError(await attempt('updateSiteSpace', { siteSpaceId: siteSpaceIds.guideInA, ...input }, 'siteSpace { id }'), code, message);
    }
    expectGraphQLError(
      await attempt('updateSiteSpace', { siteSpaceId: other.siteSpaceIds.guideInA, path: 'x' }, 'siteSpace { id }'),
      404,
      `Site space "${other.siteSpaceIds.guideInA}" was not found`,
    );
    expect(await rows()).toEqual(before);
  });
});

describe('mutation deleteSiteSpace', () => {
  it('removes the space from the site; the next one of its section becomes the default', async () => {
    const { siteId, sectionIds, siteSpaceIds, act } = await sectioned();
    expect(await act('deleteSiteSpace', { siteSpaceId: siteSpaceIds.guideInA }, 'deletedId')).toEqual({ deletedId: siteSpaceIds.guideInA });
    expect(await t.database.db.siteSpace.findUnique({ where: { id: siteSpaceIds.guideInA } })).toBeNull();
    expect(await siteSpacePaths(t, siteId, sectionIds.a)).toEqual(['extra*']);
    expect(await siteSpacePaths(t, siteId, sectionIds.c)).toEqual(['extra*']);
  });

  it('is a 400 naming siteSpaceId when it is missing, a 404 for a site space of another organization, and deletes nothing', async () => {
    const { attempt, rows } = await sectioned();
    const other = await (await buildSitesWorld(t)).sectionedSite('Other');
    const before = await rows();
    expectMissing(await attempt('deleteSiteSpace', {}, 'deletedId'), 'siteSpaceId');
    expectGraphQLError(
      await attempt('deleteSiteSpace', { siteSpaceId: other.siteSpaceIds.extraInA }, 'deletedId'),
      404,
      `Site space "${other.siteSpaceIds.extraInA}" was not found`,
    );
    expect(await rows()).toEqual(before);
  });
});

describe('mutation moveSiteSpace', () => {
  it('moves a site space among those of its section', async () => {
    const { world, siteId, sectionIds, siteSpaceIds, act } = await sectioned();
    const api = await world.siteSpace(siteId, world.spaces.api.id, sectionIds.a);
    const moved = (await act('moveSiteSpace', { siteSpaceId: siteSpaceIds.extraInA, position: { before: siteSpaceIds.guideInA } }, 'siteSpace { id path }'))
      .siteSpace;
    expect(moved).toEqual({ id: siteSpaceIds.extraInA, path: 'extra' });
    expect(await siteSpacePaths(t, siteId, sectionIds.a)).toEqual(['extra', 'guide*', 'api']);
    await act('moveSiteSpace', { siteSpaceId: siteSpaceIds.extraInA, position: { after: api.id } }, 'siteSpace { id }');
    expect(await siteSpacePaths(t, siteId, sectionIds.a)).toEqual(['guide*', 'api', 'extra']);
    await act('moveSiteSpace', { siteSpaceId: siteSpaceIds.guideInA }, 'siteSpace { id }');
    expect(await siteSpacePaths(t, siteId, sectionIds.a)).toEqual(['api', 'extra', 'guide*']);
  });

  it('rejects a position outside its section with a 400 naming it, and moves nothing', async () => {
    const { siteSpaceIds, attempt, rows } = await sectioned();
    const before = await rows();
    for (const [position, message] of [
      [{ before: siteSpaceIds.apiInB }, /^position\.before: /],
      [{ after: 'ssp_missing' }, /^position\.after: /],
    ] as const) {
      expectGraphQLError(await attempt('moveSiteSpace', { siteSpaceId: siteSpaceIds.extraInA, position }, 'siteSpace { id }'), 400, message);
    }
    expect(await rows()).toEqual(before);
  });
});

describe('mutation duplicateSiteSpace', () => {
  it('copies a variant right after it, as REST does; refused to members who do not administer the site', async () => {
    const { world, siteId, sectionIds, siteSpaceIds, act, attempt, rows } = await sectioned();
    const copy = (await act('duplicateSiteSpace', { siteSpaceId: siteSpaceIds.extraInA }, 'siteSpace { id path default space { title } section { id } }'))
      .siteSpace;
    expect(copy).toMatchObject({ path: 'extra-copy', default: false, section: { id: sectionIds.a } });
    expect(copy.space.title).toMatch(/^Copy of /);
    expect(await siteSpacePaths(t, siteId, sectionIds.a)).toEqual(['guide*', 'extra', 'extra-copy']);
    const before = await rows();
    const editor = await world.member('edit');
    expectGraphQLError(await mutate(t, editor.token, 'duplicateSiteSpace', { siteSpaceId: siteSpaceIds.extraInA }, 'siteSpace { id }'), 403);
    expectGraphQLError(await attempt('duplicateSiteSpace', { siteSpaceId: 'ssp_missing' }, 'siteSpace { id }'), 404);
    expect(await rows()).toEqual(before);
  });
});
