import { enqueueEvents } from '@lockdrop/bus';
import { createEvent, type DomainEvent, type EventData } from '@lockdrop/contracts';
import type { PoolClient } from '@lockdrop/db';
import { enqueueMails, type MailMessage } from '@lockdrop/mailer';
import { splitSale } from '@lockdrop/plans';
import { setCheckoutsStatus, type ProductCheckout } from './checkouts.repository.js';
import { postJournals, type NewJournal } from '../ledger/index.js';
import { insertPurchases, type NewPurchase } from './purchases.repository.js';
import type { PaymentProvider, VerifiedTransaction } from '../../providers/types.js';
import { paymentJournal } from '../ledger/index.js';
import { buyerLinkOrigin, emailBrand } from '../read-models/index.js';
import { newReceiptToken, receiptEmail } from './receipts.js';
import { findSellersForSales, saleEmailFor, type SellerForSale } from './sale-emails.js';
import { recordSaleDigests, type SaleDigestEntry } from './sale-digests.js';

/** What recording a sale reads: the fee rate, the clock, and what the receipt says. */
export interface SaleDeps {
  processorFeeBps: number;
  publicUrl: string;
  refundWindowHours: number;
  now: () => Date;
  provider: Pick<PaymentProvider, 'testMode'>;
  /**
   * After a seller's sale e-mail, how long their further sales are gathered into one e-mail
   * (sale-digests.ts); 0 or absent: every sale is e-mailed on its own.
   */
  saleDigestSeconds?: number;
}

/**
 * What recording sales writes, gathered so a batch of settlements writes each table once: one
 * multi-row statement each for the purchases, the journal lines, the checkouts, the outbox and
 * the receipts (issue 31). Written by `writeSales`, in the same transaction, before it commits.
 */
export interface SaleWrites {
  purchases: NewPurchase[];
  journals: NewJournal[];
  paidCheckoutIds: string[];
  events: DomainEvent[];
  mails: MailMessage[];
  /** Sales counted into their sellers' digest windows, and the windows their e-mails open. */
  saleDigests: SaleDigestEntry[];
  /** Sellers read once per batch (their e-mail, its setting, their brand), by id. */
  sellers: Map<string, SellerForSale>;
}

export function newSaleWrites(): SaleWrites {
  return {
    purchases: [],
    journals: [],
    paidCheckoutIds: [],
    events: [],
    mails: [],
    saleDigests: [],
    sellers: new Map(),
  };
}

/**
 * Reads the sellers of `sellerIds` not read yet in this batch, in one statement; a settlement
 * batch calls it with every seller it is about to record, a single sale with its own.
 */
export async function loadSellersForSales(
  tx: PoolClient,
  writes: SaleWrites,
  sellerIds: string[],
  testMode: boolean,
): Promise<void> {
  const missing = sellerIds.filter((id) => !writes.sellers.has(id));
  if (missing.length === 0) return;
  for (const [id, seller] of await findSellersForSales(tx, missing, testMode))
    writes.sellers.set(id, seller);
}

/** Writes gathered sales: purchases first (the journals and checkouts refer to them). */
export async function writeSales(tx: PoolClient, writes: SaleWrites): Promise<void> {
  await insertPurchases(tx, writes.purchases);
  await postJournals(tx, writes.journals);
  await setCheckoutsStatus(tx, writes.paidCheckoutIds, 'paid', [
    'creating',
    'open',
    'failed',
    'not_started',
    'awaiting_email',
  ]);
  await enqueueEvents(tx, writes.events);
  await enqueueMails(tx, writes.mails);
  // Last: the seller's digest row stays locked only until the commit.
  await recordSaleDigests(tx, writes.saleDigests);
  writes.purchases = [];
  writes.journals = [];
  writes.paidCheckoutIds = [];
  writes.events = [];
  writes.mails = [];
  writes.saleDigests = [];
}

/**
 * Records a verified payment of a product as a sale: the purchase, its balanced payment journal,
 * `purchase.paid` (delivery's entitlement, analytics' revenue), the receipt e-mail and the
 * seller's "You made a sale" e-mail, in the caller's transaction. One-time purchases and every charge of a product subscription come here,
 * so a renewal earns the seller exactly what a sale does (same fees, journals and payouts).
 * Given `writes`, the rows are gathered there for the caller's `writeSales` (a settlement batch);
 * without, they are written now.
 */
export async function recordSale(
  tx: PoolClient,
  deps: SaleDeps,
  checkout: ProductCheckout,
  verified: VerifiedTransaction,
  subscription: EventData<'purchase.paid'>['subscription'] = null,
  writes?: SaleWrites,
  /** The receipt link's secret when the caller must know it (a confirmed free claim lands there). */
  receipt: { token: string; tokenHash: string } = newReceiptToken(),
): Promise<{ purchaseId: string; processorFeeMinor: number }> {
  const gathered = writes ?? newSaleWrites();
  const split = splitSale({
    amountMinor: checkout.amountMinor,
    platformFeeMinor: checkout.platformFeeMinor,
    reportedProcessorFeeMinor: verified.processorFeeMinor,
    processorFeeBps: deps.processorFeeBps,
  });
  // A checkout makes at most one purchase: it takes the checkout's id, so the sale a
  // `purchase.pending` announced (issue 27's sale.pending) has that id once paid.
  const purchaseId = checkout.id;
  const { productId, sellerId } = checkout;
  const paidAt = deps.now();
  gathered.purchases.push({
    id: purchaseId,
    checkoutId: checkout.id,
    txRef: checkout.txRef,
    productId,
    sellerId,
    buyerEmail: checkout.buyerEmail,
    productTitle: checkout.productTitle,
    fileId: checkout.fileId,
    fileName: checkout.fileName,
    amountMinor: split.amountMinor,
    currency: checkout.currency,
    feePlatformMinor: split.platformFeeMinor,
    feeProcessorMinor: split.processorFeeMinor,
    sellerEarningsMinor: split.sellerEarningsMinor,
    // The provider the checkout was opened with ('free' for a claim that cost nothing).
    provider: checkout.provider,
    providerTransactionId: verified.transactionId,
    testMode: deps.provider.testMode,
    subscriptionId: subscription?.subscriptionId ?? null,
    renewal: checkout.renewsPeriodStart !== null,
    status: 'paid',
    paidAt,
    receiptTokenHash: receipt.tokenHash,
    discountCode: checkout.discountCode,
    discountMinor: checkout.discountMinor,
  });
  // A free claim moved no money: it has a purchase (the entitlement's source) and no journal.
  if (split.amountMinor > 0) {
    gathered.journals.push({
      owner: { purchaseId },
      kind: 'payment',
      currency: checkout.currency,
      lines: paymentJournal(split, sellerId),
    });
  }
  gathered.paidCheckoutIds.push(checkout.id);
  gathered.events.push(
    createEvent(
      'purchase.paid',
      {
        purchaseId,
        productId,
        sellerId,
        buyerEmail: checkout.buyerEmail,
        txRef: checkout.txRef,
        amountMinor: split.amountMinor,
        currency: checkout.currency,
        feePlatformMinor: split.platformFeeMinor,
        feeProcessorMinor: split.processorFeeMinor,
        paidAt: paidAt.toISOString(),
        checkoutId: checkout.id,
        productTitle: checkout.productTitle,
        fileId: checkout.fileId,
        fileName: checkout.fileName,
        sellerEarningsMinor: split.sellerEarningsMinor,
        provider: checkout.provider,
        receiptTokenHash: receipt.tokenHash,
        buyerBrowserKeyHash: checkout.browserKeyHash,
        subscription,
        testMode: deps.provider.testMode,
      },
      { correlationId: checkout.correlationId },
    ),
  );
  await loadSellersForSales(tx, gathered, [sellerId], deps.provider.testMode);
  const seller = gathered.sellers.get(sellerId)!;
  const brand = seller.brand;
  // The receipt leads back to the store's domain the checkout started on, while it serves.
  const linkOrigin = buyerLinkOrigin(deps.publicUrl, checkout.storeOrigin, seller.domain);
  gathered.mails.push(
    receiptEmail({
      to: checkout.buyerEmail,
      brand: emailBrand(brand, deps.publicUrl),
      productTitle: checkout.productTitle,
      amountMinor: split.amountMinor,
      currency: checkout.currency,
      txRef: checkout.txRef,
      receiptUrl: `${linkOrigin}/receipt/${receipt.token}`,
      refundWindowHours: deps.refundWindowHours,
      testMode: deps.provider.testMode,
      discount: checkout.discountCode
        ? { code: checkout.discountCode, amountOffMinor: checkout.discountMinor }
        : null,
      subscription: checkout.billingInterval
        ? { interval: checkout.billingInterval, renewal: checkout.renewsPeriodStart !== null }
        : null,
    }),
  );
  const renewal = checkout.renewsPeriodStart !== null;
  const digestSeconds = deps.saleDigestSeconds ?? 0;
  const digest = (sale: SaleDigestEntry['sale']) =>
    gathered.saleDigests.push({
      sellerId,
      testMode: deps.provider.testMode,
      windowEndsAt: new Date(paidAt.getTime() + digestSeconds * 1000),
      sale,
    });
  const saleMail = saleEmailFor(seller, deps.publicUrl, {
    productTitle: checkout.productTitle,
    buyerEmail: checkout.buyerEmail,
    amountMinor: split.amountMinor,
    sellerEarningsMinor: split.sellerEarningsMinor,
    currency: checkout.currency,
    testMode: deps.provider.testMode,
    renewal,
  });
  if (saleMail && digestSeconds > 0 && seller.digestOpen) {
    // A sale e-mail went to this seller moments ago: this one is told in the next digest.
    digest({
      productTitle: checkout.productTitle,
      currency: checkout.currency,
      earningsMinor: split.sellerEarningsMinor,
      free: split.amountMinor === 0,
      renewal,
    });
  } else if (saleMail) {
    gathered.mails.push(saleMail);
    if (digestSeconds > 0) {
      // The seller's further sales, in this batch or the next, wait for the window's digest.
      seller.digestOpen = true;
      digest(null);
    }
  }
  if (!writes) await writeSales(tx, gathered);
  return { purchaseId, processorFeeMinor: split.processorFeeMinor };
}
