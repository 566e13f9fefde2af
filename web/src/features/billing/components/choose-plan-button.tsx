import { planById, type Plan } from '@lockdrop/plans';
import { lazy, Suspense } from 'react';
import { Button, ButtonLink } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useSession } from '@/features/auth';
import { chosenPlanQuery } from '@/lib/chosen-plan';
import type { ChoosePlanButtonProps } from './signed-in-choose-plan-button';
import type { BillingInterval } from '@lockdrop/contracts';

// The billing API (and its schemas) loads only for signed-in sellers: the landing page's plan
// cards stay plain links for visitors, without that weight in their first JavaScript.
const SignedInChoosePlanButton = lazy(() => import('./signed-in-choose-plan-button'));

/**
 * Starts a plan change from any page (pricing, dashboard, settings): a signed-out visitor signs
 * up first; a signed-in seller pays for an upgrade or schedules a downgrade right there.
 */
export function ChoosePlanButton(props: ChoosePlanButtonProps) {
  const { isSignedIn } = useSession();
  const target = planById(props.plan);
  const text =
    props.label ?? (target.monthlyPriceMinor === 0 ? 'Start for free' : `Choose ${target.name}`);
  // The link carries a paid plan through sign-up to its checkout; it is also what the
  // prerendered page shows before hydration, so an early click keeps the plan too.
  const signUpHref =
    props.plan === 'free'
      ? paths.auth.signup.getHref()
      : `${paths.auth.signup.getHref()}?${chosenPlanQuery({ plan: props.plan, interval: props.interval })}`;
  if (!isSignedIn)
    return (
      <ButtonLink to={signUpHref} variant={props.variant ?? 'primary'} className={props.className}>
        {text}
      </ButtonLink>
    );
  return (
    <Suspense
      fallback={
        <Button variant={props.variant ?? 'primary'} className={props.className} disabled>
          {text}
        </Button>
      }
    >
      <SignedInChoosePlanButton {...props} />
    </Suspense>
  );
}

/** A plan card's call to action (pricing and landing pages): the popular plan stands out. */
export const choosePlanFor = (plan: Plan, interval: BillingInterval) => (
  <ChoosePlanButton
    plan={plan.id}
    interval={interval}
    variant={plan.popular ? 'primary' : 'secondary'}
    className="w-full"
  />
);
