import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { unique } from '../support/factories.ts';
import { type GraphQLResult, expectData, expectGraphQLError, mutate } from '../support/graphql.ts';
import {
  SHARE_LINK_FIELDS,
  SITE_FIELDS,
  adaptiveSchemaOf,
  buildSitesWorld,
  organizationSiteRows,
  shareKeyIn,
  siteRows,
  siteSpacePaths,
} from '../support/site-tree.ts';

/**
 * Mutations of sites themselves: create, update, delete, publish, unpublish,
 * the adaptive schema and share links. Each writes what the database then
 * holds, and refuses invalid input with a 400 naming the field, writing
 * nothing. (Refusals for permissions and other organizations:
 * site-mutation-refusals.test.ts.)
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

const APP = 'http://app.docs-gateway.test';
const API = 'http://docs-gateway.test';

async function run(token: string, name: string, input: Record<string, unknown>, selection: string) {
  return expectData(await mutate(t, token, name, input, selection))[name];
}

/** A GraphQL validation error (a required input field missing): a 400 naming the field, before anything runs. */
function expectMissing(result: GraphQLResult, field: string) {
  const error = expectGraphQLError(result, 400);
  expect(error.message).toContain(`Field "${field}" of required type "ID!" was not provided`);
}

const ALL_PERMISSIONS = {
  view: true,
  access: true,
  edit: true,
  create: true,
  admin: true,
  installIntegration: true,
  viewAdaptiveSchema: true,
  editAdaptiveSchema: true,
};

describe('mutation createSite', () => {
  it('creates a site showing the spaces at its root level, the first one the default', async () => {
    const { organizationId, admin, spaces } = await buildSitesWorld(t);
    const site = (
      await run(
        admin.token,
        'createSite',
        {
          organizationId,
          title: 'Handbook',
          type: 'premium',
          visibility: 'unlisted',
          spaces: [spaces.guide.id, spaces.api.id],
        },
        `site { ${SITE_FIELDS} }`,
      )
    ).site;
    const row = (await t.database.db.site.findUnique({ where: { id: site.id } }))!;
    expect(site).toEqual({
      id: row.id,
      object: 'site',
      type: 'premium',
      appliedType: 'premium',
      title: 'Handbook',
      hostname: null,
      basename: null,
      proxy: null,
      visibility: 'unlisted',
      defaultLevel: 'inherit',
      permissions: ALL_PERMISSIONS,
      published: false,
      createdAt: row.createdAt.toISOString(),
      adaptiveContent: { enabled: false },
      features: [],
      urls: {
        location: `${API}/v1/orgs/${organizationId}/sites/${row.id}`,
        app: `${APP}/o/${organizationId}/sites/${row.id}`,
        preview: `${APP}/o/${organizationId}/sites/${row.id}/preview`,
        published: null,
        llms: null,
        mcp: null,
      },
      organization: { id: organizationId },
      siteSpaces: { totalCount: 2 },
    });
    expect(row).toMatchObject({
      organizationId,
      title: 'Handbook',
      searchTitle: 'handbook',
      type: 'premium',
      visibility: 'unlisted',
      published: false,
      hostname: null,
      adaptiveSchema: null,
    });
    expect(row.visitorAuthSecret.length).toBeGreaterThanOrEqual(32);
    expect(await siteSpacePaths(t, site.id, null)).toEqual(['guide*', 'api']);
    const siteSpaces = await t.database.db.siteSpace.findMany({ where: { siteId: site.id }, orderBy: { position: 'asc' } });
    expect(siteSpaces.map((entry) => entry.spaceId)).toEqual([spaces.guide.id, spaces.api.id]);
  });

  it('defaults to an untitled public basic site without spaces; a member with create may create', async () => {
    const { organizationId, member } = await buildSitesWorld(t);
    const creator = await member('create');
    const site = (await run(creator.token, 'createSite', { organizationId }, `site { ${SITE_FIELDS} }`)).site;
    expect(site).toMatchObject({
      title: 'Untitled site',
      type: 'basic',
      visibility: 'public',
      siteSpaces: { totalCount: 0 },
      permissions: { view: true, create: true, admin: false, edit: false },
    });
    expect(await t.database.db.site.findUnique({ where: { id: site.id } })).toMatchObject({ title: 'Untitled site', organizationId });
    expect(await t.database.db.siteSpace.count({ where: { siteId: site.id } })).toBe(0);
  });

  it('creates a new space for the site with newSpace "empty" or "sample"', async () => {
    const { organizationId, admin } = await buildSitesWorld(t);
    for (const [newSpace, title, emoji] of [
      ['empty', 'Portal', ''],
      ['sample', 'Sample space', '📘'],
    ] as const) {
      const site = (
        await run(
          admin.token,
          'createSite',
          { organizationId, title: 'Portal', newSpace },
          'site { id siteSpaces { edges { node { path default space { id title emoji organization { id } } } } } }',
        )
      ).site;
      expect(site.siteSpaces.edges).toHaveLength(1);
      const { node } = site.siteSpaces.edges[0];
      expect(node).toMatchObject({ default: true, space: { title, emoji, organization: { id: organizationId } } });
      const space = await t.database.db.space.findUnique({ where: { id: node.space.id } });
      expect(space).toMatchObject({ organizationId, title, emoji, deletedAt: null });
      expect((await t.database.db.siteSpace.findMany({ where: { siteId: site.id } })).map((row) => row.spaceId)).toEqual([space!.id]);
    }
  });

  it('rejects invalid input with a 400 naming the field, and creates nothing', async () => {
    const { organizationId, admin } = await buildSitesWorld(t);
    const other = await buildSitesWorld(t);
    const before = await organizationSiteRows(t, organizationId);
    for (const [input, message] of [
      [{ title: 'x' }, /^title: /],
      [{ title: 'x'.repeat(129) }, /^title: /],
      [{ visibility: 'secret' }, /at "input\.visibility"; Value "secret" does not exist in "SiteVisibility" enum/],
      [{ type: 'gold' }, /at "input\.type"; Value "gold" does not exist in "SiteType" enum/],
      [{ spaces: [other.spaces.guide.id] }, new RegExp(`^spaces\\.0: space "${other.spaces.guide.id}" does not exist in this organization`)],
    ] as const) {
      const result = await mutate(t, admin.token, 'createSite', { organizationId, ...input }, 'site { id }');
      expectGraphQLError(result, 400, message);
    }
    expect(await organizationSiteRows(t, organizationId)).toEqual(before);
  });

  it('names newSpace, the GraphQL input field, when its value is invalid', async () => {
    const { organizationId, admin } = await buildSitesWorld(t);
    const before = await organizationSiteRows(t, organizationId);
    const result = await mutate(t, admin.token, 'createSite', { organizationId, newSpace: 'bogus' }, 'site { id }');
    // An enum: GraphQL itself refuses the value, naming the input field.
    expectGraphQLError(result, 400, /input\.newSpace.*NewSiteSpace/);
    expect(await organizationSiteRows(t, organizationId)).toEqual(before);
  });
});

describe('mutation updateSite', () => {
  it('updates title, visibility, hostname, basename, adaptive content and proxy; null removes hostname, basename and proxy', async () => {
    const world = await buildSitesWorld(t);
    const { admin } = world;
    const { siteId } = await world.sectionedSite();
    const hostname = `docs-${unique()}.example.test`;
    const site = (
      await run(
        admin.token,
        'updateSite',
        {
          siteId,
          title: 'Renamed',
          visibility: 'share_link',
          hostname,
          basename: 'guide',
          adaptiveContent: { enabled: true },
          proxy: 'example.com/docs',
        },
        `site { ${SITE_FIELDS} }`,
      )
    ).site;
    expect(site).toMatchObject({
      id: siteId,
      title: 'Renamed',
      visibility: 'share_link',
      hostname,
      basename: 'guide',
      adaptiveContent: { enabled: true },
      proxy: { origin: 'example.com/docs', target: `https://${hostname}/guide` },
      published: false,
      urls: { published: null },
      siteSpaces: { totalCount: 4 },
    });
    expect(await t.database.db.site.findUnique({ where: { id: siteId } })).toMatchObject({
      title: 'Renamed',
      searchTitle: 'renamed',
      visibility: 'share-link',
      hostname,
      basename: 'guide',
      adaptiveContentEnabled: true,
      proxyOrigin: 'example.com/docs',
    });

    const cleared = (await run(admin.token, 'updateSite', { siteId, hostname: null, basename: null, proxy: null }, `site { ${SITE_FIELDS} }`)).site;
    expect(cleared).toMatchObject({ title: 'Renamed', hostname: null, basename: null, proxy: null, adaptiveContent: { enabled: true } });
    expect(await t.database.db.site.findUnique({ where: { id: siteId } })).toMatchObject({
      title: 'Renamed',
      hostname: null,
      basename: null,
      proxyOrigin: null,
      adaptiveContentEnabled: true,
    });
  });

  it('sets the default section, and the default site space within the default section', async () => {
    const world = await buildSitesWorld(t);
    const { admin } = world;
    const { siteId, sectionIds, siteSpaceIds } = await world.sectionedSite();
    await run(admin.token, 'updateSite', { siteId, defaultSiteSection: sectionIds.c }, 'site { id }');
    const defaults = async () => (await t.database.db.siteSection.findMany({ where: { siteId, isDefault: true } })).map((row) => row.id);
    expect(await defaults()).toEqual([sectionIds.c]);

    await run(admin.token, 'updateSite', { siteId, defaultSiteSection: sectionIds.a }, 'site { id }');
    await run(admin.token, 'updateSite', { siteId, defaultSiteSpace: siteSpaceIds.extraInA }, 'site { id }');
    expect(await defaults()).toEqual([sectionIds.a]);
    expect(await siteSpacePaths(t, siteId, sectionIds.a)).toEqual(['guide', 'extra*']);
  });

  it('rejects invalid input with a 400 naming the field, and changes nothing', async () => {
    const world = await buildSitesWorld(t);
    const { admin } = world;
    const { siteId, siteSpaceIds } = await world.sectionedSite();
    const other = await world.sectionedSite('Other');
    const before = await siteRows(t, siteId);
    for (const [input, message] of [
      [{ title: 'x' }, /^title: /],
      [{ visibility: 'secret' }, /at "input\.visibility"; Value "secret" does not exist in "SiteVisibility" enum/],
      [{ hostname: 'Not A Host' }, /^hostname: /],
      [{ basename: '' }, /^basename: /],
      [{ proxy: 'not a proxy' }, /^proxy: /],
      [{ defaultSiteSection: other.sectionIds.a }, /^defaultSiteSection: /],
      [{ defaultSiteSpace: siteSpaceIds.apiInB }, /^defaultSiteSpace: /],
      // Valid changes next to an invalid one are not kept either.
      [{ title: 'Renamed', defaultSiteSection: 'sec_missing' }, /^defaultSiteSection: /],
    ] as const) {
      const result = await mutate(t, admin.token, 'updateSite', { siteId, ...input }, 'site { id }');
      expectGraphQLError(result, 400, message);
    }
    expect(await siteRows(t, siteId)).toEqual(before);
    // An explicit null on a field whose null means nothing is its absence: the title stays.
    const kept = expectData(await mutate(t, admin.token, 'updateSite', { siteId, title: null }, 'site { title }'));
    expect(kept.updateSite.site.title).toBe(before.site!.title);
  });

  it('is a 409 for a hostname another site has', async () => {
    const world = await buildSitesWorld(t);
    const { admin } = world;
    const hostname = `docs-${unique()}.example.test`;
    const first = await world.site({ title: 'First' });
    const second = await world.site({ title: 'Second' });
    await run(admin.token, 'updateSite', { siteId: first.id, hostname }, 'site { id }');
    const result = await mutate(t, admin.token, 'updateSite', { siteId: second.id, hostname }, 'site { id }');
    expectGraphQLError(result, 409);
    expect((await t.database.db.site.findUnique({ where: { id: second.id } }))!.hostname).toBeNull();
  });
});

describe('mutation deleteSite', () => {
  it('deletes the site and its structure, keeps the spaces, and clears the default content pointing to it', async () => {
    const world = await buildSitesWorld(t);
    const { organizationId, admin, rest } = world;
    const { siteId } = await world.sectionedSite();
    const kept = await world.sectionedSite('Kept');
    await rest('PATCH', `/v1/orgs/${organizationId}`, { defaultContent: { type: 'site', site: siteId } });
    const keptBefore = await siteRows(t, kept.siteId);

    expect(await run(admin.token, 'deleteSite', { siteId }, 'deletedId')).toEqual({ deletedId: siteId });
    expect(await siteRows(t, siteId)).toEqual({ site: null, sections: [], groups: [], siteSpaces: [], shareLinks: [] });
    expect(await siteRows(t, kept.siteId)).toEqual(keptBefore);
    expect(await t.database.db.space.count({ where: { organizationId, deletedAt: null } })).toBe(3);
    expect((await t.database.db.organization.findUnique({ where: { id: organizationId } }))!.defaultContentSiteId).toBeNull();
    expectGraphQLError(await t.graphql(admin.token, 'query($id: ID!) { site(id: $id) { id } }', { id: siteId }), 404);
  });

  it('is a 400 naming siteId when it is missing, and deletes nothing', async () => {
    const world = await buildSitesWorld(t);
    const { siteId } = await world.sectionedSite();
    const before = await siteRows(t, siteId);
    expectMissing(await mutate(t, world.admin.token, 'deleteSite', {}, 'deletedId'), 'siteId');
    expect(await siteRows(t, siteId)).toEqual(before);
  });
});

describe('mutations publishSite and unpublishSite', () => {
  it('publish the site at its published address, and unpublish it', async () => {
    const world = await buildSitesWorld(t);
    const { admin } = world;
    const { siteId } = await world.sectionedSite();
    const published = (await run(admin.token, 'publishSite', { siteId }, 'site { id published urls { published } }')).site;
    expect(published).toEqual({ id: siteId, published: true, urls: { published: `${APP}/sites/${siteId}` } });
    expect((await t.database.db.site.findUnique({ where: { id: siteId } }))!.published).toBe(true);

    const unpublished = (await run(admin.token, 'unpublishSite', { siteId }, 'site { id published urls { published } }')).site;
    expect(unpublished).toEqual({ id: siteId, published: false, urls: { published: null } });
    expect((await t.database.db.site.findUnique({ where: { id: siteId } }))!.published).toBe(false);
  });

  it('are a 400 naming siteId when it is missing, and change nothing', async () => {
    const world = await buildSitesWorld(t);
    const { siteId } = await world.sectionedSite();
    const before = await siteRows(t, siteId);
    for (const name of ['publishSite', 'unpublishSite']) {
      expectMissing(await mutate(t, world.admin.token, name, {}, 'site { id }'), 'siteId');
    }
    expect(await siteRows(t, siteId)).toEqual(before);
  });
});

describe('mutation updateSiteAdaptiveSchema', () => {
  it('replaces the schema (draft-07), which then decides the attributes conditions may read', async () => {
    const world = await buildSitesWorld(t);
    const { admin } = world;
    const { siteId, sectionIds } = await world.sectionedSite();
    const jsonSchema = adaptiveSchemaOf({ seats: 'number', region: 'string' });
    const schema = (await run(admin.token, 'updateSiteAdaptiveSchema', { siteId, jsonSchema }, 'adaptiveSchema { object jsonSchema updatedAt }'))
      .adaptiveSchema;
    const stored = { $schema: 'http://json-schema.org/draft-07/schema#', ...jsonSchema };
    const row = (await t.database.db.site.findUnique({ where: { id: siteId } }))!;
    expect(schema).toEqual({ object: 'site-adaptive-schema', jsonSchema: stored, updatedAt: row.adaptiveSchemaUpdatedAt!.toISOString() });
    expect(row.adaptiveSchema).toEqual(stored);
    const read = expectData(
      await t.graphql(admin.token, 'query($id: ID!) { site(id: $id) { adaptiveSchema { object jsonSchema updatedAt } } }', { id: siteId }),
    );
    expect(read.site.adaptiveSchema).toEqual(schema);

    // Conditions read declared attributes, and may name ones no longer (or not yet) declared: `beta` reads as undefined.
    await run(admin.token, 'updateSiteSection', { sectionId: sectionIds.a, condition: 'visitor.claims.seats > 10' }, 'section { id }');
    await run(admin.token, 'updateSiteSection', { sectionId: sectionIds.a, condition: 'visitor.claims.beta' }, 'section { id }');
    expect((await t.database.db.siteSection.findUnique({ where: { id: sectionIds.a } }))!.condition).toBe('visitor.claims.beta');
  });

  it('rejects what is not a draft-07 schema of visitor attributes with a 400 naming jsonSchema, and changes nothing', async () => {
    const world = await buildSitesWorld(t);
    const { admin } = world;
    const { siteId } = await world.sectionedSite();
    const before = await siteRows(t, siteId);
    for (const jsonSchema of [
      [1],
      'a string',
      { type: 'object', properties: 5 },
      { type: 'object', properties: { plan: { type: 'date', description: 'Plan' } }, additionalProperties: false },
    ]) {
      const result = await mutate(t, admin.token, 'updateSiteAdaptiveSchema', { siteId, jsonSchema }, 'adaptiveSchema { updatedAt }');
      expectGraphQLError(result, 400, /^jsonSchema: /);
    }
    expect(await siteRows(t, siteId)).toEqual(before);
  });

  it('names the offending field inside jsonSchema by its path from jsonSchema', async () => {
    const world = await buildSitesWorld(t);
    const { admin } = world;
    const { siteId } = await world.sectionedSite();
    const before = await siteRows(t, siteId);
    const result = await mutate(
      t,
      admin.token,
      'updateSiteAdaptiveSchema',
      { siteId, jsonSchema: { type: 'object', properties: {}, additionalProperties: true } },
      'adaptiveSchema { updatedAt }',
    );
    expectGraphQLError(result, 400, /^jsonSchema\.additionalProperties: /);
    expect(await siteRows(t, siteId)).toEqual(before);
  });
});

describe('share link mutations', () => {
  it('createShareLink: an active link whose published address carries its key', async () => {
    const world = await buildSitesWorld(t);
    const { admin } = world;
    const { siteId, shareLinkId } = await world.sectionedSite();
    const link = (await run(admin.token, 'createShareLink', { siteId, name: 'Partners' }, `shareLink { ${SHARE_LINK_FIELDS} }`)).shareLink;
    const row = (await t.database.db.shareLink.findUnique({ where: { id: link.id } }))!;
    expect(link).toEqual({
      id: row.id,
      object: 'share-link',
      name: 'Partners',
      active: true,
      createdAt: row.createdAt.toISOString(),
      urls: { published: `${APP}/sites/${siteId}?shareKey=${encodeURIComponent(row.key)}` },
    });
    expect(row).toMatchObject({ siteId, name: 'Partners', active: true });
    expect(shareKeyIn(link)).toBe(row.key);
    const listed = expectData(
      await t.graphql(admin.token, 'query($id: ID!) { site(id: $id) { shareLinks { totalCount edges { node { id } } } } }', { id: siteId }),
    );
    expect(listed.site.shareLinks.edges.map((edge: any) => edge.node.id)).toEqual([shareLinkId, link.id]);
    expect(listed.site.shareLinks.totalCount).toBe(2);

    const unnamed = (await run(admin.token, 'createShareLink', { siteId, name: '' }, 'shareLink { id name }')).shareLink;
    expect(unnamed.name).toBeNull();
    expect((await t.database.db.shareLink.findUnique({ where: { id: unnamed.id } }))!.name).toBeNull();
  });

  it('createShareLink: a 400 naming name for a name over 50 characters, creating nothing', async () => {
    const world = await buildSitesWorld(t);
    const { siteId } = await world.sectionedSite();
    const before = await siteRows(t, siteId);
    const result = await mutate(t, world.admin.token, 'createShareLink', { siteId, name: 'x'.repeat(51) }, 'shareLink { id }');
    expectGraphQLError(result, 400, /^name: /);
    expect(await siteRows(t, siteId)).toEqual(before);
  });

  it('updateShareLink: renames and deactivates a link', async () => {
    const world = await buildSitesWorld(t);
    const { admin } = world;
    const { shareLinkId } = await world.sectionedSite();
    const link = (await run(admin.token, 'updateShareLink', { shareLinkId, name: 'Renamed', active: false }, `shareLink { ${SHARE_LINK_FIELDS} }`)).shareLink;
    expect(link).toMatchObject({ id: shareLinkId, name: 'Renamed', active: false });
    expect(await t.database.db.shareLink.findUnique({ where: { id: shareLinkId } })).toMatchObject({ name: 'Renamed', active: false });
    await run(admin.token, 'updateShareLink', { shareLinkId, active: true }, 'shareLink { id }');
    expect(await t.database.db.shareLink.findUnique({ where: { id: shareLinkId } })).toMatchObject({ name: 'Renamed', active: true });
  });

  it('updateShareLink: a 400 naming name without name or active, and a 404 for a link of another organization', async () => {
    const world = await buildSitesWorld(t);
    const { admin } = world;
    const { siteId, shareLinkId } = await world.sectionedSite();
    const other = await (await buildSitesWorld(t)).sectionedSite('Other');
    const before = await siteRows(t, siteId);
    const otherBefore = await siteRows(t, other.siteId);
    expectGraphQLError(await mutate(t, admin.token, 'updateShareLink', { shareLinkId }, 'shareLink { id }'), 400, /^name: /);
    expectGraphQLError(await mutate(t, admin.token, 'updateShareLink', { shareLinkId, name: 'x'.repeat(51) }, 'shareLink { id }'), 400, /^name: /);
    expectGraphQLError(
      await mutate(t, admin.token, 'updateShareLink', { shareLinkId: other.shareLinkId, active: false }, 'shareLink { id }'),
      404,
      `Share link "${other.shareLinkId}" was not found`,
    );
    expect(await siteRows(t, siteId)).toEqual(before);
    expect(await siteRows(t, other.siteId)).toEqual(otherBefore);
  });

  it('deleteShareLink: removes the link only', async () => {
    const world = await buildSitesWorld(t);
    const { admin } = world;
    const { siteId, shareLinkId } = await world.sectionedSite();
    const second = await world.shareLink(siteId, 'Second');
    expect(await run(admin.token, 'deleteShareLink', { shareLinkId }, 'deletedId')).toEqual({ deletedId: shareLinkId });
    expect((await t.database.db.shareLink.findMany({ where: { siteId } })).map((row) => row.id)).toEqual([second.id]);
  });

  it('deleteShareLink: a 400 naming shareLinkId when it is missing, a 404 for a link of another organization', async () => {
    const world = await buildSitesWorld(t);
    const { admin } = world;
    const { siteId } = await world.sectionedSite();
    const other = await (await buildSitesWorld(t)).sectionedSite('Other');
    const before = await siteRows(t, siteId);
    expectMissing(await mutate(t, admin.token, 'deleteShareLink', {}, 'deletedId'), 'shareLinkId');
    expectGraphQLError(
      await mutate(t, admin.token, 'deleteShareLink', { shareLinkId: other.shareLinkId }, 'deletedId'),
      404,
      `Share link "${other.shareLinkId}" was not found`,
    );
    expect(await siteRows(t, siteId)).toEqual(before);
    expect(await t.database.db.shareLink.count({ where: { id: other.shareLinkId } })).toBe(1);
  });
});
