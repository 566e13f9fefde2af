import {
  billingIntervalSchema,
  type BillingInterval,
  type PlanCurrencyCode,
  type PlanId,
} from '@lockdrop/contracts';
import { formatMoney } from '@lockdrop/money';
import { isPlanCurrency, PLANS, planById, planPriceMinor } from '@lockdrop/plans';
import { useEffect, useId, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button, ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { chosenPlanFrom, forgetChosenPlan } from '@/lib/chosen-plan';
import { notify } from '@/lib/toast';
import { useCancelPlan, usePlanBilling } from '../api/billing';
import { formatDay, perInterval, subscriptionSummary } from '../lib/format';
import { usePlanPaymentReturn } from '../lib/use-plan-payment-return';
import { ChoosePlanButton } from './choose-plan-button';
import { SubscriptionActions } from './subscription-actions';
import { SubscriptionStatus } from './subscription-status';

/**
 * /settings → Plan: the plan, what it costs and when it renews, a scheduled change, and every
 * way to change it (upgrade now, downgrade at period end, cancel, resume, annual refund).
 */
export function PlanBillingSection() {
  const id = useId();
  const billing = usePlanBilling();
  const confirming = usePlanPaymentReturn();
  const cancel = useCancelPlan();
  const current = billing.data ? planById(billing.data.plan) : null;
  const subscription = billing.data?.subscription ?? null;
  // A plan chosen on /pricing before signing up arrives as ?plan=&interval= (lib/chosen-plan).
  const [params] = useSearchParams();
  const chosen = chosenPlanFrom(params);
  const [plan, setPlan] = useState<PlanId>(chosen?.plan ?? 'pro');
  // Once the account is on the chosen plan, /email-verified stops offering its checkout.
  const onChosenPlan = chosen !== null && billing.data?.plan === chosen.plan;
  useEffect(() => {
    if (onChosenPlan) forgetChosenPlan();
  }, [onChosenPlan]);
  const [interval, setBillingInterval] = useState<BillingInterval>(
    chosen?.interval ?? subscription?.interval ?? 'monthly',
  );
  // A plan already paid for changes in its own currency; a new one in the currency chosen here.
  const paidIn =
    subscription && isPlanCurrency(subscription.currency) ? subscription.currency : null;
  const [chosenCurrency, setCurrency] = useState<PlanCurrencyCode>('USD');
  const currency = paidIn ?? chosenCurrency;
  const refundable =
    subscription?.refundableUntil && new Date(subscription.refundableUntil) > new Date()
      ? subscription.refundableUntil
      : null;

  if (billing.isPending)
    return <div className="h-24 animate-pulse rounded-xl bg-slate-100" aria-busy="true" />;
  if (billing.isError || !current)
    return (
      <p role="alert" className="text-sm text-rose-700">
        We could not load your plan. Please try again in a moment.
      </p>
    );

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <p className="text-sm text-slate-600">Current plan</p>
          <p
            className="flex items-center gap-3 text-2xl font-bold text-slate-900"
            data-plan={current.id}
          >
            {current.name}
            {subscription && <SubscriptionStatus subscription={subscription} />}
          </p>
          {subscription ? (
            <>
              <p className="mt-1 text-sm text-slate-700">
                {formatMoney(subscription.amountMinor, subscription.currency)}{' '}
                {perInterval(subscription.interval)}
              </p>
              <p className="mt-2 text-sm text-slate-700" data-testid="plan-summary">
                {subscriptionSummary(subscription)}
              </p>
              {subscription.pendingPlan && (
                <p className="mt-2 text-sm text-slate-700">
                  Changes to {planById(subscription.pendingPlan).name}
                  {subscription.pendingInterval && ` (${subscription.pendingInterval})`} on{' '}
                  {formatDay(subscription.currentPeriodEnd)}.
                </p>
              )}
            </>
          ) : (
            <p className="mt-1 text-sm text-slate-700">
              No monthly fee. Upgrade for lower fees and bigger files.
            </p>
          )}
          {confirming && (
            <p role="status" className="mt-2 text-sm font-medium text-indigo-700">
              Confirming your payment…
            </p>
          )}
        </div>
        <ButtonLink to={paths.pricing.getHref()} variant="secondary">
          Compare plans
        </ButtonLink>
      </div>

      {chosen && current.id !== chosen.plan && (
        <div
          role="status"
          data-testid="chosen-plan"
          className="rounded-xl bg-indigo-50 p-4 ring-1 ring-indigo-200"
        >
          <p className="text-sm font-medium text-indigo-900">
            You chose {planById(chosen.plan).name} ({chosen.interval}). Pay for it here to switch
            now.
          </p>
          <ChoosePlanButton
            plan={chosen.plan}
            interval={chosen.interval}
            currency={currency}
            label={`Continue to ${planById(chosen.plan).name} checkout`}
            className="mt-3"
          />
        </div>
      )}

      <fieldset className="rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200">
        <legend className="px-1 text-sm font-semibold text-slate-900">Change plan</legend>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <label htmlFor={`${id}-plan`} className="text-sm font-medium text-slate-900">
            Plan
            <select
              id={`${id}-plan`}
              value={plan}
              onChange={(event) => setPlan(event.target.value as PlanId)}
              className="mt-1 block w-full rounded-lg border-0 px-3 py-2 ring-1 ring-slate-300 ring-inset"
            >
              {PLANS.map((option) => (
                <option key={option.id} value={option.id}>
                  {option.name}
                  {option.monthlyPriceMinor > 0 &&
                    ` — ${formatMoney(planPriceMinor(option, interval, currency), currency)} ${perInterval(interval)}`}
                </option>
              ))}
            </select>
          </label>
          <div role="radiogroup" aria-label="Billing" className="flex gap-3 text-sm">
            {billingIntervalSchema.options.map((option) => (
              <label key={option} className="flex items-center gap-1.5">
                <input
                  type="radio"
                  name={`${id}-interval`}
                  value={option}
                  checked={interval === option}
                  onChange={() => setBillingInterval(option)}
                />
                {option === 'monthly' ? 'Monthly' : 'Yearly (save 17%)'}
              </label>
            ))}
          </div>
          <label className="block text-sm">
            <span className="font-medium text-slate-900">Pay in</span>
            <select
              value={currency}
              disabled={paidIn !== null}
              onChange={(event) => setCurrency(event.target.value as PlanCurrencyCode)}
              className="mt-1 block w-full rounded-lg border-0 px-3 py-2 ring-1 ring-slate-300 ring-inset"
            >
              <option value="USD">US dollars ($)</option>
              <option value="NGN">Naira (₦)</option>
            </select>
          </label>
          <ChoosePlanButton
            plan={plan}
            interval={interval}
            currency={currency}
            label="Change plan"
          />
        </div>
        <p className="mt-2 text-xs text-slate-600">
          Upgrades start now and are charged at once, less what is left of your current period.
          Downgrades take effect when the current period ends.
        </p>
      </fieldset>

      {subscription && (
        <div className="flex flex-wrap items-center gap-2">
          <SubscriptionActions subscription={subscription} cancelLabel="Cancel plan" />
          {refundable && (
            <Button
              size="sm"
              variant="ghost"
              disabled={cancel.isPending}
              onClick={() => {
                if (
                  !window.confirm('Cancel your plan now and get back the unused part of the year?')
                )
                  return;
                cancel.mutate(
                  { refund: true },
                  {
                    onSuccess: (result) =>
                      notify.success(
                        result.refundStatus === 'pending'
                          ? // Recorded and asked for; the provider has not confirmed it yet.
                            `Your refund of ${formatMoney(result.pendingRefundMinor ?? 0, result.currency)} is being processed. Your plan ends when the payment provider confirms it.`
                          : `Your plan is cancelled and ${formatMoney(result.refundedMinor, result.currency)} is on its way back to you.`,
                      ),
                    onError: (error) => notify.error(error),
                  },
                );
              }}
            >
              Cancel now with a refund (until {formatDay(refundable)})
            </Button>
          )}
        </div>
      )}
    </div>
  );
}
