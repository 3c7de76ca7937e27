import type { AuditEventRecord } from '../../db/index.ts';
import { type AuditEventActionJSON, type AuditEventJSON, presentAuditEvent, presentAuditEventDetails } from '../../domain/audit/presenter.ts';
import { listAuditEventActions, listAuditEventRecords } from '../../domain/audit/service.ts';
import { builder } from '../builder.ts';
import { connectionQuery, toConnection } from '../connection.ts';
import { restEnum, urlsObject } from './common.ts';
import { Organization } from './organization.ts';

/**
 * The audit log of an organization (REST `/v1/orgs/{organizationId}/audit-events`):
 * its admins read it, through the same domain service; each event also carries
 * what REST's single event adds (its request, token, address and facts).
 */

const AuditActorType = restEnum<AuditEventJSON['actor']['type']>('AuditActorType', 'Who made a recorded write (REST `actor.type`)', {
  user: 'A user, through a token or a session',
  integration: 'An integration (never here: this server has none)',
  installation: 'An integration installation (never here: this server has none)',
  system: 'docs-gateway itself: a job, or the command line without a user',
  support: 'Support staff (never here)',
});

const AuditSource = restEnum<AuditEventJSON['source']>('AuditEventSource', 'Where a recorded write came from (REST `source`)', {
  ui: 'The web application (never here: it has none of its own)',
  api: 'The REST or the GraphQL API',
  integration: 'An integration (never here: this server has none)',
  webhook: 'A webhook (never here)',
  workflow: 'A background job working for a user',
  script: 'The command line, or a job without a user',
  support: 'Support staff (never here)',
});

const AuditActor = builder.objectRef<AuditEventJSON['actor']>('AuditEventActor').implement({
  description: 'Who made a recorded write',
  fields: (t) => ({
    type: t.field({ type: AuditActorType, description: 'user or system', resolve: (actor) => actor.type }),
    id: t.exposeString('id', { description: 'The user id, or "docs-gateway" for the system' }),
    label: t.string({ nullable: true, description: 'Their name when the event was recorded; null when none', resolve: (actor) => actor.label ?? null }),
  }),
});

const AuditTarget = builder.objectRef<AuditEventJSON['target']>('AuditEventTarget').implement({
  description: 'What a recorded write changed',
  fields: (t) => ({
    type: t.exposeString('type', { description: 'Its kind: space, change-request, member, site...' }),
    id: t.exposeString('id', { description: 'Its id' }),
    label: t.string({
      nullable: true,
      description: 'Its title or name when the event was recorded; null when none',
      resolve: (target) => target.label ?? null,
    }),
  }),
});

const AuditEventUrls = urlsObject('AuditEventUrls', ['location']);

const AuditEvent = builder.objectRef<AuditEventRecord>('AuditEvent').implement({
  description: 'One write in an organization: who, what, when and from where (REST `AuditEvent`, and `AuditEventDetails` for its request and facts)',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Its id (a UUID): the same in REST and GraphQL' }),
    object: t.string({ description: 'Always "audit-event" (the REST `object`)', resolve: () => 'audit-event' }),
    occurredAt: t.field({ type: 'DateTime', description: 'When the write was made', resolve: (row) => row.occurredAt.toISOString() }),
    action: t.exposeString('action', { description: 'What was done, as `<target>.<verb>` (the list: auditEventActions)' }),
    actor: t.field({ type: AuditActor, description: 'Who did it', resolve: (row, _args, ctx) => presentAuditEvent(row, ctx.urls).actor }),
    source: t.field({ type: AuditSource, description: 'Where it came from', resolve: (row) => row.source as AuditEventJSON['source'] }),
    target: t.field({ type: AuditTarget, description: 'What it changed', resolve: (row, _args, ctx) => presentAuditEvent(row, ctx.urls).target }),
    correlationId: t.string({
      nullable: true,
      description: 'The id of the request it came from (events of one request share it); null when none (REST: the single event only)',
      resolve: (row) => row.correlationId,
    }),
    schemaVersion: t.int({
      description: 'Version of the payload (REST: the single event only)',
      resolve: (row, _args, ctx) => presentAuditEventDetails(row, ctx.urls).schemaVersion,
    }),
    payload: t.field({
      type: 'JSON',
      description: "The action's facts, with the API token (its id), address and user agent of the request when known (REST: the single event only)",
      resolve: (row, _args, ctx) => presentAuditEventDetails(row, ctx.urls).payload,
    }),
    urls: t.field({ type: AuditEventUrls, description: 'Its address in this REST API', resolve: (row, _args, ctx) => presentAuditEvent(row, ctx.urls).urls }),
  }),
});

const AuditEventAction = builder.objectRef<AuditEventActionJSON>('AuditEventAction').implement({
  description: 'An action the audit log records (REST `AuditEventAction`)',
  fields: (t) => ({
    object: t.exposeString('object', { description: 'Always "audit-event-action" (the REST `object`)' }),
    id: t.exposeString('id', { description: 'The action, as events name it (`space.update`...)' }),
    label: t.exposeString('label', { description: 'What it means, in words' }),
  }),
});

builder.objectFields(Organization, (t) => ({
  auditEvents: t.connection({
    type: AuditEvent,
    description:
      'Every write in the organization, newest first, 20 a page unless first or last says otherwise (REST `/v1/orgs/{organizationId}/audit-events`; admins)',
    args: {
      from: t.arg({ type: 'DateTime', description: 'Only those at or after this time' }),
      to: t.arg({ type: 'DateTime', description: 'Only those at or before this time (not before from)' }),
      action: t.arg.string({ description: 'Only those of this action (`space.update`...)' }),
      actor: t.arg.string({ description: 'Only those by this actor (a user id, or "docs-gateway")' }),
      target: t.arg.string({ description: 'Only those that changed this object (its id)' }),
    },
    resolve: async (organization, args, ctx) => toConnection(await listAuditEventRecords(ctx, organization.id, connectionQuery(args))),
  }),
  auditEventActions: t.field({
    type: [AuditEventAction],
    description: 'The actions audit events record, with their labels (REST `/v1/orgs/{organizationId}/audit-event-actions`; admins)',
    resolve: async (organization, _args, ctx) => (await listAuditEventActions(ctx, organization.id)).items,
  }),
}));
