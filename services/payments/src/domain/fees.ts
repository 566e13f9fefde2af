import { bpsOfMinor } from '@lockdrop/plans';

/**
 * How one payment divides, in integer minor units of the currency the buyer paid in.
 *
 * Rounding rule: each fee is rounded once, half up (`bpsOfMinor`): the platform fee from the
 * seller's plan at checkout, the processor fee as the provider reports it (its `app_fee`) or, if
 * it reports none, our configured rate. The seller's earnings are the remainder, so
 * `amount = platform + processor + seller` holds exactly for every amount and no minor unit is
 * ever created or lost. Fees never exceed the amount: the processor fee is capped at what the
 * platform fee leaves.
 */
export interface PaymentSplit {
  amountMinor: number;
  platformFeeMinor: number;
  processorFeeMinor: number;
  sellerEarningsMinor: number;
}

export function platformFeeFor(amountMinor: number, platformFeeBps: number): number {
  return Math.min(amountMinor, bpsOfMinor(amountMinor, platformFeeBps));
}

export function splitPayment(input: {
  amountMinor: number;
  platformFeeMinor: number;
  reportedProcessorFeeMinor: number | null;
  processorFeeBps: number;
}): PaymentSplit {
  const { amountMinor, platformFeeMinor } = input;
  const processorFee =
    input.reportedProcessorFeeMinor ?? bpsOfMinor(amountMinor, input.processorFeeBps);
  const processorFeeMinor = Math.max(0, Math.min(processorFee, amountMinor - platformFeeMinor));
  return {
    amountMinor,
    platformFeeMinor,
    processorFeeMinor,
    sellerEarningsMinor: amountMinor - platformFeeMinor - processorFeeMinor,
  };
}

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
  | 'fx_conversion';

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
export function paymentJournal(split: PaymentSplit, sellerId: string): LedgerLine[] {
  return [
    { account: 'buyer_payments', sellerId: null, amountMinor: split.amountMinor },
    { account: 'seller_earnings', sellerId, amountMinor: -split.sellerEarningsMinor },
    { account: 'platform_fees', sellerId: null, amountMinor: -split.platformFeeMinor },
    { account: 'processor_fees', sellerId: null, amountMinor: -split.processorFeeMinor },
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
