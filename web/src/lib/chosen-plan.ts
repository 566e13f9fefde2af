import {
  billingIntervalSchema,
  planIdSchema,
  type BillingInterval,
  type PlanId,
} from '@lockdrop/contracts';
import { z } from 'zod';
import { paths } from '@/config/paths';

/**
 * A paid plan a signed-out visitor chose on /pricing (issue 29: it used to be forgotten at
 * sign-up). It travels as `?plan=pro&interval=monthly` from the plan card to /signup (or /login)
 * and on to settings' plan checkout; anything else in the URL is ignored, never trusted.
 */
const chosenPlanSchema = z.object({
  plan: planIdSchema.exclude(['free']),
  interval: billingIntervalSchema.catch('monthly'),
});
export interface ChosenPlan {
  plan: Exclude<PlanId, 'free'>;
  interval: BillingInterval;
}

export function chosenPlanFrom(params: URLSearchParams): ChosenPlan | null {
  const parsed = chosenPlanSchema.safeParse({
    plan: params.get('plan'),
    interval: params.get('interval') ?? undefined,
  });
  return parsed.success ? parsed.data : null;
}

export const chosenPlanQuery = (choice: ChosenPlan) =>
  new URLSearchParams({ plan: choice.plan, interval: choice.interval }).toString();

/** Settings' plan section with the chosen plan preselected and its checkout offered. */
export const planCheckoutHref = (choice: ChosenPlan) =>
  `${paths.settings.getHref()}?${chosenPlanQuery(choice)}#plan`;

/*
 * The verification e-mail's link opens in another tab (or later): the chosen plan is kept in
 * this browser's localStorage from sign-up until the account is on it, so /email-verified can
 * offer its checkout too. Validated again on the way out, like the URL.
 */
const KEY = 'lockdrop:chosen-plan';

export function rememberChosenPlan(choice: ChosenPlan): void {
  try {
    localStorage.setItem(KEY, chosenPlanQuery(choice));
  } catch {
    // Storage disabled: the plan still travels in the URL straight after sign-up.
  }
}

export function recallChosenPlan(): ChosenPlan | null {
  try {
    return chosenPlanFrom(new URLSearchParams(localStorage.getItem(KEY) ?? ''));
  } catch {
    return null;
  }
}

export function forgetChosenPlan(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // Nothing kept.
  }
}
