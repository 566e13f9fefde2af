import type { PayoutBalances } from '@lockdrop/contracts';
import { formatMoney } from '@lockdrop/money';

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** Why "Withdraw now" cannot be pressed, in words; null when it can. */
export function withdrawBlocker(input: {
  balances: PayoutBalances | undefined;
  hasDestination: boolean;
  heldUntil: string | null;
  now: Date;
}): string | null {
  const { balances } = input;
  if (!balances) return 'Loading your balance…';
  if (!input.hasDestination) return 'Add your payout details first';
  if (input.heldUntil && new Date(input.heldUntil) > input.now)
    return `Payouts are paused until ${dateTime.format(new Date(input.heldUntil))}`;
  if (balances.withdrawAvailableAt && new Date(balances.withdrawAvailableAt) > input.now)
    return `You can withdraw again on ${dateTime.format(new Date(balances.withdrawAvailableAt))}`;
  const withMoney = balances.balances.filter((balance) => balance.availableMinor > 0);
  if (withMoney.length === 0) return 'Nothing available to withdraw yet';
  if (withMoney.every((balance) => balance.availableMinor < balance.minimumPayoutMinor)) {
    const minimums = withMoney.map((b) => formatMoney(b.minimumPayoutMinor, b.currency));
    return `The minimum payout is ${minimums.join(' / ')}`;
  }
  return null;
}
