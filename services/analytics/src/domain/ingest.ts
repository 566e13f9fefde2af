import type { DomainEvent } from '@lockdrop/contracts';
import type { PoolClient } from '@lockdrop/db';
import {
  addDailyRevenue,
  addDailyTestSales,
  findRefundedAt,
  findSale,
  incrementDaily,
  insertRefund,
  insertSales,
  lockPurchases,
  recordRawEvents,
  recordVisitors,
  type SaleRow,
} from '../db/activity.repo.js';
import { utcDay } from './period.js';

/**
 * How each activity event changes the rollups. Each runs inside the consumer's transaction,
 * at most once per event id; the sale and visitor keys also make a second event about the same
 * purchase or visit change nothing. Every kind but refunds is ingested a batch at a time, with one
 * statement per table.
 */

const rawEventOf = (event: DomainEvent<EventWithProduct>) => ({
  event,
  productId: event.data.productId,
});
const dailyOccurrence = (event: DomainEvent<EventWithProduct>) => ({
  productId: event.data.productId,
  day: utcDay(event.occurredAt),
});
type EventWithProduct =
  | 'product.viewed'
  | 'checkout.started'
  | 'download.completed'
  | 'purchase.paid'
  | 'purchase.refunded';

export async function ingestViews(
  events: DomainEvent<'product.viewed'>[],
  tx: PoolClient,
): Promise<void> {
  await recordRawEvents(tx, events.map(rawEventOf));
  const firstVisits = await recordVisitors(
    tx,
    events.map((event) => event.data),
  );
  if (firstVisits.length > 0) await incrementDaily(tx, 'views', firstVisits);
}

export async function ingestCheckoutsStarted(
  events: DomainEvent<'checkout.started'>[],
  tx: PoolClient,
): Promise<void> {
  await recordRawEvents(tx, events.map(rawEventOf));
  await incrementDaily(tx, 'checkouts_started', events.map(dailyOccurrence));
}

export async function ingestDownloads(
  events: DomainEvent<'download.completed'>[],
  tx: PoolClient,
): Promise<void> {
  await recordRawEvents(tx, events.map(rawEventOf));
  await incrementDaily(tx, 'downloads', events.map(dailyOccurrence));
}

/**
 * A refund reverses exactly what the seller earned on the sale (payments mirrors the whole
 * journal); a test sale's refund is counted with the test sales, never as a real refund.
 */
async function applyRefunds(
  tx: PoolClient,
  refunds: { sale: SaleRow; refundedAt: string }[],
): Promise<void> {
  const reversals = refunds.map(({ sale, refundedAt }) => ({ sale, day: utcDay(refundedAt) }));
  const live = reversals.filter(({ sale }) => !sale.testMode);
  if (live.length > 0) {
    await incrementDaily(
      tx,
      'refunds',
      live.map(({ sale, day }) => ({ productId: sale.productId, day })),
    );
  }
  await addDailyRevenue(
    tx,
    live.map(({ sale, day }) => ({
      productId: sale.productId,
      day,
      currency: sale.currency,
      grossMinor: 0,
      earningsMinor: 0,
      refundedEarningsMinor: sale.earningsMinor,
    })),
  );
  await addDailyTestSales(
    tx,
    reversals
      .filter(({ sale }) => sale.testMode)
      .map(({ sale, day }) => ({
        productId: sale.productId,
        day,
        currency: sale.currency,
        sales: 0,
        refunds: 1,
        grossMinor: 0,
      })),
  );
}

export async function ingestPurchasesPaid(
  events: DomainEvent<'purchase.paid'>[],
  tx: PoolClient,
): Promise<void> {
  const payments = events.map((event) => event.data);
  await lockPurchases(
    tx,
    payments.map((paid) => paid.purchaseId),
  );
  await recordRawEvents(tx, events.map(rawEventOf));
  const recorded = await insertSales(
    tx,
    payments.map((paid) => ({
      purchaseId: paid.purchaseId,
      productId: paid.productId,
      currency: paid.currency,
      earningsMinor: paid.sellerEarningsMinor,
      paidAt: paid.paidAt,
      testMode: paid.testMode ?? false,
    })),
  );
  // Only the event whose sale row was written counts, once, even when two in this batch are about one payment.
  const sales = payments.filter((paid) => recorded.delete(paid.purchaseId.toLowerCase()));
  if (sales.length === 0) return;
  // No real money moved in a test sale: it is shown as one, never added to sales or revenue.
  const live = sales.filter((paid) => !paid.testMode);
  if (live.length > 0) {
    await incrementDaily(
      tx,
      'sales',
      live.map((paid) => ({ productId: paid.productId, day: utcDay(paid.paidAt) })),
    );
  }
  await addDailyTestSales(
    tx,
    sales
      .filter((paid) => paid.testMode)
      .map((paid) => ({
        productId: paid.productId,
        day: utcDay(paid.paidAt),
        currency: paid.currency,
        sales: 1,
        refunds: 0,
        grossMinor: paid.amountMinor,
      })),
  );
  await addDailyRevenue(
    tx,
    live.map((paid) => ({
      productId: paid.productId,
      day: utcDay(paid.paidAt),
      currency: paid.currency,
      grossMinor: paid.amountMinor,
      earningsMinor: paid.sellerEarningsMinor,
      refundedEarningsMinor: 0,
    })),
  );
  // The refund's consumer got there first and left the reversal to us.
  const refundedAt = await findRefundedAt(
    tx,
    sales.map((paid) => paid.purchaseId),
  );
  const reversals = sales.flatMap((paid) => {
    const at = refundedAt.get(paid.purchaseId.toLowerCase());
    const sale = {
      productId: paid.productId,
      currency: paid.currency,
      earningsMinor: paid.sellerEarningsMinor,
      testMode: paid.testMode ?? false,
    };
    return at ? [{ sale, refundedAt: at }] : [];
  });
  if (reversals.length > 0) await applyRefunds(tx, reversals);
}

export async function ingestPurchaseRefunded(
  event: DomainEvent<'purchase.refunded'>,
  tx: PoolClient,
): Promise<void> {
  const refund = event.data;
  await lockPurchases(tx, [refund.purchaseId]);
  await recordRawEvents(tx, [rawEventOf(event)]);
  const inserted = await insertRefund(tx, {
    purchaseId: refund.purchaseId,
    productId: refund.productId,
    refundedAt: refund.refundedAt,
  });
  if (!inserted) return;
  const sale = await findSale(tx, refund.purchaseId);
  if (sale) await applyRefunds(tx, [{ sale, refundedAt: refund.refundedAt }]);
}
