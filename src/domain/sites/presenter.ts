import type { PublicUrls } from '../../config.ts';
import type { Prisma } from '../../db/index.ts';
import type { SitePermissions } from '../access.ts';
import { type Address, type AddressSet, renderAddress, renderAddresses } from '../shared/addresses.ts';
import type { Api, Wire } from '../shared/api-types.ts';
import type { SpaceJSON } from '../spaces/presenter.ts';

type SiteRecord = Prisma.SiteModel;
type SectionRecord = Prisma.SiteSectionModel;
type SectionGroupRecord = Prisma.SiteSectionGroupModel;
type SiteSpaceRecord = Prisma.SiteSpaceModel;
type ShareLinkRecord = Prisma.ShareLinkModel;

/** The official Site, plus `organization` (its id) as spaces and collections carry it. */
export type SiteJSON = Wire<Api.Site> & { organization: string };
export type SiteSpaceJSON = Wire<Api.SiteSpace> & { section?: string };
export type SiteSectionJSON = Omit<Wire<Api.SiteSection>, 'siteSpaces'> & {
  description?: string;
  siteSpaces: SiteSpaceJSON[];
};
export type SiteSectionGroupJSON = Omit<Wire<Api.SiteSectionGroup>, 'sections' | 'children'> & {
  sections: SiteSectionJSON[];
  children: SiteSectionJSON[];
};
export type ShareLinkJSON = Wire<Api.ShareLink>;

/** Where a published site is served: its custom hostname, else the application's address for it. */
export const PUBLISHED_ADDRESS: Address = [
  { if: 'hostname', use: ['https://', { column: 'hostname' }], otherwise: [{ base: 'app' }, '/sites/', { column: 'id' }] },
  { if: 'basename', use: ['/', { column: 'basename' }] },
];

export function publishedUrl(site: SiteRecord, urls: PublicUrls): string {
  return renderAddress(PUBLISHED_ADDRESS, site, urls);
}

// Fields computed from the rows of a site's structure, shared by REST's presenters
// and GraphQL's resolvers.

/** Access to sites follows the organization role; nothing is set per site. */
export const SITE_DEFAULT_LEVEL = 'inherit' as const;

/** The addresses of a site (its `urls`); `published` once it is published. */
export const SITE_ADDRESSES = {
  location: { address: [{ base: 'api' }, '/v1/orgs/', { column: 'organizationId' }, '/sites/', { column: 'id' }] },
  app: { address: [{ base: 'app' }, '/o/', { column: 'organizationId' }, '/sites/', { column: 'id' }] },
  preview: { address: [{ base: 'app' }, '/o/', { column: 'organizationId' }, '/sites/', { column: 'id' }, '/preview'] },
  published: { address: PUBLISHED_ADDRESS, when: 'published' },
  // Served by this server (src/rest/published-text.ts), with llms-full.txt and each page's .md beside it.
  llms: { address: [{ base: 'api' }, '/v1/orgs/', { column: 'organizationId' }, '/sites/', { column: 'id' }, '/published/llms.txt'], when: 'published' },
  // The site's MCP server (Streamable HTTP, src/rest/published-mcp.ts).
  mcp: { address: [{ base: 'api' }, '/v1/orgs/', { column: 'organizationId' }, '/sites/', { column: 'id' }, '/published/mcp'], when: 'published' },
} satisfies AddressSet;

export function siteUrls(site: SiteRecord, urls: PublicUrls): SiteJSON['urls'] {
  return renderAddresses(SITE_ADDRESSES, site, urls) as SiteJSON['urls'];
}

export function siteProxy(site: SiteRecord, urls: PublicUrls): SiteJSON['proxy'] | undefined {
  return site.proxyOrigin ? { origin: site.proxyOrigin, target: publishedUrl(site, urls) } : undefined;
}

export function sectionPublishedUrl(site: SiteRecord, section: SectionRecord, urls: PublicUrls): string {
  return `${publishedUrl(site, urls)}/${section.path}`;
}

/** A site space's published address: under its section's path, if it has a section. */
export function siteSpacePublishedUrl(site: SiteRecord, sectionPath: string | null, siteSpace: SiteSpaceRecord, urls: PublicUrls): string {
  return [publishedUrl(site, urls), sectionPath, siteSpace.path].filter(Boolean).join('/');
}

export function presentSite(site: SiteRecord, context: { permissions: SitePermissions; siteSpaces: number; urls: PublicUrls }): SiteJSON {
  const { urls } = context;
  const proxy = siteProxy(site, urls);
  return {
    object: 'site',
    id: site.id,
    type: site.type as SiteJSON['type'],
    appliedType: site.type as SiteJSON['type'],
    title: site.title,
    organization: site.organizationId,
    ...(site.hostname ? { hostname: site.hostname } : {}),
    ...(site.basename ? { basename: site.basename } : {}),
    ...(proxy ? { proxy } : {}),
    visibility: site.visibility as SiteJSON['visibility'],
    defaultLevel: SITE_DEFAULT_LEVEL,
    permissions: context.permissions,
    published: site.published,
    siteSpaces: context.siteSpaces,
    createdAt: site.createdAt.toISOString(),
    adaptiveContent: { enabled: site.adaptiveContentEnabled },
    features: [],
    urls: siteUrls(site, urls),
  };
}

export function presentSiteSpace(
  siteSpace: SiteSpaceRecord,
  context: { site: SiteRecord; space: SpaceJSON; sectionPath: string | null; urls: PublicUrls },
): SiteSpaceJSON {
  return {
    object: 'site-space',
    id: siteSpace.id,
    path: siteSpace.path,
    ...(siteSpace.sectionId ? { section: siteSpace.sectionId } : {}),
    space: context.space,
    title: context.space.title,
    default: siteSpace.isDefault,
    ...(siteSpace.condition ? { condition: siteSpace.condition } : {}),
    draft: false,
    hasAdvancedCustomizationFeature: false,
    urls: { published: siteSpacePublishedUrl(context.site, context.sectionPath, siteSpace, context.urls) },
  };
}

export function presentSection(section: SectionRecord, context: { site: SiteRecord; siteSpaces: SiteSpaceJSON[]; urls: PublicUrls }): SiteSectionJSON {
  return {
    object: 'site-section',
    id: section.id,
    title: section.title,
    ...(section.description ? { description: section.description } : {}),
    default: section.isDefault,
    draft: false,
    path: section.path,
    ...(section.condition ? { condition: section.condition } : {}),
    ...(section.sectionGroupId ? { sectionGroup: section.sectionGroupId } : {}),
    ...(section.icon ? { icon: section.icon } : {}),
    siteSpaces: context.siteSpaces,
    urls: { published: sectionPublishedUrl(context.site, section, context.urls) },
  };
}

export function presentSectionGroup(group: SectionGroupRecord, sections: SiteSectionJSON[]): SiteSectionGroupJSON {
  return {
    object: 'site-section-group',
    id: group.id,
    title: group.title,
    ...(group.icon ? { icon: group.icon } : {}),
    draft: false,
    sections,
    children: sections,
  };
}

export function presentShareLink(link: ShareLinkRecord, site: SiteRecord, urls: PublicUrls): ShareLinkJSON {
  return {
    object: 'share-link',
    id: link.id,
    createdAt: link.createdAt.toISOString(),
    ...(link.name ? { name: link.name } : {}),
    active: link.active,
    // The secret travels in the address, as `shareKey` of the published endpoints.
    urls: { published: `${publishedUrl(site, urls)}?shareKey=${encodeURIComponent(link.key)}` },
  };
}

export const DEFAULT_ADAPTIVE_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {},
  additionalProperties: false,
} as const;

export function presentAdaptiveSchema(site: SiteRecord) {
  return {
    object: 'site-adaptive-schema' as const,
    jsonSchema: (site.adaptiveSchema as Record<string, unknown> | null) ?? DEFAULT_ADAPTIVE_SCHEMA,
    updatedAt: (site.adaptiveSchemaUpdatedAt ?? site.createdAt).toISOString(),
  };
}

/**
 * The customizations of a site that has not set any: what a docs frontend renders
 * by default. Covers the fields of the contract and those the official schema requires.
 */
export function defaultCustomizations(site: SiteRecord) {
  const color = (hex: string) => ({ light: hex, dark: hex });
  return {
    title: site.title,
    styling: {
      theme: 'clean',
      primaryColor: color('#346DDB'),
      tint: { color: color('#346DDB') },
      infoColor: color('#787878'),
      successColor: color('#00C950'),
      warningColor: color('#FE9A00'),
      dangerColor: color('#FB2C36'),
      corners: 'rounded',
      depth: 'subtle',
      links: 'default',
      font: 'Inter',
      monospaceFont: 'IBMPlexMono',
      codeTheme: {
        default: { light: 'default-light', dark: 'default-dark' },
        openapi: { light: 'default-light', dark: 'default-dark' },
      },
      background: 'plain',
      icons: 'regular',
      sidebar: { background: 'default', list: 'default' },
      search: 'subtle',
    },
    internationalization: { locale: 'en' },
    favicon: {},
    header: { preset: 'default', links: [] },
    footer: { groups: [] },
    themes: { default: 'system', toggeable: true },
    pdf: { enabled: true },
    feedback: { enabled: false },
    // This server has no AI search or assistant.
    aiSearch: { enabled: false },
    ai: { mode: 'none', pageLinkSummaries: { enabled: false } },
    advancedCustomization: { enabled: false },
    trademark: { enabled: true },
    externalLinks: { target: 'self' },
    pagination: { enabled: true },
    pageActions: { items: ['markdown', 'pdf'] },
    privacyPolicy: {},
    socialPreview: {},
    socialAccounts: [],
    insights: { trackingCookie: true },
  };
}
