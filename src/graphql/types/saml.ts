import type { SamlProviderRecord } from '../../db/index.ts';
import { asRole } from '../../domain/access.ts';
import { samlService, samlStatus, samlUrls } from '../../domain/saml/presenter.ts';
import {
  createSamlProvider,
  deleteSamlProvider,
  listSamlProviderRecords,
  listSsoProviderRecords,
  samlDefaultTeam,
  samlProviderById,
  updateSamlProvider,
} from '../../domain/saml/service.ts';
import { builder } from '../builder.ts';
import { connectionQuery, loadEach, toConnection } from '../connection.ts';
import { MemberRole, urlsObject } from './common.ts';
import { Organization } from './organization.ts';
import { Team } from './team.ts';
import { nullIsAValue } from '../null-inputs.ts';

const SamlProviderStatus = builder.enumType('SamlProviderStatus', {
  description: 'active: sign-in URL, entity ID and certificate are all set; pending: not fully configured yet',
  values: {
    active: { description: 'Ready to use: listed by ssoProviders for sign-in pages' },
    pending: { description: 'Not fully configured yet: the sign-in URL, entity ID or certificate is missing' },
  },
});

const SamlServiceProvider = builder.objectRef<ReturnType<typeof samlService>>('SamlServiceProvider').implement({
  description:
    "This server's side of the SAML exchange, to configure in the identity provider (the server does not run the exchange yet: these addresses answer 404)",
  fields: (t) => ({
    acsURL: t.exposeString('acsURL', { description: 'Assertion Consumer Service URL' }),
    startURL: t.exposeString('startURL', { description: 'Where a sign-in through this provider starts' }),
    entityID: t.exposeString('entityID', { description: "This server's entity ID for the provider (the provider's REST address)" }),
  }),
});

const SamlProviderUrls = urlsObject('SamlProviderUrls', ['location']);

/** Backed by the provider's row (admins of its organization only). */
export const SamlProvider = builder.loadableNodeRef<SamlProviderRecord, string>('SamlProvider', {
  id: { resolve: (provider) => provider.id },
  load: (ids, ctx) => loadEach(ids, (id) => samlProviderById(ctx, id)),
});

SamlProvider.implement({
  description: 'A SAML identity provider members of an organization sign in with',
  fields: (t) => ({
    object: t.string({ description: 'Always "saml-provider" (the REST `object`)', resolve: () => 'saml-provider' }),
    label: t.exposeString('label', { description: 'Name of the provider, shown on sign-in pages' }),
    ssoURL: t.exposeString('ssoURL', { nullable: true, description: "The identity provider's sign-in URL (REST: absent while unset)" }),
    entityID: t.exposeString('entityID', { nullable: true, description: "The identity provider's entity ID (REST: absent while unset)" }),
    certificate: t.exposeString('certificate', { nullable: true, description: "The identity provider's X.509 certificate, PEM (REST: absent while unset)" }),
    defaultTeam: t.field({
      type: Team,
      nullable: true,
      description: 'Team that members who first sign in through the provider join; null when none',
      resolve: (provider, _args, ctx) => samlDefaultTeam(ctx, provider),
    }),
    defaultRole: t.field({
      type: MemberRole,
      nullable: true,
      description: 'Role of members who first sign in through the provider; null: guest',
      resolve: (provider) => asRole(provider.defaultRole),
    }),
    createdAt: t.field({ type: 'DateTime', description: 'When the provider was added', resolve: (provider) => provider.createdAt.toISOString() }),
    status: t.field({ type: SamlProviderStatus, description: 'Whether the provider is ready to use', resolve: (provider) => samlStatus(provider) }),
    service: t.field({
      type: SamlServiceProvider,
      description: 'The addresses to enter on the identity provider side',
      resolve: (provider, _args, ctx) => samlService(provider, ctx.urls),
    }),
    urls: t.field({ type: SamlProviderUrls, description: 'Its address in this REST API', resolve: (provider, _args, ctx) => samlUrls(provider, ctx.urls) }),
    organization: t.field({
      type: Organization,
      description: 'The organization whose members sign in through it',
      resolve: (provider) => provider.organizationId,
    }),
  }),
});

const SsoProviderLogin = builder.objectRef<SamlProviderRecord>('SsoProviderLogin').implement({
  description: 'What a sign-in page shows of a SAML provider ready to use',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Id of the SAML provider' }),
    label: t.exposeString('label', { description: 'Name of the provider, to show on the sign-in page' }),
    startURL: t.string({
      description: 'Where to send the user to sign in through the provider (answers 404 until the server runs the SAML exchange)',
      resolve: (provider, _args, ctx) => samlService(provider, ctx.urls).startURL,
    }),
  }),
});

builder.objectField(Organization, 'samlProviders', (t) =>
  t.connection({
    type: SamlProvider,
    description: 'SAML providers of the organization, oldest first (admins)',
    resolve: async (org, args, ctx) => toConnection(await listSamlProviderRecords(ctx, org.id, connectionQuery(args))),
  }),
);

builder.objectField(Organization, 'ssoProviders', (t) =>
  t.field({
    type: [SsoProviderLogin],
    description: 'Sign-in information of the SAML providers ready to use',
    resolve: (org, _args, ctx) => listSsoProviderRecords(ctx, org.id),
  }),
);

builder.queryField('ssoProviders', (t) =>
  t.field({
    type: [SsoProviderLogin],
    description: "Sign-in information of an organization's SAML providers ready to use: any authenticated caller, member or not",
    args: { organizationId: t.arg.id({ required: true, description: 'Id of the organization; 404 when there is none' }) },
    resolve: (_root, { organizationId }, ctx) => listSsoProviderRecords(ctx, organizationId),
  }),
);

/** A mutation's payload: the provider it acted on, read again as the viewer sees it now. */
const samlPayload = {
  outputFields: (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, { samlProviderId: string }>) => ({
    samlProvider: t.field({ type: SamlProvider, resolve: (payload, _args, ctx) => samlProviderById(ctx, payload.samlProviderId) }),
  }),
};

/** The REST body of a provider's fields: those given, `defaultTeamId` as `defaultTeam` (null clears it). */
function samlBody({ defaultTeamId, ...fields }: Record<string, unknown>) {
  const body: Record<string, unknown> = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  if (defaultTeamId !== undefined) body.defaultTeam = defaultTeamId;
  return body;
}

builder.relayMutationField(
  'createSamlProvider',
  {
    inputFields: (t) => ({
      organizationId: t.id({ required: true, description: 'The organization' }),
      label: t.string({ required: true, description: 'Name of the provider, shown on sign-in pages (1 to 30 characters)' }),
      ssoURL: t.string({ description: "The identity provider's sign-in URL (http or https)" }),
      entityID: t.string({ description: "The identity provider's entity ID" }),
      certificate: t.string({ description: 'X.509 certificate, PEM' }),
      defaultTeamId: t.id({ ...nullIsAValue, description: 'A team of the organization; null: none' }),
      defaultRole: t.field({ ...nullIsAValue, type: MemberRole, description: 'null: guest' }),
    }),
  },
  {
    description: 'Adds a SAML provider to an organization (admins); it stays pending until ssoURL, entityID and certificate are all set',
    resolve: async (_root, { input: { organizationId, ...fields } }, ctx) => ({
      samlProviderId: (await createSamlProvider(ctx, organizationId, samlBody(fields))).id,
    }),
  },
  samlPayload,
);

builder.relayMutationField(
  'updateSamlProvider',
  {
    inputFields: (t) => ({
      samlProviderId: t.id({ required: true, description: 'The SAML provider' }),
      label: t.string({ description: 'Name of the provider, shown on sign-in pages (1 to 30 characters)' }),
      ssoURL: t.string({ description: "The identity provider's sign-in URL (http or https)" }),
      entityID: t.string({ description: "The identity provider's entity ID" }),
      certificate: t.string({ description: 'X.509 certificate, PEM' }),
      defaultTeamId: t.id({ ...nullIsAValue, description: 'A team of the organization; null: none' }),
      defaultRole: t.field({ ...nullIsAValue, type: MemberRole, description: 'null: guest' }),
    }),
  },
  {
    description: 'Changes a SAML provider (admins); fields left out stay as they are',
    resolve: async (_root, { input: { samlProviderId, ...fields } }, ctx) => {
      const provider = await samlProviderById(ctx, samlProviderId);
      await updateSamlProvider(ctx, provider.organizationId, samlProviderId, samlBody(fields));
      return { samlProviderId };
    },
  },
  samlPayload,
);

builder.relayMutationField(
  'deleteSamlProvider',
  { inputFields: (t) => ({ samlProviderId: t.id({ required: true, description: 'The SAML provider' }) }) },
  {
    description: 'Deletes a SAML provider (admins)',
    resolve: async (_root, { input: { samlProviderId } }, ctx) => {
      const provider = await samlProviderById(ctx, samlProviderId);
      await deleteSamlProvider(ctx, provider.organizationId, samlProviderId);
      return { deletedSamlProviderId: samlProviderId };
    },
  },
  { outputFields: (t) => ({ deletedSamlProviderId: t.exposeID('deletedSamlProviderId', { description: 'Id of the SAML provider deleted' }) }) },
);
