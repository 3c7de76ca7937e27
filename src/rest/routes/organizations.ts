import { SearchQuery, searchOrganization } from '../../domain/search/service.ts';
import { ListOrganizationsQuery, UpdateOrganizationInput } from '../../domain/organizations/inputs.ts';
import { getOrganization, listOrganizationsForEmailDomain, listViewerOrganizations, updateOrganization } from '../../domain/organizations/service.ts';
import { getAuthenticatedUser, getUser } from '../../domain/users/service.ts';
import { restList } from '../../lib/pagination.ts';
import { route } from '../route.ts';

const tag = 'Organizations';

export const organizationRoutes = [
  route({
    method: 'GET',
    path: '/v1/user',
    operationId: 'getAuthenticatedUser',
    summary: 'The user behind the token',
    tag: 'Users',
    status: 200,
    response: 'User',
    handler: (ctx) => getAuthenticatedUser(ctx),
  }),
  route({
    method: 'GET',
    path: '/v1/users/{userId}',
    operationId: 'getUserById',
    summary: 'A user who shares an organization with the caller',
    tag: 'Users',
    status: 200,
    response: 'User',
    handler: (ctx, { params }) => getUser(ctx, params.userId!),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs',
    operationId: 'listOrganizationsForAuthenticatedUser',
    summary: 'Organizations the caller belongs to',
    tag,
    query: ListOrganizationsQuery,
    status: 200,
    response: 'Organization',
    list: true,
    handler: async (ctx, { query }) => restList(await listViewerOrganizations(ctx, query)),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/{organizationId}',
    operationId: 'getOrganizationById',
    summary: 'An organization',
    tag,
    status: 200,
    response: 'Organization',
    handler: (ctx, { params }) => getOrganization(ctx, params.organizationId!),
  }),
  route({
    method: 'PATCH',
    path: '/v1/orgs/{organizationId}',
    operationId: 'updateOrganizationById',
    summary: 'Update an organization (admins)',
    tag,
    body: UpdateOrganizationInput,
    status: 200,
    response: 'Organization',
    handler: (ctx, { params, body }) => updateOrganization(ctx, params.organizationId!, body),
  }),
  route({
    method: 'GET',
    path: '/v1/email-domains/{emailDomain}/orgs',
    operationId: 'getOrganizationsForEmailDomain',
    summary: "Organizations of an email domain (all of them for the caller's own domain)",
    tag,
    status: 200,
    response: 'OrganizationsOfEmailDomain',
    handler: (ctx, { params }) => listOrganizationsForEmailDomain(ctx, params.emailDomain!),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/{organizationId}/search',
    operationId: 'searchOrganizationContent',
    summary: 'Search the pages of every space of the organization, grouped by space',
    tag,
    query: SearchQuery,
    status: 200,
    response: 'SearchSpaceResult',
    list: true,
    handler: (ctx, { params, query }) => searchOrganization(ctx, params.organizationId!, query),
  }),
];
