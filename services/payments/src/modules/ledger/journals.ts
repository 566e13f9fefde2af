import type { SaleSplit } from '@lockdrop/plans';

// How one payment divides is libs/plans' `splitSale`, the rule the pricing calculator shows
// too, so checkout and /pricing cannot disagree. This module turns a split into journals.

/**
 * `seller_earnings` is the seller's pending balance (inside the refund window and hold),
 * `seller_available` what the next payout may send, `seller_in_transit` what a payout is
 * carrying; `payouts_sent` is money that left us, `fx_conversion` joins the two journals of a
 * payout converted into another currency.
 */
export type LedgerAccount =
  | 'buyer_payments'
  | 'seller_earnings'
  | 'seller_available'
  | 'seller_in_transit'
  | 'platform_fees'
  | 'processor_fees'
  | 'payouts_sent'
  | 'fx_conversion'
  | 'plan_revenue';

export type SellerAccount = 'seller_earnings' | 'seller_available' | 'seller_in_transit';

/** Moves `amountMinor` of a seller's money from one of their accounts to another. */
export function sellerTransfer(
  sellerId: string,
  from: SellerAccount,
  to: SellerAccount,
  amountMinor: number,
): LedgerLine[] {
  return [
    { account: from, sellerId, amountMinor },
    { account: to, sellerId, amountMinor: -amountMinor },
  ];
}

/** One line of a journal: debits positive, credits negative. */
export interface LedgerLine {
  account: LedgerAccount;
  sellerId: string | null;
  amountMinor: number;
}

/**
 * The payment journal: the buyer's money (held by the provider) is debited; it is owed to the
 * seller, earned by the platform and charged by the processor.
 */
export function paymentJournal(split: SaleSplit, sellerId: string): LedgerLine[] {
  return [
    { account: 'buyer_payments', sellerId: null, amountMinor: split.amountMinor },
    { account: 'seller_earnings', sellerId, amountMinor: -split.sellerEarningsMinor },
    { account: 'platform_fees', sellerId: null, amountMinor: -split.platformFeeMinor },
    { account: 'processor_fees', sellerId: null, amountMinor: -split.processorFeeMinor },
  ];
}

/**
 * A seller paying for their own plan: the money is the platform's revenue (`plan_revenue`), less
 * what the processor charged; no seller account is touched.
 */
export function planPaymentJournal(amountMinor: number, processorFeeMinor: number): LedgerLine[] {
  return [
    { account: 'buyer_payments', sellerId: null, amountMinor },
    { account: 'plan_revenue', sellerId: null, amountMinor: -(amountMinor - processorFeeMinor) },
    { account: 'processor_fees', sellerId: null, amountMinor: -processorFeeMinor },
  ];
}

/** Part of a plan charge handed back (a pro-rata refund): the platform's revenue returns it. */
export function planRefundJournal(refundMinor: number): LedgerLine[] {
  return [
    { account: 'plan_revenue', sellerId: null, amountMinor: refundMinor },
    { account: 'buyer_payments', sellerId: null, amountMinor: -refundMinor },
  ];
}

/** The exact mirror of a journal; the original lines are never edited. */
export function reversalJournal(lines: LedgerLine[]): LedgerLine[] {
  return lines.map((line) => ({ ...line, amountMinor: -line.amountMinor }));
}

/**
 * The refund of a payment journal, as the cash really moves: the buyer gets everything back and
 * the platform fee is returned. Providers such as Flutterwave keep their fee on a refund; then
 * the processor line is not reversed and the seller bears it (as on Gumroad and Stripe), so the
 * ledger matches the provider's balance instead of pretending the fee came back.
 */
export function refundJournal(
  payment: LedgerLine[],
  {
    processorFeeReturned,
    sellerAccount = 'seller_earnings',
  }: { processorFeeReturned: boolean; sellerAccount?: SellerAccount },
): LedgerLine[] {
  const mirror = reversalJournal(payment).map((line) =>
    line.account === 'seller_earnings' ? { ...line, account: sellerAccount } : line,
  );
  if (processorFeeReturned) return mirror;
  const keptFee = mirror
    .filter((line) => line.account === 'processor_fees')
    .reduce((sum, line) => sum + line.amountMinor, 0);
  return mirror
    .filter((line) => line.account !== 'processor_fees')
    .map((line) =>
      line.account === sellerAccount ? { ...line, amountMinor: line.amountMinor + keptFee } : line,
    );
}
