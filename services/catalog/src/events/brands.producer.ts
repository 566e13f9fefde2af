import { enqueueEvent } from '@lockdrop/bus';
import { createEvent, type PublicBrand } from '@lockdrop/contracts';
import type { Queryable } from '@lockdrop/db';

/** The saved brand, in the transaction that saved it (the gateway drops that seller's kept reads). */
export function enqueueBrandUpdated(
  tx: Queryable,
  sellerId: string,
  brand: PublicBrand,
  correlationId: string,
): Promise<void> {
  return enqueueEvent(
    tx,
    createEvent('store.brand_updated', { sellerId, brand }, { correlationId }),
  );
}
