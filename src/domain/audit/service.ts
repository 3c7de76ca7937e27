import type { RequestContext } from '../../context.ts';
import type { AuditEventRecord } from '../../db/index.ts';
import { invalid, notFound } from '../../errors.ts';
import { type Ordering, type Page, pageRequestOf } from '../../lib/pagination.ts';
import { parseInput } from '../../lib/validation.ts';
import { authorize } from '../access.ts';
import { visibleOrganization } from '../organizations/service.ts';
import { type ChildListing, countsBy, listChildren, mapPage } from '../shared/pages.ts';
import { AUDIT_ACTIONS } from './actions.ts';
import { ListAuditEventsQuery } from './inputs.ts';
import { type AuditEventActionJSON, type AuditEventDetailsJSON, type AuditEventJSON, presentAuditEvent, presentAuditEventDetails } from './presenter.ts';

/**
 * Reading the audit log: an organization's admins only (others get a 403;
 * non-members a 404, as for the organization itself). Newest first, filtered
 * by time, action, actor and target, paged with keyset tokens.
 */

async function adminOrganization(ctx: RequestContext, organizationId: string): Promise<void> {
  const { access } = await visibleOrganization(ctx, organizationId);
  authorize(access.role === 'admin', 'read the audit log of this organization (admins only)');
}

interface AuditFilter {
  from?: Date | undefined;
  to?: Date | undefined;
  action?: string | undefined;
  actor?: string | undefined;
  target?: string | undefined;
}

const newestFirst: Ordering<AuditEventRecord> = {
  name: 'audit-events',
  keys: [
    { field: 'occurredAt', direction: 'desc', type: 'date', value: (row) => row.occurredAt },
    { field: 'id', direction: 'desc', type: 'string', value: (row) => row.id },
  ],
};

const auditWhere = (filter: AuditFilter) => ({
  ...(filter.from || filter.to ? { occurredAt: { ...(filter.from ? { gte: filter.from } : {}), ...(filter.to ? { lte: filter.to } : {}) } } : {}),
  ...(filter.action ? { action: filter.action } : {}),
  ...(filter.actor ? { actorId: filter.actor } : {}),
  ...(filter.target ? { targetId: filter.target } : {}),
});

const eventsOfOrganization: ChildListing<AuditEventRecord, AuditFilter> = {
  name: 'organization-audit-events',
  ordering: () => newestFirst,
  parentOf: (row) => row.organizationId,
  findMany: (ctx, ids, filter, args) =>
    ctx.db.auditEvent.findMany({ ...args, where: { AND: [{ organizationId: { in: ids }, ...auditWhere(filter) }, args.where] } }),
  count: async (ctx, ids, filter) =>
    countsBy(
      await ctx.db.auditEvent.groupBy({ by: ['organizationId'], where: { organizationId: { in: ids }, ...auditWhere(filter) }, _count: { _all: true } }),
      'organizationId',
    ),
};

export async function listAuditEventRecords(ctx: RequestContext, organizationId: string, query: unknown): Promise<Page<AuditEventRecord>> {
  const { from, to, action, actor, target, ...paging } = parseInput(ListAuditEventsQuery, query, 'query');
  if (from && to && from > to) throw invalid('from: must not be after to');
  await adminOrganization(ctx, organizationId);
  // Backward too, a page is `limit` (20) unless `last` says otherwise.
  const request = pageRequestOf(paging.before !== undefined && paging.last === undefined ? { ...paging, last: paging.limit } : paging);
  return listChildren(ctx, eventsOfOrganization, organizationId, { from, to, action, actor, target }, request);
}

export async function listAuditEvents(ctx: RequestContext, organizationId: string, query: unknown): Promise<Page<AuditEventJSON>> {
  return mapPage(await listAuditEventRecords(ctx, organizationId, query), (row) => presentAuditEvent(row, ctx.urls));
}

export async function auditEventRecord(ctx: RequestContext, organizationId: string, auditEventId: string): Promise<AuditEventRecord> {
  await adminOrganization(ctx, organizationId);
  const row = await ctx.db.auditEvent.findUnique({ where: { id: auditEventId } });
  if (!row || row.organizationId !== organizationId) throw notFound('Audit event', auditEventId);
  return row;
}

export async function getAuditEvent(ctx: RequestContext, organizationId: string, auditEventId: string): Promise<AuditEventDetailsJSON> {
  return presentAuditEventDetails(await auditEventRecord(ctx, organizationId, auditEventId), ctx.urls);
}

export async function listAuditEventActions(ctx: RequestContext, organizationId: string): Promise<{ items: AuditEventActionJSON[] }> {
  await adminOrganization(ctx, organizationId);
  return {
    items: Object.entries(AUDIT_ACTIONS).map(([id, label]) => ({ object: 'audit-event-action' as const, id, label })),
  };
}
