import type { PublicUrls } from '../../config.ts';
import type { AuditEventRecord } from '../../db/index.ts';
import type { Api, Wire } from '../shared/api-types.ts';

export type AuditEventJSON = Wire<Api.AuditEvent>;
export type AuditEventDetailsJSON = Wire<Api.AuditEventDetails>;
export type AuditEventActionJSON = Wire<Api.AuditEventAction>;

/** Version of the payloads the actions record. */
export const AUDIT_SCHEMA_VERSION = 1;

export function auditEventLocation(row: Pick<AuditEventRecord, 'id' | 'organizationId'>, urls: PublicUrls): string {
  return `${urls.api}/v1/orgs/${row.organizationId}/audit-events/${row.id}`;
}

export function presentAuditEvent(row: AuditEventRecord, urls: PublicUrls): AuditEventJSON {
  return {
    object: 'audit-event',
    id: row.id,
    occurredAt: row.occurredAt.toISOString(),
    action: row.action,
    actor: { type: row.actorType as AuditEventJSON['actor']['type'], id: row.actorId, ...(row.actorLabel ? { label: row.actorLabel } : {}) },
    source: row.source as AuditEventJSON['source'],
    target: { type: row.targetType, id: row.targetId, ...(row.targetLabel ? { label: row.targetLabel } : {}) },
    urls: { location: auditEventLocation(row, urls) },
  };
}

/**
 * One event in full: the request it came from (`correlationId`, its request id),
 * and a payload of the action's facts with where it came from — the API token
 * (its id), the client's address and user agent.
 */
export function presentAuditEventDetails(row: AuditEventRecord, urls: PublicUrls): AuditEventDetailsJSON {
  const payload = (row.payload ?? {}) as Record<string, unknown>;
  return {
    ...presentAuditEvent(row, urls),
    ...(row.correlationId ? { correlationId: row.correlationId } : {}),
    schemaVersion: AUDIT_SCHEMA_VERSION,
    payload: {
      ...payload,
      ...(row.tokenId ? { token: row.tokenId } : {}),
      ...(row.address ? { address: row.address } : {}),
      ...(row.userAgent ? { userAgent: row.userAgent } : {}),
    },
  };
}
