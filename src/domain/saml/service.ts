import type { RequestContext } from '../../context.ts';
import type { SamlProviderRecord } from '../../db/index.ts';
import { invalid, notFound } from '../../errors.ts';
import { newId } from '../../lib/ids.ts';
import { type Ordering, type Page, pageRequestOf } from '../../lib/pagination.ts';
import { parseInput } from '../../lib/validation.ts';
import { type OrganizationAccess, authorize } from '../access.ts';
import { defineRecordLoader, loader } from '../loaders.ts';
import { organizationAccess, organizationRecords, visibleOrganization } from '../organizations/service.ts';
import { type ChildListing, countsBy, listChildren, mapPage } from '../shared/pages.ts';
import { presentTeamRecord, teamRecords } from '../teams/service.ts';
import { inTransaction } from '../transaction.ts';
import { requireViewer } from '../users/service.ts';
import { CreateSamlProviderInput, ListSamlProvidersQuery, UpdateSamlProviderInput } from './inputs.ts';
import { type SamlProviderJSON, type SsoProviderLoginJSON, presentSamlProvider, presentSsoProviderLogin, samlStatus } from './presenter.ts';

/**
 * SAML providers: the identity providers members of an organization sign in
 * with. Their configuration is the organization's admins' (list, read, create,
 * change, delete); what a sign-in page needs — `GET …/sso`: id, label and start
 * URL of the providers ready to use — is open to any authenticated caller, as
 * a user signs in through them before being a member.
 */

export const samlProviderRecords = defineRecordLoader((ctx, ids) => ctx.db.samlProvider.findMany({ where: { id: { in: ids } } }));

/** The organization, for one of its admins. */
async function organizationForSaml(ctx: RequestContext, organizationId: string, action: string): Promise<OrganizationAccess> {
  const { access } = await visibleOrganization(ctx, organizationId);
  authorize(access.role === 'admin', action);
  return access;
}

async function findProvider(ctx: RequestContext, organizationId: string, providerId: string): Promise<SamlProviderRecord> {
  const provider = await loader(ctx, samlProviderRecords).load(providerId);
  if (!provider || provider.organizationId !== organizationId) throw notFound('SAML provider', providerId);
  return provider;
}

/** The provider's default team as the viewer sees it (a team row of the provider's organization), or null. */
export async function samlDefaultTeam(ctx: RequestContext, provider: SamlProviderRecord) {
  if (!provider.defaultTeamId) return null;
  const team = await loader(ctx, teamRecords).load(provider.defaultTeamId);
  return team && team.organizationId === provider.organizationId ? team : null;
}

async function presentProvider(ctx: RequestContext, provider: SamlProviderRecord, access: OrganizationAccess): Promise<SamlProviderJSON> {
  const team = await samlDefaultTeam(ctx, provider);
  return presentSamlProvider(provider, team ? await presentTeamRecord(ctx, team, access) : null, ctx.urls);
}

const byCreation: Ordering<SamlProviderRecord> = {
  name: 'saml-providers:createdAt',
  keys: [
    { field: 'createdAt', direction: 'asc', type: 'date', value: (row) => row.createdAt },
    { field: 'id', direction: 'asc', type: 'string', value: (row) => row.id },
  ],
};

const providersOfOrganization: ChildListing<SamlProviderRecord, null> = {
  name: 'organization-saml-providers',
  records: samlProviderRecords,
  ordering: () => byCreation,
  parentOf: (row) => row.organizationId,
  findMany: (ctx, organizationIds, _filter, args) =>
    ctx.db.samlProvider.findMany({ ...args, where: { AND: [{ organizationId: { in: organizationIds } }, args.where] } }),
  count: async (ctx, organizationIds) =>
    countsBy(
      await ctx.db.samlProvider.groupBy({ by: ['organizationId'], where: { organizationId: { in: organizationIds } }, _count: { _all: true } }),
      'organizationId',
    ),
};

/** SAML providers of an organization, oldest first (admins). */
export async function listSamlProviderRecords(ctx: RequestContext, organizationId: string, query: unknown): Promise<Page<SamlProviderRecord>> {
  const params = parseInput(ListSamlProvidersQuery, query, 'query');
  await organizationForSaml(ctx, organizationId, "read this organization's SAML providers");
  return listChildren(ctx, providersOfOrganization, organizationId, null, pageRequestOf(params));
}

export async function listSamlProviders(ctx: RequestContext, organizationId: string, query: unknown): Promise<Page<SamlProviderJSON>> {
  const page = await listSamlProviderRecords(ctx, organizationId, query);
  const { access } = await visibleOrganization(ctx, organizationId);
  return mapPage(page, (provider) => presentProvider(ctx, provider, access));
}

export async function samlProviderRecord(ctx: RequestContext, organizationId: string, providerId: string): Promise<SamlProviderRecord> {
  await organizationForSaml(ctx, organizationId, "read this organization's SAML providers");
  return findProvider(ctx, organizationId, providerId);
}

export async function getSamlProvider(ctx: RequestContext, organizationId: string, providerId: string): Promise<SamlProviderJSON> {
  const access = await organizationForSaml(ctx, organizationId, "read this organization's SAML providers");
  return presentProvider(ctx, await findProvider(ctx, organizationId, providerId), access);
}

/** A provider by id alone (GraphQL nodes and mutations): outside the caller's organizations it does not exist. */
export async function samlProviderById(ctx: RequestContext, providerId: string): Promise<SamlProviderRecord> {
  const provider = await loader(ctx, samlProviderRecords).load(providerId);
  if (!provider || !(await organizationAccess(ctx, provider.organizationId)).member) throw notFound('SAML provider', providerId);
  return samlProviderRecord(ctx, provider.organizationId, providerId);
}

/** `defaultTeam` of a request: the id of a team of this organization (null: none). */
async function checkDefaultTeam(ctx: RequestContext, organizationId: string, teamId: string | null | undefined) {
  if (!teamId) return;
  const team = await ctx.db.team.findUnique({ where: { id: teamId }, select: { organizationId: true } });
  if (!team || team.organizationId !== organizationId) throw invalid(`defaultTeam: no team "${teamId}" in this organization`);
}

export async function createSamlProvider(ctx: RequestContext, organizationId: string, body: unknown): Promise<SamlProviderJSON> {
  const access = await organizationForSaml(ctx, organizationId, 'configure SAML providers of this organization');
  const input = parseInput(CreateSamlProviderInput, body);
  await checkDefaultTeam(ctx, organizationId, input.defaultTeam);
  const id = newId('samlProvider');
  await inTransaction(ctx, { action: 'saml_provider.create', organizationId, target: { type: 'saml-provider', id } }, (tx) =>
    tx.db.samlProvider.create({
      data: {
        id,
        organizationId,
        label: input.label,
        ssoURL: input.ssoURL ?? null,
        entityID: input.entityID ?? null,
        certificate: input.certificate ?? null,
        defaultTeamId: input.defaultTeam ?? null,
        defaultRole: input.defaultRole ?? null,
      },
    }),
  );
  return presentProvider(ctx, await reread(ctx, id), access);
}

/** A row just written, read past the request's loaders (which may hold what they read before the write). */
async function reread(ctx: RequestContext, id: string): Promise<SamlProviderRecord> {
  return ctx.db.samlProvider.findUniqueOrThrow({ where: { id } });
}

export async function updateSamlProvider(ctx: RequestContext, organizationId: string, providerId: string, body: unknown): Promise<SamlProviderJSON> {
  const access = await organizationForSaml(ctx, organizationId, 'configure SAML providers of this organization');
  const input = parseInput(UpdateSamlProviderInput, body);
  await findProvider(ctx, organizationId, providerId);
  await checkDefaultTeam(ctx, organizationId, input.defaultTeam);
  await inTransaction(ctx, { action: 'saml_provider.update', organizationId, target: { type: 'saml-provider', id: providerId } }, (tx) =>
    tx.db.samlProvider.update({
      where: { id: providerId },
      data: {
        label: input.label,
        ssoURL: input.ssoURL,
        entityID: input.entityID,
        certificate: input.certificate,
        ...(input.defaultTeam !== undefined ? { defaultTeamId: input.defaultTeam } : {}),
        defaultRole: input.defaultRole,
      },
    }),
  );
  return presentProvider(ctx, await reread(ctx, providerId), access);
}

export async function deleteSamlProvider(ctx: RequestContext, organizationId: string, providerId: string): Promise<void> {
  await organizationForSaml(ctx, organizationId, 'configure SAML providers of this organization');
  await findProvider(ctx, organizationId, providerId);
  await inTransaction(
    ctx,
    {
      action: 'saml_provider.delete',
      organizationId,
      target: { type: 'saml-provider', id: providerId },
    },
    (tx) => tx.db.samlProvider.deleteMany({ where: { id: providerId } }),
  );
}

/**
 * Sign-in information of an organization's SAML providers that are ready to
 * use (`active`), oldest first: any authenticated caller, member or not, may
 * read it (it is what a sign-in page shows before the user is a member). An
 * unknown organization is a 404.
 */
export async function listSsoProviderRecords(ctx: RequestContext, organizationId: string): Promise<SamlProviderRecord[]> {
  requireViewer(ctx);
  // First: a non-member's answer depends on this organization's data, and the response cache must know it.
  await organizationAccess(ctx, organizationId);
  const org = await loader(ctx, organizationRecords).load(organizationId);
  if (!org) throw notFound('Organization', organizationId);
  const providers = await ctx.db.samlProvider.findMany({ where: { organizationId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  return providers.filter((provider) => samlStatus(provider) === 'active');
}

export async function listSsoProviderLogins(ctx: RequestContext, organizationId: string): Promise<{ items: SsoProviderLoginJSON[] }> {
  const providers = await listSsoProviderRecords(ctx, organizationId);
  return { items: providers.map((provider) => presentSsoProviderLogin(provider, ctx.urls)) };
}
