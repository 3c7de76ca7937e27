import { beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../support/app.ts';
import { expectMatchesSchema } from '../support/contract.ts';
import { expectError } from '../support/http.ts';
import { type OfficialClient, expectOfficialError, officialClient } from '../support/official.ts';
import { buildSiteWorld, shareKeyOf } from '../support/sites.ts';

let t: TestApp;
let official: OfficialClient;
beforeAll(async () => {
  t = await createTestApp();
  official = await officialClient(t);
});

type Json = Record<string, any>;

const CUSTOMIZATION = '/v1/orgs/{organizationId}/sites/{siteId}/customization';
const SITE_SPACE_CUSTOMIZATION = '/v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization';
const STRUCTURE = '/v1/orgs/{organizationId}/sites/{siteId}/structure';

/** A site with two sections (one site space each). */
async function customizationWorld() {
  const w = await buildSiteWorld(t);
  const [guide, api] = [await w.space('Guide'), await w.space('API')];
  const site = await w.site({ title: 'Docs' });
  const first = await w.section(site.id, guide.id, 'Guides');
  const second = await w.section(site.id, api.id, 'Reference');
  return { w, site, first, second, siteSpace: first.siteSpaces[0] as Json, other: second.siteSpaces[0] as Json };
}

/** Settings a renderer would send: the defaults changed in many places. */
function customSettings(defaults: Json): Json {
  const { updatedAt: _updatedAt, ...settings } = structuredClone(defaults);
  return {
    ...settings,
    title: 'Acme documentation',
    styling: { ...settings.styling, theme: 'bold', primaryColor: { light: '#112233', dark: '#445566' }, corners: 'straight' },
    favicon: { emoji: '1f4d8' },
    header: {
      preset: 'custom',
      links: [{ title: 'Blog', to: { kind: 'url', url: 'https://blog.example.com' }, links: [], style: 'button-primary' }],
      backgroundColor: { light: '#ffffff', dark: '#000000' },
    },
    footer: { groups: [{ title: 'Company', links: [{ title: 'About', to: { kind: 'url', url: 'https://example.com/about' } }] }] },
    pagination: { enabled: false },
    feedback: { enabled: true },
    trademark: { enabled: false },
    privacyPolicy: { url: 'https://example.com/privacy' },
    themes: { default: 'dark', toggeable: false },
  };
}

describe('site customization', () => {
  it('answers the defaults a self-hosted server honours, then the settings as set, through the official client', async () => {
    const { w, site } = await customizationWorld();
    const api = official(w.admin).orgs;
    const defaults = await api.getSiteCustomizationById(w.organizationId, site.id);
    expectMatchesSchema('GET', CUSTOMIZATION, 200, defaults.data);
    expect(defaults.data).toMatchObject({ title: 'Docs', ai: { mode: 'none' } });
    expect(defaults.data.updatedAt).toBeUndefined();

    const settings = customSettings(defaults.data as Json);
    const updated = await api.updateSiteCustomizationById(w.organizationId, site.id, settings as never);
    expectMatchesSchema('PUT', CUSTOMIZATION, 200, updated.data);
    const { updatedAt, ...stored } = updated.data as Json;
    expect(stored).toEqual(settings);
    expect(updatedAt).toEqual(expect.any(String));
    expect((await t.database.db.site.findUnique({ where: { id: site.id } }))!.customization).toEqual(settings);
    expect((await api.getSiteCustomizationById(w.organizationId, site.id)).data).toEqual(updated.data);
    // The published site carries them.
    expect((await w.rest('GET', w.url(site.id, '/published'))).customizations.site).toEqual(updated.data);
  }, 120_000);

  it('refuses invalid settings and what this server cannot honour, naming the field, and keeps what was set', async () => {
    const { w, site } = await customizationWorld();
    const defaults = await w.rest('GET', w.url(site.id, '/customization'));
    const settings = customSettings(defaults);
    await w.rest('PUT', w.url(site.id, '/customization'), settings);
    const { styling: _styling, ...withoutStyling } = settings;
    const cases: Array<[unknown, RegExp]> = [
      [{ ...settings, ai: { mode: 'assistant' } }, /^ai\.mode: must be "none"/],
      [{ ...settings, advancedCustomization: { enabled: true } }, /^advancedCustomization\.enabled: /],
      [withoutStyling, /^styling: is required/],
      [{ ...settings, styling: { ...settings.styling, primaryColor: { light: 'blue', dark: '#000' } } }, /^styling\.primaryColor\.light: must match pattern/],
      [
        { ...settings, styling: { ...settings.styling, theme: 'neon' } },
        /^styling\.theme: must be equal to one of the allowed values \(clean, muted, bold, gradient\)/,
      ],
      [{ ...settings, title: 'x' }, /^title: /],
      [{ ...settings, privacyPolicy: { url: 'javascript:alert(1)' } }, /^privacyPolicy\.url: must match format "uri"/],
      [[], /^body: /],
    ];
    for (const [body, message] of cases) expectError(await t.call('PUT', w.url(site.id, '/customization'), { token: w.token, body }), 400, message);
    expect((await t.database.db.site.findUnique({ where: { id: site.id } }))!.customization).toEqual(settings);
  });

  it('lets members read the settings and only admins change them; strangers see no site', async () => {
    const { w, site, siteSpace } = await customizationWorld();
    const defaults = await w.rest('GET', w.url(site.id, '/customization'));
    const settings = customSettings(defaults);
    const reader = await w.member('read');
    expect((await official(reader).orgs.getSiteCustomizationById(w.organizationId, site.id)).data.title).toBe('Docs');
    expect((await official(reader).orgs.getSiteSpaceCustomizationById(w.organizationId, site.id, siteSpace.id)).data.title).toBe('Docs');
    await expectOfficialError(official(reader).orgs.updateSiteCustomizationById(w.organizationId, site.id, settings as never), 403);
    await expectOfficialError(official(reader).orgs.overrideSiteSpaceCustomizationById(w.organizationId, site.id, siteSpace.id, { title: 'No' }), 403);
    await expectOfficialError(official(reader).orgs.deleteSiteSpaceCustomizationById(w.organizationId, site.id, siteSpace.id), 403);
    const stranger = await w.stranger();
    await expectOfficialError(official(stranger).orgs.getSiteCustomizationById(w.organizationId, site.id), 404);
    await expectOfficialError(official(stranger).orgs.updateSiteCustomizationById(w.organizationId, site.id, settings as never), 404);
    const row = await t.database.db.site.findUnique({ where: { id: site.id } });
    expect(row!.customization).toBeNull();
  });

  it("overrides settings per site space, merged over the site's, until reset or removed", async () => {
    const { w, site, siteSpace, other } = await customizationWorld();
    const api = official(w.admin).orgs;
    const base = customSettings(await w.rest('GET', w.url(site.id, '/customization')));
    await w.rest('PUT', w.url(site.id, '/customization'), base);

    const overridden = await api.overrideSiteSpaceCustomizationById(w.organizationId, site.id, siteSpace.id, {
      title: 'Guides',
      styling: { primaryColor: { light: '#aa0000', dark: '#550000' } },
      pagination: { enabled: true },
    });
    expectMatchesSchema('PATCH', SITE_SPACE_CUSTOMIZATION, 200, overridden.data);
    expect(overridden.data).toMatchObject({
      title: 'Guides',
      styling: { ...base.styling, primaryColor: { light: '#aa0000', dark: '#550000' } },
      pagination: { enabled: true },
      footer: base.footer,
    });
    expect((await t.database.db.siteSpace.findUnique({ where: { id: siteSpace.id } }))!.customization).toEqual({
      title: 'Guides',
      styling: { primaryColor: { light: '#aa0000', dark: '#550000' } },
      pagination: { enabled: true },
    });
    const read = await api.getSiteSpaceCustomizationById(w.organizationId, site.id, siteSpace.id);
    expectMatchesSchema('GET', SITE_SPACE_CUSTOMIZATION, 200, read.data);
    expect(read.data).toEqual(overridden.data);
    // The other site space has the site's settings; the published site lists the override.
    const { updatedAt: _updatedAt, ...otherSettings } = (await api.getSiteSpaceCustomizationById(w.organizationId, site.id, other.id)).data as Json;
    expect(otherSettings).toEqual(base);
    const published = await w.rest('GET', w.url(site.id, '/published'));
    expect(Object.keys(published.customizations.siteSpaces)).toEqual([siteSpace.id]);
    expect(published.customizations.siteSpaces[siteSpace.id].title).toBe('Guides');

    // null goes back to the site's setting.
    const reset = await api.overrideSiteSpaceCustomizationById(w.organizationId, site.id, siteSpace.id, { title: null, styling: { primaryColor: null } });
    expect(reset.data).toMatchObject({ title: base.title, styling: base.styling, pagination: { enabled: true } });
    expectError(
      await t.call('PATCH', w.url(site.id, `/site-spaces/${siteSpace.id}/customization`), { token: w.token, body: { styling: { theme: 'neon' } } }),
      400,
      /^styling\.theme: /,
    );
    expectError(
      await t.call('PATCH', w.url(site.id, `/site-spaces/${siteSpace.id}/customization`), { token: w.token, body: { ai: { mode: 'search' } } }),
      400,
      /^ai: /,
    );
    expect((await api.deleteSiteSpaceCustomizationById(w.organizationId, site.id, siteSpace.id)).status).toBe(205);
    expect((await api.deleteSiteSpaceCustomizationById(w.organizationId, site.id, siteSpace.id)).status).toBe(204);
    expect((await t.database.db.siteSpace.findUnique({ where: { id: siteSpace.id } }))!.customization).toBeNull();
    expectError(await t.call('GET', w.url(site.id, '/site-spaces/ssp_nope/customization'), { token: w.token }), 404);
  });
});

describe('site structure', () => {
  it('answers the sections and site spaces of a site through the official client, for members and for visitors with a share key', async () => {
    const { w, site, first, second } = await customizationWorld();
    const structure = await official(w.admin).orgs.getSiteStructure(w.organizationId, site.id);
    expectMatchesSchema('GET', STRUCTURE, 200, structure.data);
    expect(structure.data.type).toBe('sections');
    expect(structure.data.structure.map((entry: Json) => entry.id)).toEqual([first.id, second.id]);
    const asReader = (await official(await w.member('read')).orgs.getSiteStructure(w.organizationId, site.id)).data;
    expect(asReader.structure.map((entry: Json) => entry.id)).toEqual([first.id, second.id]);

    const stranger = await w.stranger();
    await expectOfficialError(official(stranger).orgs.getSiteStructure(w.organizationId, site.id), 404);
    await w.patchSite(site.id, { visibility: 'share-link' });
    await w.publish(site.id);
    const key = shareKeyOf(await w.shareLink(site.id));
    await expectOfficialError(official(stranger).orgs.getSiteStructure(w.organizationId, site.id), 404);
    const visitor = await official(stranger).orgs.getSiteStructure(w.organizationId, site.id, { shareKey: key });
    expect(visitor.data.structure.map((entry: Json) => entry.id)).toEqual([first.id, second.id]);

    const flat = await w.site({ title: 'Flat', spaces: [(await w.space('One')).id] });
    const flatStructure = await official(w.admin).orgs.getSiteStructure(w.organizationId, flat.id);
    expectMatchesSchema('GET', STRUCTURE, 200, flatStructure.data);
    expect(flatStructure.data).toMatchObject({ type: 'siteSpaces', structure: [{ object: 'site-space', path: 'one' }] });
  });
});

describe('GraphQL parity', () => {
  it('answers the structure and the customization of a site and its site spaces as REST does', async () => {
    const { w, site, siteSpace } = await customizationWorld();
    await w.rest('PUT', w.url(site.id, '/customization'), customSettings(await w.rest('GET', w.url(site.id, '/customization'))));
    await w.rest('PATCH', w.url(site.id, `/site-spaces/${siteSpace.id}/customization`), { title: 'Guides' });
    const { data, errors } = await t.graphql(
      w.token,
      `query ($id: ID!) {
        site(id: $id) {
          customization
          structure { type structure { ... on SiteSection { id siteSpaces { id customization } } } }
        }
      }`,
      { id: site.id },
    );
    expect(errors).toBeUndefined();
    const rest = await w.rest('GET', w.url(site.id, '/customization'));
    expect(data.site.customization).toEqual(rest);
    const structure = await w.rest('GET', w.url(site.id, '/structure'));
    expect(data.site.structure.type).toBe(structure.type);
    expect(data.site.structure.structure.map((entry: Json) => entry.id)).toEqual(structure.structure.map((entry: Json) => entry.id));
    const node = data.site.structure.structure[0].siteSpaces[0];
    expect(node.id).toBe(siteSpace.id);
    expect(node.customization).toEqual(await w.rest('GET', w.url(site.id, `/site-spaces/${siteSpace.id}/customization`)));
  });
});
