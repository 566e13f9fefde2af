/**
 * The one plan table (ARCHITECTURE.md §4). Every page and every service reads plan figures from
 * here; prices are USD cents, fees are basis points (1% = 100), sizes are bytes.
 */
export const PLAN_IDS = ['free', 'starter', 'pro', 'business'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export type AnalyticsTier = 'basic' | 'enhanced' | 'advanced' | 'premium';

export interface Plan {
  id: PlanId;
  name: string;
  /** Currency of the subscription prices. */
  currency: 'USD';
  monthlyPriceMinor: number;
  yearlyPriceMinor: number;
  /** null = unlimited. */
  uploadsPerMonth: number | null;
  platformFeeBps: number;
  maxFileBytes: number;
  analytics: AnalyticsTier;
  customBranding: boolean;
  customDomain: boolean;
  apiAccess: boolean;
  /** Seats for team accounts: 0 = no team, null = unlimited. */
  teamSeats: number | null;
  /** Highlighted as the popular choice on pricing pages. */
  popular: boolean;
}

const MB = 1024 * 1024;
const GB = 1024 * MB;

export const PLANS: readonly Plan[] = [
  {
    id: 'free',
    name: 'Free',
    currency: 'USD',
    monthlyPriceMinor: 0,
    yearlyPriceMinor: 0,
    uploadsPerMonth: 15,
    platformFeeBps: 500,
    maxFileBytes: 50 * MB,
    analytics: 'basic',
    customBranding: false,
    customDomain: false,
    apiAccess: false,
    teamSeats: 0,
    popular: false,
  },
  {
    id: 'starter',
    name: 'Starter',
    currency: 'USD',
    monthlyPriceMinor: 999,
    yearlyPriceMinor: 9999,
    uploadsPerMonth: 50,
    platformFeeBps: 350,
    maxFileBytes: 250 * MB,
    analytics: 'enhanced',
    customBranding: false,
    customDomain: false,
    apiAccess: false,
    teamSeats: 0,
    popular: false,
  },
  {
    id: 'pro',
    name: 'Pro',
    currency: 'USD',
    monthlyPriceMinor: 1999,
    yearlyPriceMinor: 19999,
    uploadsPerMonth: 150,
    platformFeeBps: 250,
    maxFileBytes: 500 * MB,
    analytics: 'advanced',
    customBranding: true,
    customDomain: false,
    apiAccess: false,
    teamSeats: 3,
    popular: true,
  },
  {
    id: 'business',
    name: 'Business',
    currency: 'USD',
    monthlyPriceMinor: 4999,
    yearlyPriceMinor: 49999,
    uploadsPerMonth: null,
    platformFeeBps: 100,
    maxFileBytes: 1 * GB,
    analytics: 'premium',
    customBranding: true,
    customDomain: true,
    apiAccess: true,
    teamSeats: null,
    popular: false,
  },
];

/** Currencies a plan can be paid in: US dollars (the table above) and naira (issue 29). */
export const PLAN_CURRENCIES = ['USD', 'NGN'] as const;
export type PlanCurrency = (typeof PLAN_CURRENCIES)[number];

/**
 * Naira prices, in kobo: set prices rather than a daily conversion, so a seller in Nigeria sees
 * a round figure that does not move with the rate and is not charged a card's FX margin. Set at
 * about ₦1,500 to the dollar (the rate sellers met in 2025–26) and rounded to round naira; the
 * year costs ten months, as in dollars (≈17% saved).
 */
const NAIRA_PRICES: Readonly<Record<PlanId, { monthly: number; yearly: number }>> = {
  free: { monthly: 0, yearly: 0 },
  starter: { monthly: 15_000_00, yearly: 150_000_00 },
  pro: { monthly: 30_000_00, yearly: 300_000_00 },
  business: { monthly: 75_000_00, yearly: 750_000_00 },
};

export function isPlanCurrency(value: unknown): value is PlanCurrency {
  return typeof value === 'string' && (PLAN_CURRENCIES as readonly string[]).includes(value);
}

/** What `plan` costs per `interval` in `currency` (minor units): the one place plan prices are read. */
export function planPriceMinor(
  plan: Plan,
  interval: 'monthly' | 'yearly',
  currency: PlanCurrency = plan.currency,
): number {
  if (currency === 'NGN')
    return interval === 'yearly' ? NAIRA_PRICES[plan.id].yearly : NAIRA_PRICES[plan.id].monthly;
  return interval === 'yearly' ? plan.yearlyPriceMinor : plan.monthlyPriceMinor;
}

/** Fee of the active payment provider used by the earnings calculator (3.5%). */
export const DEFAULT_PROCESSOR_FEE_BPS = 350;

export function isPlanId(value: unknown): value is PlanId {
  return typeof value === 'string' && (PLAN_IDS as readonly string[]).includes(value);
}

/** Any value that is not a known plan id is treated as free (spec §3). */
export function planById(id: unknown): Plan {
  const planId: PlanId = isPlanId(id) ? id : 'free';
  return PLANS.find((plan) => plan.id === planId) as Plan;
}
