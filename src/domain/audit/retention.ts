import type { JobKind, RequestContext } from '../../context.ts';

/** Audit events are kept this many days unless AUDIT_RETENTION_DAYS says otherwise (0: for ever). */
export const DEFAULT_AUDIT_RETENTION_DAYS = 365;

/** Deletes the audit events older than the retention period; how many. */
export async function purgeAuditEvents(ctx: Pick<RequestContext, 'db' | 'clock'>, retentionDays: number): Promise<number> {
  if (retentionDays <= 0) return 0;
  const cutoff = new Date(ctx.clock.now().getTime() - retentionDays * 24 * 60 * 60 * 1000);
  const { count } = await ctx.db.auditEvent.deleteMany({ where: { occurredAt: { lt: cutoff } } });
  return count;
}

/** The periodic job behind the retention (queued at PURGE_INTERVAL_SECONDS, src/jobs/background.ts). */
export const auditRetentionJob: JobKind = {
  name: 'purge-audit-events',
  retryLimit: 3,
  timeoutSeconds: 600,
  run: async (ctx) => ({ purged: await purgeAuditEvents(ctx, ctx.auditRetentionDays ?? DEFAULT_AUDIT_RETENTION_DAYS) }),
  idle: (output) => output.purged === 0,
};
