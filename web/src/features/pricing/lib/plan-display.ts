import type { ReactNode } from 'react';
import { formatMoney } from '@lockdrop/money';
import { PLANS, yearlySavingsPercent, type Plan } from '@lockdrop/plans';
import type { BillingInterval } from '@lockdrop/contracts';

export type Billing = BillingInterval;

export function planPrice(plan: Plan, billing: Billing): string {
  return formatMoney(
    billing === 'monthly' ? plan.monthlyPriceMinor : plan.yearlyPriceMinor,
    plan.currency,
  );
}

/** The saving advertised on the yearly toggle, computed from the table ("save 17%"). */
export const yearlySavings = Math.max(...PLANS.map(yearlySavingsPercent));

export const planTaglines: Record<Plan['id'], string> = {
  free: 'Everything you need to make your first sales.',
  starter: 'For creators selling every week.',
  pro: 'For professionals building a brand.',
  business: 'For agencies and teams selling at scale.',
};

/**
 * The plan card's call to action: billing's "choose this plan" button, handed in by the route
 * (visitors sign up first; signed-in sellers pay for the plan right there).
 */
export type ChoosePlan = (plan: Plan, billing: Billing) => ReactNode;
