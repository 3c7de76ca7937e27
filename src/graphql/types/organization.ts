import type { OrganizationJSON } from '../../domain/organizations/presenter.ts';
import {
  getOrganization,
  listOrganizationsForEmailDomain,
  updateOrganization,
} from '../../domain/organizations/service.ts';
import { builder } from '../builder.ts';
import { loadEach } from '../connection.ts';
import { MemberRole, booleanObject, urlsObject } from './common.ts';

const OrganizationUrls = urlsObject('OrganizationUrls', ['location', 'app'], ['logo']);

const OrganizationPermissions = booleanObject('OrganizationPermissions', [
  'view',
  'access',
  'admin',
  'ownTeam',
  'createContent',
  'createOpenAPISpec',
  'viewBilling',
  'listMembers',
  'listTeams',
  'listIntegrations',
  'listInstallations',
  'installIntegration',
] as const);

const OrganizationDefaultContent = builder
  .objectRef<{ type: string; site: string }>('OrganizationDefaultContent')
  .implement({ fields: (t) => ({ type: t.exposeString('type'), site: t.exposeString('site') }) });

const OrganizationTrial = builder
  .objectRef<OrganizationJSON['trial']>('OrganizationTrial')
  .implement({
    fields: (t) => ({
      status: t.exposeString('status'),
      count: t.exposeInt('count'),
      endDate: t.field({ type: 'DateTime', nullable: true, resolve: (trial) => trial.endDate ?? null }),
      decision: t.exposeString('decision', { nullable: true }),
    }),
  });

export const Organization = builder.loadableNodeRef<OrganizationJSON, string>('Organization', {
  id: { resolve: (org) => org.id },
  load: (ids, ctx) => loadEach(ids, (id) => getOrganization(ctx, id)),
});

Organization.implement({
  fields: (t) => ({
    object: t.exposeString('object'),
    title: t.exposeString('title'),
    createdAt: t.field({ type: 'DateTime', resolve: (org) => org.createdAt }),
    emailDomains: t.exposeStringList('emailDomains'),
    hostname: t.exposeString('hostname', { nullable: true }),
    type: t.exposeString('type'),
    useCase: t.exposeString('useCase', { nullable: true }),
    communityType: t.exposeString('communityType', { nullable: true }),
    defaultRole: t.field({
      type: MemberRole,
      nullable: true,
      description: 'Role of new members; null means guest',
      resolve: (org) => org.defaultRole ?? null,
    }),
    defaultContent: t.field({
      type: OrganizationDefaultContent,
      nullable: true,
      resolve: (org) => org.defaultContent ?? null,
    }),
    sso: t.exposeBoolean('sso', { nullable: true }),
    ai: t.exposeBoolean('ai', { nullable: true }),
    inviteLinks: t.exposeBoolean('inviteLinks'),
    plan: t.exposeString('plan'),
    mergeRules: t.field({ type: 'JSON', resolve: (org) => org.mergeRules }),
    urls: t.field({ type: OrganizationUrls, resolve: (org) => org.urls }),
    trial: t.field({ type: OrganizationTrial, resolve: (org) => org.trial }),
    internal_isOnNewTrial: t.exposeBoolean('internal_isOnNewTrial', { deprecationReason: 'Always true' }),
    permissions: t.field({ type: OrganizationPermissions, resolve: (org) => org.permissions }),
  }),
});

builder.queryFields((t) => ({
  organization: t.field({
    type: Organization,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => getOrganization(ctx, id),
  }),
  organizationsForEmailDomain: t.field({
    type: [Organization],
    description: "Organizations of an email domain: all of them for the viewer's own domain, else the viewer's",
    args: { emailDomain: t.arg.string({ required: true }) },
    resolve: async (_root, { emailDomain }, ctx) =>
      (await listOrganizationsForEmailDomain(ctx, emailDomain)).organizations,
  }),
}));

const DefaultContentInput = builder.inputType('OrganizationDefaultContentInput', {
  fields: (t) => ({ type: t.string({ required: true }), site: t.id({ required: true }) }),
});

builder.relayMutationField(
  'updateOrganization',
  {
    inputFields: (t) => ({
      organizationId: t.id({ required: true }),
      title: t.string(),
      emailDomains: t.stringList(),
      hostname: t.string(),
      defaultRole: t.field({ type: MemberRole, description: 'null makes new members guests' }),
      defaultContent: t.field({ type: DefaultContentInput }),
      logo: t.string(),
      sso: t.boolean(),
      ai: t.boolean(),
      inviteLinks: t.boolean(),
      mergeRules: t.field({ type: 'JSON' }),
    }),
  },
  {
    resolve: async (_root, { input: { organizationId, ...body } }, ctx) => ({
      organization: await updateOrganization(ctx, organizationId, body),
    }),
  },
  { outputFields: (t) => ({ organization: t.field({ type: Organization, resolve: (payload) => payload.organization }) }) },
);
