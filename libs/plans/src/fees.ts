import { DEFAULT_PROCESSOR_FEE_BPS, type Plan } from './plans.js';

const BPS_PER_WHOLE = 10_000;

function assertAmount(amountMinor: number): void {
  if (!Number.isSafeInteger(amountMinor) || amountMinor < 0) {
    throw new RangeError(`Amount must be a non-negative integer of minor units: ${amountMinor}`);
  }
}

/** amount × bps / 10 000, rounded half up, in integers only. */
export function bpsOfMinor(amountMinor: number, bps: number): number {
  assertAmount(amountMinor);
  return Math.floor((amountMinor * bps * 2 + BPS_PER_WHOLE) / (BPS_PER_WHOLE * 2));
}

/** The platform fee on a sale, rounded once half up and never more than the sale itself. */
export function platformFeeMinor(plan: Pick<Plan, 'platformFeeBps'>, amountMinor: number): number {
  return Math.min(amountMinor, bpsOfMinor(amountMinor, plan.platformFeeBps));
}

/**
 * How one sale divides, in integer minor units — the one rule checkout books and the pricing
 * calculator shows. Each fee is rounded once, half up: the platform fee from the seller's plan,
 * the processor fee as the provider reported it or, if it reported none, `processorFeeBps`. The
 * processor fee is capped at what the platform fee leaves, and the seller gets the remainder, so
 * `amount = platform + processor + seller` holds exactly and no minor unit is created or lost.
 */
export interface SaleSplit {
  amountMinor: number;
  platformFeeMinor: number;
  processorFeeMinor: number;
  sellerEarningsMinor: number;
}

export function splitSale(input: {
  amountMinor: number;
  platformFeeMinor: number;
  reportedProcessorFeeMinor?: number | null;
  processorFeeBps?: number;
}): SaleSplit {
  const { amountMinor, platformFeeMinor } = input;
  const processorFee =
    input.reportedProcessorFeeMinor ??
    bpsOfMinor(amountMinor, input.processorFeeBps ?? DEFAULT_PROCESSOR_FEE_BPS);
  const processorFeeMinor = Math.max(0, Math.min(processorFee, amountMinor - platformFeeMinor));
  return {
    amountMinor,
    platformFeeMinor,
    processorFeeMinor,
    sellerEarningsMinor: amountMinor - platformFeeMinor - processorFeeMinor,
  };
}

export function processorFeeMinor(
  amountMinor: number,
  processorFeeBps = DEFAULT_PROCESSOR_FEE_BPS,
): number {
  return bpsOfMinor(amountMinor, processorFeeBps);
}

export interface EarningsBreakdown {
  amountMinor: number;
  platformFeeMinor: number;
  processorFeeMinor: number;
  netMinor: number;
  /** Share of the price the seller keeps, in basis points (0 when the price is 0). */
  keptBps: number;
}

/** What a seller on `plan` keeps from one sale of `amountMinor` (any currency's minor units). */
export function earningsBreakdown(
  plan: Plan,
  amountMinor: number,
  processorFeeBps = DEFAULT_PROCESSOR_FEE_BPS,
): EarningsBreakdown {
  const split = splitSale({
    amountMinor,
    platformFeeMinor: platformFeeMinor(plan, amountMinor),
    processorFeeBps,
  });
  const platform = split.platformFeeMinor;
  const processor = split.processorFeeMinor;
  const netMinor = split.sellerEarningsMinor;
  const keptBps =
    amountMinor === 0
      ? 0
      : Math.floor((netMinor * BPS_PER_WHOLE * 2 + amountMinor) / (amountMinor * 2));
  return {
    amountMinor,
    platformFeeMinor: platform,
    processorFeeMinor: processor,
    netMinor,
    keptBps,
  };
}

/** Share of the price kept before rounding on an amount: 100% − platform fee − processor fee. */
export function nominalKeptBps(plan: Plan, processorFeeBps = DEFAULT_PROCESSOR_FEE_BPS): number {
  return BPS_PER_WHOLE - plan.platformFeeBps - processorFeeBps;
}

/** Whole-percent saving of paying yearly instead of 12 monthly payments (0 for free plans). */
export function yearlySavingsPercent(plan: Plan): number {
  const twelveMonths = plan.monthlyPriceMinor * 12;
  if (twelveMonths === 0) return 0;
  return Math.round(((twelveMonths - plan.yearlyPriceMinor) * 100) / twelveMonths);
}
