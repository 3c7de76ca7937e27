import { z } from 'zod';
import {
  deleteSiteSpaceCustomization,
  getSiteCustomization,
  getSiteSpaceCustomization,
  overrideSiteSpaceCustomization,
  updateSiteCustomization,
} from '../../domain/sites/customization.ts';
import { ListStructureQuery } from '../../domain/sites/inputs.ts';
import { getSiteStructure } from '../../domain/sites/published.ts';
import { SortSiteStructureInput, sortSiteStructure } from '../../domain/sites/structure-sort.ts';
import { SiteSearchInput, SiteSearchQuery, searchSiteContent } from '../../domain/sites/search.ts';
import { queryBool } from '../../lib/validation.ts';
import { route } from '../route.ts';

const SITE = '/v1/orgs/{organizationId}/sites/{siteId}';

/** Settings are checked against the official schemas by the service (src/domain/sites/customization.ts). */
const settingsBody = z.record(z.string(), z.unknown()).meta({ description: 'Customization settings in the official SiteCustomizationSettings shape' });
const CustomizationQuery = z.object({ unmasked: queryBool().optional() });

export const siteCustomizationRoutes = [
  route({
    method: 'GET',
    path: `${SITE}/structure`,
    operationId: 'getSiteStructure',
    summary: 'The structure of a site: its sections and section groups, or its site spaces (shareKey for visitors of a share-link site)',
    tag: 'Sites',
    query: ListStructureQuery.pick({ shareKey: true }),
    status: 200,
    response: 'SiteStructure',
    handler: (ctx, { params, query }) => getSiteStructure(ctx, params.organizationId!, params.siteId!, query),
  }),
  route({
    method: 'PATCH',
    path: `${SITE}/structure/sort`,
    operationId: 'sortSiteStructure',
    summary: 'Move a site space, section or section group before or after a sibling, or to the end (admins)',
    tag: 'Sites',
    body: SortSiteStructureInput,
    status: 200,
    response: 'SiteStructureItem',
    handler: (ctx, { params, body }) => sortSiteStructure(ctx, params.organizationId!, params.siteId!, body),
  }),
  route({
    method: 'GET',
    path: `${SITE}/customization`,
    operationId: 'getSiteCustomizationById',
    summary: 'The customization settings of a site (the defaults until set)',
    tag: 'Site customization',
    query: CustomizationQuery,
    status: 200,
    response: 'SiteCustomizationSettings',
    handler: (ctx, { params }) => getSiteCustomization(ctx, params.organizationId!, params.siteId!),
  }),
  route({
    method: 'PUT',
    path: `${SITE}/customization`,
    operationId: 'updateSiteCustomizationById',
    summary: 'Replace the customization settings of a site (admins; ai.mode must be "none")',
    tag: 'Site customization',
    body: settingsBody,
    status: 200,
    response: 'SiteCustomizationSettings',
    handler: (ctx, { params, body }) => updateSiteCustomization(ctx, params.organizationId!, params.siteId!, body),
  }),
  route({
    method: 'GET',
    path: `${SITE}/site-spaces/{siteSpaceId}/customization`,
    operationId: 'getSiteSpaceCustomizationById',
    summary: "The customization settings of a site space: the site's with the site space's override",
    tag: 'Site customization',
    query: CustomizationQuery,
    status: 200,
    response: 'SiteCustomizationSettings',
    handler: (ctx, { params }) => getSiteSpaceCustomization(ctx, params.organizationId!, params.siteId!, params.siteSpaceId!),
  }),
  route({
    method: 'PATCH',
    path: `${SITE}/site-spaces/{siteSpaceId}/customization`,
    operationId: 'overrideSiteSpaceCustomizationById',
    summary: "Override some of the site's settings for a site space (admins): null goes back to the site's",
    tag: 'Site customization',
    body: settingsBody,
    status: 200,
    response: 'SiteCustomizationSettings',
    handler: (ctx, { params, body }) => overrideSiteSpaceCustomization(ctx, params.organizationId!, params.siteId!, params.siteSpaceId!, body),
  }),
  route({
    method: 'DELETE',
    path: `${SITE}/site-spaces/{siteSpaceId}/customization`,
    operationId: 'deleteSiteSpaceCustomizationById',
    summary: "Remove a site space's override (admins): 205, or 204 when it had none",
    tag: 'Site customization',
    status: 205,
    handler: (ctx, { params }) => deleteSiteSpaceCustomization(ctx, params.organizationId!, params.siteId!, params.siteSpaceId!),
  }),
];

export const siteSearchRoutes = [
  route({
    method: 'POST',
    path: `${SITE}/search`,
    operationId: 'searchSiteContent',
    summary: "Search the live content of a site's spaces (scope: default, specific, all), as the reader sees the site",
    tag: 'Sites',
    query: SiteSearchQuery,
    body: SiteSearchInput,
    status: 200,
    response: 'SearchSpaceResult',
    list: true,
    handler: (ctx, { params, query, body }) => searchSiteContent(ctx, params.organizationId!, params.siteId!, query, body),
  }),
];
