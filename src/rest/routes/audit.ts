import { ListAuditEventsQuery } from '../../domain/audit/inputs.ts';
import { getAuditEvent, listAuditEventActions, listAuditEvents } from '../../domain/audit/service.ts';
import { restList } from '../../lib/pagination.ts';
import { route } from '../route.ts';

const tag = 'Audit log';

export const auditRoutes = [
  route({
    method: 'GET',
    path: '/v1/orgs/{organizationId}/audit-event-actions',
    operationId: 'listOrganizationAuditEventActions',
    summary: 'The actions audit events record, with their labels (admins)',
    tag,
    status: 200,
    response: 'AuditEventActions',
    handler: (ctx, { params }) => listAuditEventActions(ctx, params.organizationId!),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/{organizationId}/audit-events',
    operationId: 'listOrganizationAuditEvents',
    summary:
      'Every write in the organization, newest first: by time (`from`, `to`), `action`, `actor` and `target`; 20 a page unless `limit` (up to 100) says otherwise (admins)',
    tag,
    query: ListAuditEventsQuery,
    status: 200,
    response: 'AuditEvent',
    list: true,
    handler: async (ctx, { params, query }) => restList(await listAuditEvents(ctx, params.organizationId!, query)),
  }),
  route({
    method: 'GET',
    path: '/v1/orgs/{organizationId}/audit-events/{auditEventId}',
    operationId: 'getOrganizationAuditEvent',
    summary: 'One audit event in full: its request, API token, address and user agent, and the facts of its action (admins)',
    tag,
    status: 200,
    response: 'AuditEventDetails',
    handler: (ctx, { params }) => getAuditEvent(ctx, params.organizationId!, params.auditEventId!),
  }),
];
