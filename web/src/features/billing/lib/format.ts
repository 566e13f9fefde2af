import type { BillingInterval, SubscriptionView } from '@lockdrop/contracts';
import { formatMoney } from '@lockdrop/money';

export const perInterval = (interval: BillingInterval) =>
  interval === 'yearly' ? 'per year' : 'per month';

const dayFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
export const formatDay = (iso: string) => dayFormat.format(new Date(iso));

/** "₦2,000 per month". */
export const recurringPrice = (
  sub: Pick<SubscriptionView, 'amountMinor' | 'currency' | 'interval'>,
) => `${formatMoney(sub.amountMinor, sub.currency)} ${perInterval(sub.interval)}`;

/** One sentence for where a subscription stands, in the subscriber's words. */
export function subscriptionSummary(sub: SubscriptionView): string {
  if (sub.status === 'expired') return `Ended on ${formatDay(sub.endedAt ?? sub.accessUntil)}.`;
  if (sub.status === 'past_due')
    return `Your last payment did not go through. Pay by ${formatDay(sub.graceUntil ?? sub.accessUntil)} to keep access.`;
  if (sub.cancelAtPeriodEnd)
    return `Cancelled — you keep access until ${formatDay(sub.currentPeriodEnd)}. Nothing more is charged.`;
  return `Renews on ${formatDay(sub.currentPeriodEnd)} for ${recurringPrice(sub)}.`;
}

export const statusLabel: Record<SubscriptionView['status'] | 'cancelled', string> = {
  active: 'Active',
  past_due: 'Payment failed',
  expired: 'Ended',
  cancelled: 'Cancelled',
};

export const statusOf = (sub: SubscriptionView) =>
  sub.status === 'active' && sub.cancelAtPeriodEnd ? 'cancelled' : sub.status;
