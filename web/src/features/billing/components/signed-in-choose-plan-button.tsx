import type { BillingInterval, PlanCurrencyCode, PlanId } from '@lockdrop/contracts';
import { planById } from '@lockdrop/plans';
import { useNavigate } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { notify } from '@/lib/toast';
import { useChangePlan, usePlanBilling } from '../api/billing';
import { formatDay } from '../lib/format';

export interface ChoosePlanButtonProps {
  plan: PlanId;
  interval: BillingInterval;
  /** What a new plan is paid in (a plan already paid for keeps its own); USD when unset. */
  currency?: PlanCurrencyCode;
  variant?: 'primary' | 'secondary';
  className?: string;
  /** The words on the button; by default 'Choose {plan}'. */
  label?: string;
}

/**
 * A signed-in seller's plan button: an upgrade is paid at once (the provider's page), a
 * downgrade is scheduled for the end of the period. Loaded only once someone is signed in.
 */
export default function SignedInChoosePlanButton({
  plan,
  interval,
  currency,
  variant = 'primary',
  className = '',
  label,
}: ChoosePlanButtonProps) {
  const billing = usePlanBilling();
  const change = useChangePlan();
  const navigate = useNavigate();
  const target = planById(plan);
  const text =
    label ?? (target.monthlyPriceMinor === 0 ? 'Start for free' : `Choose ${target.name}`);

  const current = billing.data?.subscription;
  const onThisPlan =
    billing.data?.plan === plan &&
    (plan === 'free' || (current?.interval === interval && !current.cancelAtPeriodEnd));
  if (onThisPlan)
    return (
      <Button variant="secondary" className={className} disabled>
        Your current plan
      </Button>
    );

  return (
    <Button
      variant={variant}
      className={className}
      disabled={billing.isPending || change.isPending || change.isSuccess}
      onClick={() =>
        change.mutate(
          { plan, interval, ...(currency ? { currency } : {}) },
          {
            onSuccess: (result) => {
              if (result.outcome === 'scheduled') {
                notify.success(
                  `You move to ${target.name} on ${formatDay(result.effectiveAt)}, when your current period ends.`,
                );
                void navigate(`${paths.settings.getHref()}#plan`);
              }
            },
            onError: (error) => notify.error(error),
          },
        )
      }
    >
      {change.isPending || (change.isSuccess && change.data.outcome === 'checkout')
        ? 'Redirecting to payment…'
        : text}
    </Button>
  );
}
