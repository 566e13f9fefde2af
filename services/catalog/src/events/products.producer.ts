import { enqueueEvent } from '@lockdrop/bus';
import { createEvent } from '@lockdrop/contracts';
import type { Queryable } from '@lockdrop/db';
import { snapshotOf, type Product, type ProductFile } from '../domain/product.js';

type SnapshotEvent =
  'product.created' | 'product.updated' | 'product.published' | 'product.unpublished';

/** Enqueues the product's full snapshot in the caller's transaction (the change and its event commit together). */
export function enqueueProductEvent(
  tx: Queryable,
  type: SnapshotEvent,
  product: Product,
  correlationId: string,
): Promise<void> {
  return enqueueEvent(tx, createEvent(type, snapshotOf(product), { correlationId }));
}

export function enqueueProductDeleted(
  tx: Queryable,
  product: Product,
  correlationId: string,
): Promise<void> {
  return enqueueEvent(
    tx,
    createEvent(
      'product.deleted',
      { productId: product.id, ownerId: product.ownerId },
      { correlationId },
    ),
  );
}

/** Files `product` gained in this change; `notifyBuyers` asks payments to e-mail its past buyers. */
export function enqueueFilesAdded(
  tx: Queryable,
  product: Product,
  added: ProductFile[],
  notifyBuyers: boolean,
  correlationId: string,
): Promise<void> {
  return enqueueEvent(
    tx,
    createEvent(
      'product.files_added',
      {
        productId: product.id,
        ownerId: product.ownerId,
        productTitle: product.title,
        files: added.map((file) => ({ fileId: file.fileId, fileName: file.fileName })),
        notifyBuyers,
      },
      { correlationId },
    ),
  );
}
