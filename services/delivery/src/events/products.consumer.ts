import type { Bus, Subscription } from '@lockdrop/bus';
import {
  productSnapshotEventTypes,
  type DomainEvent,
  type EventType,
  type ProductSnapshotEventType,
} from '@lockdrop/contracts';
import type { Pool, PoolClient } from '@lockdrop/db';
import { disablePreview, removePreview, requestRender } from '../db/previews.repo.js';
import { applyProductSnapshot, markProductDeleted, type ProductView } from '../db/products.repo.js';
import type { ObjectStorage } from '../storage/storage.js';

type SnapshotEvent = DomainEvent<ProductSnapshotEventType>;

/** A new render is due when the file or the preview settings changed, not on publish/unpublish. */
function previewChanged(before: ProductView | null, after: SnapshotEvent['data']): boolean {
  return (
    !before ||
    before.deleted ||
    before.fileId !== after.fileId ||
    before.previewEnabled !== after.previewEnabled ||
    before.blurPercentage !== after.previewBlurPercentage
  );
}

async function applySnapshot(event: SnapshotEvent, tx: PoolClient): Promise<void> {
  const product = event.data;
  const { applied, before } = await applyProductSnapshot(tx, product, event.occurredAt);
  if (!applied || !previewChanged(before, product)) return;
  const request = {
    productId: product.productId,
    fileId: product.fileId,
    blurPercentage: product.previewBlurPercentage,
    correlationId: event.correlationId,
  };
  if (product.previewEnabled) await requestRender(tx, request);
  else await disablePreview(tx, request);
}

async function applyDeletion(
  event: DomainEvent<'product.deleted'>,
  tx: PoolClient,
  storage: ObjectStorage,
): Promise<void> {
  await markProductDeleted(tx, event.data.productId, event.data.ownerId, event.occurredAt);
  const objectKey = await removePreview(tx, event.data.productId);
  // Before commit: if the commit then fails, the redelivered event finds the row again and retries.
  if (objectKey) await storage.delete(objectKey);
}

/** Keeps delivery's product read model and the preview queue in step with catalog. */
export async function subscribeToProductEvents({
  bus,
  pool,
  storage,
}: {
  bus: Bus;
  pool: Pool;
  storage: ObjectStorage;
}): Promise<Subscription[]> {
  const consumerFor = (type: EventType) => `delivery.${type.replace('product.', 'products-')}`;
  return Promise.all([
    ...productSnapshotEventTypes.map((type) =>
      bus.subscribe({
        consumer: consumerFor(type),
        filter: type,
        pool,
        handler: (event, tx) => applySnapshot(event, tx),
      }),
    ),
    bus.subscribe({
      consumer: consumerFor('product.deleted'),
      filter: 'product.deleted',
      pool,
      handler: (event, tx) => applyDeletion(event, tx, storage),
    }),
  ]);
}
