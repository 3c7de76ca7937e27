import { randomBytes } from 'node:crypto';
import { emitEvent } from '../events/emit.ts';
import { Ajv } from 'ajv';
import { z } from 'zod';
import type { RequestContext } from '../../context.ts';
import { invalid, notFound } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { keyBetween } from '../../lib/ordering.ts';
import { type Ordering, type Page, pageRequestOf } from '../../lib/pagination.ts';
import { searchable } from '../../lib/search.ts';
import { parseInput } from '../../lib/validation.ts';
import { authorize, organizationSiteLevel, sitePermissions } from '../access.ts';
import { memberGrants } from '../permissions/grants.ts';
import { loader } from '../loaders.ts';
import { visibleOrganization } from '../organizations/service.ts';
import { type ChildListing, countsBy, emptyPage, listChildren, listVisibleChildren, mapPage } from '../shared/pages.ts';
import { createSpaceIn, spaceRecords } from '../spaces/service.ts';
import { inTransaction, serializeOn } from '../transaction.ts';
import { CreateSiteInput, ListSitesQuery, UpdateAdaptiveSchemaInput, UpdatePublishingAuthInput, UpdateSiteInput, adaptiveJsonSchema } from './inputs.ts';
import { type SiteJSON, presentAdaptiveSchema } from './presenter.ts';
import {
  type SiteRecord,
  asNotFound,
  manageableSite,
  presentSiteRecord,
  primeSiteSpaceCounts,
  sectionRecords,
  siteRecords,
  siteSpaceRecords,
  uniquePath,
  visibleSite,
} from './records.ts';

interface SiteFilter {
  space?: string | undefined;
  title?: string | undefined;
  published?: boolean | undefined;
  /** Only these sites (what a guest is granted). */
  ids?: string[] | undefined;
}

export const sitesByCreation: Ordering<SiteRecord> = {
  name: 'sites',
  keys: [
    { field: 'createdAt', direction: 'asc', type: 'date', value: (row) => row.createdAt },
    { field: 'id', direction: 'asc', type: 'string', value: (row) => row.id },
  ],
};

function siteWhere(filter: SiteFilter) {
  return {
    ...(filter.space ? { siteSpaces: { some: { spaceId: filter.space } } } : {}),
    ...(filter.title ? { searchTitle: { contains: searchable(filter.title) } } : {}),
    ...(filter.published !== undefined ? { published: filter.published } : {}),
    ...(filter.ids ? { id: { in: filter.ids } } : {}),
  };
}

const sitesOfOrganization: ChildListing<SiteRecord, SiteFilter> = {
  name: 'organization-sites',
  records: siteRecords,
  ordering: () => sitesByCreation,
  parentOf: (row) => row.organizationId,
  findMany: async (ctx, organizationIds, filter, args) => {
    const rows = await ctx.db.site.findMany({
      ...args,
      where: { AND: [{ organizationId: { in: organizationIds } }, siteWhere(filter), args.where] },
      include: { _count: { select: { siteSpaces: true } } },
    });
    primeSiteSpaceCounts(ctx, rows);
    return rows;
  },
  count: async (ctx, organizationIds, filter) =>
    countsBy(
      await ctx.db.site.groupBy({
        by: ['organizationId'],
        where: { organizationId: { in: organizationIds }, ...siteWhere(filter) },
        _count: { _all: true },
      }),
      'organizationId',
    ),
};

/** Sites of an organization, oldest first, filtered by a space they contain, a title, or published. */
export async function listSiteRecords(ctx: RequestContext, organizationId: string, query: unknown): Promise<Page<SiteRecord>> {
  const { access } = await visibleOrganization(ctx, organizationId);
  const params = parseInput(ListSitesQuery, query, 'query');
  // A guest lists the sites granted to it; members with a role, all of them.
  const granted = organizationSiteLevel(access) === null ? [...(await memberGrants(ctx, access.member!)).sites.keys()] : undefined;
  const filter = { space: params.space, title: params.title, published: params.published, ...(granted ? { ids: granted } : {}) };
  return listChildren(ctx, sitesOfOrganization, organizationId, filter, pageRequestOf(params));
}

export async function listSites(ctx: RequestContext, organizationId: string, query: unknown): Promise<Page<SiteJSON>> {
  const page = await listSiteRecords(ctx, organizationId, query);
  const { access } = await visibleOrganization(ctx, organizationId);
  return mapPage(page, (site) => presentSiteRecord(ctx, site, access));
}

const sitesOfSpace: ChildListing<SiteRecord & { siteSpaces: Array<{ spaceId: string }> }, null> = {
  name: 'space-sites',
  ordering: () => sitesByCreation,
  parentOf: (row) => row.siteSpaces[0]!.spaceId,
  findMany: async (ctx, spaceIds, _filter, args) => {
    const rows = await ctx.db.site.findMany({
      ...args,
      where: { AND: [{ siteSpaces: { some: { spaceId: { in: spaceIds } } } }, args.where] },
      include: { siteSpaces: { where: { spaceId: { in: spaceIds } }, select: { spaceId: true } } },
    });
    // A site showing several of these spaces is listed under each of them.
    return rows.flatMap((row) => [...new Set(row.siteSpaces.map((entry) => entry.spaceId))].map((spaceId) => ({ ...row, siteSpaces: [{ spaceId }] })));
  },
  count: async (ctx, spaceIds) => {
    const rows = await ctx.db.siteSpace.findMany({
      where: { spaceId: { in: spaceIds } },
      select: { spaceId: true, siteId: true },
      distinct: ['spaceId', 'siteId'],
    });
    const counts = new Map<string, number>();
    for (const row of rows) counts.set(row.spaceId, (counts.get(row.spaceId) ?? 0) + 1);
    return counts;
  },
};

/** Sites that show a space (GraphQL `Space.sites`). */
/** The sites showing a space (GraphQL `Space.sites`). */
export async function listSpaceSiteRecords(ctx: RequestContext, space: { id: string; organizationId: string }, query: unknown): Promise<Page<SiteRecord>> {
  const { access } = await visibleOrganization(ctx, space.organizationId);
  const params = parseInput(ListSitesQuery.pick({ page: true, limit: true, first: true, after: true, last: true, before: true }), query, 'query');
  if (organizationSiteLevel(access) === null) {
    // A guest: the sites granted to it among them.
    const granted = access.member ? (await memberGrants(ctx, access.member)).sites : new Map();
    if (granted.size === 0) return emptyPage();
    return listVisibleChildren(ctx, sitesOfSpace, space.id, null, pageRequestOf(params), (site: SiteRecord) => granted.has(site.id));
  }
  return listChildren(ctx, sitesOfSpace, space.id, null, pageRequestOf(params));
}

export async function getSite(ctx: RequestContext, organizationId: string, siteId: string): Promise<SiteJSON> {
  const { site, access } = await visibleSite(ctx, organizationId, siteId, { visitors: true });
  return presentSiteRecord(ctx, site, access);
}

/** A site by id alone (GraphQL nodes): members see it, and visitors who opened it in this request. */
export async function siteById(ctx: RequestContext, siteId: string): Promise<SiteRecord> {
  const site = await loader(ctx, siteRecords).load(siteId);
  if (!site) throw notFound('Site', siteId);
  // Given only the site, a 404 names only the site.
  return (await asNotFound('Site', siteId, () => visibleSite(ctx, site.organizationId, siteId, { visitors: true }))).site;
}

export async function createSite(ctx: RequestContext, organizationId: string, body: unknown): Promise<SiteJSON> {
  const { access } = await visibleOrganization(ctx, organizationId);
  const input = parseInput(CreateSiteInput, body);
  authorize(sitePermissions(organizationSiteLevel(access)).create, 'create sites in this organization');
  const spaceIds = Array.isArray(input.spaces) ? [...new Set(input.spaces)] : [];
  const spaces = await loader(ctx, spaceRecords).loadMany(spaceIds);
  spaceIds.forEach((spaceId, index) => {
    const space = spaces[index];
    if (!space || space instanceof Error || space.organizationId !== organizationId || space.deletedAt) {
      throw invalid(`spaces.${index}: space "${spaceId}" does not exist in this organization`);
    }
  });
  const title = input.title ?? 'Untitled site';
  const id = newId('site');
  await inTransaction(ctx, { action: 'site.create', organizationId, target: { type: 'site', id, label: title } }, async (tx) => {
    await tx.db.site.create({
      data: {
        id,
        organizationId,
        title,
        searchTitle: searchable(title),
        type: input.type ?? 'basic',
        visibility: input.visibility ?? 'public',
        visitorAuthSecret: newVisitorAuthSecret(),
      },
    });
    if (typeof input.spaces === 'string') {
      // A new space for the site: empty, or titled as a sample to fill.
      const space = await createSpaceIn(tx, organizationId, {
        title: (input.spaces === 'sample' ? 'Sample space' : title).slice(0, 50),
        emoji: input.spaces === 'sample' ? '📘' : undefined,
      });
      spaceIds.push(space.id);
    }
    const titles = new Map(
      (await tx.db.space.findMany({ where: { id: { in: spaceIds } }, select: { id: true, title: true } })).map((space) => [space.id, space.title]),
    );
    const paths: string[] = [];
    let position: string | null = null;
    for (const [index, spaceId] of spaceIds.entries()) {
      const path = uniquePath(titles.get(spaceId) ?? 'space', paths, 'space');
      paths.push(path);
      position = keyBetween(position, null);
      await tx.db.siteSpace.create({
        data: { id: newId('siteSpace'), siteId: id, spaceId, path, position, isDefault: index === 0 },
      });
    }
  });
  return getSite(ctx, organizationId, id);
}

export async function updateSite(ctx: RequestContext, organizationId: string, siteId: string, body: unknown) {
  await visibleSite(ctx, organizationId, siteId);
  const input = parseInput(UpdateSiteInput, body);
  await manageableSite(ctx, organizationId, siteId, 'update this site');
  await inTransaction(ctx, { action: 'site.update', organizationId, target: { type: 'site', id: siteId } }, async (tx) => {
    await serializeOn(tx.db, tx.provider, `site:${siteId}`);
    if (input.defaultSiteSection !== undefined) {
      const section = await loader(tx, sectionRecords).load(input.defaultSiteSection);
      if (!section || section.siteId !== siteId) {
        throw invalid(`defaultSiteSection: section "${input.defaultSiteSection}" is not a section of this site`);
      }
      await tx.db.siteSection.updateMany({ where: { siteId }, data: { isDefault: false } });
      await tx.db.siteSection.update({ where: { id: section.id }, data: { isDefault: true } });
    }
    if (input.defaultSiteSpace !== undefined) {
      // With sections, the default site space of the site is the one of its default section.
      const defaultSection = await tx.db.siteSection.findFirst({ where: { siteId, isDefault: true } });
      const siteSpace = await loader(tx, siteSpaceRecords).load(input.defaultSiteSpace);
      if (!siteSpace || siteSpace.siteId !== siteId || siteSpace.sectionId !== (defaultSection?.id ?? null)) {
        throw invalid(
          `defaultSiteSpace: site space "${input.defaultSiteSpace}" is not in ${defaultSection ? 'the default section' : 'the root level'} of this site`,
        );
      }
      await tx.db.siteSpace.updateMany({ where: { siteId, sectionId: siteSpace.sectionId }, data: { isDefault: false } });
      await tx.db.siteSpace.update({ where: { id: siteSpace.id }, data: { isDefault: true } });
    }
    await tx.db.site.update({
      where: { id: siteId },
      data: {
        ...(input.title !== undefined ? { title: input.title, searchTitle: searchable(input.title) } : {}),
        visibility: input.visibility,
        hostname: input.hostname,
        basename: input.basename,
        proxyOrigin: input.proxy,
        adaptiveContentEnabled: input.adaptiveContent?.enabled,
      },
    });
  });
  return getSite(ctx, organizationId, siteId);
}

export async function deleteSite(ctx: RequestContext, organizationId: string, siteId: string): Promise<void> {
  await manageableSite(ctx, organizationId, siteId, 'delete this site');
  await inTransaction(ctx, { action: 'site.delete', organizationId, target: { type: 'site', id: siteId } }, async (tx) => {
    await tx.db.organization.updateMany({ where: { defaultContentSiteId: siteId }, data: { defaultContentSiteId: null } });
    // Deleted by this request only (two deletions at once announce one, the other answers 404).
    const { count } = await tx.db.site.deleteMany({ where: { id: siteId } });
    if (count === 0) throw notFound('Site', siteId);
    emitEvent(tx, { kind: 'site.deleted', organizationId, subjectId: siteId });
  });
}

/** Publishing makes the site reachable by the audience its visibility names. */
export async function setSitePublished(ctx: RequestContext, organizationId: string, siteId: string, published: boolean) {
  await manageableSite(ctx, organizationId, siteId, published ? 'publish this site' : 'unpublish this site');
  await inTransaction(ctx, { action: published ? 'site.publish' : 'site.unpublish', organizationId, target: { type: 'site', id: siteId } }, async (tx) => {
    // Changed by this request only (two publishes at once announce one): the row as it was decides.
    const { count } = await tx.db.site.updateMany({ where: { id: siteId, published: !published }, data: { published } });
    if (count === 1) emitEvent(tx, { kind: published ? 'site.published' : 'site.unpublished', organizationId, subjectId: siteId });
  });
  return getSite(ctx, organizationId, siteId);
}

export async function getAdaptiveSchema(ctx: RequestContext, organizationId: string, siteId: string) {
  const { site, level } = await visibleSite(ctx, organizationId, siteId);
  authorize(sitePermissions(level).viewAdaptiveSchema, "read this site's adaptive schema");
  return presentAdaptiveSchema(site);
}

const draft07 = new Ajv({ strict: false });

/** Replaces the JSON Schema of visitor attributes: it must be a valid draft-07 schema of the accepted shape. */
export async function updateAdaptiveSchema(ctx: RequestContext, organizationId: string, siteId: string, body: unknown) {
  await visibleSite(ctx, organizationId, siteId);
  const { jsonSchema } = parseInput(UpdateAdaptiveSchemaInput, body);
  let valid: boolean;
  try {
    valid = draft07.validateSchema(jsonSchema) as boolean;
  } catch (error) {
    // ajv throws for a $schema naming a meta-schema it does not know.
    throw invalid(`jsonSchema.$schema: ${(error as Error).message}; use http://json-schema.org/draft-07/schema#`);
  }
  if (!valid) {
    throw invalid(`jsonSchema: is not a valid JSON Schema (draft-07): ${draft07.errorsText(draft07.errors, { dataVar: 'jsonSchema' })}`);
  }
  const schema = parseInput(z.object({ jsonSchema: adaptiveJsonSchema }), { jsonSchema }).jsonSchema;
  await manageableSite(ctx, organizationId, siteId, "change this site's adaptive schema");
  await inTransaction(ctx, { action: 'site.update_adaptive_schema', organizationId, target: { type: 'site', id: siteId } }, (tx) =>
    tx.db.site.update({
      where: { id: siteId },
      data: { adaptiveSchema: { $schema: 'http://json-schema.org/draft-07/schema#', ...schema }, adaptiveSchemaUpdatedAt: ctx.clock.now() },
    }),
  );
  return getAdaptiveSchema(ctx, organizationId, siteId);
}

/** A site's publishing key: 256 random bits (also made by the demo's bulk load, prisma/seed/snapshot.ts). */
export const newVisitorAuthSecret = () => randomBytes(32).toString('base64url');

/** The official SitePublishingAuth of a site: its key, backend and the addresses set. */
export interface SitePublishingAuthJSON {
  object: 'publishing-auth';
  backend: 'custom' | 'integration';
  privateKey: string;
  fallbackURL?: string;
  logoutURL?: string;
  integration?: string;
}

function presentPublishingAuth(site: SiteRecord): SitePublishingAuthJSON {
  return {
    object: 'publishing-auth',
    backend: site.visitorAuthBackend === 'integration' ? 'integration' : 'custom',
    privateKey: site.visitorAuthSecret,
    ...(site.visitorAuthFallbackUrl ? { fallbackURL: site.visitorAuthFallbackUrl } : {}),
    ...(site.visitorAuthLogoutUrl ? { logoutURL: site.visitorAuthLogoutUrl } : {}),
    ...(site.visitorAuthIntegration ? { integration: site.visitorAuthIntegration } : {}),
  };
}

/** The key that signs visitor tokens of a visitor-auth site (official `publishing/auth`), and its settings, for its admins. */
export async function getPublishingAuth(ctx: RequestContext, organizationId: string, siteId: string) {
  const { site } = await manageableSite(ctx, organizationId, siteId, "read this site's visitor authentication key");
  return presentPublishingAuth(site);
}

/**
 * `updateSitePublishingAuthById`: who signs the visitor tokens (`backend`: the
 * site's key, or an integration named by `integration`) and where visitors go
 * when their token is missing or not valid (`fallbackURL`) or to sign out
 * (`logoutURL`); an address left out is kept, null unsets it.
 */
export async function updatePublishingAuth(ctx: RequestContext, organizationId: string, siteId: string, body: unknown) {
  await visibleSite(ctx, organizationId, siteId);
  const input = parseInput(UpdatePublishingAuthInput, body);
  if (input.backend === 'integration' && !input.integration) {
    throw invalid('integration: is required when backend is "integration" (the name of the integration that signs visitor tokens)');
  }
  if (input.backend === 'custom' && input.integration !== undefined) {
    throw invalid('integration: only applies when backend is "integration"');
  }
  await manageableSite(ctx, organizationId, siteId, "change this site's visitor authentication");
  await inTransaction(ctx, { action: 'site.update_publishing_auth', organizationId, target: { type: 'site', id: siteId } }, (tx) =>
    tx.db.site.update({
      where: { id: siteId },
      data: {
        visitorAuthBackend: input.backend,
        visitorAuthIntegration: input.backend === 'integration' ? input.integration! : null,
        ...(input.fallbackURL !== undefined ? { visitorAuthFallbackUrl: input.fallbackURL } : {}),
        ...(input.logoutURL !== undefined ? { visitorAuthLogoutUrl: input.logoutURL } : {}),
      },
    }),
  );
  return getPublishingAuth(ctx, organizationId, siteId);
}

/**
 * A new key for the site's visitor tokens and site tokens (official
 * `regenerateSitePublishingAuthById`), for its admins: every visitor token signed
 * with the old key, and every site token issued for the site, stops being accepted.
 */
export async function regeneratePublishingAuth(ctx: RequestContext, organizationId: string, siteId: string) {
  await manageableSite(ctx, organizationId, siteId, "regenerate this site's visitor authentication key");
  await inTransaction(ctx, { action: 'site.regenerate_publishing_auth', organizationId, target: { type: 'site', id: siteId } }, (tx) =>
    tx.db.site.update({ where: { id: siteId }, data: { visitorAuthSecret: newVisitorAuthSecret() } }),
  );
  return getPublishingAuth(ctx, organizationId, siteId);
}
