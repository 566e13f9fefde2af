import type {
  DiscountCodeInput,
  V1Balances,
  V1DiscountCode,
  V1DiscountCodeCreate,
  V1DiscountCodeUpdate,
  V1Payout,
  V1Sale,
  V1Subscription,
} from '@lockdrop/contracts';
import { minorToDecimalString } from '@lockdrop/money';
import type { PresentedDiscountCode } from '../discounts/index.js';
import type { getBalances, StoredPayout } from '../payouts/index.js';
import type { Purchase } from '../sales/index.js';
import { accessUntil, type Subscription, type SubscriptionRules } from '../subscriptions/index.js';

// The public API's resources (libs/contracts/src/api/v1-money.ts) from what the dashboard reads:
// the same rows and figures, in snake case, amounts in minor units beside their currency.

const iso = (at: Date | null) => at?.toISOString() ?? null;

export const toV1Sale = (purchase: Purchase): V1Sale => ({
  object: 'sale',
  id: purchase.id,
  product_id: purchase.productId,
  product_title: purchase.productTitle,
  file_name: purchase.fileName,
  amount: purchase.amountMinor,
  currency: purchase.currency,
  status: purchase.status,
  buyer_email: purchase.buyerEmail,
  fee_platform: purchase.feePlatformMinor,
  fee_processor: purchase.feeProcessorMinor,
  seller_earnings: purchase.sellerEarningsMinor,
  discount: purchase.discountCode
    ? { code: purchase.discountCode, amount_off: purchase.discountMinor }
    : null,
  subscription_id: purchase.subscriptionId,
  renewal: purchase.renewal,
  payment_reference: purchase.txRef,
  test_mode: purchase.testMode,
  created_at: purchase.paidAt.toISOString(),
  refunded_at: iso(purchase.refundedAt),
  updated_at: purchase.updatedAt.toISOString(),
});

export const toV1Subscription = (sub: Subscription, rules: SubscriptionRules): V1Subscription => ({
  object: 'subscription',
  id: sub.id,
  product_id: sub.productId!,
  title: sub.title,
  buyer_email: sub.buyerEmail,
  interval: sub.billingInterval,
  amount: sub.amountMinor,
  currency: sub.currency,
  status: sub.status,
  cancel_at_period_end: sub.cancelAtPeriodEnd,
  current_period_start: sub.currentPeriodStart.toISOString(),
  current_period_end: sub.currentPeriodEnd.toISOString(),
  access_until: accessUntil(sub, rules).toISOString(),
  grace_until: sub.status === 'past_due' ? iso(sub.graceUntil) : null,
  ended_at: iso(sub.endedAt),
  test_mode: sub.testMode,
  created_at: sub.createdAt.toISOString(),
  updated_at: sub.updatedAt.toISOString(),
});

export const toV1DiscountCode = (code: PresentedDiscountCode): V1DiscountCode => ({
  object: 'discount_code',
  id: code.id,
  code: code.code,
  kind: code.kind,
  percent_off: code.percentOff,
  amount_off: code.amountOffMinor,
  currency: code.currency,
  product_ids: code.productIds,
  starts_at: code.startsAt,
  ends_at: code.endsAt,
  max_uses: code.maxUses,
  max_uses_per_buyer: code.maxUsesPerBuyer,
  active: code.active,
  state: code.state,
  uses: code.uses,
  reserved: code.reserved,
  created_at: code.createdAt,
  updated_at: code.updatedAt,
});

/**
 * The API takes the amount off in minor units; the discount service (the one validation, shared
 * with the dashboard) takes the decimal the seller typed. A currency it cannot read is passed on
 * as it is, and the service refuses it in words.
 */
function amountOffText(amountOff: number | null, currency: string | null): string | number | null {
  if (amountOff === null) return null;
  try {
    return minorToDecimalString(amountOff, (currency ?? '').toUpperCase());
  } catch {
    return amountOff;
  }
}

export const discountInputOf = (body: V1DiscountCodeCreate): DiscountCodeInput => ({
  code: body.code,
  kind: body.kind,
  percentOff: body.percent_off,
  amountOff: amountOffText(body.amount_off, body.currency),
  currency: body.currency,
  productIds: body.product_ids,
  startsAt: body.starts_at,
  endsAt: body.ends_at,
  maxUses: body.max_uses,
  maxUsesPerBuyer: body.max_uses_per_buyer,
  active: body.active,
});

/** A PATCH laid over the code as it stands: only the fields given change. */
export const discountChange =
  (body: V1DiscountCodeUpdate) =>
  (current: DiscountCodeInput): DiscountCodeInput => {
    const currency = body.currency !== undefined ? body.currency : current.currency;
    return {
      code: body.code ?? current.code,
      kind: body.kind ?? current.kind,
      percentOff: body.percent_off !== undefined ? body.percent_off : current.percentOff,
      amountOff:
        body.amount_off !== undefined
          ? amountOffText(body.amount_off, currency)
          : current.amountOff,
      currency,
      productIds: body.product_ids !== undefined ? body.product_ids : current.productIds,
      startsAt: body.starts_at !== undefined ? body.starts_at : current.startsAt,
      endsAt: body.ends_at !== undefined ? body.ends_at : current.endsAt,
      maxUses: body.max_uses !== undefined ? body.max_uses : current.maxUses,
      maxUsesPerBuyer:
        body.max_uses_per_buyer !== undefined ? body.max_uses_per_buyer : current.maxUsesPerBuyer,
      active: body.active ?? current.active,
    };
  };

export const toV1Payout = (payout: StoredPayout): V1Payout => ({
  object: 'payout',
  id: payout.id,
  status: payout.status,
  amount: payout.amountMinor,
  currency: payout.currency,
  source_amount: payout.sourceAmountMinor,
  source_currency: payout.sourceCurrency,
  fx_rate: payout.fxRate,
  trigger: payout.trigger,
  destination_label: payout.destinationLabel,
  failure_reason: payout.failureReason,
  test_mode: payout.testMode,
  created_at: payout.createdAt.toISOString(),
  completed_at: iso(payout.completedAt),
});

export const toV1Balances = (
  figures: Awaited<ReturnType<typeof getBalances>>,
  testMode: boolean,
): V1Balances => ({
  object: 'balances',
  test_mode: testMode,
  balances: figures.balances.map((balance) => ({
    currency: balance.currency,
    pending: balance.pendingMinor,
    available: balance.availableMinor,
    in_transit: balance.inTransitMinor,
    paid_out: balance.paidOutMinor,
    minimum_payout: balance.minimumPayoutMinor,
  })),
  next_payout_at: figures.nextPayoutAt,
  releases: figures.releases.map((release) => ({
    currency: release.currency,
    amount: release.amountMinor,
    available_at: release.availableAt,
  })),
});
