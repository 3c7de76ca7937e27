import { CreateSamlProviderInput, ListSamlProvidersQuery, UpdateSamlProviderInput } from '../../domain/saml/inputs.ts';
import {
  createSamlProvider,
  deleteSamlProvider,
  getSamlProvider,
  listSamlProviders,
  listSsoProviderLogins,
  updateSamlProvider,
} from '../../domain/saml/service.ts';
import { restList } from '../../lib/pagination.ts';
import { route } from '../route.ts';

const tag = 'SAML and SSO';
const provider = '/v1/orgs/{organizationId}/saml/{samlProviderId}';

export const samlRoutes = [
  route({
    method: 'GET',
    path: '/v1/orgs/{organizationId}/saml',
    operationId: 'listSAMLProvidersInOrganizationById',
    summary: 'SAML providers of an organization, oldest first (admins)',
    tag,
    query: ListSamlProvidersQuery,
    status: 200,
    response: 'OrganizationSAMLProvider',
    list: true,
    handler: async (ctx, { params, query }) => restList(await listSamlProviders(ctx, params.organizationId!, query)),
  }),
  route({
    method: 'POST',
    path: '/v1/orgs/{organizationId}/saml',
    operationId: 'createOrganizationSAMLProvider',
    summary: 'Add a SAML provider (admins)',
    tag,
    body: CreateSamlProviderInput,
    status: 201,
    response: 'OrganizationSAMLProvider',
    handler: (ctx, { params, body }) => createSamlProvider(ctx, params.organizationId!, body),
  }),
  route({
    method: 'GET',
    path: provider,
    operationId: 'getOrganizationSAMLProviderById',
    summary: 'A SAML provider (admins)',
    tag,
    status: 200,
    response: 'OrganizationSAMLProvider',
    handler: (ctx, { params }) => getSamlProvider(ctx, params.organizationId!, params.samlProviderId!),
  }),
  route({
    method: 'PATCH',
    path: provider,
    operationId: 'updateOrganizationSAMLProvider',
    summary: 'Change a SAML provider (admins)',
    tag,
    body: UpdateSamlProviderInput,
    status: 200,
    response: 'OrganizationSAMLProvider',
    handler: (ctx, { params, body }) => updateSamlProvider(ctx, params.organizationId!, params.samlProviderId!, body),
  }),
  route({
    method: 'DELETE',
    path: provider,
    operationId: 'deleteOrganizationSAMLProvider',
    summary: 'Delete a SAML provider (admins)',
    tag,
    status: 204,
    handler: (ctx, { params }) => deleteSamlProvider(ctx, params.organizationId!, params.samlProviderId!),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/{organizationId}/sso',
    operationId: 'listSSOProviderLoginsInOrganization',
    summary: 'Sign-in information of the SAML providers ready to use (any authenticated caller)',
    tag,
    status: 200,
    response: 'SSOProviderLogins',
    handler: (ctx, { params }) => listSsoProviderLogins(ctx, params.organizationId!),
  }),
];
