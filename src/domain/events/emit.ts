import type { RequestContext } from '../../context.ts';
import type { DomainEvent } from '../../events/event.ts';
import { newId } from '../../lib/ids.ts';

/** What a service says happened; the id, time and actor are filled in here. */
export type EventFacts = Omit<DomainEvent, 'id' | 'at' | 'actorId'>;

/**
 * Announces a change. Inside a transaction (`inTransaction`) the event waits for
 * the commit and is dropped with a rollback; outside one, the write is already
 * committed and it goes out at once.
 */
export function emitEvent(ctx: RequestContext, facts: EventFacts): void {
  const event: DomainEvent = {
    ...facts,
    id: newId('event'),
    at: ctx.clock.now().toISOString(),
    ...(ctx.viewer ? { actorId: ctx.viewer.user.id } : {}),
  };
  if (ctx.pendingEvents) ctx.pendingEvents.push(event);
  else ctx.events?.publish(event);
}

/** A space went to another organization: the one it joined hears it moved in, the one it left that it went. */
export function emitSpaceTransfer(ctx: RequestContext, spaceId: string, fromOrganizationId: string, toOrganizationId: string): void {
  emitEvent(ctx, { kind: 'space.moved', organizationId: toOrganizationId, spaceId, subjectId: spaceId, data: { fromOrganizationId } });
  emitEvent(ctx, { kind: 'space.transferred_out', organizationId: fromOrganizationId, spaceId, subjectId: spaceId, data: { toOrganizationId } });
}
