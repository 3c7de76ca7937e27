import { setTimeout } from 'node:timers/promises';
import { type AuditEntry, type RequestContext, withDb, withoutMembershipSnapshot } from '../context.ts';
import type { Db, Provider } from '../db/index.ts';
import { Prisma } from '../db/index.ts';
import { conflict, unavailable } from '../errors.ts';
import type { DomainEvent } from '../events/event.ts';
import { type AuditFacts, writeAuditEntries } from './audit/record.ts';
import { clearLoaders } from './loaders.ts';
import { sendDeliveriesSoon } from './webhooks/delivery.ts';
import { recordWebhookDeliveries } from './webhooks/outbox.ts';

/**
 * Runs a write in one database transaction: if anything throws, nothing is kept.
 * Afterwards the request's loader caches and the viewer's memberships read at
 * authentication are dropped, so later reads see the write. The events the
 * write emitted (src/domain/events/emit.ts) are published once it committed;
 * those webhooks subscribe to are written to their outbox inside it.
 *
 * Every write says what it does for the audit log (src/domain/audit/): `audit`
 * is the entry (or a function of the work's result, for what it created), or
 * 'recorded-by-work' when the work calls `auditWrite` itself. The entries are
 * inserted last, in the same transaction: kept exactly when the write is.
 */
export async function inTransaction<T>(ctx: RequestContext, audit: AuditOf<T>, work: (tx: RequestContext) => Promise<T>): Promise<T> {
  try {
    for (let attempt = 1; ; attempt++) {
      const events: DomainEvent[] = [];
      let deliveries: string[] = [];
      try {
        const result = await ctx.db.$transaction(
          async (tx) => {
            const entries: AuditEntry[] = [];
            const txContext = { ...withDb(ctx, tx as unknown as Db), pendingEvents: events, pendingAudit: entries };
            const value = await work(txContext);
            if (audit !== 'recorded-by-work') entries.push(...[typeof audit === 'function' ? audit(value) : audit].flat());
            await writeAuditEntries(txContext, entries);
            // The webhook outbox, in the same transaction: committed with the write, or not at all.
            deliveries = events.length > 0 ? await recordWebhookDeliveries(txContext, events) : [];
            return value;
          },
          { timeout: 15_000 },
        );
        for (const event of events) ctx.events?.publish(event);
        sendDeliveriesSoon(ctx, deliveries);
        return result;
      } catch (error) {
        if (attempt >= WRITE_CONFLICT_ATTEMPTS || !isWriteConflict(error)) throw error;
        // Rolled back entirely: the transaction runs again from its start, after the other one had time to end.
        clearLoaders(ctx);
        await setTimeout(10 * attempt + Math.random() * 20 * attempt);
      }
    }
  } catch (error) {
    throw translateConstraintError(error);
  } finally {
    clearLoaders(ctx);
    ctx.viewer = withoutMembershipSnapshot(ctx.viewer);
  }
}

/** What a write records in the audit log: its entry, the entries of its result, or those its work records. */
export type AuditOf<T> = AuditFacts | AuditFacts[] | ((result: T) => AuditFacts | AuditFacts[]) | 'recorded-by-work';

/**
 * How many times a transaction runs when PostgreSQL chose it as the victim of a
 * deadlock or a serialization failure: the cure its manual prescribes is to run
 * it again. Its reads are read again, its file writes are by digest (idempotent).
 */
const WRITE_CONFLICT_ATTEMPTS = 3;

function isWriteConflict(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2034';
}

/**
 * Constraint violations a client can provoke (usually by racing another write)
 * are conflicts, not server errors: name the field when the driver tells it.
 */
export function translateConstraintError(error: unknown): unknown {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return error;
  const meta = error.meta as { modelName?: string; driverAdapterError?: { cause?: ConstraintCause } };
  switch (error.code) {
    case 'P2002': {
      const fields = uniqueFields(meta?.driverAdapterError?.cause);
      return conflict(`${fields?.length ? fields.join(', ') : 'value'}: already used by another ${meta?.modelName ?? 'resource'}`);
    }
    case 'P2003':
      return conflict('A resource this request refers to was removed meanwhile');
    case 'P2025':
      return conflict(`The ${meta?.modelName ?? 'resource'} was changed or removed meanwhile`);
    case 'P2034':
      // A deadlock or a serialization failure (PostgreSQL): nothing was written, and the same request may succeed.
      return unavailable('The write met another one at the same moment and was not made: try again');
    default:
      return error;
  }
}

type ConstraintCause = { constraint?: { fields?: string[]; index?: string }; table?: string };

/**
 * The fields of a violated unique constraint. The SQLite adapter names them; the
 * PostgreSQL one names the index, `<table>_<field>[_<field>…]_key` as Prisma
 * Migrate names the indexes of `@unique` and `@@unique` (our fields are camelCase).
 */
function uniqueFields(cause: ConstraintCause | undefined): string[] | undefined {
  if (cause?.constraint?.fields?.length) return cause.constraint.fields;
  const { index } = cause?.constraint ?? {};
  const table = cause?.table;
  if (!index || !table || !index.startsWith(`${table}_`) || !index.endsWith('_key')) return undefined;
  return index.slice(table.length + 1, -'_key'.length).split('_');
}

/**
 * Serializes the transactions that call it with the same key until they end:
 * a transaction-scoped advisory lock on PostgreSQL; on SQLite the database write
 * lock, taken by a write that changes nothing. Call it first in the transaction:
 * on SQLite a read before it could turn two waiting writers into a deadlock.
 */
export async function serializeOn(db: Db, provider: Provider, key: string): Promise<void> {
  if (provider === 'postgresql') {
    await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${key}))`;
  } else {
    await db.$executeRaw`UPDATE _docs_gateway_migrations SET name = name WHERE 0`;
  }
}
