import type { RequestContext } from '../../context.ts';
import type { AuditFacts } from '../audit/record.ts';
import type { MemberRecord, OrganizationRecord } from '../../db/index.ts';
import { invalid, notFound } from '../../errors.ts';
import { type Page, pageRequestOf } from '../../lib/pagination.ts';
import { parseInput } from '../../lib/validation.ts';
import { type OrganizationAccess, asRole, authorize } from '../access.ts';
import { noteForeignScope } from '../generations.ts';
import { type LoaderDefinition, defineLoader, defineRecordLoader, loader } from '../loaders.ts';
import { type ChildListing, countsBy, listChildren, mapPage } from '../shared/pages.ts';
import { inTransaction } from '../transaction.ts';
import { requireViewer } from '../users/service.ts';
import { ListOrganizationsQuery, UpdateOrganizationInput, emailDomain } from './inputs.ts';
import { type OrganizationJSON, presentOrganization } from './presenter.ts';

export const organizationRecords = defineRecordLoader((ctx, ids) => ctx.db.organization.findMany({ where: { id: { in: ids } } }));

/** The email domains of each organization, sorted. */
export const emailDomainsOf = defineLoader<string, string[]>(async (ctx, organizationIds) => {
  const rows = await ctx.db.organizationEmailDomain.findMany({
    where: { organizationId: { in: [...organizationIds] } },
    orderBy: { domain: 'asc' },
  });
  const byOrganization = new Map<string, string[]>();
  for (const row of rows) byOrganization.set(row.organizationId, [...(byOrganization.get(row.organizationId) ?? []), row.domain]);
  return organizationIds.map((id) => byOrganization.get(id) ?? []);
});

/** The viewer's membership in each organization (null when not a member). */
export const viewerMemberships = defineLoader<string, MemberRecord | null>(async (ctx, organizationIds) => {
  const viewer = requireViewer(ctx);
  const known = ctx.viewer?.memberships;
  if (known) return organizationIds.map((id) => known.get(id) ?? null);
  const rows = await ctx.db.member.findMany({
    where: { userId: viewer.id, organizationId: { in: [...organizationIds] } },
  });
  const byOrganization = new Map(rows.map((row) => [row.organizationId, row]));
  return organizationIds.map((id) => byOrganization.get(id) ?? null);
});

export async function organizationAccess(ctx: RequestContext, organizationId: string): Promise<OrganizationAccess> {
  // A reader without a token (a published site's text addresses) belongs to no organization.
  const member = ctx.viewer ? await loader(ctx, viewerMemberships).load(organizationId) : null;
  if (!member) noteForeignScope(ctx, organizationId);
  const active = member && !member.disabled ? member : null;
  return { member: active, role: asRole(active?.role) };
}

/** Loads an organization the viewer belongs to; anything else is a 404. */
export async function visibleOrganization(ctx: RequestContext, organizationId: string) {
  const [org, access] = await Promise.all([loader(ctx, organizationRecords).load(organizationId), organizationAccess(ctx, organizationId)]);
  if (!org || !access.member) throw notFound('Organization', organizationId);
  return { org, access };
}

/** The row of an organization the viewer belongs to; anything else is a 404. */
export function organizationRecord(ctx: RequestContext, organizationId: string): Promise<OrganizationRecord> {
  return loader(ctx, visibleOrganizationRecords).load(organizationId);
}

/**
 * The outcome of `visibleOrganization` per id, kept for the request: the
 * organization of a thousand spaces in one answer is authorized once.
 */
const visibleOrganizationRecords = defineLoader<string, OrganizationRecord>((ctx, ids) =>
  Promise.all(
    ids.map((id) =>
      visibleOrganization(ctx, id).then(
        ({ org }) => org,
        (error: unknown) => error as OrganizationRecord,
      ),
    ),
  ),
);

export async function getOrganization(ctx: RequestContext, organizationId: string): Promise<OrganizationJSON> {
  const { org, access } = await visibleOrganization(ctx, organizationId);
  return presentOrganization(org, await loader(ctx, emailDomainsOf).load(org.id), access, ctx.urls);
}

/** The REST object of an organization row the viewer may see. */
async function presentOrganizationRecord(ctx: RequestContext, org: OrganizationRecord): Promise<OrganizationJSON> {
  const [domains, access] = await Promise.all([loader(ctx, emailDomainsOf).load(org.id), organizationAccess(ctx, org.id)]);
  return presentOrganization(org, domains, access, ctx.urls);
}

type OrganizationOfMember = OrganizationRecord & { members: Array<{ userId: string }> };

/** The organizations a user belongs to, oldest first; the parent of this listing is the user. */
const organizationsOfUser: ChildListing<OrganizationOfMember, null> = {
  name: 'user-organizations',
  // Listed rows are organizations with their domains (and one membership): valid loader values.
  records: organizationRecords as unknown as LoaderDefinition<string, OrganizationOfMember | null>,
  ordering: () => ({
    name: 'organizations',
    keys: [
      { field: 'createdAt', direction: 'asc', type: 'date', value: (org) => org.createdAt },
      { field: 'id', direction: 'asc', type: 'string', value: (org) => org.id },
    ],
  }),
  // Each row carries the membership it was found through, which names its parent.
  parentOf: (org) => org.members[0]!.userId,
  findMany: async (ctx, userIds, _filter, args) => {
    const rows = await Promise.all(
      userIds.map((userId) =>
        ctx.db.organization.findMany({
          ...args,
          where: { AND: [{ members: { some: { userId, disabled: false } } }, args.where] },
          include: { members: { where: { userId }, select: { userId: true } } },
        }),
      ),
    );
    return rows.flat();
  },
  count: async (ctx, userIds) =>
    countsBy(
      await ctx.db.member.groupBy({
        by: ['userId'],
        where: { userId: { in: userIds }, disabled: false },
        _count: { _all: true },
      }),
      'userId',
    ),
};

/** The organizations the viewer belongs to, oldest first. */
export function listViewerOrganizationRecords(ctx: RequestContext, query: unknown): Promise<Page<OrganizationRecord>> {
  const viewer = requireViewer(ctx);
  const params = parseInput(ListOrganizationsQuery, query, 'query');
  return listChildren(ctx, organizationsOfUser, viewer.id, null, pageRequestOf(params));
}

export async function listViewerOrganizations(ctx: RequestContext, query: unknown): Promise<Page<OrganizationJSON>> {
  return mapPage(await listViewerOrganizationRecords(ctx, query), (org) => presentOrganizationRecord(ctx, org));
}

/**
 * Organizations with this email domain. Users may discover every organization of
 * their own email domain (to join it); for other domains, only their own.
 */
export async function listOrganizationRecordsForEmailDomain(ctx: RequestContext, domain: string): Promise<OrganizationRecord[]> {
  const viewer = requireViewer(ctx);
  const parsed = parseInput(emailDomain, domain, 'emailDomain');
  const ownDomain = viewer.email.toLowerCase().split('@')[1] === parsed;
  const orgs = await ctx.db.organization.findMany({
    where: {
      emailDomains: { some: { domain: parsed } },
      ...(ownDomain ? {} : { members: { some: { userId: viewer.id, disabled: false } } }),
    },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  for (const org of orgs) loader(ctx, organizationRecords).prime(org.id, org);
  return orgs;
}

export async function listOrganizationsForEmailDomain(ctx: RequestContext, domain: string) {
  const orgs = await listOrganizationRecordsForEmailDomain(ctx, domain);
  return { organizations: await Promise.all(orgs.map((org) => presentOrganizationRecord(ctx, org))) };
}

export async function updateOrganization(ctx: RequestContext, organizationId: string, body: unknown) {
  const { access } = await visibleOrganization(ctx, organizationId);
  const input = parseInput(UpdateOrganizationInput, body);
  authorize(access.role === 'admin', 'update this organization');
  if (input.defaultContent) {
    const site = await ctx.db.site.findFirst({ where: { id: input.defaultContent.site, organizationId }, select: { id: true } });
    if (!site) throw invalid(`defaultContent.site: site "${input.defaultContent.site}" does not exist in this organization`);
  }
  const audit: AuditFacts = {
    action: 'organization.update',
    organizationId,
    target: { type: 'organization', id: organizationId },
    payload: { fields: Object.keys(input).filter((key) => input[key as keyof typeof input] !== undefined) },
  };
  await inTransaction(ctx, audit, async (tx) => {
    await tx.db.organization.update({
      where: { id: organizationId },
      data: {
        title: input.title,
        hostname: input.hostname,
        defaultRole: input.defaultRole,
        defaultContentSiteId: input.defaultContent === null ? null : input.defaultContent?.site,
        logo: input.logo,
        sso: input.sso,
        ai: input.ai,
        inviteLinks: input.inviteLinks,
        mergeRules: input.mergeRules,
        ...(input.emailDomains
          ? {
              emailDomains: {
                deleteMany: {},
                create: [...new Set(input.emailDomains)].map((domain) => ({ domain })),
              },
            }
          : {}),
      },
    });
  });
  return getOrganization(ctx, organizationId);
}

/**
 * Serializes changes to an organization's membership within the current
 * transaction: the organization row stays locked until it ends (on SQLite,
 * the write lock already does this).
 */
export async function lockOrganization(tx: RequestContext, organizationId: string): Promise<void> {
  await tx.db.$executeRaw`UPDATE organizations SET "updatedAt" = "updatedAt" WHERE id = ${organizationId}`;
}
