import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../support/app.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { type OfficialClient, expectOfficialError, officialClient } from '../support/official.ts';
import { type SiteWorld, buildSiteWorld, siteSnapshot, treeOf } from '../support/sites.ts';

/**
 * Writes of a site's structure the official API has beside the moves of each
 * kind: `sortSiteStructure` (an item before or after a sibling, or to the end)
 * and `duplicateSiteSpace` (a copy of the space shown where the site space is).
 */

let t: TestApp;
let official: OfficialClient;
beforeAll(async () => {
  t = await createTestApp();
  official = await officialClient(t);
});

const SORT = '/v1/orgs/{organizationId}/sites/{siteId}/structure/sort';
const DUPLICATE = '/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/duplicate';
const published = async (w: SiteWorld, siteId: string) => treeOf(await w.rest('GET', w.url(siteId, '/published')));
const audits = (organizationId: string, action: string) => t.database.db.auditEvent.findMany({ where: { organizationId, action } });

/** A site with sections A and B, a group G holding section C, and a second site space in A. */
async function structuredSite(w: SiteWorld) {
  const [a, b, c, variant] = [await w.space('Alpha'), await w.space('Bravo'), await w.space('Charlie'), await w.space('Variant')];
  const site = await w.site({ title: 'Structured' });
  const sectionA = await w.section(site.id, a.id, 'Alpha');
  const sectionB = await w.section(site.id, b.id, 'Bravo');
  const sectionC = await w.section(site.id, c.id, 'Charlie');
  const group = await w.group(site.id, 'Group', [sectionC.id]);
  const variantSiteSpace = await w.siteSpace(site.id, variant.id, sectionA.id);
  const firstSiteSpace = sectionA.siteSpaces[0];
  return { site, sectionA, sectionB, sectionC, group, variantSiteSpace, firstSiteSpace, spaces: { a, b, c, variant } };
}

describe('PATCH .../structure/sort (sortSiteStructure)', () => {
  it('moves site spaces, sections and groups before or after a sibling, or to the end (official client), each audited as its move', async () => {
    const w = await buildSiteWorld(t);
    const s = await structuredSite(w);
    expect(await published(w, s.site.id)).toEqual([['Alpha', ['alpha', 'variant']], ['Bravo', ['bravo']], { Group: [['Charlie', ['charlie']]] }]);
    const { data: movedSpace } = await official(w.admin).orgs.sortSiteStructure(w.organizationId, s.site.id, {
      item: { type: 'site-space', id: s.variantSiteSpace.id },
      position: { before: { type: 'site-space', id: s.firstSiteSpace.id } },
    });
    expectMatchesSchema('PATCH', SORT, 200, movedSpace);
    expect(movedSpace).toMatchObject({ object: 'site-space', id: s.variantSiteSpace.id });
    // A top-level section after the group; the group first.
    const movedSection = await w.rest('PATCH', w.url(s.site.id, '/structure/sort'), {
      item: { type: 'site-section', id: s.sectionA.id },
      position: { after: { type: 'site-section-group', id: s.group.id } },
    });
    expectMatchesSchema('PATCH', SORT, 200, movedSection);
    expect(movedSection).toMatchObject({ object: 'site-section', id: s.sectionA.id });
    const movedGroup = await w.rest('PATCH', w.url(s.site.id, '/structure/sort'), {
      item: { type: 'site-section-group', id: s.group.id },
      position: { before: { type: 'site-section', id: s.sectionB.id } },
    });
    expectMatchesSchema('PATCH', SORT, 200, movedGroup);
    expect(await published(w, s.site.id)).toEqual([{ Group: [['Charlie', ['charlie']]] }, ['Bravo', ['bravo']], ['Alpha', ['variant', 'alpha']]]);
    // No sibling named: the end.
    await w.rest('PATCH', w.url(s.site.id, '/structure/sort'), { item: { type: 'site-section-group', id: s.group.id }, position: {} });
    expect((await published(w, s.site.id)).at(-1)).toEqual({ Group: [['Charlie', ['charlie']]] });
    expect(await audits(w.organizationId, 'site_space.move')).toHaveLength(1);
    expect(await audits(w.organizationId, 'site_section.move')).toHaveLength(1);
    expect(await audits(w.organizationId, 'site_section_group.move')).toHaveLength(2);
  });

  it('refuses what is not a sibling or not there naming the field, changes nothing, and is for admins only', async () => {
    const w = await buildSiteWorld(t);
    const s = await structuredSite(w);
    const before = await siteSnapshot(t, s.site.id);
    const refused = async (body: unknown, status: number, message: RegExp) => {
      const response = await t.call('PATCH', `${w.url(s.site.id)}/structure/sort`, { token: w.token, body });
      expect(response.statusCode, response.body).toBe(status);
      expect(response.json().error.message).toMatch(message);
    };
    await refused({ item: { type: 'site-space', id: s.variantSiteSpace.id } }, 400, /^position/);
    await refused({ item: { type: 'page', id: 'x' }, position: {} }, 400, /^item\.type/);
    await refused(
      { item: { type: 'site-space', id: s.variantSiteSpace.id }, position: { before: { type: 'site-section', id: s.sectionA.id } } },
      400,
      /^position\.before\.type/,
    );
    // A section of another level (inside the group) is not a sibling of a top-level one.
    await refused(
      { item: { type: 'site-section', id: s.sectionA.id }, position: { after: { type: 'site-section', id: s.sectionC.id } } },
      400,
      /^position\.after: /,
    );
    await refused({ item: { type: 'site-space', id: 'sitesp_missing' }, position: {} }, 404, /sitesp_missing/);
    await refused({ item: { type: 'site-external-link', id: 'link' }, position: {} }, 404, /link/);
    expect(await siteSnapshot(t, s.site.id)).toEqual(before);
    const editor = await w.member('edit');
    await expectOfficialError(
      official(editor).orgs.sortSiteStructure(w.organizationId, s.site.id, { item: { type: 'site-section', id: s.sectionB.id }, position: {} }),
      403,
    );
  });
});

describe('POST .../site-spaces/{siteSpaceId}/duplicate (duplicateSiteSpace)', () => {
  it('copies a variant after it in its section, with its condition and customization override (official client)', async () => {
    const w = await buildSiteWorld(t);
    const s = await structuredSite(w);
    await w.updateSiteSpace(s.site.id, s.firstSiteSpace.id, { condition: 'visitor.claims.beta === true' });
    await w.rest('PATCH', w.url(s.site.id, `/site-spaces/${s.firstSiteSpace.id}/customization`), { title: 'Alpha variant' });
    const { data } = await official(w.admin).orgs.duplicateSiteSpace(w.organizationId, s.site.id, s.firstSiteSpace.id, {});
    expectMatchesSchema('POST', DUPLICATE, 201, data);
    expect(data).toMatchObject({ object: 'site-space', default: false, path: 'alpha-copy', condition: 'visitor.claims.beta === true' });
    expect(data.space.id).not.toBe(s.spaces.a.id);
    expect(data.space.title).toBe('Copy of Alpha');
    expect(await published(w, s.site.id)).toEqual([['Alpha', ['alpha', 'alpha-copy', 'variant']], ['Bravo', ['bravo']], { Group: [['Charlie', ['charlie']]] }]);
    const customization = await w.rest('GET', w.url(s.site.id, `/site-spaces/${data.id}/customization`));
    expect(customization.title).toBe('Alpha variant');
    const row = await t.database.db.siteSpace.findUniqueOrThrow({ where: { id: data.id } });
    expect(row).toMatchObject({ siteId: s.site.id, sectionId: s.sectionA.id, spaceId: data.space.id });
    expect(await audits(w.organizationId, 'site_space.duplicate')).toHaveLength(1);
    expect(await audits(w.organizationId, 'space.duplicate')).toHaveLength(1);
  });

  it("copies a section's only site space into a new section right after it (in its group too)", async () => {
    const w = await buildSiteWorld(t);
    const s = await structuredSite(w);
    const bravo = s.sectionB.siteSpaces[0];
    const copy = await w.rest('POST', w.url(s.site.id, `/site-spaces/${bravo.id}/duplicate`), {}, 201);
    expect(copy).toMatchObject({ default: true, path: 'bravo', space: { title: 'Copy of Bravo' } });
    const charlie = s.sectionC.siteSpaces[0];
    await w.rest('POST', w.url(s.site.id, `/site-spaces/${charlie.id}/duplicate`), undefined, 201);
    expect(await published(w, s.site.id)).toEqual([
      ['Alpha', ['alpha', 'variant']],
      ['Bravo', ['bravo']],
      ['Copy of Bravo', ['bravo']],
      {
        Group: [
          ['Charlie', ['charlie']],
          ['Copy of Charlie', ['charlie']],
        ],
      },
    ]);
  });

  it('refuses drafts and non-admins, naming the field, and changes nothing', async () => {
    const w = await buildSiteWorld(t);
    const s = await structuredSite(w);
    const before = await siteSnapshot(t, s.site.id);
    const spaces = await t.database.db.space.count({ where: { organizationId: w.organizationId } });
    const draft = await t.call('POST', `${w.url(s.site.id)}/site-spaces/${s.firstSiteSpace.id}/duplicate`, { token: w.token, body: { draft: true } });
    expect(draft.statusCode).toBe(400);
    expect(draft.json().error.message).toMatch(/^draft: /);
    const unknown = await t.call('POST', `${w.url(s.site.id)}/site-spaces/${s.firstSiteSpace.id}/duplicate`, { token: w.token, body: { title: 'x' } });
    expect(unknown.statusCode).toBe(400);
    const editor = await w.member('edit');
    await expectOfficialError(official(editor).orgs.duplicateSiteSpace(w.organizationId, s.site.id, s.firstSiteSpace.id, {}), 403);
    const missing = await t.call('POST', `${w.url(s.site.id)}/site-spaces/sitesp_missing/duplicate`, { token: w.token, body: {} });
    expect(missing.statusCode).toBe(404);
    expect(await siteSnapshot(t, s.site.id)).toEqual(before);
    expect(await t.database.db.space.count({ where: { organizationId: w.organizationId } })).toBe(spaces);
  });
});
