import { randomUUID } from 'node:crypto';
import type { AuditEntry, RequestContext } from '../../context.ts';
import type { AuditAction } from './actions.ts';

/**
 * The audit log: every write names what it did (an action of ./actions.ts, its
 * target, its organization) with `auditWrite`, inside its transaction, as it
 * announces events. `inTransaction` (src/domain/transaction.ts) inserts the
 * entries at the end of the same transaction, with who (the viewer and the
 * token), when (the transaction's clock) and from where (the request's origin):
 * a write that rolls back records nothing, one that commits is never missing.
 */

export interface AuditFacts extends AuditEntry {
  action: AuditAction;
}

/** Records a write of the current transaction in the audit log (inserted when the transaction ends). */
export function auditWrite(tx: RequestContext, facts: AuditFacts): void {
  if (!tx.pendingAudit) throw new Error(`auditWrite(${facts.action}) outside a transaction: the write and its record must commit together`);
  tx.pendingAudit.push(facts);
}

/** A change request as an audit target. */
export function changeRequestTarget(changeRequest: { id: string; number: number; subject: string }) {
  return { type: 'change-request', id: changeRequest.id, label: `#${changeRequest.number} ${changeRequest.subject}`.trim() };
}

/** A space as an audit target. */
export function spaceTarget(space: { id: string; title: string }) {
  return { type: 'space', id: space.id, label: space.title };
}

/** Actor id of writes made by docs-gateway itself (jobs, the CLI), when no user is behind them. */
export const SYSTEM_ACTOR = 'docs-gateway';

/** Inserts a transaction's audit entries, in that transaction (called by inTransaction). */
export async function writeAuditEntries(tx: RequestContext, entries: AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const origin = tx.origin;
  const user = tx.viewer?.user;
  const now = tx.clock.now();
  await tx.db.auditEvent.createMany({
    data: entries.map((entry) => {
      const actor = user ? { id: user.id, label: user.displayName } : entry.actor;
      return {
        id: randomUUID(),
        organizationId: entry.organizationId,
        occurredAt: now,
        action: entry.action,
        actorType: actor ? 'user' : 'system',
        actorId: actor?.id ?? SYSTEM_ACTOR,
        actorLabel: actor?.label ?? null,
        tokenId: tx.viewer?.tokenId ?? null,
        source: origin?.source ?? (actor ? 'workflow' : 'script'),
        targetType: entry.target.type,
        targetId: entry.target.id,
        targetLabel: entry.target.label?.slice(0, 256) ?? null,
        address: origin?.address ?? null,
        userAgent: origin?.userAgent?.slice(0, 512) ?? null,
        correlationId: origin?.requestId ?? null,
        payload: (entry.payload ?? {}) as object,
      };
    }),
  });
}
