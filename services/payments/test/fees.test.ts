import { planById, platformFeeMinor, splitSale } from '@lockdrop/plans';
import { describe, expect, it } from 'vitest';
import { paymentJournal, refundJournal, reversalJournal } from '../src/modules/ledger/index.js';

const sum = (lines: { amountMinor: number }[]) =>
  lines.reduce((total, line) => total + line.amountMinor, 0);

/** Deterministic pseudo-random numbers, so a failure reproduces. */
function* randoms(seed: number) {
  let state = seed;
  for (;;) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    yield state;
  }
}

describe('fees and the payment journal', () => {
  it('free plan 5% + processor 3.5% on NGN 5,000.00 gives exact kobo figures', () => {
    const amountMinor = 500_000;
    const split = splitSale({
      amountMinor,
      platformFeeMinor: platformFeeMinor(planById('free'), amountMinor),
      reportedProcessorFeeMinor: null,
      processorFeeBps: 350,
    });
    expect(split).toEqual({
      amountMinor: 500_000,
      platformFeeMinor: 25_000,
      processorFeeMinor: 17_500,
      sellerEarningsMinor: 457_500,
    });
    expect(paymentJournal(split, 'seller-1')).toEqual([
      { account: 'buyer_payments', sellerId: null, amountMinor: 500_000 },
      { account: 'seller_earnings', sellerId: 'seller-1', amountMinor: -457_500 },
      { account: 'platform_fees', sellerId: null, amountMinor: -25_000 },
      { account: 'processor_fees', sellerId: null, amountMinor: -17_500 },
    ]);
  });

  it('rounds each fee once, half up, and gives the remainder to the seller', () => {
    // 5% of 1,010 = 50.5 → 51; 3.5% of 1,010 = 35.35 → 35; seller 924.
    expect(
      splitSale({
        amountMinor: 1_010,
        platformFeeMinor: platformFeeMinor({ platformFeeBps: 500 }, 1_010),
        reportedProcessorFeeMinor: null,
        processorFeeBps: 350,
      }),
    ).toEqual({
      amountMinor: 1_010,
      platformFeeMinor: 51,
      processorFeeMinor: 35,
      sellerEarningsMinor: 924,
    });
    // A provider fee larger than what is left is capped: nobody earns less than nothing.
    expect(
      splitSale({
        amountMinor: 10,
        platformFeeMinor: 1,
        reportedProcessorFeeMinor: 50,
        processorFeeBps: 350,
      }),
    ).toEqual({
      amountMinor: 10,
      platformFeeMinor: 1,
      processorFeeMinor: 9,
      sellerEarningsMinor: 0,
    });
  });

  it('always balances: payment and reversal journals sum to zero for many amounts, plans and fees', () => {
    const random = randoms(20_251_122);
    const next = () => random.next().value as number;
    for (let i = 0; i < 5_000; i += 1) {
      const amountMinor = 1 + (next() % (i % 2 ? 100 : 100_000_000));
      const plan = planById(['free', 'starter', 'pro', 'business'][next() % 4]);
      const reported = next() % 3 === 0 ? null : next() % (amountMinor + 1);
      const split = splitSale({
        amountMinor,
        platformFeeMinor: platformFeeMinor(plan, amountMinor),
        reportedProcessorFeeMinor: reported,
        processorFeeBps: next() % 1_000,
      });
      const journal = paymentJournal(split, 'seller');
      expect(sum(journal)).toBe(0);
      expect(sum(reversalJournal(journal))).toBe(0);
      for (const processorFeeReturned of [true, false]) {
        const refund = refundJournal(journal, { processorFeeReturned });
        expect(sum(refund)).toBe(0);
        // The buyer always gets exactly what they paid back.
        expect(refund.find((line) => line.account === 'buyer_payments')!.amountMinor).toBe(
          -amountMinor,
        );
      }
      expect(split.platformFeeMinor + split.processorFeeMinor + split.sellerEarningsMinor).toBe(
        amountMinor,
      );
      expect(
        Math.min(split.platformFeeMinor, split.processorFeeMinor, split.sellerEarningsMinor),
      ).toBeGreaterThanOrEqual(0);
      expect(journal.every((line) => Number.isSafeInteger(line.amountMinor))).toBe(true);
    }
  });
});
