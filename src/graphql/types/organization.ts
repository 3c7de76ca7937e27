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
import { MemberRole, booleanObject, restEnum, urlsObject } from './common.ts';
import { nullIsAValue } from '../null-inputs.ts';

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

const OrganizationType = restEnum('OrganizationType', 'The kind of an organization (REST `type`)', {
  business: 'A company or team (the default)',
  community: 'A non-profit, open-source or education community',
});

const OrganizationUseCase = restEnum('OrganizationUseCase', 'What an organization documents (REST `useCase`)', {
  internalDocs: 'Internal documentation',
  docsSite: 'A public docs site',
  audienceControlledSite: 'A docs site for a chosen audience',
  productDocs: 'Product documentation',
  teamKnowledgeBase: 'A team knowledge base',
  designSystem: 'A design system',
  openSourceDocs: 'Open-source documentation',
  notes: 'Notes',
  other: 'Something else',
});

const OrganizationCommunityType = restEnum('OrganizationCommunityType', 'The kind of a community organization (REST `communityType`)', {
  nonProfit: 'A non-profit',
  openSource: 'An open-source project',
  education: 'An education institution',
});

const BillingProduct = restEnum('BillingProduct', 'A billing plan (REST `plan`); this server keeps no billing, so it is only a label', {
  free_2024: 'Free (2024)',
  plus_2024: 'Plus (2024)',
  pro_2024: 'Pro (2024)',
  enterprise_2024: 'Enterprise (2024)',
  community_2024: 'Community (2024)',
  free: 'Free (the default)',
  plus: 'Plus',
  pro: 'Pro',
  internal: 'Internal',
});

const BillingTrialStatus = restEnum('BillingTrialStatus', 'The state of a trial (REST `trial.status`)', {
  notapplicable: 'No trial can be started (always, here)',
  none: 'No trial has been started yet',
  active: 'A trial is running',
  ended: 'The trial ended and the organization chose a plan',
  expired: 'The trial ended and no plan was chosen yet',
});

const BillingTrialDecision = restEnum('BillingTrialDecision', 'What an organization chose at the end of its trial', {
  downgrade: 'It went back to the free plan',
});

const DefaultContentType = restEnum('OrganizationDefaultContentType', 'The kinds of default content', {
  site: 'A site of the organization',
});

const OrganizationDefaultContent = builder.objectRef<{ type: 'site'; site: string }>('OrganizationDefaultContent').implement({
  description: 'What the organization shows by default, as REST `defaultContent`: one of its sites',
  fields: (t) => ({
    type: t.expose('type', { type: DefaultContentType, description: 'Always site: the only kind of default content' }),
    site: t.exposeString('site', { description: 'Id of the site (`site_…`)' }),
  }),
});

const OrganizationTrial = builder.objectRef<OrganizationJSON['trial']>('OrganizationTrial').implement({
  description: 'Trial of a paid plan, as REST `trial`: this server has no trials, so every organization answers `notapplicable`',
  fields: (t) => ({
    status: t.expose('status', {
      type: BillingTrialStatus,
      description: 'Where the trial is; always notapplicable here',
    }),
    count: t.exposeInt('count', { description: 'Number of trials the organization has used (always 0 here)' }),
    endDate: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the trial ends or ended; null without a trial (always null here)',
      resolve: (trial) => trial.endDate ?? null,
    }),
    decision: t.field({
      type: BillingTrialDecision,
      nullable: true,
      description: 'downgrade when the organization chose the free plan at the end of its trial; null otherwise (always null here)',
      resolve: (trial) => trial.decision ?? null,
    }),
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
  description: 'A company or community: it holds members, teams, collections, spaces and sites (REST `/v1/orgs/{organizationId}`); only its members see it',
  fields: (t) => ({
    object: t.string({ description: 'Always "organization" (the REST `object`)', resolve: () => 'organization' }),
    title: t.exposeString('title', { description: 'Name of the organization' }),
    createdAt: t.field({ type: 'DateTime', description: 'When the organization was created', resolve: (org) => org.createdAt.toISOString() }),
    emailDomains: t.stringList({
      description: 'Email domains of the organization, sorted: users with an address there find it with `organizationsForEmailDomain`',
      resolve: (org, _args, ctx) => loader(ctx, emailDomainsOf).load(org.id),
    }),
    hostname: t.exposeString('hostname', {
      nullable: true,
      description: "Short hostname for the organization's public content (lowercase letters, digits and dashes; unique); null when unset",
    }),
    type: t.field({ type: OrganizationType, description: 'Whether it is a business or a community', resolve: (org) => org.type as OrganizationJSON['type'] }),
    useCase: t.field({
      type: OrganizationUseCase,
      nullable: true,
      description: 'What the organization documents; null when unset',
      resolve: (org) => (org.useCase as OrganizationJSON['useCase']) ?? null,
    }),
    communityType: t.field({
      type: OrganizationCommunityType,
      nullable: true,
      description: 'Kind of community organization; null when unset',
      resolve: (org) => (org.communityType as OrganizationJSON['communityType']) ?? null,
    }),
    defaultRole: t.field({
      type: MemberRole,
      nullable: true,
      description: 'Role of new members; null means guest',
      resolve: (org) => asRole(org.defaultRole),
    }),
    defaultContent: t.field({
      type: OrganizationDefaultContent,
      nullable: true,
      description: 'The site the organization shows by default; null when none is set',
      resolve: (org) => (org.defaultContentSiteId ? { type: 'site' as const, site: org.defaultContentSiteId } : null),
    }),
    sso: t.exposeBoolean('sso', {
      nullable: true,
      description: 'Whether members must sign in with SSO, as REST `sso`: a setting admins keep, stored but not applied by this server',
    }),
    ai: t.exposeBoolean('ai', { nullable: true, description: 'Whether the organization turns on AI features (a setting admins keep)' }),
    inviteLinks: t.exposeBoolean('inviteLinks', {
      description: 'Whether link invites work: while false, none can be created or joined with, and only admins can read them',
    }),
    plan: t.field({
      type: BillingProduct,
      description: 'Its billing plan (this server keeps no billing: set when the organization is created)',
      resolve: (org) => org.plan as OrganizationJSON['plan'],
    }),
    mergeRules: t.expose('mergeRules', {
      type: 'JSON',
      description:
        'Rules change requests must pass to be merged, as REST `mergeRules`: `{"type": "none"}` or `{"type": "rules", "rules": [...]}` (kept for clients; merging does not check them here)',
    }),
    urls: t.field({
      type: OrganizationUrls,
      description: 'Addresses of the organization in this API and in the web application, and its logo',
      resolve: (org, _args, ctx) => organizationUrls(org, ctx.urls),
    }),
    trial: t.field({ type: OrganizationTrial, description: 'Trial state (always notapplicable: no trials here)', resolve: () => ORGANIZATION_TRIAL }),
    internal_isOnNewTrial: t.boolean({ description: 'Always true, as in REST', deprecationReason: 'Always true', resolve: () => true }),
    permissions: t.field({
      type: OrganizationPermissions,
      description: 'What the caller may do in the organization, from its role there',
      resolve: async (org, _args, ctx) => organizationPermissions(await organizationAccess(ctx, org.id)),
    }),
  }),
});

builder.queryFields((t) => ({
  organization: t.field({
    type: Organization,
    nullable: true,
    description: 'An organization by id; 404 when the caller is not one of its members',
    args: { id: t.arg.id({ required: true, description: 'Id of the organization (`org_…`)' }) },
    resolve: (_root, { id }, ctx) => organizationRecord(ctx, id),
  }),
  organizationsForEmailDomain: t.field({
    type: [Organization],
    description: "Organizations of an email domain: all of them for the viewer's own domain, else the viewer's",
    args: { emailDomain: t.arg.string({ required: true, description: 'A domain name, e.g. example.com (case-insensitive)' }) },
    resolve: (_root, { emailDomain }, ctx) => listOrganizationRecordsForEmailDomain(ctx, emailDomain),
  }),
}));

const DefaultContentInput = builder.inputType('OrganizationDefaultContentInput', {
  description: 'The default content to set: `{type: "site", site}`',
  fields: (t) => ({
    type: t.field({ type: DefaultContentType, required: true, description: 'Always site' }),
    site: t.id({ required: true, description: 'A site of the organization' }),
  }),
});

builder.relayMutationField(
  'updateOrganization',
  {
    inputFields: (t) => ({
      organizationId: t.id({ required: true, description: 'The organization to change' }),
      title: t.string({ description: 'New name (2 to 255 characters, not starting or ending with a space)' }),
      emailDomains: t.stringList({ description: 'Replaces all its email domains (up to 100 domain names)' }),
      hostname: t.string({ description: 'New hostname: 3 to 32 lowercase letters, digits and dashes, not starting or ending with a dash' }),
      defaultRole: t.field({ ...nullIsAValue, type: MemberRole, description: 'null makes new members guests' }),
      defaultContent: t.field({ ...nullIsAValue, type: DefaultContentInput, description: 'A site of the organization to show by default; null removes it' }),
      logo: t.string({ ...nullIsAValue, description: 'Absolute URL of the logo image; null removes it' }),
      sso: t.boolean({ description: 'Whether members must sign in with SSO' }),
      ai: t.boolean({ description: 'Whether AI features are on' }),
      inviteLinks: t.boolean({ description: 'Whether link invites work' }),
      mergeRules: t.field({
        type: 'JSON',
        description: 'Merge rules of change requests: `{"type": "none"}` or `{"type": "rules", "rules": [...]}` (up to 50 rules)',
      }),
    }),
  },
  {
    description: 'Changes settings of an organization (admins); fields left out stay as they are',
    resolve: async (_root, { input: { organizationId, ...body } }, ctx) => {
      await updateOrganization(ctx, organizationId, body);
      return { organization: await organizationRecord(ctx, organizationId) };
    },
  },
  { outputFields: (t) => ({ organization: t.expose('organization', { type: Organization }) }) },
);
