import type { OrganizationRecord } from '../../db/index.ts';
import { asRole, organizationPermissions } from '../../domain/access.ts';
import { ORGANIZATION_TRIAL, type OrganizationJSON, organizationUrls } from '../../domain/organizations/presenter.ts';
import {
  emailDomainsOf,
  listOrganizationRecordsForEmailDomain,
  organizationAccess,
  updateOrganization,
  organizationRecord,
} from '../../domain/organizations/service.ts';
import { loader } from '../../domain/loaders.ts';
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

const OrganizationTrial = builder.objectRef<OrganizationJSON['trial']>('OrganizationTrial').implement({
  fields: (t) => ({
    status: t.exposeString('status'),
    count: t.exposeInt('count'),
    endDate: t.field({ type: 'DateTime', nullable: true, resolve: (trial) => trial.endDate ?? null }),
    decision: t.exposeString('decision', { nullable: true }),
  }),
});

/**
 * Backed by the organization's row, read by an authorized loader: each field is
 * computed when a query asks for it (its email domains, the viewer's permissions)
 * by the functions REST's presenter uses.
 */
export const Organization = builder.loadableNodeRef<OrganizationRecord, string>('Organization', {
  id: { resolve: (org) => org.id },
  load: (ids, ctx) => loadEach(ids, (id) => organizationRecord(ctx, id)),
});

Organization.implement({
  fields: (t) => ({
    object: t.string({ resolve: () => 'organization' }),
    title: t.exposeString('title'),
    createdAt: t.field({ type: 'DateTime', resolve: (org) => org.createdAt.toISOString() }),
    emailDomains: t.stringList({ resolve: (org, _args, ctx) => loader(ctx, emailDomainsOf).load(org.id) }),
    hostname: t.exposeString('hostname', { nullable: true }),
    type: t.exposeString('type'),
    useCase: t.exposeString('useCase', { nullable: true }),
    communityType: t.exposeString('communityType', { nullable: true }),
    defaultRole: t.field({
      type: MemberRole,
      nullable: true,
      description: 'Role of new members; null means guest',
      resolve: (org) => asRole(org.defaultRole),
    }),
    defaultContent: t.field({
      type: OrganizationDefaultContent,
      nullable: true,
      resolve: (org) => (org.defaultContentSiteId ? { type: 'site', site: org.defaultContentSiteId } : null),
    }),
    sso: t.exposeBoolean('sso', { nullable: true }),
    ai: t.exposeBoolean('ai', { nullable: true }),
    inviteLinks: t.exposeBoolean('inviteLinks'),
    plan: t.exposeString('plan'),
    mergeRules: t.field({ type: 'JSON', resolve: (org) => org.mergeRules }),
    urls: t.field({ type: OrganizationUrls, resolve: (org, _args, ctx) => organizationUrls(org, ctx.urls) }),
    trial: t.field({ type: OrganizationTrial, resolve: () => ORGANIZATION_TRIAL }),
    internal_isOnNewTrial: t.boolean({ deprecationReason: 'Always true', resolve: () => true }),
    permissions: t.field({
      type: OrganizationPermissions,
      resolve: async (org, _args, ctx) => organizationPermissions(await organizationAccess(ctx, org.id)),
    }),
  }),
});

builder.queryFields((t) => ({
  organization: t.field({
    type: Organization,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => organizationRecord(ctx, id),
  }),
  organizationsForEmailDomain: t.field({
    type: [Organization],
    description: "Organizations of an email domain: all of them for the viewer's own domain, else the viewer's",
    args: { emailDomain: t.arg.string({ required: true }) },
    resolve: (_root, { emailDomain }, ctx) => listOrganizationRecordsForEmailDomain(ctx, emailDomain),
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
    resolve: async (_root, { input: { organizationId, ...body } }, ctx) => {
      await updateOrganization(ctx, organizationId, body);
      return { organization: await organizationRecord(ctx, organizationId) };
    },
  },
  { outputFields: (t) => ({ organization: t.field({ type: Organization, resolve: (payload) => payload.organization }) }) },
);
