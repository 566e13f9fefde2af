import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PROCESSOR_FEE_BPS,
  PLANS,
  earningsBreakdown,
  formatBps,
  formatFileSize,
  nominalKeptBps,
  planById,
  planFeatureLines,
  platformFeeMinor,
  processorFeeMinor,
  yearlySavingsPercent,
} from '../src/index.js';

describe('plan table (ARCHITECTURE.md §4)', () => {
  it('holds the four plans in order with their prices in USD cents', () => {
    expect(PLANS.map((p) => [p.id, p.monthlyPriceMinor, p.yearlyPriceMinor])).toEqual([
      ['free', 0, 0],
      ['starter', 999, 9999],
      ['pro', 1999, 19999],
      ['business', 4999, 49999],
    ]);
  });

  it('holds uploads, fees and file sizes', () => {
    expect(
      PLANS.map((p) => [p.uploadsPerMonth, p.platformFeeBps, formatFileSize(p.maxFileBytes)]),
    ).toEqual([
      [15, 500, '50 MB'],
      [50, 350, '250 MB'],
      [150, 250, '500 MB'],
      [null, 100, '1 GB'],
    ]);
  });

  it('uses a 3.5% processor fee by default', () => {
    expect(DEFAULT_PROCESSOR_FEE_BPS).toBe(350);
  });
});

describe('planById', () => {
  it('finds known plans', () => {
    expect(planById('pro').name).toBe('Pro');
    expect(planById('business').platformFeeBps).toBe(100);
  });

  it('treats any other value as free', () => {
    expect(planById('enterprise').id).toBe('free');
    expect(planById(null).id).toBe('free');
    expect(planById(undefined).id).toBe('free');
    expect(planById('PRO').id).toBe('free');
  });
});

describe('fees', () => {
  it('takes the plan fee in integer minor units, rounded half up', () => {
    expect(platformFeeMinor(planById('free'), 1000)).toBe(50);
    expect(platformFeeMinor(planById('pro'), 1999)).toBe(50); // 49.975
    expect(platformFeeMinor(planById('business'), 150)).toBe(2); // 1.5
    expect(platformFeeMinor(planById('business'), 149)).toBe(1); // 1.49
    expect(processorFeeMinor(1000)).toBe(35);
    expect(processorFeeMinor(1000, 290)).toBe(29);
  });

  it('rejects fractional or negative amounts', () => {
    expect(() => platformFeeMinor(planById('free'), 10.5)).toThrow(RangeError);
    expect(() => platformFeeMinor(planById('free'), -1)).toThrow(RangeError);
  });
});

describe('earningsBreakdown', () => {
  it('splits a sale into fees, net and share kept', () => {
    expect(earningsBreakdown(planById('free'), 10000)).toEqual({
      amountMinor: 10000,
      platformFeeMinor: 500,
      processorFeeMinor: 350,
      netMinor: 9150,
      keptBps: 9150,
    });
    expect(earningsBreakdown(planById('business'), 2500)).toEqual({
      amountMinor: 2500,
      platformFeeMinor: 25,
      processorFeeMinor: 88, // 87.5
      netMinor: 2387,
      keptBps: 9548,
    });
  });

  it('never has fees and net disagree with the price', () => {
    for (const plan of PLANS) {
      for (const amount of [0, 1, 99, 100, 101, 1999, 123457, 99999999]) {
        const b = earningsBreakdown(plan, amount);
        expect(b.platformFeeMinor + b.processorFeeMinor + b.netMinor).toBe(amount);
      }
    }
  });

  it('keeps 0% of a zero price', () => {
    expect(earningsBreakdown(planById('pro'), 0).keptBps).toBe(0);
  });

  it('states the nominal share kept per plan', () => {
    expect(PLANS.map((p) => formatBps(nominalKeptBps(p)))).toEqual([
      '91.5%',
      '93%',
      '94%',
      '95.5%',
    ]);
  });
});

describe('yearly pricing', () => {
  it('saves 17% on every paid plan and nothing on free', () => {
    expect(PLANS.map(yearlySavingsPercent)).toEqual([0, 17, 17, 17]);
  });
});

describe('display helpers', () => {
  it('formats basis points without trailing zeros', () => {
    expect(formatBps(500)).toBe('5%');
    expect(formatBps(350)).toBe('3.5%');
    expect(formatBps(9548)).toBe('95.48%');
  });

  it('derives feature lines from the table', () => {
    expect(planFeatureLines(planById('pro'))).toEqual([
      '150 uploads/month',
      '2.5% platform fee',
      '500 MB max file size',
      'Advanced analytics',
      'Custom branding',
      'Team up to 3',
    ]);
    expect(planFeatureLines(planById('business'))).toContain('Unlimited uploads');
    expect(planFeatureLines(planById('business'))).toContain('API access');
  });
});
