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
import { toPayoutView, type getBalances, type StoredPayout } from '../payouts/index.js';
import { toSaleView, type Purchase } from '../sales/index.js';
import { accessUntil, type Subscription, type SubscriptionRules } from '../subscriptions/index.js';

// The public API's resources (libs/contracts/src/api/v1-money.ts) from what the dashboard reads:
// the dashboard's own views where it has one for the seller (sales, payouts, balances), with
// `object` and what the API adds (`updatedAt`, the row's `testMode`).

const iso = (at: Date | null) => at?.toISOString() ?? null;

export const toV1Sale = (purchase: Purchase): V1Sale => ({
  object: 'sale',
  ...toSaleView(purchase),
  updatedAt: purchase.updatedAt.toISOString(),
});

/** The seller's view of a subscriber (the dashboard has only the subscriber's own). */
export const toV1Subscription = (sub: Subscription, rules: SubscriptionRules): V1Subscription => ({
  object: 'subscription',
  id: sub.id,
  productId: sub.productId!,
  title: sub.title,
  buyerEmail: sub.buyerEmail,
  interval: sub.billingInterval,
  amountMinor: sub.amountMinor,
  currency: sub.currency,
  status: sub.status,
  cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
  currentPeriodStart: sub.currentPeriodStart.toISOString(),
  currentPeriodEnd: sub.currentPeriodEnd.toISOString(),
  accessUntil: accessUntil(sub, rules).toISOString(),
  graceUntil: sub.status === 'past_due' ? iso(sub.graceUntil) : null,
  endedAt: iso(sub.endedAt),
  testMode: sub.testMode,
  createdAt: sub.createdAt.toISOString(),
  updatedAt: sub.updatedAt.toISOString(),
});

/** The dashboard's code without its display figures (label, decimal amount, revenue). */
export const toV1DiscountCode = ({
  amountOff: _decimal,
  label: _label,
  revenue: _revenue,
  ...code
}: PresentedDiscountCode): V1DiscountCode => ({ object: 'discount_code', ...code });

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

export const discountInputOf = ({
  amountOffMinor,
  ...body
}: V1DiscountCodeCreate): DiscountCodeInput => ({
  ...body,
  amountOff: amountOffText(amountOffMinor, body.currency),
});

/** A PATCH laid over the code as it stands: only the fields given change. */
export const discountChange =
  ({ amountOffMinor, ...body }: V1DiscountCodeUpdate) =>
  (current: DiscountCodeInput): DiscountCodeInput => {
    // A field given as undefined (absent) leaves the current value; null clears it.
    const given = Object.fromEntries(
      Object.entries(body).filter(([, value]) => value !== undefined),
    ) as Partial<DiscountCodeInput>;
    const currency = given.currency !== undefined ? given.currency : current.currency;
    return {
      ...current,
      ...given,
      currency,
      amountOff:
        amountOffMinor !== undefined ? amountOffText(amountOffMinor, currency) : current.amountOff,
    };
  };

export const toV1Payout = (payout: StoredPayout): V1Payout => ({
  object: 'payout',
  ...toPayoutView(payout),
  testMode: payout.testMode,
});

export const toV1Balances = (
  { withdrawAvailableAt: _dashboardOnly, ...figures }: Awaited<ReturnType<typeof getBalances>>,
  testMode: boolean,
): V1Balances => ({ object: 'balances', testMode, ...figures });
