import type { PayoutBalance, PayoutBalances } from '@lockdrop/contracts';
import { describe, expect, it } from 'vitest';
import { withdrawBlocker } from './withdraw';

const now = new Date('2026-11-24T12:00:00Z');
const ngn = (availableMinor: number): PayoutBalance => ({
  currency: 'NGN',
  pendingMinor: 0,
  availableMinor,
  inTransitMinor: 0,
  paidOutMinor: 0,
  minimumPayoutMinor: 100_000,
});
const balances = (
  list: PayoutBalance[],
  withdrawAvailableAt: string | null = null,
): PayoutBalances => ({
  balances: list,
  nextPayoutAt: null,
  withdrawAvailableAt,
  releases: [],
});
const block = (input: Partial<Parameters<typeof withdrawBlocker>[0]>) =>
  withdrawBlocker({
    balances: balances([ngn(500_000)]),
    hasDestination: true,
    heldUntil: null,
    now,
    ...input,
  });

describe('Withdraw now', () => {
  it('may be pressed with an available balance above the minimum and a destination', () => {
    expect(block({})).toBeNull();
  });

  it('says why not, in the order a seller can fix it', () => {
    expect(block({ hasDestination: false })).toBe('Add your payout details first');
    expect(block({ heldUntil: '2026-11-25T09:00:00Z' })).toMatch(/^Payouts are paused until /);
    expect(block({ heldUntil: '2026-11-23T09:00:00Z' })).toBeNull();
    expect(block({ balances: balances([ngn(500_000)], '2026-11-25T08:00:00Z') })).toMatch(
      /^You can withdraw again on /,
    );
    expect(block({ balances: balances([ngn(0)]) })).toBe('Nothing available to withdraw yet');
    expect(block({ balances: balances([ngn(-2_000)]) })).toBe('Nothing available to withdraw yet');
    expect(block({ balances: balances([ngn(50_000)]) })).toMatch(/^The minimum payout is ₦1,000$/);
  });
});
