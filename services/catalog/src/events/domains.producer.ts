import { enqueueEvent } from '@lockdrop/bus';
import { createEvent, type EventData } from '@lockdrop/contracts';
import type { Queryable } from '@lockdrop/db';

/** A domain's new state, in the transaction that set it (the gateway drops what it kept). */
export function enqueueDomainUpdated(
  tx: Queryable,
  update: EventData<'store.domain_updated'>,
  correlationId: string,
): Promise<void> {
  return enqueueEvent(tx, createEvent('store.domain_updated', update, { correlationId }));
}
