import type { DomainEvent } from '@lockdrop/contracts';
import type { PoolClient } from '@lockdrop/db';
import {
  addDailyRevenue,
  addDailyTestSale,
  findRefundedAt,
  findSale,
  incrementDaily,
  insertRefund,
  insertSale,
  lockPurchase,
  recordRawEvent,
  recordVisitor,
  type SaleRow,
} from '../db/activity.repo.js';
import { utcDay } from './period.js';

/**
 * How each activity event changes the rollups. Each runs inside the consumer's transaction,
 * at most once per event id; the sale and visitor keys also make a second event about the same
 * purchase or visit change nothing.
 */

export async function ingestView(
  event: DomainEvent<'product.viewed'>,
  tx: PoolClient,
): Promise<void> {
  const { productId, visitorId, day } = event.data;
  await recordRawEvent(tx, event, productId);
  if (await recordVisitor(tx, productId, visitorId, day))
    await incrementDaily(tx, productId, day, 'views');
}

export async function ingestCheckoutStarted(
  event: DomainEvent<'checkout.started'>,
  tx: PoolClient,
): Promise<void> {
  await recordRawEvent(tx, event, event.data.productId);
  await incrementDaily(tx, event.data.productId, utcDay(event.occurredAt), 'checkouts_started');
}

export async function ingestDownload(
  event: DomainEvent<'download.completed'>,
  tx: PoolClient,
): Promise<void> {
  await recordRawEvent(tx, event, event.data.productId);
  await incrementDaily(tx, event.data.productId, utcDay(event.occurredAt), 'downloads');
}

/** A refund reverses exactly what the seller earned on the sale (payments mirrors the whole journal). */
async function applyRefund(tx: PoolClient, sale: SaleRow, refundedAt: string): Promise<void> {
  const day = utcDay(refundedAt);
  if (sale.testMode) {
    const { productId, currency } = sale;
    await addDailyTestSale(tx, { productId, day, currency, sales: 0, refunds: 1, grossMinor: 0 });
    return;
  }
  await incrementDaily(tx, sale.productId, day, 'refunds');
  await addDailyRevenue(tx, {
    productId: sale.productId,
    day,
    currency: sale.currency,
    grossMinor: 0,
    earningsMinor: 0,
    refundedEarningsMinor: sale.earningsMinor,
  });
}

export async function ingestPurchasePaid(
  event: DomainEvent<'purchase.paid'>,
  tx: PoolClient,
): Promise<void> {
  const paid = event.data;
  await lockPurchase(tx, paid.purchaseId);
  await recordRawEvent(tx, event, paid.productId);
  const sale: SaleRow = {
    productId: paid.productId,
    currency: paid.currency,
    earningsMinor: paid.sellerEarningsMinor,
    testMode: paid.testMode ?? false,
  };
  if (!(await insertSale(tx, { ...sale, purchaseId: paid.purchaseId, paidAt: paid.paidAt })))
    return;
  const day = utcDay(paid.paidAt);
  if (sale.testMode) {
    // No real money moved: a test sale is shown as one, never added to sales or revenue.
    await addDailyTestSale(tx, {
      productId: sale.productId,
      day,
      currency: sale.currency,
      sales: 1,
      refunds: 0,
      grossMinor: paid.amountMinor,
    });
  } else {
    await incrementDaily(tx, paid.productId, day, 'sales');
    await addDailyRevenue(tx, {
      productId: sale.productId,
      currency: sale.currency,
      earningsMinor: sale.earningsMinor,
      day,
      grossMinor: paid.amountMinor,
      refundedEarningsMinor: 0,
    });
  }
  // The refund's consumer got there first and left the reversal to us.
  const refundedAt = await findRefundedAt(tx, paid.purchaseId);
  if (refundedAt) await applyRefund(tx, sale, refundedAt);
}

export async function ingestPurchaseRefunded(
  event: DomainEvent<'purchase.refunded'>,
  tx: PoolClient,
): Promise<void> {
  const refund = event.data;
  await lockPurchase(tx, refund.purchaseId);
  await recordRawEvent(tx, event, refund.productId);
  const inserted = await insertRefund(tx, {
    purchaseId: refund.purchaseId,
    productId: refund.productId,
    refundedAt: refund.refundedAt,
  });
  if (!inserted) return;
  const sale = await findSale(tx, refund.purchaseId);
  if (sale) await applyRefund(tx, sale, refund.refundedAt);
}
