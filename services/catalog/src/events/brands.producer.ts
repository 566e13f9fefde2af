import type { AuthUser } from '@lockdrop/auth';
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

/**
 * Who saved the brand and from where, for the store's one audit log (issue 28): the person — a
 * member acting for the store is named, not the store — in the transaction that saved it.
 */
export function enqueueBrandSaved(
  tx: Queryable,
  user: AuthUser,
  brand: { handle: string; name: string; accentColour: string | null; logoId: string | null },
  client: { ip: string | null; userAgent: string | null } | null,
  correlationId: string,
): Promise<void> {
  return enqueueEvent(
    tx,
    createEvent(
      'audit.catalog_action',
      {
        storeId: user.id,
        actorId: user.actor?.id ?? user.id,
        action: 'brand.updated',
        target: brand.handle,
        details: {
          handle: brand.handle,
          name: brand.name,
          accentColour: brand.accentColour,
          logoId: brand.logoId,
        },
        ip: client?.ip ?? null,
        userAgent: client?.userAgent?.slice(0, 512) ?? null,
      },
      { correlationId },
    ),
  );
}
